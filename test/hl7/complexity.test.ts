/**
 * HL7 work proportional to what is written, not to what the record holds (issue 18): free text longer than its
 * component is escaped only as far as the component can keep, and a limit rule of the chart check counts no
 * further than its limit. Work is measured by what is counted, not by the clock: the characters handed to the
 * escaping (through a mock of its module, which every builder goes through) and the characters a limit rule reads
 * (through a string-like object that counts its reads).
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Directory, PatientChart } from '../../src/index.js';
import { hl7CxLength, hl7EscapedLength, utf8Length } from '../../src/model/limits.js';
import { joinedTextComponent, joinNonEmpty, textComponent } from '../../src/hl7/data-types/text-component.js';
import { truncateEscaped } from '../../src/hl7/internal/fit.js';
import { escapeStandard } from '../../src/hl7/internal/standard-escape.js';
import { runs } from '../support/runs.js';
import { CHART, DIRECTORY } from './fixtures.js';

/** Characters handed to the escaping from outside its module since the last reset. */
const escaped = { chars: 0 };

vi.mock('../../src/hl7/internal/standard-escape.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/hl7/internal/standard-escape.js')>();
  return {
    ...original,
    escapeStandard: (text: string, lines: boolean) => {
      escaped.chars += text.length;
      return original.escapeStandard(text, lines);
    },
    esc: (text: string) => {
      escaped.chars += text.length;
      return original.esc(text);
    },
    escLines: (text: string) => {
      escaped.chars += text.length;
      return original.escLines(text);
    },
  };
});

// Imported after the mock is declared (vitest hoists vi.mock, so a static import would do too; this says it).
const { buildAdrA19, buildAdtA08, buildAdtA31, buildMdmT02, buildOruR01 } = await import('../../src/index.js');

/** Hostile filler: delimiters, escape look-alikes, a tab, non-ASCII and non-BMP text (no line break). */
const FILLER = 'Zoë|Ana^B&C~D\\E\\F\\ 😀\tx 中文 ';

/** `start` followed by filler up to `length` characters (never splitting a surrogate pair). */
function long(start: string, length: number): string {
  let text = start;
  while (text.length < length) text += FILLER;
  text = text.slice(0, length);
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? `${text.slice(0, -1)}x` : text;
}

/**
 * The example chart and directory with every free-text value that HL7 shortens to a component made `length`
 * characters long, `start` first (names, addresses, display texts, titles, the directory's names). Texts HL7
 * sends whole (note text, string answers, the score interpretation, identifiers, contact values) keep their value.
 */
function lengthened(length: number, start = ''): { chart: PatientChart; directory: Directory } {
  const chart = structuredClone(CHART) as PatientChart;
  const directory = structuredClone(DIRECTORY) as Directory;
  const l = (text: string | undefined): string => long(start + (text ?? ''), length);
  const p = chart.patient;
  p.names = p.names.map((n) => ({ ...n, family: l(n.family), given: (n.given ?? ['g']).map(l), prefix: (n.prefix ?? ['p']).map(l), suffix: (n.suffix ?? ['s']).map(l), text: l(n.text) }));
  p.addresses = (p.addresses ?? []).map((a) => ({ ...a, lines: (a.lines ?? []).map(l), city: l(a.city), district: l(a.district), state: l(a.state), postalCode: l(a.postalCode), country: l(a.country) }));
  p.coverages = (p.coverages ?? []).map((c) => ({
    ...c,
    payer: { ...c.payer, name: l(c.payer.name) },
    ...(c.plan === undefined ? {} : { plan: { ...c.plan, name: l(c.plan.name) } }),
    ...(c.group === undefined ? {} : { group: { ...c.group, name: l(c.group.name) } }),
  }));
  for (const e of chart.encounters ?? []) {
    for (const d of e.diagnoses ?? []) d.code.display = l(d.code.display);
    for (const pr of e.procedures ?? []) pr.code.display = l(pr.code.display);
  }
  for (const n of chart.notes ?? []) n.title = l(n.title);
  for (const a of chart.assessments ?? []) {
    a.instrument.title = l(a.instrument.title);
    if (a.instrument.code !== undefined) a.instrument.code.display = l(a.instrument.code.display);
    for (const item of a.instrument.items ?? []) item.text = l(item.text);
    for (const answer of a.answers) if (answer.value.type === 'coding') answer.value.value.display = l(answer.value.value.display);
    if (a.score?.code !== undefined) a.score.code.display = l(a.score.code.display);
  }
  for (const h of chart.medicalHistory ?? []) h.code.display = l(h.code.display);
  for (const o of directory.organizations ?? []) o.name = l(o.name);
  for (const pr of directory.practitioners ?? []) pr.names = pr.names.map((n) => ({ ...n, family: l(n.family), given: (n.given ?? []).map(l), prefix: (n.prefix ?? []).map(l), suffix: (n.suffix ?? []).map(l) }));
  for (const loc of directory.locations ?? []) loc.name = l(loc.name);
  return { chart, directory };
}

