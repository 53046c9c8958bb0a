/**
 * The options of `createExportHandler`: their types, their defaults, and the settings the request pipeline
 * reads, resolved once (handler-settings.ts checks and resolves them).
 */
import type { FhirExportOptions, Hl7MessageOptions } from '../index.js';
import type { ChartDataSource } from './data-source.js';
import type { ResolvedLimit } from './internal/query.js';
import type { KeyStore } from './key-store.js';
import type { ExportErrorSource, ExportMetrics } from './metrics.js';
import type { RateLimiter } from './rate-limiter.js';
import type { ExportRouteName, LimitName, ObservedRouteName } from './routes/route-types.js';
import type { BulkExportOptions } from './bulk/bulk-routes.js';

/** The default of {@link ExportHandlerOptions.dataSourceTimeoutMs}: 10 seconds. */
export const DEFAULT_DATA_SOURCE_TIMEOUT_MS = 10_000;

/** The largest {@link ExportHandlerOptions.dataSourceTimeoutMs} a timer can hold (2^31 - 1 ms, about 24.8 days). */
export const MAX_DATA_SOURCE_TIMEOUT_MS = 2_147_483_647;

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
export const DEFAULT_LIMITS: {
  readonly [K in LimitName]: {
    /** The value used when the parameter is absent. */
    readonly default: number;
    /** The largest value served; a larger one is clamped to it. */
    readonly max: number;
  };
} = Object.freeze({
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
  /** The matched route (an export route, or a Bulk Data route when the option `bulk` is set), or `undefined` for an unknown path. */
  readonly route: ObservedRouteName | undefined;
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
   * Called with the raw error behind a 500 or 503 (data source, key store, rate limiter, builder), and with
   * the error of a readiness check that failed, for the host's logs. The error is never sent to the client.
   * Its message is the host's own or a core message (which names fields, never patient values). Exceptions
   * it throws are ignored. `context.source` says which part failed (see {@link ExportErrorContext}).
   */
  readonly onError?: ((error: unknown, context: HandlerErrorContext) => void) | undefined;
  /**
   * Serve `GET /healthz` (liveness: 200 `{"status":"ok"}`) and `GET /readyz` (readiness: 200
   * `{"status":"ready"}` when the data source's and the rate limiter's optional `ping` resolve, else 503
   * `{"status":"unavailable","reason":…}` with `Retry-After`), under `basePath`. Default false: those paths
   * are no route (404). They need no key, are never counted against a rate limit and never read patient data.
   */
  readonly healthRoutes?: boolean | undefined;
  /**
   * Prometheus metrics from `createExportMetrics()`. When given, the handler feeds it (its `observer` and
   * `onError`, besides the host's own hooks, and `recordDataSourceTimeout()` for every data-source timeout)
   * and serves `GET /metrics` under `basePath` (the Prometheus text format, `METRICS_CONTENT_TYPE`). Default
   * none: `/metrics` is no route.
   */
  readonly metrics?: ExportMetrics | undefined;
  /**
   * Serve `GET /openapi.json` under `basePath`: the `createOpenApiDocument` description of this handler (its
   * `basePath` and `limits`), built once when the handler is created. Default false: the path is no route.
   */
  readonly openApi?: boolean | undefined;
  /**
   * Serve FHIR Bulk Data export (IG STU2): `GET|POST {base}/$export` and `{base}/Patient/$export`, the status
   * and file URLs they give, and `GET {base}/metadata` (a CapabilityStatement). `true` for the defaults (jobs and
   * files in this process's memory), or {@link BulkExportOptions} (shared stores for several instances, file
   * size, retention, per-key cap). Needs a data source with `listPatients`; without it a kick-off answers 501.
   * Default none: those paths are no route. See docs/bulk-export.md.
   */
  readonly bulk?: BulkExportOptions | boolean | undefined;
  /**
   * How long the data reads of one request may take together, in milliseconds: when they have not settled by
   * then, the request is answered 503 (`unavailable`, `Retry-After: 5`) in the route's error format, the
   * `AbortSignal` given to every data-source call fires with a `DataSourceTimeoutError`, which goes to
   * `onError` (`source: 'data_source'`), and `metrics.recordDataSourceTimeout()` counts it. Also bounds the
   * `ping` calls of `/readyz`. A positive integer up to 2^31 - 1. Default {@link DEFAULT_DATA_SOURCE_TIMEOUT_MS}
   * (10 000). The in-memory data source, which answers at once, is never timed.
   */
  readonly dataSourceTimeoutMs?: number | undefined;
}

/**
 * What {@link ExportHandlerOptions.onError} is given with the error: the request, and which part failed. It
 * fits `ExportMetrics.onError`.
 */
export interface HandlerErrorContext {
  /** The request id of the answer. */
  readonly requestId: string;
  /** The matched route (an export or a Bulk Data route), or `undefined` for an operational route (`/readyz`). */
  readonly route: ObservedRouteName | undefined;
  /**
   * Which part failed: `data_source` (a read, a timeout, or its `ping` on `/readyz`), `key_store`,
   * `rate_limiter` (its `consume`, its `ping` on `/readyz`, or `directoryRateLimit.clientAddress`),
   * `builder` (the FHIR or HL7 build, or `hl7.controlId`), or `unknown` (the metrics' `render` on `/metrics`).
   */
  readonly source: ExportErrorSource;
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
  /**
   * Whether the data source declares identity-stable records (`ChartDataSource.stableRecords`; never with
   * `frozenSource`): rendered output may be reused per record identity, but data is read on every request.
   */
  readonly stableRecords: boolean;
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
  /** The host's observer and the metrics' one, combined. */
  readonly observer: ExportHandlerOptions['observer'];
  /** The host's onError and the metrics' one, combined. */
  readonly onError: ExportHandlerOptions['onError'];
  readonly metrics: ExportMetrics | undefined;
  readonly healthRoutes: boolean;
  readonly openApi: boolean;
  readonly dataSourceTimeoutMs: number;
}
