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
/** A forbidden control character or any surrogate code unit (only text that has one can hold a lone one). */
// eslint-disable-next-line no-control-regex -- the check finds the control characters FHIR strings forbid
const MAYBE_FORBIDDEN_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/;
/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `String.prototype.isWellFormed` (ES2024: no lone surrogate) where the runtime has it. */
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * Whether text holds a control character FHIR strings forbid (C0 but tab, LF, CR) or a lone surrogate. Text with
 * neither a control character nor a surrogate (most text) is settled by one scan, as before; text with one is
 * scanned for the control characters, then checked by `isWellFormed` (where the runtime has it; by the
 * lone-surrogate expression where not). Text with non-BMP characters (emoji,
 * some CJK) no longer goes through the lone-surrogate expression, whose look-behind costs about 6 times a plain
 * scan of the whole value.
 * Plain equivalent: `/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/.test(text) &&
 * /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)`.
 * @param text - any text
 * @returns whether the check refuses it as holding a control character or a lone surrogate
 * @example hasForbiddenText('a\uD800b') // true
 */
export function hasForbiddenText(text: string): boolean {
  // Most text has neither a forbidden control character nor a surrogate: one scan settles it.
  if (!MAYBE_FORBIDDEN_RE.test(text)) return false;
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
