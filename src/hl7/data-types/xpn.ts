/**
 * XPN, extended person name (HL7 v2.5.1 2A.2.88), and the name parts XCN shares with it.
 */
import type { IssuePath } from '../../errors.js';
import { hasText } from '../../internal/text.js';
import type { HumanName } from '../../model/common.js';
import { COMPONENT_MAX, COMPOSITE_MAX } from '../internal/component-lengths.js';
import { fitCompositeOrThrow } from '../internal/fit.js';
import { HL7_NAME_TYPE } from '../tables.js';
import { firstNonEmpty, joinedTextComponent, textComponent } from './text-component.js';

/**
 * The name parts of an XPN or XCN: family (FN-1), first given name, further given names joined by a space,
 * suffixes and prefixes joined by a space, and the name type (table 0200). A name with only `text` sends
 * that text as the family name (XPN has no free-text component, lossy). Empty given names, suffixes and
 * prefixes are skipped. Each part is shortened to its v2.5.1 component length (surname 50, given names 30,
 * suffix and prefix 20).
 * @param name - the name
 * @returns the encoded parts
 * @example nameParts({ family: 'Okafor', given: ['Adaeze'] }).given // 'Adaeze'
 */
export function nameParts(name: HumanName): { family: string; given: string; middle: string; suffix: string; prefix: string; type: string } {
  const first = firstNonEmpty(name.given);
  const given = name.given?.[first] ?? '';
  const surname = hasText(name.family) ? name.family : '';
  const family = surname !== '' || given !== '' ? surname : hasText(name.text) ? name.text : '';
  return {
    family: textComponent(family, COMPONENT_MAX.surname),
    given: textComponent(given, COMPONENT_MAX.givenName),
    middle: joinedTextComponent(name.given, first + 1, ' ', COMPONENT_MAX.givenName),
    suffix: joinedTextComponent(name.suffix, 0, ' ', COMPONENT_MAX.suffixOrPrefix),
    prefix: joinedTextComponent(name.prefix, 0, ' ', COMPONENT_MAX.suffixOrPrefix),
    type: name.use === undefined ? '' : HL7_NAME_TYPE[name.use],
  };
}

/**
 * XPN from a name: `family^given^further given^suffix^prefix^^type`. Each part is shortened to its component's
 * length (FN-1 surname 50, given names 30, suffix and prefix 20), and to 250 for the whole (see `fitComposite`).
 * @param name - the name
 * @param path - where it is in the input, for MappingError
 * @param target - the field, e.g. `PID-5`
 * @returns the encoded XPN
 * @throws MappingError never in practice (every part is free text); typed for uniformity
 * @see HL7 v2.5.1 XPN data type; PID-5
 * @example xpnFromName({ use: 'official', family: 'Okafor', given: ['Adaeze'] }, [], 'PID-5') // 'Okafor^Adaeze^^^^^L'
 */
export function xpnFromName(name: HumanName, path: IssuePath, target: string): string {
  const p = nameParts(name);
  return fitCompositeOrThrow([p.family, p.given, p.middle, p.suffix, p.prefix, '', p.type], [0, 1, 2, 3, 4], COMPOSITE_MAX, path, target);
}
