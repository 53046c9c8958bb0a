/**
 * The Bulk Data requests: kick-off, status (and cancel), file, each after the pipeline's access check (key,
 * scope `fhir:export`, rate limit), with the key also taken as `Authorization: Bearer <key>`.
 * @see https://hl7.org/fhir/uv/bulkdata/STU2/export.html
 */
import { streamFhirNdjson, type Patient } from '../../index.js';
import type { AccessCheck, AccessState } from '../access.js';
import type { KeysetPage } from '../data-source.js';
import { safeCall } from '../guards.js';
import { settleBody } from '../output/streamed-body.js';
import type { HandlerSettings } from '../handler-options.js';
import { acceptsFormat } from '../internal/accept.js';
import { parseQuery } from '../internal/query.js';
import { ERRORS, FHIR_CONTENT_TYPE, invalidParameters, operationOutcome, type HttpError, type PreparedResponse } from '../internal/responses.js';
import type { IncomingCall } from '../pipeline.js';
import type { RouteDefinition } from '../routes/route-types.js';
import type { BulkJobRecord, BulkJobStore } from './job-store.js';
import { MAX_KICK_OFF_BODY_BYTES, checkKickOff, readParametersBody, readPrefer } from './kick-off.js';
import type { BulkOutputStore } from './output-store.js';
import { runBulkJob, type BulkRunnerContext } from './runner.js';

/** What the Bulk requests of one handler share. */
export interface BulkContext {
  readonly basePath: string;
  readonly now: () => number;
  readonly onError: HandlerSettings['onError'];
  readonly maxRunning: number;
  readonly retryAfter: number;
  readonly retentionMs: number;
  /** The configured absolute base URL, if any. */
  readonly fixedBase: string | undefined;
  readonly listPatients: ((page: KeysetPage, signal: AbortSignal) => Promise<readonly Patient[]>) | undefined;
  readonly jobs: BulkJobStore;
  readonly outputs: BulkOutputStore;
  /** Per job: the time before which a status request polls too fast (this instance's view). */
  readonly nextPoll: Map<string, number>;
  readonly checkAccess: AccessCheck;
  readonly runner: Omit<BulkRunnerContext, 'onError' | 'listPatients'>;
}

const NDJSON_CONTENT_TYPE = 'application/fhir+ndjson';
const MANIFEST_CONTENT_TYPE = 'application/json';
/** A running job whose instance gave no sign of life for this long is reported failed. */
const STALE_MS = 60_000;
/** `Retry-After` of a kick-off refused at the per-key cap, in seconds. */
const CAP_RETRY_AFTER = 10;
const JOB_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FILE_RE = /^[A-Za-z]+-[1-9][0-9]{0,8}\.ndjson$/;
/** The route the access check sees: only its scope matters. */
const BULK_ROUTE = { scope: 'fhir:export' } as RouteDefinition;

const NOT_SUPPORTED_NO_LISTING: HttpError = {
  status: 501,
  code: 'not-supported',
  detail: 'This service cannot run a population export: its data source has no listPatients method.',
};
const JOB_NOT_FOUND: HttpError = { status: 404, code: 'not-found', detail: 'No export job or file at this URL: it never existed, was cancelled or has expired.' };
export const GROUP_NOT_SUPPORTED: HttpError = { status: 404, code: 'route-not-found', detail: 'Group-level export is not offered: the chart model has no groups. Use /$export or /Patient/$export.' };
const PREFER_REQUIRED: HttpError = { status: 400, code: 'invalid-parameters', detail: 'A Bulk Data kick-off needs the header Prefer: respond-async.' };
const TOO_MANY_JOBS: HttpError = { status: 429, code: 'rate-limited', detail: 'This API key already has as many running exports as allowed; retry after the time in Retry-After.' };
const POLLED_TOO_SOON: HttpError = { status: 429, code: 'rate-limited', detail: 'The status was asked again sooner than Retry-After said; retry after the time in Retry-After.' };
const STALE_JOB: HttpError = { status: 500, code: 'internal-error', detail: 'The instance running the export stopped; start a new export.' };
const BEARER_MISMATCH: HttpError = ERRORS.keyInvalid;

/** One file's chunks as the output store reads them; a store failure mid-way errors the stream, and the adapters then cut the connection. */
async function* fileChunks(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  yield* chunks;
}


export function respond(status: number, headers: Record<string, string>, contentType: string | undefined, body: string): PreparedResponse {
  if (contentType !== undefined) headers['content-type'] = contentType;
  return { status, headers, body };
}
export function refuse(error: HttpError, requestId: string, headers: Record<string, string>): PreparedResponse {
  return respond(error.status, headers, FHIR_CONTENT_TYPE, operationOutcome(error, requestId));
}
export function baseOf(ctx: BulkContext, call: IncomingCall): string {
  if (ctx.fixedBase !== undefined) return ctx.fixedBase;
  // The adapters give the origin of the request (on the Node listener: the scheme of the socket and a valid Host).
  return `${call.origin?.() ?? 'http://localhost'}${ctx.basePath}`;
}

