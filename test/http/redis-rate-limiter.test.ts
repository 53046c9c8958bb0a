/**
 * createRedisRateLimiter against a real redis-server (test/support/redis-server.ts), every test run with each
 * client it documents: ioredis 6 and 5, node-redis (`redis`) 6 and 4, configured as the documentation
 * recommends.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { Redis as Redis5 } from 'ioredis-5';
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis-4';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import {
  createExportHandler,
  createFixedWindowRateLimiter,
  createRedisRateLimiter,
  DataSourceUnavailableError,
  DEFAULT_REDIS_RATE_LIMIT_PREFIX,
  type RateLimitDecision,
  type RedisCommandClient,
  type RedisRateLimiterOptions,
} from '../../src/http/index.js';
import { REDIS_RATE_LIMIT_SCRIPT, REDIS_RATE_LIMIT_SCRIPT_SHA1 } from '../../src/http/internal/redis-script.js';
import { startRedisServer, type RedisTestServer } from '../support/redis-server.js';
import { expectError } from './support/bodies.js';
import { KEYS, PATIENT_ID } from './support/fixture.js';
import { fixtureOptions, serve } from './support/harness.js';
import { runs } from '../support/runs.js';

/**
 * The timeout of limiters in tests that are not about the timeout: a loaded machine can hold the event loop
 * longer than the default 200 ms, and the timer would then fire before the answer that has arrived is read.
 */
const RELAXED_TIMEOUT_MS = 2000;

/** A window so long (ten years, epoch-aligned) that no test run crosses its end. */
const LONG_WINDOW = 10 * 365 * 86_400;

