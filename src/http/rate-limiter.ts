/**
 * Rate limiting for the HTTP adapter: the `RateLimiter` interface the handler consumes, and an in-memory
 * fixed-window implementation for single-process hosts, tests and demos.
 */
import { InvalidArgumentError } from '../index.js';
import { registerAnswerNow } from './internal/answers-now.js';

/** The outcome of one {@link RateLimiter.consume} call. */
export interface RateLimitDecision {
  /** True when the request fits in the current window (and was counted). */
  readonly allowed: boolean;
  /** The limit that applied: requests per window. Sent as `x-ratelimit-limit`. */
  readonly limit: number;
  /** Requests left in the current window after this one. Sent as `x-ratelimit-remaining`. */
  readonly remaining: number;
  /** When the current window ends, as Unix epoch seconds. Sent as `x-ratelimit-reset`. */
  readonly reset: number;
  /** Whole seconds until a new request can succeed (≥ 1 when denied, 0 when allowed). Sent as `Retry-After` on 429. */
  readonly retryAfter: number;
}

/**
 * Counts requests per key and says whether one more fits. Implementations may be shared by several handler
 * instances (Redis, a database); the handler keeps no counters of its own.
 *
 * Contract: `consume` counts the request only when it is allowed, and is atomic per key: N concurrent calls
 * against a limit of L allow exactly min(N, L) of them.
 */
export interface RateLimiter {
  /**
   * Count one request against `key` and decide.
   *
   * @param key - the counter's key (the handler uses `key:<keyId>` for API keys and `directory:<address>`)
   * @param limit - requests allowed per window, a positive integer
   * @param windowSeconds - the window length in seconds, a positive integer
   * @returns the decision with the figures for the `x-ratelimit-*` headers
   * @throws whatever the backing store throws; the handler answers 500, or 503 for a
   *   {@link DataSourceUnavailableError}-style error
   */
  consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;

  /**
   * Optional readiness check of a limiter backed by a store (the Redis limiter has one; the in-memory one,
   * always ready, has none): resolves when the store answers. The handler's `GET /readyz` (option
   * `healthRoutes`) calls it, bounded by `dataSourceTimeoutMs`, and answers 503 `rate limiter unreachable`
   * when it rejects, or 200 with the limiter listed as degraded when {@link RateLimiter.failsOpen} is true.
   *
   * @returns a promise that resolves when the backing store is reachable
   * @throws (rejects) a {@link DataSourceUnavailableError} when it is not
   * @example
   * if (rateLimiter.ping) await rateLimiter.ping(); // throws while Redis is unreachable
   */
  ping?(): Promise<void>;

  /**
   * Optional: true when the limiter lets requests through uncounted while its store is unreachable (it
   * resolves `consume` with an allowed decision instead of rejecting), as {@link createRedisRateLimiter} does
   * with `failOpen: true`. The handler's `GET /readyz` then stays `200` while {@link RateLimiter.ping}
   * rejects, with the body `{"status":"ready","degraded":["rate limiter unreachable: failing open"]}`, since
   * the service still answers exports; the failure still goes to `onError` (and the metrics). Absent or
   * false: a rejecting `ping` makes `/readyz` answer `503`. A host's own limiter that fails open sets it
   * too. The handler refuses a value other than a boolean or `undefined` when it is created.
   *
   * @example
   * const limiter: RateLimiter = { consume, ping, failsOpen: true }; // /readyz: 200, degraded, while ping rejects
   */
  readonly failsOpen?: boolean | undefined;
}

