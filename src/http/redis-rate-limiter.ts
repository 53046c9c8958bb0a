/**
 * A {@link RateLimiter} whose counters live on Redis, so every instance of a host behind a load balancer shares
 * one limit per key. It takes the host's own Redis client (ioredis, node-redis, or any object with a `call`
 * method) and imports no Redis library itself.
 */
import { InvalidArgumentError } from '../index.js';
import { DataSourceUnavailableError } from './errors.js';
import { createRedisBatches } from './internal/redis-batches.js';
import { RedisAnswerError, toRedisKey } from './internal/redis-script.js';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';

/**
 * A Redis client in the shape of ioredis: `call(command, ...args)` sends one command and resolves with its
 * reply. An `ioredis` `Redis` or `Cluster` instance satisfies it as is; so does a small adapter around any
 * other client.
 *
 * @example
 * // ioredis
 * import { Redis } from 'ioredis';
 * const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
 * client.on('error', (e) => log.warn(e)); // keep reconnecting; errors reach the limiter's onError too
 * @example
 * // an adapter around any other client
 * const client = { call: (command: string, ...args: string[]) => other.exec([command, ...args]) };
 */
export interface RedisCallClient {
  /** Send `command` with `args`; resolve with the reply (arrays of integers for the limiter's script). */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * A Redis client in the shape of node-redis (`redis` v4 and later): `sendCommand([command, ...args])`. A
 * node-redis client made by `createClient` satisfies it as is.
 *
 * @example
 * import { createClient } from 'redis';
 * const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', disableOfflineQueue: true });
 * client.on('error', (e) => log.warn(e)); // without a listener node-redis throws the error and the process exits
 * await client.connect();
 */
export interface RedisSendCommandClient {
  /** Send one command given as `[command, ...args]`; resolve with its reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * The Redis client {@link createRedisRateLimiter} accepts: ioredis' shape ({@link RedisCallClient}, tried
 * first) or node-redis' ({@link RedisSendCommandClient}), told apart at run time by which method it has.
 */
export type RedisCommandClient = RedisCallClient | RedisSendCommandClient;

/** What a limiter was doing when Redis failed, for {@link RedisRateLimiterOptions.onError}. */
export interface RedisRateLimiterErrorContext {
  /** `consume` (a request was being counted) or `ping` (a readiness check). */
  readonly operation: 'consume' | 'ping';
  /** True when the request was let through anyway ({@link RedisRateLimiterOptions.failOpen}). */
  readonly failedOpen: boolean;
}

/** Options of {@link createRedisRateLimiter}. */
export interface RedisRateLimiterOptions {
  /** The host's connected Redis client (see {@link RedisCommandClient}). The limiter never connects, closes or configures it. */
  readonly client: RedisCommandClient;
  /**
   * Prefix of every counter key. Default `'chart-export:rl:'`. Each key is the prefix and the SHA-256 of the
   * handler's counter name (64 hex digits), so any name (colons, spaces, non-ASCII, any length) is a safe,
   * fixed-size Redis key.
   */
  readonly prefix?: string | undefined;
  /**
   * Longest wait for a decision per request, in milliseconds from when `consume` was called (a positive
   * integer, default 200). A slower answer, like no answer, makes the request fail as unavailable.
   */
  readonly timeoutMs?: number | undefined;
  /** The `Retry-After` of the 503 the handler sends while Redis is unavailable: a positive integer of seconds, default 5. */
  readonly retryAfterSeconds?: number | undefined;
  /**
   * When Redis is unavailable, let requests through uncounted instead of failing them (default `false`: fail
   * closed). Fail closed keeps the limit a hard promise to whoever holds the patient data, at the price of an
   * outage of the export routes while Redis is down; fail open keeps serving, with no limit at all until Redis
   * is back.
   */
  readonly failOpen?: boolean | undefined;
  /**
   * Called with every failure (Redis down, too slow, a malformed answer) before the limiter rejects or fails
   * open: log or count it here. What it throws is ignored.
   */
  readonly onError?: ((error: DataSourceUnavailableError, context: RedisRateLimiterErrorContext) => void) | undefined;
}

/** The limiter {@link createRedisRateLimiter} returns: a {@link RateLimiter} with a readiness check. */
export interface RedisRateLimiter extends RateLimiter {
  /**
   * Check that Redis answers (`PING`) within the timeout, for a readiness route.
   * @returns a promise that resolves when Redis answered `PONG`
   * @throws {DataSourceUnavailableError} (rejects) when Redis is unreachable, slower than the timeout, or answers something else
   */
  ping(): Promise<void>;
  /** The `failOpen` option it was created with: the handler's `/readyz` stays `200` (degraded) while Redis is down when true. */
  readonly failsOpen: boolean;
}

/** Counter names whose Redis key a limiter remembers, at most (then it forgets them all and starts again). */
const KEY_CACHE_SIZE = 4096;
/** Longest counter name whose Redis key is remembered (a handler's names are far shorter). */
const KEY_CACHE_NAME_LENGTH = 256;

/** Default of {@link RedisRateLimiterOptions.prefix}. */
export const DEFAULT_REDIS_RATE_LIMIT_PREFIX = 'chart-export:rl:';

const DEFAULT_TIMEOUT_MS = 200;
const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** An optional positive-integer option, or its default. @throws {InvalidArgumentError} naming the option */
function checkPositiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError(name, 'must be a positive integer');
  return value;
}

/** The checked options of a Redis limiter, and the one way of sending a command to its client. */
interface RedisLimiterSettings {
  readonly send: (args: string[]) => Promise<unknown>;
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly retryAfterSeconds: number;
  readonly failOpen: boolean;
  readonly onError: RedisRateLimiterOptions['onError'];
}

/** Check the options of {@link createRedisRateLimiter}, each read once. */
function resolveRedisOptions(options: RedisRateLimiterOptions): RedisLimiterSettings {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const client: unknown = options.client;
  if (typeof client !== 'object' || client === null) throw new InvalidArgumentError('options.client', 'must be a Redis client');
  const call: unknown = (client as { call?: unknown }).call;
  const sendCommand: unknown = (client as { sendCommand?: unknown }).sendCommand;
  let send: (args: string[]) => Promise<unknown>;
  if (typeof call === 'function') send = (args) => call.apply(client, args) as Promise<unknown>;
  else if (typeof sendCommand === 'function') send = (args) => sendCommand.call(client, args) as Promise<unknown>;
  else throw new InvalidArgumentError('options.client', 'must have a call (ioredis) or sendCommand (node-redis) method');
  const prefix = options.prefix ?? DEFAULT_REDIS_RATE_LIMIT_PREFIX;
  if (typeof prefix !== 'string') throw new InvalidArgumentError('options.prefix', 'must be a string');
  const timeoutMs = checkPositiveInteger('options.timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const retryAfterSeconds = checkPositiveInteger('options.retryAfterSeconds', options.retryAfterSeconds, DEFAULT_RETRY_AFTER_SECONDS);
  const failOpen = options.failOpen ?? false;
  if (typeof failOpen !== 'boolean') throw new InvalidArgumentError('options.failOpen', 'must be a boolean');
  const onError = options.onError;
  if (onError !== undefined && typeof onError !== 'function') throw new InvalidArgumentError('options.onError', 'must be a function');
  return { send, prefix, timeoutMs, retryAfterSeconds, failOpen, onError };
}

/**
 * Run `work` with a deadline: reject when it has not settled in `timeoutMs`; its own late rejection is caught
 * here (never unhandled).
 */
function withRedisDeadline<T>(timeoutMs: number, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const running = work();
  running.catch(() => undefined);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisAnswerError(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([running, deadline]).finally(() => clearTimeout(timer));
}

/** The decision of a request let through while Redis is down: uncounted, in the host clock's current window. */
function failedOpenDecision(limit: number, windowSeconds: number): RateLimitDecision {
  const windowMs = windowSeconds * 1000;
  const end = Math.floor(Date.now() / windowMs) * windowMs + windowMs;
  return { allowed: true, limit, remaining: limit - 1, reset: Math.floor(end / 1000), retryAfter: 0 };
}

/**
 * Create a {@link RateLimiter} whose counters live on Redis, shared by every process that uses the same Redis
 * and prefix. It has the semantics of {@link createFixedWindowRateLimiter} (epoch-aligned fixed windows,
 * `limit` / `remaining` / `reset` in epoch seconds / `retryAfter` on a denial, denied requests not counted,
 * exact under concurrency) with one atomic Lua script per call, run by `EVALSHA` and sent whole by `EVAL`
 * when Redis does not know it (`NOSCRIPT`: after `SCRIPT FLUSH`, a restart or a failover). The requests of one
 * counter that arrive in one turn of the event loop, or while that counter's call is in flight, go together
 * as one call, which decides them in their order exactly as that many calls would. The window comes from the
 * Redis server's clock, never the host's. Every counter expires one second after its window.
 *
 * When Redis is down, slower than `timeoutMs` or answers something malformed, `consume` rejects with a
 * {@link DataSourceUnavailableError} carrying `retryAfterSeconds`, which the handler answers with `503` and
 * `Retry-After` in the route's error format (or, with `failOpen`, resolves with an allowed decision). It
 * never throws synchronously, leaves no rejection unhandled, and serves again as soon as the client
 * reconnects. A call that timed out may still reach Redis later and be counted (a command once sent cannot be
 * recalled): an over-count, never an under-count.
 *
 * Configure the client not to queue commands while disconnected, or a call waits for the reconnection and
 * only the timeout ends it: ioredis `enableOfflineQueue: false` and a small `maxRetriesPerRequest` (1);
 * node-redis `disableOfflineQueue: true`. Keep their default reconnection on, and attach an `'error'` listener
 * (node-redis without one throws). Needs Redis 5 or later (tested with 7.0), or Valkey.
 *
 * @param options - `client` (required), `prefix`, `timeoutMs`, `retryAfterSeconds`, `failOpen`, `onError`: see {@link RedisRateLimiterOptions}
 * @returns a {@link RedisRateLimiter} (`consume`, and `ping` for a readiness check)
 * @throws {InvalidArgumentError} when `options` is not an object, `client` has neither `call` nor
 *   `sendCommand`, or another option has the wrong type; `consume` rejects with {@link InvalidArgumentError}
 *   for a key that is not a string or a non-positive or non-integer limit or window (a host bug, neither a
 *   503 nor failed open), and with {@link DataSourceUnavailableError} when Redis is unavailable
 * @example
 * // ioredis
 * import { Redis } from 'ioredis';
 * import { createExportHandler, createRedisRateLimiter } from 'chart-export/http';
 * const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
 * redis.on('error', (e) => console.warn('redis', e.message));
 * const rateLimiter = createRedisRateLimiter({ client: redis, onError: (e) => console.warn(e.message, e.cause) });
 * const handler = createExportHandler({ dataSource, keyStore, rateLimiter });
 * @example
 * // node-redis
 * import { createClient } from 'redis';
 * const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', disableOfflineQueue: true });
 * redis.on('error', (e) => console.warn('redis', e.message));
 * await redis.connect();
 * const rateLimiter = createRedisRateLimiter({ client: redis, timeoutMs: 250 });
 * @see https://redis.io/docs/latest/develop/interact/programmability/eval-intro/ for EVALSHA and NOSCRIPT
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/ for the header fields
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const { send, prefix, timeoutMs, retryAfterSeconds, failOpen, onError } = resolveRedisOptions(options);

  /** Send one command; a synchronous throw or a non-promise answer becomes a promise, never an escape. */
  function sendSafely(args: string[]): Promise<unknown> {
    try {
      return Promise.resolve(send(args));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Wrap a failure as the handler's 503 and tell the host. */
  function unavailable(cause: unknown, operation: 'consume' | 'ping', failedOpen: boolean): DataSourceUnavailableError {
    const reason = cause instanceof RedisAnswerError ? cause.message : 'Redis command failed';
    const error = new DataSourceUnavailableError(`Rate limiter unavailable: ${reason}`, { cause, retryAfterSeconds });
    if (onError !== undefined) {
      try {
        onError(error, { operation, failedOpen });
      } catch {
        // A failing log hook must not change the answer.
      }
    }
    return error;
  }

  const decide = createRedisBatches({
    send: sendSafely,
    timeoutMs,
    fail: (cause, limit, windowSeconds) => {
      const error = unavailable(cause, 'consume', failOpen);
      if (failOpen) return failedOpenDecision(limit, windowSeconds);
      throw error;
    },
  });

  /** The Redis keys of the counter names seen lately (the handler uses a few names over and over). */
  const keys = new Map<string, string>();

  async function consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    if (typeof key !== 'string') throw new InvalidArgumentError('key', 'must be a string');
    if (!Number.isSafeInteger(limit) || limit < 1) throw new InvalidArgumentError('limit', 'must be a positive integer');
    if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) throw new InvalidArgumentError('windowSeconds', 'must be a positive integer');
    let redisKey = keys.get(key);
    if (redisKey === undefined) {
      redisKey = toRedisKey(prefix, key);
      if (key.length <= KEY_CACHE_NAME_LENGTH) {
        if (keys.size >= KEY_CACHE_SIZE) keys.clear();
        keys.set(key, redisKey);
      }
    }
    return decide(redisKey, limit, windowSeconds);
  }

  return {
    consume(key, limit, windowSeconds) {
      // An async function never throws synchronously, whatever the arguments.
      return consume(key, limit, windowSeconds);
    },
    async ping() {
      try {
        const reply = await withRedisDeadline(timeoutMs, () => sendSafely(['PING']));
        if (reply !== 'PONG') throw new RedisAnswerError('Redis answered PING with something other than PONG');
      } catch (cause) {
        throw unavailable(cause, 'ping', false);
      }
    },
    failsOpen: failOpen,
  };
}
