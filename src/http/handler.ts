/**
 * The web-standard export handler: `createExportHandler(options)` → `(request: Request) => Promise<Response>`,
 * serving the eleven routes of the export interface with API keys, scopes, rate limits, parameter checks,
 * content negotiation and typed error bodies, in the order of DESIGN.md section 5.
 */
import {
  ChartNotFoundError,
  InvalidArgumentError,
  checkPatientChart,
  buildAdrA19,
  buildAdtA08,
  buildAdtA31,
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  buildMdmT02,
  buildOruR01,
  generateControlId,
  type Assessment,
  type ClinicalNote,
  type Directory,
  type DirectoryLocation,
  type DirectoryOrganization,
  type DirectoryPractitioner,
  type Encounter,
  type FhirExportOptions,
  type Hl7MessageOptions,
  type PatientChart,
} from '../index.js';
import type { ChartDataSource } from './data-source.js';
import { isDataSourceUnavailable } from './errors.js';
import { acceptsFormat } from './internal/accept.js';
import { createFhirBundleCache, type FhirBundleCache } from './internal/fhir-template.js';
import { isFrozenSource } from './internal/frozen-source.js';
import { orderKeyOf } from './internal/newest.js';
import { createHl7TemplateCache, type Hl7TemplateCache } from './internal/hl7-template.js';
import { checkParameters, parseQuery, type ResolvedLimit, type RouteParameters } from './internal/query.js';
import {
  ERRORS,
  FHIR_CONTENT_TYPE,
  HL7_CONTENT_TYPE,
  PROBLEM_CONTENT_TYPE,
  REQUEST_ID_RE,
  invalidParameters,
  lastResortResponse,
  notFound,
  operationOutcome,
  problemDetails,
  scopeMissing,
  type HttpError,
  type PreparedResponse,
} from './internal/responses.js';
import type { ApiKeyRecord, KeyStore } from './key-store.js';
import { createFixedWindowRateLimiter, type RateLimitDecision, type RateLimiter } from './rate-limiter.js';
import { matchRoute, type ExportRouteName, type LimitName, type RouteDefinition } from './routes.js';

/** A limit setting: the value used when the parameter is absent, and the largest value honoured (larger ones are clamped). */
export interface LimitSetting {
  /** Used when the request does not give the parameter. A non-negative integer ≤ `max`. */
  readonly default?: number | undefined;
  /** The largest value honoured; a larger requested value is clamped to it. A non-negative integer. */
  readonly max?: number | undefined;
}

/**
 * Limits of the record-count parameters (contract 8.3). Each missing setting takes {@link DEFAULT_LIMITS}.
 * - `encounters`, `notes`, `assessments`, `medicalHistory`: `encounterLimit`, `noteLimit`,
 *   `assessmentLimit`, `medicalHistoryLimit` of /exportFhirPatientBundle (each caps its own kind);
 * - `summary`: `limit` of /exportHl7PatientSummary (caps the total number of records);
 * - `directory`: `limit` of /publicFhirDirectory.
 */
export type ExportLimits = { readonly [K in LimitName]?: LimitSetting | undefined };

/** The defaults and maxima used when {@link ExportHandlerOptions.limits} does not set them. */
export const DEFAULT_LIMITS: { readonly [K in LimitName]: { readonly default: number; readonly max: number } } = Object.freeze({
  encounters: Object.freeze({ default: 20, max: 100 }),
  notes: Object.freeze({ default: 20, max: 100 }),
  assessments: Object.freeze({ default: 20, max: 100 }),
  medicalHistory: Object.freeze({ default: 50, max: 200 }),
  summary: Object.freeze({ default: 50, max: 200 }),
  directory: Object.freeze({ default: 50, max: 500 }),
});

/** What the observer hook receives for every response: never patient data, parameter values or key material. */
export interface ExportObservation {
  /** The response's `x-request-id`. */
  readonly requestId: string;
  /** The matched route, or `undefined` for an unknown path. */
  readonly route: ExportRouteName | undefined;
  /** The request method. */
  readonly method: string;
  /** The response status. */
  readonly status: number;
  /** Time from the request to the response being ready, in milliseconds. */
  readonly durationMs: number;
  /** The partner of a valid key, else `undefined`. */
  readonly partnerId: string | undefined;
}

/** What {@link DirectoryRateLimitOptions.clientAddress} is given to tell clients apart. */
export interface ClientInfo {
  /** The peer address, when the runtime knows it (the Node listener does; a fetch runtime does not). */
  readonly remoteAddress: string | undefined;
  /**
   * A request header by lowercase name (e.g. the address a trusted proxy sets: the last `x-forwarded-for`
   * entry it appended, not the whole value, whose first entries the client chooses).
   */
  header(name: string): string | undefined;
}

/** Optional rate limit of the public directory, per client address, through the same {@link RateLimiter}. */
export interface DirectoryRateLimitOptions {
  /** Requests allowed per window and client; a positive integer. */
  readonly limit: number;
  /** Window length in seconds; a positive integer. */
  readonly windowSeconds: number;
  /**
   * Which client a request comes from. Default: the peer address, or `'unknown'` when the runtime gives none
   * (on fetch runtimes all clients then share one counter; read your platform's client-address header here).
   */
  readonly clientAddress?: ((client: ClientInfo) => string | undefined) | undefined;
}

/** HL7 options of the handler: MSH fields. `now` comes from the handler's clock; `directory` from the data source. */
export interface HandlerHl7Options {
  /** MSH-3 (HD-1): at most 20 characters after HL7 escaping, checked when the handler is created. */
  readonly sendingApplication?: string | undefined;
  /** MSH-4 (HD-1): at most 20 characters after HL7 escaping, checked when the handler is created. */
  readonly sendingFacility?: string | undefined;
  /** MSH-5 (HD-1): at most 20 characters after HL7 escaping, checked when the handler is created. */
  readonly receivingApplication?: string | undefined;
  /** MSH-6 (HD-1): at most 20 characters after HL7 escaping, checked when the handler is created. */
  readonly receivingFacility?: string | undefined;
  /** MSH-11, default `P`. */
  readonly processingId?: 'P' | 'T' | 'D' | undefined;
  /**
   * MSH-10 for a request (at most 20 characters, starting with the message code: `ADT`, `ADR`, `MDM`,
   * `ORU`). Default: the core's `generateControlId` (message code, time, counter, random characters). A value
   * the builder refuses gives 500.
   */
  readonly controlId?: ((context: { readonly route: ExportRouteName; readonly requestId: string }) => string) | undefined;
}

