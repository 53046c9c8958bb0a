import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAdtA08, buildOruR01, ChartValidationError, escapeHl7, MappingError, parseHl7Message, unescapeHl7, type PatientChart } from '../../src/index.js';
import { fitComposite, fitId, fitNm, formatNm, hash64, truncateEscaped } from '../../src/hl7/internal/fit.js';
import { packLines } from '../../src/hl7/segments/obx.js';
import { separatorRun } from '../../src/hl7/internal/speed-ups.js';
import { CHART, DIRECTORY } from './fixtures.js';
import { segmentsOf, val } from './support.js';
import { runs } from '../support/runs.js';

describe('truncateEscaped', () => {
  it('should never split an escape sequence or a surrogate pair', () => {
    expect(truncateEscaped('ab\\T\\c', 4)).toBe('ab');
    expect(truncateEscaped('ab\\T\\c', 5)).toBe('ab\\T\\');
    expect(truncateEscaped('ab\\X0D\\', 6)).toBe('ab');
    expect(truncateEscaped('a😀b', 2)).toBe('a');
    expect(truncateEscaped('abc', 3)).toBe('abc');
  });

  it('should give a prefix of the text once unescaped, within the limit (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.integer({ min: 0, max: 100 }), (s, max) => {
        const cut = truncateEscaped(escapeHl7(s), max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(s.startsWith(unescapeHl7(cut))).toBe(true);
        // Nothing is cut that did not have to be: at most one escape sequence or one surrogate pair short.
        if (escapeHl7(s).length > max) expect(cut.length).toBeGreaterThanOrEqual(max - 5);
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('fitComposite', () => {
  it('should cut every text part to one common length, never emptying one while another keeps more', () => {
    // An address at the component maxima: street 120, other designation 120, city and state 50, county 20.
    const parts = ['s'.repeat(120), 'o'.repeat(120), 'c'.repeat(50), 't'.repeat(50), '62701', 'US', 'H', 'g'.repeat(50), 'd'.repeat(20)];
    const value = fitComposite(parts, [0, 1, 2, 3, 7, 8], 250) as string;
    expect(value).toHaveLength(250);
    const lengths = value.split('^').map((p) => p.length);
    // Keys whole; the county (20) keeps its length; the five longer parts share the rest (214) equally, the
    // 4 left over going to the first four.
    expect(lengths).toEqual([43, 43, 43, 43, 5, 2, 1, 42, 20]);
    expect(lengths[0]).toBeGreaterThan(0);
  });

  it('should keep every text part when a long field is cut (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 120 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 20, max: 250 }), (texts, max) => {
        const escaped = texts.map((t) => escapeHl7(t));
        const value = fitComposite([...escaped], escaped.map((_, i) => i), max);
        expect(value).toBeDefined();
        const parts = (value as string).split('^');
        expect((value as string).length).toBeLessThanOrEqual(max);
        // Each part is a prefix of its text, and a part is only shorter than another's cut when its text is.
        const cut = parts.map((p, i) => ({ kept: p.length, full: (escaped[i] as string).length }));
        parts.forEach((p, i) => expect((escaped[i] as string).startsWith(p)).toBe(true));
        const shortened = cut.filter((c) => c.kept < c.full);
        if (shortened.length > 0) {
          const least = Math.min(...shortened.map((c) => c.kept));
          // A cut part is at most 6 characters below another (one left-over character, plus an escape sequence or
          // surrogate pair not split).
          for (const c of cut) expect(Math.min(c.full, least)).toBeLessThanOrEqual(c.kept + 6);
          for (const c of shortened) expect(c.kept).toBeGreaterThanOrEqual(Math.max(...shortened.map((d) => d.kept)) - 6);
        }
      }),
      { numRuns: runs(500) },
    );
  });

  it('should shorten text components and keep keys whole', () => {
    const parts = ['F32.1', 'x'.repeat(300), 'I10'];
    const value = fitComposite(parts, [1], 250);
    expect(value).toHaveLength(250);
    expect(value?.startsWith('F32.1^x')).toBe(true);
    expect(value?.endsWith('^I10')).toBe(true);
    expect(fitComposite(['k'.repeat(251), 'text'], [1], 250)).toBeUndefined();
  });
});

describe('fitId', () => {
  it('should keep ids that fit and derive a stable, distinct form for the others', () => {
    expect(fitId('note-0001', 30)).toBe('note-0001');
    expect(fitId('a|b', 30)).toBe('a\\F\\b');
    const uuid = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
    expect(fitId(uuid, 30)).toBe(`f47ac10b-58cc-${hash64(uuid)}`);
    expect(fitId(`${uuid}x`, 30)).not.toBe(fitId(uuid, 30));
    expect(fitId('|'.repeat(20), 30)).toBe(`\\F\\\\F\\\\F\\\\F\\-${hash64('|'.repeat(20))}`);
  });

  it('should derive the hash digits alone for a component under 17 characters (CX-1, XCN-1: 15)', () => {
    const uuid = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
    expect(fitId('enc-0001', 15)).toBe('enc-0001');
    expect(fitId('a|b|c', 15)).toBe('a\\F\\b\\F\\c');
    expect(fitId(uuid, 15)).toBe(hash64(uuid).slice(0, 15));
    expect(fitId('a|b|c|d|e|', 15)).toBe(hash64('a|b|c|d|e|').slice(0, 15));
  });

  it('should stay within a short limit and differ for different long ids (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 16, maxLength: 128 }), fc.string({ minLength: 16, maxLength: 128 }), fc.integer({ min: 8, max: 16 }), (a, b, max) => {
        const fa = fitId(a, max);
        expect(fa.length).toBeLessThanOrEqual(max);
        if (a !== b) expect(fa).not.toBe(fitId(b, max));
      }),
    );
  });

  it('should stay within the limit and differ for different ids (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 128 }), fc.string({ minLength: 1, maxLength: 128 }), fc.integer({ min: 17, max: 60 }), (a, b, max) => {
        expect(fitId(a, max).length).toBeLessThanOrEqual(max);
        if (a !== b) expect(fitId(a, max)).not.toBe(fitId(b, max));
      }),
    );
  });

  it('should hash with FNV-1a 64 over UTF-8', () => {
    expect(hash64('')).toBe('cbf29ce484222325');
    expect(hash64('a')).toBe('af63dc4c8601ec8c');
  });
});

