/**
 * DG1, diagnosis (HL7 v2.5.1 chapter 6, 6.5.2), from an encounter diagnosis or a medical-history entry.
 */
import type { IssuePath } from '../../errors.js';
import type { Diagnosis } from '../../model/encounter.js';
import type { MedicalHistoryEntry } from '../../model/history.js';
import { formatHl7DateTime } from '../datetime.js';
import { fitId } from '../internal/fit.js';
import { hl7DiagnosisType, hl7HistoryDiagnosisType } from '../tables.js';
import { ceFromCoding } from '../data-types/ce.js';
import { textComponent } from '../data-types/text-component.js';
import { emptyFields, segment } from '../internal/segment-text.js';
import { setIdField } from '../internal/set-id.js';

/** DG1-4 maximum length (ST, 40). */
export const DG1_DESCRIPTION_MAX = 40;
/** DG1-20 / PR1-19 are EI (427), but the id goes to EI-1, an ST of 199. */
const EI_MAX = 199;

/**
 * Build a DG1 segment for an encounter diagnosis.
 *
 * - DG1-1 set id; DG1-3 CE `code^display^system` (I10, SCT…); DG1-4 description: the display, truncated to
 *   DG1-4's 40 characters after escaping at a character boundary that splits no escape sequence (the full
 *   display is in DG1-3.2); DG1-5 onset; DG1-6 diagnosis type (required, table 0052: AD → A, DD → F,
 *   other uses and none → W); DG1-15 priority = rank when 1–99 (ID, 2 characters), DG1-19 attestation
 *   date/time = recorded date; DG1-20 diagnosis identifier = the diagnosis id, when given.
 *
 * @param setId - DG1-1
 * @param diagnosis - the diagnosis (already validated)
 * @param path - path of the diagnosis in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when the code does not fit DG1-3's 250 characters after escaping
 * @see HL7 v2.5.1 DG1-1 … DG1-20
 * @example buildDg1(1, { code: { system: 'icd-10-cm', code: 'F32.1' }, use: 'AD', rank: 1 }) // 'DG1|1||F32.1^^I10|||A|||||||||1'
 */
export function buildDg1(setId: number, diagnosis: Diagnosis, path: IssuePath = []): string {
  const fields = emptyFields(20);
  fields[0] = setIdField(setId, path, 'DG1-1');
  fields[2] = ceFromCoding(diagnosis.code, [...path, 'code'], 'DG1-3');
  fields[3] = textComponent(diagnosis.code.display ?? '', DG1_DESCRIPTION_MAX);
  if (diagnosis.onset !== undefined) fields[4] = formatHl7DateTime(diagnosis.onset);
  fields[5] = hl7DiagnosisType(diagnosis.use);
  if (diagnosis.rank !== undefined && diagnosis.rank <= 99) fields[14] = String(diagnosis.rank);
  if (diagnosis.recordedDate !== undefined) fields[18] = formatHl7DateTime(diagnosis.recordedDate);
  if (diagnosis.id !== undefined) fields[19] = fitId(diagnosis.id, EI_MAX);
  return segment('DG1', fields);
}

/**
 * Build a DG1 segment for a medical-history entry (ADR^A19 summary).
 *
 * - DG1-3 / DG1-4 as for an encounter diagnosis; DG1-5 onset; DG1-6 `F` when confirmed (the default), `W`
 *   otherwise; DG1-19 recorded date; DG1-20 the entry id; DG1-21 action code `D` (delete) when the entry is
 *   entered-in-error.
 * - Not carried (no v2.5.1 DG1 field): clinical status, abatement, the exact verification status, the note.
 *
 * @param setId - DG1-1
 * @param entry - the entry (already validated)
 * @param path - path of the entry in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when the code does not fit DG1-3's 250 characters after escaping
 * @see HL7 v2.5.1 DG1-1 … DG1-21
 * @example buildHistoryDg1(1, entry) // 'DG1|1||E11.9^Type 2 diabetes mellitus without complications^I10|Type 2 diabetes mellitus without compli|2019|F|||||||||||||20190514|hx-0001'
 */
export function buildHistoryDg1(setId: number, entry: MedicalHistoryEntry, path: IssuePath = []): string {
  const fields = emptyFields(21);
  fields[0] = setIdField(setId, path, 'DG1-1');
  fields[2] = ceFromCoding(entry.code, [...path, 'code'], 'DG1-3');
  fields[3] = textComponent(entry.code.display ?? '', DG1_DESCRIPTION_MAX);
  if (entry.onset !== undefined) fields[4] = formatHl7DateTime(entry.onset);
  fields[5] = hl7HistoryDiagnosisType(entry.verificationStatus);
  if (entry.recordedDate !== undefined) fields[18] = formatHl7DateTime(entry.recordedDate);
  fields[19] = fitId(entry.id, EI_MAX);
  if (entry.verificationStatus === 'entered-in-error') fields[20] = 'D';
  return segment('DG1', fields);
}