/** One connection of a test: the client handed to the limiter, and a way to send admin commands over it. */
interface TestConnection {
  readonly client: RedisCommandClient;
  command(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

interface ClientKind {
  readonly name: string;
  connect(server: RedisTestServer): Promise<TestConnection>;
}

/** Reconnect quickly and forever: the limiter must serve again by itself once Redis is back. */
const reconnectDelay = (attempt: number): number => Math.min(50 * attempt, 300);

/** The clients' own types fit the limiter's client type as they are (checked by tsc over the tests). */
type Fits<T extends RedisCommandClient> = T;
export type ClientTypesFitTheLimiter = [
  Fits<Redis>,
  Fits<Redis5>,
  Fits<ReturnType<typeof createClient>>,
  Fits<ReturnType<typeof createClient4>>,
];

/** The part of an ioredis client (5 or 6) the tests use. */
interface IoredisLike {
  readonly status: string;
  on(event: 'error', listener: () => void): unknown;
  once(event: 'ready', listener: () => void): unknown;
  call(command: string, ...args: string[]): Promise<unknown>;
  disconnect(): void;
}

/** ioredis as the documentation recommends: no offline queue, one retry, quick reconnection. */
const IOREDIS_OPTIONS = { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: reconnectDelay, connectTimeout: 1000 };

function ioredisKind(name: string, create: (port: number) => IoredisLike): ClientKind {
  return {
    name,
    async connect(server) {
      const client = create(server.port);
      client.on('error', () => undefined);
      if (client.status !== 'ready') await new Promise<void>((resolve) => client.once('ready', resolve));
      return {
        client,
        command: (command, ...args) => client.call(command, ...args),
        close: async () => client.disconnect(),
      };
    },
  };
}

/** The part of a node-redis client (4 or 6) the tests use. */
interface NodeRedisLike {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
}

/** The options node-redis 4 and 6 both take, as the documentation recommends, with quick reconnection. */
interface NodeRedisOptions {
  url: string;
  disableOfflineQueue: boolean;
  socket: { reconnectStrategy: (attempt: number) => number; connectTimeout: number };
}

function nodeRedisKind<C extends NodeRedisLike>(name: string, create: (options: NodeRedisOptions) => C, close: (client: C) => unknown): ClientKind {
  return {
    name,
    async connect(server) {
      const client = create({ url: server.url, disableOfflineQueue: true, socket: { reconnectStrategy: reconnectDelay, connectTimeout: 1000 } });
      client.on('error', () => undefined);
      await client.connect();
      return {
        client,
        command: (...args) => client.sendCommand(args),
        close: async () => {
          await close(client);
        },
      };
    },
  };
}

const CLIENT_KINDS: readonly ClientKind[] = [
  ioredisKind('ioredis 6', (port) => new Redis(port, '127.0.0.1', IOREDIS_OPTIONS)),
  ioredisKind('ioredis 5', (port) => new Redis5(port, '127.0.0.1', IOREDIS_OPTIONS)),
  nodeRedisKind('node-redis 6', createClient, (client) => client.destroy()),
  nodeRedisKind('node-redis 4', createClient4, (client) => client.disconnect()),
];

let server: RedisTestServer;
const connections: TestConnection[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(async () => {
  server = await startRedisServer();
  process.on('unhandledRejection', onUnhandled);
});

afterEach(async () => {
  // A late reply to a call that timed out must not surface as an unhandled rejection.
  await sleep(20);
  expect(unhandled).toEqual([]);
});

afterAll(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  process.off('unhandledRejection', onUnhandled);
  await server?.close();
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let prefixCount = 0;
/** A prefix of its own for each test, so tests never share counters. */
function freshPrefix(): string {
  return `test:${++prefixCount}:`;
}

/** The Redis server's clock in milliseconds. */
async function serverTimeMs(connection: TestConnection): Promise<number> {
  const [seconds, micros] = (await connection.command('TIME')) as [string, string];
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** Poll until `check` passes or `ms` pass; returns whether it passed. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(25);
  }
  return false;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe.each(CLIENT_KINDS)('createRedisRateLimiter ($name)', (kind) => {
  let admin: TestConnection;

  async function connect(): Promise<TestConnection> {
    const connection = await kind.connect(server);
    connections.push(connection);
    return connection;
  }

  function limiterOn(connection: TestConnection, options: Partial<RedisRateLimiterOptions> = {}) {
    return createRedisRateLimiter({ client: connection.client, prefix: freshPrefix(), timeoutMs: RELAXED_TIMEOUT_MS, ...options });
  }

  beforeAll(async () => {
    admin = await connect();
  });

  it('should allow the limit per epoch-aligned window on the server clock, deny without counting, and admit again in the next window', async () => {
    // Arrange: a 2-second window, entered at its start so that the test does not cross its end by accident.
    const limiter = limiterOn(admin);
    let t = await serverTimeMs(admin);
    if (t % 2000 > 1000) {
      await sleep(2000 - (t % 2000) + 20);
      t = await serverTimeMs(admin);
    }
    const reset = (Math.floor(t / 2000) * 2000 + 2000) / 1000;
    // Act
    const first = [await limiter.consume('k', 3, 2), await limiter.consume('k', 3, 2), await limiter.consume('k', 3, 2)];
    const denied = [];
    for (let i = 0; i < 5; i++) denied.push(await limiter.consume('k', 3, 2));
    // A higher limit in the same window: the five denials were not counted, so two requests are left, not none.
    const raised = await limiter.consume('k', 5, 2);
    await sleep(reset * 1000 - (await serverTimeMs(admin)) + 20);
    const next = await limiter.consume('k', 3, 2);
    // Assert
    expect(first).toEqual([
      { allowed: true, limit: 3, remaining: 2, reset, retryAfter: 0 },
      { allowed: true, limit: 3, remaining: 1, reset, retryAfter: 0 },
      { allowed: true, limit: 3, remaining: 0, reset, retryAfter: 0 },
    ]);
    for (const d of denied) {
      expect(d).toMatchObject({ allowed: false, limit: 3, remaining: 0, reset });
      expect(d.retryAfter === 1 || d.retryAfter === 2).toBe(true);
    }
    expect(raised).toEqual({ allowed: true, limit: 5, remaining: 1, reset, retryAfter: 0 });
    expect(next).toEqual({ allowed: true, limit: 3, remaining: 2, reset: reset + 2, retryAfter: 0 });
  });

  it('should decide exactly as the in-memory limiter for any sequence of keys, limits and window lengths', async () => {
    // Arrange: the in-memory limiter runs on the Redis server's clock, read once; windows of one, ten and
    // twenty years (epoch-aligned) so that no run crosses a window's end.
    const windows = [365 * 86_400, LONG_WINDOW, 2 * LONG_WINDOW];
    const call = fc.record({ key: fc.constantFrom('a', 'b', 'c:d'), limit: fc.integer({ min: 1, max: 4 }), window: fc.constantFrom(...windows) });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 25 }), async (calls) => {
        const now = await serverTimeMs(admin);
        const memory = createFixedWindowRateLimiter({ now: () => now });
        const redis = limiterOn(admin);
        for (const { key, limit, window } of calls) {
          // Act
          const expected = await memory.consume(key, limit, window);
          const actual = await redis.consume(key, limit, window);
          // Assert: equal, but for Retry-After, which may be a second shorter on the later server clock.
          expect({ ...actual, retryAfter: 0 }).toEqual({ ...expected, retryAfter: 0 });
          expect(expected.retryAfter - actual.retryAfter).toBeGreaterThanOrEqual(0);
          expect(expected.retryAfter - actual.retryAfter).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: runs(40) },
    );
  });

  it('should decide concurrent bursts, batched or not, exactly as the in-memory limiter decides the same requests one by one', async () => {
    // Arrange: bursts of requests sent at once (the limiter sends those that arrive while a call is in flight
    // as one batch), over keys and limits; the in-memory limiter on the server's clock decides them in order.
    const burst = fc.record({ key: fc.constantFrom('a', 'b'), limit: fc.integer({ min: 1, max: 6 }), size: fc.integer({ min: 1, max: 12 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(burst, { minLength: 1, maxLength: 6 }), async (bursts) => {
        const now = await serverTimeMs(admin);
        const memory = createFixedWindowRateLimiter({ now: () => now });
        const redis = limiterOn(admin);
        for (const { key, limit, size } of bursts) {
          // Act
          const actual = await Promise.all(Array.from({ length: size }, () => redis.consume(key, limit, LONG_WINDOW)));
          const expected: RateLimitDecision[] = [];
          for (let i = 0; i < size; i++) expected.push(await memory.consume(key, limit, LONG_WINDOW));
          // Assert: request by request, in the order they were made (Retry-After aside, as above).
          expect(actual.map((d) => ({ ...d, retryAfter: d.allowed ? 0 : 1 }))).toEqual(expected.map((d) => ({ ...d, retryAfter: d.allowed ? 0 : 1 })));
        }
      }),
      { numRuns: runs(15) },
    );
  });

  it('should allow exactly the limit out of 200 parallel requests over several connections', async () => {
    // Arrange: four connections, a limiter on each, one shared prefix.
    const prefix = freshPrefix();
    const limiters = [admin, await connect(), await connect(), await connect()].map((c) => createRedisRateLimiter({ client: c.client, prefix, timeoutMs: RELAXED_TIMEOUT_MS }));
    // Act
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => (limiters[i % 4] as (typeof limiters)[number]).consume('burst', 50, LONG_WINDOW)));
    // Assert: 50 allowed, each remaining value once, and every denial says there is nothing left.
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(50);
    expect(allowed.map((d) => d.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.retryAfter >= 1)).toBe(true);
  });

  it('should keep each counter under the prefix, as a hashed key with a TTL of at most the window and a second, whatever the key string', async () => {
    // Arrange: an empty database, and key strings with colons, spaces, line breaks, braces, non-ASCII, lone
    // surrogates, the empty string and 100 000 characters.
    await admin.command('FLUSHALL');
    const names = ['a:b:c', 'key:pat 3|Zoë&co', 'Zoë 🩺', 'x\r\nSET y z', '{tag}', '', '\uD800', '\uDC00', '*', 'x'.repeat(100_000)];
    const limiter = createRedisRateLimiter({ client: admin.client, prefix: 'weird:', timeoutMs: RELAXED_TIMEOUT_MS });
    // Act
    const firsts = await Promise.all(names.map((n) => limiter.consume(n, 5, 2)));
    const seconds = await Promise.all(names.map((n) => limiter.consume(n, 5, LONG_WINDOW)));
    // Assert: one counter per name (no two share one), all under the prefix, nothing else in the database.
    expect(firsts.map((d) => d.remaining)).toEqual(names.map(() => 4));
    expect(seconds.map((d) => d.remaining)).toEqual(names.map(() => 3));
    const keys = ((await admin.command('KEYS', '*')) as string[]).sort();
    expect(keys).toHaveLength(names.length);
    for (const key of keys) {
      expect(key).toMatch(/^weird:[0-9a-f]{64}$/);
      const ttl = Number(await admin.command('PTTL', key));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(LONG_WINDOW * 1000 + 1000);
    }
    // The default prefix, and a 2-second window's TTL of at most 3 seconds.
    await limiterOn(admin, { prefix: undefined }).consume('default', 5, 2);
    const [defaultKey] = (await admin.command('KEYS', `${DEFAULT_REDIS_RATE_LIMIT_PREFIX}*`)) as string[];
    expect(defaultKey).toMatch(/^chart-export:rl:[0-9a-f]{64}$/);
    const ttl = Number(await admin.command('PTTL', defaultKey as string));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3000);
  });

  it('should keep a counter expiring one second after its window while it counts within the window, denials included', async () => {
    // Arrange: one counter with a limit of 3 in a window no test run leaves.
    const prefix = freshPrefix();
    const limiter = createRedisRateLimiter({ client: admin.client, prefix, timeoutMs: RELAXED_TIMEOUT_MS });
    const first = await limiter.consume('steady', 3, LONG_WINDOW);
    const [key] = (await admin.command('KEYS', `${prefix}*`)) as string[];
    const expiry = Number(await admin.command('PEXPIRETIME', key as string));
    // Act: the rest of the window's allowance, one at a time and together, then denials.
    const later = [await limiter.consume('steady', 3, LONG_WINDOW), ...(await Promise.all([1, 2, 3].map(() => limiter.consume('steady', 3, LONG_WINDOW))))];
    // Assert: the expiry is the window's end and a second (to the millisecond Redis rounds its clock to), set
    // when the window began and never moved; the count is the allowed requests only.
    expect(Math.abs(expiry - (first.reset * 1000 + 1000))).toBeLessThanOrEqual(1);
    expect(Number(await admin.command('PEXPIRETIME', key as string))).toBe(expiry);
    expect([first, ...later].map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0], [false, 0]]);
    expect(String(await admin.command('HGET', key as string, 'c'))).toBe('3');
  });