const NOW = '2026-03-01T10:30:00-05:00';
type Build = (chart: PatientChart, directory: Directory) => string;
const BUILDS: readonly [string, Build][] = [
  ['ADT^A31', (chart, directory) => buildAdtA31(chart, { now: NOW, controlId: 'ADT1', directory })],
  ['ADR^A19', (chart, directory) => buildAdrA19(chart, { now: NOW, controlId: 'ADR1', directory })],
  ['ADT^A08', (chart, directory) => buildAdtA08(chart, 'enc-0001', { now: NOW, controlId: 'ADT1', directory })],
  ['MDM^T02', (chart, directory) => buildMdmT02(chart, 'note-0001', { now: NOW, controlId: 'MDM1', directory })],
  ['ORU^R01', (chart, directory) => buildOruR01(chart, 'asmt-0001', { now: NOW, controlId: 'ORU1', directory })],
];

/** The message and the characters escaped to build it. */
function measured(build: Build, input: { chart: PatientChart; directory: Directory }): { message: string; chars: number } {
  escaped.chars = 0;
  const message = build(input.chart, input.directory);
  return { message, chars: escaped.chars };
}

describe('HL7 builders: work proportional to the message, not to the record', () => {
  beforeEach(() => {
    escaped.chars = 0;
  });

  it.each(BUILDS)('%s: should give the same message for text 10 times longer, escaping the same characters', (_, build) => {
    const short = measured(build, lengthened(2_000));
    const tenTimes = measured(build, lengthened(20_000));
    expect(tenTimes.message).toBe(short.message);
    // Every component keeps at most 250 characters: the escaping reads about what it writes, whatever the length.
    expect(tenTimes.chars).toBe(short.chars);
    expect(short.chars).toBeLessThan(short.message.length * 2);
  });

  it('should hand the escaping only what a component can keep (a 1 MiB name costs what a 2 000-character one does)', () => {
    const [, build] = BUILDS[1] as [string, Build];
    const huge = measured(build, lengthened(1_048_576));
    const small = measured(build, lengthened(2_000));
    expect(huge.message).toBe(small.message);
    expect(huge.chars).toBe(small.chars);
  });

  it('should give the same ADT^A31 for any text start lengthened tenfold, escaping the same characters (property)', () => {
    const [, build] = BUILDS[0] as [string, Build];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '|', '^', '&', '~', '\\', '\t', 'é', '😀', '中', 'X', '0'), maxLength: 400 }), (start) => {
        const short = measured(build, lengthened(1_000, start));
        const tenTimes = measured(build, lengthened(10_000, start));
        expect(tenTimes.message).toBe(short.message);
        expect(tenTimes.chars).toBe(short.chars);
      }),
      { numRuns: runs(25) },
    );
  });
});

