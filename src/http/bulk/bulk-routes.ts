/**
 * The Bulk Data routes (IG STU2, v2.0.0) under the handler's base path, answered before the route table:
 *
 *   GET|POST {base}/$export, {base}/Patient/$export   kick-off → 202 + Content-Location
 *   GET|DELETE {base}/bulkstatus/{job}                   status (202 / 200 manifest / error) or cancel
 *   GET|HEAD {base}/bulkfiles/{job}/{file}               an NDJSON file, streamed
 *   GET|HEAD {base}/metadata                             the CapabilityStatement (no key)
 *
 * Access is the pipeline's own (access.ts: key → scope `fhir:export` → rate limit), with the key also taken as
 * `Authorization: Bearer <key>`; errors are the pipeline's OperationOutcomes with the request id.
 * @see https://hl7.org/fhir/uv/bulkdata/STU2/export.html
 */
import { InvalidArgumentError, type Patient } from '../../index.js';
import type { AccessCheck, AccessState } from '../access.js';
import type { ChartDataSource, KeysetPage } from '../data-source.js';
import { isObject } from '../guards.js';
import type { HandlerSettings } from '../handler-options.js';
import { ERRORS, FHIR_CONTENT_TYPE, type PreparedResponse } from '../internal/responses.js';
import type { IncomingCall } from '../pipeline.js';
import type { BulkRouteName } from '../routes/route-types.js';
import { GROUP_NOT_SUPPORTED, baseOf, file, kickOff, refuse, respond, status, type BulkContext } from './bulk-requests.js';
import { capabilityStatement } from './capability.js';
import { createInMemoryBulkJobStore, type BulkJobStore } from './job-store.js';
import { createInMemoryBulkOutputStore, type BulkOutputStore } from './output-store.js';

/** Options of the Bulk Data export (the handler option `bulk`). */
export interface BulkExportOptions {
  /** Where jobs live; default {@link createInMemoryBulkJobStore} (one instance). */
  readonly jobStore?: BulkJobStore | undefined;
  /** Where the NDJSON files live; default {@link createInMemoryBulkOutputStore} (one instance, memory). */
  readonly outputStore?: BulkOutputStore | undefined;
  /**
   * The absolute base URL of the routes, for `Content-Location`, the manifest's URLs and `request`. Default
   * `fhir.baseUrl` when set, else the request's origin (the fetch `Request`'s URL; on the Node listener `http://`
   * or `https://` and the `Host` header) followed by `basePath`. Set it behind a proxy.
   */
  readonly baseUrl?: string | undefined;
  /** How long a finished job (manifest and files) stays, in seconds; default 3 600. */
  readonly retentionSeconds?: number | undefined;
  /** Running jobs per API key; a kick-off beyond gets 429 with `Retry-After`. Default 2. */
  readonly maxRunningJobsPerKey?: number | undefined;
  /** `Retry-After` of a running job's status, in whole seconds; default 2. */
  readonly retryAfterSeconds?: number | undefined;
  /** Lines per output file; a type with more is split into parts (`Encounter-1.ndjson`, `Encounter-2.ndjson`…). Default 10 000. */
  readonly resourcesPerFile?: number | undefined;
  /** Patients per `listPatients` page; default 100. */
  readonly pageSize?: number | undefined;
}

/** A Bulk Data request: which route, and its answer. */
export interface BulkCall {
  /** The route, as the hooks and the metrics name it. */
  readonly route: BulkRouteName;
  /** The answer. */
  readonly answer: Promise<PreparedResponse>;
}

/** The Bulk sub-handler of a pipeline: an answer for its paths, `undefined` for any other. */
export interface BulkRoutes {
  /** The route and answer of a Bulk path; `undefined` at once for any other (the pipeline then goes on without a wait). */
  handle(call: IncomingCall, requestId: string, headers: Record<string, string>, state: AccessState): BulkCall | undefined;
}

const BASE_URL_RE = /^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/i;

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError(`bulk.${name}`, 'must be a positive integer');
  return value;
}

function checkStore(name: string, value: unknown, methods: readonly string[]): void {
  if (value === undefined) return;
  if (!isObject(value)) throw new InvalidArgumentError(`bulk.${name}`, 'must be an object');
  for (const m of methods) if (typeof value[m] !== 'function') throw new InvalidArgumentError(`bulk.${name}.${m}`, 'must be a function');
}