  it('should ignore the host clock: limiters in processes whose clocks disagree share one window and one count', async () => {
    // Arrange: two limiters on two connections, as two instances of a host; the host clock is off by days.
    const prefix = freshPrefix();
    const a = createRedisRateLimiter({ client: admin.client, prefix, timeoutMs: RELAXED_TIMEOUT_MS });
    const b = createRedisRateLimiter({ client: (await connect()).client, prefix, timeoutMs: RELAXED_TIMEOUT_MS });
    const t = await serverTimeMs(admin);
    const reset = (Math.floor(t / 1000 / LONG_WINDOW) * LONG_WINDOW + LONG_WINDOW);
    const decisions: RateLimitDecision[] = [];
    const clock = vi.spyOn(Date, 'now');
    try {
      // Act: alternate instances, each with its own wrong clock.
      for (let i = 0; i < 6; i++) {
        clock.mockReturnValue(t + (i % 2 === 0 ? 3 : -3) * 86_400_000);
        decisions.push(await (i % 2 === 0 ? a : b).consume('shared', 4, LONG_WINDOW));
      }
    } finally {
      clock.mockRestore();
    }
    // Assert
    expect(decisions.map((d) => [d.allowed, d.remaining, d.reset])).toEqual([
      [true, 3, reset],
      [true, 2, reset],
      [true, 1, reset],
      [true, 0, reset],
      [false, 0, reset],
      [false, 0, reset],
    ]);
  });

