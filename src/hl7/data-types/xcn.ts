/**
 * XCN, extended composite id number and name for persons (HL7 v2.5.1 2A.2.86), for a practitioner.
 */
import type { IssuePath } from '../../errors.js';
import type { Identifier } from '../../model/common.js';
import { COMPOSITE_MAX, ID_NUMBER_MAX } from '../internal/component-lengths.js';
import { fitCompositeOrThrow, fitId } from '../internal/fit.js';
import type { MessageContext } from '../internal/message-context.js';
import { joinTrimmed } from '../internal/segment-text.js';
import { cachedXcn } from '../internal/speed-ups.js';
import { esc } from '../internal/standard-escape.js';
import { hdForSystem } from './hd.js';
import { nameParts } from './xpn.js';

/**
 * XCN for a practitioner referenced by id. When the directory has the practitioner: XCN-1 (ST, 15 characters)
 * the value of its first identifier that fits 15 characters after escaping and whose system fits HD-2's 199
 * (with XCN-9 assigning authority and XCN-13 identifier type) or, when none does, its chart id (without
 * XCN-13); XCN-2…6 and XCN-10 from its first name, each part shortened to its component length (surname 50,
 * given names 30, suffix and prefix 20). When the directory lacks the practitioner: only the chart id, in XCN-1
 * (the reference stays resolvable by id, as for any reference to a record not in the export). A chart
 * id in XCN-1 has the sending application (MSH-3) as XCN-9 assigning authority, as v2.5.1 requires a valued
 * XCN-1 to have one (`CHART-EXPORT` when MSH-3 is empty, see `DirectoryIndex.localAuthority`). A chart id longer than 15 characters after escaping is sent
 * in its derived form (the first 15 hex digits of its FNV-1a 64-bit hash, see `fitId`): an identifier is
 * never cut.
 * @param ctx - the message context (its directory index, and the XCN values built so far in the message)
 * @param practitionerId - the chart id of the practitioner
 * @param path - where the reference is in the input, for MappingError
 * @param target - the field, e.g. `PV1-7`
 * @returns the encoded XCN
 * @throws MappingError when the practitioner's identifier does not fit 250 characters after escaping
 * @see HL7 v2.5.1 XCN data type
 * @example xcnForPractitioner({ dir: indexDirectory(undefined, 'APP') }, 'prac-404', [], 'PV1-7') // 'prac-404^^^^^^^^APP'
 */
export function xcnForPractitioner(ctx: MessageContext, practitionerId: string, path: IssuePath, target: string): string {
  return cachedXcn(ctx.dir.xcn, practitionerId, () => buildXcn(ctx, practitionerId, path, target));
}

function buildXcn(ctx: MessageContext, practitionerId: string, path: IssuePath, target: string): string {
  const dir = ctx.dir;
  const practitioner = dir.practitioners.get(practitionerId);
  // v2.5.1 XCN-1: "either the source table or the assigning authority must be valued"; a chart id is the
  // sending application's.
  if (practitioner === undefined) return joinTrimmed([fitId(practitionerId, ID_NUMBER_MAX), '', '', '', '', '', '', '', dir.localAuthority], '^');
  // XCN-1 is ST 15: the first identifier whose value fits it (never a cut identifier), else the chart id.
  let identifier: Identifier | undefined;
  let idNumber = '';
  let authority = '';
  for (const candidate of practitioner.identifiers ?? []) {
    const value = esc(candidate.value);
    const hd = hdForSystem(candidate.system);
    if (value.length <= ID_NUMBER_MAX && hd !== undefined) {
      identifier = candidate;
      idNumber = value;
      authority = hd;
      break;
    }
  }
  if (identifier === undefined) {
    idNumber = fitId(practitioner.id, ID_NUMBER_MAX);
    authority = dir.localAuthority;
  }
  const name = practitioner.names[0];
  const n = name === undefined ? undefined : nameParts(name);
  const parts = [
    idNumber,
    n?.family ?? '',
    n?.given ?? '',
    n?.middle ?? '',
    n?.suffix ?? '',
    n?.prefix ?? '',
    '',
    '',
    authority,
    n?.type ?? '',
    '',
    '',
    identifier?.type ?? '',
  ];
  return fitCompositeOrThrow(parts, [1, 2, 3, 4, 5], COMPOSITE_MAX, path, target);
}
