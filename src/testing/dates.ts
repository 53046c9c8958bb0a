/**
 * ISO 8601 date and date-time arbitraries in the profile chart input accepts (the FHIR R4 `date` /
 * `dateTime` profile with at most four fraction digits):
 * `YYYY | YYYY-MM | YYYY-MM-DD | YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm)`.
 */
import fc from 'fast-check';
import { daysInMonth, offsetMinutes, utcMs } from './internal/iso-reading.js';
import { memo } from './internal/util.js';

/**
 * Which years to draw from: realistic ones (1900–2035), any year of the profile (0001–9999), or mostly
 * realistic with the edge years (`0001`, `1900`, `2100`, `9999`) sometimes.
 * @example const years: YearRange = 'any';
 */
export type YearRange = 'realistic' | 'any' | 'mixed';

/**
 * Options of the date arbitraries.
 * @example isoDateTime({ years: 'realistic', leapSecond: false })
 */
export interface DateOptions {
  /** Realistic years (1900–2035), any profile year (0001–9999), or mostly realistic with edge years (default). */
  years?: YearRange | undefined;
  /** Allow second `60` (leap second) in date-times. Default true unless `years` is realistic; never used inside periods. */
  leapSecond?: boolean | undefined;
}

/**
 * The precisions of an ISO date.
 * @example isoDate({ precision: 'month' }) // values like '2024-02'
 */
export type DatePrecision = 'year' | 'month' | 'day';

/** `n` with leading zeros to `w` digits. */
export const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

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

/** Fraction digits (1–4) or none: `.5`, `.0`, `.0000`, `.9999`, random. */
export const arbFraction: fc.Arbitrary<string | undefined> = fc.oneof(
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

/** A calendar day. */
export interface DayParts {
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

/** A day as `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
export function formatDay(p: DayParts, precision: DatePrecision): string {
  if (precision === 'year') return pad(p.y, 4);
  if (precision === 'month') return `${pad(p.y, 4)}-${pad(p.mo)}`;
  return `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}`;
}

/**
 * An ISO date at year, month or day precision (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`), including leap days and
 * month ends.
 * @param opts - year range; `precision` to fix the precision
 */
export function arbIsoDate(opts: DateOptions & { precision?: DatePrecision | undefined } = {}): fc.Arbitrary<string> {
  return memo(`date|${JSON.stringify(opts)}`, () => buildIsoDate(opts));
}

function buildIsoDate(opts: DateOptions & { precision?: DatePrecision | undefined } = {}): fc.Arbitrary<string> {
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

/** The UTC calendar day and time of an instant. */
export function fromMs(ms: number): DayParts & { h: number; mi: number; s: number } {
  const d = new Date(ms);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds() };
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

// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

/**
 * The precisions of an ISO date-time value: a date at year, month or day precision, or a full date-time to
 * the second (with 0–4 fraction digits and an offset).
 * @example isoDateTime({ precision: 'second' }) // values like '2024-02-29T23:59:60.5+05:45'
 */
export type IsoPrecision = DatePrecision | 'second';

/**
 * Options of {@link isoDate}.
 * @example isoDate({ precision: 'day', years: 'realistic' })
 */
export interface IsoDateOptions extends DateOptions {
  /** Only this precision (default: any, day most often). */
  precision?: DatePrecision | undefined;
}

/**
 * Options of {@link isoDateTime}.
 * @example isoDateTime({ precision: 'second', years: 'any' })
 */
export interface IsoDateTimeOptions extends DateOptions {
  /** Only this precision (default: any, full date-times most often). */
  precision?: IsoPrecision | undefined;
}

/**
 * An ISO 8601 date as chart input takes it (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`), leap days and month ends
 * included.
 * @param options - precision and year range
 * @returns an arbitrary of dates the chart check accepts
 * @example
 * fc.assert(fc.property(isoDate({ precision: 'day' }), (date) => { myPipeline.parseBirthDate(date); }));
 */
export function isoDate(options: IsoDateOptions = {}): fc.Arbitrary<string> {
  return arbIsoDate(options);
}

/**
 * An ISO 8601 date or date-time as chart input takes it, at every precision: `YYYY`, `YYYY-MM`,
 * `YYYY-MM-DD` and `YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm)` with every notable offset (`Z`, `+00:00`,
 * `-00:00`, `+05:30`, `+05:45`, `-12:00`, `+14:00` and random ones), 0–4 fraction digits, leap days and
 * (unless `leapSecond: false` or realistic years) the leap second `:60`.
 * @param options - precision, year range, leap seconds
 * @returns an arbitrary of values the chart check accepts
 * @example
 * fc.assert(fc.property(isoDateTime({ precision: 'second' }), (value) => { formatHl7DateTime(value); }));
 */
export function isoDateTime(options: IsoDateTimeOptions = {}): fc.Arbitrary<string> {
  const { precision, ...rest } = options;
  if (precision === undefined) return arbIsoDateTime(rest);
  return precision === 'second' ? arbIsoDateTimeFull(rest) : arbIsoDate({ ...rest, precision });
}