  it('should reject with DataSourceUnavailableError while Redis is down, and serve again with the same limiter once it is back', async () => {
    // Arrange
    const connection = await connect();
    const errors: unknown[] = [];
    const limiter = limiterOn(connection, { retryAfterSeconds: 7, onError: (e, context) => errors.push([e, context]) });
    const open = limiterOn(connection, { failOpen: true });
    expect((await limiter.consume('k', 2, LONG_WINDOW)).allowed).toBe(true);
    await limiter.ping();
    try {
      // Act
      await server.stop();
      const started = Date.now();
      const error = await rejection(limiter.consume('k', 2, LONG_WINDOW));
      const elapsed = Date.now() - started;
      const ping = await rejection(limiter.ping());
      const openDecision = await open.consume('k', 2, 60);
      // Assert: a 503 for the handler, within the timeout; the hook saw it; fail-open lets the request through.
      expect(error).toBeInstanceOf(DataSourceUnavailableError);
      expect((error as DataSourceUnavailableError).retryAfterSeconds).toBe(7);
      expect(elapsed).toBeLessThan(1500);
      expect(ping).toBeInstanceOf(DataSourceUnavailableError);
      expect(errors.map((e) => (e as [unknown, unknown])[1])).toEqual([
        { operation: 'consume', failedOpen: false },
        { operation: 'ping', failedOpen: false },
      ]);
      expect(openDecision).toMatchObject({ allowed: true, limit: 2, remaining: 1, retryAfter: 0 });
      expect(openDecision.reset % 60).toBe(0);
    } finally {
      await server.start();
    }
    // The restarted server is empty (no counter, no cached script): the same limiter counts again from zero.
    expect(await eventually(async () => (await limiter.consume('after', 2, LONG_WINDOW)).allowed, 5000)).toBe(true);
    await limiter.ping();
    expect(await eventually(async () => (await admin.command('PING')) === 'PONG', 5000)).toBe(true);
  });

