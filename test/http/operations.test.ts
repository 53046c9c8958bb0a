/**
 * The operational options of the handler: `healthRoutes` (/healthz, /readyz), `metrics` (/metrics and the
 * hooks it is fed through), `openApi` (/openapi.json), and `dataSourceTimeoutMs` with the `AbortSignal` every
 * data-source call gets (fired on the timeout and when the client goes away). Both modes; every answer is
 * checked against the OpenAPI description by the harness.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  DataSourceTimeoutError,
  DataSourceUnavailableError,
  createExportHandler,
  createExportMetrics,
  createFixedWindowRateLimiter,
  createInMemoryDataSource,
  createOpenApiDocument,
  toNodeListener,
  type ChartDataSource,
  type HandlerErrorContext,
  type RateLimiter,
} from '../../src/http/index.js';
import { InvalidArgumentError } from '../../src/index.js';
import { CHART_DOCUMENT, KEYS, PATIENT_ID } from './support/fixture.js';
import { describeMatrix, fixtureOptions, listen, serve, NOW_MS } from './support/harness.js';

/** The data-source methods that declare one argument; the others declare two. */
const ONE_ARGUMENT = new Set(['getPatient', 'getOrganization', 'getPractitioner', 'getLocation', 'listOrganizations', 'listPractitioners', 'listLocations']);

const PATIENT = `/exportFhirPatient?patientId=${PATIENT_ID}`;

/** A data source over the fixture that is not the in-memory one (so it is timed and gets signals), with overrides. */
function hostDataSource(overrides: Partial<ChartDataSource> = {}): ChartDataSource {
  return { ...createInMemoryDataSource(CHART_DOCUMENT), ...overrides };
}

/** A fixed-window limiter with a `ping`. */
function limiterWithPing(ping: () => Promise<void>): RateLimiter & { consumed: number } {
  const inner = createFixedWindowRateLimiter({ now: () => NOW_MS });
  const limiter = {
    consumed: 0,
    consume(key: string, limit: number, windowSeconds: number) {
      limiter.consumed++;
      return inner.consume(key, limit, windowSeconds);
    },
    ping,
  };
  return limiter;
}

/** Resolves with the signal given to the first call of a method that never settles. */
function hangingPatient(): { source: ChartDataSource; signal: Promise<AbortSignal> } {
  let give: (signal: AbortSignal) => void = () => undefined;
  const signal = new Promise<AbortSignal>((resolve) => {
    give = resolve;
  });
  const source = hostDataSource({
    getPatient: (_id: string, s?: AbortSignal) => {
      if (s !== undefined) give(s);
      return new Promise(() => undefined);
    },
  });
  return { source, signal };
}

/** Resolves when `signal` fires (or at once if it has), rejects after `ms`. */
function firedWithin(signal: AbortSignal, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) resolve(signal.reason);
    const timer = setTimeout(() => reject(new Error('the signal did not fire')), ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(signal.reason);
    });
  });
}

