/**
 * The command's Redis connection (src/cli/redis.ts) in this process, over ioredis: against a closed port, a
 * real `redis-server` stopped and restarted, one that wants a password, and a plain TCP server that shows
 * whether a `rediss://` URL starts with TLS. Outages are logged once, nothing goes to the console, nothing
 * rejects unhandled, and no line holds the URL's password.
 */
import { createServer, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isDataSourceUnavailable } from '../../src/http/index.js';
import { connectSharedLimits, type SharedLimits } from '../../src/cli/redis.js';
import type { LogLevel, RequestLog } from '../../src/cli/request-log.js';
import { startRedisServer, type RedisTestServer } from '../support/redis-server.js';

const SECRET = 'pw-S3CRET-mark';

/** A log that keeps its events. */
function createMemoryLog(): RequestLog & { readonly events: { level: LogLevel; message: string }[] } {
  const events: { level: LogLevel; message: string }[] = [];
  return {
    events,
    request: undefined,
    event(level, message) {
      events.push({ level, message });
    },
  };
}

/** Wait until `check` holds, polling; fail after `timeoutMs`. */
async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let redis: RedisTestServer;
const opened: SharedLimits[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
let consoleSpies: ReturnType<typeof vi.spyOn>[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis.close();
});

beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
  consoleSpies = (['log', 'info', 'warn', 'error'] as const).map((name) => vi.spyOn(console, name));
});

afterEach(async () => {
  for (const shared of opened.splice(0)) shared.close();
  await sleep(50);
  process.off('unhandledRejection', onUnhandled);
  for (const spy of consoleSpies) spy.mockRestore();
});

async function connect(url: string, log: RequestLog): Promise<SharedLimits> {
  const shared = await connectSharedLimits(url, 'cli-test:', log);
  opened.push(shared);
  return shared;
}

/** Nothing went to the console (ioredis prints an 'error' without a listener there), nothing rejected unhandled. */
function expectQuiet(): void {
  expect(unhandled).toEqual([]);
  for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
}

