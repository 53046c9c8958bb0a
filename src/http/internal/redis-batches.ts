/**
 * The request side of the Redis rate limiter: requests of one counter that arrive while that counter's script
 * call is in flight wait for it and then go together, as one call of the script for all of them (a batch).
 * Under load one call decides many requests, which costs Redis and the host one command instead of many; a
 * lone request goes at once. Each request keeps its own deadline.
 */
import type { RateLimitDecision } from '../rate-limiter.js';
import { isNoScriptError, readBatchReply, REDIS_RATE_LIMIT_SCRIPT, REDIS_RATE_LIMIT_SCRIPT_SHA1, RedisAnswerError, TTL_MARGIN_MS } from './redis-script.js';

/** What the batches need from the limiter. */
export interface RedisBatchSettings {
  /** Send one command; never throws synchronously (a failure is a rejection). */
  readonly send: (args: string[]) => Promise<unknown>;
  /** Longest wait for a decision, per request, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * Turn a failure into the request's outcome: the decision of a request let through (fail open), or a throw
   * of the error the request rejects with.
   */
  readonly fail: (cause: unknown, limit: number, windowSeconds: number) => RateLimitDecision;
  /**
   * Calls of one lane in flight at once (default 1: the requests that arrive meanwhile wait and go together).
   * The benchmark sets it, with `maxBatch` 1, to measure the limiter without batches.
   */
  readonly maxInFlight?: number | undefined;
  /** Most requests in one call (default: no bound; the script's cost does not grow with it). */
  readonly maxBatch?: number | undefined;
}

/** One request waiting for its decision. */
interface Waiter {
  readonly resolve: (decision: RateLimitDecision) => void;
  readonly reject: (error: unknown) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Settled: answered, failed or timed out. A settled request is never sent (again). */
  done: boolean;
}

/** The requests of one counter, limit and window: the calls in flight, and the requests waiting for the next. */
interface Lane {
  readonly id: string;
  readonly key: string;
  readonly limit: number;
  readonly windowSeconds: number;
  waiting: Waiter[];
  /** Calls in flight. */
  busy: number;
}

/** Answer a request, unless it is settled already. */
function settle(waiter: Waiter, decision: RateLimitDecision): void {
  if (waiter.done) return;
  waiter.done = true;
  clearTimeout(waiter.timer);
  waiter.resolve(decision);
}

/** Fail a request, unless it is settled already: with the failed-open decision or the error `fail` throws. */
function fault(waiter: Waiter, lane: Lane, cause: unknown, fail: RedisBatchSettings['fail']): void {
  if (waiter.done) return;
  waiter.done = true;
  clearTimeout(waiter.timer);
  try {
    waiter.resolve(fail(cause, lane.limit, lane.windowSeconds));
  } catch (error) {
    waiter.reject(error);
  }
}

/**
 * Create the batching request side of a Redis limiter.
 * @returns `consume(redisKey, limit, windowSeconds)`, resolving with the request's decision or rejecting
 *   with what `settings.fail` throws
 */
export function createRedisBatches(settings: RedisBatchSettings): (key: string, limit: number, windowSeconds: number) => Promise<RateLimitDecision> {
  const { send, timeoutMs, fail } = settings;
  const maxInFlight = settings.maxInFlight ?? 1;
  const maxBatch = settings.maxBatch ?? Number.POSITIVE_INFINITY;
  const lanes = new Map<string, Lane>();

  /**
   * Run the script for `batch`: by `EVALSHA`, and when Redis lost it (`NOSCRIPT`: after `SCRIPT FLUSH`, a
   * restart or a failover) by `EVAL` with the whole script, for the requests not yet timed out only (a late
   * call would be counted and its answer thrown away).
   */
  async function runScript(lane: Lane, batch: readonly Waiter[]): Promise<void> {
    const args = (n: number): string[] => ['1', lane.key, String(lane.limit), String(lane.windowSeconds), String(TTL_MARGIN_MS), String(n)];
    try {
      let sent = batch;
      let reply: unknown;
      try {
        reply = await send(['EVALSHA', REDIS_RATE_LIMIT_SCRIPT_SHA1, ...args(sent.length)]);
      } catch (error) {
        if (!isNoScriptError(error)) throw error;
        sent = batch.filter((w) => !w.done);
        if (sent.length === 0) return;
        reply = await send(['EVAL', REDIS_RATE_LIMIT_SCRIPT, ...args(sent.length)]);
      }
      const decisions = readBatchReply(reply, sent.length, lane.limit);
      sent.forEach((waiter, i) => settle(waiter, decisions[i] as RateLimitDecision));
    } catch (cause) {
      for (const waiter of batch) fault(waiter, lane, cause, fail);
    }
  }

  /** Send what waits on `lane` as one batch; when its call ends (or its time is up), the next batch goes. */
  function flush(lane: Lane): void {
    const open = lane.waiting.filter((w) => !w.done);
    const batch = open.length > maxBatch ? open.slice(0, maxBatch) : open;
    lane.waiting = open.length > maxBatch ? open.slice(maxBatch) : [];
    if (batch.length === 0) {
      if (lane.busy === 0) lanes.delete(lane.id);
      return;
    }
    lane.busy++;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      clearTimeout(guard);
      lane.busy--;
      flush(lane);
    };
    // A call that never ends must not hold the requests behind it: after the timeout, the lane moves on.
    const guard = setTimeout(release, timeoutMs);
    void runScript(lane, batch).finally(release);
  }

  return (key, limit, windowSeconds) =>
    new Promise<RateLimitDecision>((resolve, reject) => {
      const id = `${limit}/${windowSeconds}/${key}`;
      let lane = lanes.get(id);
      if (lane === undefined) {
        lane = { id, key, limit, windowSeconds, waiting: [], busy: 0 };
        lanes.set(id, lane);
      }
      const waiter: Waiter = { resolve, reject, timer: undefined, done: false };
      const current = lane;
      waiter.timer = setTimeout(() => fault(waiter, current, new RedisAnswerError(`Redis did not answer within ${timeoutMs} ms`), fail), timeoutMs);
      lane.waiting.push(waiter);
      if (lane.busy < maxInFlight) flush(lane);
    });
}
