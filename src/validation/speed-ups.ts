/**
 * Every speed-up of the chart check, in one place. Each export has a plain equivalent that gives the same result
 * (written in its TSDoc, and in bench/hl7-speed-ups/plain.ts), so removing a speed-up means replacing its body by
 * that equivalent; `bench/hl7-speed-ups/ab.mjs` measures each one's gain A/B against an A/A control.
 *
 * The check reads every text value whole once (FHIR sends it whole): these keep it to that one reading, and keep
 * the limit rules (lengths once escaped for HL7, UTF-8 bytes) from reading further than their limit.
 */

/** Control characters FHIR strings forbid (all C0 but tab, LF, CR). */
// eslint-disable-next-line no-control-regex -- the check finds the control characters FHIR strings forbid
const FORBIDDEN_CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
/**
 * A forbidden control character or any surrogate code unit (only text that has one can hold a lone one). Global:
 * `lastIndex` tells where the first one is, and the text before it needs no second look.
 */
// eslint-disable-next-line no-control-regex -- the check finds the control characters FHIR strings forbid
const MAYBE_FORBIDDEN_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/g;

/**
 * The longest start of a text that the check accepts, in one pass: runs of characters that are neither a forbidden
 * control character nor a surrogate, each run after the first following a surrogate pair (high then low). Sticky
 * and never failing, it matches from 0 as far as the text is accepted, and leaves `lastIndex` there: the text is
 * accepted exactly when that is its length. Every step is decided by the next character (the runs and the pairs
 * share none), so a match never needs to go back, and a refused text costs no more than an accepted one.
 */
// eslint-disable-next-line no-control-regex -- the check finds the control characters FHIR strings forbid
const ACCEPTED_START_RE = /[^\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]*(?:[\uD800-\uDBFF][\uDC00-\uDFFF][^\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]*)*/y;

/** `String.prototype.isWellFormed` (ES2024: no lone surrogate) where the runtime has it. */
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether text holds a control character FHIR strings forbid (C0 but tab, LF, CR) or a lone surrogate. Text with
 * neither a control character nor a surrogate (most text) is settled by one search, as before. Text with one
 * (any emoji or other non-BMP character) is then read on from that character by {@link ACCEPTED_START_RE}, which
 * settles both questions in that one scan: the control-character scan followed by `isWellFormed` that this
 * replaces read such text twice (about 1.35 times as long).
 * The expression's engine keeps one backtracking entry per surrogate pair; should it run out of room (text of
 * millions of pairs, far beyond the 1 MiB of a FHIR string), the answer comes from those two scans instead.
 * Plain equivalent: `/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/.test(text) &&
 * /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)`.
 * @param text - any text
 * @returns whether the check refuses it as holding a control character or a lone surrogate
 * @example hasForbiddenText('a\uD800b') // true
 */
export function hasForbiddenText(text: string): boolean {
  // Most text has neither a forbidden control character nor a surrogate: one search settles it.
  const maybe = MAYBE_FORBIDDEN_RE;
  maybe.lastIndex = 0;
  if (!maybe.test(text)) return false;
  // The text before the first such character holds no surrogate: the scan starts at that character.
  const re = ACCEPTED_START_RE;
  re.lastIndex = maybe.lastIndex - 1;
  try {
    re.test(text);
  } catch {
    return hasForbiddenTextInTwoScans(text);
  }
  return re.lastIndex !== text.length;
}

/**
 * The same answer in two scans, for text too long for {@link ACCEPTED_START_RE}: the control characters, then
 * `isWellFormed` (where the runtime has it; the lone-surrogate expression where not).
 * @param text - any text
 * @returns whether the check refuses it
 * @example hasForbiddenTextInTwoScans('a\u0001') // true
 */
export function hasForbiddenTextInTwoScans(text: string): boolean {
  if (FORBIDDEN_CONTROL_RE.test(text)) return true;
  if (nativeIsWellFormed !== undefined) return !nativeIsWellFormed.call(text);
  return LONE_SURROGATE_RE.test(text);
}

/**
 * A limit rule (a length once escaped for HL7, a number of UTF-8 bytes) counts no further than its limit: the
 * count stops as soon as it is past `max` (a contact value of 1 MiB is refused after its first 200 characters).
 * Plain equivalent: `Number.POSITIVE_INFINITY` (the whole value is counted).
 * @param max - the limit
 * @returns where counting may stop: `max`
 * @example countUpTo(199) // 199
 */
export function countUpTo(max: number): number {
  return max;
}

/**
 * A limit on a length once escaped for HL7 is settled without reading the text when an upper bound that reads
 * no text (every character at its longest escape, `HL7_ESCAPED_CHAR_MAX` in model/limits.ts) fits: only text that might
 * not fit is counted. Plain equivalent: `false` (the text is always counted).
 * @param upperBound - a length at least the escaped one, e.g. `text.length * HL7_ESCAPED_CHAR_MAX`
 * @param max - the limit
 * @returns whether the value surely fits, so the count can be skipped
 * @example surelyFits(15 * 7, 199) // true
 */
export function surelyFits(upperBound: number, max: number): boolean {
  return upperBound <= max;
}
