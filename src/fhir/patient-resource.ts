import type * as fhir from 'fhir/r4.js';
import type { Patient } from '../model/patient.js';
import { MARITAL_STATUS_DISPLAY, SYSTEM } from './internal/codings.js';
import { toAddresses, toContactPoints, toHumanNames, toIdentifiers } from './internal/datatypes.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { assertValidChartParts } from './internal/validate.js';
import { withLastUpdated } from './internal/meta.js';

/** Patient mapping with a given context (ids). */
export function mapPatient(patient: Patient, ctx: MapContext): fhir.Patient {
  const out: fhir.Patient = { resourceType: 'Patient', id: ctx.ids.patient };
  const identifier = toIdentifiers(patient.identifiers);
  if (identifier !== undefined) out.identifier = identifier;
  const name = toHumanNames(patient.names);
  if (name !== undefined) out.name = name;
  const telecom = toContactPoints(patient.telecoms);
  if (telecom !== undefined) out.telecom = telecom;
  if (patient.gender !== undefined) out.gender = patient.gender;
  if (patient.birthDate !== undefined) out.birthDate = patient.birthDate;
  if (patient.deceased !== undefined) {
    if (typeof patient.deceased === 'boolean') out.deceasedBoolean = patient.deceased;
    else out.deceasedDateTime = patient.deceased;
  }
  const address = toAddresses(patient.addresses);
  if (address !== undefined) out.address = address;
  if (patient.maritalStatus !== undefined) {
    // UNK is not a v3 MaritalStatus code: the R4 marital-status value set takes it from v3 NullFlavor.
    const system = patient.maritalStatus === 'UNK' ? SYSTEM.v3NullFlavor : SYSTEM.v3MaritalStatus;
    out.maritalStatus = {
      coding: [{ system, code: patient.maritalStatus, display: MARITAL_STATUS_DISPLAY[patient.maritalStatus] }],
    };
  }
  if (patient.language !== undefined && patient.language !== '') {
    out.communication = [{ language: { coding: [{ system: SYSTEM.bcp47, code: patient.language }] }, preferred: true }];
  }
  return withLastUpdated(out, patient.lastUpdated);
}

/**
 * Map a chart patient to a FHIR R4 Patient (demographics; coverages are separate Coverage resources).
 *
 * @param patient - the chart patient
 * @returns the Patient; its id is `toFhirId(patient.id)`
 * @throws {ChartValidationError} when `patient` fails the chart check (paths start at `patient`)
 * @example toFhirPatient({ id: 'pat-0001', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }], names: [{ family: 'Rivera', given: ['Ana'] }] }).id // 'pat-0001'
 * @see https://hl7.org/fhir/R4/patient.html
 */
export function toFhirPatient(patient: Patient): fhir.Patient {
  assertValidChartParts({ patient }, []);
  return mapPatient(patient, standaloneContext(patient.id));
}