/** FHIR options of the handler. `now` comes from the handler's clock; `directory` from the data source. */
export interface HandlerFhirOptions {
  /** Absolute `fullUrl` base (the service's base URL); default relative `Type/id` (contract 2.2). */
  readonly baseUrl?: string | undefined;
  /** Omit `Bundle.total` on `collection` Bundles (R4 invariant bdl-1); default false (contract 2.2 lists it). */
  readonly strictBundleTotal?: boolean | undefined;
}

/** Everything the host supplies to {@link createExportHandler}. Only `dataSource` and `keyStore` are required. */
export interface ExportHandlerOptions {
  /** Where chart data is read. */
  readonly dataSource: ChartDataSource;
  /** Where presented API keys are resolved. */
  readonly keyStore: KeyStore;
  /** Rate-limit counters. Default: a new in-memory fixed-window limiter on the handler's clock (one process only). */
  readonly rateLimiter?: RateLimiter | undefined;
  /** Mount the routes under this path prefix (`/api/export` → `/api/export/exportFhirPatient`). Default none. */
  readonly basePath?: string | undefined;
  /** Defaults and maxima of the record-count parameters; see {@link DEFAULT_LIMITS}. */
  readonly limits?: ExportLimits | undefined;
  /** Rate-limit the public directory per client. Default: not limited. */
  readonly directoryRateLimit?: DirectoryRateLimitOptions | undefined;
  /** FHIR output options. */
  readonly fhir?: HandlerFhirOptions | undefined;
  /** HL7 output options. */
  readonly hl7?: HandlerHl7Options | undefined;
  /** The clock in epoch milliseconds: Bundle.timestamp, MSH-7, EVN-2 and the default rate limiter. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * Generates the request id when the caller sends no valid `x-request-id`. Must return 1–128 characters of
   * `[A-Za-z0-9._:-]`; anything else is replaced by a UUID. Default `crypto.randomUUID`.
   */
  readonly requestId?: (() => string) | undefined;
  /** Called once per response with its {@link ExportObservation}; exceptions it throws are ignored. */
  readonly observer?: ((observation: ExportObservation) => void) | undefined;
  /**
   * Called with the raw error behind a 500 or 503 (data source, key store, rate limiter, builder), for the
   * host's logs. The error is never sent to the client. Its message is the host's own or a core message (which
   * names fields, never patient values). Exceptions it throws are ignored.
   */
  readonly onError?: ((error: unknown, context: { readonly requestId: string; readonly route: ExportRouteName | undefined }) => void) | undefined;
}

/**
 * The web-standard handler: give it a `Request`, get a `Response`. It never rejects for a `Request`; given
 * anything else, it rejects with `InvalidArgumentError`.
 */
export type ExportHandler = (request: Request) => Promise<Response>;

/** A request as the core sees it, so the Node listener can skip building a `Request`. */
export interface IncomingCall {
  readonly method: string;
  /** WHATWG-normalised path (percent-encoded, dot segments resolved). */
  readonly pathname: string;
  /** WHATWG `search`: `''` or `?…`. */
  readonly search: string;
  /** A header by lowercase name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  readonly remoteAddress: string | undefined;
}

/** The shared core of both adapters. */
export interface ExportCore {
  handle(call: IncomingCall): Promise<PreparedResponse>;
}

/** Where {@link createExportHandler} keeps its core on the returned function, for `toNodeListener`. */
export const EXPORT_CORE: unique symbol = Symbol.for('chart-export.http.core');

type PreparedBody = { readonly body: string } | HttpError;

const ALLOW = 'GET, HEAD';
const ENCODER = new TextEncoder();
const WWW_AUTHENTICATE = 'ApiKey header="x-api-key"';
/** How many referenced encounters the patient Bundle reads at once from the data source. */
const REFERENCE_READS_AT_ONCE = 8;

/**
 * `fn` over `items`, at most `size` calls in flight: batch by batch, results in item order.
 * @param items - the inputs
 * @param size - the batch size
 * @param fn - the asynchronous call
 * @returns every result, in the order of `items`
 */
async function mapInBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** How deep `partOfId` chains are followed when gathering referenced organizations. */
const MAX_PART_OF_DEPTH = 16;

/** The methods of {@link ChartDataSource}: all required by the interface, so all checked at creation. */
const DATA_SOURCE_METHODS = [
  'getPatient',
  'getEncounter',
  'getNote',
  'getAssessment',
  'getMedicalHistoryEntry',
  'listEncounters',
  'listNotes',
  'listAssessments',
  'listMedicalHistory',
  'getOrganization',
  'getPractitioner',
  'getLocation',
  'listOrganizations',
  'listPractitioners',
  'listLocations',
] as const satisfies readonly (keyof ChartDataSource)[];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function checkOptionalObject(name: string, value: unknown): void {
  if (value !== undefined && !isObject(value)) throw new InvalidArgumentError(name, 'must be an object');
}

function checkOptionalFunction(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') throw new InvalidArgumentError(name, 'must be a function');
}

/**
 * Refuse options of the wrong type when the handler is created: otherwise a number given as `dataSource` or a
 * string given as `now` would only fail inside a request, as a 500 on every one.
 */
function checkHostOptions(options: unknown): asserts options is ExportHandlerOptions {
  if (!isObject(options)) throw new InvalidArgumentError('options', 'must be an object');
  const { dataSource, keyStore, rateLimiter } = options;
  if (dataSource === undefined || dataSource === null) throw new InvalidArgumentError('dataSource', 'is required');
  if (!isObject(dataSource)) throw new InvalidArgumentError('dataSource', 'must be an object');
  for (const method of DATA_SOURCE_METHODS) {
    if (typeof dataSource[method] !== 'function') throw new InvalidArgumentError(`dataSource.${method}`, 'must be a function');
  }
  if (keyStore === undefined || keyStore === null) throw new InvalidArgumentError('keyStore', 'is required');
  if (!isObject(keyStore) || typeof keyStore['lookup'] !== 'function') throw new InvalidArgumentError('keyStore.lookup', 'must be a function');
  if (rateLimiter !== undefined && (!isObject(rateLimiter) || typeof rateLimiter['consume'] !== 'function')) {
    throw new InvalidArgumentError('rateLimiter.consume', 'must be a function');
  }
  checkOptionalObject('limits', options['limits']);
  const limits = options['limits'] as Record<string, unknown> | undefined;
  for (const name of Object.keys(DEFAULT_LIMITS)) checkOptionalObject(`limits.${name}`, limits?.[name]);
  checkOptionalObject('directoryRateLimit', options['directoryRateLimit']);
  checkOptionalObject('fhir', options['fhir']);
  checkOptionalObject('hl7', options['hl7']);
  checkOptionalFunction('hl7.controlId', (options['hl7'] as Record<string, unknown> | undefined)?.['controlId']);
  for (const name of ['now', 'requestId', 'observer', 'onError'] as const) checkOptionalFunction(name, options[name]);
}

function checkLimitValue(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(name, 'must be a non-negative integer');
  }
  return value;
}

