/**
 * OBR, observation request (HL7 v2.5.1 chapter 7, 7.4.1), from an assessment: the instrument as the
 * "universal service" whose answers follow as OBX.
 */
import type { IssuePath } from '../../errors.js';
import type { Assessment, AssessmentInstrument } from '../../model/assessment.js';
import { formatHl7DateTime } from '../datetime.js';
import { fitCompositeOrThrow, fitId } from '../internal/fit.js';
import { HL7_ORDER_RESULT_STATUS } from '../tables.js';
import { ceFromCoding } from '../data-types/ce.js';
import { textComponent } from '../data-types/text-component.js';
import { COMPONENT_MAX, COMPOSITE_MAX } from '../internal/component-lengths.js';
import { emptyFields, segment } from '../internal/segment-text.js';

/** OBR-3 maximum length (EI, 22). */
export const OBR_FILLER_NUMBER_MAX = 22;

/**
 * The CE of an instrument (OBR-4 in ORU^R01, OBX-17 in ADR^A19): its code with the title as text, or, for an
 * instrument without a code, `<instrument id>^<title>^L` (local code; an id longer than CE-1's 20 characters
 * after escaping in the derived form). The title is shortened to CE-2's 199 characters.
 * @param instrument - the instrument
 * @param path - where the assessment is in the input, for MappingError
 * @param target - the field, `OBR-4` or `OBX-17`
 * @returns the encoded CE
 * @throws MappingError never in practice (a checked code fits the CE; one over CE-1's 20 characters is sent whole)
 * @example instrumentCe({ id: 'phq-9', title: 'PHQ-9' }, [], 'OBR-4') // 'phq-9^PHQ-9^L'
 */
export function instrumentCe(instrument: AssessmentInstrument, path: IssuePath, target: string): string {
  return instrument.code === undefined
    ? fitCompositeOrThrow([fitId(instrument.id, COMPONENT_MAX.ceIdentifier), textComponent(instrument.title, COMPONENT_MAX.ceText), 'L'], [1], COMPOSITE_MAX, [...path, 'instrument', 'id'], target)
    : ceFromCoding(instrument.code, [...path, 'instrument', 'code'], target, instrument.title);
}

/**
 * Build the OBR segment of an assessment.
 *
 * - OBR-1 set id `1`; OBR-3 filler order number (EI, 22): the assessment id (ids longer than 22 characters
 *   after escaping are sent in the derived form: prefix, `-`, 16-hex-digit hash).
 * - OBR-4 universal service identifier (CE, required): the instrument code with the instrument title as text
 *   (`44249-1^PHQ-9 quick depression assessment panel^LN`; the code's own display is not sent); an instrument
 *   without a code is sent as `<instrument id>^<title>^L` (local code); see {@link instrumentCe}.
 * - OBR-7 observation date/time = authored; OBR-25 result status (table 0123: completed F, amended C,
 *   in-progress and stopped P, entered-in-error X).
 * - Not carried: the instrument URL and the encounter (PV1 carries it).
 *
 * @param assessment - the assessment (already validated)
 * @param path - path of the assessment in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError never in practice (a checked code fits the CE; one over CE-1's 20 characters is sent whole)
 * @see HL7 v2.5.1 OBR-1 … OBR-25
 * @example buildObr(assessment) // 'OBR|1||asmt-0001|44249-1^PHQ-9 quick depression assessment panel^LN|||20260301101000-0500||||||||||||||||||F'
 */
export function buildObr(assessment: Assessment, path: IssuePath = []): string {
  const fields = emptyFields(25);
  fields[0] = '1';
  fields[2] = fitId(assessment.id, OBR_FILLER_NUMBER_MAX);
  fields[3] = instrumentCe(assessment.instrument, path, 'OBR-4');
  fields[6] = formatHl7DateTime(assessment.authored);
  fields[24] = HL7_ORDER_RESULT_STATUS[assessment.status];
  return segment('OBR', fields);
}
