/**
 * Chart ISO 8601 dates and date-times ↔ HL7 v2.5.1 DT / DTM (the first component of TS), by rewriting the
 * digits: no `Date`, no time-zone conversion, so precision and offset survive exactly.
 *
 * - `2026-03-01T09:30:00-05:00` ↔ `20260301093000-0500`; `2026-03-01` ↔ `20260301`; `2026-03` ↔ `202603`.
 * - Fractions keep their digits as written: `.5` stays `.5` (half a second), never "5 milliseconds".
 * - `Z` is written `+0000`; read back it is `+00:00` (HL7 has no separate notation for UTC).
 */
import { DateTimeFormatError } from '../errors.js';
import { daysInMonth, parseIsoDateTime } from '../internal/iso.js';
import { cachedDateTime, cachedInstant } from './internal/speed-ups.js';

const ISO_EXPECTED = 'ISO 8601 date or date-time';
const ISO_SHAPE = 'expected YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm) with real calendar values';

/**
 * Turn a chart date or date-time into HL7 v2.5.1 DTM (TS.1) or DT text, keeping its precision, fraction
 * digits and offset.
 *
 * @param iso - a date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`) or a date-time with seconds and offset
 *   (`YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm)`), the chart's ISO profile
 * @returns `YYYY[MM[DD]]` for a date, `YYYYMMDDHHMMSS[.S{1,4}]±ZZZZ` for a date-time
 * @throws DateTimeFormatError when `iso` is not in the profile (the message never repeats the value)
 * @see HL7 v2.5.1 chapter 2A, DTM, DT and TS data types
 * @example formatHl7DateTime('2026-03-01T09:30:00.5-05:00') // '20260301093000.5-0500'
 * @example formatHl7DateTime('1984-07-02') // '19840702'
 */
export function formatHl7DateTime(iso: string): string {
  return typeof iso === 'string' ? cachedDateTime(iso, () => formatNew(iso)) : formatNew(iso);
}

function formatNew(iso: string): string {
  const p = typeof iso === 'string' ? parseIsoDateTime(iso) : undefined;
  if (p === undefined) throw new DateTimeFormatError(ISO_EXPECTED, ISO_SHAPE);
  let out = p.year + (p.month ?? '') + (p.day ?? '');
  if (p.hour !== undefined) {
    out += `${p.hour}${p.minute ?? ''}${p.second ?? ''}`;
    if (p.fraction !== undefined) out += `.${p.fraction}`;
    out += p.offset ?? '';
  }
  return out;
}

const HL7_DTM_RE = /^(\d{4})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:\.(\d{1,4}))?)?)?)?)?)?([+-]\d{4})?$/;

/**
 * Turn HL7 v2 DTM / DT text (TS.1) into an ISO 8601 string of the same precision.
 *
 * A value with seconds and an offset gives a chart date-time (`YYYY-MM-DDThh:mm:ss[.f]±hh:mm`); a date gives
 * a chart date. HL7 also allows values the chart profile has no room for, which come back as ISO 8601
 * without inventing anything: hour or minute precision (`2026-03-01T09:30-05:00`), and no offset (local time
 * of the sender, `2026-03-01T09:30:00`). An offset on a value without a time is dropped, since ISO dates
 * carry none.
 *
 * @param hl7 - `YYYY[MM[DD[HH[MM[SS[.S{1,4}]]]]]][±ZZZZ]`
 * @returns the ISO 8601 form; `+0000` becomes `+00:00`
 * @throws DateTimeFormatError when `hl7` is not DTM-shaped or holds an impossible date, time or offset
 * @see HL7 v2.5.1 chapter 2A, DTM data type
 * @example parseHl7DateTime('20260301093000.5-0500') // '2026-03-01T09:30:00.5-05:00'
 * @example parseHl7DateTime('19840702') // '1984-07-02'
 */
export function parseHl7DateTime(hl7: string): string {
  const m = typeof hl7 === 'string' ? HL7_DTM_RE.exec(hl7) : null;
  if (m === null) throw new DateTimeFormatError('HL7 DTM', 'expected YYYY[MM[DD[HH[MM[SS[.S{1,4}]]]]]][+/-ZZZZ]');
  const [, y, mo, d, h, mi, s, f, tz] = m;
  const year = y as string;
  if (year === '0000') throw new DateTimeFormatError('HL7 DTM', 'year 0000 does not exist');
  if (mo !== undefined) {
    const month = Number(mo);
    if (month < 1 || month > 12) throw new DateTimeFormatError('HL7 DTM', 'month out of range');
    if (d !== undefined) {
      const day = Number(d);
      if (day < 1 || day > daysInMonth(Number(year), month)) throw new DateTimeFormatError('HL7 DTM', 'day out of range');
    }
  }
  if (h !== undefined && Number(h) > 23) throw new DateTimeFormatError('HL7 DTM', 'hour out of range');
  if (mi !== undefined && Number(mi) > 59) throw new DateTimeFormatError('HL7 DTM', 'minute out of range');
  if (s !== undefined && Number(s) > 60) throw new DateTimeFormatError('HL7 DTM', 'second out of range');
  let offset = '';
  if (tz !== undefined) {
    const oh = Number(tz.slice(1, 3));
    const om = Number(tz.slice(3, 5));
    const minutes = oh * 60 + om;
    if (om > 59 || (tz[0] === '+' ? minutes > 14 * 60 : minutes > 12 * 60)) {
      throw new DateTimeFormatError('HL7 DTM', 'offset out of range');
    }
    offset = `${tz.slice(0, 3)}:${tz.slice(3, 5)}`;
  }
  let out = year;
  if (mo !== undefined) out += `-${mo}`;
  if (d !== undefined) out += `-${d}`;
  if (h === undefined) return out; // a date: ISO dates have no offset
  out += `T${h}`;
  if (mi !== undefined) out += `:${mi}`;
  if (s !== undefined) out += `:${s}`;
  if (f !== undefined) out += `.${f}`;
  return out + offset;
}

/**
 * Format "now" for MSH-7, EVN-2 and QRD-1: seconds and offset, without the fraction (several receivers
 * reject fractional seconds in header time stamps).
 * @param iso - an ISO 8601 date-time with seconds and offset
 * @returns `YYYYMMDDHHMMSS±ZZZZ`
 * @throws DateTimeFormatError when `iso` is not a date-time with seconds and offset
 * @example formatHl7Instant('2026-03-01T09:30:00.250Z') // '20260301093000+0000'
 * @internal
 */
export function formatHl7Instant(iso: string): string {
  return cachedInstant(iso, () => formatNewInstant(iso));
}

function formatNewInstant(iso: string): string {
  const p = parseIsoDateTime(iso);
  if (p === undefined || p.precision !== 'second') {
    throw new DateTimeFormatError('ISO 8601 date-time', 'expected YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm)');
  }
  return `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}${p.offset}`;
}
