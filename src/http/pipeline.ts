/**
 * The request pipeline shared by both adapters (the fetch handler and the Node listener). A request goes
 * through these steps, top to bottom, and the first that refuses it gives the answer:
 *
 *   route (404) → method (405) → API key (401) → scope (403) → rate limit (429) → parameters (400)
 *   → Accept (406) → data (404) → render (200)
 *
 * A failure thrown on the way (data source, key store, rate limiter, builder) gives 500, or 503 for a
 * `DataSourceUnavailableError` or data reads over `dataSourceTimeoutMs`. The operational routes
 * (operational-routes.ts), when enabled, are answered before the route table is consulted. The route table (routes/route-table.ts) says, per route, which scope, which
 * parameters, which data and which renderer.
 */
import { createAccessCheck, type AccessState, type MaybePromise } from './access.js';
import { classifyFailure, safeCall } from './guards.js';
import { ClientGoneError, bindSignal, runWithDeadline, type ClientWatch } from './data-deadline.js';
import type { ChartDataSource } from './data-source.js';
import { DataSourceTimeoutError } from './errors.js';
import type { ExportHandlerOptions, HandlerSettings } from './handler-options.js';
import { resolveHandlerSettings } from './handler-settings.js';
import { acceptsFormat } from './internal/accept.js';
import { checkParameters, parseQuery, type RouteParameters } from './internal/query.js';
import {
  ERRORS,
  FHIR_CONTENT_TYPE,
  HL7_CONTENT_TYPE,
  PROBLEM_CONTENT_TYPE,
  invalidParameters,
  notFound,
  operationOutcome,
  problemDetails,
  type HttpError,
  type PreparedResponse,
} from './internal/responses.js';
import { createBulkRoutes, type BulkCall } from './bulk/bulk-routes.js';
import { createOutputReuse, type KeptTarget, type OutputReuse, type OutputReuseSwitches } from './output-reuse.js';
import { createOperationalRoutes, type OperationalRoute } from './operational-routes.js';
import { createIsoClock, createOutputWriter } from './output-writer.js';
import { settleBody, type RenderedBody, type ResponseBody } from './output/streamed-body.js';
import { resolveRequestId } from './internal/request-id.js';
import { matchRoute } from './routes/route-table.js';
import type { BulkRouteName, ObservedRouteName, OutputWriter, RecordReader, RouteDefinition } from './routes/route-types.js';

/** A request as the pipeline sees it, so the Node listener can skip building a `Request`. */
export interface IncomingCall {
  readonly method: string;
  /** WHATWG-normalised path (percent-encoded, dot segments resolved). */
  readonly pathname: string;
  /** WHATWG `search`: `''` or `?…`. */
  readonly search: string;
  /** A header by lowercase name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  readonly remoteAddress: string | undefined;
  /** Fires when the client goes away before the answer is written, when the runtime tells. */
  readonly signal?: AbortSignal | undefined;
  /** The same for the Node listener, for less than a signal costs. */
  readonly clientGone?: ClientWatch | undefined;
  /**
   * The request's origin (`https://host:port`), for the absolute links of the paged directory; `undefined` when
   * the request gives none that is valid. Read only by the routes that make links.
   */
  readonly origin?: (() => string | undefined) | undefined;
  /** Read the request body as UTF-8 text: `undefined` when it is longer than `maxBytes` (Bulk kick-off by POST). */
  readBody?(maxBytes: number): Promise<string | undefined>;
}

/** The shared core of both adapters. */
export interface ExportCore {
  handle(call: IncomingCall): Promise<PreparedResponse>;
  /**
   * The same answer, at once where no step had to wait (the in-memory stores and a kept request target), so
   * the Node listener can write it in the same turn; never throws (a failure is a rejected promise).
   */
  handleNow(call: IncomingCall): PreparedResponse | Promise<PreparedResponse>;
  /** Whether `IncomingCall.signal` / `clientGone` is of use (a data source other than the in-memory one): else an adapter may skip it. */
  readonly wantsSignal: boolean;
}

/** Where `createExportHandler` keeps its core on the returned function, for `toNodeListener`. */
export const EXPORT_CORE: unique symbol = Symbol.for('chart-export.http.core');

/** A step's answer: the body of a 200, or the error to render. */
type PreparedBody = { readonly body: ResponseBody } | HttpError;
/** The route's answer: its body as the renderer gives it (maybe in chunks), or the error to render. */
type Rendered = { readonly body: RenderedBody } | HttpError;

/**
 * A body in chunks read until it is large enough to stream (output/streamed-body.ts); a whole text (every
 * small body) at once. A failure before then rejects (answered as any other failure); one after the first
 * byte ends the connection and goes to `onError`, as a builder's.
 */
