/**
 * `Accept` negotiation for the two formats (RFC 9110 section 12.5.1). Each route produces one media type
 * (`application/fhir+json; charset=utf-8`, R4, or `application/hl7-v2; charset=utf-8`); its quality is the
 * weight of the most specific range that matches it, and `q=0` refuses. From most to least specific:
 *
 * 1. the produced type with parameters (`application/fhir+json; fhirVersion=4.0`),
 * 2. the produced type (`application/fhir+json`),
 * 3. a documented alias with parameters, then without (FHIR routes only: `application/json`,
 *    `application/json+fhir`),
 * 4. `application/*` (with parameters first),
 * 5. `*` + `/*` (with parameters first).
 *
 * So an explicit `application/fhir+json;q=0` wins over `application/json` or `*` + `/*`. Among ranges equally
 * specific, the highest weight counts. A range whose parameters contradict what is served does not match:
 * `charset` other than UTF-8, and on FHIR routes `fhirVersion` other than R4 (`4.0`, or `4.0.x`; FHIR R4
 * http.html "FHIR Version parameter": a server answers a version it does not serve with 406). Other
 * parameters are not ones the service knows: they do not prevent a match. The header is split only at
 * commas and semicolons outside quoted strings (`foo="a,b"` is one parameter). An element that is not a
 * media range, or whose weight is not a number, is ignored.
 */

interface Produced {
  readonly type: string;
  readonly subtype: string;
  /** Other subtypes of `type` that the README documents as served with this one. */
  readonly aliases: readonly string[];
}

const PRODUCED: Readonly<Record<'fhir' | 'hl7', Produced>> = {
  // FHIR routes also serve `application/json` clients and the pre-R4 `application/json+fhir` spelling.
  fhir: { type: 'application', subtype: 'fhir+json', aliases: ['json', 'json+fhir'] },
  // HL7 routes serve `application/hl7-v2` only: `application/hl7-v2+er7` and `x-application/hl7-v2+er7` are other types.
  hl7: { type: 'application', subtype: 'hl7-v2', aliases: [] },
};

/** A weight as written: digits with an optional fraction (RFC 9110 allows at most 3 decimals; more are read too). */
const WEIGHT_RE = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;
/** RFC 9110 token characters. */
const TOKEN_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The FHIR release served: R4, written `4.0` (major.minor; a patch level such as `4.0.1` is accepted too). */
const R4_RE = /^4\.0(?:\.[0-9]+)?$/;

/** One element of the header: the range, the parameters before the weight (names lowercased), the weight. */
interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly parameters: readonly (readonly [string, string])[];
  readonly q: number;
}

/**
 * Split a header into its elements and each element into its `;`-separated pieces, honouring quoted strings
 * (`"…"` with `\` escapes): separators inside quotes are text. Quoted values are returned unquoted. Never throws.
 */
function split(header: string): string[][] {
  const elements: string[][] = [];
  let pieces: string[] = [];
  let piece = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i] as string;
    if (quoted) {
      if (c === '\\' && i + 1 < header.length) piece += header[++i];
      else if (c === '"') quoted = false;
      else piece += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      pieces.push(piece);
      elements.push(pieces);
      pieces = [];
      piece = '';
    } else if (c === ';') {
      pieces.push(piece);
      piece = '';
    } else {
      piece += c;
    }
  }
  pieces.push(piece);
  elements.push(pieces);
  return elements;
}

/** Parse one element; `undefined` when it is not a media range or its weight is malformed. */
function parseRange(pieces: readonly string[]): MediaRange | undefined {
  const range = (pieces[0] as string).trim().toLowerCase();
  const slash = range.indexOf('/');
  if (slash === -1) return undefined;
  const type = range.slice(0, slash);
  const subtype = range.slice(slash + 1);
  if (!TOKEN_RE.test(type) || !TOKEN_RE.test(subtype) || (type === '*' && subtype !== '*')) return undefined;
  const parameters: [string, string][] = [];
  let q = 1;
  for (let i = 1; i < pieces.length; i++) {
    const text = pieces[i] as string;
    const eq = text.indexOf('=');
    if (eq === -1) {
      if (text.trim() === '') continue; // `;;` or a trailing `;`
      return undefined;
    }
    const name = text.slice(0, eq).trim().toLowerCase();
    const value = text.slice(eq + 1).trim();
    if (name === 'q') {
      if (!WEIGHT_RE.test(value)) return undefined;
      q = Math.min(1, Number(value));
      // What follows the weight are extension parameters: not part of the media range.
      break;
    }
    parameters.push([name, value]);
  }
  return { type, subtype, parameters, q };
}

/** Whether a range's parameters agree with what the route serves. */
function parametersMatch(parameters: MediaRange['parameters'], format: 'fhir' | 'hl7'): boolean {
  for (const [name, value] of parameters) {
    if (name === 'charset' && value.toLowerCase() !== 'utf-8') return false;
    if (name === 'fhirversion' && format === 'fhir' && !R4_RE.test(value)) return false;
  }
  return true;
}

/** How specifically a range names the produced type (higher is more specific), or -1 when it does not match it. */
function specificity(range: MediaRange, format: 'fhir' | 'hl7'): number {
  const produced = PRODUCED[format];
  let level: number;
  if (range.type === '*' && range.subtype === '*') level = 0;
  else if (range.type !== produced.type) return -1;
  else if (range.subtype === '*') level = 1;
  else if (range.subtype === produced.subtype) level = 3;
  else if (produced.aliases.includes(range.subtype)) level = 2;
  else return -1;
  if (!parametersMatch(range.parameters, format)) return -1;
  return level * 2 + (range.parameters.length > 0 ? 1 : 0);
}

/**
 * Whether a request's `Accept` header admits the route's format.
 * @param accept - the header value, or undefined when absent
 * @param format - the route's format
 * @returns true when absent or empty, or when the most specific range matching the produced type has q > 0
 */
export function acceptsFormat(accept: string | undefined, format: 'fhir' | 'hl7'): boolean {
  if (accept === undefined) return true;
  if (accept.trim() === '') return true;
  let bestSpecificity = -1;
  let bestQ = 0;
  for (const pieces of split(accept)) {
    const range = parseRange(pieces);
    if (range === undefined) continue;
    const s = specificity(range, format);
    if (s < 0) continue;
    if (s > bestSpecificity) {
      bestSpecificity = s;
      bestQ = range.q;
    } else if (s === bestSpecificity) {
      bestQ = Math.max(bestQ, range.q);
    }
  }
  return bestSpecificity >= 0 && bestQ > 0;
}
