/**
 * ISO 8601 date and date-time arbitraries in the profile of `src/internal/iso.ts`:
 * `YYYY | YYYY-MM | YYYY-MM-DD | YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm)`, and ordered periods.
 */
import fc from 'fast-check';
import { memo } from './util.js';
import { daysInMonth, isoOrderKey, isoSortKey, parseIsoDateTime } from '../../src/internal/iso.js';
import type { Period } from '../../src/model/index.js';

/** Which years to draw from. */
export type YearRange = 'realistic' | 'any' | 'mixed';

/** Options of the date arbitraries. */
export interface DateOptions {
  /** Realistic years (1900–2035), any profile year (0001–9999), or mostly realistic with edge years (default). */
  years?: YearRange;
  /** Allow second `60` (leap second) in date-times. Default true unless `years` is realistic; never used inside periods. */
  leapSecond?: boolean;
}

/** Date precisions. */
export type DatePrecision = 'year' | 'month' | 'day';

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Offsets worth testing: zero as `Z` and `+00:00`, half and quarter hours, both extremes, `-00:00`. */
const NOTABLE_OFFSETS = [
  'Z',
  '+00:00',
  '-05:00',
  '-06:00',
  '-04:00',
  '+01:00',
  '+02:00',
  '+05:30',
  '+05:45',
  '+09:30',
  '-03:30',
  '-09:30',
  '+12:45',
  '+13:00',
  '+14:00',
  '-12:00',
  '-11:00',
  '-00:00',
] as const;

/** A time-zone offset text (`Z` or `±hh:mm`), within −12:00…+14:00. */
export const arbOffset: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...NOTABLE_OFFSETS), weight: 8 },
  {
    arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 14 * 60 })).map(([neg, m]) => {
      const minutes = neg ? Math.min(m, 12 * 60) : m;
      return `${neg ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
    }),
    weight: 1,
  },
);

/** Offset text → minutes east of UTC. */
export function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}

/** Fraction digits (1–4) or none: `.5`, `.0`, `.0000`, `.9999`, random. */
const arbFraction: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  { arbitrary: fc.constantFrom('5', '0', '25', '123', '0000', '9999', '001'), weight: 1 },
  { arbitrary: fc.stringMatching(/^[0-9]{1,4}$/), weight: 1 },
);

const LEAP_YEARS = [1904, 1996, 2000, 2004, 2016, 2020, 2024, 2028, 2400] as const;

function arbYear(years: YearRange): fc.Arbitrary<number> {
  const realistic = fc.integer({ min: 1900, max: 2035 });
  if (years === 'realistic') return realistic;
  const any = fc.integer({ min: 1, max: 9999 });
  if (years === 'any') return any;
  return fc.oneof(
    { arbitrary: realistic, weight: 10 },
    { arbitrary: fc.constantFrom(1, 99, 100, 999, 1000, 1899, 1900, 2000, 2100, 9999), weight: 1 },
    { arbitrary: any, weight: 1 },
  );
}

interface DayParts {
  y: number;
  mo: number;
  d: number;
}

function arbDay(years: YearRange): fc.Arbitrary<DayParts> {
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(arbYear(years), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
        .map(([y, mo, d]) => ({ y, mo, d: Math.min(d, daysInMonth(y, mo)) })),
      weight: 30,
    },
    // Leap days and the last days of months.
    { arbitrary: fc.constantFrom(...LEAP_YEARS).map((y) => ({ y, mo: 2, d: 29 })), weight: 1 },
    {
      arbitrary: fc
        .tuple(arbYear(years), fc.integer({ min: 1, max: 12 }))
        .map(([y, mo]) => ({ y, mo, d: daysInMonth(y, mo) })),
      weight: 2,
    },
  );
}

function formatDay(p: DayParts, precision: DatePrecision): string {
  if (precision === 'year') return pad(p.y, 4);
  if (precision === 'month') return `${pad(p.y, 4)}-${pad(p.mo)}`;
  return `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}`;
}

/**
 * An ISO date at year, month or day precision (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`), including leap days and
 * month ends.
 * @param opts - year range; `precision` to fix the precision
 */
export function arbIsoDate(opts: DateOptions & { precision?: DatePrecision } = {}): fc.Arbitrary<string> {
  return memo(`date|${JSON.stringify(opts)}`, () => buildIsoDate(opts));
}

function buildIsoDate(opts: DateOptions & { precision?: DatePrecision } = {}): fc.Arbitrary<string> {
  const precision: fc.Arbitrary<DatePrecision> =
    opts.precision !== undefined
      ? fc.constant(opts.precision)
      : fc.oneof({ arbitrary: fc.constant('day' as const), weight: 6 }, { arbitrary: fc.constantFrom('year' as const, 'month' as const), weight: 1 });
  return fc.tuple(arbDay(opts.years ?? 'mixed'), precision).map(([p, pr]) => formatDay(p, pr));
}

