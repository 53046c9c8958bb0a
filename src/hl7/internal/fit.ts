/**
 * Length handling for encoded HL7 values. Lengths are measured on the escaped text, as sent (a `&` in a
 * name becomes the 3 characters `\T\`), in UTF-16 code units.
 *
 * - Free text (names, descriptions, titles) is truncated at a character boundary that splits neither an
 *   escape sequence nor a surrogate pair.
 * - Identifiers and codes are never truncated: a chart id that does not fit becomes a derived id
 *   ({@link fitId}); a business identifier or code that does not fit its field is a MappingError.
 */
import { MappingError, type IssuePath } from '../../errors.js';
import { joinTrimmed } from './segment-text.js';
import { esc } from './standard-escape.js';

/**
 * Cut escaped text to at most `max` code units without splitting an escape sequence (escaped text holds
 * the escape character only in pairs that open and close a sequence) or a surrogate pair.
 * @param escaped - text escaped with the standard delimiters
 * @param max - the most code units to keep
 * @returns the longest such prefix
 * @example truncateEscaped('ab\\T\\c', 4) // 'ab' (the `\T\` sequence is not split)
 */
export function truncateEscaped(escaped: string, max: number): string {
  if (escaped.length <= max) return escaped;
  if (max <= 0) return '';
  let cut = max;
  let open = -1;
  for (let i = 0; i < cut; i++) {
    if (escaped.charCodeAt(i) === 0x5c) open = open < 0 ? i : -1;
  }
  if (open >= 0) cut = open; // the cut falls inside a sequence: drop the whole sequence
  const before = escaped.charCodeAt(cut - 1);
  if (cut > 0 && before >= 0xd800 && before <= 0xdbff) cut -= 1; // do not split a surrogate pair
  return escaped.slice(0, cut);
}

/**
 * Build a composite (components joined by `^`) that fits `max`, shortening the free-text components listed in
 * `textParts` when needed: all of them are cut to one common length, the largest that fits (a part shorter
 * than that keeps its length; what the division leaves over goes to the first parts cut), so no part is
 * emptied while another keeps more (a surname is not lost to a long prefix).
 * @param parts - encoded components (modified when shortened)
 * @param textParts - indexes of the components that may be shortened
 * @param max - the field's maximum length
 * @returns the composite, or undefined when it cannot fit even with every text component emptied
 * @example fitComposite(['F32.1', 'x'.repeat(300), 'I10'], [1], 250)?.length // 250
 */
export function fitComposite(parts: string[], textParts: readonly number[], max: number): string | undefined {
  const value = joinTrimmed(parts, '^');
  if (value.length <= max) return value;
  let textLength = 0;
  for (const k of textParts) textLength += (parts[k] as string).length;
  // What is not text (keys, separators) stays; the text parts share what is left.
  let budget = max - (value.length - textLength);
  if (budget < 0) return undefined;
  // The common cap: the largest length L with sum(min(length, L)) <= budget.
  const lengths = textParts.map((k) => (parts[k] as string).length).sort((a, b) => a - b);
  let cap = 0;
  let spare = 0;
  for (let i = 0; i < lengths.length; i++) {
    const length = lengths[i] as number;
    const rest = lengths.length - i;
    if (length * rest > budget) {
      cap = Math.floor(budget / rest);
      spare = budget - cap * rest;
      break;
    }
    budget -= length;
  }
  // The characters the division leaves over go one each to the first parts that are cut.
  for (const k of textParts) {
    const part = parts[k] as string;
    if (part.length <= cap) continue;
    parts[k] = truncateEscaped(part, spare > 0 ? cap + 1 : cap);
    if (spare > 0) spare -= 1;
  }
  // Cutting never lengthens, and empty trailing parts only drop separators: the result fits.
  return joinTrimmed(parts, '^');
}

/**
 * Like {@link fitComposite}, but a composite that cannot fit is a MappingError naming the target field.
 * @param parts - encoded components
 * @param textParts - indexes of the components that may be shortened
 * @param max - the field's maximum length
 * @param path - where the value is in the input
 * @param target - the field, e.g. `PID-3`
 * @returns the composite
 * @throws MappingError when the identifiers or codes alone exceed `max`
 * @example fitCompositeOrThrow(['42', '', '', '&1.2&ISO', 'MR'], [], 250, [], 'PID-3') // '42^^^&1.2&ISO^MR'
 */
