import type * as fhir from 'fhir/r4.js';
import type { DirectoryLocation } from '../model/directory.js';
import type { MapContext } from './internal/context.js';
import { literalRef } from './internal/context.js';
import { toAddress, toContactPoints } from './internal/datatypes.js';
import { mapChartId } from './ids.js';
import { hasText } from '../internal/text.js';
import { assertValidDirectoryParts } from './internal/validate.js';

/** Location mapping; `ctx` decides how `managingOrganization` points at the organization. */
export function mapLocation(location: DirectoryLocation, ctx: Pick<MapContext, 'organizationRef'>): fhir.Location {
  const out: fhir.Location = { resourceType: 'Location', id: mapChartId(location.id) };
  if (location.status !== undefined) out.status = location.status;
  if (hasText(location.name)) out.name = location.name;
  if (location.description !== undefined && hasText(location.description)) out.description = location.description;
  const telecom = toContactPoints(location.telecoms);
  if (telecom !== undefined) out.telecom = telecom;
  const address = location.address !== undefined ? toAddress(location.address) : undefined;
  if (address !== undefined) out.address = address;
  if (location.organizationId !== undefined) out.managingOrganization = ctx.organizationRef(location.organizationId);
  return out;
}

/**
 * Map a directory location to a FHIR R4 Location.
 *
 * `managingOrganization` references the directory Organization; status, name, description, address and
 * telecoms are copied (blank text is omitted).
 *
 * @param location - the directory location
 * @returns the Location; its id is `toFhirId(location.id)`
 * @throws {ChartValidationError} when the input fails the directory check (paths start at `location`)
 * @example toFhirLocation({ id: 'loc-001', name: 'Riverside Clinic, Suite 200', organizationId: 'org-001' }).managingOrganization // { reference: 'Organization/org-001' }
 * @see https://hl7.org/fhir/R4/location.html
 */
export function toFhirLocation(location: DirectoryLocation): fhir.Location {
  assertValidDirectoryParts({ locations: [location] }, [[['locations', 0], ['location']]]);
  return mapLocation(location, { organizationRef: (id) => literalRef('Organization', mapChartId(id)) });
}
