/**
 * Whether chart text carries anything. FHIR forbids empty strings and strict validators reject strings of
 * white space only, so both output formats leave blank text out; the chart check refuses it where text is
 * required to identify someone. One definition, so the formats and the check agree on what "blank" is.
 */

const NON_SPACE_RE = /\S/;

/**
 * True when `value` is a string with at least one character that is not white space (JavaScript `\s`, as
 * `trim` reads it).
 * @param value - the text, or undefined
 * @returns whether it has text
 * @example hasText(' \u3000') // false
 */
export function hasText(value: string | undefined): value is string {
  if (value === undefined) return false;
  // Most text starts with a printable ASCII character, which is no white space: no search needed.
  const first = value.charCodeAt(0);
  return (first > 0x20 && first < 0x7f) || NON_SPACE_RE.test(value);
}

/**
 * The strings of `values` that have text (see {@link hasText}); `undefined` when none has.
 * @param values - the strings, or undefined
 * @returns the strings with text, in order, or undefined
 * @example textList(['', 'a', ' ']) // ['a']
 */
export function textList(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const out: string[] = [];
  for (const v of values) if (hasText(v)) out.push(v);
  return out.length > 0 ? out : undefined;
}
