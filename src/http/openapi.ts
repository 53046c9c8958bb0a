/**
 * An OpenAPI 3.1 description of the export interface as the handler serves it: the eleven routes with their
 * parameters (and the limits in force), the scope each needs, every status each can answer with its body
 * format and headers, and the operational routes a host may add (`/healthz`, `/readyz`, `/metrics`,
 * `/openapi.json`). Plain data, built without any dependency, so a host can serve it as JSON.
 */
import { InvalidArgumentError } from '../index.js';
import { DEFAULT_LIMITS, type ExportLimits } from './handler-options.js';
import { EXPORT_ROUTES } from './routes/route-table.js';
import type { LimitName, ParameterDefinition, RouteDefinition } from './routes/route-types.js';

/** A JSON value of the description. */
export type OpenApiValue = string | number | boolean | null | OpenApiValue[] | { [key: string]: OpenApiValue };

/** The OpenAPI 3.1 document: a plain JSON object (`JSON.stringify` it to serve it). */
export interface OpenApiDocument {
  /** The OpenAPI version of the document. */
  readonly openapi: '3.1.1';
  /** Title, version, summary, description and license of the service. */
  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: OpenApiValue };
  /** Where the service is reached (`serverUrl`). */
  readonly servers: readonly { readonly url: string }[];
  /** The routes by path (under `basePath`), each with its operations. */
  readonly paths: { readonly [path: string]: { readonly [key: string]: OpenApiValue } };
  /** Security scheme, parameters, headers, schemas and the shared error responses. */
  readonly components: { readonly [key: string]: { readonly [name: string]: OpenApiValue } };
  /** `tags` and the extension `x-unmatched-path`. */
  readonly [key: string]: OpenApiValue | object;
}

/** Options of {@link createOpenApiDocument}; give the values the handler is created with. */
export interface OpenApiDocumentOptions {
  /** The handler's `basePath`: the export routes are described under it (`/api/export/exportFhirPatient`). */
  readonly basePath?: string | undefined;
  /** The absolute URL the service is reached at (`https://export.example.org`), for `servers`. Default `/` (same origin). */
  readonly serverUrl?: string | undefined;
  /** The handler's `limits`, so the defaults and maxima described are the ones in force. Default {@link DEFAULT_LIMITS}. */
  readonly limits?: ExportLimits | undefined;
  /** Describe the operational routes (`/healthz`, `/readyz`, `/metrics`, `/openapi.json`). Default true. */
  readonly operationalRoutes?: boolean | undefined;
  /** `info.version`: the version of the service (default: this package's version). */
  readonly version?: string | undefined;
}

/** The package version written as `info.version` by default (kept equal to package.json by a test). */
const OPENAPI_DEFAULT_VERSION = '0.1.0';

/** Extension on the root: the answer to a path that is no route (any method). */
const UNMATCHED_PATH_EXTENSION = 'x-unmatched-path';
/** Extension on each export path: the answer to a method other than GET and HEAD. */
const OTHER_METHODS_EXTENSION = 'x-other-methods';
/** Extension on the operational operations: served only when the host enables them. */
const SERVED_WHEN_ENABLED_EXTENSION = 'x-served-when-enabled';

const FHIR = 'application/fhir+json; charset=utf-8';
const HL7 = 'application/hl7-v2; charset=utf-8';
const PROBLEM = 'application/problem+json';
const JSON_TYPE = 'application/json';
const PROMETHEUS = 'text/plain; version=0.0.4; charset=utf-8';

type Json = { [key: string]: OpenApiValue };

const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

/** MSH-9 of each HL7 route. */
const MESSAGE_TYPES: Readonly<Record<string, string>> = {
  exportHl7PatientAdt: 'ADT^A31^ADT_A05',
  exportHl7PatientSummary: 'ADR^A19^ADR_A19',
  exportHl7Encounter: 'ADT^A08^ADT_A01',
  exportHl7Note: 'MDM^T02^MDM_T02',
  exportHl7Assessment: 'ORU^R01^ORU_R01',
};

