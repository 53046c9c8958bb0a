/**
 * The Bulk Data routes in the OpenAPI description (src/http/bulk/): kick-off, status, files and the
 * CapabilityStatement, as `createExportHandler` serves them when its option `bulk` is set (and as a 404
 * `route-not-found` when it is not).
 */
import {
  FHIR,
  JSON_TYPE,
  SERVED_WHEN_ENABLED_EXTENSION,
  OTHER_METHODS_EXTENSION,
  STATUS_TEXT,
  errorContent,
  header,
  rateLimitHeaders,
  ref,
  withCommonHeaders,
  type Json,
} from './openapi-common.js';

const NDJSON = 'application/fhir+ndjson';
const TAG = 'Bulk Data';

/** The tag of the Bulk Data routes. */
export const BULK_TAG: Json = {
  name: TAG,
  description:
    'FHIR Bulk Data export (Bulk Data Access IG STU2, v2.0.0): kick-off, status polling, NDJSON files, and the CapabilityStatement. ' +
    'Served by `createExportHandler` when its option `bulk` is set (the chart-export command sets it). See docs/bulk-export.md.',
};

const notEnabled: Json = {
  description: 'Bulk Data is not enabled (handler option `bulk`): the path is no route (`route-not-found`).',
  headers: withCommonHeaders(),
  content: errorContent('problem', 404, ['route-not-found']),
};

/** An error of a keyed Bulk request, an OperationOutcome with the common headers and the rate-limit headers when counted. */
function keyedError(status: number, codes: readonly string[], description: string, extra: Json = {}): Json {
  return { description, headers: withCommonHeaders({ ...rateLimitHeaders(false), ...extra }), content: errorContent('fhir', status, codes) };
}

/** The errors every keyed Bulk request may get. */
function keyedErrors(): Json {
  return {
    401: {
      description: `${STATUS_TEXT[401] ?? ''} Bulk requests also take the key as \`Authorization: Bearer <key>\`; both headers with different keys is \`api-key-invalid\`.`,
      headers: withCommonHeaders({ 'www-authenticate': ref('headers', 'wwwAuthenticate') }),
      content: errorContent('fhir', 401),
    },
    403: keyedError(403, ['scope-missing'], 'The API key does not grant `fhir:export` (`scope-missing`).'),
    429: keyedError(429, ['rate-limited'], 'The key\'s rate limit is exhausted, or (kick-off) the key has as many running exports as allowed, or (status) the status was asked sooner than `Retry-After` said (`rate-limited`).', {
      'retry-after': ref('headers', 'retryAfter'),
    }),
    500: keyedError(500, ['internal-error'], 'Internal error (`internal-error`): a failing key store, rate limiter, job store or output store; on a status URL, an export that failed. Nothing internal is sent.'),
    503: keyedError(503, ['unavailable'], 'A store is temporarily unavailable, or (status) the export stopped because the chart data was unavailable (`unavailable`).', {
      'retry-after': header('retryAfter', false),
    }),
  };
}

const JOB_ID: Json = { name: 'jobId', in: 'path', required: true, description: 'The export job (from `Content-Location`).', schema: { type: 'string' } };
const FILE: Json = { name: 'file', in: 'path', required: true, description: 'The file name (from the manifest), e.g. `Patient-1.ndjson`.', schema: { type: 'string', pattern: '^[A-Za-z]+-[1-9][0-9]*\\.ndjson$' } };

const KICK_OFF_PARAMETERS: Json[] = [
  { name: '_outputFormat', in: 'query', required: false, description: '`application/fhir+ndjson` (default), `application/ndjson` or `ndjson`: all give `application/fhir+ndjson`.', schema: { type: 'string' } },
  { name: '_since', in: 'query', required: false, description: 'A FHIR instant: only resources whose `meta.lastUpdated` is later, and every resource without one (records without `lastUpdated`, directory records, Coverages, Questionnaires).', schema: { type: 'string' } },
  { name: '_type', in: 'query', required: false, description: 'Comma-separated resource types to export (default: all). An unknown type is refused unless `Prefer: handling=lenient`.', schema: { type: 'string' } },
  { name: 'Prefer', in: 'header', required: true, description: '`respond-async` (required); `handling=lenient` ignores unsupported parameters and types instead of refusing them.', schema: { type: 'string' } },
];

const ACCEPTED_BODY: Json = {
  type: 'object',
  required: ['resourceType', 'issue'],
  properties: { resourceType: { const: 'OperationOutcome' }, issue: { type: 'array', items: { type: 'object', properties: { severity: { const: 'information' } } } } },
};

