/**
 * An OpenAPI 3.1 description of the export interface as the handler serves it: the eleven routes with their
 * parameters (and the limits in force), the scope each needs, every status each can answer with its body
 * format and headers, and the operational routes a host may add (`/healthz`, `/readyz`, `/metrics`,
 * `/openapi.json`). Plain data, built without any dependency, so a host can serve it as JSON.
 */
import { InvalidArgumentError } from '../index.js';
import type { ExportLimits } from './handler-options.js';
import {
  FHIR,
  HL7,
  OTHER_METHODS_EXTENSION,
  STATUS_TEXT,
  errorContent,
  header,
  otherMethods,
  rateLimitHeaders,
  ref,
  withCommonHeaders,
  buildHeaders,
  type Json,
  type OpenApiValue,
} from './internal/openapi-common.js';
import { OPERATIONS_TAG, buildOperationalPaths, buildOperationalSchemas } from './internal/openapi-operations.js';
import { buildParameters, checkBasePath, parameterComponent } from './internal/openapi-parameters.js';
import { buildSchemas } from './internal/openapi-schemas.js';
import { MESSAGE_TYPES, ROUTE_TEXT } from './internal/openapi-text.js';
import { EXPORT_ROUTES } from './routes/route-table.js';
import type { RouteDefinition } from './routes/route-types.js';
import { BULK_TAG, buildBulkPaths, buildBulkSchemas } from './internal/openapi-bulk.js';

export type { OpenApiValue } from './internal/openapi-common.js';

/** The OpenAPI 3.1 document: a plain JSON object (`JSON.stringify` it to serve it). */
export interface OpenApiDocument {
  /** The OpenAPI version of the document. */
  readonly openapi: '3.1.1';
  /** Title, version, summary, description and license of the service. */
  readonly info: {
    /** The service's name. */
    readonly title: string;
    /** The service's version. */
    readonly version: string;
    readonly [key: string]: OpenApiValue;
  };
  /** Where the service is reached (`serverUrl`). */
  readonly servers: readonly {
    /** Where the service is reached. */
    readonly url: string;
  }[];
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
  /** The handler's `limits`, so the defaults and maxima described are the ones in force. Default `DEFAULT_LIMITS`. */
  readonly limits?: ExportLimits | undefined;
  /** Describe the operational routes (`/healthz`, `/readyz`, `/metrics`, `/openapi.json`). Default true. */
  readonly operationalRoutes?: boolean | undefined;
  /**
   * Describe the Bulk Data routes (`/metadata`, `/$export`, `/Patient/$export`, `/bulkstatus/{jobId}`,
   * `/bulkfiles/{jobId}/{file}`), served when the handler's option `bulk` is set. Default true.
   */
  readonly bulkRoutes?: boolean | undefined;
  /** `info.version`: the version of the service (default: this package's version). */
  readonly version?: string | undefined;
}

/** The package version written as `info.version` by default (kept equal to package.json by a test). */
const OPENAPI_DEFAULT_VERSION = '0.2.0-dev';

/** Extension on the root: the answer to a path that is no route (any method). */
const UNMATCHED_PATH_EXTENSION = 'x-unmatched-path';

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

/**
 * Describe the export interface as an OpenAPI 3.1 document, for `/openapi.json`, client generators and
 * API catalogues. It follows what the handler serves: each route's parameters with the limits in force, the
 * scope its API key needs (`security: [{ apiKey: [scope] }]`, the API key in `x-api-key`; the public
 * directory needs none), every status it can answer with the body format (FHIR Bundles and OperationOutcome
 * on FHIR routes, HL7 v2 text and RFC 9457 problem+json on HL7 routes) and headers (`x-request-id`,
 * `x-ratelimit-*`, `Retry-After`, `Vary`, `Allow`, …). Two extensions carry what OpenAPI has no place for:
 * `x-other-methods` on each path (405 for methods other than GET and HEAD) and `x-unmatched-path` on the
 * root (404 problem+json for any other path). The operational routes (`/healthz`, `/readyz`, `/metrics`,
 * `/openapi.json`, under the base path like the export routes) carry `x-served-when-enabled: true`.
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
  const { basePath: givenBasePath, serverUrl = '/', limits, operationalRoutes, bulkRoutes, version = OPENAPI_DEFAULT_VERSION } = options;
  const basePath = checkBasePath(givenBasePath);
  if (typeof serverUrl !== 'string' || serverUrl === '') throw new InvalidArgumentError('serverUrl', 'must be a non-empty string');
  if (typeof version !== 'string' || version === '') throw new InvalidArgumentError('version', 'must be a non-empty string');
  if (limits !== undefined && (typeof limits !== 'object' || limits === null)) throw new InvalidArgumentError('limits', 'must be an object');
  const parameters = buildParameters(limits);
  const responses: Json = {};
  const paths = buildExportPaths(basePath, responses);
  const schemas = buildSchemas();
  const tags: Json[] = [...EXPORT_TAGS];
  if (operationalRoutes !== false) {
    Object.assign(paths, buildOperationalPaths(basePath));
    Object.assign(schemas, buildOperationalSchemas());
    tags.push(OPERATIONS_TAG);
  }
  if (bulkRoutes !== false) {
    Object.assign(paths, buildBulkPaths(basePath));
    Object.assign(schemas, buildBulkSchemas());
    tags.push(BULK_TAG);
  }
  return {
    openapi: '3.1.1',
    info: describeService(version),
    servers: [{ url: serverUrl }],
    tags,
    paths,
    components: { securitySchemes: { apiKey: API_KEY_SCHEME }, parameters, headers: buildHeaders(), schemas, responses },
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

/** The export routes under `basePath`; their shared error responses go to `responses`. */
function buildExportPaths(basePath: string, responses: Json): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const route of EXPORT_ROUTES) {
    paths[`${basePath}${route.path}`] = {
      get: routeOperation(route, false, responses),
      head: routeOperation(route, true, responses),
      [OTHER_METHODS_EXTENSION]: otherMethods(route.format === 'fhir' ? 'fhir' : 'problem'),
    };
  }
  return paths;
}

const EXPORT_TAGS: readonly Json[] = [
  { name: 'FHIR export', description: 'FHIR R4 JSON exports; errors are FHIR OperationOutcome resources. API key with scope `fhir:export`.' },
  { name: 'Public directory', description: 'Public directory records as FHIR R4 JSON; no API key.' },
  { name: 'HL7 export', description: 'HL7 v2.5.1 messages; errors are RFC 9457 problem+json. API key with scope `hl7:export`.' },
];

const API_KEY_SCHEME: Json = {
  type: 'apiKey',
  in: 'header',
  name: 'x-api-key',
  description:
    'A partner API key. The roles listed in each security requirement are the scopes the key must grant (`fhir:export`, ' +
    '`hl7:export`): without the key 401, without the scope 403.',
};

/** `info`: what the service is. */
function describeService(version: string): OpenApiDocument['info'] {
  return {
    title: 'chart-export',
    version,
    summary: 'Patient chart exports as FHIR R4 JSON and HL7 v2.5.1 messages.',
    description:
      'Read-only exports of patient, encounter, note and assessment data: FHIR R4 Bundles and HL7 v2.5.1 messages, plus a ' +
      'public FHIR directory. Every patient-specific export needs an API key in `x-api-key` with the scope of its group ' +
      '(`fhir:export` or `hl7:export`); the rate limit is counted per key. Every answer carries `x-request-id`, ' +
      '`Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.',
    license: { name: 'MIT', identifier: 'MIT' },
  };
}