/** A method of the host's source, called so that a synchronous throw becomes a rejection. */
function guardedListing(source: ChartDataSource): ((page: KeysetPage, signal: AbortSignal) => Promise<readonly Patient[]>) | undefined {
  const list = source.listPatients;
  if (typeof list !== 'function') return undefined;
  return (page, signal) => {
    try {
      return Promise.resolve(Reflect.apply(list, source, [page, signal]) as Promise<readonly Patient[]>);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/** `GET|HEAD {base}/metadata`: the CapabilityStatement, without a key. */
function metadata(ctx: BulkContext, call: IncomingCall, requestId: string, headers: Record<string, string>): Promise<PreparedResponse> {
  if (call.method !== 'GET' && call.method !== 'HEAD') {
    headers['allow'] = 'GET, HEAD';
    return Promise.resolve(refuse(ERRORS.methodNotAllowed, requestId, headers));
  }
  try {
    return Promise.resolve(respond(200, headers, FHIR_CONTENT_TYPE, capabilityStatement(baseOf(ctx, call))));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Create the Bulk sub-handler, or `undefined` when the option `bulk` is not set.
 * @param options - the handler option `bulk` (`true` for the defaults)
 * @param rawSource - the host's data source as given (its optional `listPatients`)
 * @param settings - the handler's resolved settings
 * @param checkAccess - the pipeline's access check
 * @throws {InvalidArgumentError} for a malformed option
 * @internal
 */
export function createBulkRoutes(
  options: BulkExportOptions | boolean | undefined,
  rawSource: ChartDataSource,
  settings: HandlerSettings,
  checkAccess: AccessCheck,
): BulkRoutes | undefined {
  if (options === undefined || options === false) return undefined;
  if (options !== true && !isObject(options)) throw new InvalidArgumentError('bulk', 'must be true or an object');
  const given: BulkExportOptions = options === true ? {} : options;
  checkStore('jobStore', given.jobStore, ['create', 'get', 'update', 'delete']);
  checkStore('outputStore', given.outputStore, ['append', 'read', 'expire', 'remove']);
  if (given.baseUrl !== undefined && (typeof given.baseUrl !== 'string' || !BASE_URL_RE.test(given.baseUrl))) {
    throw new InvalidArgumentError('bulk.baseUrl', 'must be an absolute http or https URL without query or fragment');
  }
  const { now, basePath, onError } = settings;
  const retentionMs = positiveInteger('retentionSeconds', given.retentionSeconds, 3_600) * 1000;
  const maxRunning = positiveInteger('maxRunningJobsPerKey', given.maxRunningJobsPerKey, 2);
  const retryAfter = positiveInteger('retryAfterSeconds', given.retryAfterSeconds, 2);
  const resourcesPerFile = positiveInteger('resourcesPerFile', given.resourcesPerFile, 10_000);
  const pageSize = positiveInteger('pageSize', given.pageSize, 100);
  const jobs = given.jobStore ?? createInMemoryBulkJobStore({ now });
  const outputs = given.outputStore ?? createInMemoryBulkOutputStore({ now });
  const fixedBase = (given.baseUrl ?? settings.fhir.baseUrl)?.replace(/\/+$/, '');
  const listPatients = guardedListing(rawSource);
  /** Per job: before when a status request polls too fast (this instance's view; a client may poll another). */
  const nextPoll = new Map<string, number>();

  const ctx: BulkContext = {
    basePath,
    now,
    onError,
    maxRunning,
    retryAfter,
    retentionMs,
    fixedBase,
    listPatients,
    jobs,
    outputs,
    nextPoll,
    checkAccess,
    runner: { dataSource: settings.dataSource, jobs, outputs, now, pageSize, resourcesPerFile, retentionMs, dataSourceTimeoutMs: settings.dataSourceTimeoutMs },
  };

  return {
    handle(call, requestId, headers, state) {
      const path = call.pathname;
      if (basePath !== '' && !path.startsWith(`${basePath}/`)) return undefined;
      const rest = path.slice(basePath.length).replace(/%24/gi, '$');
      if (rest === '/metadata') return { route: 'metadata', answer: metadata(ctx, call, requestId, headers) };
      if (rest === '/$export') return { route: 'bulkKickOff', answer: kickOff(ctx, call, 'system', requestId, headers, state) };
      if (rest === '/Patient/$export') return { route: 'bulkKickOff', answer: kickOff(ctx, call, 'patient', requestId, headers, state) };
      if (/^\/Group\/[^/]+\/\$export$/.test(rest)) return { route: 'bulkKickOff', answer: Promise.resolve(refuse(GROUP_NOT_SUPPORTED, requestId, headers)) };
      const statusMatch = /^\/bulkstatus\/([^/]+)$/.exec(rest);
      if (statusMatch !== null) return { route: 'bulkStatus', answer: status(ctx, call, statusMatch[1] as string, requestId, headers, state) };
      const fileMatch = /^\/bulkfiles\/([^/]+)\/([^/]+)$/.exec(rest);
      if (fileMatch !== null) return { route: 'bulkFile', answer: file(ctx, call, fileMatch[1] as string, fileMatch[2] as string, requestId, headers, state) };
      return undefined;
    },
  };
}
