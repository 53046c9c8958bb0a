/**
 * The shared parts of the OpenAPI description: media types, error codes and texts of each status, the header
 * components, and the error bodies and common headers of every answer.
 */

/** A JSON value of the description. */
export type OpenApiValue = string | number | boolean | null | OpenApiValue[] | { [key: string]: OpenApiValue };

/** Extension on each path: the answer to a method other than GET and HEAD. */
export const OTHER_METHODS_EXTENSION = 'x-other-methods';
/** Extension on the operational operations: served only when the host enables them. */
export const SERVED_WHEN_ENABLED_EXTENSION = 'x-served-when-enabled';

export const FHIR = 'application/fhir+json; charset=utf-8';
export const HL7 = 'application/hl7-v2; charset=utf-8';
export const PROBLEM = 'application/problem+json';
export const JSON_TYPE = 'application/json';
export const PROMETHEUS = 'text/plain; version=0.0.4; charset=utf-8';

export type Json = { [key: string]: OpenApiValue };

export const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

/** The error codes of each status, as the error bodies carry them. */
export const ERROR_CODES: Readonly<Record<number, readonly string[]>> = {
  400: ['invalid-parameters'],
  401: ['api-key-missing', 'api-key-invalid'],
  403: ['scope-missing'],
  404: ['not-found'],
  405: ['method-not-allowed'],
  406: ['not-acceptable'],
  429: ['rate-limited'],
  500: ['internal-error'],
  503: ['unavailable'],
};

export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'A query parameter is missing, empty, duplicated or malformed, or the query string does not decode (percent-escapes, UTF-8). Every refused parameter is named; its value never is.',
  401: 'The API key is missing (`api-key-missing`), or unknown or revoked (`api-key-invalid`).',
  403: 'The API key is valid but does not grant the scope of this route (`scope-missing`).',
  404: 'The patient, or the record asked for, was not found for this patient (`not-found`).',
  405: 'Only GET and HEAD are served (`method-not-allowed`).',
  406: 'The `Accept` header refuses the one media type this route serves (`not-acceptable`).',
  429: 'The rate limit is exhausted (`rate-limited`); retry after `Retry-After` seconds.',
  500: 'Internal error (`internal-error`): a failing data source, key store, rate limiter or build. Nothing internal is sent.',
  503: 'The chart data is temporarily unavailable (`unavailable`): the data source said so (`Retry-After` when it gave a retry time), or its reads took longer than the handler\'s `dataSourceTimeoutMs` (`Retry-After: 5`).',
};

export function buildHeaders(): Json {
  const integer = (minimum: number): Json => ({ type: 'integer', minimum });
  return {
    requestId: {
      description: 'The request id: the caller\'s `x-request-id` when valid, else a new one (a UUID by default).',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    },
    cacheControl: { description: 'Exports are never stored by caches.', required: true, schema: { const: 'no-store' } },
    contentTypeOptions: { description: 'No content sniffing.', required: true, schema: { const: 'nosniff' } },
    contentLength: {
      description:
        'The body length in bytes (of the GET body, on HEAD). Absent on a body streamed as it is produced (a large patient Bundle, ' +
        'sent chunked), and on HEAD of a compressed body.',
      required: false,
      schema: integer(0),
    },
    vary: { description: 'The answer depended on `Accept` (and on `Accept-Encoding` when the request sent one).', required: true, schema: VARY_SCHEMA },
    contentEncoding: {
      description:
        'The content coding of a FHIR body: `gzip` or `br` (where the runtime has it) when the request\'s `Accept-Encoding` asks for it ' +
        'and the body has 8 KiB or more, or refuses `identity` (RFC 9110 §12.5.3).',
      required: false,
      schema: { enum: ['gzip', 'br'] },
    },
    rateLimitLimit: { description: 'Requests allowed per window for this API key (or directory client).', required: true, schema: integer(0) },
    rateLimitRemaining: { description: 'Requests left in the current window.', required: true, schema: integer(0) },
    rateLimitReset: { description: 'When the current window ends, in Unix epoch seconds.', required: true, schema: integer(0) },
    retryAfter: { description: 'Seconds to wait before retrying (delta-seconds, at least 1).', required: true, schema: integer(1) },
    wwwAuthenticate: { description: 'How to authenticate.', required: true, schema: { const: 'ApiKey header="x-api-key"' } },
  };
}

