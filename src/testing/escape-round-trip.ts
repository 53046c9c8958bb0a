/**
 * The HL7 escaping property: escaped text holds no raw delimiter or line break and only whole escape
 * sequences, and unescaping gives the text back.
 */
import { DEFAULT_HL7_DELIMITERS, escapeHl7, unescapeHl7, type Hl7Delimiters } from '../index.js';
import { PropertyAssertionError, show, type PropertyMismatch } from './failure.js';

/** Escape sequences (between two escape characters) escaped text may hold (HL7 v2.5.1 2.7). */
const SEQUENCE_RE = /^(?:F|S|T|R|E|P|X(?:[0-9A-F]{2})+)$/;

/**
 * What is wrong with an escaping round trip: raw delimiters or line breaks in the escaped text, unpaired
 * escape characters, unknown sequences, and unescaped text that is not the original.
 * @param text - the original text
 * @param escaped - what escaping gave
 * @param back - what unescaping `escaped` gave
 * @param d - the delimiters used
 * @returns the mismatches, empty when the round trip holds
 * @example roundTripMismatches('a|b', 'a|b', 'a|b', DEFAULT_HL7_DELIMITERS)[0]?.path // 'escapeHl7(text)[1]'
 */
export function roundTripMismatches(text: string, escaped: string, back: string, d: Hl7Delimiters): PropertyMismatch[] {
  const out: PropertyMismatch[] = [];
  const raw: [string, string | undefined][] = [['field', d.field], ['component', d.component], ['repetition', d.repetition], ['subcomponent', d.subcomponent], ['truncation', d.truncation], ['CR', '\r'], ['LF', '\n']];
  for (const [name, c] of raw) {
    const at = c === undefined ? -1 : escaped.indexOf(c);
    if (at >= 0) out.push({ path: `escapeHl7(text)[${at}]`, expected: `no raw ${name} ${show(c)}`, actual: show(escaped) });
  }
  const parts = escaped.split(d.escape);
  if (parts.length % 2 === 0) out.push({ path: 'escapeHl7(text)', expected: `escape character ${show(d.escape)} only in pairs`, actual: show(escaped) });
  for (let i = 1; i < parts.length; i += 2) {
    if (!SEQUENCE_RE.test(parts[i] as string)) out.push({ path: 'escapeHl7(text)', expected: 'only the escape sequences F, S, T, R, E, P and Xhh', actual: show(`${d.escape}${parts[i]}${d.escape}`) });
  }
  if (back !== text) out.push({ path: 'unescapeHl7(escapeHl7(text))', expected: show(text), actual: show(back) });
  return out;
}

/**
 * Check that `escapeHl7` and `unescapeHl7` round-trip `text` under `delimiters`: the escaped text holds no
 * raw field, component, repetition or subcomponent separator, no CR or LF, and the escape character only in
 * whole escape sequences; and unescaping it gives `text` back exactly.
 * @param text - any string (chart text, or anything your pipeline sends)
 * @param delimiters - the delimiter set (default `|^~\&`)
 * @returns the escaped text
 * @throws {PropertyAssertionError} naming each part of the property that failed, with the text and escaped text
 * @example
 * fc.assert(fc.property(hl7Text({ kind: 'hostile' }), hl7Delimiters(), (text, d) => {
 *   assertEscapeRoundTrip(text, d);
 * }));
 */
export function assertEscapeRoundTrip(text: string, delimiters: Hl7Delimiters = DEFAULT_HL7_DELIMITERS): string {
  const escaped = escapeHl7(text, delimiters);
  const mismatches = roundTripMismatches(text, escaped, unescapeHl7(escaped, delimiters), delimiters);
  if (mismatches.length > 0) throw new PropertyAssertionError(`HL7 escaping does not round-trip ${show(text)}`, mismatches);
  return escaped;
}