describe('the kept prefix gives what the whole text gives', () => {
  const unit = fc.constantFrom('a', ' ', '|', '^', '&', '~', '\\', '\t', '\r', '\n', 'é', '\u0085', '😀', '\uD800', '\uDC00');
  it('should keep the start of joined text even when that start is blank (regression, seed -1484019991)', () => {
    expect(joinedTextComponent([' \ta'], 0, ' ', 1)).toBe(' ');
    expect(joinedTextComponent(['x', '  \tb'], 0, ' ', 3)).toBe('x  ');
  });

  // Seed -1484019991 found that the kept start of joined text can be blank (' \\t' of ' \\ta'): it must not be read as blank text.
  it('should equal escaping the whole (joined) text, then cutting it (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 120 }), { maxLength: 5 }), fc.integer({ min: 0, max: 60 }), fc.nat(3), (values, max, from) => {
        const whole = values.slice(from).filter((v) => /\S/.test(v)).join(' ');
        const plain = /\S/.test(whole) ? truncateEscaped(escapeStandard(whole, false), max) : '';
        expect(joinedTextComponent(values, from, ' ', max)).toBe(plain);
        expect(textComponent(joinNonEmpty(values, from, ' '), max)).toBe(plain);
        for (const v of values) expect(textComponent(v, max)).toBe(/\S/.test(v) ? truncateEscaped(escapeStandard(v, false), max) : '');
      }),
      { numRuns: runs(500) },
    );
  });
});

/** A string-like value of `length` characters, all `code`, that counts the characters read from it. */
function countingText(length: number, code: number): { text: string; reads: () => number } {
  let reads = 0;
  const like = {
    length,
    charCodeAt: (i: number): number => {
      reads += 1;
      return i >= 0 && i < length ? code : Number.NaN;
    },
    slice: (): string => '',
    startsWith: (): boolean => false,
  };
  return { text: like as unknown as string, reads: () => reads };
}

describe('chart check: a limit rule reads no further than its limit', () => {
  it('should stop counting the length once escaped past the limit (lines: a line break is one character)', () => {
    for (const [code, lines] of [
      [0x7c, false],
      [0x7c, true],
      [0x0a, true],
      [0x61, true],
    ] as const) {
      const small = countingText(10_000, code);
      const large = countingText(100_000, code);
      expect(hl7EscapedLength(small.text, lines, 199)).toBeGreaterThan(199);
      expect(hl7EscapedLength(large.text, lines, 199)).toBeGreaterThan(199);
      expect(large.reads()).toBe(small.reads());
      expect(large.reads()).toBeLessThanOrEqual(200);
    }
  });

  it('should settle a text longer than the limit by its length alone, without lines', () => {
    const t = countingText(1_048_576, 0x61);
    expect(hl7EscapedLength(t.text, false, 250)).toBeGreaterThan(250);
    expect(hl7CxLength(t.text, 'urn:oid:1.2.3', 'MR', 250)).toBeGreaterThan(250);
    expect(t.reads()).toBe(0);
  });

  it('should stop counting UTF-8 bytes past the limit', () => {
    const small = countingText(1_000, 0x4e2d); // 中: 3 bytes
    const large = countingText(10_000, 0x4e2d);
    expect(utf8Length(small.text, 300)).toBeGreaterThan(300);
    expect(utf8Length(large.text, 300)).toBeGreaterThan(300);
    expect(large.reads()).toBe(small.reads());
    expect(large.reads()).toBeLessThanOrEqual(101);
  });

  it('should count exactly up to the limit and past it whenever the text is (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '|', '\r', '\n', '\t', 'é', '\u0085', '😀'), maxLength: 300 }), fc.boolean(), fc.nat(400), (text, lines, stop) => {
        const exact = hl7EscapedLength(text, lines);
        const stopped = hl7EscapedLength(text, lines, stop);
        if (exact <= stop) expect(stopped).toBe(exact);
        else expect(stopped).toBeGreaterThan(stop);
        const bytes = utf8Length(text);
        const stoppedBytes = utf8Length(text, stop);
        if (bytes <= stop) expect(stoppedBytes).toBe(bytes);
        else expect(stoppedBytes).toBeGreaterThan(stop);
      }),
      { numRuns: runs(300) },
    );
  });
});
