/**
 * Free text and codes as components (HL7 v2.5.1 ST, chapter 2A): free text escaped and shortened to its
 * component's length, codes escaped and never cut; and the joining of lists of name or address parts.
 */
import { hasText } from '../../internal/text.js';
import { truncateEscaped } from '../internal/fit.js';
import { KEPT_PREFIX_ONLY, keptPrefix } from '../internal/speed-ups.js';
import { esc } from '../internal/standard-escape.js';

/**
 * Escape free text and shorten it to a component's maximum length (never splitting an escape sequence or a
 * surrogate pair); blank text (white space only) gives an empty component. Only the part of the text that
 * can be kept is escaped ({@link keptPrefix}).
 * @param value - chart text
 * @param max - the component's maximum length after escaping
 * @returns the escaped, possibly shortened text
 * @example textComponent('Okafor & Sons', 50) // 'Okafor \\T\\ Sons'
 */
export function textComponent(value: string, max: number): string {
  // Blank text carries nothing and FHIR leaves it out: an empty component, not spaces.
  return hasText(value) ? truncateEscaped(esc(keptPrefix(value, max)), max) : '';
}

/**
 * A code for CE-1 (ST 20), escaped and never cut or replaced. Known deviation: a chart code longer than 20
 * characters after escaping is sent whole (the chart check keeps codes to 64 characters, so the CE still fits
 * its 250), as business identifiers are; `checkHl7Message` reports it as `max-length`. Real LOINC, SNOMED CT,
 * ICD-10 and CPT codes are all shorter.
 * @param code - the chart code
 * @returns the escaped code
 * @example codeComponent('F32.1') // 'F32.1'
 */
export function codeComponent(code: string): string {
  return esc(code);
}

/**
 * The index of the first value with text.
 * @param values - name or address parts
 * @returns its index, or the length when there is none
 * @example firstNonEmpty([' ', 'Anne']) // 1
 */
export function firstNonEmpty(values: readonly string[] | undefined): number {
  if (values === undefined) return 0;
  let i = 0;
  while (i < values.length && !hasText(values[i])) i++;
  return i;
}

/**
 * The values with text from index `from` on, joined by `sep`.
 * @param values - name or address parts
 * @param from - the first index to take
 * @param sep - the separator
 * @returns the joined values ('' when there are none)
 * @example joinNonEmpty(['Mary', 'Anne', 'Lou'], 1, ' ') // 'Anne Lou'
 */
export function joinNonEmpty(values: readonly string[] | undefined, from: number, sep: string): string {
  if (values === undefined) return '';
  let out = '';
  for (let i = from; i < values.length; i++) {
    const v = values[i] as string;
    if (hasText(v)) out = out === '' ? v : out + sep + v;
  }
  return out;
}

/**
 * The values with text from index `from` on, joined by `sep`, as a component of `max` characters: the same as
 * `textComponent(joinNonEmpty(values, from, sep), max)`, but only what the component can keep of the joined
 * text is joined and escaped ({@link keptPrefix}).
 * @param values - name or address parts
 * @param from - the first index to take
 * @param sep - the separator
 * @param max - the component's maximum length after escaping
 * @returns the escaped, possibly shortened component ('' when no value has text)
 * @example joinedTextComponent(['Mary', 'Anne', 'Lou'], 1, ' ', 30) // 'Anne Lou'
 */
export function joinedTextComponent(values: readonly string[] | undefined, from: number, sep: string, max: number): string {
  if (values === undefined) return '';
  let out = '';
  for (let i = from; i < values.length; i++) {
    const v = values[i] as string;
    // Only values with text are joined, so joined text always has text (though its kept start may be blank).
    if (hasText(v)) out = out === '' ? keptPrefix(v, max) : out + sep + keptPrefix(v, max);
    // The text kept so far already runs past what the component can hold: the rest cannot be kept.
    if (KEPT_PREFIX_ONLY && out.length > max + 1) break;
  }
  return out === '' ? '' : truncateEscaped(esc(keptPrefix(out, max)), max);
}