function settleRendered(result: Rendered, { onError }: HandlerSettings, requestId: string, route: RouteDefinition): MaybePromise<PreparedBody> {
  if (!('body' in result) || typeof result.body === 'string') return result as PreparedBody;
  const report = (error: unknown): void => safeCall(onError, error, { requestId, route: route.name, source: 'builder' });
  return settleBody(result.body, report).then((body) => ({ body }));
}

const ALLOW = 'GET, HEAD';


/** `instanceof`, false for a thrown value whose prototype cannot be read (a Proxy that throws on every trap). */
function isInstance(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** The answer of a step: a 200 in the route's format, or the error as OperationOutcome (FHIR) or problem+json. */
function render(route: RouteDefinition | undefined, result: PreparedBody, requestId: string, headers: Record<string, string>): PreparedResponse {
  if ('body' in result) {
    headers['content-type'] = route?.format === 'hl7' ? HL7_CONTENT_TYPE : FHIR_CONTENT_TYPE;
    return { status: 200, headers, body: result.body };
  }
  if (route?.format === 'fhir') {
    headers['content-type'] = FHIR_CONTENT_TYPE;
    return { status: result.status, headers, body: operationOutcome(result, requestId) };
  }
  headers['content-type'] = PROBLEM_CONTENT_TYPE;
  return { status: result.status, headers, body: problemDetails(result, requestId) };
}

/** The query read and checked against the route's parameters, or the 400 to answer. */
function readParameters(settings: HandlerSettings, route: RouteDefinition, search: string): RouteParameters | HttpError {
  const query = parseQuery(search);
  if (query === undefined) return ERRORS.malformedQuery;
  const checked = checkParameters(route, query, (name) => settings.limits[route.limits[name] as keyof HandlerSettings['limits']]);
  return Array.isArray(checked) ? invalidParameters(checked) : checked;
}

/** Render (200) from what a kept request target read: no data read, no wait. */
function renderKept(route: RouteDefinition, kept: KeptTarget, writer: OutputWriter, state: AccessState): Rendered {
  state.stage = 'builder';
  return { body: route.renderAgain(kept.data, writer) };
}

/** Data (404) and render (200): over a host's source, with the deadline and the request's signal. */
function serveData(
  settings: HandlerSettings,
  output: OutputReuse,
  call: IncomingCall,
  route: RouteDefinition,
  parameters: RecordReader['parameters'],
  writer: OutputWriter,
  state: AccessState,
): Promise<Rendered> {
  state.stage = 'data_source';
  // Data read with the request's own base URL (the directory's links) depends on more than the query string.
  let readRequestBase = false;
  const rendering = (data: unknown): void => {
    state.stage = 'builder';
    // Over the in-memory source (else a no-op): later requests for this target render from what was read.
    if (!readRequestBase) output.keepTarget(route.name, call.search, { parameters, data });
  };
  const serve = (dataSource: ChartDataSource): Promise<Rendered> => {
    const reader: RecordReader = {
      dataSource,
      parameters,
      serviceBase: () => {
        readRequestBase = true;
        return serviceBase(settings, call);
      },
      directoryFor: (record, other, records) => output.directoryFor(dataSource, record, other, records),
    };
    return route.serve(reader, writer, rendering);
  };
  // The in-memory source answers at once and has no use for a signal.
  if (settings.frozenSource) return serve(settings.dataSource);
  return runWithDeadline((signal) => serve(bindSignal(settings.dataSource, signal)), settings.dataSourceTimeoutMs, call.signal ?? call.clientGone);
}

/** The service base URL of this request (`fhir.baseUrl`, else its origin and the base path), for absolute links. */
function serviceBase(settings: HandlerSettings, call: IncomingCall): string | undefined {
  const configured = settings.fhir.baseUrl;
  if (configured !== undefined) return configured.replace(/\/+$/, '');
  const origin = call.origin?.();
  return origin === undefined ? undefined : `${origin}${settings.basePath}`;
}

/** An operational route: GET and HEAD only, no key, not counted, not observed. */
async function answerOperational(
  call: IncomingCall,
  serve: OperationalRoute,
  requestId: string,
  headers: Record<string, string>,
  onError: HandlerSettings['onError'],
): Promise<PreparedResponse> {
  if (call.method !== 'GET' && call.method !== 'HEAD') {
    headers['allow'] = ALLOW;
    return render(undefined, ERRORS.methodNotAllowed, requestId, headers);
  }
  try {
    const answered = await serve(requestId);
    headers['content-type'] = answered.contentType;
    if (answered.retryAfter !== undefined) headers['retry-after'] = String(answered.retryAfter);
    return { status: answered.status, headers, body: answered.body };
  } catch (error) {
    // Only a host's metrics object can fail here (its render).
    safeCall(onError, error, { requestId, route: undefined, source: 'unknown' });
    return render(undefined, ERRORS.internal, requestId, headers);
  }
}

/** The arguments of a step: the call, its route, request id, response headers and access state. */
type StepArgs = [call: IncomingCall, route: RouteDefinition, requestId: string, headers: Record<string, string>, state: AccessState];

/** What the steps after the access check use of their core. */
interface CoreParts {
  readonly settings: HandlerSettings;
  readonly output: OutputReuse;
  readonly isoNow: () => string;
}

/** Steps 6 to 8, once access is granted: parameters, Accept, data and render. */
function readAndRender(
  { settings, output, isoNow }: CoreParts,
  call: IncomingCall,
  route: RouteDefinition,
  requestId: string,
  headers: Record<string, string>,
  state: AccessState,
): MaybePromise<Rendered> {
  // Parameters (400): a request target read before (over the in-memory source) passed this check then.
  const kept = output.keptTarget(route.name, call.search);
  const parameters = kept === undefined ? readParameters(settings, route, call.search) : kept.parameters;
  if ('status' in parameters) return parameters;
  // Accept (406): after the parameter check and before any data is read, so a refused representation costs
  // no read and says nothing about which records exist. From here on the answer depends on Accept (RFC 9110 12.5.5).
  headers['vary'] = 'Accept';
  if (!acceptsFormat(call.header('accept'), route.format)) return ERRORS.notAcceptable[route.format];
  // Data (404) and render (200)
  const writer = createOutputWriter(settings, output, isoNow, route.name, requestId);
  return kept === undefined ? serveData(settings, output, call, route, parameters, writer, state) : renderKept(route, kept, writer, state);
}

/** The answer to a failure thrown on the way (404, 503 or 500), reported to the host's hooks where it is one of theirs. */
function failureAnswer(
  { onError, metrics }: HandlerSettings,
  error: unknown,
  requestId: string,
  route: RouteDefinition,
  headers: Record<string, string>,
  state: AccessState,
): PreparedBody {
  // Nobody reads the answer, and it is no failure of the host's services: not reported.
  if (isInstance(error, ClientGoneError)) return ERRORS.unavailable;
  const failure = classifyFailure(error);
  if (failure.kind === 'not-found') return notFound(failure.recordType);
  if (metrics !== undefined && isInstance(error, DataSourceTimeoutError)) safeCall(() => metrics.recordDataSourceTimeout());
  safeCall(onError, error, { requestId, route: route.name, source: state.stage });
  if (failure.kind === 'internal') return ERRORS.internal;
  if (failure.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
  return ERRORS.unavailable;
}

/** The answer, told to the host's observer when there is one (never with patient data or keys). */
function observed(
  observer: HandlerSettings['observer'],
  call: IncomingCall,
  route: ObservedRouteName | undefined,
  requestId: string,
  prepared: PreparedResponse,
  started: number,
  state: AccessState,
): PreparedResponse {
  if (observer === undefined) return prepared;
  safeCall(observer, { requestId, route, method: call.method, status: prepared.status, durationMs: performance.now() - started, partnerId: state.partnerId });
  return prepared;
}

/**
 * A failure thrown by a Bulk Data request (src/http/bulk/: key store, rate limiter, job or output store): 503 or
 * 500, as an OperationOutcome, reported to `onError`.
 */
function bulkFailure(
  onError: HandlerSettings['onError'],
  error: unknown,
  route: BulkRouteName,
  requestId: string,
  headers: Record<string, string>,
  state: AccessState,
): PreparedResponse {
  safeCall(onError, error, { requestId, route, source: state.stage });
  const failure = classifyFailure(error);
  let refusal: HttpError = ERRORS.internal;
  if (failure.kind === 'unavailable') {
    refusal = ERRORS.unavailable;
    if (failure.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
  }
  headers['content-type'] = FHIR_CONTENT_TYPE;
  return { status: refusal.status, headers, body: operationOutcome(refusal, requestId) };
}

// The continuations of a request that waits live in functions of their own (readAfter, renderLater, answerLater,
// finishLater, bulkAnswer): a closure inside a step would make every request allocate the step's context, waiting or not.

function readAfter(parts: CoreParts, refused: Promise<HttpError | undefined>, ...[call, route, requestId, headers, state]: StepArgs): Promise<Rendered> {
  return refused.then((r) => r ?? readAndRender(parts, call, route, requestId, headers, state));
}

function answerLater(settings: HandlerSettings, body: Promise<PreparedBody>, ...[, route, requestId, headers, state]: StepArgs): Promise<PreparedBody> {
  return body.catch((error: unknown) => failureAnswer(settings, error, requestId, route, headers, state));
}

function renderLater(settings: HandlerSettings, rendered: Promise<Rendered>, ...args: StepArgs): Promise<PreparedBody> {
  const [, route, requestId] = args;
  return answerLater(settings, rendered.then((r) => settleRendered(r, settings, requestId, route)), ...args);
}

type LaterArgs = [requestId: string, headers: Record<string, string>, state: AccessState, started: number];

function finishLater(observer: HandlerSettings['observer'], result: Promise<PreparedBody>, call: IncomingCall, route: RouteDefinition | undefined, ...[requestId, headers, state, started]: LaterArgs): Promise<PreparedResponse> {
  return result.then((body) => observed(observer, call, route?.name, requestId, render(route, body, requestId, headers), started, state));
}

function bulkAnswer({ onError, observer }: HandlerSettings, { route, answer }: BulkCall, call: IncomingCall, ...[requestId, headers, state, started]: LaterArgs): Promise<PreparedResponse> {
  return answer
    .catch((error: unknown) => bulkFailure(onError, error, route, requestId, headers, state))
    .then((prepared) => observed(observer, call, route, requestId, prepared, started, state));
}

/**
 * Build the adapter-independent pipeline. Internal: `createExportHandler` and `toNodeListener` wrap it.
 * @param options - the handler options, checked here
 * @param reuse - which output reuses are on (tests and the benchmark switch them off)
 * @internal
 */
export function createExportCore(options: ExportHandlerOptions, reuse?: OutputReuseSwitches): ExportCore {
  const settings: HandlerSettings = resolveHandlerSettings(options);
  const { observer, onError, frozenSource } = settings;
  const output = createOutputReuse(frozenSource ? 'frozen' : settings.stableRecords ? 'stable' : 'none', reuse);
  const checkAccess = createAccessCheck(settings);
  const operational = createOperationalRoutes(settings);
  const parts: CoreParts = { settings, output, isoNow: createIsoClock(settings.now) };
  const bulk = createBulkRoutes(options.bulk, options.dataSource, settings, checkAccess);

  /**
   * Steps 2 to 8, from the method to the body: at once where every step answers at once (the in-memory key
   * store, limiter and a kept request target), else a promise. It may throw: {@link answer} catches it.
   */
  function runSteps(call: IncomingCall, route: RouteDefinition, requestId: string, headers: Record<string, string>, state: AccessState): MaybePromise<Rendered> {
    // Method (405)
    if (call.method !== 'GET' && call.method !== 'HEAD') {
      headers['allow'] = ALLOW;
      return ERRORS.methodNotAllowed;
    }
    // API key (401), scope (403), rate limit (429)
    const refused = checkAccess(call, route, headers, state);
    if (refused instanceof Promise) return readAfter(parts, refused, call, route, requestId, headers, state);
    return refused ?? readAndRender(parts, call, route, requestId, headers, state);
  }

  /** Steps 2 to 8, with a failure thrown on the way turned into its answer (404, 503 or 500). */
  function answer(call: IncomingCall, route: RouteDefinition, requestId: string, headers: Record<string, string>, state: AccessState): MaybePromise<PreparedBody> {
    try {
      const result = runSteps(call, route, requestId, headers, state);
      if (result instanceof Promise) return renderLater(settings, result, call, route, requestId, headers, state);
      const settled = settleRendered(result, settings, requestId, route);
      return settled instanceof Promise ? answerLater(settings, settled, call, route, requestId, headers, state) : settled;
    } catch (error) {
      return failureAnswer(settings, error, requestId, route, headers, state);
    }
  }

  function handleNow(call: IncomingCall): MaybePromise<PreparedResponse> {
    try {
      // The clock is read only for an observer, the one reader of the duration.
      const started = observer === undefined ? 0 : performance.now();
      const requestId = resolveRequestId(call.header('x-request-id'), settings.requestId);
      const headers: Record<string, string> = {
        'x-request-id': requestId,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      };
      const operationalRoute = operational.size === 0 ? undefined : operational.get(call.pathname);
      if (operationalRoute !== undefined) return answerOperational(call, operationalRoute, requestId, headers, onError);
      const state: AccessState = { partnerId: undefined, stage: 'unknown' };
      // Bulk Data routes (src/http/bulk/), when the option is set: answered before the route table.
      const bulkCall = bulk?.handle(call, requestId, headers, state);
      if (bulkCall !== undefined) return bulkAnswer(settings, bulkCall, call, requestId, headers, state, started);
      // Route (404)
      const route = matchRoute(call.pathname, settings.basePath);
      const result = route === undefined ? ERRORS.routeNotFound : answer(call, route, requestId, headers, state);
      if (result instanceof Promise) return finishLater(observer, result, call, route, requestId, headers, state, started);
      return observed(observer, call, route?.name, requestId, render(route, result, requestId, headers), started, state);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  return {
    handle: (call) => Promise.resolve(handleNow(call)),
    handleNow,
    wantsSignal: !frozenSource,
  };
}