/** `x-api-key`, or else the key of `Authorization: Bearer …`; `undefined` for both given and different. */
function keyHeader(call: IncomingCall): ((name: string) => string | undefined) | undefined {
  const auth = call.header('authorization');
  const bearer = auth === undefined ? undefined : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth)?.[1];
  const apiKey = call.header('x-api-key');
  if (bearer !== undefined && apiKey !== undefined && apiKey !== '' && apiKey !== bearer) return undefined;
  if (bearer === undefined || (apiKey !== undefined && apiKey !== '')) return (name) => call.header(name);
  return (name) => (name === 'x-api-key' ? bearer : call.header(name));
}
/** Key (401) → scope (403) → rate limit (429): the owner's key id, or the refusal. */
async function access(ctx: BulkContext, call: IncomingCall, requestId: string, headers: Record<string, string>, state: AccessState): Promise<{ owner: string } | PreparedResponse> {
  const header = keyHeader(call);
  if (header === undefined) {
    headers['www-authenticate'] = 'ApiKey header="x-api-key"';
    return refuse(BEARER_MISMATCH, requestId, headers);
  }
  const refused = await ctx.checkAccess({ header, remoteAddress: call.remoteAddress }, BULK_ROUTE, headers, state);
  if (refused !== undefined) return refuse(refused, requestId, headers);
  return { owner: state.keyId as string };
}

export async function kickOff(ctx: BulkContext, call: IncomingCall, level: 'system' | 'patient', requestId: string, headers: Record<string, string>, state: AccessState): Promise<PreparedResponse> {
  if (call.method !== 'GET' && call.method !== 'POST') {
    headers['allow'] = 'GET, POST';
    return refuse({ ...ERRORS.methodNotAllowed, detail: 'Only GET and POST are allowed on a Bulk Data kick-off.' }, requestId, headers);
  }
  const granted = await access(ctx, call, requestId, headers, state);
  if (!('owner' in granted)) return granted;
  if (!acceptsFormat(call.header('accept'), 'fhir')) return refuse(ERRORS.notAcceptable.fhir, requestId, headers);
  const prefer = readPrefer(call.header('prefer'));
  if (!prefer.respondAsync) return refuse(PREFER_REQUIRED, requestId, headers);
  const values = parseQuery(call.search);
  if (values === undefined) return refuse(ERRORS.malformedQuery, requestId, headers);
  if (call.method === 'POST') {
    const text = call.readBody === undefined ? '' : await call.readBody(MAX_KICK_OFF_BODY_BYTES);
    if (text === undefined) return refuse({ status: 413, code: 'invalid-parameters', detail: `The body is larger than ${MAX_KICK_OFF_BODY_BYTES} bytes.` }, requestId, headers);
    const body = readParametersBody(text);
    if (!(body instanceof Map)) return refuse(invalidParameters([body]), requestId, headers);
    for (const [name, list] of body) values.set(name, [...(values.get(name) ?? []), ...list]);
  }
  const checked = checkKickOff(values, prefer.lenient);
  if (Array.isArray(checked)) return refuse(invalidParameters(checked), requestId, headers);
  if (checked.since !== null) {
    // The writer's own check of the instant (its profile: at most four fraction digits).
    try {
      await streamFhirNdjson([], { since: checked.since }).next();
    } catch {
      return refuse(invalidParameters([{ name: '_since', reason: 'malformed', message: 'The _since parameter must be a FHIR instant with at most four fraction digits.' }]), requestId, headers);
    }
  }
  if (ctx.listPatients === undefined) return refuse(NOT_SUPPORTED_NO_LISTING, requestId, headers);
  const base = baseOf(ctx, call);
  const t = ctx.now();
  const job: BulkJobRecord = {
    id: globalThis.crypto.randomUUID(),
    owner: granted.owner,
    state: 'running',
    request: `${base}${call.pathname.slice(ctx.basePath.length)}${call.search}`,
    types: checked.types,
    since: checked.since,
    level,
    transactionTime: new Date(t).toISOString(),
    patients: 0,
    files: [],
    heartbeatAt: t,
    // A running job lives as long as it keeps its heartbeat; the runner moves this on when it finishes.
    expiresAt: t + ctx.retentionMs + 24 * 3_600_000,
  };
  if (!(await ctx.jobs.create(job, ctx.maxRunning))) {
    headers['retry-after'] = String(CAP_RETRY_AFTER);
    return refuse(TOO_MANY_JOBS, requestId, headers);
  }
  const onError = ctx.onError;
  const report = onError === undefined ? undefined : (error: unknown): void => safeCall(onError, error, { requestId, route: 'bulkKickOff', source: 'data_source' });
  void runBulkJob({ ...ctx.runner, listPatients: ctx.listPatients, onError: report }, job);
  headers['content-location'] = `${base}/bulkstatus/${job.id}`;
  const accepted = { resourceType: 'OperationOutcome', issue: [{ severity: 'information', code: 'informational', details: { text: 'The export was started; poll the URL in Content-Location.' } }] };
  return respond(202, headers, FHIR_CONTENT_TYPE, JSON.stringify(accepted));
}

