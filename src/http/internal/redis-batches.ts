/**
 * The request side of the Redis rate limiter: the requests of one counter go to Redis together, as one call of
 * the script for all of them (a batch): those that arrive in the same turn of the event loop, and those that
 * arrive while the counter's call is in flight, which wait for it. Under load one call decides many requests,
 * which costs Redis and the host one command instead of many; a lone request waits only for the end of the
 * turn it arrived in. Each request keeps its own deadline.
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
   * The benchmark sets it to `Infinity`, with `maxBatch` 1 and `gather` false, to measure the limiter without
   * batches.
   */
  readonly maxInFlight?: number | undefined;
  /** Most requests in one call (default: no bound; the script's cost does not grow with it). */
  readonly maxBatch?: number | undefined;
  /** Gather the requests of one turn of the event loop before sending (default true); false sends at once. */
  readonly gather?: boolean | undefined;
}

/**
 * Run `task` at the end of the current turn of the event loop, after the I/O callbacks of this turn
 * (`setImmediate`, where the runtime has it: Node, Bun, Deno), or after the current task's promise callbacks
 * elsewhere.
 */
const atEndOfTurn: (task: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === 'function'
    ? (task) => {
        (globalThis as unknown as { setImmediate: (task: () => void) => unknown }).setImmediate(task);
      }
    : (task) => queueMicrotask(task);

/** The longest delay a timer takes (a longer one fires at once in Node): a longer `timeoutMs` waits in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One request waiting for its decision. */
interface Waiter {
  readonly resolve: (decision: RateLimitDecision) => void;
  readonly reject: (error: unknown) => void;
  readonly lane: Lane;
  /** When its time is up (`performance.now()`, milliseconds). */
  readonly deadline: number;
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
  /** A send is due at the end of this turn. */
  gathering: boolean;
}

/** Answer a request, unless it is settled already. */
function settle(waiter: Waiter, decision: RateLimitDecision): void {
  if (waiter.done) return;
  waiter.done = true;
  waiter.resolve(decision);
}

/** Fail a request, unless it is settled already: with the failed-open decision or the error `fail` throws. */
function fault(waiter: Waiter, lane: Lane, cause: unknown, fail: RedisBatchSettings['fail']): void {
  if (waiter.done) return;
  waiter.done = true;
  try {
    waiter.resolve(fail(cause, lane.limit, lane.windowSeconds));
  } catch (error) {
    waiter.reject(error);
  }
}

/** The deadlines of the requests waiting for a decision. */
interface Deadlines {
  /** Watch a new request's deadline. */
  add(waiter: Waiter): void;
  /** Forget the settled requests at the front, and stop the timer once none waits. */
  trim(): void;
}

/**
 * The deadlines of the waiting requests, in the order the requests arrived, which is the order their deadlines
 * fall (one timeout for all, on a monotonic clock): one timer, for the earliest, instead of one per request.
 * A settled request leaves as soon as those before it have settled too, so it is not kept alive.
 */
function createDeadlines(expire: (waiter: Waiter) => void, timeoutMs: number): Deadlines {
  let queue: Waiter[] = [];
  let head = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number): void => {
    clearTimeout(timer);
    timer = setTimeout(sweep, Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(ms))));
  };
  function trim(): void {
    while (head < queue.length && (queue[head] as Waiter).done) head++;
    if (head === queue.length) {
      queue = [];
      head = 0;
      clearTimeout(timer);
      timer = undefined;
    } else if (head >= 1024 && head * 2 >= queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  }
  function sweep(): void {
    timer = undefined;
    const now = performance.now();
    for (let w = queue[head]; w !== undefined && (w.done || w.deadline <= now); w = queue[++head]) expire(w);
    trim();
    if (head < queue.length) arm((queue[head] as Waiter).deadline - now);
  }
  return {
    add(waiter) {
      queue.push(waiter);
      if (timer === undefined) arm(timeoutMs);
    },
    trim,
  };
}