describeMatrix('operational routes', (mode) => {
  describe('healthRoutes', () => {
    it('should answer /healthz and /readyz without a key, and count nothing', async () => {
      const limiter = limiterWithPing(() => Promise.resolve());
      let reads = 0;
      const source = hostDataSource({
        ping: () => Promise.resolve(),
        getPatient: (id: string) => {
          reads++;
          return createInMemoryDataSource(CHART_DOCUMENT).getPatient(id);
        },
      });
      const call = await serve(mode, await fixtureOptions({ healthRoutes: true, rateLimiter: limiter, dataSource: source }));
      const health = await call('/healthz', { headers: { 'x-api-key': KEYS.tiny } });
      expect(health.status).toBe(200);
      expect(health.headers['content-type']).toBe('application/json');
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
      const ready = await call('/readyz', { headers: { 'x-api-key': KEYS.tiny } });
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body)).toEqual({ status: 'ready' });
      for (const res of [health, ready]) {
        expect(Object.keys(res.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
        expect(res.headers['x-request-id']).toBeTruthy();
      }
      expect(limiter.consumed).toBe(0);
      expect(reads).toBe(0);
      // The key sent to the probes was not counted: its first export still has limit - 1 left.
      const first = await call(PATIENT, { headers: { 'x-api-key': KEYS.tiny } });
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
    });

    it('should answer HEAD without a body, and 405 to other methods', async () => {
      const call = await serve(mode, await fixtureOptions({ healthRoutes: true }));
      const head = await call('/healthz', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-length']).toBe(String('{"status":"ok"}'.length));
      const post = await call('/readyz', { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers['allow']).toBe('GET, HEAD');
    });

    it('should answer 503 with the reason and Retry-After when the rate limiter or the data source is unreachable', async () => {
      const errors: [unknown, HandlerErrorContext][] = [];
      const limiter = limiterWithPing(() => Promise.reject(new DataSourceUnavailableError('redis down')));
      const call = await serve(mode, await fixtureOptions({ healthRoutes: true, rateLimiter: limiter, onError: (e, c) => errors.push([e, c]) }));
      const res = await call('/readyz');
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body)).toEqual({ status: 'unavailable', reason: 'rate limiter unreachable' });
      expect(res.headers['retry-after']).toBe('5');
      expect(errors.map(([, c]) => c.source)).toEqual(['rate_limiter']);
      expect(limiter.consumed).toBe(0);

      const source = hostDataSource({ ping: () => Promise.reject(new DataSourceUnavailableError('db down', { retryAfterSeconds: 30 })) });
      const call2 = await serve(mode, await fixtureOptions({ healthRoutes: true, dataSource: source }));
      const res2 = await call2('/readyz');
      expect(res2.status).toBe(503);
      expect(JSON.parse(res2.body)).toEqual({ status: 'unavailable', reason: 'data source unreachable' });
      expect(res2.headers['retry-after']).toBe('30');
      // Liveness does not depend on them.
      expect((await call2('/healthz')).status).toBe(200);
    });

    it('should stay ready with the limiter listed as degraded when a limiter that fails open cannot reach its store', async () => {
      const errors: [unknown, HandlerErrorContext][] = [];
      const down = new DataSourceUnavailableError('redis down', { retryAfterSeconds: 9 });
      const limiter = Object.assign(limiterWithPing(() => Promise.reject(down)), { failsOpen: true });
      const call = await serve(mode, await fixtureOptions({ healthRoutes: true, rateLimiter: limiter, onError: (e, c) => errors.push([e, c]) }));
      const res = await call('/readyz');
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: 'ready', degraded: ['rate limiter unreachable: failing open'] });
      expect(res.headers['retry-after']).toBeUndefined();
      expect(errors).toEqual([[down, { requestId: expect.any(String), route: undefined, source: 'rate_limiter' }]]);

      // failsOpen false is the default: 503 as without it.
      const closed = Object.assign(limiterWithPing(() => Promise.reject(down)), { failsOpen: false });
      const res2 = await (await serve(mode, await fixtureOptions({ healthRoutes: true, rateLimiter: closed })))('/readyz');
      expect(res2.status).toBe(503);
      expect(res2.headers['retry-after']).toBe('9');

      // A fail-open limiter that answers: plainly ready.
      const up = Object.assign(limiterWithPing(() => Promise.resolve()), { failsOpen: true });
      expect((await (await serve(mode, await fixtureOptions({ healthRoutes: true, rateLimiter: up })))('/readyz')).body).toBe('{"status":"ready"}');

      // A data source that cannot answer: 503 whatever the limiter does.
      const source = hostDataSource({ ping: () => Promise.reject(new DataSourceUnavailableError('db down')) });
      const res3 = await (await serve(mode, await fixtureOptions({ healthRoutes: true, rateLimiter: limiter, dataSource: source })))('/readyz');
      expect(res3.status).toBe(503);
      expect(JSON.parse(res3.body)).toEqual({ status: 'unavailable', reason: 'data source unreachable' });
    });

    it('should bound a ping that never settles by dataSourceTimeoutMs', async () => {
      let signal: AbortSignal | undefined;
      const source = hostDataSource({
        ping: (s: AbortSignal) => {
          signal = s;
          return new Promise(() => undefined);
        },
      });
      const call = await serve(mode, await fixtureOptions({ healthRoutes: true, dataSource: source, dataSourceTimeoutMs: 30 }));
      const res = await call('/readyz');
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body)).toEqual({ status: 'unavailable', reason: 'data source unreachable' });
      expect(signal?.aborted).toBe(true);
      expect(signal?.reason).toBeInstanceOf(DataSourceTimeoutError);
    });

    it('should serve them under basePath, and not at all when off', async () => {
      const call = await serve(mode, await fixtureOptions({ healthRoutes: true, basePath: '/api/export' }));
      expect((await call('/api/export/healthz')).status).toBe(200);
      expect((await call('/api/export/readyz')).status).toBe(200);
      expect((await call('/healthz')).status).toBe(404);
      const off = await serve(mode, await fixtureOptions());
      for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json']) {
        const res = await off(path);
        expect(res.status, path).toBe(404);
        expect(JSON.parse(res.body).code).toBe('route-not-found');
      }
    });
  });

  describe('metrics', () => {
    it('should feed the metrics besides the host hooks and serve them at /metrics', async () => {
      const metrics = createExportMetrics();
      const observed: number[] = [];
      const call = await serve(mode, await fixtureOptions({ metrics, observer: (o) => observed.push(o.status) }));
      const count = (text: string, route: string, status: number): number => {
        const line = text.split('\n').find((l) => l.startsWith(`chart_export_requests_total{route="${route}",status="${status}"}`));
        return line === undefined ? 0 : Number(line.split(' ').at(-1));
      };
      const before = await call('/metrics');
      expect(before.status).toBe(200);
      expect(before.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(count(before.body, 'exportFhirPatient', 200)).toBe(0);
      await call(PATIENT, { headers: { 'x-api-key': KEYS.both } });
      await call(PATIENT, { headers: { 'x-api-key': KEYS.both } });
      await call(PATIENT);
      const after = await call('/metrics');
      expect(count(after.body, 'exportFhirPatient', 200)).toBe(2);
      expect(count(after.body, 'exportFhirPatient', 401)).toBe(1);
      // The scrapes themselves are not observed.
      expect(observed).toEqual([200, 200, 401]);
      expect(after.body).toContain('chart_export_request_duration_seconds_count{route="exportFhirPatient"} 3');
    });

    it('should count errors by source and data-source timeouts', async () => {
      const metrics = createExportMetrics();
      const { source } = hangingPatient();
      const call = await serve(mode, await fixtureOptions({ metrics, dataSource: source, dataSourceTimeoutMs: 20 }));
      expect((await call(PATIENT, { headers: { 'x-api-key': KEYS.both } })).status).toBe(503);
      const text = (await call('/metrics')).body;
      expect(text).toContain('chart_export_data_source_timeouts_total 1');
      expect(text).toContain('chart_export_errors_total{route="exportFhirPatient",source="data_source",kind="unavailable"} 1');
    });
  });

  describe('openApi', () => {
    it('should serve the description of its own base path and limits', async () => {
      const limits = { directory: { default: 5, max: 9 } };
      const call = await serve(mode, await fixtureOptions({ openApi: true, basePath: '/v1', limits }));
      const res = await call('/v1/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(JSON.parse(res.body)).toEqual(createOpenApiDocument({ basePath: '/v1', limits }));
      expect((await call('/v1/openapi.json', { method: 'HEAD' })).body).toBe('');
    });
  });

  describe('dataSourceTimeoutMs and the AbortSignal', () => {
    it('should answer 503 in the route format in about the timeout, fire the signal and report a DataSourceTimeoutError', async () => {
      const { source, signal } = hangingPatient();
      const errors: [unknown, HandlerErrorContext][] = [];
      const call = await serve(mode, await fixtureOptions({ dataSource: source, dataSourceTimeoutMs: 60, onError: (e, c) => errors.push([e, c]) }));
      const started = performance.now();
      const fhir = await call(PATIENT, { headers: { 'x-api-key': KEYS.both } });
      const took = performance.now() - started;
      expect(fhir.status).toBe(503);
      expect(fhir.headers['retry-after']).toBe('5');
      expect(fhir.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
      expect(took).toBeGreaterThanOrEqual(55);
      expect(took).toBeLessThan(3000);
      const given = await signal;
      expect(given.aborted).toBe(true);
      expect(given.reason).toBeInstanceOf(DataSourceTimeoutError);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.[0]).toBeInstanceOf(DataSourceTimeoutError);
      expect((errors[0]?.[0] as DataSourceTimeoutError).timeoutMs).toBe(60);
      expect(errors[0]?.[1]).toMatchObject({ route: 'exportFhirPatient', source: 'data_source' });
      const hl7 = await call(`/exportHl7PatientAdt?patientId=${PATIENT_ID}`, { headers: { 'x-api-key': KEYS.both } });
      expect(hl7.status).toBe(503);
      expect(hl7.headers['content-type']).toBe('application/problem+json');
    });

    it('should give every data-source call the signal as its last argument, after the declared ones', async () => {
      const seen: [string, number, boolean][] = [];
      const inner = createInMemoryDataSource(CHART_DOCUMENT);
      const source = Object.fromEntries(
        Object.entries(inner).map(([name, fn]) => [
          name,
          (...args: unknown[]) => {
            seen.push([name, args.length, args.at(-1) instanceof AbortSignal]);
            return (fn as (...a: unknown[]) => unknown)(...args);
          },
        ]),
      ) as unknown as ChartDataSource;
      const call = await serve(mode, await fixtureOptions({ dataSource: source }));
      for (const target of [`/exportFhirPatientBundle?patientId=${PATIENT_ID}`, `/exportFhirNote?patientId=${PATIENT_ID}&noteId=note-0002`]) {
        expect((await call(target, { headers: { 'x-api-key': KEYS.both } })).status, target).toBe(200);
      }
      // The note's directory look-up (its author) went through the same signal.
      expect(seen.some(([name]) => name === 'getPractitioner')).toBe(true);
      expect(seen.length).toBeGreaterThan(4);
      for (const [name, length, isSignal] of seen) {
        expect(isSignal, name).toBe(true);
        expect(length, name).toBe((ONE_ARGUMENT.has(name) ? 1 : 2) + 1);
      }
    });

    it('should leave the in-memory source untimed and answer as before', async () => {
      const call = await serve(mode, await fixtureOptions({ dataSourceTimeoutMs: 1 }));
      expect((await call(PATIENT, { headers: { 'x-api-key': KEYS.both } })).status).toBe(200);
    });
  });
});

