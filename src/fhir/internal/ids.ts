/**
 * Chart id → FHIR id mapping (FHIR R4 `id`: `[A-Za-z0-9\-\.]{1,64}`).
 *
 * - A chart id that already is a valid FHIR id is used as is (except `.` and `..`, which would be path
 *   steps in a URL).
 * - Any other chart id becomes `<hint>-<hash>`: `<hint>` is a readable slug of the id (its FHIR-safe
 *   characters, other runs replaced by `-`, at most 31 characters; omitted when nothing is left) and
 *   `<hash>` the first 128 bits of SHA-256 over the UTF-8 id, in 32 hex digits. At most 64 characters.
 * - Derived resources (a Condition from a diagnosis, a Procedure, a Coverage) get `<parent id>-<child key>`
 *   when that is a valid FHIR id, else the hashed form over the parent's and child's chart ids.
 */
import { sha256Hex128 } from './hash.js';

/** The FHIR R4 `id` shape. */
export const FHIR_ID_RE = /^[A-Za-z0-9\-.]{1,64}$/;

const HINT_MAX = 31;
const UNSAFE_RUN_RE = /[^A-Za-z0-9\-.]+/g;
const EDGE_DASH_RE = /^[-.]+|[-.]+$/g;

/** True when `value` is a valid FHIR R4 id. */
export function isFhirId(value: string): boolean {
  return FHIR_ID_RE.test(value);
}

/**
 * The hashed id form: a readable slug of `hint` plus 128 bits of SHA-256 over `material`.
 * @param hint - text whose FHIR-safe characters make the readable prefix
 * @param material - the exact text hashed; distinct material gives distinct ids
 */
export function hashedFhirId(hint: string, material: string): string {
  const hash = sha256Hex128(material);
  let slug = hint.replace(UNSAFE_RUN_RE, '-').replace(EDGE_DASH_RE, '');
  if (slug.length > HINT_MAX) slug = slug.slice(0, HINT_MAX).replace(EDGE_DASH_RE, '');
  return slug === '' ? hash : `${slug}-${hash}`;
}

/** Cache of mapped ids: chart ids repeat across exports of the same chart and hashing is not free. */
const MAPPED = new Map<string, string>();
const MAPPED_MAX = 10_000;

/**
 * Map a chart id to a FHIR id (see the module comment for the scheme). Assumes a non-empty string.
 * @param chartId - a chart id (1–128 characters, no control characters)
 */
export function mapChartId(chartId: string): string {
  // `.` and `..` match the FHIR id pattern, but as a URL path segment they mean "here" and "up".
  if (FHIR_ID_RE.test(chartId) && chartId !== '.' && chartId !== '..') return chartId;
  let mapped = MAPPED.get(chartId);
  if (mapped === undefined) {
    mapped = hashedFhirId(chartId, chartId);
    if (MAPPED.size >= MAPPED_MAX) MAPPED.clear();
    MAPPED.set(chartId, mapped);
  }
  return mapped;
}

/** Hash material of a derived record; the unit separator cannot occur in chart ids (control character). */
export function derivedMaterial(kind: string, parentChartId: string, childKey: string): string {
  return `${kind}\u001f${parentChartId}\u001f${childKey}`;
}