/**
 * Run the script for `batch`: by `EVALSHA`, and when Redis lost it (`NOSCRIPT`: after `SCRIPT FLUSH`, a
 * restart or a failover) by `EVAL` with the whole script, for the requests not yet timed out only (a late
 * call would be counted and its answer thrown away).
 */
async function runScript(settings: RedisBatchSettings, lane: Lane, batch: readonly Waiter[]): Promise<void> {
  const { send, fail } = settings;
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

/**
 * Create the batching request side of a Redis limiter.
 * @returns `consume(redisKey, limit, windowSeconds)`, resolving with the request's decision or rejecting
 *   with what `settings.fail` throws
 */
export function createRedisBatches(settings: RedisBatchSettings): (key: string, limit: number, windowSeconds: number) => Promise<RateLimitDecision> {
  const { timeoutMs, fail } = settings;
  const maxInFlight = settings.maxInFlight ?? 1;
  const maxBatch = settings.maxBatch ?? Number.POSITIVE_INFINITY;
  const gatherTurns = settings.gather ?? true;
  const lanes = new Map<string, Lane>();
  /** The lane each Redis key had last: found without building the lane's id (a host uses one limit per key). */
  const lastLane = new Map<string, Lane>();
  const deadlines = createDeadlines((w) => fault(w, w.lane, new RedisAnswerError(`Redis did not answer within ${timeoutMs} ms`), fail), timeoutMs);

  /** Send what waits on `lane`, in batches, while it may have another call in flight; forget an idle lane. */
  function pump(lane: Lane): void {
    lane.waiting = lane.waiting.filter((w) => !w.done);
    while (lane.busy < maxInFlight && lane.waiting.length > 0) {
      const batch = lane.waiting.length > maxBatch ? lane.waiting.slice(0, maxBatch) : lane.waiting;
      lane.waiting = lane.waiting.length > maxBatch ? lane.waiting.slice(maxBatch) : [];
      dispatch(lane, batch);
    }
    if (lane.busy === 0 && lane.waiting.length === 0 && !lane.gathering) {
      lanes.delete(lane.id);
      if (lastLane.get(lane.key) === lane) lastLane.delete(lane.key);
    }
  }

  /** Send one batch; when its call ends (or its time is up), what waited meanwhile goes. */
  function dispatch(lane: Lane, batch: readonly Waiter[]): void {
    lane.busy++;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      clearTimeout(guard);
      lane.busy--;
      deadlines.trim();
      pump(lane);
    };
    // A call that never ends must not hold the requests behind it: after the timeout, the lane moves on.
    const guard = setTimeout(release, Math.min(MAX_TIMER_MS, timeoutMs));
    void runScript(settings, lane, batch).finally(release);
  }

  /** The lane has a new request: send at the end of this turn, with the others of the turn. */
  function gather(lane: Lane): void {
    if (!gatherTurns) return pump(lane);
    if (lane.gathering) return;
    lane.gathering = true;
    atEndOfTurn(() => {
      lane.gathering = false;
      pump(lane);
    });
  }

  return (key, limit, windowSeconds) =>
    new Promise<RateLimitDecision>((resolve, reject) => {
      let lane = lastLane.get(key);
      if (lane === undefined || lane.limit !== limit || lane.windowSeconds !== windowSeconds) {
        const id = `${limit}/${windowSeconds}/${key}`;
        lane = lanes.get(id);
        if (lane === undefined) {
          lane = { id, key, limit, windowSeconds, waiting: [], busy: 0, gathering: false };
          lanes.set(id, lane);
        }
        lastLane.set(key, lane);
      }
      const waiter: Waiter = { resolve, reject, lane, deadline: performance.now() + timeoutMs, done: false };
      deadlines.add(waiter);
      lane.waiting.push(waiter);
      if (lane.busy < maxInFlight) gather(lane);
    });
}
