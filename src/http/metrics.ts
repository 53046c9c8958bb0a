/**
 * Prometheus metrics of the export handler, without a dependency: `createExportMetrics()` gives the
 * handler's `observer` and `onError` hooks and renders what they saw in the Prometheus text format 0.0.4.
 * Label values come from fixed sets only (route names, statuses, error sources), never from a request.
 */
import { ChartExportError, InvalidArgumentError } from '../index.js';
import { isDataSourceUnavailable } from './errors.js';
import type { ExportObservation } from './handler-options.js';
import { PROMETHEUS_CONTENT_TYPE, formatFamilyHeader, formatSample, formatValue } from './internal/prometheus.js';
import { BULK_ROUTE_NAMES, EXPORT_ROUTE_NAMES, type ObservedRouteName } from './routes/route-types.js';

/** The media type of {@link ExportMetrics.render}'s text: `text/plain; version=0.0.4; charset=utf-8`. */
export const METRICS_CONTENT_TYPE = PROMETHEUS_CONTENT_TYPE;

/** The default upper bounds of the request-duration histogram, in seconds (Prometheus client defaults). */
export const DEFAULT_DURATION_BUCKETS: readonly number[] = Object.freeze([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

/** Where an error behind a 500 or 503 came from; `unknown` when the error does not tell. */
export type ExportErrorSource = 'data_source' | 'rate_limiter' | 'key_store' | 'builder' | 'unknown';

/** The `source` label values of `chart_export_errors_total`. */
export const EXPORT_ERROR_SOURCES: readonly ExportErrorSource[] = Object.freeze(['data_source', 'rate_limiter', 'key_store', 'builder', 'unknown']);

/** The `route` label: one of the eleven route names or a Bulk Data route name, or `other` (an unknown path, or anything else). */
export type MetricsRouteLabel = ObservedRouteName | 'other';

/** The statuses the handler answers with; any other is counted as `other`. */
const KNOWN_STATUSES: readonly number[] = [200, 202, 400, 401, 403, 404, 405, 406, 413, 429, 500, 501, 503];

/** What the `onError` hook of {@link ExportMetrics} is given: the handler's context, optionally with the source. */
export interface ExportErrorContext {
  /** The request id of the answer (not used as a label). */
  readonly requestId: string;
  /** The matched route, or `undefined` for an unknown path (`route="other"`). */
  readonly route: ObservedRouteName | undefined;
  /** Where the error came from, when the caller knows; else it is told from the error (see {@link createExportMetrics}). */
  readonly source?: ExportErrorSource | undefined;
}

/** Options of {@link createExportMetrics}. */
export interface ExportMetricsOptions {
  /** Upper bounds of the request-duration histogram in seconds: finite, positive, increasing. Default {@link DEFAULT_DURATION_BUCKETS}. */
  readonly buckets?: readonly number[] | undefined;
}

/** The metrics of one handler (or several sharing it). */
export interface ExportMetrics {
  /**
   * Give as the handler's `observer`: counts the request, its duration, and a 429 as a rate-limit denial.
   * Throws `InvalidArgumentError` for something that is not a readable object (the handler ignores what its hooks throw).
   */
  readonly observer: (observation: ExportObservation) => void;
  /** Give as the handler's `onError`: counts the error behind a 500 or 503 by source and kind. */
  readonly onError: (error: unknown, context: ExportErrorContext) => void;
  /** Count a request whose data reads timed out (the handler calls it on each `dataSourceTimeoutMs` expiry). */
  readonly recordDataSourceTimeout: () => void;
  /** Everything counted so far, in the Prometheus text exposition format 0.0.4 ({@link METRICS_CONTENT_TYPE}). */
  readonly render: () => string;
}

const ROUTE_SET: ReadonlySet<string> = new Set([...EXPORT_ROUTE_NAMES, ...BULK_ROUTE_NAMES]);
const ROUTE_LABELS: readonly MetricsRouteLabel[] = [...EXPORT_ROUTE_NAMES, ...BULK_ROUTE_NAMES, 'other'];
const STATUS_LABELS: readonly string[] = [...KNOWN_STATUSES.map(String), 'other'];
const SOURCE_SET: ReadonlySet<string> = new Set(EXPORT_ERROR_SOURCES);

function routeLabel(route: unknown): MetricsRouteLabel {
  return typeof route === 'string' && ROUTE_SET.has(route) ? (route as ObservedRouteName) : 'other';
}

function statusLabel(status: unknown): string {
  return typeof status === 'number' && KNOWN_STATUSES.includes(status) ? String(status) : 'other';
}

/**
 * Tell where an error came from by what it is: the handler names the host interface in the `InvalidArgumentError`
 * it throws for a malformed key record or rate-limit decision; the core's errors come from a builder (a
 * `ChartValidationError` there usually means the data source returned records that fail the chart check); a
 * `DataSourceUnavailableError` (or an error with its code) is counted as the data source's, though a key
 * store or rate limiter may throw it too. Anything else a host interface throws cannot be told apart: `unknown`.
 */
function sourceOf(error: unknown): ExportErrorSource {
  try {
    if (error instanceof InvalidArgumentError) {
      const argument = error.argument;
      if (argument.startsWith('keyStore.')) return 'key_store';
      if (argument.startsWith('rateLimiter.') || argument.startsWith('directoryRateLimit.')) return 'rate_limiter';
      return 'builder';
    }
    if (error instanceof ChartExportError) return 'builder';
    if (isDataSourceUnavailable(error)) return 'data_source';
  } catch {
    // A hostile thrown value (a Proxy, a throwing getter): it cannot be told.
  }
  return 'unknown';
}

function kindOf(error: unknown): 'unavailable' | 'internal' {
  try {
    return isDataSourceUnavailable(error) ? 'unavailable' : 'internal';
  } catch {
    return 'internal';
  }
}

function checkBuckets(buckets: unknown): readonly number[] {
  if (buckets === undefined) return DEFAULT_DURATION_BUCKETS;
  if (!Array.isArray(buckets) || buckets.length === 0) throw new InvalidArgumentError('buckets', 'must be a non-empty array of numbers');
  let previous = 0;
  for (const b of buckets) {
    if (typeof b !== 'number' || !Number.isFinite(b) || b <= previous) {
      throw new InvalidArgumentError('buckets', 'must hold finite positive numbers in increasing order');
    }
    previous = b;
  }
  return Object.freeze([...(buckets as number[])]);
}

interface Histogram {
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  readonly counts: number[];
  sum: number;
  count: number;
}

/** What one metrics object has counted. */
interface MetricsState {
  readonly buckets: readonly number[];
  readonly requests: Map<string, number>;
  readonly rateLimited: Map<MetricsRouteLabel, number>;
  readonly errors: Map<string, number>;
  readonly durations: Map<MetricsRouteLabel, Histogram>;
  timeouts: number;
}

function add<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Count one observation: the request, its 429, and its duration in the route's histogram. */
function recordObservation(state: MetricsState, observation: ExportObservation): void {
  if (typeof observation !== 'object' || observation === null) throw new InvalidArgumentError('observation', 'must be an object');
  let fields: { route: unknown; status: unknown; ms: unknown };
  try {
    fields = { route: observation.route, status: observation.status, ms: observation.durationMs };
  } catch (error) {
    throw new InvalidArgumentError('observation', 'must be readable', { cause: error });
  }
  const route = routeLabel(fields.route);
  const status = statusLabel(fields.status);
  add(state.requests, `${route} ${status}`);
  if (status === '429') add(state.rateLimited, route);
  const ms = fields.ms;
  // A duration that is not a finite non-negative number cannot be placed in a bucket: the request still counts.
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return;
  const seconds = ms / 1000;
  const { buckets } = state;
  let histogram = state.durations.get(route);
  if (histogram === undefined) {
    histogram = { counts: new Array<number>(buckets.length + 1).fill(0), sum: 0, count: 0 };
    state.durations.set(route, histogram);
  }
  let i = 0;
  while (i < buckets.length && seconds > (buckets[i] as number)) i++;
  histogram.counts[i] = (histogram.counts[i] as number) + 1;
  histogram.sum += seconds;
  histogram.count++;
}

/** Count the error behind a 500 or 503 by route, source and kind. */
function recordError(state: MetricsState, error: unknown, context: ExportErrorContext): void {
  let given: unknown;
  let route: unknown;
  try {
    given = context?.source;
    route = context?.route;
  } catch {
    // An unreadable context: the error still counts, on route "other", its source told from the error.
    given = undefined;
    route = undefined;
  }
  const source = typeof given === 'string' && SOURCE_SET.has(given) ? (given as ExportErrorSource) : sourceOf(error);
  add(state.errors, `${routeLabel(route)} ${source} ${kindOf(error)}`);
}

/** The lines of the duration histogram family. */
function renderDurations(state: MetricsState): string[] {
  const name = 'chart_export_request_duration_seconds';
  const lines = formatFamilyHeader(name, 'histogram', 'Time from the request to the answer being ready, in seconds, by route.');
  const { buckets } = state;
  for (const route of ROUTE_LABELS) {
    const h = state.durations.get(route);
    if (h === undefined) continue;
    let cumulative = 0;
    for (let i = 0; i < buckets.length; i++) {
      cumulative += h.counts[i] as number;
      lines.push(formatSample(`${name}_bucket`, [['route', route], ['le', formatValue(buckets[i] as number)]], cumulative));
    }
    lines.push(formatSample(`${name}_bucket`, [['route', route], ['le', '+Inf']], h.count));
    lines.push(formatSample(`${name}_sum`, [['route', route]], h.sum));
    lines.push(formatSample(`${name}_count`, [['route', route]], h.count));
  }
  return lines;
}

/** Everything counted, in the Prometheus text format. */
function renderMetrics(state: MetricsState): string {
  const lines: string[] = [];
  lines.push(...formatFamilyHeader('chart_export_requests_total', 'counter', 'Answers of the export handler, by route and status.'));
  for (const route of ROUTE_LABELS) {
    for (const status of STATUS_LABELS) {
      const n = state.requests.get(`${route} ${status}`);
      if (n !== undefined) lines.push(formatSample('chart_export_requests_total', [['route', route], ['status', status]], n));
    }
  }
  lines.push(...renderDurations(state));
  lines.push(...formatFamilyHeader('chart_export_rate_limited_total', 'counter', 'Requests refused with 429 because a rate limit was exhausted, by route.'));
  for (const route of ROUTE_LABELS) {
    const n = state.rateLimited.get(route);
    if (n !== undefined) lines.push(formatSample('chart_export_rate_limited_total', [['route', route]], n));
  }
  lines.push(
    ...formatFamilyHeader('chart_export_errors_total', 'counter', 'Errors behind a 500 (kind="internal") or 503 (kind="unavailable"), by route and source.'),
  );
  for (const route of ROUTE_LABELS) {
    for (const source of EXPORT_ERROR_SOURCES) {
      for (const kind of ['internal', 'unavailable']) {
        const n = state.errors.get(`${route} ${source} ${kind}`);
        if (n !== undefined) lines.push(formatSample('chart_export_errors_total', [['route', route], ['source', source], ['kind', kind]], n));
      }
    }
  }
  lines.push(...formatFamilyHeader('chart_export_data_source_timeouts_total', 'counter', 'Data-source reads that timed out.'));
  lines.push(formatSample('chart_export_data_source_timeouts_total', [], state.timeouts));
  return `${lines.join('\n')}\n`;
}

/**
 * Create the Prometheus metrics of the export handler. Give it as the handler's `metrics` option: the handler
 * then feeds it (its `observer`, `onError` and `recordDataSourceTimeout`, besides the host's own hooks) and
 * serves `render()` as {@link METRICS_CONTENT_TYPE} at `/metrics` under its base path. (The hooks can also be
 * given as the handler's `observer` and `onError`, to serve the text elsewhere.) Families:
 *
 * - `chart_export_requests_total{route,status}`: answers by route and status;
 * - `chart_export_request_duration_seconds{route}`: histogram of the time to the answer (`_bucket{le}`,
 *   `_sum`, `_count`);
 * - `chart_export_rate_limited_total{route}`: answers 429 (rate limit exhausted, key or directory client);
 * - `chart_export_errors_total{route,source,kind}`: errors behind a 500 (`kind="internal"`) or 503
 *   (`kind="unavailable"`), `source` one of `data_source`, `rate_limiter`, `key_store`, `builder`, `unknown`;
 * - `chart_export_data_source_timeouts_total`: what {@link ExportMetrics.recordDataSourceTimeout} counted.
 *
 * Labels are bounded: `route` is one of the eleven route names or `other`; `status` one of the statuses
 * the handler answers with or `other`; no key, partner, request id or parameter ever becomes a label.
 *
 * The handler's `onError` context says which part failed (`source`). Without a `source` in the context (a
 * caller other than the handler), it is told from the error: the handler's own `InvalidArgumentError` names the key store or rate
 * limiter whose answer was malformed, the core's errors are the builder's, a `DataSourceUnavailableError` is
 * counted as the data source's (a key store or rate limiter may throw it too), and anything else a host
 * interface throws is `unknown`.
 *
 * @param options - histogram buckets
 * @returns the hooks, a timeout counter and `render()`
 * @throws {InvalidArgumentError} for buckets that are not finite, positive and increasing
 * @example
 * const metrics = createExportMetrics();
 * const handler = createExportHandler({ dataSource, keyStore, metrics }); // serves GET /metrics
 */
export function createExportMetrics(options: ExportMetricsOptions = {}): ExportMetrics {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const state: MetricsState = {
    buckets: checkBuckets(options.buckets),
    requests: new Map(),
    rateLimited: new Map(),
    errors: new Map(),
    durations: new Map(),
    timeouts: 0,
  };
  return Object.freeze({
    observer: (observation: ExportObservation) => recordObservation(state, observation),
    onError: (error: unknown, context: ExportErrorContext) => recordError(state, error, context),
    recordDataSourceTimeout: () => {
      state.timeouts++;
    },
    render: () => renderMetrics(state),
  });
}
