/**
 * PV1, patient visit (HL7 v2.5.1 chapter 3, 3.4.3), from a chart encounter.
 */
import type { IssuePath } from '../../errors.js';
import type { Encounter, ParticipantRole } from '../../model/encounter.js';
import { formatHl7DateTime } from '../datetime.js';
import { fitComposite, fitId } from '../internal/fit.js';
import { HL7_PATIENT_CLASS } from '../tables.js';
import { xcnForPractitioner } from '../data-types/xcn.js';
import { HD1_MAX, ID_NUMBER_MAX } from '../internal/component-lengths.js';
import { emptyFields, repeat, segment } from '../internal/segment-text.js';
import { setIdField } from '../internal/set-id.js';
import { esc } from '../internal/standard-escape.js';
import { keptPrefix } from '../internal/speed-ups.js';
import type { MessageContext } from '../internal/message-context.js';

/** PV1-3 maximum length (PL, 80). */
const PL_MAX = 80;
/** The most of PV1-3 a location id takes in PL-10 (EI-1), so that the name keeps room. */
const PL_ID_MAX = 40;

/** The PV1 field (7, 8, 9, 17 or 52) that carries each participant role. */
const ROLE_FIELD: Readonly<Record<ParticipantRole, number>> = { ATND: 7, REF: 8, CON: 9, ADM: 17, PPRF: 52, SPRF: 52, PART: 52 };

/**
 * PV1 for a message without a visit (ADT^A31, a note or assessment without an encounter): `PV1|<set id>|N`,
 * patient class N "not applicable", since PV1 is required in those structures.
 * @param setId - PV1-1
 * @returns the segment text without terminator
 * @example buildPv1NotApplicable() // 'PV1|1|N'
 */
export function buildPv1NotApplicable(setId = 1): string {
  return `PV1|${setIdField(setId, [], 'PV1-1')}|N`;
}

/**
 * PV1 for an encounter that the chart refers to but does not hold: patient class `U` (unknown) and the
 * encounter id as visit number (PV1-19, CX-5 `VN`), so the reference stays resolvable by id.
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param encounterId - the encounter's chart id
 * @param setId - PV1-1
 * @returns the segment text without terminator
 * @example buildPv1Reference(ctx, 'enc-9') // with MSH-3 'APP': // 'PV1|1|U|||||||||||||||||enc-9^^^APP^VN'
 */
export function buildPv1Reference(ctx: MessageContext, encounterId: string, setId = 1): string {
  return segment('PV1', [setIdField(setId, [], 'PV1-1'), 'U', ...emptyFields(16), visitNumber(ctx, encounterId)]);
}

/** PV1-19 visit number: the encounter's chart id (CX-1, derived above 15), the sending application as CX-4, `VN`. */
function visitNumber(ctx: MessageContext, encounterId: string): string {
  return `${fitId(encounterId, ID_NUMBER_MAX)}^^^${ctx.dir.localAuthority}^VN`;
}

/**
 * PL for the encounter's location. PL-1 (point of care) and PL-4 HD-1 (facility namespace) are coded values of
 * at most 20 characters (IS, tables 0302 / 0300), not names: the chart has no such codes, so PL-1 stays empty,
 * the location's name (free text) goes to PL-9 (location description, ST), the location's chart id to PL-10
 * (comprehensive location identifier, EI-1), and its organization's chart id to PL-4 HD-1 when it fits 20
 * characters after escaping (else PL-4 is left empty: a namespace id is never cut). The name is shortened to
 * fit PV1-3's 80 characters; an id longer than 40 characters after escaping is sent in its derived form.
 */
function location(ctx: MessageContext, locationId: string): string {
  const loc = ctx.dir.locations.get(locationId);
  const id = fitId(locationId, PL_ID_MAX);
  if (loc === undefined) return `${'^'.repeat(9)}${id}`;
  const org = loc.organizationId === undefined ? undefined : ctx.dir.organizations.get(loc.organizationId);
  const orgId = org === undefined ? '' : esc(org.id);
  const parts = ['', '', '', orgId.length <= HD1_MAX ? orgId : '', '', '', '', '', esc(keptPrefix(loc.name, PL_MAX)), id];
  // Only the name is free text; the ids take at most 20 + 40 characters, so the name always fits once shortened.
  return fitComposite(parts, [8], PL_MAX) ?? '';
}

/**
 * Build the PV1 segment of an encounter.
 *
 * - PV1-2 patient class (required, table 0004; see the class map for what is lost).
 * - PV1-3 assigned location PL (80): the directory location's name in PL-9 (description, shortened to fit), its
 *   chart id in PL-10 (EI-1), its organization's chart id in PL-4 HD-1 when it fits that IS 20 component; a
 *   location not in the directory by its id in PL-10 alone. PL-1 (a point-of-care code) is not sent.
 * - PV1-7 attending (ATND), PV1-8 referring (REF), PV1-9 consulting (CON), PV1-17 admitting (ADM),
 *   PV1-52 other providers (PPRF, SPRF, PART; the role itself is lost): XCN per participant.
 * - PV1-19 visit number: the encounter id (CX-1) with CX-4 assigning authority the sending application
 *   (MSH-3, whose id it is; `CHART-EXPORT` when MSH-3 is empty) and CX-5 `VN`.
 * - PV1-44 admit date/time = period.start, PV1-45 discharge date/time = period.end (precision kept).
 * - Not carried (no v2.5.1 PV1 field): encounter status (a valued PV1-45 implies finished), type (PV1-4 is
 *   table 0007 admission type, not a visit type code) and reason for visit.
 *
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param encounter - the encounter (already validated)
 * @param setId - PV1-1
 * @param path - path of the encounter in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when a practitioner identifier does not fit 250 characters after escaping
 * @see HL7 v2.5.1 PV1-1 … PV1-52
 * @example buildPv1(ctx, encounter) // 'PV1|1|O|^^^org-001^^^^^Riverside Clinic, Suite 200^loc-001|||||||…|enc-0001^^^APP^VN|…'
 */
export function buildPv1(ctx: MessageContext, encounter: Encounter, setId = 1, path: IssuePath = []): string {
  const fields = emptyFields(52);
  fields[0] = setIdField(setId, path, 'PV1-1');
  fields[1] = HL7_PATIENT_CLASS[encounter.class];
  if (encounter.locationId !== undefined) fields[2] = location(ctx, encounter.locationId);
  const byField = new Map<number, string[]>();
  (encounter.participants ?? []).forEach((p, i) => {
    const n = ROLE_FIELD[p.role];
    const list = byField.get(n) ?? [];
    list.push(xcnForPractitioner(ctx, p.practitionerId, [...path, 'participants', i, 'practitionerId'], `PV1-${n}`));
    byField.set(n, list);
  });
  for (const [n, list] of byField) fields[n - 1] = repeat(list);
  // CX-1 is ST 15: an encounter id longer than that is sent in its derived form.
  fields[18] = visitNumber(ctx, encounter.id);
  if (encounter.period?.start !== undefined) fields[43] = formatHl7DateTime(encounter.period.start);
  if (encounter.period?.end !== undefined) fields[44] = formatHl7DateTime(encounter.period.end);
  return segment('PV1', fields);
}
