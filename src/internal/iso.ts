/**
 * ISO 8601 date / date-time parsing for chart input, without `Date` (which loses precision and offset).
 *
 * Accepted (the FHIR R4 `date` / `dateTime` profile of ISO 8601, with at most 4 fraction digits so that
 * HL7 v2.5.1 DTM can carry every digit):
 *   YYYY | YYYY-MM | YYYY-MM-DD | YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm)
 * Year 0001–9999; real calendar days (leap years checked); hour 00–23; minute 00–59; second 00–60
 * (leap second); offset −12:00…+14:00 with minutes 00–59, `Z` meaning +00:00.
 */

/** The parts of a parsed ISO 8601 date or date-time. Missing parts are `undefined`. */
export interface IsoParts {
  /** Precision: how many parts are given. */
  readonly precision: 'year' | 'month' | 'day' | 'second';
  readonly year: string;
  readonly month: string | undefined;
  readonly day: string | undefined;
  readonly hour: string | undefined;
  readonly minute: string | undefined;
  readonly second: string | undefined;
  /** Fraction digits without the dot, 1–4 digits, as given (`'5'` stays `'5'`, meaning .5 s). */
  readonly fraction: string | undefined;
  /** Offset as `±hhmm`; `Z` becomes `+0000`. Undefined for dates. */
  readonly offset: string | undefined;
  /** True when the offset was written as `Z`. */
  readonly zulu: boolean;
}

const ISO_RE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,4}))?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/**
 * Days in a month of the proleptic Gregorian calendar.
 * @param year - full year
 * @param month - 1–12
 */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Parse an ISO 8601 date or date-time in the accepted profile.
 * @param value - the string to parse
 * @returns its parts, or `undefined` when it is not in the profile (never throws)
 * @example parseIsoDateTime('2026-03-01T09:30:00-05:00')?.offset // '-0500'
 */
export function parseIsoDateTime(value: string): IsoParts | undefined {
  const m = ISO_RE.exec(value);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, f, tz] = m;
  if (y === undefined || y === '0000') return undefined;
  if (mo !== undefined) {
    const month = Number(mo);
    if (month < 1 || month > 12) return undefined;
    if (d !== undefined) {
      const day = Number(d);
      if (day < 1 || day > daysInMonth(Number(y), month)) return undefined;
    }
  }
  let offset: string | undefined;
  if (h !== undefined) {
    if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60 || tz === undefined) return undefined;
    if (tz === 'Z') offset = '+0000';
    else {
      const oh = Number(tz.slice(1, 3));
      const om = Number(tz.slice(4, 6));
      if (om > 59) return undefined;
      const minutes = oh * 60 + om;
      if (tz[0] === '+' ? minutes > 14 * 60 : minutes > 12 * 60) return undefined;
      offset = tz.slice(0, 3) + tz.slice(4, 6);
    }
  }
  return {
    precision: h !== undefined ? 'second' : d !== undefined ? 'day' : mo !== undefined ? 'month' : 'year',
    year: y,
    month: mo,
    day: d,
    hour: h,
    minute: mi,
    second: s,
    fraction: f,
    offset,
    zulu: tz === 'Z',
  };
}

/** True when `value` is an ISO date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`) in the accepted profile. */
export function isIsoDate(value: string): boolean {
  const p = parseIsoDateTime(value);
  return p !== undefined && p.precision !== 'second';
}

/** True when `value` is an ISO date or date-time in the accepted profile. */
export function isIsoDateTime(value: string): boolean {
  return parseIsoDateTime(value) !== undefined;
}

/**
 * The instant in milliseconds since the epoch, taking the offset into account; a date counts as its first
 * instant in UTC. Fraction digits beyond the millisecond are ignored and a leap second counts as second 59,
 * so this is for durations (PR1-7 minutes); order records with {@link isoOrderKey}, which is exact.
 * Returns `-Infinity` for `undefined`.
 * @param value - a valid ISO date or date-time, or undefined
 */
export function isoSortKey(value: string | undefined): number {
  if (value === undefined) return Number.NEGATIVE_INFINITY;
  const p = parseIsoDateTime(value);
  if (p === undefined) return Number.NEGATIVE_INFINITY;
  const ms = Date.UTC(
    Number(p.year),
    p.month === undefined ? 0 : Number(p.month) - 1,
    p.day === undefined ? 1 : Number(p.day),
    p.hour === undefined ? 0 : Number(p.hour),
    p.minute === undefined ? 0 : Number(p.minute),
    p.second === undefined ? 0 : Math.min(59, Number(p.second)),
    p.fraction === undefined ? 0 : Number(p.fraction.padEnd(3, '0').slice(0, 3)),
  );
  // Date.UTC maps years 0–99 to 1900–1999; correct that so year 0050 sorts before year 1950.
  const instant = Number(p.year) < 100 ? new Date(ms).setUTCFullYear(Number(p.year)) : ms;
  if (p.offset === undefined) return instant;
  const sign = p.offset[0] === '-' ? -1 : 1;
  const offMin = Number(p.offset.slice(1, 3)) * 60 + Number(p.offset.slice(3, 5));
  return instant - sign * offMin * 60_000;
}