describe('client disconnect', () => {
  it('should fire the data source signal when a fetch request is aborted', async () => {
    const { source, signal } = hangingPatient();
    const handler = createExportHandler(await fixtureOptions({ dataSource: source, dataSourceTimeoutMs: 60_000 }));
    const client = new AbortController();
    const answered = handler(new Request(`http://127.0.0.1${PATIENT}`, { headers: { 'x-api-key': KEYS.both }, signal: client.signal }));
    const given = await signal;
    expect(given.aborted).toBe(false);
    client.abort();
    await firedWithin(given, 2000);
    expect((await answered).status).toBe(503);
  });

  it('should fire the data source signal when the socket of a node request is destroyed', async () => {
    const { source, signal } = hangingPatient();
    const errors: unknown[] = [];
    const port = await listen(toNodeListener(await fixtureOptions({ dataSource: source, dataSourceTimeoutMs: 60_000, onError: (e) => errors.push(e) })));
    const req = httpRequest({ host: '127.0.0.1', port, path: PATIENT, headers: { 'x-api-key': KEYS.both }, agent: false });
    req.on('error', () => undefined);
    req.end();
    const given = await signal;
    expect(given.aborted).toBe(false);
    req.destroy();
    const reason = await firedWithin(given, 2000);
    // The reason a fetch runtime gives an aborted request; the client's going away is no failure of the host's services.
    expect((reason as Error).name).toBe('AbortError');
    expect(errors).toEqual([]);
  });

  it('should give the data source a fired signal when the node client went away before the reads began', async () => {
    const { source, signal } = hangingPatient();
    const errors: unknown[] = [];
    const options = await fixtureOptions({ dataSource: source, dataSourceTimeoutMs: 60_000, onError: (e) => errors.push(e) });
    // A key store that answers only once the client has gone: the reads begin after the connection closed.
    let closed: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const keys = options.keyStore;
    const port = await listen(toNodeListener({ ...options, keyStore: { lookup: async (key: string) => (await gone, keys.lookup(key)) } }));
    const req = httpRequest({ host: '127.0.0.1', port, path: PATIENT, headers: { 'x-api-key': KEYS.both }, agent: false });
    req.on('error', () => undefined);
    req.on('close', () => setTimeout(closed, 50));
    req.end();
    setTimeout(() => req.destroy(), 50);
    const given = await signal;
    expect(given.aborted).toBe(true);
    expect((given.reason as Error).name).toBe('AbortError');
    expect(errors).toEqual([]);
  });
});

