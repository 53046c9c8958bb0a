import type * as fhir from 'fhir/r4.js';
import type { MedicalHistoryEntry } from '../model/history.js';
import type { Patient } from '../model/patient.js';
import { CLINICAL_STATUS_DISPLAY, SYSTEM, toConcept, VERIFICATION_STATUS_DISPLAY } from './internal/codings.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { mapChartId } from './ids.js';
import { hasText } from '../internal/text.js';
import { assertValidChartParts } from './internal/validate.js';
import { withLastUpdated } from './internal/meta.js';

/** Clinical statuses under which FHIR allows an abatement (invariant con-4). */
export const ABATED: ReadonlySet<string> = new Set(['inactive', 'remission', 'resolved']);

/** `Condition.category` of a medical-history entry (a new array each call: resources share no objects). */
export function problemListCategory(): fhir.CodeableConcept[] {
  return [{ coding: [{ system: SYSTEM.conditionCategory, code: 'problem-list-item', display: 'Problem List Item' }] }];
}

/** Medical-history Condition mapping with a given context. */
export function mapHistoryCondition(entry: MedicalHistoryEntry, ctx: MapContext): fhir.Condition {
  const verification = entry.verificationStatus ?? 'confirmed';
  const out = { resourceType: 'Condition', id: mapChartId(entry.id) } as fhir.Condition;
  // con-5: no clinical status on an entered-in-error condition.
  const withStatus = verification !== 'entered-in-error';
  if (withStatus) {
    out.clinicalStatus = {
      coding: [{ system: SYSTEM.conditionClinical, code: entry.clinicalStatus, display: CLINICAL_STATUS_DISPLAY[entry.clinicalStatus] }],
    };
  }
  out.verificationStatus = {
    coding: [{ system: SYSTEM.conditionVerStatus, code: verification, display: VERIFICATION_STATUS_DISPLAY[verification] }],
  };
  out.category = problemListCategory();
  out.code = toConcept(entry.code);
  out.subject = ctx.patientRef();
  if (entry.onset !== undefined) out.onsetDateTime = entry.onset;
  // con-4: an abatement only with a clinical status of inactive, remission or resolved.
  if (entry.abatement !== undefined && withStatus && ABATED.has(entry.clinicalStatus)) out.abatementDateTime = entry.abatement;
  if (entry.recordedDate !== undefined) out.recordedDate = entry.recordedDate;
  if (entry.note !== undefined && hasText(entry.note)) out.note = [{ text: entry.note }];
  return withLastUpdated(out, entry.lastUpdated);
}

/**
 * Map a medical-history entry to a FHIR R4 Condition (category `problem-list-item`).
 *
 * The verification status defaults to `confirmed`. FHIR invariants decide two cases: an
 * `entered-in-error` entry carries no clinical status (con-5), and an abatement is exported only with a
 * clinical status of `inactive`, `remission` or `resolved` (con-4); otherwise it is left out.
 *
 * @param entry - the medical-history entry
 * @param patient - the patient (the Condition's subject)
 * @returns the Condition; its id is `toFhirId(entry.id)`
 * @throws {ChartValidationError} when the input fails the chart check (paths start at `entry` or `patient`)
 * @example toFhirHistoryCondition(chart.medicalHistory[0], chart.patient).clinicalStatus?.coding?.[0]?.code // 'active'
 * @see https://hl7.org/fhir/R4/condition.html
 */
export function toFhirHistoryCondition(entry: MedicalHistoryEntry, patient: Patient): fhir.Condition {
  assertValidChartParts({ patient, medicalHistory: [entry] }, [[['medicalHistory', 0], ['entry']]]);
  return mapHistoryCondition(entry, standaloneContext(patient.id));
}
