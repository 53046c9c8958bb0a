/**
 * IN1, insurance (HL7 v2.5.1 chapter 6, 6.5.6), from a patient coverage.
 */
import type { IssuePath } from '../../errors.js';
import { hasText } from '../../internal/text.js';
import type { Coverage } from '../../model/patient.js';
import { formatHl7DateTime } from '../datetime.js';
import { fitCompositeOrThrow, fitId } from '../internal/fit.js';
import { HL7_RELATIONSHIP } from '../tables.js';
import { cxFromIdentifier } from '../data-types/cx.js';
import { textComponent } from '../data-types/text-component.js';
import { COMPONENT_MAX, COMPOSITE_MAX, ID_NUMBER_MAX } from '../internal/component-lengths.js';
import { emptyFields, segment } from '../internal/segment-text.js';
import { setIdField } from '../internal/set-id.js';
import { esc } from '../internal/standard-escape.js';

/** IN1-8 group number maximum length (ST, 12). */
const GROUP_NUMBER_MAX = 12;
/** IN1-36 policy number maximum length (ST, 15). */
const POLICY_NUMBER_MAX = 15;

/**
 * Build an IN1 segment.
 *
 * - IN1-1 set id. IN1-2 insurance plan id (CE, required): `plan id^plan name` (an id longer than CE-1's 20
 *   characters after escaping is sent in the derived form of chart ids: prefix, `-`, 16-hex-digit hash; the
 *   name shortened to CE-2's 199); without a plan, the coverage's own chart id (documented default, so the
 *   segment stays valid).
 * - IN1-3 insurance company id (CX, required): the payer's identifier, else the payer's chart id (CX-1, 15,
 *   derived when longer). IN1-4 company name (XON-1, shortened to 50).
 * - IN1-8 group number: the group id when it fits IN1-8's 12 characters after escaping; the group id is
 *   also always in IN1-9 (XON-10 organization identifier, next to the group name in XON-1, 50), so nothing is
 *   lost. Known deviation: a group id longer than XON-10's 20 characters is still sent whole (up to 200).
 * - IN1-12 / IN1-13 plan effective / expiration date (DT) from the period; IN1-17 relationship (CE, table
 *   0063; no relationship = self); IN1-22 coordination-of-benefits priority = order when 1–99 (ST, 2).
 * - IN1-36 policy number: the member id when it fits 15 characters after escaping; IN1-49 insured's id
 *   number (CX, CX-5 `MB`): the member id always.
 * - Not carried: coverage status (IN1 has none; entered-in-error coverages are left out by the message
 *   builders).
 *
 * @param setId - IN1-1
 * @param coverage - the coverage (already validated)
 * @param path - path of the coverage in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when an identifier does not fit its field after escaping
 * @see HL7 v2.5.1 IN1-1 … IN1-49
 * @example buildIn1(1, coverage) // 'IN1|1|GOLD-PPO^Gold PPO|60054^^^&2.16.840.1.113883.3.221.5&ISO|Acme Health Plan|…'
 */
export function buildIn1(setId: number, coverage: Coverage, path: IssuePath = []): string {
  const fields = emptyFields(49);
  fields[0] = setIdField(setId, path, 'IN1-1');
  fields[1] =
    coverage.plan === undefined
      ? fitId(coverage.id, COMPONENT_MAX.ceIdentifier)
      : fitCompositeOrThrow(
          [fitId(coverage.plan.id, COMPONENT_MAX.ceIdentifier), textComponent(coverage.plan.name ?? '', COMPONENT_MAX.ceText)],
          [1],
          COMPOSITE_MAX,
          [...path, 'plan', 'id'],
          'IN1-2',
        );
  const payer = coverage.payer;
  fields[2] =
    payer.identifier === undefined ? fitId(payer.id, ID_NUMBER_MAX) : cxFromIdentifier(payer.identifier, [...path, 'payer', 'identifier'], 'IN1-3');
  fields[3] = textComponent(payer.name, COMPONENT_MAX.organizationName);
  if (coverage.group !== undefined) {
    const groupId = esc(coverage.group.id);
    if (groupId.length <= GROUP_NUMBER_MAX) fields[7] = groupId;
    const xon = [textComponent(coverage.group.name ?? '', COMPONENT_MAX.organizationName), '', '', '', '', '', '', '', '', fitId(coverage.group.id, 200)];
    fields[8] = fitCompositeOrThrow(xon, [0], COMPOSITE_MAX, [...path, 'group', 'id'], 'IN1-9');
  }
  if (coverage.period?.start !== undefined) fields[11] = formatHl7DateTime(coverage.period.start);
  if (coverage.period?.end !== undefined) fields[12] = formatHl7DateTime(coverage.period.end);
  const [relCode, relText] = HL7_RELATIONSHIP[coverage.relationship ?? 'self'];
  fields[16] = `${relCode}^${relText}^HL70063`;
  if (coverage.order !== undefined && coverage.order <= 99) fields[21] = String(coverage.order);
  // A blank member id is left out, as FHIR leaves `subscriberId` out.
  if (hasText(coverage.memberId)) {
    const member = esc(coverage.memberId);
    if (member.length <= POLICY_NUMBER_MAX) fields[35] = member;
    fields[48] = fitCompositeOrThrow([member, '', '', '', 'MB'], [], COMPOSITE_MAX, [...path, 'memberId'], 'IN1-49');
  }
  return segment('IN1', fields);
}