/**
 * A full ISO date-time with seconds and offset: `YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm)`, with fractions of
 * 1–4 digits (`.5`), every notable offset (`Z`, `+05:45`, `-12:00`, `+14:00`, `-00:00`), leap days, and
 * (unless `leapSecond: false`) the occasional leap second `:60`.
 * @param opts - year range and leap-second switch
 */
export function arbIsoDateTimeFull(opts: DateOptions = {}): fc.Arbitrary<string> {
  return memo(`dtfull|${JSON.stringify(opts)}`, () => buildIsoDateTimeFull(opts));
}

function buildIsoDateTimeFull(opts: DateOptions = {}): fc.Arbitrary<string> {
  // Leap seconds only when asked or when years are not restricted to realistic ones.
  const second = opts.leapSecond === false || (opts.leapSecond === undefined && opts.years === 'realistic') ? fc.integer({ min: 0, max: 59 }) : fc.oneof({ arbitrary: fc.integer({ min: 0, max: 59 }), weight: 30 }, { arbitrary: fc.constant(60), weight: 1 });
  return fc
    .tuple(arbDay(opts.years ?? 'mixed'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), second, arbFraction, arbOffset)
    .map(([day, h, mi, s, f, off]) => `${formatDay(day, 'day')}T${pad(h)}:${pad(mi)}:${pad(s)}${f === undefined ? '' : `.${f}`}${off}`);
}

/**
 * An ISO date or date-time at any precision of the profile (mostly full date-times).
 * @param opts - year range and leap-second switch
 */
export function arbIsoDateTime(opts: DateOptions = {}): fc.Arbitrary<string> {
  return memo(`dt|${JSON.stringify(opts)}`, () => buildIsoDateTime(opts));
}

function buildIsoDateTime(opts: DateOptions = {}): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: arbIsoDateTimeFull(opts), weight: 3 }, { arbitrary: arbIsoDate(opts), weight: 1 });
}

// ---------------------------------------------------------------------------------------------------
// Ordered periods
// ---------------------------------------------------------------------------------------------------

const HOUR = 3_600_000;

function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

/** The first instant after `value` under any reading of it: a date is read in the most western zone. */
function latestInstant(value: string): number {
  const p = parseIsoDateTime(value);
  if (p === undefined) throw new Error('not an ISO date');
  if (p.precision === 'second') return Math.ceil(isoSortKey(value) / 1000) * 1000 + 1000;
  const y = Number(p.year);
  let endMs: number;
  if (p.precision === 'year') endMs = utcMs(y + 1, 1, 1);
  else if (p.precision === 'month') endMs = utcMs(y, Number(p.month) + 1, 1);
  else endMs = utcMs(y, Number(p.month), Number(p.day) + 1);
  return endMs + 12 * HOUR;
}

function fromMs(ms: number): DayParts & { h: number; mi: number; s: number } {
  const d = new Date(ms);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds() };
}

/** The first date of `precision` whose first instant (in the most eastern zone) is at or after `ms`. */
function ceilDate(ms: number, precision: DatePrecision): DayParts {
  const t = ms + 14 * HOUR;
  const p = fromMs(t);
  const exact = p.h === 0 && p.mi === 0 && p.s === 0 && new Date(t).getUTCMilliseconds() === 0;
  if (precision === 'day') {
    if (exact) return p;
    return fromMs(utcMs(p.y, p.mo, p.d + 1));
  }
  if (precision === 'month') {
    if (exact && p.d === 1) return p;
    return fromMs(utcMs(p.y, p.mo + 1, 1));
  }
  if (exact && p.d === 1 && p.mo === 1) return p;
  return { y: p.y + 1, mo: 1, d: 1 };
}

function addUnits(p: DayParts, precision: DatePrecision, k: number): DayParts {
  if (precision === 'year') return { y: p.y + k, mo: 1, d: 1 };
  if (precision === 'month') return fromMs(utcMs(p.y, p.mo + k, 1));
  return fromMs(utcMs(p.y, p.mo, p.d + k));
}

function precisionOf(value: string): DatePrecision | 'second' {
  return parseIsoDateTime(value)?.precision ?? 'day';
}

type EndShape = { kind: 'same' } | { kind: 'date'; precision: DatePrecision; k: number } | { kind: 'dateTime'; seconds: number; offset: string; fraction: string | undefined };

/**
 * Make an end that is not before `start` under any reasonable reading (`isoOrderKey` included): same
 * precision dates are compared as calendar values; a date-time after a date-time by instant; mixed
 * precisions leave a gap wide enough for every offset. Falls back to `start` itself beyond year 9999.
 */
