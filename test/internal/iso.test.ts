import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysInMonth, isIsoDate, isIsoDateTime, isoKind, isoOrderKey, isoSortKey, parseIsoDateTime } from '../../src/internal/iso.js';
import { runs } from '../support/runs.js';

const two = (n: number): string => String(n).padStart(2, '0');

/** A valid date-time with an offset, generated from its parts. */
const arbDateTime = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    dayPick: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.option(fc.stringMatching(/^\d{1,4}$/), { nil: undefined }),
    offsetMinutes: fc.integer({ min: -12 * 60, max: 14 * 60 }),
    zulu: fc.boolean(),
  })
  .map((p) => {
    const day = Math.min(p.dayPick, daysInMonth(p.year, p.month));
    const off = p.zulu
      ? 'Z'
      : `${p.offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(Math.abs(p.offsetMinutes) / 60))}:${two(Math.abs(p.offsetMinutes) % 60)}`;
    const frac = p.fraction === undefined ? '' : `.${p.fraction}`;
    return { ...p, day, text: `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}${frac}${off}` };
  });

describe('parseIsoDateTime', () => {
  it('should return every part as given, with the offset as ±hhmm', () => {
    fc.assert(
      fc.property(arbDateTime, (d) => {
        const parts = parseIsoDateTime(d.text);
        expect(parts).toBeDefined();
        expect(parts?.precision).toBe('second');
        expect(Number(parts?.year)).toBe(d.year);
        expect(Number(parts?.day)).toBe(d.day);
        expect(parts?.fraction).toBe(d.fraction);
        expect(parts?.offset).toBe(d.zulu ? '+0000' : d.text.slice(-6, -3) + d.text.slice(-2));
      }),
    );
  });

  it('should keep precision for dates', () => {
    expect(parseIsoDateTime('2026')?.precision).toBe('year');
    expect(parseIsoDateTime('2026-03')?.precision).toBe('month');
    expect(parseIsoDateTime('2026-03-01')?.precision).toBe('day');
    expect(isIsoDate('2026-03-01')).toBe(true);
    expect(isIsoDate('2026-03-01T00:00:00Z')).toBe(false);
    expect(isIsoDateTime('2026-03-01T00:00:00Z')).toBe(true);
  });

  it('should reject impossible calendar days and leap days of common years', () => {
    expect(parseIsoDateTime('2023-02-29')).toBeUndefined();
    expect(parseIsoDateTime('1900-02-29')).toBeUndefined();
    expect(parseIsoDateTime('2000-02-29')).toBeDefined();
    expect(parseIsoDateTime('2026-04-31')).toBeUndefined();
  });

  it('should never throw on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const parts = parseIsoDateTime(s);
        expect(parts === undefined || typeof parts.year === 'string').toBe(true);
      }),
    );
  });
});

describe('isoSortKey', () => {
  it('should order date-times as instants, across offsets (same as Date.parse where Date is exact)', () => {
    fc.assert(
      fc.property(arbDateTime, (d) => {
        // Date.parse is exact for 4-digit years ≥ 1000 and ≤ 3 fraction digits.
        fc.pre(d.year >= 1000 && (d.fraction === undefined || d.fraction.length <= 3));
        expect(isoSortKey(d.text)).toBe(Date.parse(d.text));
      }),
    );
  });

  it('should sort undefined and dates before later instants', () => {
    expect(isoSortKey(undefined)).toBe(Number.NEGATIVE_INFINITY);
    expect(isoSortKey('2026-03-01')).toBeLessThan(isoSortKey('2026-03-01T00:00:01Z'));
    expect(isoSortKey('0050-01-01')).toBeLessThan(isoSortKey('1950-01-01'));
  });
});

describe('isoOrderKey', () => {
  /** Reference order of two date-times: UTC minute (Date.UTC, offset applied), then second (60 included), then fraction. */
  const reference = (a: string, b: string): number => {
    const parts = (v: string): number[] => {
      const p = parseIsoDateTime(v)!;
      const off = p.offset === undefined ? 0 : (p.offset[0] === '-' ? -1 : 1) * (Number(p.offset.slice(1, 3)) * 60 + Number(p.offset.slice(3, 5)));
      const day = new Date(0);
      day.setUTCFullYear(Number(p.year), Number(p.month ?? 1) - 1, Number(p.day ?? 1));
      const minute = day.getTime() / 60_000 + Number(p.hour ?? 0) * 60 + Number(p.minute ?? 0) - off;
      return [minute, Number(p.second ?? 0), Number((p.fraction ?? '').padEnd(4, '0'))];
    };
    const x = parts(a);
    const y = parts(b);
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number) ? -1 : 1;
    return 0;
  };
  const arbLeap = arbDateTime.map((d) => (d.second === 59 ? d.text.slice(0, 17) + '60' + d.text.slice(19) : d.text));

  it('should order date-times exactly as instants: all four fraction digits, leap seconds, any offset', () => {
    fc.assert(
      fc.property(fc.oneof(arbDateTime.map((d) => d.text), arbLeap), fc.oneof(arbDateTime.map((d) => d.text), arbLeap), (a, b) => {
        expect(Math.sign(isoOrderKey(a) - isoOrderKey(b))).toBe(reference(a, b));
        expect(Number.isSafeInteger(isoOrderKey(a))).toBe(true);
      }),
      { numRuns: runs(2000) },
    );
    // Same minute, seconds and offsets apart: an exact tie and close neighbours.
    fc.assert(
      fc.property(arbDateTime, fc.constantFrom('59', '60'), fc.stringMatching(/^\d{1,4}$/), fc.stringMatching(/^\d{1,4}$/), (d, s, f1, f2) => {
        const a = `${d.text.slice(0, 17)}${s}.${f1}Z`;
        const b = `${d.text.slice(0, 17)}60.${f2}+00:00`;
        expect(Math.sign(isoOrderKey(a) - isoOrderKey(b))).toBe(reference(a, b));
      }),
    );
  });

  it('should tell apart what the millisecond key folds together', () => {
    expect(isoOrderKey('2026-01-01T10:00:00.1234Z')).toBeLessThan(isoOrderKey('2026-01-01T10:00:00.1235+00:00'));
    expect(isoOrderKey('2016-12-31T23:59:59Z')).toBeLessThan(isoOrderKey('2016-12-31T23:59:60Z'));
    expect(isoOrderKey('2016-12-31T23:59:59.9Z')).toBeLessThan(isoOrderKey('2016-12-31T23:59:60.1Z'));
    expect(isoOrderKey('2016-12-31T23:59:60.9999Z')).toBeLessThan(isoOrderKey('2017-01-01T00:00:00Z'));
    expect(isoOrderKey('2016-12-31T18:59:60.5-05:00')).toBe(isoOrderKey('2016-12-31T23:59:60.5Z'));
    expect(isoOrderKey('2026-03-01T09:30:00+05:45')).toBeLessThan(isoOrderKey('2026-03-01T09:30:00+05:30'));
    expect(isoOrderKey('2026-03-01')).toBe(isoOrderKey('2026-03-01T00:00:00Z'));
    expect(isoOrderKey('0050-01-01')).toBeLessThan(isoOrderKey('1950-01-01'));
    expect(isoOrderKey(undefined)).toBe(Number.NEGATIVE_INFINITY);
    expect(Number.isSafeInteger(isoOrderKey('9999-12-31T23:59:60.9999-12:00'))).toBe(true);
    expect(Number.isSafeInteger(isoOrderKey('0001-01-01T00:00:00+14:00'))).toBe(true);
  });
});

