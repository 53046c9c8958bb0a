/**
 * The chart check's speed-ups (src/validation/speed-ups.ts) give what their plain equivalents give: the text
 * scan (one expression, and its two-scan fallback with `isWellFormed` and without it, as on a runtime that lacks
 * it) finds exactly the control characters and lone surrogates the plain expressions find, and reads text with
 * surrogates once.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { checkPatientChart } from '../../src/index.js';
import { HL7_COMPOSITE_MAX, HL7_ESCAPED_CHAR_MAX, hl7CxLength, hl7CxLengthBound, hl7EscapedLength, hl7UniversalIdLength, hl7UniversalIdRawLength, hl7XcnIdentifierLength } from '../../src/model/limits.js';
import { hasForbiddenText, hasForbiddenTextInTwoScans, surelyFits } from '../../src/validation/speed-ups.js';
import { runs } from '../support/runs.js';

// eslint-disable-next-line no-control-regex -- the plain check's expressions
const MAYBE_FORBIDDEN_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- the plain check's expressions
const FORBIDDEN_TEXT_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const plain = (text: string): boolean => MAYBE_FORBIDDEN_RE.test(text) && FORBIDDEN_TEXT_RE.test(text);

/** Text made of the characters that matter: controls allowed and not, both surrogate halves, pairs, plain text. */
const text = fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\n', '\r', '\u0000', '\u0008', '\u000B', '\u001F', '\u007F', '\u0085', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '😀', 'é', '中'), maxLength: 40 });

/** The module loaded again on a runtime without `String.prototype.isWellFormed`. */
async function withoutIsWellFormed(): Promise<typeof import('../../src/validation/speed-ups.js')> {
  const saved = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- removing a built-in for the test
  delete (String.prototype as any).isWellFormed;
  try {
    vi.resetModules();
    return await import('../../src/validation/speed-ups.js');
  } finally {
    if (saved !== undefined) Object.defineProperty(String.prototype, 'isWellFormed', saved);
  }
}