/** Order-key steps per second: one per 10 000th of a second, the finest fraction of the profile. */
const ORDER_STEPS_PER_SECOND = 10_000;
/** Order-key steps per minute: 61 seconds, so that a leap second (`:60`) lies after `:59` and before the next minute. */
const ORDER_STEPS_PER_MINUTE = 61 * ORDER_STEPS_PER_SECOND;

/**
 * The exact order key of an instant given by its parts (see {@link isoOrderKey}): every step of 1/10 000 s
 * and the leap second count, and the key stays a safe integer for years 0001–9999.
 * @param year - full year
 * @param month - 1–12
 * @param day - 1–31
 * @param hour - 0–23
 * @param minute - 0–59
 * @param second - 0–60
 * @param tenThousandths - the fraction in 1/10 000 s (0–9999)
 * @param offsetMinutes - the offset in minutes east of UTC
 */
export function orderKeyOfParts(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  tenThousandths: number,
  offsetMinutes: number,
): number {
  const ms = Date.UTC(year, month - 1, day);
  // Date.UTC maps years 0–99 to 1900–1999; correct that so year 0050 sorts before year 1950.
  const dayMs = year < 100 ? new Date(ms).setUTCFullYear(year) : ms;
  const minutes = dayMs / 60_000 + hour * 60 + minute - offsetMinutes;
  return minutes * ORDER_STEPS_PER_MINUTE + second * ORDER_STEPS_PER_SECOND + tenThousandths;
}

/**
 * The key that orders dates and date-times newest first, and periods: instants compare exactly, offsets
 * applied, with all four fraction digits and a leap second (`23:59:60.5` after `23:59:59.9`, before the
 * next minute); a date counts as its first instant in UTC. Not milliseconds (see {@link isoSortKey}): only
 * its order means something. Returns `-Infinity` for `undefined` or a value outside the profile.
 * @param value - a valid ISO date or date-time, or undefined
 */
export function isoOrderKey(value: string | undefined): number {
  if (value === undefined) return Number.NEGATIVE_INFINITY;
  const p = parseIsoDateTime(value);
  if (p === undefined) return Number.NEGATIVE_INFINITY;
  let offsetMinutes = 0;
  if (p.offset !== undefined) {
    const minutes = Number(p.offset.slice(1, 3)) * 60 + Number(p.offset.slice(3, 5));
    offsetMinutes = p.offset[0] === '-' ? -minutes : minutes;
  }
  return orderKeyOfParts(
    Number(p.year),
    p.month === undefined ? 1 : Number(p.month),
    p.day === undefined ? 1 : Number(p.day),
    p.hour === undefined ? 0 : Number(p.hour),
    p.minute === undefined ? 0 : Number(p.minute),
    p.second === undefined ? 0 : Number(p.second),
    p.fraction === undefined ? 0 : Number(p.fraction.padEnd(4, '0')),
    offsetMinutes,
  );
}

/** Two ASCII digits at `i` as a number, or -1. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Classify a string against the accepted ISO profile without allocating: the chart check's hot path.
 * Accepts exactly what {@link parseIsoDateTime} accepts (a property test holds them equal).
 * @param s - the string to classify
 * @returns `'date'` for YYYY / YYYY-MM / YYYY-MM-DD, `'dateTime'` for a full date-time, `undefined` otherwise
 */
export function isoKind(s: string): 'date' | 'dateTime' | undefined {
  const n = s.length;
  if (n !== 4 && n !== 7 && n !== 10 && n < 20) return undefined;
  const hi = two(s, 0);
  const lo = two(s, 2);
  if (hi < 0 || lo < 0 || hi + lo === 0) return undefined;
  if (n === 4) return 'date';
  if (s.charCodeAt(4) !== 45) return undefined; // '-'
  const month = two(s, 5);
  if (month < 1 || month > 12) return undefined;
  if (n === 7) return 'date';
  if (s.charCodeAt(7) !== 45) return undefined;
  const day = two(s, 8);
  if (day < 1 || day > daysInMonth(hi * 100 + lo, month)) return undefined;
  if (n === 10) return 'date';
  // Thh:mm:ss
  if (s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const h = two(s, 11);
  const mi = two(s, 14);
  const sec = two(s, 17);
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60) return undefined;
  let i = 19;
  if (s.charCodeAt(i) === 46) {
    // '.' and 1–4 digits
    let digits = 0;
    i++;
    while (i < n && digits <= 4) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      digits++;
      i++;
    }
    if (digits === 0 || digits > 4) return undefined;
  }
  if (i === n - 1) return s.charCodeAt(i) === 90 ? 'dateTime' : undefined; // 'Z'
  if (i !== n - 6) return undefined;
  const sign = s.charCodeAt(i);
  if ((sign !== 43 && sign !== 45) || s.charCodeAt(i + 3) !== 58) return undefined;
  const oh = two(s, i + 1);
  const om = two(s, i + 4);
  if (oh < 0 || om < 0 || om > 59) return undefined;
  const minutes = oh * 60 + om;
  return minutes <= (sign === 43 ? 14 * 60 : 12 * 60) ? 'dateTime' : undefined;
}
