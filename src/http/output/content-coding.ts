/**
 * Response compression: which content coding an answer gets, from the request's `Accept-Encoding`
 * (RFC 9110 §12.5.3), the answer's media type and its size. Only FHIR JSON and NDJSON bodies are
 * compressed, and only from {@link COMPRESS_MIN_CHARS} characters on (a smaller body costs more to compress
 * than it saves), unless the client refuses `identity`.
 */

/** The content codings the adapters can apply, in the order preferred when the client rates them equally. */
export type ContentCoding = 'br' | 'gzip';

/** Bodies shorter than this (in characters) are sent without content coding, unless `identity` is refused. */
export const COMPRESS_MIN_CHARS = 8 * 1024;

/** Media types whose bodies are compressed. */
const COMPRESSIBLE_RE = /^application\/(?:fhir\+json|fhir\+ndjson|ndjson)(?:\s*;|$)/i;
/** RFC 9110 `qvalue`: 0 to 1 with at most three decimals. */
const QVALUE_RE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** What a request's `Accept-Encoding` says of the codings the server has. */
export interface CodingPreference {
  /** The coding to use when the body is compressed, or `undefined` when none is acceptable. */
  readonly coding: ContentCoding | undefined;
  /** Whether `identity` (no coding) is refused: `identity;q=0`, or `*;q=0` without an `identity` entry. */
  readonly identityRefused: boolean;
}

/**
 * Read `Accept-Encoding` (RFC 9110 §12.5.3): codings are case-insensitive, `x-gzip` is `gzip`, `*` rates every
 * coding not named, `q=0` refuses; `identity` is acceptable unless refused; an empty value wants no coding.
 * A coding is chosen when it is rated above zero and at least as high as `identity` (ties: the order of
 * `available`); `identity` named by neither itself nor `*` ranks below every named coding. An entry with a
 * malformed `q` is ignored.
 * @param header - the header's value (repeated headers joined with `, `)
 * @param available - the codings the runtime has, most preferred first
 * @returns the chosen coding, if any, and whether `identity` is refused
 */
export function readAcceptEncoding(header: string, available: readonly ContentCoding[]): CodingPreference {
  const rated = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    let name = (rawName ?? '').trim().toLowerCase();
    if (name === '') continue;
    if (name === 'x-gzip') name = 'gzip';
    let q = 1;
    let malformed = false;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = param.slice(eq + 1).trim();
      if (QVALUE_RE.test(value)) q = Number(value);
      else malformed = true;
    }
    // The highest rating of a coding named twice counts.
    if (!malformed) rated.set(name, Math.max(q, rated.get(name) ?? 0));
  }
  const star = rated.get('*');
  // `identity` is acceptable unless refused; unrated (neither named nor covered by `*`), it is the fallback,
  // so any coding the client names wins over it.
  const named = rated.get('identity');
  const identity = named ?? star ?? 0;
  const identityRefused = named === 0 || (named === undefined && star === 0);
  let coding: ContentCoding | undefined;
  let best = 0;
  for (const c of available) {
    const q = rated.get(c) ?? star ?? 0;
    if (q > best) {
      best = q;
      coding = c;
    }
  }
  return { coding: coding !== undefined && best >= identity ? coding : undefined, identityRefused };
}

/** What the writer does about content coding for one answer. */
export interface CodingDecision {
  /** The coding to apply, or `undefined` for none. */
  readonly coding: ContentCoding | undefined;
  /** Whether the answer gets `Vary: Accept-Encoding` (it does whenever its coding depended on the header). */
  readonly vary: boolean;
}

const NONE: CodingDecision = { coding: undefined, vary: false };

/**
 * Decide the content coding of an answer.
 * @param acceptEncoding - the request's `Accept-Encoding`, `undefined` when absent (then: none, no `Vary`)
 * @param contentType - the answer's `Content-Type`
 * @param size - the body's length in characters, or `Infinity` for a streamed body
 * @param available - the codings the adapter can apply, most preferred first
 * @returns the coding and whether to add `Vary: Accept-Encoding`
 */
export function decideCoding(acceptEncoding: string | undefined, contentType: string | undefined, size: number, available: readonly ContentCoding[]): CodingDecision {
  if (acceptEncoding === undefined || contentType === undefined || !COMPRESSIBLE_RE.test(contentType)) return NONE;
  const preference = readAcceptEncoding(acceptEncoding, available);
  // Small bodies stay as they are, unless the client refuses them so. When nothing the client accepts is
  // available, the body goes without coding (RFC 9110 §12.1 lets a server disregard the header).
  const coding = size >= COMPRESS_MIN_CHARS || preference.identityRefused ? preference.coding : undefined;
  return { coding, vary: true };
}

/**
 * Add `Accept-Encoding` to a response's `Vary` (kept as it is when already there).
 * @param headers - the response headers (lowercase names), changed in place
 */
export function addVary(headers: Record<string, string>): void {
  const vary = headers['vary'];
  if (vary === undefined || vary === '') headers['vary'] = 'Accept-Encoding';
  else if (!/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary)) headers['vary'] = `${vary}, Accept-Encoding`;
}