/** The values of `Vary`: `Accept`, with `Accept-Encoding` when the request sent one and the body is FHIR JSON. */
const VARY_SCHEMA: Json = { enum: ['Accept', 'Accept-Encoding', 'Accept, Accept-Encoding'] };

/** A header reference; `required: false` overrides the component's `required: true`. */
export function header(name: string, required: boolean): Json {
  if (required) return ref('headers', name);
  const optional: Record<string, string> = {
    vary: 'The answer depended on `Accept`: present when the failure came after the Accept check.',
    rateLimitLimit: 'Requests allowed per window: present when the request was counted.',
    rateLimitRemaining: 'Requests left in the current window: present when the request was counted.',
    rateLimitReset: 'When the current window ends, in Unix epoch seconds: present when the request was counted.',
    retryAfter: 'Seconds to wait before retrying: present when the data source gave a retry time, and on a data-source timeout.',
  };
  const schema = name === 'vary' ? VARY_SCHEMA : { type: 'integer', minimum: name === 'retryAfter' ? 1 : 0 };
  return { description: optional[name] ?? name, required: false, schema };
}

/** An error body of a status: OperationOutcome or problem+json with the status's codes. */
export function errorContent(format: 'fhir' | 'problem', status: number, codes: readonly string[] = ERROR_CODES[status] ?? []): Json {
  if (format === 'problem') {
    return {
      [PROBLEM]: { schema: { allOf: [ref('schemas', 'Problem'), { properties: { status: { const: status }, code: { enum: [...codes] } } }] } },
    };
  }
  const coding = { properties: { code: { enum: [...codes] } } };
  const issue = { properties: { details: { properties: { coding: { items: coding } } } } };
  return { [FHIR]: { schema: { allOf: [ref('schemas', 'OperationOutcome'), { properties: { issue: { items: issue } } }] } } };
}

/** The headers every answer of the handler carries, plus `extra`. */
export function withCommonHeaders(extra: Json = {}): Json {
  return {
    'x-request-id': ref('headers', 'requestId'),
    'cache-control': ref('headers', 'cacheControl'),
    'x-content-type-options': ref('headers', 'contentTypeOptions'),
    'content-length': ref('headers', 'contentLength'),
    'content-encoding': ref('headers', 'contentEncoding'),
    // Before the Accept check, only Accept-Encoding can make an answer vary (a FHIR error body, compressed).
    vary: { description: 'Present when the request sent `Accept-Encoding` and the body is FHIR JSON.', required: false, schema: VARY_SCHEMA },
    ...extra,
  };
}

export function rateLimitHeaders(required: boolean): Json {
  return {
    'x-ratelimit-limit': header('rateLimitLimit', required),
    'x-ratelimit-remaining': header('rateLimitRemaining', required),
    'x-ratelimit-reset': header('rateLimitReset', required),
  };
}


/** The `x-other-methods` entry of a path: 405 with `Allow: GET, HEAD`, in the path's error format. */
export function otherMethods(errorFormat: 'fhir' | 'problem'): Json {
  return {
    description: 'Any method other than GET and HEAD.',
    responses: {
      405: {
        description: STATUS_TEXT[405] ?? '',
        // Inline, not a component: linters do not walk extensions, so a component used only here looks unused.
        headers: withCommonHeaders({ allow: { description: 'The methods served.', required: true, schema: { const: 'GET, HEAD' } } }),
        content: errorContent(errorFormat, 405),
      },
    },
  };
}
