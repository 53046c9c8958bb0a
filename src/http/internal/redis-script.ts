/**
 * The Redis side of the Redis rate limiter: the one Lua script it runs per batch of requests, the reading of
 * that script's reply, and the Redis key of a counter.
 */
import { sha256 } from '../../internal/adapter.js';
import type { RateLimitDecision } from '../rate-limiter.js';

/**
 * The one script run per batch, atomically: `n` requests of one counter, decided in their order as `n` calls
 * of the in-memory limiter would decide them one after another. A counter is a hash `{ s: window start, w:
 * window length, c: count }` (milliseconds), one per key, so the script touches only the key it is given
 * (cluster-safe). The time is the Redis server's (`TIME`), so hosts with skewed clocks agree on the window. The
 * rules are those of the in-memory limiter: epoch-aligned windows; a denied request is not counted; a key whose
 * window length changes keeps its count while those requests can lie in the new window; a clock (here: a
 * failover to a server whose clock is behind) stepped back by more than a window counts on in its own window.
 * Within a window it only adds the allowed requests to the count (`HINCRBY`, nothing at all when none is
 * allowed): the window's start, length and expiry are written when a window begins, and the expiry is the
 * same instant on every call of that window.
 *
 * `KEYS[1]` the counter; `ARGV` limit, window seconds, TTL margin (ms), `n` (≥ 1).
 * Reply: `{ allowed (0..n: the first ones of the batch), count before them, reset (epoch seconds), retryAfter (seconds, ≥ 1) }`.
 */
export const REDIS_RATE_LIMIT_SCRIPT = `-- chart-export fixed-window rate limit: n requests of one counter
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local w = tonumber(ARGV[2]) * 1000
local n = tonumber(ARGV[4])
local start = now - (now % w)
local v = redis.call('HMGET', KEYS[1], 's', 'w', 'c')
local os, ow, c = tonumber(v[1]), tonumber(v[2]), tonumber(v[3])
local s = os
if s == nil or ow == nil or c == nil or (s < start and ow == w) then
  s, c = start, 0
elseif ow ~= w then
  if not (now < s + ow or s >= start) then c = 0 end
  s = start
elseif s - start > w then
  s = start
end
local e = s + w
local allowed = math.max(0, math.min(n, limit - c))
if s == os and w == ow and c == tonumber(v[3]) then
  if allowed > 0 then redis.call('HINCRBY', KEYS[1], 'c', allowed) end
else
  redis.call('HSET', KEYS[1], 's', s, 'w', w, 'c', c + allowed)
  redis.call('PEXPIRE', KEYS[1], e - now + tonumber(ARGV[3]))
end
return {allowed, c, e / 1000, math.max(1, math.ceil((e - now) / 1000))}
`;

/**
 * SHA-1 of {@link REDIS_RATE_LIMIT_SCRIPT}, the name `EVALSHA` runs it by. Written out rather than computed,
 * since SHA-1 is not available synchronously on every runtime; a test checks it against the script.
 */
export const REDIS_RATE_LIMIT_SCRIPT_SHA1 = '5d28524035828d410221e739ebb459cc19bf1edf';

/** A counter lives this much longer than its window, so a key never expires while its window can still be read. */
export const TTL_MARGIN_MS = 1000;

/** Why a call failed, for the error's message (never sent to a client). */
export class RedisAnswerError extends Error {
  override readonly name = 'RedisAnswerError';
}

/** An integer reply: a safe integer, or its decimal digits (ioredis with `stringNumbers`). */
function readInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/**
 * The script's reply for a batch of `n` requests against `limit`, as one decision per request in the batch's
 * order, every field checked: anything else means Redis (or something between) answered what this script
 * cannot have sent.
 * @throws {RedisAnswerError} for any reply the script cannot have sent
 */
export function readBatchReply(reply: unknown, n: number, limit: number): RateLimitDecision[] {
  if (!Array.isArray(reply) || reply.length !== 4) throw new RedisAnswerError('Redis answered the rate-limit script with something other than 4 integers');
  const [allowed, before, reset, retryAfter] = reply.map(readInteger);
  if (allowed === undefined || before === undefined || reset === undefined || retryAfter === undefined) {
    throw new RedisAnswerError('Redis answered the rate-limit script with a value that is not an integer');
  }
  // The first `allowed` requests fit under the limit; the others were denied because the window was full.
  const valid =
    allowed >= 0 &&
    allowed <= n &&
    before >= 0 &&
    (allowed === 0 || before + allowed <= limit) &&
    (allowed === n || before + allowed >= limit) &&
    reset >= 0 &&
    retryAfter >= 1;
  if (!valid) throw new RedisAnswerError('Redis answered the rate-limit script with figures out of range');
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < n; i++) {
    decisions.push(
      i < allowed
        ? { allowed: true, limit, remaining: limit - before - i - 1, reset, retryAfter: 0 }
        : { allowed: false, limit, remaining: 0, reset, retryAfter },
    );
  }
  return decisions;
}

/** Whether Redis said it does not know the script (its reply error starts with the code `NOSCRIPT`, in both clients). */
export function isNoScriptError(error: unknown): boolean {
  try {
    const message: unknown = (error as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message.startsWith('NOSCRIPT');
  } catch {
    return false;
  }
}

const HEX = '0123456789abcdef';

/**
 * The Redis key of a counter: the prefix and the SHA-256 of the name's UTF-16 code units (two bytes each), so
 * that every string, a lone surrogate included, has its own key.
 */
export function toRedisKey(prefix: string, name: string): string {
  const bytes = new Uint8Array(name.length * 2);
  for (let i = 0; i < name.length; i++) {
    const unit = name.charCodeAt(i);
    bytes[2 * i] = unit >>> 8;
    bytes[2 * i + 1] = unit & 0xff;
  }
  let hex = '';
  for (const b of sha256(bytes)) hex += (HEX[b >>> 4] as string) + (HEX[b & 15] as string);
  return prefix + hex;
}
