/**
 * Segment text: fields joined by `|`, components by `^`, repetitions by `~`, trailing empty values dropped
 * (HL7 v2.5.1 chapter 2, 2.5 "Message construction": no trailing delimiters).
 */
import { separatorRun } from './speed-ups.js';

/**
 * Join components with a separator, dropping trailing empty ones (HL7 sends no trailing delimiters). A run
 * of empty values inside is appended as one run of separators.
 * @param parts - encoded parts
 * @param sep - the separator
 * @returns the joined text
 * @example joinTrimmed(['a', '', 'b', '', ''], '^') // 'a^^b'
 */
export function joinTrimmed(parts: readonly string[], sep: string): string {
  let end = parts.length;
  while (end > 0 && parts[end - 1] === '') end--;
  if (end === 0) return '';
  let out = parts[0] as string;
  let gap = 1; // separators owed before the next non-empty part
  for (let i = 1; i < end; i++) {
    const part = parts[i] as string;
    if (part === '') {
      gap += 1;
    } else {
      out += (gap === 1 ? sep : separatorRun(sep, gap)) + part;
      gap = 1;
    }
  }
  return out;
}

/**
 * Join repetitions with `~`.
 * @param values - encoded repetitions
 * @returns the field value
 * @example repeat(['a', 'b']) // 'a~b'
 */
export function repeat(values: readonly string[]): string {
  return values.length === 1 ? (values[0] as string) : values.join('~');
}

/**
 * A new array of `count` empty fields, to be filled by position.
 * @param count - the number of fields
 * @returns a new array of `count` empty strings
 * @example emptyFields(3) // ['', '', '']
 */
export function emptyFields(count: number): string[] {
  return new Array<string>(count).fill('');
}

/**
 * A segment: id and fields joined by `|`, trailing empty fields dropped.
 * @param id - segment id
 * @param fields - encoded fields, field 1 first (for MSH, MSH-2 first)
 * @returns the segment text without terminator
 * @example segment('PV1', ['1', 'N', '', '']) // 'PV1|1|N'
 */
export function segment(id: string, fields: readonly string[]): string {
  const body = joinTrimmed(fields, '|');
  return body === '' ? id : `${id}|${body}`;
}
