import type * as fhir from 'fhir/r4.js';
import { InvalidArgumentError } from '../errors.js';
import { DIRECTORY_RESOURCE_TYPES, type Directory, type DirectoryResourceType } from '../model/directory.js';
import { validateDirectory } from '../validation/chart-check.js';
import { assembleBundle, indexDirectory, logicalRef } from './internal/bundle.js';
import { literalRef } from './internal/context.js';
import { MappingError } from '../errors.js';
import { mapChartId } from './ids.js';
import { resolveLimit, resolveOptions } from './internal/resolve-options.js';
import { hasText } from '../internal/text.js';
import { mapLocation } from './location.js';
import { mapOrganization } from './organization.js';
import { mapPractitioner } from './practitioner.js';
import type { FhirDirectoryBundleOptions, FhirDirectoryLink } from './export-options.js';

/** Throw when two records of one kind map to the same FHIR id (only possible with a crafted id). */
function assertDistinctIds(list: readonly { id: string }[], kind: string, key: string): void {
  const seen = new Map<string, string>();
  list.forEach((record, i) => {
    const fhirId = mapChartId(record.id);
    const previous = seen.get(fhirId);
    if (previous !== undefined && previous !== record.id) {
      throw new MappingError([key, i, 'id'], `${kind}.id`, 'maps to the same FHIR id as another record of the same type');
    }
    seen.set(fhirId, record.id);
  });
}

const LINK_URL_RE = /^https?:\/\/[^\s#]+$/i;

/** Check the `link` option: an array of `{ relation, url }`, each a non-empty relation and an absolute http(s) URL. */
function resolveLinks(link: unknown): FhirDirectoryLink[] | undefined {
  if (link === undefined) return undefined;
  if (!Array.isArray(link)) throw new InvalidArgumentError('link', 'must be an array of { relation, url }');
  return link.map((l: unknown, i) => {
    const { relation, url } = (typeof l === 'object' && l !== null ? l : {}) as { relation?: unknown; url?: unknown };
    if (typeof relation !== 'string' || !/^[a-z][a-z0-9.-]*$/.test(relation)) {
      throw new InvalidArgumentError(`link[${i}].relation`, 'must be a link relation such as self or next');
    }
    if (typeof url !== 'string' || !LINK_URL_RE.test(url)) throw new InvalidArgumentError(`link[${i}].url`, 'must be an absolute http or https URL');
    return { relation, url };
  });
}

/**
 * Build the `publicFhirDirectory` response: a `searchset` Bundle of the directory's records of one type
 * (in directory order, at most `limit`), each entry with `search.mode` `match` and `total` the number of
 * entries. An Organization's `partOf` is literal when the parent is an entry of the same Bundle; every
 * other reference to an organization (a Location's `managingOrganization`) is logical (identifier +
 * display), since the Bundle holds only the requested type.
 *
 * @param directory - the public directory (checked first)
 * @param resourceType - `Organization`, `Practitioner` or `Location`
 * @param options - see {@link FhirExportOptions}, plus `limit` (non-negative integer; default all) and `link`
 *   (`Bundle.link`, placed before the entries: each a non-empty `relation` and an absolute http(s) `url`);
 *   `options.directory` is not used
 * @returns the searchset Bundle
 * @throws {ChartValidationError} when the directory fails the directory check
 * @throws {InvalidArgumentError} when `resourceType`, `limit`, `link` or another option is malformed
 * @example buildFhirDirectoryBundle(directory, 'Practitioner', { limit: 10, now: '2026-03-01T15:00:00Z' }).entry?.[0]?.search // { mode: 'match' }
 * @see https://hl7.org/fhir/R4/bundle.html#searchset
 */
export function buildFhirDirectoryBundle(
  directory: Directory,
  resourceType: DirectoryResourceType,
  options?: FhirDirectoryBundleOptions,
): fhir.Bundle {
  validateDirectory(directory);
  if (!(DIRECTORY_RESOURCE_TYPES as readonly string[]).includes(resourceType)) {
    throw new InvalidArgumentError('resourceType', `must be one of ${DIRECTORY_RESOURCE_TYPES.join(', ')}`);
  }
  const resolved = resolveOptions(options);
  const limit = resolveLimit(options?.limit, 'limit');
  const link = resolveLinks(options?.link);
  const index = indexDirectory(directory);
  const resources: fhir.FhirResource[] = [];
  if (resourceType === 'Practitioner') {
    const list = directory.practitioners ?? [];
    assertDistinctIds(list, 'Practitioner', 'practitioners');
    for (const p of list.slice(0, limit)) resources.push(mapPractitioner(p));
  } else {
    const list = resourceType === 'Organization' ? (directory.organizations ?? []) : (directory.locations ?? []);
    assertDistinctIds(list, resourceType, resourceType === 'Organization' ? 'organizations' : 'locations');
    const page = list.slice(0, limit);
    const inPage = new Set(resourceType === 'Organization' ? page.map((o) => o.id) : []);
    const organizationRef = (chartId: string): fhir.Reference => {
      if (inPage.has(chartId)) return literalRef('Organization', mapChartId(chartId));
      const name = index.organizations.get(chartId)?.name;
      return logicalRef('Organization', chartId, name !== undefined && hasText(name) ? name : undefined);
    };
    if (resourceType === 'Organization') for (const o of directory.organizations?.slice(0, limit) ?? []) resources.push(mapOrganization(o, { organizationRef }));
    else for (const l of directory.locations?.slice(0, limit) ?? []) resources.push(mapLocation(l, { organizationRef }));
  }
  return assembleBundle('searchset', resources, resolved, link);
}