describe('option checks', () => {
  it.each([
    [{ dataSourceTimeoutMs: 0 }, 'dataSourceTimeoutMs'],
    [{ dataSourceTimeoutMs: 1.5 }, 'dataSourceTimeoutMs'],
    [{ dataSourceTimeoutMs: '100' }, 'dataSourceTimeoutMs'],
    [{ dataSourceTimeoutMs: 2 ** 31 }, 'dataSourceTimeoutMs'],
    [{ healthRoutes: 'yes' }, 'healthRoutes'],
    [{ openApi: 1 }, 'openApi'],
    [{ metrics: {} }, 'metrics.observer'],
    [{ metrics: 'on' }, 'metrics'],
  ])('should refuse %o', async (override, argument) => {
    const options = { ...(await fixtureOptions()), ...(override as object) };
    expect(() => createExportHandler(options)).toThrow(InvalidArgumentError);
    try {
      createExportHandler(options);
    } catch (error) {
      expect((error as InvalidArgumentError).argument).toBe(argument);
    }
  });

  it('should refuse a ping that is not a function', async () => {
    const options = await fixtureOptions({ dataSource: hostDataSource({ ping: 'yes' as never }) });
    expect(() => createExportHandler(options)).toThrow(/dataSource\.ping/);
  });
});

