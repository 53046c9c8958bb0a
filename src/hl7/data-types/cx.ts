/**
 * CX, extended composite id with check digit (HL7 v2.5.1 2A.2.16), from a business identifier.
 */
import { MappingError, type IssuePath } from '../../errors.js';
import type { Identifier } from '../../model/common.js';
import { COMPONENT_MAX, COMPOSITE_MAX } from '../internal/component-lengths.js';
import { fitCompositeOrThrow } from '../internal/fit.js';
import { esc } from '../internal/standard-escape.js';
import { hdForSystem } from './hd.js';

/**
 * CX from an identifier: `value^^^assigning authority^type` (CX-1, CX-4 HD, CX-5 table 0203).
 * @param identifier - the identifier
 * @param path - where it is in the input, for MappingError
 * @param target - the field, e.g. `PID-3`
 * @returns the encoded CX, at most 250 characters
 * @throws MappingError when it does not fit 250 characters, or its system HD-2's 199, after escaping (identifiers
 *   are never shortened). CX-1's own 15 characters are a known deviation: a longer business identifier is sent
 *   whole (documented in `HL7_LENGTH_DEVIATIONS`).
 * @see HL7 v2.5.1 CX data type
 * @example cxFromIdentifier({ system: 'urn:oid:1.2', value: '42', type: 'MR' }, [], 'PID-3') // '42^^^&1.2&ISO^MR'
 */
export function cxFromIdentifier(identifier: Identifier, path: IssuePath, target: string): string {
  const authority = hdForSystem(identifier.system);
  if (authority === undefined) {
    throw new MappingError([...path, 'system'], target, `the identifier system is longer than the ${COMPONENT_MAX.universalId} characters ${target} CX-4 (HD-2) allows after escaping`);
  }
  return fitCompositeOrThrow([esc(identifier.value), '', '', authority, identifier.type ?? ''], [], COMPOSITE_MAX, path, target);
}
