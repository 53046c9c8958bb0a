/**
 * XAD, extended address (HL7 v2.5.1 2A.2.83), from a chart address.
 */
import type { IssuePath } from '../../errors.js';
import { hasText } from '../../internal/text.js';
import type { Address } from '../../model/common.js';
import { COMPONENT_MAX, COMPOSITE_MAX } from '../internal/component-lengths.js';
import { fitCompositeOrThrow, truncateEscaped } from '../internal/fit.js';
import { keptPrefix } from '../internal/speed-ups.js';
import { esc } from '../internal/standard-escape.js';
import { hl7AddressType } from '../tables.js';
import { firstNonEmpty, joinedTextComponent, textComponent } from './text-component.js';

/** The index of XAD-7, the address type (a code, not text), in the parts of an XAD. */
const XAD_TYPE = 6;

/**
 * XAD from an address: `street^other lines^city^state^postal code^country^type^other^district` (XAD-1 SAD-1 the
 * first line, XAD-2 the further lines joined by `, `, XAD-9 county). Text parts are shortened to their v2.5.1
 * component lengths (street and other lines 120, city and state 50, county 20). A postal code longer than
 * XAD-5's 12 characters or a country longer than XAD-6's 3 (a name rather than an ISO 3166 code) is sent in
 * XAD-8, other geographic designation, instead: free text of 50 characters, shortened there like other text.
 * @param address - the address
 * @param path - where it is in the input, for MappingError
 * @param target - the field, e.g. `PID-11`
 * @returns the encoded XAD ('' for an empty address)
 * @throws MappingError never in practice (every part is free text); typed for uniformity
 * @see HL7 v2.5.1 XAD data type; PID-11
 * @example xadFromAddress({ use: 'home', lines: ['12 Elm St'], city: 'Springfield' }, [], 'PID-11') // '12 Elm St^^Springfield^^^^H'
 */
export function xadFromAddress(address: Address, path: IssuePath, target: string): string {
  const first = firstNonEmpty(address.lines);
  // A postal code or country too long for XAD-5 (12) / XAD-6 (3) is not cut to fit there: it goes to XAD-8,
  // other geographic designation (ST 50, free text), so it still reaches the receiver. Blank parts are left
  // out, as FHIR leaves them out.
  const part = (value: string | undefined): string => (hasText(value) ? value : '');
  // Only what XAD-8 can keep is escaped: a value longer than that fits neither XAD-5 nor XAD-6.
  const postalCode = esc(keptPrefix(part(address.postalCode), COMPONENT_MAX.place));
  const country = esc(keptPrefix(part(address.country), COMPONENT_MAX.place));
  const postalFits = postalCode.length <= COMPONENT_MAX.postalCode;
  const countryFits = country.length <= COMPONENT_MAX.country;
  const other = [postalFits ? '' : postalCode, countryFits ? '' : country].filter((v) => v !== '').join(', ');
  const parts = [
    textComponent(address.lines?.[first] ?? '', COMPONENT_MAX.street),
    joinedTextComponent(address.lines, first + 1, ', ', COMPONENT_MAX.street),
    textComponent(part(address.city), COMPONENT_MAX.place),
    textComponent(part(address.state), COMPONENT_MAX.place),
    postalFits ? postalCode : '',
    countryFits ? country : '',
    hl7AddressType(address.use, address.type),
    truncateEscaped(other, COMPONENT_MAX.place),
    textComponent(part(address.district), COMPONENT_MAX.county),
  ];
  // An address with no text at all (only a use or type) carries nothing: left out, as FHIR leaves it out.
  if (parts.every((p, k) => k === XAD_TYPE || p === '')) return '';
  return fitCompositeOrThrow(parts, [0, 1, 2, 3, 7, 8], COMPOSITE_MAX, path, target);
}