function resolveLimits(limits: ExportLimits | undefined): Record<LimitName, ResolvedLimit> {
  const out = {} as Record<LimitName, ResolvedLimit>;
  for (const name of Object.keys(DEFAULT_LIMITS) as LimitName[]) {
    const given = limits?.[name];
    const fallback = DEFAULT_LIMITS[name];
    const max = given?.max === undefined ? fallback.max : checkLimitValue(`limits.${name}.max`, given.max);
    const def = given?.default === undefined ? Math.min(fallback.default, max) : checkLimitValue(`limits.${name}.default`, given.default);
    if (def > max) throw new InvalidArgumentError(`limits.${name}.default`, 'must not exceed the maximum');
    out[name] = Object.freeze({ default: def, max });
  }
  return out;
}

function normaliseBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  if (typeof basePath !== 'string' || /[?#]/.test(basePath)) {
    throw new InvalidArgumentError('basePath', 'must be a path without query or fragment');
  }
  // Match what the WHATWG URL parser gives for request paths (percent-encoding, dot segments). Concatenated to
  // the origin, not resolved against it: `//api/export` must stay a path, not become a host (`api`).
  const path = new URL(`http://localhost${basePath.startsWith('/') ? basePath : `/${basePath}`}`).pathname;
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

function defaultRequestId(): string {
  return globalThis.crypto.randomUUID();
}

function safeCall<A extends unknown[]>(fn: ((...args: A) => void) | undefined, ...args: A): void {
  if (fn === undefined) return;
  try {
    settle(fn(...args));
  } catch {
    // A failing hook must not change the response.
  }
}

/**
 * Observe a host hook's answer when it is a promise-like (an `async` hook where a plain value is expected, from
 * JavaScript): its rejection must not become an unhandled rejection, which ends a Node process by default. The
 * answer itself is then refused as the wrong type by the caller.
 * @param value - what the hook returned
 * @returns the same value
 */
function settle<T>(value: T): T {
  try {
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
      const then: unknown = (value as { then?: unknown }).then;
      if (typeof then === 'function') (then as (ok: undefined, fail: () => void) => unknown).call(value, undefined, () => undefined);
    }
  } catch {
    // A `then` that throws: nothing to observe.
  }
  return value;
}

/**
 * A host's data source whose every method returns a promise: a synchronous throw (or a method that cannot be
 * read) becomes a rejection. Reads run in parallel (`Promise.all`), so a synchronous throw in the middle of
 * starting them would leave the promises already started unobserved, and one of them rejecting would be an
 * unhandled rejection in the host's process.
 */