describe('formatNm', () => {
  it('should never write an exponent', () => {
    expect(formatNm(1e21)).toBe('1000000000000000000000');
    expect(formatNm(1.5e-7)).toBe('0.00000015');
    expect(formatNm(-2.5e22)).toBe('-25000000000000000000000');
    expect(formatNm(-0)).toBe('0');
    expect(formatNm(12.25)).toBe('12.25');
  });

  it('should read back as the same number (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const s = formatNm(n);
        expect(s).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(s)).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: runs(2000) },
    );
  });
});

describe('packLines', () => {
  it('should fill values up to the limit and cut only lines longer than it', () => {
    expect(packLines(['aa', 'bb', 'cc'], 5)).toEqual([['aa', 'bb'], ['cc']]);
    expect(packLines(['abcdefgh'], 5)).toEqual([['abcde'], ['fgh']]);
    expect(packLines(['ab\\T\\cd'], 4)).toEqual([['ab'], ['\\T\\c'], ['d']]);
    expect(packLines([''], 5)).toEqual([['']]);
  });
});

describe('length fitting in messages', () => {
  it('should cut DG1-4 before an escape sequence that would cross 40 characters', () => {
    const display = `${'a'.repeat(38)}&b`;
    const chart: PatientChart = {
      ...CHART,
      encounters: [{ ...CHART.encounters![0]!, diagnoses: [{ code: { system: 'icd-10-cm', code: 'F32.1', display }, use: 'AD' }] }],
    };
    const dg1 = segmentsOf(parseHl7Message(buildAdtA08(chart, 'enc-0001', { directory: DIRECTORY })), 'DG1')[0]!;
    expect(dg1.raw.split('|')[4]).toBe('a'.repeat(38));
    expect(val(dg1, 3, 2)).toBe(display);
  });

  it('should send numbers as plain NM within its 16 characters, rounding only digits beyond; the chart check refuses what cannot fit', () => {
    const chartWith = (...values: number[]): PatientChart => ({
      ...CHART,
      assessments: [
        {
          id: 'a1',
          instrument: { id: 'x', title: 'X' },
          status: 'completed',
          authored: '2026-03-01T10:00:00-05:00',
          answers: values.map((value, i) => ({ linkId: `q${i}`, value: { type: 'decimal' as const, value } })),
        },
      ],
    });
    const nm = (...values: number[]): string[] => segmentsOf(parseHl7Message(buildOruR01(chartWith(...values), 'a1')), 'OBX').map((s) => val(s, 5));
    // No exponent; exact when the shortest form fits; 0.1 + 0.2 (0.30000000000000004) rounded to what fits.
    expect(nm(1.5e-7, 999999999999999, -123456.789, 0.1 + 0.2, 1 / 3, -1e-13)).toEqual(['0.00000015', '999999999999999', '-123456.789', '0.3', '0.33333333333333', '-0.0000000000001']);
    // Outside the check's NM range (magnitude 1e-13 to below 1e15, or 0): refused by the chart check with the
    // answer's path, never sent cut or in exponent form.
    for (const bad of [1e15, 1e16, -2.5e22, 5e-324, 1e-15]) {
      let error: unknown;
      try {
        buildOruR01(chartWith(bad), 'a1');
      } catch (e) {
        error = e;
      }
      expect(error, String(bad)).toBeInstanceOf(ChartValidationError);
      expect((error as ChartValidationError).issues.map((i) => i.path)).toEqual([['assessments', 0, 'answers', 0, 'value', 'value']]);
    }
  });

  it('should keep NM within 16 characters and as close as it can to the value (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        let text: string;
        try {
          text = fitNm(x, [], 'OBX-5');
        } catch (e) {
          expect(e).toBeInstanceOf(MappingError);
          // Refused only when not even one significant digit fits NM's 16 characters (the sign counts).
          const one = Number(x.toPrecision(1));
          expect(one === 0 || !Number.isFinite(one) || formatNm(one).length > 16).toBe(true);
          return;
        }
        expect(text.length).toBeLessThanOrEqual(16);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        const back = Number(text);
        if (formatNm(x).length <= 16) expect(back).toBe(x === 0 ? 0 : x);
        // Otherwise rounded to the last digit kept: off by at most half a unit of it.
        else {
          const decimals = text.split('.')[1]?.length ?? 0;
          expect(Math.abs(back - x)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + Math.abs(x) * 1e-15);
          expect(back).not.toBe(0);
        }
      }),
      { numRuns: runs(2000) },
    );
  });
});

describe('separatorRun (speed-up)', () => {
  it('should give what repeat gives, for every separator and count, the made-once runs and beyond', () => {
    for (const sep of ['|', '^', '~', '&']) for (let n = 0; n < 70; n++) expect(separatorRun(sep, n)).toBe(sep.repeat(n));
  });
});