  it('should stay exact when the script cache is flushed mid-run (NOSCRIPT, then EVAL)', async () => {
    // Arrange
    const prefix = freshPrefix();
    const limiters = [admin, await connect(), await connect()].map((c) => createRedisRateLimiter({ client: c.client, prefix, timeoutMs: RELAXED_TIMEOUT_MS }));
    const consume = (i: number) => (limiters[i % 3] as (typeof limiters)[number]).consume('flush', 30, LONG_WINDOW);
    // Act: 50 requests, SCRIPT FLUSH, 50 more, all in flight together.
    const first = Array.from({ length: 50 }, (_, i) => consume(i));
    const flushed = admin.command('SCRIPT', 'FLUSH');
    const second = Array.from({ length: 50 }, (_, i) => consume(i));
    const decisions = await Promise.all([...first, ...second]);
    await flushed;
    // Assert
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    await admin.command('SCRIPT', 'FLUSH');
    expect(await admin.command('SCRIPT', 'EXISTS', REDIS_RATE_LIMIT_SCRIPT_SHA1)).toEqual([0]);
    expect((await consume(0)).allowed).toBe(false);
    expect(await admin.command('SCRIPT', 'EXISTS', REDIS_RATE_LIMIT_SCRIPT_SHA1)).toEqual([1]);
  });

  it('should reject in about the timeout when Redis is slower than it', async () => {
    // Arrange: another connection pauses every client for 1.5 s.
    const prefix = freshPrefix();
    const limiter = limiterOn(admin, { prefix, timeoutMs: 150 });
    const pauser = await connect();
    await pauser.command('CLIENT', 'PAUSE', '1500');
    // Act
    const started = Date.now();
    const error = await rejection(limiter.consume('slow', 5, LONG_WINDOW));
    const elapsed = Date.now() - started;
    const ping = await rejection(limiter.ping());
    // Assert
    expect(error).toBeInstanceOf(DataSourceUnavailableError);
    expect((error as Error).message).toMatch(/within 150 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    // Well before the pause ends (an answer, had the limiter waited for it, would come after 1.5 s).
    expect(elapsed).toBeLessThan(1200);
    expect(ping).toBeInstanceOf(DataSourceUnavailableError);
    // Once the pause ends, the same limiter answers; the call that timed out reached Redis after the pause and
    // was counted (the documented over-count), the PING was not.
    const patient = limiterOn(admin, { prefix });
    expect(await eventually(() => patient.ping().then(() => true), 3000)).toBe(true);
    expect(await patient.consume('slow', 5, LONG_WINDOW)).toMatchObject({ allowed: true, remaining: 3 });
  });
});

describe('createRedisRateLimiter with two kinds of client at once', () => {
  it('should share one exact count between ioredis and node-redis clients', async () => {
    // Arrange
    const all = await Promise.all(CLIENT_KINDS.map((k) => k.connect(server)));
    connections.push(...all);
    const prefix = freshPrefix();
    const limiters = all.map((c) => createRedisRateLimiter({ client: c.client, prefix, timeoutMs: RELAXED_TIMEOUT_MS }));
    // Act
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => (limiters[i % limiters.length] as (typeof limiters)[number]).consume('mixed', 25, LONG_WINDOW)));
    // Assert
    expect(decisions.filter((d) => d.allowed)).toHaveLength(25);
  });
});

