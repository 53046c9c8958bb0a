/**
 * chart-export/http: the export interface over HTTP. A web-standard handler
 * (`(request: Request) => Promise<Response>`) for Node's fetch, Deno, Bun, edge runtimes, Hono and Next.js,
 * a `node:http` listener for `http.createServer` and Express, and the host interfaces (data source, key
 * store, rate limiter) with in-memory implementations, plus a rate limiter shared over Redis.
 */

// Handler
export { createExportHandler } from './handler.js';
export { DEFAULT_DATA_SOURCE_TIMEOUT_MS, DEFAULT_LIMITS } from './handler-options.js';
export type {
  ExportHandler,
  ExportHandlerOptions,
  ExportLimits,
  LimitSetting,
  ExportObservation,
  HandlerErrorContext,
  ClientInfo,
  DirectoryRateLimitOptions,
  HandlerFhirOptions,
  HandlerHl7Options,
} from './handler-options.js';
export type { BulkRouteName, ExportRouteName, LimitName, ObservedRouteName } from './routes/route-types.js';

// Node listener
export { toNodeListener } from './node.js';
export type { NodeListener } from './node.js';
export type { NodeRequestLike, NodeResponseLike } from './node-types.js';

// Data source
export { compareIds, createInMemoryDataSource, loadChartDocument } from './data-source.js';
export type { ChartDataSource, KeysetPage } from './data-source.js';

// Keys
export {
  API_KEY_SCOPES,
  DEFAULT_KEY_RATE_LIMIT,
  MAX_API_KEY_LENGTH,
  createInMemoryKeyStore,
  hashApiKey,
} from './key-store.js';
export type {
  ApiKeyScope,
  ApiKeyRateLimit,
  ApiKeyRecord,
  KeyStore,
  InMemoryKeyEntry,
  InMemoryKeyStore,
  InMemoryKeyStoreOptions,
} from './key-store.js';

export { KeyFileError, parseKeyFile } from './key-file.js';
export type { KeyFileIssue } from './key-file.js';

// Rate limiting
export { createFixedWindowRateLimiter } from './rate-limiter.js';
export type { RateLimiter, RateLimitDecision, FixedWindowRateLimiter, FixedWindowRateLimiterOptions } from './rate-limiter.js';
export { createRedisRateLimiter, DEFAULT_REDIS_RATE_LIMIT_PREFIX } from './redis-rate-limiter.js';
export type {
  RedisRateLimiter,
  RedisRateLimiterOptions,
  RedisRateLimiterErrorContext,
  RedisCommandClient,
  RedisCallClient,
  RedisSendCommandClient,
} from './redis-rate-limiter.js';

// Bulk Data export (FHIR Bulk Data Access IG STU2)
export { createInMemoryBulkJobStore, createRedisBulkJobStore } from './bulk/job-store.js';
export type { BulkJobStore, BulkJobRecord, BulkJobFile, BulkJobFailure, RedisBulkJobStoreOptions } from './bulk/job-store.js';
export { createInMemoryBulkOutputStore, createRedisBulkOutputStore } from './bulk/output-store.js';
export type { BulkOutputStore, RedisBulkOutputStoreOptions } from './bulk/output-store.js';
export type { BulkExportOptions } from './bulk/bulk-routes.js';

// OpenAPI description
export { createOpenApiDocument } from './openapi.js';
export type { OpenApiDocument, OpenApiDocumentOptions, OpenApiValue } from './openapi.js';

// Prometheus metrics
export { createExportMetrics, DEFAULT_DURATION_BUCKETS, EXPORT_ERROR_SOURCES, METRICS_CONTENT_TYPE } from './metrics.js';
export type { ExportMetrics, ExportMetricsOptions, ExportErrorContext, ExportErrorSource, MetricsRouteLabel } from './metrics.js';

// Errors
export { DataSourceUnavailableError, DataSourceTimeoutError, DATA_SOURCE_UNAVAILABLE, isDataSourceUnavailable } from './errors.js';