function kickOffOperation(operationId: string, summary: string, scope: string, post: boolean): Json {
  const responses: Json = {
    202: {
      description: 'The export started; poll the absolute URL in `Content-Location`.',
      headers: withCommonHeaders({ ...rateLimitHeaders(true), 'content-location': { description: 'The absolute status URL of the job.', required: true, schema: { type: 'string', format: 'uri' } } }),
      content: { [FHIR]: { schema: ACCEPTED_BODY } },
    },
    400: keyedError(400, ['invalid-parameters'], 'A parameter is malformed or not supported (unless `Prefer: handling=lenient`), `Prefer: respond-async` is missing, or the POST body is not a `Parameters` resource (`invalid-parameters`).'),
    404: notEnabled,
    406: keyedError(406, ['not-acceptable'], 'The `Accept` header refuses `application/fhir+json` (`not-acceptable`).'),
    501: keyedError(501, ['not-supported'], 'The data source has no `listPatients`, so it cannot feed a population export (`not-supported`).'),
    ...keyedErrors(),
  };
  if (post) responses['413'] = keyedError(413, ['invalid-parameters'], 'The body is larger than 64 KiB (`invalid-parameters`).');
  const body = post
    ? { requestBody: { required: false, description: 'A FHIR `Parameters` resource with `_type`, `_since`, `_outputFormat` (valueString, valueInstant…).', content: { [FHIR]: { schema: { type: 'object' } }, [JSON_TYPE]: { schema: { type: 'object' } } } } }
    : {};
  return {
    operationId,
    summary,
    description: `${scope} Bulk Data kick-off (IG STU2): needs \`Prefer: respond-async\`; starts an export job and answers 202 with its status URL. Counted against the key's rate limit.`,
    tags: [TAG],
    [SERVED_WHEN_ENABLED_EXTENSION]: true,
    security: [{ apiKey: ['fhir:export'] }],
    parameters: KICK_OFF_PARAMETERS,
    ...body,
    responses,
  };
}

function otherMethods(allow: string): Json {
  return {
    description: `Any method other than ${allow}.`,
    responses: {
      405: {
        description: 'The method is not served on this path (`method-not-allowed`).',
        headers: withCommonHeaders({ allow: { description: 'The methods served.', required: true, schema: { const: allow } } }),
        content: errorContent('fhir', 405),
      },
      404: notEnabled,
    },
  };
}

const groupNotOffered: Json = {
  description: 'Group-level export is not offered: the chart model has no groups (`route-not-found`, an OperationOutcome when Bulk Data is enabled).',
  headers: withCommonHeaders(),
  content: { ...errorContent('fhir', 404, ['route-not-found']), ...errorContent('problem', 404, ['route-not-found']) },
};

const MANIFEST: Json = {
  type: 'object',
  required: ['transactionTime', 'request', 'requiresAccessToken', 'output', 'error'],
  properties: {
    transactionTime: { type: 'string', description: 'When the export started reading the data (FHIR instant).' },
    request: { type: 'string', description: 'The kick-off URL.' },
    requiresAccessToken: { const: true },
    output: { type: 'array', items: { $ref: '#/components/schemas/BulkFile' } },
    error: { type: 'array', description: 'OperationOutcome files (always present, empty when nothing failed).', items: { $ref: '#/components/schemas/BulkFile' } },
  },
};

/** The schemas of the Bulk bodies (components.schemas). */
export function buildBulkSchemas(): Json {
  return {
    BulkFile: {
      type: 'object',
      required: ['type', 'url', 'count'],
      properties: { type: { type: 'string' }, url: { type: 'string', format: 'uri' }, count: { type: 'integer', minimum: 1, description: 'The exact number of lines (resources) in the file.' } },
    },
    BulkManifest: MANIFEST,
  };
}

/**
 * The Bulk paths under `basePath` (`''` or `/prefix`).
 * @param basePath - the normalised base path
 */