/** The job of a status or file URL, when it exists for this key. */
async function ownJob(ctx: BulkContext, id: string, owner: string): Promise<BulkJobRecord | undefined> {
  if (!JOB_ID_RE.test(id)) return undefined;
  const job = await ctx.jobs.get(id);
  return job !== undefined && job.owner === owner && job.expiresAt > ctx.now() ? job : undefined;
}

function manifest(job: BulkJobRecord, base: string): string {
  const url = (name: string): string => `${base}/bulkfiles/${job.id}/${name}`;
  return JSON.stringify({
    transactionTime: job.transactionTime,
    request: job.request,
    requiresAccessToken: true,
    output: job.files.filter((f) => f.type !== 'OperationOutcome').map((f) => ({ type: f.type, url: url(f.name), count: f.count })),
    error: job.files.filter((f) => f.type === 'OperationOutcome').map((f) => ({ type: f.type, url: url(f.name), count: f.count })),
  });
}

export async function status(ctx: BulkContext, call: IncomingCall, id: string, requestId: string, headers: Record<string, string>, state: AccessState): Promise<PreparedResponse> {
  if (call.method !== 'GET' && call.method !== 'DELETE') {
    headers['allow'] = 'GET, DELETE';
    return refuse({ ...ERRORS.methodNotAllowed, detail: 'Only GET and DELETE are allowed on a Bulk Data status URL.' }, requestId, headers);
  }
  const granted = await access(ctx, call, requestId, headers, state);
  if (!('owner' in granted)) return granted;
  const job = await ownJob(ctx, id, granted.owner);
  if (job === undefined) return refuse(JOB_NOT_FOUND, requestId, headers);
  if (call.method === 'DELETE') {
    await ctx.jobs.delete(job.id);
    await ctx.outputs.remove(job.id, job.files.map((f) => f.name));
    ctx.nextPoll.delete(job.id);
    return respond(202, headers, undefined, '');
  }
  const t = ctx.now();
  if (job.state === 'running') {
    if (t - job.heartbeatAt > STALE_MS) return refuse(STALE_JOB, requestId, headers);
    const earliest = ctx.nextPoll.get(job.id);
    if (earliest !== undefined && t < earliest) {
      headers['retry-after'] = String(Math.max(1, Math.ceil((earliest - t) / 1000)));
      return refuse(POLLED_TOO_SOON, requestId, headers);
    }
    // Half the asked wait is allowed: clocks and networks differ, and clients round.
    ctx.nextPoll.set(job.id, t + (ctx.retryAfter * 1000) / 2);
    headers['x-progress'] = `${job.patients} patients exported`;
    headers['retry-after'] = String(ctx.retryAfter);
    return respond(202, headers, undefined, '');
  }
  ctx.nextPoll.delete(job.id);
  if (job.state === 'failed') {
    const failure = job.failure ?? { status: 500, detail: ERRORS.internal.detail };
    return refuse({ status: failure.status, code: failure.status === 503 ? 'unavailable' : 'internal-error', detail: failure.detail }, requestId, headers);
  }
  headers['expires'] = new Date(job.expiresAt).toUTCString();
  return respond(200, headers, MANIFEST_CONTENT_TYPE, manifest(job, baseOf(ctx, call)));
}

export async function file(ctx: BulkContext, call: IncomingCall, id: string, name: string, requestId: string, headers: Record<string, string>, state: AccessState): Promise<PreparedResponse> {
  if (call.method !== 'GET' && call.method !== 'HEAD') {
    headers['allow'] = 'GET, HEAD';
    return refuse(ERRORS.methodNotAllowed, requestId, headers);
  }
  const granted = await access(ctx, call, requestId, headers, state);
  if (!('owner' in granted)) return granted;
  const job = await ownJob(ctx, id, granted.owner);
  if (job === undefined || job.state !== 'done' || !FILE_RE.test(name) || !job.files.some((f) => f.name === name)) return refuse(JOB_NOT_FOUND, requestId, headers);
  const chunks = await ctx.outputs.read(job.id, name);
  if (chunks === undefined) return refuse(JOB_NOT_FOUND, requestId, headers);
  headers['content-type'] = NDJSON_CONTENT_TYPE;
  headers['expires'] = new Date(job.expiresAt).toUTCString();
  // A large file goes out as it is read, a small one as one body (output/streamed-body.ts).
  const report = (error: unknown): void => safeCall(ctx.onError, error, { requestId, route: 'bulkFile', source: 'unknown' });
  return { status: 200, headers, body: await settleBody(fileChunks(chunks), report) };
}

