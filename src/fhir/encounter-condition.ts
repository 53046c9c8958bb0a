import type * as fhir from 'fhir/r4.js';
import { InvalidArgumentError } from '../errors.js';
import type { Diagnosis, Encounter } from '../model/encounter.js';
import type { Patient } from '../model/patient.js';
import { SYSTEM, toConcept } from './internal/codings.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { assertValidChartParts } from './internal/validate.js';
import { withLastUpdated } from './internal/meta.js';

/** `Condition.category` of an encounter diagnosis (a new array each call: resources share no objects). */
export function encounterDiagnosisCategory(): fhir.CodeableConcept[] {
  return [{ coding: [{ system: SYSTEM.conditionCategory, code: 'encounter-diagnosis', display: 'Encounter Diagnosis' }] }];
}

/** Encounter-diagnosis Condition mapping with a given context. */
export function mapEncounterCondition(encounter: Encounter, index: number, diagnosis: Diagnosis, ctx: MapContext): fhir.Condition {
  const out: fhir.Condition = {
    resourceType: 'Condition',
    id: ctx.ids.diagnosis(encounter, index),
    // An encounter diagnosis states no clinical or verification status; the chart records none.
    category: encounterDiagnosisCategory(),
    code: toConcept(diagnosis.code),
    subject: ctx.patientRef(),
    encounter: ctx.localRef('Encounter', ctx.ids.encounter(encounter)),
  };
  if (diagnosis.onset !== undefined) out.onsetDateTime = diagnosis.onset;
  if (diagnosis.recordedDate !== undefined) out.recordedDate = diagnosis.recordedDate;
  return withLastUpdated(out, encounter.lastUpdated);
}

/**
 * Map one diagnosis of a chart encounter to a FHIR R4 Condition (category `encounter-diagnosis`).
 *
 * The id is derived from the encounter: `<encounter id>-<diagnosis id>`, or `<encounter id>-dx<n>` for
 * the n-th diagnosis without an id, or the hashed form when that is not a valid FHIR id.
 *
 * @param encounter - the chart encounter holding the diagnosis
 * @param diagnosisIndex - 0-based index into `encounter.diagnoses`
 * @param patient - the patient (the Condition's subject)
 * @returns the Condition, referencing the patient and the encounter
 * @throws {ChartValidationError} when the input fails the chart check
 * @throws {InvalidArgumentError} when `diagnosisIndex` does not select a diagnosis
 * @example toFhirEncounterCondition(encounter, 0, patient).category?.[0]?.coding?.[0]?.code // 'encounter-diagnosis'
 * @see https://hl7.org/fhir/R4/condition.html
 */
export function toFhirEncounterCondition(encounter: Encounter, diagnosisIndex: number, patient: Patient): fhir.Condition {
  assertValidChartParts({ patient, encounters: [encounter] }, [[['encounters', 0], ['encounter']]]);
  const diagnosis = Number.isInteger(diagnosisIndex) ? encounter.diagnoses?.[diagnosisIndex] : undefined;
  if (diagnosis === undefined) throw new InvalidArgumentError('diagnosisIndex', 'does not select a diagnosis of the encounter');
  return mapEncounterCondition(encounter, diagnosisIndex, diagnosis, standaloneContext(patient.id));
}