describe('hasForbiddenText', () => {
  it('should find lone surrogates at either end and inside, and forbidden control characters, not pairs', () => {
    for (const [value, expected] of [
      ['', false],
      ['a\tb\r\nc', false],
      ['😀', false],
      ['a\uD800', true],
      ['\uDC00a', true],
      ['\uDC00\uD800', true],
      ['😀\uD83D', true],
      ['a\u0000', true],
      ['\u007F\u0085', false],
    ] as const) {
      expect(hasForbiddenText(value), JSON.stringify(value)).toBe(expected);
      expect(plain(value)).toBe(expected);
    }
  });

  it('should answer as the plain expressions, with and without isWellFormed (property)', async () => {
    const without = await withoutIsWellFormed();
    expect(without.hasForbiddenText).not.toBe(hasForbiddenText); // a module evaluated anew, without the built-in
    fc.assert(
      fc.property(text, (t) => {
        expect(hasForbiddenText(t)).toBe(plain(t));
        expect(hasForbiddenTextInTwoScans(t)).toBe(plain(t));
        expect(without.hasForbiddenText(t)).toBe(plain(t));
        expect(without.hasForbiddenTextInTwoScans(t)).toBe(plain(t));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('should make the check refuse a lone surrogate after 600 000 characters of non-BMP text, with its path', () => {
    const family = `${'😀'.repeat(300_000)}\uD800`;
    const issues = checkPatientChart({ patient: { id: 'p1', identifiers: [{ system: 'urn:oid:1.2.3', value: 'M1' }], names: [{ family }] } });
    expect(issues.map((i) => [i.path.join('.'), i.code])).toContainEqual(['patient.names.0.family', 'control-character']);
  });

  it('should answer as the plain expressions on text of millions of surrogate pairs, past what one expression can hold', () => {
    // 4 Mi pairs: more than the expression's backtracking room on Node 20 (the two scans answer then).
    const pairs = '😀'.repeat(4 * 1_048_576);
    for (const [value, expected] of [
      [pairs, false],
      [`${pairs}\u0001`, true],
      [`${pairs}\uD800`, true],
      [`\uDC00${pairs}`, true],
    ] as const) {
      expect(hasForbiddenText(value)).toBe(expected);
      expect(plain(value)).toBe(expected);
    }
  });

  it('should read text with surrogate pairs once: no isWellFormed scan, no second control-character search', async () => {
    const isWellFormed = vi.fn(function (this: string) {
      return true;
    });
    const saved = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
    Object.defineProperty(String.prototype, 'isWellFormed', { value: isWellFormed, configurable: true, writable: true });
    try {
      vi.resetModules();
      const module = await import('../../src/validation/speed-ups.js');
      const test = vi.spyOn(RegExp.prototype, 'test');
      try {
        const unit = 'Zoë|Ana^B&C~D\\E 😀\tx\r\ny\n中文 ';
        const long = unit.repeat(30_000); // about 1 MiB with a pair every 30 characters
        expect(module.hasForbiddenText(long)).toBe(false);
        expect(module.hasForbiddenText(`${long}\uDBFF`)).toBe(true);
        expect(module.hasForbiddenText(`${long}\u0007`)).toBe(true);
        // One search for a control character or surrogate, then the one scan on from there: two calls per text.
        expect(test).toHaveBeenCalledTimes(6);
      } finally {
        test.mockRestore();
      }
      expect(isWellFormed).not.toHaveBeenCalled();
    } finally {
      if (saved !== undefined) Object.defineProperty(String.prototype, 'isWellFormed', saved);
      vi.resetModules();
    }
  });
});

describe('surelyFits and the length bounds it reads', () => {
  /** Values made of the characters whose escapes differ in length: plain, delimiters, line breaks, controls, C1. */
  const value = fc.string({ unit: fc.constantFrom('a', 'é', '|', '^', '&', '~', '\\', '\r', '\n', '\t', '\u007F', '\u0085', '😀'), maxLength: 60 });
  const system = fc.oneof(
    fc.constant('urn:oid:1.2.3'),
    fc.constant('urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'),
    value.map((v) => `http://example.org/${v}`),
  );
  const type = fc.constantFrom(undefined, '', 'MR', 'NPI');

  it('should bound the escaped lengths from above, so a bound that fits means the value fits (property)', () => {
    fc.assert(
      fc.property(value, system, type, (v, s, t) => {
        expect(hl7CxLengthBound(v, s, t, false)).toBeGreaterThanOrEqual(hl7CxLength(v, s, t));
        expect(hl7CxLengthBound(v, s, t, true)).toBeGreaterThanOrEqual(hl7XcnIdentifierLength(v, s, t));
        // With the universal id's exact escaped length, as the check passes it when the bound of it does not fit.
        expect(hl7CxLengthBound(v, s, t, false, hl7UniversalIdLength(s))).toBeGreaterThanOrEqual(hl7CxLength(v, s, t));
        expect(hl7CxLengthBound(v, s, t, true, hl7UniversalIdLength(s))).toBeGreaterThanOrEqual(hl7XcnIdentifierLength(v, s, t));
        expect(HL7_ESCAPED_CHAR_MAX * hl7UniversalIdRawLength(s)).toBeGreaterThanOrEqual(hl7UniversalIdLength(s));
        expect(HL7_ESCAPED_CHAR_MAX * v.length).toBeGreaterThanOrEqual(hl7EscapedLength(v, false));
        expect(HL7_ESCAPED_CHAR_MAX * v.length).toBeGreaterThanOrEqual(hl7EscapedLength(v, true));
      }),
      { numRuns: runs(300) },
    );
  });

  it('should be reached exactly by a C1 control character, the longest escape', () => {
    expect(hl7EscapedLength('\u0085'.repeat(3), false)).toBe(3 * HL7_ESCAPED_CHAR_MAX);
    expect(surelyFits(199, 199)).toBe(true);
    expect(surelyFits(200, 199)).toBe(false);
  });

  it('should leave the identifier and contact rules as they were: a value one character too long is refused', () => {
    const base = { patient: { id: 'p', names: [{ family: 'A' }], identifiers: [{ system: 'urn:oid:1.2.3', value: 'x', type: 'MR' }] } };
    const fixed = hl7XcnIdentifierLength('', 'urn:oid:1.2.3', 'MR');
    const fits = 'x'.repeat(HL7_COMPOSITE_MAX - fixed);
    const chart = (v: string, contact = '1'): unknown => ({
      patient: { ...base.patient, identifiers: [{ system: 'urn:oid:1.2.3', value: v, type: 'MR' }], telecoms: [{ system: 'phone', value: contact }] },
    });
    expect(checkPatientChart(chart(fits))).toEqual([]);
    expect(checkPatientChart(chart(`${fits}x`)).map((i) => i.path.join('.'))).toEqual(['patient.identifiers.0.value']);
    expect(checkPatientChart(chart(`${fits.slice(3)}|`))).toEqual([]);
    expect(checkPatientChart(chart(`${fits.slice(2)}|`)).map((i) => i.path.join('.'))).toEqual(['patient.identifiers.0.value']);
    expect(checkPatientChart(chart('x', '\u0085'.repeat(28)))).toEqual([]);
    expect(checkPatientChart(chart('x', '\u0085'.repeat(29))).map((i) => i.path.join('.'))).toEqual(['patient.telecoms.0.value']);
  });
});
