/**
 * The little calendar arithmetic the date arbitraries need, on the ISO 8601 profile of chart input
 * (`YYYY | YYYY-MM | YYYY-MM-DD | YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm)`). The kit only reads values it
 * made itself, so parsing is a regular expression; ordering follows the FHIR R4 `dateTime` rules: instants
 * compare with their offsets applied, a date counts as its first instant in UTC.
 */

/** The parts of a value of the profile. */
export interface IsoValue {
  /** How many parts are given. */
  precision: 'year' | 'month' | 'day' | 'second';
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** The fraction in 1/10 000 s. */
  tenThousandths: number;
  /** Minutes east of UTC (0 for dates). */
  offsetMinutes: number;
}

const ISO_RE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,4}))?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/**
 * Days in a month of the proleptic Gregorian calendar.
 * @param year - full year
 * @param month - 1–12
 * @returns 28–31
 * @example daysInMonth(2024, 2) // 29
 */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Offset text → minutes east of UTC.
 * @param offset - `Z` or `±hh:mm`
 * @returns the offset in minutes
 * @example offsetMinutes('-05:30') // -330
 */
export function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}

/**
 * Read a value of the profile (the kit's own output; no calendar check).
 * @param value - an ISO date or date-time
 * @returns its parts, or `undefined` when it does not have the profile's shape
 * @example readIso('2024-02')?.precision // 'month'
 */
export function readIso(value: string): IsoValue | undefined {
  const m = ISO_RE.exec(value);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, f, tz] = m;
  // FHIR dates begin at year 0001 (as the chart check reads them): a value shifted into year 0000 is none.
  if (Number(y) === 0) return undefined;
  return {
    precision: h !== undefined ? 'second' : d !== undefined ? 'day' : mo !== undefined ? 'month' : 'year',
    year: Number(y),
    month: mo === undefined ? 1 : Number(mo),
    day: d === undefined ? 1 : Number(d),
    hour: h === undefined ? 0 : Number(h),
    minute: mi === undefined ? 0 : Number(mi),
    second: s === undefined ? 0 : Number(s),
    tenThousandths: f === undefined ? 0 : Number(f.padEnd(4, '0')),
    offsetMinutes: tz === undefined ? 0 : offsetMinutes(tz),
  };
}

/**
 * Milliseconds since the epoch of a UTC calendar time, for every year 0001–9999 (`Date.UTC` alone reads
 * years 0–99 as 1900–1999). Months and days out of range roll over.
 * @param y - full year
 * @param mo - month, 1-based
 * @param d - day
 * @param h - hour
 * @param mi - minute
 * @param s - second
 * @returns the instant in milliseconds
 * @example utcMs(1970, 1, 2) // 86400000
 */
export function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

/**
 * The instant of a value in milliseconds (a leap second counts as second 59, the fraction to the
 * millisecond), a date as its first instant in UTC.
 * @param value - an ISO date or date-time of the profile
 * @returns milliseconds since the epoch, `NaN` when the value does not have the profile's shape
 * @example isoInstantMs('1970-01-01T01:00:00+01:00') // 0
 */
export function isoInstantMs(value: string): number {
  const p = readIso(value);
  if (p === undefined) return Number.NaN;
  const ms = utcMs(p.year, p.month, p.day, p.hour, p.minute, Math.min(59, p.second)) + Math.floor(p.tenThousandths / 10);
  return ms - p.offsetMinutes * 60_000;
}

/** Order-key steps per minute: 61 seconds of 10 000 steps, so that `:60` lies after `:59` and before the next minute. */
const STEPS_PER_MINUTE = 61 * 10_000;

/**
 * A key that orders values exactly (every 1/10 000 s, leap seconds, offsets applied; a date as its first
 * instant in UTC), as the chart check orders a period's start and end.
 * @param value - an ISO date or date-time of the profile
 * @returns the key (only its order means something); `-Infinity` when the value does not have the profile's shape
 * @example isoOrder('2024-01-01T00:00:00+01:00') < isoOrder('2024-01-01') // true
 */
export function isoOrder(value: string): number {
  const p = readIso(value);
  if (p === undefined) return Number.NEGATIVE_INFINITY;
  const minutes = utcMs(p.year, p.month, p.day) / 60_000 + p.hour * 60 + p.minute - p.offsetMinutes;
  return minutes * STEPS_PER_MINUTE + p.second * 10_000 + p.tenThousandths;
}
