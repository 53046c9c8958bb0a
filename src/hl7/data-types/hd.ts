/**
 * HD, hierarchic designator (HL7 v2.5.1 2A.2.33), for an identifier system.
 */
import { COMPONENT_MAX } from '../internal/component-lengths.js';
import { esc } from '../internal/standard-escape.js';

/**
 * HD (hierarchic designator) for an identifier system, as the subcomponents of a component:
 * `urn:oid:X` → `&X&ISO`, `urn:uuid:X` → `&X&UUID`, any other URI → `&URI&URI` (HD-2 universal id, HD-3 type,
 * table 0301). The mapping is exact both ways.
 * @param system - the identifier system (an absolute URI)
 * @returns the encoded HD, HD-1 empty; undefined when the universal id is longer than HD-2's 199
 *   characters after escaping (callers refuse the identifier or leave the assigning authority out)
 * @see HL7 v2.5.1 HD data type; CX-4 assigning authority
 * @example hdForSystem('urn:oid:2.16.840.1.113883.19.5') // '&2.16.840.1.113883.19.5&ISO'
 */
export function hdForSystem(system: string): string | undefined {
  const [universalId, type] = system.startsWith('urn:oid:')
    ? [esc(system.slice(8)), 'ISO']
    : system.startsWith('urn:uuid:')
      ? [esc(system.slice(9)), 'UUID']
      : [esc(system), 'URI'];
  if (universalId.length <= COMPONENT_MAX.universalId) return `&${universalId}&${type}`;
  return undefined;
}