export function fitCompositeOrThrow(
  parts: string[],
  textParts: readonly number[],
  max: number,
  path: IssuePath,
  target: string,
): string {
  const value = fitComposite(parts, textParts, max);
  if (value === undefined) {
    throw new MappingError(path, target, `the identifier or code is longer than the ${max} characters ${target} allows after escaping`);
  }
  return value;
}

/**
 * FNV-1a 64-bit hash of the UTF-8 bytes of `text`.
 * @param text - any text
 * @returns 16 lower-case hex digits
 * @example hash64('') // 'cbf29ce484222325'
 */
export function hash64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * prime);
  return h.toString(16).padStart(16, '0');
}

/**
 * Encode a chart id (1–128 characters) for a field of at most `max` characters. An id that fits after
 * escaping is sent as is; a longer one becomes its escaped prefix, `-`, and the 16 hex digits of the
 * FNV-1a 64-bit hash of the full id, exactly `max` characters at most. The same id always gives the same
 * value, and ids that differ stay different (up to a 64-bit hash collision). For a component shorter than
 * 17 characters (CX-1 and XCN-1 hold 15) there is no room for a prefix: a longer id becomes the first `max`
 * hex digits of the hash (4·`max` bits).
 * @param id - the chart id
 * @param max - the field's or component's maximum length (at least 8)
 * @returns the escaped id, or its derived form
 * @example fitId('f47ac10b-58cc-4372-a567-0e02b2c3d479', 30) // 'f47ac10b-58cc-1b5e3f0a9d2c4e71' (shape)
 */
export function fitId(id: string, max: number): string {
  const escaped = esc(id);
  if (escaped.length <= max) return escaped;
  if (max < 17) return hash64(id).slice(0, max);
  return `${truncateEscaped(escaped, max - 17)}-${hash64(id)}`;
}

/**
 * Format a finite number as HL7 NM: optional sign, digits, optional decimal point and digits; never an
 * exponent (JavaScript writes 1e21 and 1e-7 that way).
 * @param n - a finite number
 * @returns the NM text, which `Number()` reads back as `n`
 * @example formatNm(1e-7) // '0.0000001'
 */
export function formatNm(n: number): string {
  if (Object.is(n, -0)) return '0';
  const s = String(n);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const sign = s.startsWith('-') ? '-' : '';
  const mantissa = s.slice(sign.length, e);
  const exp = Number(s.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const intLen = (dot < 0 ? mantissa.length : dot) + exp;
  if (intLen <= 0) return `${sign}0.${'0'.repeat(-intLen)}${digits}`;
  if (intLen >= digits.length) return sign + digits + '0'.repeat(intLen - digits.length);
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
}

/** NM maximum length (HL7 v2.5.1 chapter 2A: 16 characters). */
export const NM_MAX = 16;

/**
 * A number as HL7 NM within NM's 16 characters: its shortest exact form ({@link formatNm}) when that fits,
 * else the value rounded to the most significant digits that fit (`0.1 + 0.2`, whose shortest form is
 * `0.30000000000000004`, is sent `0.3`; no clinical value has more than 15 significant digits).
 * @param n - a finite number
 * @param path - where the number is in the input, for MappingError
 * @param target - the field, e.g. `OBX-5`
 * @returns the NM text, at most 16 characters
 * @throws MappingError when not even one significant digit fits (|n| ≥ 10^16, or 10^15 for a negative number,
 *   whose sign takes a character; a non-zero |n| below 10^-14)
 * @example fitNm(0.1 + 0.2, [], 'OBX-5') // '0.3'
 */
export function fitNm(n: number, path: IssuePath, target: string): string {
  const exact = formatNm(n);
  if (exact.length <= NM_MAX) return exact;
  for (let digits = 16; digits >= 1; digits--) {
    const rounded = Number(n.toPrecision(digits));
    // Rounding can reach 0 (nothing kept) or overflow to Infinity (MAX_VALUE to one digit): neither is the value.
    if (rounded === 0 || !Number.isFinite(rounded)) continue;
    const text = formatNm(rounded);
    if (text.length <= NM_MAX) return text;
  }
  throw new MappingError(path, target, `the number cannot be written in NM's ${NM_MAX} characters`);
}