function makeEnd(start: string, shape: EndShape): string {
  if (shape.kind === 'same') return start;
  const sp = precisionOf(start);
  let out: string;
  if (shape.kind === 'date') {
    if (sp === shape.precision) {
      const p = parseIsoDateTime(start);
      const base: DayParts = { y: Number(p?.year), mo: Number(p?.month ?? 1), d: Number(p?.day ?? 1) };
      out = formatDay(addUnits(base, shape.precision, shape.k), shape.precision);
    } else {
      out = formatDay(addUnits(ceilDate(latestInstant(start), shape.precision), shape.precision, shape.k), shape.precision);
    }
  } else {
    const base = sp === 'second' ? Math.ceil(isoSortKey(start) / 1000) * 1000 : latestInstant(start);
    const instant = base + shape.seconds * 1000;
    const off = offsetMinutes(shape.offset);
    const local = fromMs(instant + off * 60_000);
    out = `${formatDay(local, 'day')}T${pad(local.h)}:${pad(local.mi)}:${pad(local.s)}${shape.fraction === undefined ? '' : `.${shape.fraction}`}${shape.offset}`;
  }
  const parsed = parseIsoDateTime(out);
  if (parsed === undefined || Number(parsed.year) > 9999 || isoOrderKey(out) < isoOrderKey(start)) return start;
  return out;
}

const arbEndShape = (dateOnly: boolean): fc.Arbitrary<EndShape> => {
  const date = fc.record({
    kind: fc.constant('date' as const),
    precision: fc.constantFrom<DatePrecision>('year', 'month', 'day'),
    k: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 400 })),
  });
  if (dateOnly) return fc.oneof({ arbitrary: date, weight: 6 }, { arbitrary: fc.constant({ kind: 'same' as const }), weight: 1 });
  const dateTime = fc.record({
    kind: fc.constant('dateTime' as const),
    // Minutes to days, sometimes years.
    seconds: fc.oneof(fc.integer({ min: 0, max: 3 * 3600 }), fc.integer({ min: 0, max: 30 * 86400 }), fc.integer({ min: 0, max: 5 * 365 * 86400 })),
    offset: arbOffset,
    fraction: arbFraction,
  });
  return fc.oneof({ arbitrary: dateTime, weight: 6 }, { arbitrary: date, weight: 1 }, { arbitrary: fc.constant({ kind: 'same' as const }), weight: 1 });
};

/** Options of {@link arbPeriod}. */
export interface PeriodOptions extends DateOptions {
  /** Dates only (coverage periods). */
  dateOnly?: boolean;
  /** Allow a missing start, end or both (default true); `false` always sets both ends. */
  openEnds?: boolean;
}

/**
 * A period whose `start` is never after its `end` (by `isoOrderKey`, and under any offset reading for
 * mixed precisions). Either end may be missing unless `openEnds: false`.
 * @param opts - dates only, year range, open ends
 */
export function arbPeriod(opts: PeriodOptions = {}): fc.Arbitrary<Period> {
  return memo(`period|${JSON.stringify(opts)}`, () => buildPeriod(opts));
}

function buildPeriod(opts: PeriodOptions = {}): fc.Arbitrary<Period> {
  const dateOnly = opts.dateOnly === true;
  const startArb = dateOnly ? arbIsoDate({ years: opts.years ?? 'mixed' }) : fc.oneof({ arbitrary: arbIsoDateTimeFull({ years: opts.years ?? 'mixed', leapSecond: false }), weight: 5 }, { arbitrary: arbIsoDate({ years: opts.years ?? 'mixed' }), weight: 1 });
  const both = fc
    .tuple(startArb, arbEndShape(dateOnly))
    .map(([start, shape]) => ({ start, end: makeEnd(start, shape) }));
  if (opts.openEnds === false) return both;
  return fc.oneof(
    { arbitrary: both, weight: 6 },
    { arbitrary: startArb.map((start) => ({ start })), weight: 2 },
    { arbitrary: startArb.map((end) => ({ end })), weight: 1 },
    { arbitrary: fc.constant({}), weight: 1 },
  );
}

/**
 * A pair `[earlier, later]` of ISO values with `isoOrderKey(earlier) <= isoOrderKey(later)` (onset and
 * abatement, for example).
 */
export function arbOrderedPair(opts: DateOptions = {}): fc.Arbitrary<[string, string]> {
  return arbPeriod({ ...opts, openEnds: false }).map((p) => [p.start ?? '', p.end ?? ''] as [string, string]);
}

/**
 * A date-time with offset near the present (2023–2026), as chart records are authored; for realistic
 * sorting and display tests.
 */
export const arbRecentDateTime: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: utcMs(2023, 1, 1), max: utcMs(2026, 12, 31) }), fc.constantFrom('-06:00', '-05:00', 'Z', '+01:00', '+05:30'))
  .map(([ms, off]) => {
    const l = fromMs(Math.floor(ms / 1000) * 1000 + offsetMinutes(off) * 60_000);
    return `${formatDay(l, 'day')}T${pad(l.h)}:${pad(l.mi)}:${pad(l.s)}${off}`;
  });
