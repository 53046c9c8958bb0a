/**
 * Bulk Data export on several instances: two handlers sharing a real redis-server (test/support/redis-server.ts)
 * through the Redis job and output stores. A job started on one is polled, fetched and cancelled on the other;
 * its files are the core writer's lines; a cancelled job leaves no key behind. Both client shapes (ioredis
 * `call`, node-redis `sendCommand`).
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamChartDocumentNdjson } from '../../src/index.js';
import {
  createInMemoryDataSource,
  createRedisBulkJobStore,
  createRedisBulkOutputStore,
  type ChartDataSource,
  type RedisCommandClient,
} from '../../src/http/index.js';
import { startRedisServer, type RedisTestServer } from '../support/redis-server.js';
import { CHART_DOCUMENT, KEYS } from './support/fixture.js';
import { fixtureOptions, serve, type Caller, type TestResponse } from './support/harness.js';

let server: RedisTestServer;
const closers: (() => void)[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  for (const close of closers.splice(0)) close();
  await server?.close();
});

const KICK_OFF = { accept: 'application/fhir+json', prefer: 'respond-async', 'x-api-key': KEYS.fhirOnly };
const KEY = { 'x-api-key': KEYS.fhirOnly };
const pathOf = (url: string): string => new URL(url).pathname;

async function ioredisClient(): Promise<RedisCommandClient> {
  const client = new Redis(server.url, { maxRetriesPerRequest: 1, lazyConnect: true });
  client.on('error', () => undefined);
  await client.connect();
  closers.push(() => client.disconnect());
  return client;
}

async function nodeRedisClient(): Promise<RedisCommandClient> {
  const client = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
  closers.push(() => client.destroy());
  return client;
}

/** Two instances over one Redis, each with its own client, and a raw client for inspection. */
async function twoInstances(client: () => Promise<RedisCommandClient>, prefix: string, source?: ChartDataSource): Promise<{ a: Caller; b: Caller }> {
  const instance = async (): Promise<Caller> => {
    const c = await client();
    return serve(
      'node',
      await fixtureOptions({
        now: Date.now,
        ...(source === undefined ? {} : { dataSource: source }),
        bulk: { jobStore: createRedisBulkJobStore({ client: c, prefix }), outputStore: createRedisBulkOutputStore({ client: c, prefix }), retryAfterSeconds: 1, resourcesPerFile: 5 },
      }),
    );
  };
  return { a: await instance(), b: await instance() };
}

async function poll(call: Caller, status: string): Promise<TestResponse> {
  for (let i = 0; i < 100; i++) {
    const res = await call(status, { headers: KEY });
    if (res.status !== 202) return res;
    await new Promise((r) => setTimeout(r, 600));
  }
  throw new Error('the export did not finish');
}

describe.each([
  ['ioredis', ioredisClient],
  ['node-redis', nodeRedisClient],
] as const)('Bulk Data export on two instances over Redis (%s)', (name, client) => {
  it('should run a job started on one instance to its files on the other', async () => {
    const { a, b } = await twoInstances(client, `test:${name}:flow:`);
    const kickOff = await a('/Patient/$export', { headers: KICK_OFF });
    expect(kickOff.status).toBe(202);
    const done = await poll(b, pathOf(kickOff.headers['content-location'] as string));
    expect(done.status, done.body).toBe(200);
    const manifest = JSON.parse(done.body) as { output: { type: string; url: string; count: number }[]; error: unknown[] };
    expect(manifest.error).toEqual([]);
    const got: string[] = [];
    for (const file of manifest.output) {
      const res = await b(pathOf(file.url), { headers: KEY });
      expect(res.status).toBe(200);
      const lines = res.body.slice(0, -1).split('\n');
      expect(lines.length).toBe(file.count);
      got.push(...lines);
    }
    const want: string[] = [];
    for await (const line of streamChartDocumentNdjson(CHART_DOCUMENT, { yieldEvery: 0 })) want.push(line.text.slice(0, -1));
    expect(got.sort()).toEqual(want.sort());
    // Another key sees nothing, on either instance.
    expect((await a(pathOf(kickOff.headers['content-location'] as string), { headers: { 'x-api-key': KEYS.both } })).status).toBe(404);
  });

  it('should cancel on one instance a job running on the other, leaving no key behind', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const base = createInMemoryDataSource(CHART_DOCUMENT);
    const source: ChartDataSource = { ...base, listPatients: async (page, signal) => (await gate, (base.listPatients as NonNullable<ChartDataSource['listPatients']>)(page, signal)) };
    const prefix = `test:${name}:cancel:`;
    const { a, b } = await twoInstances(client, prefix, source);
    const kickOff = await a('/Patient/$export', { headers: KICK_OFF });
    const status = pathOf(kickOff.headers['content-location'] as string);
    expect((await b(status, { headers: KEY })).status).toBe(202);
    expect((await b(status, { method: 'DELETE', headers: KEY })).status).toBe(202);
    expect((await a(status, { headers: KEY })).status).toBe(404);
    release();
    const raw = await ioredisClient();
    const deadline = Date.now() + 5000;
    let keys: unknown = [];
    while (Date.now() < deadline) {
      keys = await (raw as Redis).keys(`${prefix}*`);
      if (Array.isArray(keys) && keys.length === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(keys).toEqual([]);
  });
});
