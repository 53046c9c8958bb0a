/**
 * Text helpers. FHIR forbids empty strings and a strict validator rejects strings of white space only,
 * so optional chart text that is empty or blank is omitted from the output.
 */
import { hasText } from '../../internal/text.js';

export { hasText };

/** The strings of `values` that have text; `undefined` when none has. */
export function textList(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const out: string[] = [];
  for (const v of values) if (hasText(v)) out.push(v);
  return out.length > 0 ? out : undefined;
}