describeMatrix('onError source', (mode) => {
  it.each([
    ['key_store', { keyStore: { lookup: () => Promise.reject(new Error('store down')) } }],
    ['rate_limiter', { rateLimiter: { consume: () => Promise.reject(new Error('limiter down')) } }],
    ['data_source', { dataSource: hostDataSource({ getPatient: () => Promise.reject(new Error('db down')) }) }],
  ] as const)('should name %s', async (source, override) => {
    const contexts: HandlerErrorContext[] = [];
    const call = await serve(mode, await fixtureOptions({ ...override, onError: (_e, c) => contexts.push(c) }));
    expect((await call(PATIENT, { headers: { 'x-api-key': KEYS.both } })).status).toBe(500);
    expect(contexts.map((c) => c.source)).toEqual([source]);
  });

  it('should name the builder for a record the builder refuses', async () => {
    const contexts: HandlerErrorContext[] = [];
    const dataSource = hostDataSource({ getPatient: () => Promise.resolve({ id: 'pat-0001' } as never) });
    const call = await serve(mode, await fixtureOptions({ dataSource, onError: (_e, c) => contexts.push(c) }));
    expect((await call(PATIENT, { headers: { 'x-api-key': KEYS.both } })).status).toBe(500);
    expect(contexts.map((c) => c.source)).toEqual(['builder']);
  });
});
