/**
 * The FHIR Bundle reference property: every literal reference inside a Bundle resolves to one of its entries.
 */
import type * as fhir from 'fhir/r4.js';
import { PropertyAssertionError, show, type PropertyMismatch } from './failure.js';

/** A reference found in a resource, and where. */
interface FoundReference {
  path: string;
  reference: string;
}

/** Every `reference` string under `value`, with its JSON path. */
function collectReferences(value: unknown, path: string, out: FoundReference[]): FoundReference[] {
  if (Array.isArray(value)) value.forEach((v, i) => collectReferences(v, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'reference' && typeof v === 'string') out.push({ path: `${path}.reference`, reference: v });
      else collectReferences(v, `${path}.${key}`, out);
    }
  }
  return out;
}

/**
 * The absolute URL a relative `Type/id` reference has inside an entry: resolved against the RESTful base
 * of the entry's fullUrl (FHIR R4 Bundle, "Resolving references in Bundles").
 */
function resolveAgainst(reference: string, fullUrl: string | undefined): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(reference)) return reference;
  const base = fullUrl === undefined ? undefined : /^(.*\/)?[A-Za-z]+\/[^/]+$/.exec(fullUrl)?.[1];
  return `${base ?? ''}${reference}`;
}

/** Whether `#id` names a contained resource of `resource` (or `#` the resource itself). */
function resolvesInside(reference: string, resource: unknown): boolean {
  if (reference === '#') return true;
  const contained = (resource as { contained?: { id?: string }[] } | undefined)?.contained ?? [];
  return contained.some((c) => `#${c.id ?? ''}` === reference);
}

/**
 * Check that every literal reference (`reference` of a FHIR Reference) anywhere in a Bundle's entries
 * resolves inside the Bundle: to an entry's `fullUrl` (a relative `Type/id` resolved against the referring
 * entry's base, as FHIR R4 resolves references in Bundles), or to an entry whose resource is that
 * `resourceType` / `id`; `#id` to a contained resource. Logical references (identifier only) are not
 * literal and are not checked.
 * @param bundle - a FHIR R4 Bundle
 * @returns the number of references checked
 * @throws {PropertyAssertionError} naming the JSON path of each reference that resolves to no entry
 *   (`entry[2].resource.subject.reference`) with its value
 * @example
 * fc.assert(fc.property(patientChart({ mappable: true }), ({ chart, directory }) => {
 *   assertBundleReferencesResolve(buildFhirPatientBundle(chart, { directory }));
 * }));
 */
export function assertBundleReferencesResolve(bundle: fhir.Bundle): number {
  const entries = bundle.entry ?? [];
  const fullUrls = new Set(entries.flatMap((e) => (e.fullUrl === undefined ? [] : [e.fullUrl])));
  const typeIds = new Set(entries.flatMap((e) => (e.resource?.id === undefined ? [] : [`${e.resource.resourceType}/${e.resource.id}`])));
  const mismatches: PropertyMismatch[] = [];
  let checked = 0;
  entries.forEach((entry, i) => {
    for (const { path, reference } of collectReferences(entry.resource, `entry[${i}].resource`, [])) {
      checked++;
      const ok = reference.startsWith('#') ? resolvesInside(reference, entry.resource) : fullUrls.has(resolveAgainst(reference, entry.fullUrl)) || typeIds.has(reference);
      if (!ok) mismatches.push({ path, expected: "an entry's fullUrl or resourceType/id", actual: show(reference) });
    }
  });
  if (mismatches.length > 0) throw new PropertyAssertionError(`Bundle references do not resolve (${mismatches.length} of ${checked})`, mismatches);
  return checked;
}
