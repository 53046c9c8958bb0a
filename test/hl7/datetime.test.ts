import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DateTimeFormatError, formatHl7DateTime, parseHl7DateTime } from '../../src/index.js';
import { arbIsoDate, arbIsoDateTime, arbIsoDateTimeFull } from '../../src/testing/dates.js';
import { runs } from '../support/runs.js';

/** HL7 writes UTC as +0000, so `Z` reads back as `+00:00`. */
const normalizeZ = (iso: string): string => iso.replace(/Z$/, '+00:00');

describe('formatHl7DateTime', () => {
  it('should keep the precision of dates', () => {
    expect(formatHl7DateTime('1984')).toBe('1984');
    expect(formatHl7DateTime('1984-07')).toBe('198407');
    expect(formatHl7DateTime('1984-07-02')).toBe('19840702');
  });

  it('should keep the offset of date-times without converting them', () => {
    expect(formatHl7DateTime('2026-03-01T09:30:00-05:00')).toBe('20260301093000-0500');
    expect(formatHl7DateTime('2026-03-01T23:59:59+14:00')).toBe('20260301235959+1400');
    expect(formatHl7DateTime('2026-03-01T09:30:00+05:45')).toBe('20260301093000+0545');
    expect(formatHl7DateTime('2026-03-01T09:30:00Z')).toBe('20260301093000+0000');
  });

  it('should keep fraction digits as written (.5 is half a second)', () => {
    expect(formatHl7DateTime('2026-03-01T09:30:00.5-05:00')).toBe('20260301093000.5-0500');
    expect(formatHl7DateTime('2026-03-01T09:30:00.05-05:00')).toBe('20260301093000.05-0500');
    expect(formatHl7DateTime('2026-03-01T09:30:00.0050Z')).toBe('20260301093000.0050+0000');
    expect(formatHl7DateTime('2026-03-01T09:30:00.123+01:00')).toBe('20260301093000.123+0100');
  });

  it('should keep a leap second and a leap day', () => {
    expect(formatHl7DateTime('2016-12-31T23:59:60Z')).toBe('20161231235960+0000');
    expect(formatHl7DateTime('2024-02-29')).toBe('20240229');
  });

  it('should reject what is not in the chart profile with a typed error that does not repeat the value', () => {
    for (const bad of ['', '2026-3-1', '2026-02-30', '2026-03-01T09:30-05:00', '2026-03-01T09:30:00', '2026-03-01T24:00:00Z', '2026-03-01T09:30:00.12345Z', '0000', '20260301', '1984-07-02 ']) {
      let error: unknown;
      try {
        formatHl7DateTime(bad);
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(DateTimeFormatError);
      if (bad.length > 3) expect((error as Error).message).not.toContain(bad);
    }
  });
});

describe('parseHl7DateTime', () => {
  it('should read every DTM precision without inventing parts', () => {
    expect(parseHl7DateTime('1984')).toBe('1984');
    expect(parseHl7DateTime('198407')).toBe('1984-07');
    expect(parseHl7DateTime('19840702')).toBe('1984-07-02');
    expect(parseHl7DateTime('2026030109-0500')).toBe('2026-03-01T09-05:00');
    expect(parseHl7DateTime('202603010930-0500')).toBe('2026-03-01T09:30-05:00');
    expect(parseHl7DateTime('20260301093000-0500')).toBe('2026-03-01T09:30:00-05:00');
    expect(parseHl7DateTime('20260301093000')).toBe('2026-03-01T09:30:00');
  });

  it('should read fraction digits as written (never as an integer of milliseconds)', () => {
    expect(parseHl7DateTime('20260301093000.5-0500')).toBe('2026-03-01T09:30:00.5-05:00');
    expect(parseHl7DateTime('20260301093000.0050+0000')).toBe('2026-03-01T09:30:00.0050+00:00');
  });

  it('should drop an offset given on a date', () => {
    expect(parseHl7DateTime('20260301-0500')).toBe('2026-03-01');
  });

  it('should reject malformed or impossible values', () => {
    for (const bad of ['', '84', '1984-07-02', '19840230', '20260301246000', '20260301093061', '2026030109300', '20260301093000.12345', '20260301093000-1300', '20260301093000+1500', '20260301093000+0560', '00000101', 'T2026']) {
      expect(() => parseHl7DateTime(bad), bad).toThrow(DateTimeFormatError);
    }
  });

  it('should round-trip every chart date-time (property)', () => {
    fc.assert(
      fc.property(fc.oneof(arbIsoDateTime(), arbIsoDateTimeFull({ years: 'any' }), arbIsoDate({ years: 'any' })), (iso) => {
        expect(parseHl7DateTime(formatHl7DateTime(iso))).toBe(normalizeZ(iso));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('should round-trip HL7 date-times with seconds and offset (property)', () => {
    const two = (max: number, min = 0): fc.Arbitrary<string> => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));
    const arbDtm = fc
      .record({
        y: fc.integer({ min: 1, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        mo: two(12, 1),
        d: two(28, 1),
        h: two(23),
        mi: two(59),
        s: two(59),
        f: fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 4 }), { nil: undefined }),
        sign: fc.constantFrom('+', '-'),
        oh: two(11),
        om: fc.constantFrom('00', '30', '45'),
      })
      .map((r) => `${r.y}${r.mo}${r.d}${r.h}${r.mi}${r.s}${r.f === undefined ? '' : `.${r.f}`}${r.sign}${r.oh}${r.om}`);
    fc.assert(
      fc.property(arbDtm, (hl7) => {
        expect(formatHl7DateTime(parseHl7DateTime(hl7))).toBe(hl7);
      }),
      { numRuns: runs(1000) },
    );
  });
});
