/**
 * The options of `createExportHandler`: their types, the checks run when a handler is created (a wrong option
 * fails there, never as a 500 on every request), and the settings the request pipeline reads, resolved once.
 */
import {
  InvalidArgumentError,
  buildAdtA31,
  buildFhirDirectoryBundle,
  type FhirExportOptions,
  type Hl7MessageOptions,
  type PatientChart,
} from '../index.js';
import { DATA_SOURCE_METHODS, type ChartDataSource } from './data-source.js';
import { guardDataSource, isObject } from './guards.js';
import { isFrozenSource } from './internal/frozen-source.js';
import type { ResolvedLimit } from './internal/query.js';
import type { KeyStore } from './key-store.js';
import { createFixedWindowRateLimiter, type RateLimiter } from './rate-limiter.js';
import type { ExportRouteName, LimitName } from './routes/route-types.js';

/** A limit setting: the value used when the parameter is absent, and the largest value honoured (larger ones are clamped). */
export interface LimitSetting {
  /** Used when the request does not give the parameter. A non-negative integer ≤ `max`. */
  readonly default?: number | undefined;
  /** The largest value honoured; a larger requested value is clamped to it. A non-negative integer. */
  readonly max?: number | undefined;
}

/**
 * Limits of the record-count parameters: without the parameter a route uses `default`; a larger value than
 * `max` is clamped to `max`, not refused. Each missing setting takes {@link DEFAULT_LIMITS}.
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
  /** Absolute `fullUrl` base (the service's base URL); default relative `Type/id` (FHIR R4 Bundle.entry.fullUrl may be relative to the server base, https://hl7.org/fhir/R4/bundle.html#bundle-unique). */
  readonly baseUrl?: string | undefined;
  /** Omit `Bundle.total` on `collection` Bundles (R4 invariant bdl-1); default false: `total` is sent on every Bundle. */
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

/** The options of a handler, checked and resolved once: what the request pipeline reads. */
export interface HandlerSettings {
  /** The host's data source, guarded (every method returns a promise) unless it is the in-memory one. */
  readonly dataSource: ChartDataSource;
  /** Whether the data source serves deep-frozen records fixed at creation (the in-memory one): output may be reused. */
  readonly frozenSource: boolean;
  readonly keyStore: KeyStore;
  readonly rateLimiter: RateLimiter;
  readonly now: () => number;
  /** `''` or `/prefix`, normalised as the WHATWG URL parser normalises request paths. */
  readonly basePath: string;
  readonly limits: Readonly<Record<LimitName, ResolvedLimit>>;
  readonly directoryRateLimit: DirectoryRateLimitOptions | undefined;
  /** The fixed FHIR builder options (`now` and `directory` are added per request). */
  readonly fhir: FhirExportOptions;
  /** The fixed HL7 builder options (`now`, `controlId` and `directory` are added per request). */
  readonly hl7: Hl7MessageOptions;
  readonly controlId: HandlerHl7Options['controlId'];
  readonly requestId: (() => string) | undefined;
  readonly observer: ExportHandlerOptions['observer'];
  readonly onError: ExportHandlerOptions['onError'];
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

function checkDirectoryRateLimit(directoryLimit: DirectoryRateLimitOptions | undefined): void {
  if (directoryLimit === undefined) return;
  checkLimitValue('directoryRateLimit.limit', directoryLimit.limit);
  checkLimitValue('directoryRateLimit.windowSeconds', directoryLimit.windowSeconds);
  if (directoryLimit.limit < 1 || directoryLimit.windowSeconds < 1) {
    throw new InvalidArgumentError('directoryRateLimit', 'limit and windowSeconds must be positive');
  }
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

/** A patient the option check builds for: the smallest chart the builders accept. */
const OPTION_CHECK_CHART: PatientChart = Object.freeze({
  patient: { id: 'option-check', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: '1' }], names: [{ family: 'Check' }] },
}) as PatientChart;

/** A builder's refusal of an option, renamed to the handler's option (`options.baseUrl` → `fhir.baseUrl`). */
function renameOptionError(prefix: 'fhir' | 'hl7', error: unknown): never {
  if (error instanceof InvalidArgumentError) {
    throw new InvalidArgumentError(`${prefix}.${error.argument.replace(/^options\./, '')}`, error.reason, { cause: error });
  }
  throw error;
}

/**
 * Refuse FHIR and HL7 options the builders would refuse, when the handler is created rather than with a 500
 * on every request: one build of the smallest chart with them, its InvalidArgumentError renamed to the
 * handler's option (`hl7.sendingApplication`, `fhir.baseUrl`).
 */
function checkOutputOptions(fhirBase: FhirExportOptions, hl7Base: Hl7MessageOptions): void {
  const at = '2026-01-01T00:00:00Z';
  try {
    buildFhirDirectoryBundle({}, 'Organization', { ...fhirBase, now: at });
  } catch (error) {
    renameOptionError('fhir', error);
  }
  try {
    buildAdtA31(OPTION_CHECK_CHART, { ...hl7Base, now: at, controlId: 'ADT1' });
  } catch (error) {
    renameOptionError('hl7', error);
  }
}

/** The fixed builder options of the handler's `fhir` and `hl7` options, checked against the builders. */
function resolveOutputOptions(options: ExportHandlerOptions): { fhir: FhirExportOptions; hl7: Hl7MessageOptions } {
  const fhir: FhirExportOptions = {};
  if (options.fhir?.baseUrl !== undefined) fhir.baseUrl = options.fhir.baseUrl;
  if (options.fhir?.strictBundleTotal !== undefined) fhir.strictBundleTotal = options.fhir.strictBundleTotal;
  const hl7: Hl7MessageOptions = {};
  for (const key of ['sendingApplication', 'sendingFacility', 'receivingApplication', 'receivingFacility', 'processingId'] as const) {
    const value = options.hl7?.[key];
    if (value !== undefined) (hl7 as Record<string, unknown>)[key] = value;
  }
  checkOutputOptions(fhir, hl7);
  return { fhir, hl7 };
}

/**
 * Check the options of `createExportHandler` and resolve them into the settings the pipeline reads. The hooks
 * are read once, here: they are fixed when the handler is created, like every other option.
 * @throws {InvalidArgumentError} for an option of the wrong type or value (see `createExportHandler`)
 */
export function resolveHandlerSettings(options: ExportHandlerOptions): HandlerSettings {
  checkHostOptions(options);
  const frozenSource = isFrozenSource(options.dataSource);
  // The in-memory source is the package's own and never throws synchronously; any other is guarded.
  const dataSource = frozenSource ? options.dataSource : guardDataSource(options.dataSource);
  const now = options.now ?? Date.now;
  const rateLimiter = options.rateLimiter ?? createFixedWindowRateLimiter({ now });
  const basePath = normaliseBasePath(options.basePath);
  const limits = resolveLimits(options.limits);
  checkDirectoryRateLimit(options.directoryRateLimit);
  const output = resolveOutputOptions(options);
  return {
    dataSource,
    frozenSource,
    keyStore: options.keyStore,
    rateLimiter,
    now,
    basePath,
    limits,
    directoryRateLimit: options.directoryRateLimit,
    fhir: output.fhir,
    hl7: output.hl7,
    controlId: options.hl7?.controlId,
    requestId: options.requestId,
    observer: options.observer,
    onError: options.onError,
  };
}