/** What each route returns, in the words of the interface. */
const ROUTE_TEXT: Readonly<Record<string, { readonly summary: string; readonly description: string }>> = {
  exportFhirPatient: {
    summary: 'Patient demographics and coverage (FHIR)',
    description: 'A `collection` Bundle: the Patient first, then its Coverage resources and the payer Organizations they name.',
  },
  exportFhirPatientBundle: {
    summary: 'Longitudinal patient Bundle (FHIR)',
    description:
      'A `collection` Bundle: the Patient and its Coverage, then the newest encounters (with their Condition and Procedure ' +
      'resources), notes (Composition + DocumentReference), assessments (QuestionnaireResponse, with the Questionnaire) and ' +
      'medical-history records (Condition), each kind capped by its own limit parameter, and the Practitioner, Location and ' +
      'Organization records they refer to.',
  },
  exportFhirEncounter: {
    summary: 'One encounter (FHIR)',
    description:
      'A `collection` Bundle: the Patient and the Encounter, with its diagnoses (Condition), procedures (Procedure) and visit ' +
      'context (Practitioner, Location, Organization) when available.',
  },
  exportFhirNote: {
    summary: 'One clinical note (FHIR)',
    description:
      'A `collection` Bundle: the Patient, the Composition and the DocumentReference of the note, with its encounter and the ' +
      'directory records they refer to when available.',
  },
  exportFhirAssessment: {
    summary: 'One assessment (FHIR)',
    description:
      'A `collection` Bundle: the Patient and the QuestionnaireResponse, with its Questionnaire, its encounter and the directory ' +
      'records they refer to when available.',
  },
  publicFhirDirectory: {
    summary: 'Public directory (FHIR)',
    description:
      'A `searchset` Bundle of Organization, Practitioner or Location records. Needs no API key. Rate-limited per client ' +
      'only when the host configures `directoryRateLimit`.',
  },
  exportHl7PatientAdt: { summary: 'Patient demographics (HL7 v2 ADT^A31)', description: 'An `ADT^A31^ADT_A05` message (HL7 v2.5.1).' },
  exportHl7PatientSummary: {
    summary: 'Longitudinal patient summary (HL7 v2 ADR^A19)',
    description: 'An `ADR^A19^ADR_A19` message (HL7 v2.5.1) holding the newest `limit` records overall, whatever their kind.',
  },
  exportHl7Encounter: { summary: 'One encounter (HL7 v2 ADT^A08)', description: 'An `ADT^A08^ADT_A01` message (HL7 v2.5.1).' },
  exportHl7Note: { summary: 'One clinical note (HL7 v2 MDM^T02)', description: 'An `MDM^T02^MDM_T02` message (HL7 v2.5.1).' },
  exportHl7Assessment: { summary: 'One assessment (HL7 v2 ORU^R01)', description: 'An `ORU^R01^ORU_R01` message (HL7 v2.5.1).' },
};

/** The error codes of each status, as the error bodies carry them. */
const ERROR_CODES: Readonly<Record<number, readonly string[]>> = {
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

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'A query parameter is missing, empty, duplicated or malformed, or the query string does not decode (percent-escapes, UTF-8). Every refused parameter is named; its value never is.',
  401: 'The API key is missing (`api-key-missing`), or unknown or revoked (`api-key-invalid`).',
  403: 'The API key is valid but does not grant the scope of this route (`scope-missing`).',
  404: 'The patient, or the record asked for, was not found for this patient (`not-found`).',
  405: 'Only GET and HEAD are served (`method-not-allowed`).',
  406: 'The `Accept` header refuses the one media type this route serves (`not-acceptable`).',
  429: 'The rate limit is exhausted (`rate-limited`); retry after `Retry-After` seconds.',
  500: 'Internal error (`internal-error`): a failing data source, key store, rate limiter or build. Nothing internal is sent.',
  503: 'The chart data is temporarily unavailable (`unavailable`); `Retry-After` when the data source says when to retry.',
};

function checkBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  if (typeof basePath !== 'string' || /[?#]/.test(basePath)) throw new InvalidArgumentError('basePath', 'must be a path without query or fragment');
  // The handler's own normalisation: what the WHATWG URL parser makes of the path, without a trailing slash.
  const path = new URL(`http://localhost${basePath.startsWith('/') ? basePath : `/${basePath}`}`).pathname;
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

function resolveLimit(name: LimitName, limits: ExportLimits | undefined): { readonly default: number; readonly max: number } {
  const given: unknown = limits?.[name];
  if (given !== undefined && (typeof given !== 'object' || given === null)) throw new InvalidArgumentError(`limits.${name}`, 'must be an object');
  // Each field read once, checked before any arithmetic, as the handler does.
  const { max: givenMax, default: givenDefault } = (given ?? {}) as { max?: unknown; default?: unknown };
  const read = (label: string, value: unknown): number => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new InvalidArgumentError(`limits.${name}.${label}`, 'must be a non-negative integer');
    }
    return value;
  };
  const fallback = DEFAULT_LIMITS[name];
  const max = givenMax === undefined ? fallback.max : read('max', givenMax);
  const def = givenDefault === undefined ? Math.min(fallback.default, max) : read('default', givenDefault);
  if (def > max) throw new InvalidArgumentError(`limits.${name}.default`, 'must not exceed the maximum');
  return { default: def, max };
}

