/**
 * OBR, observation request (HL7 v2.5.1 chapter 7, 7.4.1), from an assessment: the instrument as the
 * "universal service" whose answers follow as OBX.
 */
import type { IssuePath } from '../../errors.js';
import type { Assessment } from '../../model/assessment.js';
import { formatHl7DateTime } from '../datetime.js';
import { esc } from '../internal/escape.js';
import { ceFromCoding, COMPOSITE_MAX, emptyFields, segment } from '../internal/fields.js';
import { fitCompositeOrThrow, fitId } from '../internal/fit.js';
import { HL7_ORDER_RESULT_STATUS } from '../tables.js';

/** OBR-3 maximum length (EI, 22). */
export const OBR_FILLER_NUMBER_MAX = 22;

/**
 * Build the OBR segment of an assessment.
 *
 * - OBR-1 set id `1`; OBR-3 filler order number (EI, 22): the assessment id (ids longer than 22 characters
 *   after escaping are sent in the derived form: prefix, `-`, 16-hex-digit hash).
 * - OBR-4 universal service identifier (CE, required): the instrument code with the instrument title as text
 *   (`44249-1^PHQ-9 quick depression assessment panel^LN`; the code's own display is not sent); an instrument
 *   without a code is sent as `<instrument id>^<title>^L` (local code).
 * - OBR-7 observation date/time = authored; OBR-25 result status (table 0123: completed F, amended C,
 *   in-progress and stopped P, entered-in-error X).
 * - Not carried: the instrument URL and the encounter (PV1 carries it).
 *
 * @param assessment - the assessment (already validated)
 * @param path - path of the assessment in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when the instrument code does not fit OBR-4's 250 characters after escaping
 * @see HL7 v2.5.1 OBR-1 … OBR-25
 * @example buildObr(assessment) // 'OBR|1||asmt-0001|44249-1^PHQ-9 quick depression assessment panel^LN|||20260301101000-0500||||||||||||||||||F'
 */
export function buildObr(assessment: Assessment, path: IssuePath = []): string {
  const instrument = assessment.instrument;
  const fields = emptyFields(25);
  fields[0] = '1';
  fields[2] = fitId(assessment.id, OBR_FILLER_NUMBER_MAX);
  fields[3] =
    instrument.code === undefined
      ? fitCompositeOrThrow([fitId(instrument.id, 100), esc(instrument.title), 'L'], [1], COMPOSITE_MAX, [...path, 'instrument', 'id'], 'OBR-4')
      : ceFromCoding(instrument.code, [...path, 'instrument', 'code'], 'OBR-4', instrument.title);
  fields[6] = formatHl7DateTime(assessment.authored);
  fields[24] = HL7_ORDER_RESULT_STATUS[assessment.status];
  return segment('OBR', fields);
}