function guardDataSource(source: ChartDataSource): ChartDataSource {
  const guarded: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of DATA_SOURCE_METHODS) {
    guarded[method] = (...args) => {
      try {
        return Promise.resolve(Reflect.apply(source[method] as (...a: unknown[]) => unknown, source, args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return guarded as unknown as ChartDataSource;
}

/** The record kinds a 404 names. */
const NOT_FOUND_KINDS: readonly string[] = ['patient', 'encounter', 'note', 'assessment'];

/** What a failure thrown during a request means for the answer. */
type Failure =
  | { readonly kind: 'not-found'; readonly recordType: 'patient' | 'encounter' | 'note' | 'assessment' }
  | { readonly kind: 'unavailable'; readonly retryAfter: number | undefined }
  | { readonly kind: 'internal' };

/**
 * Classify anything thrown by the host's interfaces or the builders. Total: the thrown value may be a Proxy
 * that throws on every trap, or an object whose `code` or `retryAfterSeconds` getter throws; whatever cannot
 * be read is an internal error (500), never a rejection of the handler.
 */
function classifyFailure(error: unknown): Failure {
  try {
    if (error instanceof ChartNotFoundError) {
      const recordType: unknown = error.recordType;
      return typeof recordType === 'string' && NOT_FOUND_KINDS.includes(recordType)
        ? { kind: 'not-found', recordType: recordType as 'patient' | 'encounter' | 'note' | 'assessment' }
        : { kind: 'internal' };
    }
    if (isDataSourceUnavailable(error)) {
      const retry: unknown = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
      return { kind: 'unavailable', retryAfter: typeof retry === 'number' && Number.isSafeInteger(retry) && retry > 0 ? retry : undefined };
    }
  } catch {
    // Fall through: what cannot be read is an internal error.
  }
  return { kind: 'internal' };
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * A rate limiter's answer, each field read once and checked before any of it reaches a header: `allowed` a
 * boolean; `limit` and `reset` non-negative integers; `remaining` an integer, a negative one read as 0 (a
 * counter limiter computing `limit - count` goes below 0 once a key is over its limit); on a denial,
 * `retryAfter` a non-negative number of seconds up to `Number.MAX_SAFE_INTEGER`. Anything else means the host's limiter is broken: a 500.
 * @throws {InvalidArgumentError} naming the malformed field (for `onError`; never sent to the client)
 */
function readDecision(value: unknown): RateLimitDecision {
  const name = 'rateLimiter.consume() result';
  if (!isObject(value)) throw new InvalidArgumentError(name, 'must be an object');
  const { allowed, limit, remaining, reset } = value;
  if (typeof allowed !== 'boolean') throw new InvalidArgumentError(`${name}.allowed`, 'must be a boolean');
  if (!isNonNegativeInteger(limit)) throw new InvalidArgumentError(`${name}.limit`, 'must be a non-negative integer');
  if (typeof remaining !== 'number' || !Number.isSafeInteger(remaining)) throw new InvalidArgumentError(`${name}.remaining`, 'must be an integer');
  if (!isNonNegativeInteger(reset)) throw new InvalidArgumentError(`${name}.reset`, 'must be a non-negative integer (Unix epoch seconds)');
  let retryAfter = 0;
  if (!allowed) {
    const given = value['retryAfter'];
    // At most the largest safe integer: beyond it (1e21) String() writes an exponent, which is not delta-seconds.
    if (typeof given !== 'number' || !Number.isFinite(given) || given < 0 || given > Number.MAX_SAFE_INTEGER) {
      throw new InvalidArgumentError(`${name}.retryAfter`, 'must be a non-negative number of seconds on a denial, at most 2^53 - 1');
    }
    retryAfter = given;
  }
  return { allowed, limit, remaining: Math.max(0, remaining), reset, retryAfter };
}

/** More scopes than this on one key record is a broken store (real keys carry a handful). */
const MAX_SCOPES = 256;

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/**
 * A key store's record, each field read once and checked, since access depends on it: `keyId` and `partnerId`
 * non-empty strings, `scopes` an array of strings (compared exactly, never as a substring of one string),
 * `rateLimit` `{ limit, windowSeconds }` positive integers, `revoked` a boolean. Anything else means the
 * host's store is broken: a 500, never access.
 * @throws {InvalidArgumentError} naming the malformed field (for `onError`; never sent to the client)
 */
function readKeyRecord(value: unknown): ApiKeyRecord | { readonly revoked: true } {
  const name = 'keyStore.lookup() result';
  if (!isObject(value)) throw new InvalidArgumentError(name, 'must be an object, null or undefined');
  const revoked = value['revoked'];
  if (typeof revoked !== 'boolean') throw new InvalidArgumentError(`${name}.revoked`, 'must be a boolean');
  // A revoked key is refused whatever else its record holds: nothing more is needed from it.
  if (revoked) return { revoked };
  const { keyId, partnerId, scopes, rateLimit } = value;
  if (typeof keyId !== 'string' || keyId === '') throw new InvalidArgumentError(`${name}.keyId`, 'must be a non-empty string');
  if (typeof partnerId !== 'string' || partnerId === '') throw new InvalidArgumentError(`${name}.partnerId`, 'must be a non-empty string');
  if (!Array.isArray(scopes)) throw new InvalidArgumentError(`${name}.scopes`, 'must be an array of strings');
  // A copy, element by element: the array itself may be a Proxy or change after this check.
  const length: unknown = scopes.length;
  if (typeof length !== 'number' || length > MAX_SCOPES) throw new InvalidArgumentError(`${name}.scopes`, `must hold at most ${MAX_SCOPES} scopes`);
  const scopeList: string[] = [];
  for (let i = 0; i < length; i++) {
    const scope: unknown = scopes[i];
    if (typeof scope !== 'string') throw new InvalidArgumentError(`${name}.scopes`, 'must be an array of strings');
    scopeList.push(scope);
  }
  if (!isObject(rateLimit)) throw new InvalidArgumentError(`${name}.rateLimit`, 'must be an object');
  const { limit, windowSeconds } = rateLimit;
  if (!isPositiveInteger(limit)) throw new InvalidArgumentError(`${name}.rateLimit.limit`, 'must be a positive integer');
  if (!isPositiveInteger(windowSeconds)) throw new InvalidArgumentError(`${name}.rateLimit.windowSeconds`, 'must be a positive integer');
  return { keyId, partnerId, scopes: scopeList as ApiKeyRecord['scopes'], rateLimit: { limit, windowSeconds }, revoked: false };
}

/** Gather the directory records chart records refer to, following location → organization → partOf. */
async function gatherDirectory(
  dataSource: ChartDataSource,
  records: {
    readonly encounters?: readonly Encounter[] | undefined;
    readonly notes?: readonly ClinicalNote[] | undefined;
    readonly assessments?: readonly Assessment[] | undefined;
  },
): Promise<Directory | undefined> {
  const practitionerIds = new Set<string>();
  const locationIds = new Set<string>();
  for (const e of records.encounters ?? []) {
    if (e.locationId !== undefined) locationIds.add(e.locationId);
    for (const p of e.participants ?? []) practitionerIds.add(p.practitionerId);
    for (const p of e.procedures ?? []) if (p.performerId !== undefined) practitionerIds.add(p.performerId);
  }
  for (const n of records.notes ?? []) if (n.authorId !== undefined) practitionerIds.add(n.authorId);
  for (const a of records.assessments ?? []) if (a.authorId !== undefined) practitionerIds.add(a.authorId);
  if (practitionerIds.size === 0 && locationIds.size === 0) return undefined;

  // One Promise.all over both kinds: the reads run in parallel, with one wait instead of three.
  const reads: Promise<DirectoryPractitioner | DirectoryLocation | null | undefined>[] = [];
  for (const id of practitionerIds) reads.push(dataSource.getPractitioner(id));
  for (const id of locationIds) reads.push(dataSource.getLocation(id));
  const read = await Promise.all(reads);
  const foundPractitioners: DirectoryPractitioner[] = [];
  const foundLocations: DirectoryLocation[] = [];
  for (let i = 0; i < read.length; i++) {
    const record = read[i];
    // `null` counts as not found too: hosts backed by a database often answer that way.
    if (record == null) continue;
    if (i < practitionerIds.size) foundPractitioners.push(record as DirectoryPractitioner);
    else foundLocations.push(record as DirectoryLocation);
  }

  const organizations: DirectoryOrganization[] = [];
  const seen = new Set<string>();
  let wanted = foundLocations.flatMap((l) => (l.organizationId === undefined ? [] : [l.organizationId]));
  for (let depth = 0; depth < MAX_PART_OF_DEPTH && wanted.length > 0; depth++) {
    const ids = [...new Set(wanted)].filter((id) => !seen.has(id));
    ids.forEach((id) => seen.add(id));
    const found = (await Promise.all(ids.map((id) => dataSource.getOrganization(id)))).filter(
      (o): o is DirectoryOrganization => o != null,
    );
    organizations.push(...found);
    wanted = found.flatMap((o) => (o.partOfId === undefined ? [] : [o.partOfId]));
  }

  const directory: Directory = {};
  if (foundPractitioners.length > 0) directory.practitioners = foundPractitioners;
  if (foundLocations.length > 0) directory.locations = foundLocations;
  if (organizations.length > 0) directory.organizations = organizations;
  return directory;
}

/**
 * Create the web-standard export handler. It serves the eleven routes of the export interface under an
 * optional base path, GET and HEAD, and checks in this order (DESIGN.md section 5):
 * route (404) → method (405, `Allow: GET, HEAD`) → API key (401: missing, unknown, revoked) → scope (403)
 * → rate limit (429, `Retry-After`) → parameters (400) → `Accept` (406) → data (404) → 200. A data-source
 * failure gives 500, or 503 for a `DataSourceUnavailableError`.
 *
 * Every request made with a valid key counts against that key's rate limit, whatever its outcome, and every
 * such response carries `x-ratelimit-limit`, `-remaining` and `-reset` (Unix epoch seconds). Every response
 * carries `x-request-id` (the caller's when it is 1–128 characters of `[A-Za-z0-9._:-]`, else a new one),
 * `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. Errors are a FHIR OperationOutcome on the
 * FHIR routes and the directory, RFC 9457 problem+json on the HL7 routes and unknown paths, both with the
 * request id and never a stack, an internal message, a key or a parameter value.
 *
 * Over the in-memory data source (whose records are deep-frozen checked copies fixed at creation), the
 * handler reuses what it derived from a record on later requests for it: the directory records it refers to,
 * an HL7 message template that only needs MSH-7, EVN-2 and MSH-10 filled in, and the JSON text of a Bundle's
 * entries. Each reuse is proven against the builders before it is used and is held in a `WeakMap` keyed by
 * the record, so responses are byte-for-byte what the builders give and nothing outlives the data source.
 * Over any other data source every request builds afresh.
 *
 * @param options - data source, key store and the optional settings of {@link ExportHandlerOptions}
 * @returns `(request: Request) => Promise<Response>`; it answers every request and never rejects, except with
 *   {@link InvalidArgumentError} when called with something that is not a `Request` (a host programming error)
 * @throws {InvalidArgumentError} at creation, for options that are not an object, a `dataSource` or `keyStore`
 *   without its methods, a `rateLimiter` without `consume`, a hook (`now`, `requestId`, `observer`, `onError`,
 *   `hl7.controlId`) that is not a function, an invalid `basePath`, limit, directory rate limit, or `fhir` /
 *   `hl7` option
 * @example
 * const handler = createExportHandler({ dataSource: createInMemoryDataSource(doc), keyStore });
 * export default { fetch: handler }; // Deno, Bun, Cloudflare Workers, Hono: app.get('/*', (c) => handler(c.req.raw))
 * @see ../shared/spec/chart-export-interface.md sections 4, 5, 7 and 8
 */
export function createExportHandler(options: ExportHandlerOptions): ExportHandler {
  const core = createExportCore(options);
  const handler: ExportHandler = async (request) => {
    // Duck-typed, not `instanceof Request`: hosts may run another realm's or a polyfill's Request class.
    // Each member is read once, so a getter cannot answer differently the second time.
    let url: unknown;
    let method: unknown;
    let headers: { get?: unknown } | undefined;
    try {
      const r = request as Partial<Record<'url' | 'method' | 'headers', unknown>> | null | undefined;
      if (typeof r === 'object' && r !== null) ({ url, method, headers } = r as { url: unknown; method: unknown; headers: { get?: unknown } | undefined });
    } catch {
      url = undefined;
    }
    const get = typeof headers === 'object' && headers !== null ? headers.get : undefined;
    if (typeof url !== 'string' || typeof method !== 'string' || typeof get !== 'function') {
      throw new InvalidArgumentError('request', 'must be a fetch Request');
    }
    const head = method === 'HEAD';
    let prepared: PreparedResponse;
    try {
      const parsed = new URL(url);
      prepared = await core.handle({
        method,
        pathname: parsed.pathname,
        search: parsed.search,
        header: (name) => {
          // A real Headers object gives a string or null; a look-alike's other answers count as absent.
          let value: unknown;
          try {
            value = get.call(headers, name);
          } catch {
            value = undefined;
          }
          return typeof value === 'string' ? value : undefined;
        },
        remoteAddress: undefined,
      });
    } catch {
      // handle() never rejects; a Request that is not a real one (a URL that does not parse) can land here.
      prepared = lastResortResponse();
    }
    try {
      return toResponse(prepared, head);
    } catch {
      return toResponse(lastResortResponse(), head);
    }
  };
  Object.defineProperty(handler, EXPORT_CORE, { value: core });
  return handler;
}

/** A `Response` of a prepared answer, with `Content-Length`; no body for HEAD. */
function toResponse(prepared: PreparedResponse, head: boolean): Response {
  const bytes = ENCODER.encode(prepared.body);
  const headers = new Headers(prepared.headers);
  headers.set('content-length', String(bytes.byteLength));
  return new Response(head ? null : bytes, { status: prepared.status, headers });
}

/** A patient the option check builds for: the smallest chart the builders accept. */
const OPTION_CHECK_CHART: PatientChart = Object.freeze({
  patient: { id: 'option-check', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: '1' }], names: [{ family: 'Check' }] },
}) as PatientChart;

/**
 * Refuse FHIR and HL7 options the builders would refuse, when the handler is created rather than with a 500
 * on every request: one build of the smallest chart with them, its InvalidArgumentError renamed to the
 * handler's option (`hl7.sendingApplication`, `fhir.baseUrl`).
 */
function checkOutputOptions(fhirBase: FhirExportOptions, hl7Base: Hl7MessageOptions): void {
  const at = '2026-01-01T00:00:00Z';
  const rename = (prefix: string, error: unknown): never => {
    if (error instanceof InvalidArgumentError) {
      throw new InvalidArgumentError(`${prefix}.${error.argument.replace(/^options\./, '')}`, error.reason, { cause: error });
    }
    throw error;
  };
  try {
    buildFhirDirectoryBundle({}, 'Organization', { ...fhirBase, now: at });
  } catch (error) {
    rename('fhir', error);
  }
  try {
    buildAdtA31(OPTION_CHECK_CHART, { ...hl7Base, now: at, controlId: 'ADT1' });
  } catch (error) {
    rename('hl7', error);
  }
}

/**
 * Build the adapter-independent core. Internal: `createExportHandler` and `toNodeListener` wrap it.
 * @internal
 */
export function createExportCore(options: ExportHandlerOptions): ExportCore {
  checkHostOptions(options);
  const keyStore = options.keyStore;
  // The in-memory source is the package's own and never throws synchronously; any other is guarded.
  const dataSource = isFrozenSource(options.dataSource) ? options.dataSource : guardDataSource(options.dataSource);
  const now = options.now ?? Date.now;
  const rateLimiter = options.rateLimiter ?? createFixedWindowRateLimiter({ now });
  const basePath = normaliseBasePath(options.basePath);
  const limits = resolveLimits(options.limits);
  const generateRequestId = options.requestId ?? defaultRequestId;
  const directoryLimit = options.directoryRateLimit;
  if (directoryLimit !== undefined) {
    checkLimitValue('directoryRateLimit.limit', directoryLimit.limit);
    checkLimitValue('directoryRateLimit.windowSeconds', directoryLimit.windowSeconds);
    if (directoryLimit.limit < 1 || directoryLimit.windowSeconds < 1) {
      throw new InvalidArgumentError('directoryRateLimit', 'limit and windowSeconds must be positive');
    }
  }
  const fhirBase: FhirExportOptions = {};
  if (options.fhir?.baseUrl !== undefined) fhirBase.baseUrl = options.fhir.baseUrl;
  if (options.fhir?.strictBundleTotal !== undefined) fhirBase.strictBundleTotal = options.fhir.strictBundleTotal;
  const hl7Base: Hl7MessageOptions = {};
  for (const key of ['sendingApplication', 'sendingFacility', 'receivingApplication', 'receivingFacility', 'processingId'] as const) {
    const value = options.hl7?.[key];
    if (value !== undefined) (hl7Base as Record<string, unknown>)[key] = value;
  }
  const controlId = options.hl7?.controlId;
  checkOutputOptions(fhirBase, hl7Base);
  // Read once: the hooks are fixed when the handler is created, like every other option.
  const observer = options.observer;
  const onError = options.onError;

  function resolveRequestId(given: string | undefined): string {
    if (given !== undefined && REQUEST_ID_RE.test(given)) return given;
    // A UUID always passes the rule below.
    if (options.requestId === undefined) return defaultRequestId();
    let generated: unknown;
    try {
      generated = settle(generateRequestId());
    } catch {
      generated = undefined;
    }
    // A generator's value goes into a header too, so it must pass the same rule.
    return typeof generated === 'string' && REQUEST_ID_RE.test(generated) ? generated : defaultRequestId();
  }

  let lastMs = Number.NaN;
  let lastIso = '';
  /** The clock as an ISO 8601 instant; formatting costs more than reading, so a repeated millisecond reuses it. */
  function isoNow(): string {
    const ms = now();
    if (ms !== lastMs) {
      lastIso = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastIso;
  }

  function fhirOptions(directory: Directory | undefined): FhirExportOptions {
    const o: FhirExportOptions = { ...fhirBase, now: isoNow() };
    if (directory !== undefined) o.directory = directory;
    return o;
  }

  function hl7Options(route: ExportRouteName, requestId: string, directory: Directory | undefined): Hl7MessageOptions {
    const o: Hl7MessageOptions = { ...hl7Base, now: isoNow() };
    if (controlId !== undefined) o.controlId = settle(controlId({ route, requestId }));
    if (directory !== undefined) o.directory = directory;
    return o;
  }

  /**
   * Templates of HL7 messages, only over a data source whose records are deep-frozen checked copies (the
   * in-memory one): a message built from the same records differs only in MSH-7, EVN-2 and MSH-10. A WeakMap
   * keyed by those records (see internal/hl7-template.ts), so the handler holds no state of its own beyond it.
   */
  const templates: Hl7TemplateCache | undefined = isFrozenSource(options.dataSource) ? createHl7TemplateCache() : undefined;
  /**
   * Templates of Bundles, over the same kind of data source and for the same reason: a Bundle built from the
   * same records differs only in `id` and `timestamp`. A WeakMap keyed by those records (see
   * internal/fhir-template.ts).
   */
  const bundles: FhirBundleCache | undefined = templates === undefined ? undefined : createFhirBundleCache();

  /**
   * A FHIR export: the builder's Bundle as JSON, or its template filled with this request's time (the same
   * bytes). `records` lists every record (and limit) the Bundle is built from, `key` first.
   */
  function fhirExport<TOptions extends FhirExportOptions>(
    route: ExportRouteName,
    key: object,
    records: readonly unknown[],
    options: TOptions,
    build: (options: TOptions) => ReturnType<typeof buildFhirPatientExport>,
  ): PreparedBody {
    if (bundles === undefined) return { body: JSON.stringify(build(options)) };
    return { body: bundles.render(route, key, records, options.now as string, (at) => build({ ...options, now: at })) };
  }

  /**
   * An HL7 export of one record: the builder's message, or its template filled with this request's time and
   * control id (the same bytes). `records` lists every record the message is built from, `key` first.
   */
  function hl7Export(
    route: ExportRouteName,
    requestId: string,
    messageCode: 'ADT' | 'MDM' | 'ORU',
    key: object,
    records: readonly unknown[],
    directory: Directory | undefined,
    build: (options: Hl7MessageOptions) => string,
  ): PreparedBody {
    if (templates === undefined) return { body: build(hl7Options(route, requestId, directory)) };
    const at = isoNow();
    // The default control id is drawn here, so the template can carry it.
    const id = controlId === undefined ? generateControlId(messageCode) : settle(controlId({ route, requestId }));
    if (typeof id !== 'string') {
      // Let the builder refuse it, as without templates.
      const o: Hl7MessageOptions = { ...hl7Base, now: at, controlId: id };
      if (directory !== undefined) o.directory = directory;
      return { body: build(o) };
    }
    const body = templates.render(route, key, records, messageCode, at, id, (t, c) => {
      const o: Hl7MessageOptions = { ...hl7Base, now: t, controlId: c };
      if (directory !== undefined) o.directory = directory;
      return build(o);
    });
    return { body };
  }

  /**
   * The directory records each record refers to, over a frozen source only: its records and directory are
   * fixed when it is created, so the answer for a record is the same on every request. A WeakMap keyed by
   * the frozen record (with the other record the answer depends on, e.g. the note's encounter).
   */
  const directories = templates === undefined ? undefined : new WeakMap<object, { readonly other: unknown; readonly directory: Directory | undefined }>();

  /** {@link gatherDirectory}, answered from {@link directories} when it can (then without a promise). */
  function directoryFor(
    key: object,
    other: unknown,
    records: Parameters<typeof gatherDirectory>[1],
  ): Directory | undefined | Promise<Directory | undefined> {
    if (directories === undefined) return gatherDirectory(dataSource, records);
    const kept = directories.get(key);
    if (kept !== undefined && kept.other === other) return kept.directory;
    return gatherDirectory(dataSource, records).then((directory) => {
      directories.set(key, { other, directory });
      return directory;
    });
  }

  /** The directory records of a message, in a fixed order, for the template's identity check. */
  function directoryRecords(directory: Directory | undefined): unknown[] {
    if (directory === undefined) return [];
    return [
      ...(directory.practitioners ?? []),
      undefined,
      ...(directory.locations ?? []),
      undefined,
      ...(directory.organizations ?? []),
    ];
  }

  function limitFor(route: RouteDefinition): (parameter: string) => ResolvedLimit {
    return (parameter) => limits[route.limits[parameter] as LimitName];
  }

  /**
   * The encounters a patient Bundle's notes and assessments refer to that are not among the listed newest
   * `limit` (read with `getEncounter`, scoped to the patient), so that the builder can give their logical
   * references a display. Only encounters the builder would not take as entries in place of a listed one are
   * kept: the list must be full (else the source says there is no other encounter) and each must be no newer
   * than the oldest listed (equals keep the listed first, as the builder's sort is stable). What a source gives
   * otherwise is left out, and that reference has no display, as before.
   */
  async function referencedEncounters(patientId: string, listed: PatientChart, limit: number): Promise<Encounter[]> {
    const encounters = listed.encounters ?? [];
    if (encounters.length < limit) return [];
    const have = new Set(encounters.map((e) => e.id));
    const wanted = new Set<string>();
    for (const record of [...(listed.notes ?? []), ...(listed.assessments ?? [])]) {
      const id = record.encounterId;
      if (id !== undefined && !have.has(id)) wanted.add(id);
    }
    if (wanted.size === 0) return [];
    let oldest = Number.POSITIVE_INFINITY;
    for (const e of encounters) oldest = Math.min(oldest, orderKeyOf(e.period?.start));
    // A few reads at a time: a Bundle may refer to up to noteLimit + assessmentLimit encounters, and a
    // database-backed source should not get them all at once.
    const ids = [...wanted];
    const found = await mapInBatches(ids, REFERENCE_READS_AT_ONCE, (id) => dataSource.getEncounter(patientId, id));
    return found.filter(
      (e, i): e is Encounter =>
        e != null &&
        typeof e === 'object' &&
        // The encounter asked for, and each once: a source that answers another id is not trusted with it.
        e.id === ids[i] &&
        orderKeyOf(e.period?.start) <= oldest &&
        // Only for a display: an encounter that fails the chart check is left out (its references keep no
        // display) rather than failing the whole Bundle.
        checkPatientChart({ patient: listed.patient, encounters: [e] }).every((issue) => issue.path[0] !== 'encounters'),
    );
  }

  /** The export itself: read what the route needs, build, serialise. */
  async function exportRoute(route: RouteDefinition, params: RouteParameters, requestId: string): Promise<PreparedBody> {
    const ids = params.ids;
    const patientId = ids['patientId'] as string;
    const json = (value: unknown): PreparedBody => ({ body: JSON.stringify(value) });
    switch (route.name) {
      case 'publicFhirDirectory': {
        const limit = params.limits['limit'] as number;
        const resourceType = params.resourceType ?? 'Organization';
        const directory: Directory = {};
        if (resourceType === 'Organization') directory.organizations = [...(await dataSource.listOrganizations(limit))];
        else if (resourceType === 'Practitioner') directory.practitioners = [...(await dataSource.listPractitioners(limit))];
        else {
          directory.locations = [...(await dataSource.listLocations(limit))];
          // The managing organizations are not entries of a Location searchset, but with them at hand the
          // builder gives each logical reference its display name.
          const ids = [...new Set(directory.locations.flatMap((l) => (l.organizationId === undefined ? [] : [l.organizationId])))];
          const organizations = (await Promise.all(ids.map((id) => dataSource.getOrganization(id)))).filter(
            (o): o is DirectoryOrganization => o != null,
          );
          if (organizations.length > 0) directory.organizations = organizations;
        }
        return json(buildFhirDirectoryBundle(directory, resourceType, { ...fhirOptions(undefined), limit }));
      }
      case 'exportFhirPatient':
      case 'exportHl7PatientAdt': {
        const patient = await dataSource.getPatient(patientId);
        if (patient == null) return notFound('patient');
        const chart: PatientChart = { patient };
        return route.name === 'exportFhirPatient'
          ? fhirExport(route.name, patient, [patient], fhirOptions(undefined), (o) => buildFhirPatientExport(chart, o))
          : hl7Export(route.name, requestId, 'ADT', patient, [patient], undefined, (o) => buildAdtA31(chart, o));
      }
      case 'exportFhirPatientBundle':
      case 'exportHl7PatientSummary': {
        const summary = route.name === 'exportHl7PatientSummary';
        const l = params.limits;
        // The summary's limit caps the total: the newest `limit` of each kind hold the newest `limit` overall.
        const n = (name: string): number => (summary ? (l['limit'] as number) : (l[name] as number));
        const [patient, encounters, notes, assessments, medicalHistory] = await Promise.all([
          dataSource.getPatient(patientId),
          dataSource.listEncounters(patientId, n('encounterLimit')),
          dataSource.listNotes(patientId, n('noteLimit')),
          dataSource.listAssessments(patientId, n('assessmentLimit')),
          dataSource.listMedicalHistory(patientId, n('medicalHistoryLimit')),
        ]);
        if (patient == null) return notFound('patient');
        const listed: PatientChart = {
          patient,
          encounters: [...encounters],
          notes: [...notes],
          assessments: [...assessments],
          medicalHistory: [...medicalHistory],
        };
        const directory = await gatherDirectory(dataSource, listed);
        if (summary) {
          return { body: buildAdrA19(listed, { ...hl7Options(route.name, requestId, directory), limit: n('limit') }) };
        }
        // Encounters the notes and assessments refer to beyond the encounter limit: not entries, but with them
        // at hand the builder gives each logical reference its display, as it does given the whole chart.
        const referenced = await referencedEncounters(patientId, listed, n('encounterLimit'));
        const chart: PatientChart = referenced.length === 0 ? listed : { ...listed, encounters: [...encounters, ...referenced] };
        const bundleLimits = {
          encounters: n('encounterLimit'),
          notes: n('noteLimit'),
          assessments: n('assessmentLimit'),
          medicalHistory: n('medicalHistoryLimit'),
        };
        const records = [
          patient,
          ...encounters,
          undefined,
          ...referenced,
          undefined,
          ...notes,
          undefined,
          ...assessments,
          undefined,
          ...medicalHistory,
          undefined,
          bundleLimits.encounters,
          bundleLimits.notes,
          bundleLimits.assessments,
          bundleLimits.medicalHistory,
          ...directoryRecords(directory),
        ];
        return fhirExport(route.name, patient, records, { ...fhirOptions(directory), limits: bundleLimits }, (o) =>
          buildFhirPatientBundle(chart, o),
        );
      }
      case 'exportFhirEncounter':
      case 'exportHl7Encounter': {
        const encounterId = ids['encounterId'] as string;
        const [patient, encounter] = await Promise.all([
          dataSource.getPatient(patientId),
          dataSource.getEncounter(patientId, encounterId),
        ]);
        if (patient == null) return notFound('patient');
        if (encounter == null) return notFound('encounter');
        const chart: PatientChart = { patient, encounters: [encounter] };
        const found = directoryFor(encounter, undefined, chart);
        const directory = found instanceof Promise ? await found : found;
        // Over a frozen source the directory object itself is kept per record, so it stands for its records.
        const records = [encounter, patient, directory];
        return route.name === 'exportFhirEncounter'
          ? fhirExport(route.name, encounter, records, fhirOptions(directory), (o) => buildFhirEncounterExport(chart, encounterId, o))
          : hl7Export(route.name, requestId, 'ADT', encounter, records, directory, (o) =>
              buildAdtA08(chart, encounterId, o),
            );
      }
      case 'exportFhirNote':
      case 'exportHl7Note': {
        const noteId = ids['noteId'] as string;
        const [patient, note] = await Promise.all([dataSource.getPatient(patientId), dataSource.getNote(patientId, noteId)]);
        if (patient == null) return notFound('patient');
        if (note == null) return notFound('note');
        const encounter = note.encounterId === undefined ? undefined : ((await dataSource.getEncounter(patientId, note.encounterId)) ?? undefined);
        const chart: PatientChart = { patient, notes: [note], encounters: encounter === undefined ? [] : [encounter] };
        const found = directoryFor(note, encounter, chart);
        const directory = found instanceof Promise ? await found : found;
        const records = [note, patient, encounter, directory];
        return route.name === 'exportFhirNote'
          ? fhirExport(route.name, note, records, fhirOptions(directory), (o) => buildFhirNoteExport(chart, noteId, o))
          : hl7Export(route.name, requestId, 'MDM', note, records, directory, (o) =>
              buildMdmT02(chart, noteId, o),
            );
      }
      case 'exportFhirAssessment':
      case 'exportHl7Assessment': {
        const assessmentId = ids['assessmentId'] as string;
        const [patient, assessment] = await Promise.all([
          dataSource.getPatient(patientId),
          dataSource.getAssessment(patientId, assessmentId),
        ]);
        if (patient == null) return notFound('patient');
        if (assessment == null) return notFound('assessment');
        const encounter =
          assessment.encounterId === undefined ? undefined : ((await dataSource.getEncounter(patientId, assessment.encounterId)) ?? undefined);
        const chart: PatientChart = { patient, assessments: [assessment], encounters: encounter === undefined ? [] : [encounter] };
        const found = directoryFor(assessment, encounter, chart);
        const directory = found instanceof Promise ? await found : found;
        const records = [assessment, patient, encounter, directory];
        return route.name === 'exportFhirAssessment'
          ? fhirExport(route.name, assessment, records, fhirOptions(directory), (o) => buildFhirAssessmentExport(chart, assessmentId, o))
          : hl7Export(route.name, requestId, 'ORU', assessment, records, directory, (o) =>
              buildOruR01(chart, assessmentId, o),
            );
      }
    }
  }

  /**
   * Count a request through the host's rate limiter and set the `x-ratelimit-*` headers from its checked
   * decision.
   * @throws what the limiter throws, or {@link InvalidArgumentError} for a malformed decision (a 500)
   */
  async function consumeRateLimit(headers: Record<string, string>, key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const decision = readDecision(await rateLimiter.consume(key, limit, windowSeconds));
    headers['x-ratelimit-limit'] = String(decision.limit);
    headers['x-ratelimit-remaining'] = String(decision.remaining);
    headers['x-ratelimit-reset'] = String(decision.reset);
    return decision;
  }

  function rateLimited(headers: Record<string, string>, decision: RateLimitDecision): HttpError {
    // A checked decision: retryAfter is a finite non-negative number on a denial.
    headers['retry-after'] = String(Math.max(1, Math.ceil(decision.retryAfter)));
    return ERRORS.rateLimited;
  }

  /** Everything between the route match and the body: returns the body or the error to render. */
  async function checkAndExport(
    call: IncomingCall,
    route: RouteDefinition,
    requestId: string,
    headers: Record<string, string>,
    state: { partnerId: string | undefined },
  ): Promise<PreparedBody> {
    if (call.method !== 'GET' && call.method !== 'HEAD') {
      headers['allow'] = ALLOW;
      return ERRORS.methodNotAllowed;
    }
    if (route.scope !== undefined) {
      const key = call.header('x-api-key');
      if (key === undefined || key === '') {
        headers['www-authenticate'] = WWW_AUTHENTICATE;
        return ERRORS.keyMissing;
      }
      const found: unknown = await keyStore.lookup(key);
      // `null` is "not found" too, as from a data source.
      const record = found == null ? undefined : readKeyRecord(found);
      if (record === undefined || record.revoked) {
        headers['www-authenticate'] = WWW_AUTHENTICATE;
        return ERRORS.keyInvalid;
      }
      state.partnerId = record.partnerId;
      // Every request with a valid key counts, so a 403 or 400 carries the rate-limit headers too.
      const decision = await consumeRateLimit(headers, `key:${record.keyId}`, record.rateLimit.limit, record.rateLimit.windowSeconds);
      if (!record.scopes.includes(route.scope)) return scopeMissing(route.scope);
      if (!decision.allowed) return rateLimited(headers, decision);
    } else if (directoryLimit !== undefined) {
      const client: ClientInfo = { remoteAddress: call.remoteAddress, header: call.header };
      const address = directoryLimit.clientAddress === undefined ? call.remoteAddress : settle(directoryLimit.clientAddress(client));
      if (address !== undefined && typeof address !== 'string') {
        throw new InvalidArgumentError('directoryRateLimit.clientAddress() result', 'must be a string or undefined');
      }
      const counter = address === undefined || address === '' ? 'unknown' : address;
      const decision = await consumeRateLimit(headers, `directory:${counter}`, directoryLimit.limit, directoryLimit.windowSeconds);
      if (!decision.allowed) return rateLimited(headers, decision);
    }
    const query = parseQuery(call.search);
    if (query === undefined) return ERRORS.malformedQuery;
    const params = checkParameters(route, query, limitFor(route));
    if (Array.isArray(params)) return invalidParameters(params);
    // 406 after the parameter check and before any data is read: a refused representation costs no read
    // and says nothing about which records exist. From here on the answer depends on Accept (RFC 9110 12.5.5).
    headers['vary'] = 'Accept';
    if (!acceptsFormat(call.header('accept'), route.format)) return ERRORS.notAcceptable[route.format];
    return exportRoute(route, params, requestId);
  }

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

  async function handle(call: IncomingCall): Promise<PreparedResponse> {
    // The clock is read only for an observer, the one reader of the duration.
    const started = observer === undefined ? 0 : performance.now();
    const requestId = resolveRequestId(call.header('x-request-id'));
    const headers: Record<string, string> = {
      'x-request-id': requestId,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    };
    const state: { partnerId: string | undefined } = { partnerId: undefined };
    const route = matchRoute(call.pathname, basePath);
    let result: PreparedBody;
    if (route === undefined) {
      result = ERRORS.routeNotFound;
    } else {
      try {
        result = await checkAndExport(call, route, requestId, headers, state);
      } catch (error) {
        const failure = classifyFailure(error);
        if (failure.kind === 'not-found') {
          result = notFound(failure.recordType);
        } else {
          if (failure.kind === 'unavailable') {
            if (failure.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
            result = ERRORS.unavailable;
          } else {
            result = ERRORS.internal;
          }
          safeCall(onError, error, { requestId, route: route.name });
        }
      }
    }
    const prepared = render(route, result, requestId, headers);
    if (observer === undefined) return prepared;
    safeCall(observer, {
      requestId,
      route: route?.name,
      method: call.method,
      status: prepared.status,
      durationMs: performance.now() - started,
      partnerId: state.partnerId,
    });
    return prepared;
  }

  return { handle };
}
