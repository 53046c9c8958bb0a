/**
 * `Accept` negotiation for the two formats (RFC 9110 section 12.5.1): the most specific matching media
 * range decides, and `q=0` refuses. On FHIR routes a range with a `fhirVersion` parameter matches only
 * R4 (`4.0`; FHIR R4 http.html "FHIR Version parameter": a server answers a version it does not serve
 * with 406).
 */

const SERVED = {
  // FHIR routes also serve `application/json` clients and the pre-R4 `application/json+fhir` spelling.
  fhir: { type: 'application', subtypes: ['fhir+json', 'json', 'json+fhir'] },
  hl7: { type: 'application', subtypes: ['hl7-v2'] },
} as const;

const Q_RE = /^q=([01](?:\.[0-9]{0,3})?)$/i;
/** A `fhirVersion` media-type parameter, its value optionally quoted. */
const FHIR_VERSION_RE = /^fhirversion="?([^"]*)"?$/i;
/** The FHIR release served: R4, written `4.0` (major.minor; a patch level such as `4.0.1` is accepted too). */
const R4_RE = /^4\.0(?:\.[0-9]+)?$/;

/**
 * Whether a request's `Accept` header admits the route's format.
 * @param accept - the header value, or undefined when absent
 * @param format - the route's format
 * @returns true when absent or empty, or when the most specific matching range has q > 0
 */
export function acceptsFormat(accept: string | undefined, format: 'fhir' | 'hl7'): boolean {
  if (accept === undefined) return true;
  const trimmed = accept.trim();
  if (trimmed === '') return true;
  const served = SERVED[format];
  let bestSpecificity = -1;
  let bestQ = 0;
  for (const range of trimmed.split(',')) {
    const parts = range.split(';');
    const mediaRange = (parts[0] as string).trim().toLowerCase();
    const slash = mediaRange.indexOf('/');
    if (slash <= 0) continue; // not a media range: ignore it
    const type = mediaRange.slice(0, slash);
    const subtype = mediaRange.slice(slash + 1);
    let specificity: number;
    if (type === '*' && subtype === '*') specificity = 0;
    else if (type === served.type && subtype === '*') specificity = 1;
    else if (type === served.type && (served.subtypes as readonly string[]).includes(subtype)) specificity = 2;
    else continue;
    let q = 1;
    let otherRelease = false;
    for (let i = 1; i < parts.length; i++) {
      const parameter = (parts[i] as string).trim().replace(/\s*=\s*/, '=');
      const m = Q_RE.exec(parameter);
      if (m !== null) q = Math.min(1, Number(m[1]));
      const version = format === 'fhir' ? FHIR_VERSION_RE.exec(parameter) : null;
      if (version !== null && !R4_RE.test(version[1] as string)) otherRelease = true;
    }
    if (otherRelease) continue; // a range for another FHIR release does not match
    if (specificity > bestSpecificity) {
      bestSpecificity = specificity;
      bestQ = q;
    } else if (specificity === bestSpecificity) {
      bestQ = Math.max(bestQ, q);
    }
  }
  return bestSpecificity >= 0 && bestQ > 0;
}
