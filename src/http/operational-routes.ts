/**
 * The operational routes a handler serves when enabled: `/healthz` and `/readyz` (`healthRoutes`),
 * `/metrics` (`metrics`) and `/openapi.json` (`openApi`), under the handler's `basePath`. They need no key,
 * are never counted against a rate limit, are not observed, and never read patient data.
 */
import { runWithDeadline } from './data-deadline.js';
import { classifyFailure, safeCall } from './guards.js';
import type { HandlerSettings } from './handler-options.js';
import { METRICS_CONTENT_TYPE, type ExportErrorSource } from './metrics.js';
import { createOpenApiDocument } from './openapi.js';

/** The answer of an operational route, before the common headers. */
export interface OperationalAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** Seconds for `Retry-After`, on a 503. */
  readonly retryAfter?: number | undefined;
}

/** An operational route: its answer to a GET (or HEAD) with the request's id. */
export type OperationalRoute = (requestId: string) => Promise<OperationalAnswer>;

/** `Retry-After` of a 503 of `/readyz` when the failing part gives no time of its own. */
export const READINESS_RETRY_AFTER_SECONDS = 5;

const JSON_TYPE = 'application/json';

/** The options the operational routes need. */
type OperationalSettings = Pick<
  HandlerSettings,
  'basePath' | 'limits' | 'dataSource' | 'rateLimiter' | 'onError' | 'metrics' | 'healthRoutes' | 'openApi' | 'dataSourceTimeoutMs'
>;

/** A readiness check that failed, or `undefined`. */
interface ReadinessFailure {
  readonly source: ExportErrorSource;
  readonly error: unknown;
}

/** The note `/readyz` gives in `degraded` while a fail-open rate limiter's store is unreachable. */
const READINESS_LIMITER_FAILING_OPEN = 'rate limiter unreachable: failing open';

/**
 * The readiness of the host's services: each optional `ping` (rate limiter, data source) asked at once, each
 * bounded by `dataSourceTimeoutMs`; a failing one is reported to `onError`. A failing data source, or a failing
 * limiter that fails closed, makes it 503; a failing limiter that fails open (`failsOpen: true`: requests
 * still pass, uncounted) leaves it 200 with the limiter listed in `degraded`.
 */
function createReadiness(settings: OperationalSettings): OperationalRoute {
  const { dataSource, rateLimiter, onError, dataSourceTimeoutMs } = settings;
  const ask = async (source: ExportErrorSource, ping: ((signal: AbortSignal) => Promise<void>) | undefined): Promise<ReadinessFailure | undefined> => {
    if (ping === undefined) return undefined;
    try {
      await runWithDeadline(ping, dataSourceTimeoutMs, undefined);
      return undefined;
    } catch (error) {
      return { source, error };
    }
  };
  return async (requestId) => {
    const limiterPing = typeof rateLimiter.ping === 'function' ? (): Promise<void> => (rateLimiter.ping as () => Promise<void>).call(rateLimiter) : undefined;
    const sourcePing = typeof dataSource.ping === 'function' ? (signal: AbortSignal): Promise<void> => (dataSource.ping as (s: AbortSignal) => Promise<void>).call(dataSource, signal) : undefined;
    const failures = (await Promise.all([ask('rate_limiter', limiterPing), ask('data_source', sourcePing)])).filter((f) => f !== undefined);
    for (const failure of failures) safeCall(onError, failure.error, { requestId, route: undefined, source: failure.source });
    // Read at each check, like `ping`: the limiter says whether requests still pass while its store is down.
    const limiterFailsOpen = rateLimiter.failsOpen === true;
    const blocking = failures.filter((f) => f.source === 'data_source' || !limiterFailsOpen);
    const first = blocking[0];
    if (first === undefined) {
      if (failures.length === 0) return { status: 200, contentType: JSON_TYPE, body: '{"status":"ready"}' };
      return { status: 200, contentType: JSON_TYPE, body: JSON.stringify({ status: 'ready', degraded: [READINESS_LIMITER_FAILING_OPEN] }) };
    }
    const failure = classifyFailure(first.error);
    const retryAfter = failure.kind === 'unavailable' && failure.retryAfter !== undefined ? failure.retryAfter : READINESS_RETRY_AFTER_SECONDS;
    const reason = first.source === 'rate_limiter' ? 'rate limiter unreachable' : 'data source unreachable';
    return { status: 503, contentType: JSON_TYPE, body: JSON.stringify({ status: 'unavailable', reason }), retryAfter };
  };
}

/**
 * The operational routes a handler's settings enable, by full path (`basePath` included).
 * @param settings - the resolved handler settings
 * @returns an empty map when none is enabled
 */
export function createOperationalRoutes(settings: OperationalSettings): ReadonlyMap<string, OperationalRoute> {
  const routes = new Map<string, OperationalRoute>();
  const at = (path: string): string => `${settings.basePath}${path}`;
  if (settings.healthRoutes) {
    const alive: OperationalAnswer = { status: 200, contentType: JSON_TYPE, body: '{"status":"ok"}' };
    routes.set(at('/healthz'), () => Promise.resolve(alive));
    routes.set(at('/readyz'), createReadiness(settings));
  }
  const metrics = settings.metrics;
  if (metrics !== undefined) {
    routes.set(at('/metrics'), () => Promise.resolve({ status: 200, contentType: METRICS_CONTENT_TYPE, body: metrics.render() }));
  }
  if (settings.openApi) {
    const body = JSON.stringify(createOpenApiDocument({ basePath: settings.basePath, limits: settings.limits }));
    const described: OperationalAnswer = { status: 200, contentType: JSON_TYPE, body };
    routes.set(at('/openapi.json'), () => Promise.resolve(described));
  }
  return routes;
}