describe('connectSharedLimits (ioredis)', () => {
  it('should return at once, fail closed and log one warning without the password while Redis cannot be reached', async () => {
    const port = await closedPort();
    const log = createMemoryLog();
    const started = Date.now();
    const shared = await connect(`redis://:${SECRET}@127.0.0.1:${port}/2`, log);
    expect(Date.now() - started).toBeLessThan(5000); // it would never return if it waited for Redis
    expect(shared.displayUrl).toBe(`redis://:****@127.0.0.1:${port}/2`);

    const error = await shared.rateLimiter.consume('key:a', 10, 60).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDataSourceUnavailable(error)).toBe(true);
    await waitFor(() => log.events.length > 0, 5000, 'the warning');
    // Several reconnections fail meanwhile (the first ones are 50-250 ms apart): still one line.
    await sleep(1200);
    expect(log.events).toEqual([
      { level: 'warn', message: expect.stringMatching(new RegExp(`^warning: Redis at redis://:\\*\\*\\*\\*@127\\.0\\.0\\.1:${port}/2 is unavailable: .*ECONNREFUSED.*; export routes answer 503 until it is back$`)) as unknown },
    ]);
    expect(JSON.stringify(log.events)).not.toContain('S3CRET');
    shared.close();
    await sleep(300);
    expect(log.events).toHaveLength(1);
    expectQuiet();
  });

  it('should log connected, then one outage when the server stops, then back, and count again (with the database of the URL)', async () => {
    const log = createMemoryLog();
    const shared = await connect(`${redis.url}/3`, log);
    await waitFor(() => log.events.length > 0, 10_000, 'the connection');
    expect(log.events).toEqual([{ level: 'info', message: `Redis at ${redis.url}/3 is connected: rate limits are shared` }]);
    expect(await shared.rateLimiter.consume('key:b', 2, 60)).toMatchObject({ allowed: true, remaining: 1 });
    const probe = new Redis(`${redis.url}/3`, { lazyConnect: true });
    try {
      expect(await probe.keys('cli-test:*')).toHaveLength(1);
    } finally {
      probe.disconnect();
    }

    await redis.stop();
    try {
      await waitFor(() => log.events.length > 1, 10_000, 'the outage');
      const down = await shared.rateLimiter.consume('key:b', 2, 60).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isDataSourceUnavailable(down)).toBe(true);
      await sleep(1200);
    } finally {
      await redis.start();
    }
    await waitFor(() => log.events.length > 2, 15_000, 'the reconnection');
    expect(log.events.map((e) => e.level)).toEqual(['info', 'warn', 'info']);
    expect(log.events[1]?.message).toMatch(new RegExp(`^warning: Redis at ${redis.url}/3 is unavailable: `));
    expect(log.events[2]?.message).toBe(`Redis at ${redis.url}/3 is back: rate limits are shared`);
    // The restarted server is empty: the count starts again.
    expect(await shared.rateLimiter.consume('key:b', 2, 60)).toMatchObject({ allowed: true, remaining: 1 });
    expectQuiet();
  });

  it('should authenticate with the decoded user name and password, and never log either', async () => {
    const admin = new Redis(redis.url);
    const password = `${SECRET}@#:/%é`;
    try {
      await admin.call('ACL', 'SETUSER', 'limiter', 'on', `>${password}`, '~*', '+@all');
      const log = createMemoryLog();
      const good = await connect(`redis://limiter:${encodeURIComponent(password)}@127.0.0.1:${redis.port}`, log);
      await waitFor(() => log.events.length > 0, 10_000, 'the connection');
      expect(log.events).toEqual([{ level: 'info', message: `Redis at redis://****:****@127.0.0.1:${redis.port} is connected: rate limits are shared` }]);
      expect(await good.rateLimiter.consume('key:c', 1, 60)).toMatchObject({ allowed: true });

      const wrongLog = createMemoryLog();
      const wrong = await connect(`redis://limiter:${SECRET}-wrong@127.0.0.1:${redis.port}`, wrongLog);
      await waitFor(() => wrongLog.events.length > 0, 10_000, 'the refusal');
      await sleep(600);
      expect(wrongLog.events).toEqual([{ level: 'warn', message: expect.stringMatching(/is unavailable: WRONGPASS/) as unknown }]);
      expect(isDataSourceUnavailable(await wrong.rateLimiter.consume('key:c', 1, 60).catch((e: unknown) => e))).toBe(true);
      expect(JSON.stringify([...log.events, ...wrongLog.events])).not.toContain('S3CRET');
      expectQuiet();
    } finally {
      await admin.call('ACL', 'DELUSER', 'limiter');
      admin.disconnect();
    }
  });

  describe('rediss://', () => {
    let plain: Server;
    let firstBytes: Buffer[];

    beforeAll(async () => {
      firstBytes = [];
      plain = createServer((socket) => {
        socket.once('data', (chunk: Buffer) => {
          firstBytes.push(chunk);
          socket.destroy();
        });
      });
      await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    });

    it.each([
      ['rediss', true],
      ['redis', false],
    ] as const)('should start the connection of a %s:// URL with a TLS handshake: %s', async (scheme, tls) => {
      firstBytes.length = 0;
      const address = plain.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      const log = createMemoryLog();
      await connect(`${scheme}://:${SECRET}@127.0.0.1:${address.port}`, log);
      await waitFor(() => firstBytes.length > 0 && log.events.length > 0, 5000, 'the first bytes');
      // A TLS record of type handshake (22) starts a ClientHello; RESP starts with '*'.
      expect(firstBytes[0]?.[0] === 22).toBe(tls);
      // Over TLS the password is never sent in the clear.
      if (tls) expect(firstBytes[0]?.toString('latin1')).not.toContain('S3CRET');
      expect(log.events[0]?.level).toBe('warn');
      expect(JSON.stringify(log.events)).not.toContain('S3CRET');
      expectQuiet();
    });
  });
});
