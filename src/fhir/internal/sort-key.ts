/**
 * Newest-first sort keys of checked ISO 8601 dates and date-times, read by position instead of by regular
 * expression: the builders sort thousands of records, and the chart check has already vouched for the
 * shape (`YYYY[-MM[-DD[Thh:mm:ss[.f{1,4}](Z|±hh:mm)]]]`). Same result as `isoOrderKey` of
 * `src/internal/iso.ts` (the tests compare them).
 */
import { orderKeyOfParts } from '../../internal/iso.js';

/** The number written by `count` ASCII digits of `text` from `from`. */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

/**
 * The exact order key of a checked date or date-time (a date sorts as its first instant in UTC; the offset
 * is applied; all four fraction digits count, and a leap second lies between second 59 and the next
 * minute); `-Infinity` for `undefined`.
 * @param value - a date or date-time that passed the chart check, or undefined
 */
export function sortKey(value: string | undefined): number {
  if (value === undefined) return Number.NEGATIVE_INFINITY;
  const length = value.length;
  const year = digits(value, 0, 4);
  const month = length >= 7 ? digits(value, 5, 2) : 1;
  const day = length >= 10 ? digits(value, 8, 2) : 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let fraction = 0;
  let offsetMinutes = 0;
  if (length > 10) {
    hour = digits(value, 11, 2);
    minute = digits(value, 14, 2);
    second = digits(value, 17, 2);
    let i = 19;
    if (value.charCodeAt(i) === 46) {
      // '.': up to four fraction digits, in 1/10 000 s (right-padded with zeros).
      i++;
      let taken = 0;
      while (i < length) {
        const c = value.charCodeAt(i);
        if (c < 48 || c > 57) break;
        fraction = fraction * 10 + (c - 48);
        taken++;
        i++;
      }
      for (; taken < 4; taken++) fraction *= 10;
    }
    if (value.charCodeAt(i) !== 90) {
      // '±hh:mm'; 'Z' is offset zero.
      const minutes = digits(value, i + 1, 2) * 60 + digits(value, i + 4, 2);
      offsetMinutes = value.charCodeAt(i) === 45 ? -minutes : minutes;
    }
  }
  return orderKeyOfParts(year, month, day, hour, minute, second, fraction, offsetMinutes);
}
