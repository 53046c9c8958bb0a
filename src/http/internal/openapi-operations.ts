/**
 * The operational routes in the OpenAPI description: `/healthz`, `/readyz`, `/metrics` and `/openapi.json`
 * under the base path, as `createExportHandler` serves them when its options `healthRoutes`, `metrics` and
 * `openApi` enable them (and as a 404 `route-not-found` when they do not).
 */
import {
  JSON_TYPE,
  PROMETHEUS,
  SERVED_WHEN_ENABLED_EXTENSION,
  OTHER_METHODS_EXTENSION,
  errorContent,
  otherMethods,
  ref,
  withCommonHeaders,
  type Json,
} from './openapi-common.js';

/** One operational GET, and its HEAD (the same headers, no body). */
interface OperationalSpec {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly option: string;
  readonly responses: Json;
}

/** The 404 of an operational route its option does not enable. */
function notEnabled(option: string): Json {
  return {
    description: `Not enabled (handler option \`${option}\`): the path is no route (\`route-not-found\`).`,
    headers: withCommonHeaders(),
    content: errorContent('problem', 404, ['route-not-found']),
  };
}

/** Responses of HEAD: those of GET with each media type kept and no body schema. */
function headResponses(responses: Json): Json {
  const out: Json = {};
  for (const [status, response] of Object.entries(responses)) {
    const r = response as Json;
    const content = r['content'] as Json | undefined;
    out[status] = content === undefined ? r : { ...r, content: Object.fromEntries(Object.keys(content).map((type) => [type, {}])) };
  }
  return out;
}

/** The path item of an operational route: GET, HEAD and the 405 of other methods. */
function operationalPath(spec: OperationalSpec): Json {
  const common = { [SERVED_WHEN_ENABLED_EXTENSION]: true, tags: ['Operations'], security: [] };
  const description =
    `${spec.description} Served by \`createExportHandler\` (and the chart-export command) when its option \`${spec.option}\` ` +
    'enables it, otherwise the path is no route (404). Needs no API key, is not counted against any rate limit, carries no patient data.';
  const responses: Json = { ...spec.responses, 404: notEnabled(spec.option) };
  return {
    get: { operationId: spec.operationId, summary: spec.summary, description, ...common, responses },
    head: {
      operationId: `${spec.operationId}Head`,
      summary: `${spec.summary}: headers only`,
      description: `${description} HEAD answers with the headers of GET and no body.`,
      ...common,
      responses: headResponses(responses),
    },
    [OTHER_METHODS_EXTENSION]: otherMethods('problem'),
  };
}

const OPENAPI_BODY: Json = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
};

/**
 * The operational paths under `basePath` (`''` or `/prefix`).
 * @param basePath - the normalised base path
 */
export function buildOperationalPaths(basePath: string): Record<string, Json> {
  const ok = (description: string, type: string, schema: Json): Json => ({ description, headers: withCommonHeaders(), content: { [type]: { schema } } });
  return {
    [`${basePath}/healthz`]: operationalPath({
      operationId: 'getHealth',
      summary: 'Liveness',
      description: 'The process is up. Reads nothing.',
      option: 'healthRoutes',
      responses: { 200: ok('Alive.', JSON_TYPE, ref('schemas', 'Health')) },
    }),
    [`${basePath}/readyz`]: operationalPath({
      operationId: 'getReadiness',
      summary: 'Readiness',
      description:
        'Whether the service can answer exports now: the optional `ping` of its rate limiter and of its data source, each bounded by `dataSourceTimeoutMs`. ' +
        'A rate limiter that fails open (`failsOpen: true`) and cannot reach its store leaves the service ready, listed in `degraded`: exports are still answered, without a rate limit.',
      option: 'healthRoutes',
      responses: {
        200: ok('Ready; `degraded` lists the parts that are down without stopping exports (a fail-open rate limiter).', JSON_TYPE, ref('schemas', 'Readiness')),
        503: {
          description: 'Not ready; `reason` says which part is unreachable.',
          headers: withCommonHeaders({ 'retry-after': ref('headers', 'retryAfter') }),
          content: { [JSON_TYPE]: { schema: ref('schemas', 'Readiness') } },
        },
      },
    }),
    [`${basePath}/metrics`]: operationalPath({
      operationId: 'getMetrics',
      summary: 'Prometheus metrics',
      description: 'Request counts, durations, rate-limit denials, errors and data-source timeouts in the Prometheus text exposition format 0.0.4.',
      option: 'metrics',
      responses: {
        200: ok('The metrics.', PROMETHEUS, { type: 'string' }),
        500: { description: 'The metrics object failed to render (`internal-error`).', headers: withCommonHeaders(), content: errorContent('problem', 500) },
      },
    }),
    [`${basePath}/openapi.json`]: operationalPath({
      operationId: 'getOpenApiDocument',
      summary: 'This description',
      description: 'This OpenAPI document, for the handler\'s base path and limits.',
      option: 'openApi',
      responses: { 200: ok('The OpenAPI 3.1 document.', JSON_TYPE, OPENAPI_BODY) },
    }),
  };
}

/** The schemas of the operational bodies. */
export function buildOperationalSchemas(): Json {
  return {
    Health: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } }, additionalProperties: false },
    Readiness: {
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'string', enum: ['ready', 'unavailable'] },
        reason: {
          type: 'string',
          enum: ['rate limiter unreachable', 'data source unreachable'],
          description: 'Why the service is not ready (never key material or patient data); only with `unavailable`.',
        },
        degraded: {
          type: 'array',
          minItems: 1,
          items: { type: 'string', enum: ['rate limiter unreachable: failing open'] },
          description:
            'Only with `ready`, and only when something is down: the parts that failed their check without stopping exports. `rate limiter unreachable: failing open`: the rate limiter cannot reach its store and lets requests through uncounted.',
        },
      },
      additionalProperties: false,
    },
  };
}

/** The tag of the operational routes. */
export const OPERATIONS_TAG: Json = {
  name: 'Operations',
  description: 'Probes, metrics and this description: each served by `createExportHandler` only when its option enables it.',
};
