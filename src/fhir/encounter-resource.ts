import type * as fhir from 'fhir/r4.js';
import type { Encounter } from '../model/encounter.js';
import type { Patient } from '../model/patient.js';
import { DIAGNOSIS_ROLE_DISPLAY, ENCOUNTER_CLASS_DISPLAY, PARTICIPANT_ROLE_DISPLAY, SYSTEM, toConcept } from './internal/codings.js';
import { toPeriod } from './internal/datatypes.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { hasText } from '../internal/text.js';
import { assertValidChartParts } from './internal/validate.js';
import { withLastUpdated } from './internal/meta.js';

/** Encounter mapping with a given context. */
export function mapEncounter(encounter: Encounter, ctx: MapContext): fhir.Encounter {
  const out: fhir.Encounter = {
    resourceType: 'Encounter',
    id: ctx.ids.encounter(encounter),
    status: encounter.status,
    class: { system: SYSTEM.v3ActCode, code: encounter.class, display: ENCOUNTER_CLASS_DISPLAY[encounter.class] },
  };
  if (encounter.type !== undefined) out.type = [toConcept(encounter.type)];
  out.subject = ctx.patientRef();
  const participants = encounter.participants;
  if (participants !== undefined && participants.length > 0) {
    out.participant = participants.map((p) => ({
      type: [{ coding: [{ system: SYSTEM.v3ParticipationType, code: p.role, display: PARTICIPANT_ROLE_DISPLAY[p.role] }] }],
      individual: ctx.practitionerRef(p.practitionerId),
    }));
  }
  const period = toPeriod(encounter.period);
  if (period !== undefined) out.period = period;
  if (encounter.reason !== undefined && hasText(encounter.reason)) out.reasonCode = [{ text: encounter.reason }];
  const diagnoses = encounter.diagnoses;
  if (diagnoses !== undefined && diagnoses.length > 0) {
    out.diagnosis = diagnoses.map((dx, i) => {
      const d: fhir.EncounterDiagnosis = { condition: ctx.localRef('Condition', ctx.ids.diagnosis(encounter, i)) };
      if (dx.use !== undefined) {
        d.use = { coding: [{ system: SYSTEM.diagnosisRole, code: dx.use, display: DIAGNOSIS_ROLE_DISPLAY[dx.use] }] };
      }
      // The chart check keeps ranks within positiveInt (1…2147483647).
      if (dx.rank !== undefined) d.rank = dx.rank;
      return d;
    });
  }
  if (encounter.locationId !== undefined) out.location = [{ location: ctx.locationRef(encounter.locationId) }];
  return withLastUpdated(out, encounter.lastUpdated);
}

/**
 * Map a chart encounter to a FHIR R4 Encounter.
 *
 * `class` is a v3 ActCode coding; participants carry their v3 ParticipationType role and reference
 * their Practitioner; each diagnosis becomes `diagnosis[]` referencing the Condition that
 * `toFhirEncounterCondition` creates, with its diagnosis-role `use` and `rank`; the reason is
 * `reasonCode.text`; the location references its Location. Dates are copied as given.
 *
 * @param encounter - the chart encounter
 * @param patient - the patient it belongs to
 * @returns the Encounter; its id is `toFhirId(encounter.id)`
 * @throws {ChartValidationError} when the input fails the chart check (paths start at `encounter` or `patient`)
 * @example toFhirEncounter(chart.encounters[0], chart.patient).class.code // 'AMB'
 * @see https://hl7.org/fhir/R4/encounter.html
 */
export function toFhirEncounter(encounter: Encounter, patient: Patient): fhir.Encounter {
  assertValidChartParts({ patient, encounters: [encounter] }, [[['encounters', 0], ['encounter']]]);
  return mapEncounter(encounter, standaloneContext(patient.id));
}
