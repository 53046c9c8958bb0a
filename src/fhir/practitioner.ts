import type * as fhir from 'fhir/r4.js';
import type { DirectoryPractitioner } from '../model/directory.js';
import { toCoding } from './internal/codings.js';
import { toContactPoints, toHumanNames, toIdentifiers } from './internal/datatypes.js';
import { mapChartId } from './ids.js';
import { hasText } from '../internal/text.js';
import { assertValidDirectoryParts } from './internal/validate.js';

/** Practitioner mapping. */
export function mapPractitioner(practitioner: DirectoryPractitioner): fhir.Practitioner {
  const out: fhir.Practitioner = { resourceType: 'Practitioner', id: mapChartId(practitioner.id) };
  const identifier = toIdentifiers(practitioner.identifiers);
  if (identifier !== undefined) out.identifier = identifier;
  out.active = practitioner.active ?? true;
  const name = toHumanNames(practitioner.names);
  if (name !== undefined) out.name = name;
  const telecom = toContactPoints(practitioner.telecoms);
  if (telecom !== undefined) out.telecom = telecom;
  const qualifications = practitioner.qualifications;
  if (qualifications !== undefined && qualifications.length > 0) {
    out.qualification = qualifications.map((q) => {
      const code: fhir.CodeableConcept = { coding: [toCoding(q.code)] };
      if (q.display !== undefined && hasText(q.display)) code.text = q.display;
      return { code };
    });
  }
  return out;
}

/**
 * Map a directory practitioner to a FHIR R4 Practitioner.
 *
 * `active` defaults to true; qualifications become `qualification.code` (the coding, with the display
 * as `text`).
 *
 * @param practitioner - the directory practitioner
 * @returns the Practitioner; its id is `toFhirId(practitioner.id)`
 * @throws {ChartValidationError} when the input fails the directory check (paths start at `practitioner`)
 * @example toFhirPractitioner({ id: 'prac-001', names: [{ family: 'Okafor', given: ['Adaeze'] }] }).name?.[0]?.family // 'Okafor'
 * @see https://hl7.org/fhir/R4/practitioner.html
 */
export function toFhirPractitioner(practitioner: DirectoryPractitioner): fhir.Practitioner {
  assertValidDirectoryParts({ practitioners: [practitioner] }, [[['practitioners', 0], ['practitioner']]]);
  return mapPractitioner(practitioner);
}