describe('createRedisRateLimiter through the handler', () => {
  it('should make the routes answer 503 with Retry-After in their error format while Redis is down, and 200 again after', async () => {
    // Arrange
    const connection = await (CLIENT_KINDS[0] as ClientKind).connect(server);
    connections.push(connection);
    const rateLimiter = createRedisRateLimiter({ client: connection.client, prefix: freshPrefix(), retryAfterSeconds: 3, timeoutMs: RELAXED_TIMEOUT_MS });
    const call = await serve('fetch', createExportHandler(await fixtureOptions({ rateLimiter })));
    const headers = { 'x-api-key': KEYS.both };
    const fhirPath = `/exportFhirPatient?patientId=${PATIENT_ID}`;
    const hl7Path = `/exportHl7PatientAdt?patientId=${PATIENT_ID}`;
    const before = await call(fhirPath, { headers });
    expect(before.status).toBe(200);
    expect(before.headers['x-ratelimit-remaining']).toBe('999');
    try {
      // Act
      await server.stop();
      const fhir = await call(fhirPath, { headers });
      const hl7 = await call(hl7Path, { headers });
      // Assert
      expect(expectError(fhir, 503, 'fhir')).toBe('unavailable');
      expect(expectError(hl7, 503, 'problem')).toBe('unavailable');
      expect(fhir.headers['retry-after']).toBe('3');
      expect(hl7.headers['retry-after']).toBe('3');
    } finally {
      await server.start();
    }
    expect(await eventually(async () => (await call(hl7Path, { headers })).status === 200, 5000)).toBe(true);
  });
});

