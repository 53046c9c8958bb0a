import type * as fhir from 'fhir/r4.js';
import type { DirectoryOrganization } from '../model/directory.js';
import type { MapContext } from './internal/context.js';
import { literalRef } from './internal/context.js';
import { toAddresses, toContactPoints, toIdentifiers } from './internal/datatypes.js';
import { mapChartId } from './ids.js';
import { hasText } from '../internal/text.js';
import { assertValidDirectoryParts } from './internal/validate.js';

/** Organization mapping; `ctx` decides how `partOf` points at the parent. */
export function mapOrganization(org: DirectoryOrganization, ctx: Pick<MapContext, 'organizationRef'>): fhir.Organization {
  const out: fhir.Organization = { resourceType: 'Organization', id: mapChartId(org.id) };
  const named = hasText(org.name);
  const identifier = toIdentifiers(org.identifiers);
  if (identifier !== undefined) out.identifier = identifier;
  // org-1: an Organization needs a name or an identifier; a blank name falls back to the chart id.
  else if (!named) out.identifier = [{ value: org.id }];
  out.active = org.active ?? true;
  if (named) out.name = org.name;
  // The chart check rejects `home` uses on organizations (FHIR org-2, org-3).
  const telecom = toContactPoints(org.telecoms);
  if (telecom !== undefined) out.telecom = telecom;
  const address = toAddresses(org.addresses);
  if (address !== undefined) out.address = address;
  if (org.partOfId !== undefined) out.partOf = ctx.organizationRef(org.partOfId);
  return out;
}

/**
 * Map a directory organization to a FHIR R4 Organization.
 *
 * `active` defaults to true; `partOf` references the parent Organization. An organization whose name is
 * blank and which has no identifiers gets its chart id as identifier (org-1 needs a name or an identifier).
 *
 * @param organization - the directory organization
 * @returns the Organization; its id is `toFhirId(organization.id)`
 * @throws {ChartValidationError} when the input fails the directory check (paths start at `organization`)
 * @example toFhirOrganization({ id: 'org-001', name: 'Riverside Behavioral Health' }).active // true
 * @see https://hl7.org/fhir/R4/organization.html
 */
export function toFhirOrganization(organization: DirectoryOrganization): fhir.Organization {
  assertValidDirectoryParts({ organizations: [organization] }, [[['organizations', 0], ['organization']]]);
  return mapOrganization(organization, { organizationRef: (id) => literalRef('Organization', mapChartId(id)) });
}