/** Component name of a route's parameter (`limit` is two different parameters). */
function parameterComponent(route: RouteDefinition, parameter: ParameterDefinition): string {
  if (parameter.name === 'limit') return route.name === 'publicFhirDirectory' ? 'directoryLimit' : 'summaryLimit';
  return parameter.name;
}

const ID_TEXT: Readonly<Record<string, string>> = {
  patientId: 'The patient.',
  encounterId: 'The encounter, which must belong to the patient.',
  noteId: 'The note, which must belong to the patient.',
  assessmentId: 'The assessment, which must belong to the patient.',
};

const LIMIT_TEXT: Readonly<Record<string, string>> = {
  encounterLimit: 'Caps the encounters in the Bundle (newest first).',
  noteLimit: 'Caps the notes in the Bundle (newest first).',
  assessmentLimit: 'Caps the assessments in the Bundle (newest first).',
  medicalHistoryLimit: 'Caps the medical-history records in the Bundle (newest first).',
  summaryLimit: 'Caps the number of records in the summary, all kinds together (newest first).',
  directoryLimit: 'Caps the number of directory records.',
};

function buildParameters(limits: ExportLimits | undefined): Json {
  const out: Json = {};
  for (const route of EXPORT_ROUTES) {
    for (const parameter of route.parameters) {
      const component = parameterComponent(route, parameter);
      if (out[component] !== undefined) continue;
      const duplicate = ' Given at most once (a repeated parameter is a 400).';
      if (parameter.kind === 'id') {
        out[component] = {
          name: parameter.name,
          in: 'query',
          required: true,
          description:
            `${ID_TEXT[parameter.name] ?? 'A chart id.'} A chart id: 1 to 128 UTF-16 code units, no control characters ` +
            `(C0, DEL, C1), no lone surrogates, no leading or trailing white space.${duplicate}`,
          schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^(?!\\s)[^\\u0000-\\u001F\\u007F-\\u009F]*(?<!\\s)$' },
        };
      } else if (parameter.kind === 'resourceType') {
        out[component] = {
          name: parameter.name,
          in: 'query',
          required: true,
          description: `The kind of directory record listed.${duplicate}`,
          schema: { type: 'string', enum: ['Organization', 'Practitioner', 'Location'] },
        };
      } else {
        const setting = resolveLimit(route.limits[parameter.name] as LimitName, limits);
        out[component] = {
          name: parameter.name,
          in: 'query',
          required: false,
          description:
            `${LIMIT_TEXT[component] ?? 'A record-count limit.'} A non-negative integer in decimal digits (leading zeros allowed); ` +
            `default ${setting.default}; a value above ${setting.max} is read as ${setting.max} (clamped, not refused).${duplicate}`,
          schema: { type: 'integer', minimum: 0, default: setting.default, 'x-maximum-honoured': setting.max },
        };
      }
    }
  }
  out['requestId'] = {
    name: 'x-request-id',
    in: 'header',
    required: false,
    description: 'A request id to trace the call; echoed in `x-request-id` and in error bodies. An absent or invalid one is replaced by a new UUID.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  };
  return out;
}

function buildHeaders(): Json {
  const integer = (minimum: number): Json => ({ type: 'integer', minimum });
  return {
    requestId: {
      description: 'The request id: the caller\'s `x-request-id` when valid, else a new one (a UUID by default).',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    },
    cacheControl: { description: 'Exports are never stored by caches.', required: true, schema: { const: 'no-store' } },
    contentTypeOptions: { description: 'No content sniffing.', required: true, schema: { const: 'nosniff' } },
    contentLength: { description: 'The body length in bytes (of the GET body, on HEAD).', required: true, schema: integer(0) },
    vary: { description: 'The answer depended on `Accept`.', required: true, schema: { const: 'Accept' } },
    rateLimitLimit: { description: 'Requests allowed per window for this API key (or directory client).', required: true, schema: integer(0) },
    rateLimitRemaining: { description: 'Requests left in the current window.', required: true, schema: integer(0) },
    rateLimitReset: { description: 'When the current window ends, in Unix epoch seconds.', required: true, schema: integer(0) },
    retryAfter: { description: 'Seconds to wait before retrying (delta-seconds, at least 1).', required: true, schema: integer(1) },
    wwwAuthenticate: { description: 'How to authenticate.', required: true, schema: { const: 'ApiKey header="x-api-key"' } },
  };
}

/** A header reference; `required: false` overrides the component's `required: true`. */
function header(name: string, required: boolean): Json {
  if (required) return ref('headers', name);
  const optional: Record<string, string> = {
    vary: 'The answer depended on `Accept`: present when the failure came after the Accept check.',
    rateLimitLimit: 'Requests allowed per window: present when the request was counted.',
    rateLimitRemaining: 'Requests left in the current window: present when the request was counted.',
    rateLimitReset: 'When the current window ends, in Unix epoch seconds: present when the request was counted.',
    retryAfter: 'Seconds to wait before retrying: present when the data source gave a retry time.',
  };
  const schema = name === 'vary' ? { const: 'Accept' } : { type: 'integer', minimum: name === 'retryAfter' ? 1 : 0 };
  return { description: optional[name] ?? name, required: false, schema };
}

function buildSchemas(): Json {
  const codes = [...new Set(Object.values(ERROR_CODES).flat()), 'route-not-found'];
  return {
    FhirBundle: {
      type: 'object',
      description: 'A FHIR R4 Bundle (https://hl7.org/fhir/R4/bundle.html). `fullUrl` is `<ResourceType>/<id>`, or absolute under the configured FHIR base URL.',
      required: ['resourceType', 'id', 'type', 'timestamp'],
      properties: {
        resourceType: { const: 'Bundle' },
        id: { type: 'string' },
        type: { type: 'string', enum: ['collection', 'searchset'] },
        timestamp: { type: 'string', format: 'date-time' },
        total: { type: 'integer', minimum: 0, description: 'Number of entries (left out of `collection` Bundles when the host sets `fhir.strictBundleTotal`).' },
        entry: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['fullUrl', 'resource'],
            properties: {
              fullUrl: { type: 'string' },
              resource: { type: 'object', required: ['resourceType', 'id'], properties: { resourceType: { type: 'string' }, id: { type: 'string' } } },
              search: { type: 'object', properties: { mode: { type: 'string', enum: ['match', 'include'] } } },
            },
          },
        },
      },
    },
    OperationOutcome: {
      type: 'object',
      description:
        'A FHIR R4 OperationOutcome (https://hl7.org/fhir/R4/operationoutcome.html): one issue per refused parameter, else one issue. ' +
        '`details.coding` carries the machine code; `diagnostics` the request id.',
      required: ['resourceType', 'issue'],
      properties: {
        resourceType: { const: 'OperationOutcome' },
        issue: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['severity', 'code', 'details', 'diagnostics'],
            properties: {
              severity: { const: 'error' },
              code: {
                type: 'string',
                enum: ['not-found', 'not-supported', 'login', 'forbidden', 'throttled', 'invalid', 'required', 'value', 'exception', 'transient'],
              },
              details: {
                type: 'object',
                required: ['coding', 'text'],
                properties: {
                  coding: {
                    type: 'array',
                    minItems: 1,
                    maxItems: 1,
                    items: {
                      type: 'object',
                      required: ['system', 'code'],
                      properties: { system: { const: 'urn:chart-export:http-error' }, code: { type: 'string', enum: codes } },
                    },
                  },
                  text: { type: 'string' },
                },
              },
              diagnostics: { type: 'string', pattern: '^request id: [A-Za-z0-9._:-]{1,128}$' },
            },
          },
        },
      },
    },
    Problem: {
      type: 'object',
      description: 'RFC 9457 problem details (https://www.rfc-editor.org/rfc/rfc9457) with the members `code`, `requestId` and, on a 400, `invalidParams`.',
      required: ['type', 'title', 'status', 'detail', 'code', 'requestId'],
      properties: {
        type: { const: 'about:blank' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string', enum: codes },
        requestId: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
        invalidParams: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['name', 'reason', 'detail'],
            properties: {
              name: { type: 'string' },
              reason: { type: 'string', enum: ['missing', 'empty', 'duplicated', 'malformed', 'not-an-integer', 'negative', 'unknown-value'] },
              detail: { type: 'string' },
            },
          },
        },
      },
    },
    Hl7Message: {
      type: 'string',
      description: 'An HL7 v2.5.1 message in ER7 encoding: segments separated by carriage returns, the MSH segment first with the encoding characters `^~\\&`.',
      pattern: '^MSH\\|\\^~\\\\&\\|',
    },
  };
}

