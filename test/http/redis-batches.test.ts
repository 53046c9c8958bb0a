/**
 * The Redis limiter's batches, with a client whose answers the test gives by hand and a fake clock: which
 * requests go together in one script call, in which order they are decided, and what a call that is slow,
 * lost or answered `NOSCRIPT` does to the requests behind it. (The same limiter against a real redis-server:
 * redis-rate-limiter.test.ts.)
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRedisRateLimiter, DataSourceUnavailableError, type RateLimitDecision } from '../../src/http/index.js';
import { readBatchReply, REDIS_RATE_LIMIT_SCRIPT, toRedisKey } from '../../src/http/internal/redis-script.js';
import { runs } from '../support/runs.js';

const RESET = 1_800_000_000;

/** One command the client was sent, and the hands to answer it. */
interface SentCall {
  readonly args: string[];
  answer(reply: unknown): void;
  fail(error: Error): void;
}

/** A node-redis-shaped client that answers nothing until the test says so. */
function createHeldClient(): { client: { sendCommand(args: string[]): Promise<unknown> }; calls: SentCall[] } {
  const calls: SentCall[] = [];
  const client = {
    sendCommand(args: string[]): Promise<unknown> {
      return new Promise((resolve, reject) => calls.push({ args, answer: resolve, fail: reject }));
    },
  };
  return { client, calls };
}

/** The batch size (`n`, the last argument) of a script call. */
const batchSize = (call: SentCall | undefined): number => Number(call?.args.at(-1));

