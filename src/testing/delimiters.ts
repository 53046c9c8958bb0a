/**
 * HL7 v2 delimiter sets: the standard `|^~\&`, ones other senders declare in MSH-1 and MSH-2, and random
 * valid sets (five distinct printable ASCII characters that are no letter or digit).
 */
import fc from 'fast-check';
import { DEFAULT_HL7_DELIMITERS, type Hl7Delimiters } from '../index.js';

/** Characters a delimiter may be: printable ASCII other than letters and digits (HL7 v2.5.1 2.5.4). */
const DELIMITER_CHARS: readonly string[] = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];

/** Delimiter sets seen in real feeds: standard, standard with `#` as truncation (v2.7), shuffled, and odd ones. */
const NOTABLE_SETS: readonly Hl7Delimiters[] = [
  DEFAULT_HL7_DELIMITERS,
  { field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&', truncation: '#' },
  { field: '|', component: '~', repetition: '^', escape: '\\', subcomponent: '&' },
  { field: '!', component: '@', repetition: '#', escape: '$', subcomponent: '%' },
  { field: '^', component: '|', repetition: '&', escape: '~', subcomponent: '\\' },
  { field: '*', component: ':', repetition: '+', escape: '?', subcomponent: '/' },
];

/**
 * Options of {@link hl7Delimiters}.
 * @example hl7Delimiters({ truncation: true })
 */
export interface Hl7DelimitersOptions {
  /** Also a fifth, truncation, character as HL7 v2.7 declares in MSH-2 (default false). */
  truncation?: boolean | undefined;
}

/**
 * A valid HL7 v2 delimiter set: the standard `|^~\&` often, else a set seen in real feeds or a random one
 * (distinct printable ASCII characters, no letter or digit), sometimes with a truncation character.
 * @param options - whether a truncation character may be declared (default false)
 * @returns an arbitrary of delimiter sets `escapeHl7`, `unescapeHl7` and `parseHl7Message` accept
 * @example
 * fc.assert(fc.property(hl7Text(), hl7Delimiters(), (text, d) => assertEscapeRoundTrip(text, d)));
 */
export function hl7Delimiters(options: Hl7DelimitersOptions = {}): fc.Arbitrary<Hl7Delimiters> {
  const withTruncation = options.truncation === true;
  const random = fc
    .tuple(fc.shuffledSubarray([...DELIMITER_CHARS], { minLength: 6, maxLength: 6 }), fc.boolean())
    .map(([[field, component, repetition, escape, subcomponent, truncation], truncate]): Hl7Delimiters => {
      const set = { field: field ?? '|', component: component ?? '^', repetition: repetition ?? '~', escape: escape ?? '\\', subcomponent: subcomponent ?? '&' };
      return withTruncation && truncate && truncation !== undefined ? { ...set, truncation } : set;
    });
  const notable = NOTABLE_SETS.filter((d) => withTruncation || d.truncation === undefined);
  return fc.oneof({ arbitrary: fc.constant(DEFAULT_HL7_DELIMITERS), weight: 2 }, { arbitrary: fc.constantFrom(...notable), weight: 1 }, { arbitrary: random, weight: 3 });
}
