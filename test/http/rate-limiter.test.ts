import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { createFixedWindowRateLimiter } from '../../src/http/index.js';

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
      { numRuns: 50 },
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
