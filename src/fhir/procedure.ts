import type * as fhir from 'fhir/r4.js';
import { InvalidArgumentError } from '../errors.js';
import type { Encounter, Procedure } from '../model/encounter.js';
import type { Patient } from '../model/patient.js';
import { toConcept } from './internal/codings.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { toPeriod } from './internal/datatypes.js';
import { assertValidChartParts } from './internal/validate.js';
import { withLastUpdated } from './internal/meta.js';

/** Procedure mapping with a given context. */
export function mapProcedure(encounter: Encounter, index: number, procedure: Procedure, ctx: MapContext): fhir.Procedure {
  const out: fhir.Procedure = {
    resourceType: 'Procedure',
    id: ctx.ids.procedure(encounter, index),
    status: procedure.status,
    code: toConcept(procedure.code),
    subject: ctx.patientRef(),
    encounter: ctx.localRef('Encounter', ctx.ids.encounter(encounter)),
  };
  const performed = procedure.performed;
  if (typeof performed === 'string') out.performedDateTime = performed;
  else {
    const period = toPeriod(performed);
    if (period !== undefined) out.performedPeriod = period;
  }
  if (procedure.performerId !== undefined) out.performer = [{ actor: ctx.practitionerRef(procedure.performerId) }];
  return withLastUpdated(out, encounter.lastUpdated);
}

/**
 * Map one procedure of a chart encounter to a FHIR R4 Procedure.
 *
 * The id is derived from the encounter: `<encounter id>-<procedure id>`, or `<encounter id>-proc<n>` for
 * the n-th procedure without an id, or the hashed form when that is not a valid FHIR id. `performed`
 * becomes `performedDateTime` or `performedPeriod` as given (no fallback to the encounter's start).
 *
 * @param encounter - the chart encounter holding the procedure
 * @param procedureIndex - 0-based index into `encounter.procedures`
 * @param patient - the patient (the Procedure's subject)
 * @returns the Procedure, referencing the patient, the encounter and the performer
 * @throws {ChartValidationError} when the input fails the chart check
 * @throws {InvalidArgumentError} when `procedureIndex` does not select a procedure
 * @example toFhirProcedure(encounter, 0, patient).status // 'completed'
 * @see https://hl7.org/fhir/R4/procedure.html
 */
export function toFhirProcedure(encounter: Encounter, procedureIndex: number, patient: Patient): fhir.Procedure {
  assertValidChartParts({ patient, encounters: [encounter] }, [[['encounters', 0], ['encounter']]]);
  const procedure = Number.isInteger(procedureIndex) ? encounter.procedures?.[procedureIndex] : undefined;
  if (procedure === undefined) throw new InvalidArgumentError('procedureIndex', 'does not select a procedure of the encounter');
  return mapProcedure(encounter, procedureIndex, procedure, standaloneContext(patient.id));
}