describe('isoKind', () => {
  const expected = (s: string): 'date' | 'dateTime' | undefined => {
    const p = parseIsoDateTime(s);
    return p === undefined ? undefined : p.precision === 'second' ? 'dateTime' : 'date';
  };
  /** A valid value with one character replaced, inserted or removed: near misses of every rule. */
  const nearMiss = fc
    .tuple(
      fc.oneof(arbDateTime.map((d) => d.text), fc.constantFrom('2026', '2026-03', '2024-02-29', '2026-03-01T09:30:00.1234+14:00')),
      fc.nat(),
      fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '9', '-', ':', 'T', 'Z', '+', '.', ' ', '٣', ''),
      fc.constantFrom('replace', 'insert', 'remove'),
    )
    .map(([s, at, c, op]) => {
      const i = at % (s.length + 1);
      return op === 'replace' ? s.slice(0, i) + c + s.slice(i + 1) : op === 'insert' ? s.slice(0, i) + c + s.slice(i) : s.slice(0, i) + s.slice(i + 1);
    });

  /** Strings of the profile's shape with any digit in every digit slot: hits every range boundary. */
  const d = (k: number) => fc.array(fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '9'), { minLength: k, maxLength: k }).map((a) => a.join(''));
  const shaped = fc
    .tuple(d(4), d(2), d(2), d(2), d(2), d(2), fc.option(d(1).chain((x) => d(5).map((y) => y.slice(0, Number(x) % 6)))), fc.constantFrom('Z', '+', '-', ''), d(2), d(2), fc.nat(3))
    .map(([y, mo, da, h, mi, se, fr, sign, oh, om, precision]) => {
      const date = [y, `${y}-${mo}`, `${y}-${mo}-${da}`][Math.min(precision, 2)] as string;
      if (precision < 3) return date;
      const frac = fr === null ? '' : `.${fr}`;
      const tz = sign === 'Z' || sign === '' ? sign : `${sign}${oh}:${om}`;
      return `${date}T${h}:${mi}:${se}${frac}${tz}`;
    });

  it('should accept exactly what parseIsoDateTime accepts, with the same kind', () => {
    fc.assert(fc.property(fc.oneof(arbDateTime.map((d) => d.text), nearMiss, shaped, fc.string()), (s) => {
      expect(isoKind(s)).toBe(expected(s));
    }), { numRuns: runs(3000) });
  });

  it.each([
    ['2026-03-01T23:59:60Z', 'dateTime'],
    ['2026-03-01T23:59:61Z', undefined],
    ['2026-03-01T23:60:00Z', undefined],
    ['2026-03-01T24:00:00Z', undefined],
    ['2026-03-01T09:30:00+14:00', 'dateTime'],
    ['2026-03-01T09:30:00+14:01', undefined],
    ['2026-03-01T09:30:00-12:00', 'dateTime'],
    ['2026-03-01T09:30:00-12:01', undefined],
    ['2026-03-01T09:30:00+05:59', 'dateTime'],
    ['2026-03-01T09:30:00+05:60', undefined],
    ['2026-03-01T09:30:00.1234Z', 'dateTime'],
    ['2026-03-01T09:30:00.12345Z', undefined],
    ['2026-03-01T09:30:00.Z', undefined],
    ['2026-03-01T09:30:00', undefined],
    ['2024-02-29', 'date'],
    ['2023-02-29', undefined],
    ['2026-04-31', undefined],
    ['2026-00', undefined],
    ['2026-13', undefined],
    ['0000', undefined],
    ['0001', 'date'],
    ['2026-03-01t09:30:00Z', undefined],
    ['2026-03-01T09:30:00z', undefined],
  ])('should classify the boundary case %s as %s, like parseIsoDateTime', (value, kind) => {
    expect(isoKind(value)).toBe(kind);
    expect(expected(value)).toBe(kind);
  });
});
