/** `meta.lastUpdated` of the resources made from a chart record that carries `lastUpdated`. */

/**
 * The resource with `meta: { lastUpdated }` after its `id` (FHIR R4 element order), or the resource itself when
 * the record has no `lastUpdated`: then the output is exactly what it was before the field existed.
 * @param resource - a mapped resource (its own keys, `resourceType` and `id` first)
 * @param lastUpdated - the record's checked `lastUpdated`, or undefined
 * @see https://hl7.org/fhir/R4/resource-definitions.html#Meta.lastUpdated
 */
export function withLastUpdated<T extends { resourceType: string; id?: string | undefined }>(resource: T, lastUpdated: string | undefined): T {
  if (lastUpdated === undefined) return resource;
  const out: Record<string, unknown> = { resourceType: resource.resourceType, id: resource.id, meta: { lastUpdated } };
  for (const key of Object.keys(resource)) {
    if (key !== 'resourceType' && key !== 'id') out[key] = (resource as Record<string, unknown>)[key];
  }
  return out as T;
}