describe('createRedisRateLimiter without a server', () => {
  it('should run the script EVALSHA names', () => {
    expect(createHash('sha1').update(REDIS_RATE_LIMIT_SCRIPT).digest('hex')).toBe(REDIS_RATE_LIMIT_SCRIPT_SHA1);
  });

  it('should treat any malformed answer, a throwing client or a silent one as unavailable', async () => {
    // Arrange: clients of both shapes answering what the script cannot send.
    const answers: unknown[] = [
      'garbage',
      null,
      undefined,
      42,
      [],
      [1, 2, 3],
      [1, 2, 3, 4, 5],
      [2, 0, 1_800_000_000, 1], // more allowed than asked
      [-1, 0, 1_800_000_000, 1],
      [1, -1, 1_800_000_000, 1],
      [1, 5, 1_800_000_000, 1], // allowed past the limit
      [0, 3, 1_800_000_000, 1], // denied with room left
      [1, 0, 1_800_000_000, 0], // no Retry-After for a denial
      [1, 0, -5, 1],
      [1, 0.5, 1_800_000_000, 1],
      [1, 0, 2 ** 60, 1],
      ['1', '0', 'x', '1'],
      { allowed: true },
    ];
    const clients: { name: string; client: RedisCommandClient }[] = [];
    for (const answer of answers) {
      clients.push({ name: `call → ${JSON.stringify(answer)}`, client: { call: () => Promise.resolve(answer) } });
      clients.push({ name: `sendCommand → ${JSON.stringify(answer)}`, client: { sendCommand: () => Promise.resolve(answer) } });
    }
    clients.push({
      name: 'throws synchronously',
      client: {
        call: () => {
          throw new Error('closed');
        },
      },
    });
    clients.push({ name: 'never answers', client: { call: () => new Promise<never>(() => undefined) } });
    clients.push({ name: 'rejects with a non-error', client: { sendCommand: () => Promise.reject(Symbol('x')) } });
    clients.push({ name: 'NOSCRIPT, then fails', client: { call: (c) => Promise.reject(new Error(c === 'EVALSHA' ? 'NOSCRIPT No matching script' : 'READONLY')) } });
    for (const { name, client } of clients) {
      const errors: unknown[] = [];
      const limiter = createRedisRateLimiter({ client, timeoutMs: 30, onError: (e) => errors.push(e) });
      // Act
      const error = await rejection(limiter.consume('k', 5, 60));
      // Assert
      expect(error, name).toBeInstanceOf(DataSourceUnavailableError);
      expect((error as DataSourceUnavailableError).retryAfterSeconds, name).toBe(5);
      expect(errors, name).toEqual([error]);
    }
  });

  it('should accept integer replies given as digits (ioredis stringNumbers)', async () => {
    const limiter = createRedisRateLimiter({ client: { call: () => Promise.resolve(['1', '3', '1800000000', '7']) } });
    expect(await limiter.consume('k', 5, 60)).toEqual({ allowed: true, limit: 5, remaining: 1, reset: 1_800_000_000, retryAfter: 0 });
  });

  it('should send EVALSHA with one key under the prefix, then the whole script on NOSCRIPT', async () => {
    const sent: string[][] = [];
    const client = {
      sendCommand: (args: string[]) => {
        sent.push(args);
        return args[0] === 'EVALSHA' ? Promise.reject(new Error('NOSCRIPT No matching script. Please use EVAL.')) : Promise.resolve([0, 7, 1_800_000_000, 9]);
      },
    };
    const decision = await createRedisRateLimiter({ client, prefix: 'p:' }).consume('key:acme', 7, 60);
    expect(decision).toEqual({ allowed: false, limit: 7, remaining: 0, reset: 1_800_000_000, retryAfter: 9 });
    expect(sent.map((a) => a[0])).toEqual(['EVALSHA', 'EVAL']);
    expect(sent[0]?.slice(1)).toEqual([REDIS_RATE_LIMIT_SCRIPT_SHA1, '1', expect.stringMatching(/^p:[0-9a-f]{64}$/), '7', '60', '1000', '1']);
    expect(sent[1]?.slice(2)).toEqual(sent[0]?.slice(2));
    expect(sent[1]?.[1]).toBe(REDIS_RATE_LIMIT_SCRIPT);
  });

  it('should fail open when asked, and tell the hook so; a throwing hook changes nothing', async () => {
    const contexts: unknown[] = [];
    const client = { call: () => Promise.reject(new Error('ECONNREFUSED')) };
    const limiter = createRedisRateLimiter({
      client,
      failOpen: true,
      onError: (_e, context) => {
        contexts.push(context);
        throw new Error('log hook failed');
      },
    });
    const decision = await limiter.consume('k', 10, 3600);
    expect(decision).toMatchObject({ allowed: true, limit: 10, remaining: 9, retryAfter: 0 });
    expect(decision.reset % 3600).toBe(0);
    expect(decision.reset * 1000).toBeGreaterThan(Date.now());
    expect(contexts).toEqual([{ operation: 'consume', failedOpen: true }]);
    await expect(limiter.ping()).rejects.toBeInstanceOf(DataSourceUnavailableError);
  });

  it('should reject bad arguments with InvalidArgumentError, never as unavailable nor failed open', async () => {
    const limiter = createRedisRateLimiter({ client: { call: () => Promise.resolve([1, 0, 0, 1]) }, failOpen: true });
    for (const [key, limit, window] of [
      [1, 5, 60],
      ['k', 0, 60],
      ['k', 1.5, 60],
      ['k', 5, 0],
      ['k', 5, Number.NaN],
    ] as const) {
      await expect(limiter.consume(key as string, limit, window)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
  });

  it('should reject bad options', () => {
    const client = { call: () => Promise.resolve('PONG') };
    for (const options of [
      null,
      {},
      { client: {} },
      { client: { call: 1 } },
      { client, prefix: 1 },
      { client, timeoutMs: 0 },
      { client, timeoutMs: 1.5 },
      { client, retryAfterSeconds: -1 },
      { client, failOpen: 'yes' },
      { client, onError: 'log' },
    ]) {
      expect(() => createRedisRateLimiter(options as never), JSON.stringify(options)).toThrow(InvalidArgumentError);
    }
  });

  it('should answer ping only for PONG', async () => {
    await createRedisRateLimiter({ client: { call: () => Promise.resolve('PONG') } }).ping();
    await expect(createRedisRateLimiter({ client: { call: () => Promise.resolve('OK') } }).ping()).rejects.toBeInstanceOf(DataSourceUnavailableError);
  });
});
