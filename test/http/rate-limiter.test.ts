import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { createFixedWindowRateLimiter } from '../../src/http/index.js';
import { runs } from '../support/runs.js';

describe('createFixedWindowRateLimiter', () => {
  it('should allow the limit per epoch-aligned window, then deny with Retry-After until the reset', async () => {
    // Arrange: 12:00:30 in a 60-second window that ends at 12:01:00.
    let now = Date.UTC(2026, 2, 2, 12, 0, 30);
    const limiter = createFixedWindowRateLimiter({ now: () => now });
    const reset = Date.UTC(2026, 2, 2, 12, 1, 0) / 1000;
    // Act / Assert
    expect(await limiter.consume('k', 2, 60)).toEqual({ allowed: true, limit: 2, remaining: 1, reset, retryAfter: 0 });
    expect(await limiter.consume('k', 2, 60)).toEqual({ allowed: true, limit: 2, remaining: 0, reset, retryAfter: 0 });
    expect(await limiter.consume('k', 2, 60)).toEqual({ allowed: false, limit: 2, remaining: 0, reset, retryAfter: 30 });
    now += 29_500;
    expect((await limiter.consume('k', 2, 60)).retryAfter).toBe(1);
    now += 500; // 12:01:00: a new window
    expect(await limiter.consume('k', 2, 60)).toEqual({ allowed: true, limit: 2, remaining: 1, reset: reset + 60, retryAfter: 0 });
  });

  it('should move to a window of the new length when a key\'s window length changes, so reset and Retry-After name its real end', async () => {
    // Arrange: 12:00:59 in a 60-second window; the key then gets an hour-long window at 12:01:01. Both windows
    // start at 12:00, and the sweep (once a minute) has not run yet.
    const noon = Date.UTC(2026, 2, 2, 12, 0, 0);
    let now = noon + 59_000;
    const limiter = createFixedWindowRateLimiter({ now: () => now });
    await limiter.consume('k', 3, 60);
    now = noon + 61_000;
    // Act
    const longer = [await limiter.consume('k', 3, 3600), await limiter.consume('k', 3, 3600), await limiter.consume('k', 3, 3600)];
    // Assert: the hour's window ends at 13:00, not at 12:01:00 (already past), and the request of 12:00:59,
    // which lies in it, still counts.
    expect(longer.map((d) => [d.allowed, d.remaining, d.reset, d.retryAfter])).toEqual([
      [true, 1, noon / 1000 + 3600, 0],
      [true, 0, noon / 1000 + 3600, 0],
      [false, 0, noon / 1000 + 3600, 3539],
    ]);
    // And back: an hour's window shortened to 60 seconds ends at 12:02:00, not 13:00; the hour's three requests
    // may lie in it, so they still count there until it ends (an over-count, never an under-count).
    expect(await limiter.consume('k', 3, 60)).toEqual({ allowed: false, limit: 3, remaining: 0, reset: noon / 1000 + 120, retryAfter: 59 });
    now = noon + 120_000;
    expect(await limiter.consume('k', 3, 60)).toEqual({ allowed: true, limit: 3, remaining: 2, reset: noon / 1000 + 180, retryAfter: 0 });
  });

  it('should never lift the limit of a key whose window length flaps between two values', async () => {
    // Arrange: a host key store whose replicas disagree, answering 60 s and an hour in turn.
    const now = Date.UTC(2026, 2, 2, 12, 30, 10);
    const limiter = createFixedWindowRateLimiter({ now: () => now });
    // Act
    const decisions = [];
    for (let i = 0; i < 100; i++) decisions.push(await limiter.consume('k', 2, i % 2 === 0 ? 60 : 3600));
    // Assert
    expect(decisions.filter((d) => d.allowed)).toHaveLength(2);
  });

  it('should hold a key at most one window when the clock steps back by more than a window', async () => {
    // Arrange: 5 requests per minute, all used at 12:00:00.100; then the clock steps back an hour.
    const noon = Date.UTC(2026, 2, 2, 12, 0, 0);
    let now = noon + 100;
    const limiter = createFixedWindowRateLimiter({ now: () => now });
    for (let i = 0; i < 5; i++) await limiter.consume('k', 5, 60);
    now = noon - 3_600_000 + 30_000;
    // Act
    const stepped = await limiter.consume('k', 5, 60);
    now += 30_000;
    const next = await limiter.consume('k', 5, 60);
    // Assert: the count stays (no extra requests), but in the clock's own window, which ends within a minute.
    expect(stepped).toEqual({ allowed: false, limit: 5, remaining: 0, reset: (noon - 3_600_000 + 60_000) / 1000, retryAfter: 30 });
    expect(next).toEqual({ allowed: true, limit: 5, remaining: 4, reset: (noon - 3_600_000 + 120_000) / 1000, retryAfter: 0 });
  });

  it('should keep counting in the later window when the clock steps back into an earlier one', async () => {
    // Arrange: 1 request per 60 s, used at 12:00:00.100; the clock then steps back 300 ms (NTP) and forward again.
    const noon = Date.UTC(2026, 2, 2, 12, 0, 0);
    let now = noon + 100;
    const limiter = createFixedWindowRateLimiter({ now: () => now });
    expect((await limiter.consume('k', 1, 60)).allowed).toBe(true);
    // Act
    now = noon - 200;
    const stepped = await limiter.consume('k', 1, 60);
    now = noon + 400;
    const after = await limiter.consume('k', 1, 60);
    // Assert: the 12:00 window's count is kept: no second request in it, and the reset is its end.
    expect(stepped).toEqual({ allowed: false, limit: 1, remaining: 0, reset: noon / 1000 + 60, retryAfter: 61 });
    expect(after).toEqual({ allowed: false, limit: 1, remaining: 0, reset: noon / 1000 + 60, retryAfter: 60 });
  });

  it('should count keys separately and reset on demand', async () => {
    const limiter = createFixedWindowRateLimiter({ now: () => 0 });
    await limiter.consume('a', 1, 1);
    expect((await limiter.consume('a', 1, 1)).allowed).toBe(false);
    expect((await limiter.consume('b', 1, 1)).allowed).toBe(true);
    limiter.reset('a');
    expect((await limiter.consume('a', 1, 1)).allowed).toBe(true);
    limiter.reset();
    expect(limiter.size).toBe(0);
  });

  it('should allow exactly min(N, L) of N concurrent calls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 50 }), async (n, l) => {
        const limiter = createFixedWindowRateLimiter({ now: () => 1_000 });
        const results = await Promise.all(Array.from({ length: n }, () => limiter.consume('k', l, 60)));
        expect(results.filter((r) => r.allowed)).toHaveLength(Math.min(n, l));
        expect(new Set(results.filter((r) => r.allowed).map((r) => r.remaining)).size).toBe(Math.min(n, l));
      }),
      { numRuns: runs(50) },
    );
  });

  it('should sweep expired windows so memory stays bounded', async () => {
    let now = 0;
    const limiter = createFixedWindowRateLimiter({ now: () => now });
    for (let i = 0; i < 100; i++) await limiter.consume(`k${i}`, 1, 1);
    expect(limiter.size).toBe(100);
    now = 120_000;
    await limiter.consume('fresh', 1, 1);
    expect(limiter.size).toBe(1);
  });

  it('should reject a non-positive or fractional limit or window', async () => {
    const limiter = createFixedWindowRateLimiter();
    await expect(limiter.consume('k', 0, 60)).rejects.toThrow(InvalidArgumentError);
    await expect(limiter.consume('k', 1.5, 60)).rejects.toThrow(InvalidArgumentError);
    await expect(limiter.consume('k', 1, 0)).rejects.toThrow(InvalidArgumentError);
  });
});
