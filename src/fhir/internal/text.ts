/**
 * Text helpers. FHIR forbids empty strings and a strict validator rejects strings of white space only,
 * so optional chart text that is empty or blank is omitted from the output.
 */

const NON_SPACE_RE = /\S/;

/** True when `value` has at least one character that is not white space (JavaScript `\s`, as `trim`). */
export function hasText(value: string): boolean {
  return NON_SPACE_RE.test(value);
}

/** The strings of `values` that have text; `undefined` when none has. */
export function textList(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const out: string[] = [];
  for (const v of values) if (NON_SPACE_RE.test(v)) out.push(v);
  return out.length > 0 ? out : undefined;
}