/** Options of {@link createFixedWindowRateLimiter}. */
export interface FixedWindowRateLimiterOptions {
  /** The clock, in milliseconds since the Unix epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The in-memory limiter: a {@link RateLimiter} that can also be reset (tests, key rotation). */
export interface FixedWindowRateLimiter extends RateLimiter {
  /** Forget every counter, or the one of `key`. */
  reset(key?: string): void;
  /** Number of live counters (for tests and monitoring). */
  readonly size: number;
}

interface Window {
  /** Window start, ms since the epoch. */
  start: number;
  /** Window end, ms since the epoch. */
  end: number;
  count: number;
}

/** Expired counters are swept at most this often, so memory stays bounded by the keys active per window. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Create an in-memory fixed-window rate limiter. Windows are aligned to the epoch (a 60-second window
 * resets at every whole minute), so every process using the same clock agrees on `reset`. A key whose window
 * length changes (its limit may change freely) moves to a window of the new length that keeps the count of
 * the old one while its requests can lie in it (never less limited for flapping between two lengths).
 *
 * It is exact under concurrency: the count is read and written synchronously inside `consume`, before any
 * `await`, so JavaScript's run-to-completion makes each call atomic.
 *
 * @param options - `now`: an injectable clock in epoch milliseconds (default `Date.now`)
 * @returns a {@link FixedWindowRateLimiter}
 * @throws {InvalidArgumentError} when `options` is not an object or `now` is not a function; `consume`
 *   rejects with {@link InvalidArgumentError} for a key that is not a string, a non-positive or non-integer
 *   limit or window, or a clock that does not return a finite number
 * @example
 * const limiter = createFixedWindowRateLimiter();
 * const d = await limiter.consume('key:acme', 100, 60); // { allowed: true, limit: 100, remaining: 99, reset: …, retryAfter: 0 }
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/ for the header fields
 */
export function createFixedWindowRateLimiter(options: FixedWindowRateLimiterOptions = {}): FixedWindowRateLimiter {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new InvalidArgumentError('options.now', 'must be a function');
  const windows = new Map<string, Window>();
  let lastSweep = Number.NEGATIVE_INFINITY;

  function sweep(at: number): void {
    lastSweep = at;
    for (const [key, w] of windows) if (w.end <= at) windows.delete(key);
  }

  function consumeSync(key: string, limit: number, windowSeconds: number): RateLimitDecision {
    if (typeof key !== 'string') throw new InvalidArgumentError('key', 'must be a string');
    if (!Number.isSafeInteger(limit) || limit < 1) throw new InvalidArgumentError('limit', 'must be a positive integer');
    if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) {
      throw new InvalidArgumentError('windowSeconds', 'must be a positive integer');
    }
    const at = now();
    // A clock giving NaN or a string would make every window new (no limit at all): refuse it.
    if (typeof at !== 'number' || !Number.isFinite(at)) throw new InvalidArgumentError('options.now', 'must return a finite number of milliseconds');
    if (at - lastSweep >= SWEEP_INTERVAL_MS) sweep(at);
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(at / windowMs) * windowMs;
    let w = windows.get(key);
    if (w === undefined || (w.start < start && w.end - w.start === windowMs)) {
      // A key's first request, or the first of a new window.
      w = { start, end: start + windowMs, count: 0 };
      windows.set(key, w);
    } else if (w.end - w.start !== windowMs) {
      // The key's window length changed at run time (say 60 s to an hour, both starting at 12:00): a window of the
      // new length, or the old one's end would be reported as the reset. What the old window counted stays
      // counted while those requests can lie in the new one (the old window still runs, or began inside the new
      // one), so that a length changing back and forth never lifts the limit; the price is an over-count for a
      // window made shorter.
      w = { start, end: start + windowMs, count: at < w.end || w.start >= start ? w.count : 0 };
      windows.set(key, w);
    } else if (w.start - start > windowMs) {
      // The clock stepped back (NTP) by more than a window: count on in the clock's own window, which ends
      // within one window, rather than hold the key until the clock catches up with the later one.
      w = { start, end: start + windowMs, count: w.count };
      windows.set(key, w);
    }
    // Otherwise the same window, or a clock stepped back into the window just before: the later window keeps
    // counting, since replacing it would forget its count and give the key its limit again past the step.
    // The reset is reported in whole seconds; windows are whole seconds long and epoch-aligned, so exact. After
    // a clock step back it is the later window's end, and Retry-After the time until then on this clock.
    const reset = w.end / 1000;
    if (w.count >= limit) {
      return { allowed: false, limit, remaining: 0, reset, retryAfter: Math.max(1, Math.ceil((w.end - at) / 1000)) };
    }
    w.count += 1;
    return { allowed: true, limit, remaining: limit - w.count, reset, retryAfter: 0 };
  }

  const limiter: FixedWindowRateLimiter = {
    consume(key, limit, windowSeconds) {
      try {
        return Promise.resolve(consumeSync(key, limit, windowSeconds));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    reset(key) {
      if (key === undefined) windows.clear();
      else windows.delete(key);
    },
    get size() {
      return windows.size;
    },
  };
  // The handler's access step takes the decision at once, without a wait (internal/answers-now.ts).
  registerAnswerNow(limiter, 'consume', consumeSync);
  return limiter;
}