export function buildBulkPaths(basePath: string): Record<string, Json> {
  const common = { tags: [TAG], [SERVED_WHEN_ENABLED_EXTENSION]: true };
  const keyed = { ...common, security: [{ apiKey: ['fhir:export'] }] };
  const metadataOk: Json = {
    description: 'The CapabilityStatement (FHIR R4): the export routes and the `export` operations.',
    headers: withCommonHeaders(),
    content: { [FHIR]: { schema: { type: 'object', required: ['resourceType'], properties: { resourceType: { const: 'CapabilityStatement' } } } } },
  };
  const fileOk = (head: boolean): Json => ({
    description:
      'The NDJSON file, one FHIR resource per line: a large file streamed as it is read (no `Content-Length`), a small one whole; compressed when `Accept-Encoding` asks for it.',
    headers: withCommonHeaders({
      expires: { description: 'When the file expires (HTTP-date).', required: true, schema: { type: 'string' } },
      ...rateLimitHeaders(true),
    }),
    content: { [NDJSON]: head ? {} : { schema: { type: 'string' } } },
  });
  const fileErrors: Json = { 404: keyedError(404, ['not-found', 'route-not-found'], 'No such file for this key: unknown, cancelled or expired job, or Bulk Data not enabled.'), ...keyedErrors() };
  return {
    [`${basePath}/metadata`]: {
      get: { operationId: 'getCapabilityStatement', summary: 'CapabilityStatement', description: 'The FHIR CapabilityStatement, for Bulk Data clients and test kits. Needs no key, is not counted.', ...common, security: [], responses: { 200: metadataOk, 404: notEnabled } },
      head: { operationId: 'getCapabilityStatementHead', summary: 'CapabilityStatement: headers only', description: 'HEAD of `GET /metadata`.', ...common, security: [], responses: { 200: { ...metadataOk, content: { [FHIR]: {} } }, 404: notEnabled } },
      [OTHER_METHODS_EXTENSION]: otherMethods('GET, HEAD'),
    },
    [`${basePath}/$export`]: {
      get: kickOffOperation('bulkExportSystem', 'System-level Bulk export', 'Every patient\'s resources and every directory record (also those no chart refers to).', false),
      post: kickOffOperation('bulkExportSystemPost', 'System-level Bulk export (POST Parameters)', 'Every patient\'s resources and every directory record.', true),
      [OTHER_METHODS_EXTENSION]: otherMethods('GET, POST'),
    },
    [`${basePath}/Patient/$export`]: {
      get: kickOffOperation('bulkExportPatients', 'Patient-level Bulk export', 'Every patient\'s resources and the directory records they refer to.', false),
      post: kickOffOperation('bulkExportPatientsPost', 'Patient-level Bulk export (POST Parameters)', 'Every patient\'s resources and the directory records they refer to.', true),
      [OTHER_METHODS_EXTENSION]: otherMethods('GET, POST'),
    },
    [`${basePath}/Group/{groupId}/$export`]: {
      // No operation: every method answers 404 (an OperationOutcome saying why, when Bulk Data is enabled).
      [OTHER_METHODS_EXTENSION]: { description: 'Group-level export is not offered, with any method: the chart model has no groups. Use `/$export` or `/Patient/$export`.', responses: { 404: groupNotOffered } },
    },
    [`${basePath}/bulkstatus/{jobId}`]: {
      get: {
        operationId: 'bulkStatus',
        summary: 'Bulk export status',
        description: 'While running: 202 with `X-Progress` and `Retry-After`. Done: 200 with the manifest. Failed: the OperationOutcome with its status. Only the key that started the job sees it (any other: 404).',
        ...keyed,
        parameters: [JOB_ID],
        responses: {
          200: { description: 'The manifest.', headers: withCommonHeaders({ ...rateLimitHeaders(true), expires: { description: 'When the job and its files expire (HTTP-date).', required: true, schema: { type: 'string' } } }), content: { [JSON_TYPE]: { schema: ref('schemas', 'BulkManifest') } } },
          202: {
            description: 'Still running.',
            headers: withCommonHeaders({ ...rateLimitHeaders(true), 'x-progress': { description: 'How far the export is.', required: true, schema: { type: 'string' } }, 'retry-after': ref('headers', 'retryAfter') }),
          },
          404: keyedError(404, ['not-found', 'route-not-found'], 'No such job for this key: never started, cancelled, expired, or Bulk Data not enabled.'),
          ...keyedErrors(),
        },
      },
      delete: {
        operationId: 'bulkCancel',
        summary: 'Cancel a Bulk export',
        description: 'Cancels the job and deletes its files: 202, then its status URL answers 404.',
        ...keyed,
        parameters: [JOB_ID],
        responses: { 202: { description: 'Cancelled.', headers: withCommonHeaders(rateLimitHeaders(true)) }, 404: keyedError(404, ['not-found', 'route-not-found'], 'No such job for this key.'), ...keyedErrors() },
      },
      [OTHER_METHODS_EXTENSION]: otherMethods('GET, DELETE'),
    },
    [`${basePath}/bulkfiles/{jobId}/{file}`]: {
      get: { operationId: 'bulkFile', summary: 'A Bulk export file', description: 'An NDJSON file of a finished job (`application/fhir+ndjson`), streamed.', ...keyed, parameters: [JOB_ID, FILE], responses: { 200: fileOk(false), ...fileErrors } },
      head: { operationId: 'bulkFileHead', summary: 'A Bulk export file: headers only', description: 'HEAD of a file.', ...keyed, parameters: [JOB_ID, FILE], responses: { 200: fileOk(true), ...fileErrors } },
      [OTHER_METHODS_EXTENSION]: otherMethods('GET, HEAD'),
    },
  };
}