/** Settle what can settle now: promise callbacks, and timers due at the fake clock's present. */
const settleNow = (): Promise<void> => vi.advanceTimersByTimeAsync(0).then(() => undefined);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createRedisRateLimiter batches', () => {
  it('should send the requests of one turn of the event loop as one call, at the end of the turn', async () => {
    // Arrange
    const { client, calls } = createHeldClient();
    const limiter = createRedisRateLimiter({ client });
    // Act: three requests in this turn.
    const decisions = [limiter.consume('k', 5, 60), limiter.consume('k', 5, 60), limiter.consume('k', 5, 60)];
    const sentInTurn = calls.length;
    await settleNow();
    calls[0]?.answer([3, 1, RESET, 60]);
    // Assert: nothing sent before the turn ended; then one call for the three, decided in their order.
    expect(sentInTurn).toBe(0);
    expect(calls.map(batchSize)).toEqual([3]);
    expect((await Promise.all(decisions)).map((d) => d.remaining)).toEqual([3, 2, 1]);
  });

  it('should send the requests that arrive while a call is in flight as one call, and decide them in their order', async () => {
    // Arrange
    const { client, calls } = createHeldClient();
    const limiter = createRedisRateLimiter({ client });
    // Act: one request, then four more while its call is in flight.
    const first = limiter.consume('k', 3, 60);
    await settleNow();
    const rest = [limiter.consume('k', 3, 60), limiter.consume('k', 3, 60), limiter.consume('k', 3, 60), limiter.consume('k', 3, 60)];
    await settleNow();
    const beforeAnswer = calls.length;
    calls[0]?.answer([1, 0, RESET, 60]);
    await settleNow();
    // Redis says: of the four, the first two fit (one counted before them, limit 3).
    calls[1]?.answer([2, 1, RESET, 42]);
    // Assert
    expect(beforeAnswer).toBe(1);
    expect(calls.map(batchSize)).toEqual([1, 4]);
    expect(await first).toEqual({ allowed: true, limit: 3, remaining: 2, reset: RESET, retryAfter: 0 });
    expect(await Promise.all(rest)).toEqual([
      { allowed: true, limit: 3, remaining: 1, reset: RESET, retryAfter: 0 },
      { allowed: true, limit: 3, remaining: 0, reset: RESET, retryAfter: 0 },
      { allowed: false, limit: 3, remaining: 0, reset: RESET, retryAfter: 42 },
      { allowed: false, limit: 3, remaining: 0, reset: RESET, retryAfter: 42 },
    ]);
  });

  it('should give each counter, limit and window its own calls, all in flight at once', async () => {
    // Arrange
    const { client, calls } = createHeldClient();
    const limiter = createRedisRateLimiter({ client, prefix: 'p:' });
    // Act
    const pending = [limiter.consume('a', 3, 60), limiter.consume('b', 3, 60), limiter.consume('a', 4, 60), limiter.consume('a', 3, 61), limiter.consume('a', 3, 60)];
    await settleNow();
    // Assert: four calls at once (a/3/60 twice in one), each for its own counter and figures.
    expect(calls.map((c) => c.args.slice(3, 6))).toEqual([
      [calls[0]?.args[3], '3', '60'],
      [calls[1]?.args[3], '3', '60'],
      [calls[0]?.args[3], '4', '60'],
      [calls[0]?.args[3], '3', '61'],
    ]);
    expect(calls[0]?.args[3]).not.toBe(calls[1]?.args[3]);
    expect(calls.map(batchSize)).toEqual([2, 1, 1, 1]);
    for (const call of calls) call.answer([batchSize(call), 0, RESET, 60]);
    expect((await Promise.all(pending)).map((d) => d.remaining)).toEqual([2, 2, 3, 2, 1]);
  });

  it('should fail a request in about the timeout when the call before it never ends, then send the next call', async () => {
    // Arrange
    const { client, calls } = createHeldClient();
    const errors: unknown[] = [];
    const limiter = createRedisRateLimiter({ client, timeoutMs: 100, onError: (e) => errors.push(e) });
    const lost = limiter.consume('k', 5, 60).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(30);
    const behind = limiter.consume('k', 5, 60).catch((e: unknown) => e);
    // Act: at 100 ms the lost call's request times out and the lane moves on; the request behind goes alone.
    await vi.advanceTimersByTimeAsync(70);
    expect(calls.map(batchSize)).toEqual([1, 1]);
    calls[1]?.answer([1, 0, RESET, 60]);
    // Assert
    const lostError = await lost;
    expect(lostError).toBeInstanceOf(DataSourceUnavailableError);
    expect((lostError as Error).message).toMatch(/within 100 ms/);
    expect(await behind).toEqual({ allowed: true, limit: 5, remaining: 4, reset: RESET, retryAfter: 0 });
    // A late answer of the lost call changes nothing.
    calls[0]?.answer([1, 0, RESET, 60]);
    await settleNow();
    expect(errors).toEqual([lostError]);
  });

  it('should fail each request at its own deadline, counted from its arrival, and leave no timer once all are settled', async () => {
    // Arrange: a client that never answers, and requests arriving at 0, 30 and 60 ms (the later two wait
    // behind the first call).
    const { client } = createHeldClient();
    const limiter = createRedisRateLimiter({ client, timeoutMs: 100 });
    const failedAt: Record<string, number> = {};
    const start = Date.now();
    const track = (name: string, p: Promise<unknown>): Promise<unknown> => p.catch(() => (failedAt[name] = Date.now() - start));
    const pending = [track('a', limiter.consume('k', 5, 60))];
    await vi.advanceTimersByTimeAsync(30);
    pending.push(track('b', limiter.consume('k', 5, 60)));
    await vi.advanceTimersByTimeAsync(30);
    pending.push(track('c', limiter.consume('k', 5, 60)));
    // Act
    await vi.advanceTimersByTimeAsync(39);
    const before = { ...failedAt };
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all(pending);
    // Assert: none before its 100 ms, each at its own (to the timer's millisecond); then no timer is left.
    expect(before).toEqual({});
    expect(failedAt['a']).toBe(100);
    expect(failedAt['b']).toBeGreaterThanOrEqual(130);
    expect(failedAt['b']).toBeLessThanOrEqual(131);
    expect(failedAt['c']).toBeGreaterThanOrEqual(160);
    expect(failedAt['c']).toBeLessThanOrEqual(161);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('should wait out a timeout longer than a timer can take (2^31 - 1 ms) instead of failing at once', async () => {
    // Real timers: the fake ones do not cut a long delay to 1 ms as Node does (with a TimeoutOverflowWarning).
    vi.useRealTimers();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    const { client, calls } = createHeldClient();
    const limiter = createRedisRateLimiter({ client, timeoutMs: 2 ** 40 });
    let failed = false;
    const decision = limiter.consume('k', 5, 60).catch(() => (failed = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    process.off('warning', onWarning);
    expect(failed).toBe(false);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
    calls[0]?.answer([1, 0, RESET, 60]);
    expect(await decision).toEqual({ allowed: true, limit: 5, remaining: 4, reset: RESET, retryAfter: 0 });
  });

  it('should leave no timer once every request is answered', async () => {
    const { client, calls } = createHeldClient();
    const limiter = createRedisRateLimiter({ client, timeoutMs: 100 });
    const decisions = Promise.all([limiter.consume('k', 5, 60), limiter.consume('k', 5, 60)]);
    await settleNow();
    calls[0]?.answer([2, 0, RESET, 60]);
    expect((await decisions).map((d) => d.remaining)).toEqual([4, 3]);
    await settleNow();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('should fail every request of a batch whose call fails, and serve the next batch', async () => {
    // Arrange
    const { client, calls } = createHeldClient();
    const limiter = createRedisRateLimiter({ client, retryAfterSeconds: 9 });
    const first = limiter.consume('k', 5, 60);
    await settleNow();
    const batch = [limiter.consume('k', 5, 60).catch((e: unknown) => e), limiter.consume('k', 5, 60).catch((e: unknown) => e)];
    await settleNow();
    calls[0]?.answer([1, 0, RESET, 60]);
    await settleNow();
    const next = limiter.consume('k', 5, 60);
    // Act
    calls[1]?.fail(new Error('ECONNRESET'));
    await settleNow();
    calls[2]?.answer([1, 1, RESET, 60]);
    // Assert
    expect((await first).remaining).toBe(4);
    for (const error of await Promise.all(batch)) {
      expect(error).toBeInstanceOf(DataSourceUnavailableError);
      expect((error as DataSourceUnavailableError).retryAfterSeconds).toBe(9);
    }
    expect(calls.map(batchSize)).toEqual([1, 2, 1]);
    expect((await next).remaining).toBe(3);
  });

  it('should send the whole script on NOSCRIPT for the requests of the batch not yet timed out only', async () => {
    // Arrange: A's call in flight; B (at 50 ms) and C (at 90 ms) wait and go together when A's call ends.
    const { client, calls } = createHeldClient();
    const limiter = createRedisRateLimiter({ client, timeoutMs: 100 });
    const a = limiter.consume('k', 5, 60);
    await vi.advanceTimersByTimeAsync(50);
    const b = limiter.consume('k', 5, 60).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(40);
    const c = limiter.consume('k', 5, 60);
    await vi.advanceTimersByTimeAsync(5);
    calls[0]?.answer([1, 0, RESET, 60]);
    await settleNow();
    // Act: Redis lost the script; it says so after B's time is up (150 ms) but before C's (190 ms).
    await vi.advanceTimersByTimeAsync(60);
    calls[1]?.fail(new Error('NOSCRIPT No matching script. Please use EVAL.'));
    await settleNow();
    calls[2]?.answer([1, 1, RESET, 60]);
    // Assert: EVAL carries the script and C alone; B was not sent again (it would have been counted).
    expect((await a).remaining).toBe(4);
    expect(await b).toBeInstanceOf(DataSourceUnavailableError);
    expect((await c).remaining).toBe(3);
    expect(calls.map((call) => call.args[0])).toEqual(['EVALSHA', 'EVALSHA', 'EVAL']);
    expect(calls.map(batchSize)).toEqual([1, 2, 1]);
    expect(calls[2]?.args[1]).toBe(REDIS_RATE_LIMIT_SCRIPT);
  });

  it('should fail open a whole batch when asked, each request with its own decision', async () => {
    const { client, calls } = createHeldClient();
    const limiter = createRedisRateLimiter({ client, failOpen: true });
    const first = limiter.consume('k', 10, 3600);
    await settleNow();
    const batch = [limiter.consume('k', 10, 3600), limiter.consume('k', 10, 3600)];
    await settleNow();
    calls[0]?.fail(new Error('ECONNREFUSED'));
    await settleNow();
    calls[1]?.fail(new Error('ECONNREFUSED'));
    for (const decision of await Promise.all([first, ...batch])) expect(decision).toMatchObject({ allowed: true, limit: 10, remaining: 9, retryAfter: 0 });
  });
});

describe('createRedisRateLimiter counter keys', () => {
  it('should send each name under its own key, whether remembered, forgotten or too long to remember', async () => {
    // Arrange: more names than the limiter remembers (4 096), some over the length it remembers (256), each
    // asked twice, the second time after many others.
    vi.useRealTimers();
    const sent: string[] = [];
    const client = { call: (...args: string[]) => (sent.push(args[3] as string), Promise.resolve([1, 0, RESET, 60])) };
    const limiter = createRedisRateLimiter({ client, prefix: 'p:' });
    const names = Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? `long:${i}:`.padEnd(300, 'x') : `key:${i}`));
    // Act
    for (const round of [0, 1]) for (const name of round === 0 ? names : [...names].reverse()) await limiter.consume(name, 5, 60);
    // Assert
    const expected = names.map((n) => toRedisKey('p:', n));
    expect(sent).toEqual([...expected, ...[...expected].reverse()]);
    expect(new Set(sent).size).toBe(names.length);
  });
});

describe('createRedisRateLimiter batches without setImmediate (browsers, workers)', () => {
  it('should still send the requests of one task as one call, once its promise callbacks have run', async () => {
    // Arrange: the module loaded again in a runtime that has no setImmediate.
    vi.useRealTimers();
    vi.resetModules();
    vi.stubGlobal('setImmediate', undefined);
    try {
      const http = await import('../../src/http/redis-rate-limiter.js');
      const { client, calls } = createHeldClient();
      const limiter = http.createRedisRateLimiter({ client });
      // Act
      const decisions = [limiter.consume('k', 5, 60), limiter.consume('k', 5, 60)];
      const sentInTask = calls.length;
      await new Promise((resolve) => setTimeout(resolve, 0));
      calls[0]?.answer([2, 0, RESET, 60]);
      // Assert
      expect(sentInTask).toBe(0);
      expect(calls.map(batchSize)).toEqual([2]);
      expect((await Promise.all(decisions)).map((d) => d.remaining)).toEqual([4, 3]);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});

describe('readBatchReply', () => {
  it('should decide a batch as the same requests one by one: the first ones allowed while the count is under the limit', () => {
    // The reply of a script that found `before` counted and let `allowed` of `n` through.
    const batch = fc
      .record({ limit: fc.integer({ min: 1, max: 50 }), before: fc.integer({ min: 0, max: 60 }), n: fc.integer({ min: 1, max: 30 }) })
      .map(({ limit, before, n }) => ({ limit, before, n, allowed: Math.max(0, Math.min(n, limit - before)) }));
    fc.assert(
      fc.property(batch, fc.integer({ min: 1, max: 3600 }), ({ limit, before, n, allowed }, retryAfter) => {
        const decisions = readBatchReply([allowed, before, RESET, retryAfter], n, limit);
        // One by one: each request sees the count the ones before it left.
        let count = before;
        const expected: RateLimitDecision[] = [];
        for (let i = 0; i < n; i++) {
          if (count < limit) expected.push({ allowed: true, limit, remaining: limit - ++count, reset: RESET, retryAfter: 0 });
          else expected.push({ allowed: false, limit, remaining: 0, reset: RESET, retryAfter });
        }
        expect(decisions).toEqual(expected);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should refuse a reply that no count could give', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 10 }), fc.integer({ min: -2, max: 12 }), (limit, before, n, allowed) => {
        const possible = allowed === Math.max(0, Math.min(n, limit - before));
        const read = (): unknown => readBatchReply([allowed, before, RESET, 5], n, limit);
        if (possible) expect(read()).toHaveLength(n);
        else expect(read).toThrow(/out of range/);
      }),
      { numRuns: runs(300) },
    );
  });
});
