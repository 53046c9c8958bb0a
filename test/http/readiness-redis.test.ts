/**
 * `GET /readyz` with the Redis rate limiter against a real redis-server (test/support/redis-server.ts), stopped
 * mid-test: a fail-open limiter leaves the service ready but degraded, a fail-closed one makes it unavailable,
 * and a failing data source makes it unavailable whatever the limiter does. The failure reaches `onError` and
 * the metrics either way. Every answer is checked against the OpenAPI description by the harness.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExportHandler,
  createExportMetrics,
  createInMemoryDataSource,
  createRedisRateLimiter,
  DataSourceUnavailableError,
  type HandlerErrorContext,
  type RedisSendCommandClient,
} from '../../src/http/index.js';
import { startRedisServer, type RedisTestServer } from '../support/redis-server.js';
import { CHART_DOCUMENT } from './support/fixture.js';
import { fixtureOptions, serve, type Caller } from './support/harness.js';

/** Generous: a loaded machine can hold the event loop longer than the limiter's default 200 ms. */
const TIMEOUT_MS = 2000;

let server: RedisTestServer;
/** How to close each client a test opened. */
const closers: (() => void)[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  for (const close of closers.splice(0)) close();
  await server?.close();
});

async function connectClient(): Promise<RedisSendCommandClient> {
  const client = createClient({ url: server.url, disableOfflineQueue: true, socket: { reconnectStrategy: (n: number) => Math.min(50 * n, 300), connectTimeout: 1000 } });
  client.on('error', () => undefined);
  await client.connect();
  closers.push(() => client.destroy());
  return client;
}

/** Poll until `check` passes or `ms` pass; returns whether it passed. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** The `chart_export_errors_total` samples of the rate limiter in a metrics text. */
function limiterErrors(text: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('chart_export_errors_total{') && line.includes('source="rate_limiter"')) total += Number(line.split(' ').at(-1));
  }
  return total;
}

interface Served {
  readonly call: Caller;
  readonly errors: [unknown, HandlerErrorContext][];
  readonly metrics: ReturnType<typeof createExportMetrics>;
}

async function serveWith(failOpen: boolean, dataSourceDown = false): Promise<Served> {
  const client = await connectClient();
  const rateLimiter = createRedisRateLimiter({ client, failOpen, timeoutMs: TIMEOUT_MS, prefix: `readiness:${failOpen}:${dataSourceDown}:` });
  const errors: [unknown, HandlerErrorContext][] = [];
  const metrics = createExportMetrics();
  const dataSource = {
    ...createInMemoryDataSource(CHART_DOCUMENT),
    ...(dataSourceDown ? { ping: () => Promise.reject(new DataSourceUnavailableError('db down', { retryAfterSeconds: 11 })) } : {}),
  };
  const handler = createExportHandler(await fixtureOptions({ healthRoutes: true, rateLimiter, dataSource, metrics, onError: (e, c) => errors.push([e, c]) }));
  return { call: await serve('fetch', handler), errors, metrics };
}

describe('GET /readyz with the Redis rate limiter', () => {
  it('should stay 200 and say the limiter is degraded while Redis is down with failOpen, 503 without it, and 503 for a data source down either way', async () => {
    // Arrange
    const open = await serveWith(true);
    const closed = await serveWith(false);
    const openNoData = await serveWith(true, true);
    expect(JSON.parse((await open.call('/readyz')).body)).toEqual({ status: 'ready' });
    expect(JSON.parse((await closed.call('/readyz')).body)).toEqual({ status: 'ready' });
    try {
      // Act
      await server.stop();
      const openAnswer = await open.call('/readyz');
      const closedAnswer = await closed.call('/readyz');
      const openNoDataAnswer = await openNoData.call('/readyz');

      // Assert: fail open keeps the instance in rotation, and says why it is degraded.
      expect(openAnswer.status).toBe(200);
      expect(JSON.parse(openAnswer.body)).toEqual({ status: 'ready', degraded: ['rate limiter unreachable: failing open'] });
      expect(openAnswer.headers['retry-after']).toBeUndefined();
      // Fail closed, as before.
      expect(closedAnswer.status).toBe(503);
      expect(JSON.parse(closedAnswer.body)).toEqual({ status: 'unavailable', reason: 'rate limiter unreachable' });
      expect(closedAnswer.headers['retry-after']).toBe('5');
      // A data source that cannot answer makes the service unready, whatever the limiter does.
      expect(openNoDataAnswer.status).toBe(503);
      expect(JSON.parse(openNoDataAnswer.body)).toEqual({ status: 'unavailable', reason: 'data source unreachable' });
      expect(openNoDataAnswer.headers['retry-after']).toBe('11');
      // The limiter's failure is reported and counted in every case.
      for (const served of [open, closed]) {
        expect(served.errors.map(([e, c]) => [e instanceof DataSourceUnavailableError, c.source])).toEqual([[true, 'rate_limiter']]);
        expect(limiterErrors(served.metrics.render())).toBe(1);
      }
      expect(openNoData.errors.map(([, c]) => c.source).sort()).toEqual(['data_source', 'rate_limiter']);
    } finally {
      await server.start();
    }
    // Redis back: ready again, without the note.
    expect(await eventually(async () => (await open.call('/readyz')).body === '{"status":"ready"}', 5000)).toBe(true);
    expect(await eventually(async () => (await closed.call('/readyz')).status === 200, 5000)).toBe(true);
  });
});