/** An error body of a status: OperationOutcome or problem+json with the status's codes. */
function errorContent(format: 'fhir' | 'problem', status: number, codes: readonly string[] = ERROR_CODES[status] ?? []): Json {
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
function withCommonHeaders(extra: Json = {}): Json {
  return {
    'x-request-id': ref('headers', 'requestId'),
    'cache-control': ref('headers', 'cacheControl'),
    'x-content-type-options': ref('headers', 'contentTypeOptions'),
    'content-length': ref('headers', 'contentLength'),
    ...extra,
  };
}

function rateLimitHeaders(required: boolean): Json {
  return {
    'x-ratelimit-limit': header('rateLimitLimit', required),
    'x-ratelimit-remaining': header('rateLimitRemaining', required),
    'x-ratelimit-reset': header('rateLimitReset', required),
  };
}

/**
 * The responses of GET (or HEAD, without bodies) on an export route. Error answers are the same for every
 * route of a format and audience (keyed or public): they go to `shared` (components.responses) once, and
 * the route refers to them.
 */
function routeResponses(route: RouteDefinition, head: boolean, shared: Json): Json {
  const keyed = route.scope !== undefined;
  const errorFormat = route.format === 'fhir' ? 'fhir' : 'problem';
  // On the public directory, the x-ratelimit-* headers come only with a configured directory rate limit.
  const counted = rateLimitHeaders(keyed);
  const body = (content: Json): Json => {
    if (!head) return content;
    // HEAD: the GET headers, Content-Type included, and no body.
    return Object.fromEntries(Object.keys(content).map((type) => [type, {}]));
  };
  const success: Json =
    route.format === 'fhir'
      ? {
          [FHIR]: {
            schema: { allOf: [ref('schemas', 'FhirBundle'), { properties: { type: { const: keyed ? 'collection' : 'searchset' } } }] },
          },
        }
      : {
          [HL7]: {
            schema: {
              allOf: [
                ref('schemas', 'Hl7Message'),
                { pattern: `^MSH\\|\\^~\\\\&(\\|[^|\\r]*){6}\\|${(MESSAGE_TYPES[route.name] ?? '').replaceAll('^', '\\^')}\\|` },
              ],
            },
          },
        };
  const error = (status: number, headers: Json, description = STATUS_TEXT[status] ?? ''): Json => ({
    description,
    headers: withCommonHeaders(headers),
    content: body(errorContent(errorFormat, status)),
  });
  const responses: Json = {
    200: {
      description: ROUTE_TEXT[route.name]?.description ?? 'The export.',
      headers: withCommonHeaders({ vary: ref('headers', 'vary'), ...counted }),
      content: body(success),
    },
    400: error(400, counted),
  };
  if (keyed) {
    responses[401] = error(401, { 'www-authenticate': ref('headers', 'wwwAuthenticate') });
    responses[403] = error(403, counted);
    responses[404] = error(404, { vary: ref('headers', 'vary'), ...counted });
  }
  responses[406] = error(406, { vary: ref('headers', 'vary'), ...counted });
  responses[429] = error(
    429,
    { ...rateLimitHeaders(true), 'retry-after': ref('headers', 'retryAfter') },
    keyed ? STATUS_TEXT[429] : `${STATUS_TEXT[429]} Only when the host configures a directory rate limit (per client address).`,
  );
  const failure = { vary: header('vary', false), ...rateLimitHeaders(false) };
  const internal = error(500, failure);
  if (errorFormat === 'fhir') {
    // A failure outside the request's own error handling is answered with problem+json on every route.
    internal['content'] = body({ ...errorContent('fhir', 500), ...errorContent('problem', 500) });
    internal['description'] = `${STATUS_TEXT[500]} An OperationOutcome; problem+json for a failure the route's own error handling could not render.`;
  }
  responses[500] = internal;
  responses[503] = error(503, { ...failure, 'retry-after': header('retryAfter', false) });
  const prefix = `${route.format === 'fhir' ? 'Fhir' : 'Hl7'}${keyed ? '' : 'Public'}`;
  for (const [status, response] of Object.entries(responses)) {
    if (status === '200') continue;
    const name = `${prefix}${status}${head ? 'Head' : ''}`;
    shared[name] ??= response;
    responses[status] = ref('responses', name);
  }
  return responses;
}

function routeOperation(route: RouteDefinition, head: boolean, shared: Json): Json {
  const text = ROUTE_TEXT[route.name] ?? { summary: route.name, description: '' };
  const scope = route.scope;
  const accept = route.format === 'fhir' ? '`application/fhir+json` (also `application/json`, `application/json+fhir`)' : '`application/hl7-v2`';
  return {
    operationId: head ? `${route.name}Head` : route.name,
    tags: [route.format === 'hl7' ? 'HL7 export' : scope === undefined ? 'Public directory' : 'FHIR export'],
    summary: head ? `${text.summary}: headers only` : text.summary,
    description:
      `${text.description}${head ? ' HEAD answers with the headers of GET and no body.' : ''}\n\n` +
      `Checks, in order: API key${scope === undefined ? ' (none needed)' : ` (scope \`${scope}\`)`}, rate limit, parameters, ` +
      `\`Accept\` (${accept}; absent means any), then the data. ` +
      (scope === undefined ? '' : 'Every request with a valid key counts against its rate limit, whatever its outcome.'),
    parameters: [...route.parameters.map((p) => ref('parameters', parameterComponent(route, p))), ref('parameters', 'requestId')],
    security: scope === undefined ? [] : [{ apiKey: [scope] }],
    responses: routeResponses(route, head, shared),
  };
}

function operationalPaths(): Record<string, Json> {
  const served = {
    [SERVED_WHEN_ENABLED_EXTENSION]: true,
    tags: ['Operations'],
    security: [],
  };
  const enabled = ' Served by the chart-export command only when enabled; otherwise the path is no route (404).';
  const notEnabled = {
    description: 'Not enabled: the path is no route (`route-not-found`).',
    headers: withCommonHeaders(),
    content: errorContent('problem', 404, ['route-not-found']),
  };
  return {
    '/healthz': {
      get: {
        operationId: 'getHealth',
        summary: 'Liveness',
        description: `The process is up.${enabled}`,
        ...served,
        responses: {
          200: { description: 'Alive.', content: { [JSON_TYPE]: { schema: ref('schemas', 'Health') } } },
          404: notEnabled,
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: `Whether the service can answer exports now (its data source and key store).${enabled}`,
        ...served,
        responses: {
          200: { description: 'Ready.', content: { [JSON_TYPE]: { schema: ref('schemas', 'Readiness') } } },
          404: notEnabled,
          503: {
            description: 'Not ready; `reason` says why.',
            headers: { 'retry-after': header('retryAfter', false) },
            content: { [JSON_TYPE]: { schema: ref('schemas', 'Readiness') } },
          },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        description: `Request counts, durations, rate-limit denials and errors in the Prometheus text exposition format 0.0.4.${enabled}`,
        ...served,
        responses: {
          200: { description: 'The metrics.', content: { [PROMETHEUS]: { schema: { type: 'string' } } } },
          404: notEnabled,
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This description',
        description: `This OpenAPI document.${enabled}`,
        ...served,
        responses: {
          200: {
            description: 'The OpenAPI 3.1 document.',
            content: {
              [JSON_TYPE]: {
                schema: {
                  type: 'object',
                  required: ['openapi', 'info', 'paths'],
                  properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
                },
              },
            },
          },
          404: notEnabled,
        },
      },
    },
  };
}

/**
 * Describe the export interface as an OpenAPI 3.1 document, for `/openapi.json`, client generators and
 * API catalogues. It follows what the handler serves: each route's parameters with the limits in force, the
 * scope its API key needs (`security: [{ apiKey: [scope] }]`, the API key in `x-api-key`; the public
 * directory needs none), every status it can answer with the body format (FHIR Bundles and OperationOutcome
 * on FHIR routes, HL7 v2 text and RFC 9457 problem+json on HL7 routes) and headers (`x-request-id`,
 * `x-ratelimit-*`, `Retry-After`, `Vary`, `Allow`, …). Two extensions carry what OpenAPI has no place for:
 * `x-other-methods` on each path (405 for methods other than GET and HEAD) and `x-unmatched-path` on the
 * root (404 problem+json for any other path). The operational routes carry `x-served-when-enabled: true`.
 *
 * Give it the options the handler is created with, so paths and limits match. Each call returns a new object.
 * @param options - base path, server URL, limits, whether to list the operational routes, version
 * @returns the document, a plain JSON object
 * @throws {InvalidArgumentError} for a base path with a query or fragment, or limits the handler would refuse
 * @example
 * const document = createOpenApiDocument({ basePath: '/api/export', serverUrl: 'https://export.example.org' });
 * const body = JSON.stringify(document); // serve as application/json at /openapi.json
 * @see https://spec.openapis.org/oas/v3.1.1.html
 */
export function createOpenApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  // Each option read once.
  const { basePath: givenBasePath, serverUrl = '/', limits, operationalRoutes, version = OPENAPI_DEFAULT_VERSION } = options;
  const basePath = checkBasePath(givenBasePath);
  if (typeof serverUrl !== 'string' || serverUrl === '') throw new InvalidArgumentError('serverUrl', 'must be a non-empty string');
  if (typeof version !== 'string' || version === '') throw new InvalidArgumentError('version', 'must be a non-empty string');
  if (limits !== undefined && (typeof limits !== 'object' || limits === null)) throw new InvalidArgumentError('limits', 'must be an object');
  const parameters = buildParameters(limits);
  const paths: Record<string, Json> = {};
  const responses: Json = {};
  for (const route of EXPORT_ROUTES) {
    const errorFormat = route.format === 'fhir' ? 'fhir' : 'problem';
    paths[`${basePath}${route.path}`] = {
      get: routeOperation(route, false, responses),
      head: routeOperation(route, true, responses),
      [OTHER_METHODS_EXTENSION]: {
        description: 'Any method other than GET and HEAD.',
        responses: {
          405: {
            description: STATUS_TEXT[405] ?? '',
            // Inline, not a component: linters do not walk extensions, so a component used only here looks unused.
            headers: withCommonHeaders({ allow: { description: 'The methods served.', required: true, schema: { const: 'GET, HEAD' } } }),
            content: errorContent(errorFormat, 405),
          },
        },
      },
    };
  }
  const schemas = buildSchemas();
  const tags: Json[] = [
    { name: 'FHIR export', description: 'FHIR R4 JSON exports; errors are FHIR OperationOutcome resources. API key with scope `fhir:export`.' },
    { name: 'Public directory', description: 'Public directory records as FHIR R4 JSON; no API key.' },
    { name: 'HL7 export', description: 'HL7 v2.5.1 messages; errors are RFC 9457 problem+json. API key with scope `hl7:export`.' },
  ];
  if (operationalRoutes !== false) {
    Object.assign(paths, operationalPaths());
    schemas['Health'] = { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } };
    schemas['Readiness'] = {
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'string', enum: ['ok', 'unavailable'] },
        reason: { type: 'string', description: 'Why the service is not ready (never key material or patient data).' },
      },
    };
    tags.push({
      name: 'Operations',
      description: 'Probes, metrics and this description. Served only when enabled in the chart-export command; never by `createExportHandler`.',
    });
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'chart-export',
      version,
      summary: 'Patient chart exports as FHIR R4 JSON and HL7 v2.5.1 messages.',
      description:
        'Read-only exports of patient, encounter, note and assessment data: FHIR R4 Bundles and HL7 v2.5.1 messages, plus a ' +
        'public FHIR directory. Every patient-specific export needs an API key in `x-api-key` with the scope of its group ' +
        '(`fhir:export` or `hl7:export`); the rate limit is counted per key. Every answer carries `x-request-id`, ' +
        '`Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    tags,
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description:
            'A partner API key. The roles listed in each security requirement are the scopes the key must grant (`fhir:export`, ' +
            '`hl7:export`): without the key 401, without the scope 403.',
        },
      },
      parameters,
      headers: buildHeaders(),
      schemas,
      responses,
    },
    [UNMATCHED_PATH_EXTENSION]: {
      description: 'Any path that is not a route, with any method (an unknown path is answered before the method is checked).',
      responses: {
        404: {
          description: 'No route at this path (`route-not-found`).',
          headers: withCommonHeaders(),
          content: errorContent('problem', 404, ['route-not-found']),
        },
      },
    },
  };
}
