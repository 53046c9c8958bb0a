/**
 * Response rendering: the content types, the common headers, and the two error formats (a FHIR
 * OperationOutcome on FHIR routes and the directory; RFC 9457 problem+json on HL7 routes and unknown paths).
 * Error bodies carry the request id and a fixed sentence; never a stack, an internal message, key material
 * or a parameter value.
 */
import type { ResponseBody } from '../output/streamed-body.js';
import type { ParameterProblem } from './query.js';

/** A response ready to be written by either adapter. Header names are lowercase. */
export interface PreparedResponse {
  status: number;
  headers: Record<string, string>;
  /** The body (the whole text, or a stream: output/streamed-body.ts); sent for GET, dropped (with the same headers) for HEAD. */
  body: ResponseBody;
}

export const FHIR_CONTENT_TYPE = 'application/fhir+json; charset=utf-8';
export const HL7_CONTENT_TYPE = 'application/hl7-v2; charset=utf-8';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Machine-readable error codes, in problem+json `code` and the OperationOutcome `details.coding`. */
export type ErrorCode =
  | 'route-not-found'
  | 'method-not-allowed'
  | 'api-key-missing'
  | 'api-key-invalid'
  | 'scope-missing'
  | 'rate-limited'
  | 'invalid-parameters'
  | 'not-acceptable'
  | 'not-found'
  | 'internal-error'
  | 'unavailable'
  | 'not-supported';

/** An error to render. */
export interface HttpError {
  readonly status: number;
  readonly code: ErrorCode;
  readonly detail: string;
  readonly parameterProblems?: readonly ParameterProblem[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** FHIR `IssueType` of each error. */
const ISSUE_TYPES: Record<ErrorCode, string> = {
  'route-not-found': 'not-found',
  'method-not-allowed': 'not-supported',
  'api-key-missing': 'login',
  'api-key-invalid': 'login',
  'scope-missing': 'forbidden',
  'rate-limited': 'throttled',
  'invalid-parameters': 'invalid',
  'not-acceptable': 'not-supported',
  'not-found': 'not-found',
  'internal-error': 'exception',
  unavailable: 'transient',
  'not-supported': 'not-supported',
};

/** The code system of `OperationOutcome.issue.details.coding` for the adapter's error codes. */
export const ERROR_CODE_SYSTEM = 'urn:chart-export:http-error';

/**
 * Render an error as a FHIR R4 OperationOutcome: one issue per refused parameter, else one issue.
 * @see https://hl7.org/fhir/R4/operationoutcome.html
 */
export function operationOutcome(error: HttpError, requestId: string): string {
  const diagnostics = `request id: ${requestId}`;
  const coding = [{ system: ERROR_CODE_SYSTEM, code: error.code }];
  const issue =
    error.parameterProblems !== undefined && error.parameterProblems.length > 0
      ? error.parameterProblems.map((p) => ({
          severity: 'error',
          code: p.reason === 'missing' || p.reason === 'empty' ? 'required' : 'value',
          details: { coding, text: p.message },
          diagnostics,
        }))
      : [{ severity: 'error', code: ISSUE_TYPES[error.code], details: { coding, text: error.detail }, diagnostics }];
  return JSON.stringify({ resourceType: 'OperationOutcome', issue });
}

/**
 * Render an error as RFC 9457 problem details, with the extension members `code`, `requestId` and, for
 * refused parameters, `invalidParams` ({ name, reason }).
 * @see https://www.rfc-editor.org/rfc/rfc9457
 */
export function problemDetails(error: HttpError, requestId: string): string {
  const body: Record<string, unknown> = {
    type: 'about:blank',
    title: TITLES[error.status] ?? 'Error',
    status: error.status,
    detail: error.detail,
    code: error.code,
    requestId,
  };
  if (error.parameterProblems !== undefined && error.parameterProblems.length > 0) {
    body['invalidParams'] = error.parameterProblems.map((p) => ({ name: p.name, reason: p.reason, detail: p.message }));
  }
  return JSON.stringify(body);
}

/** Fixed error sentences. */
export const ERRORS = {
  routeNotFound: { status: 404, code: 'route-not-found', detail: 'No export route at this path.' },
  methodNotAllowed: { status: 405, code: 'method-not-allowed', detail: 'Only GET and HEAD are allowed on this route.' },
  keyMissing: { status: 401, code: 'api-key-missing', detail: 'An API key is required in the x-api-key header.' },
  keyInvalid: { status: 401, code: 'api-key-invalid', detail: 'The API key is not valid.' },
  notAcceptable: {
    fhir: { status: 406, code: 'not-acceptable', detail: 'This route serves application/fhir+json only.' },
    hl7: { status: 406, code: 'not-acceptable', detail: 'This route serves application/hl7-v2 only.' },
  },
  rateLimited: { status: 429, code: 'rate-limited', detail: 'The rate limit of this client is exhausted; retry after the time in Retry-After.' },
  malformedQuery: {
    status: 400,
    code: 'invalid-parameters',
    detail: 'The query string is not valid: a percent-escape is malformed or does not decode to UTF-8.',
  },
  internal: { status: 500, code: 'internal-error', detail: 'The export failed because of an internal error.' },
  unavailable: { status: 503, code: 'unavailable', detail: 'The chart data is temporarily unavailable; retry later.' },
} as const satisfies Record<string, HttpError | Record<string, HttpError>>;

/** The 403 sentence for a scope. */
export function scopeMissing(scope: string): HttpError {
  return { status: 403, code: 'scope-missing', detail: `The API key does not grant the ${scope} scope this route needs.` };
}

/** The 404 sentence for a record kind. */
export function notFound(kind: 'patient' | 'encounter' | 'note' | 'assessment'): HttpError {
  return { status: 404, code: 'not-found', detail: `The requested ${kind} was not found.` };
}

/** The 400 for refused parameters. */
export function invalidParameters(problems: readonly ParameterProblem[]): HttpError {
  return {
    status: 400,
    code: 'invalid-parameters',
    detail: problems.map((p) => p.message).join(' '),
    parameterProblems: problems,
  };
}

/** Valid caller-supplied request ids: 1–128 characters of `[A-Za-z0-9._:-]` (any other value is replaced by a new id). */
export const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The answer when nothing else can answer (a failure outside the request's own error handling): a `500`
 * problem+json with a new request id and the common headers. Both adapters use it.
 */
export function lastResortResponse(): PreparedResponse {
  const requestId = globalThis.crypto.randomUUID();
  return {
    status: 500,
    headers: {
      'x-request-id': requestId,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-type': PROBLEM_CONTENT_TYPE,
    },
    body: problemDetails(ERRORS.internal, requestId),
  };
}
