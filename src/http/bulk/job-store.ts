/**
 * Where Bulk export jobs live between requests: the {@link BulkJobStore} interface, its in-memory default and a
 * Redis one (several instances poll, fetch and cancel the same jobs). A job record holds no patient data: ids
 * of the job and of its owner key, the request's parameters, counts and file names.
 */
import { InvalidArgumentError } from '../../index.js';
import { toRedisKey } from '../internal/redis-script.js';
import type { RedisCommandClient } from '../redis-rate-limiter.js';

/** A failure of a job, as its status request answers it. */
export interface BulkJobFailure {
  /** 500 (internal error) or 503 (the data source was unavailable; starting again may work). */
  readonly status: 500 | 503;
  /** A fixed sentence, never an internal message. */
  readonly detail: string;
}

/** One output file of a job: its resource type, its name under the job, and its exact number of lines. */
export interface BulkJobFile {
  /** The resource type of its lines (`OperationOutcome` for an error file). */
  readonly type: string;
  /** The file name under the job, e.g. `Patient-1.ndjson`. */
  readonly name: string;
  /** Its exact number of lines. */
  readonly count: number;
}

/** The state of one export job, as JSON in the job store. */
export interface BulkJobRecord {
  /** The job id (a random UUID): the last segment of the status URL. */
  readonly id: string;
  /** The `keyId` of the API key that started it: only that key sees the job. */
  readonly owner: string;
  /** `running`, `done` or `failed`. */
  readonly state: 'running' | 'done' | 'failed';
  /** The kick-off URL as the client sent it (the manifest's `request`). */
  readonly request: string;
  /** `_type` (resource types), or null for every type. */
  readonly types: readonly string[] | null;
  /** `_since`, or null. */
  readonly since: string | null;
  /** `system` (`{base}/$export`: also the directory records no chart refers to) or `patient`. */
  readonly level: 'system' | 'patient';
  /** When the export started reading data (the manifest's `transactionTime`), an ISO instant. */
  readonly transactionTime: string;
  /** Patients exported so far. */
  readonly patients: number;
  /** The files written so far (all of them once done), resource files and error files (`OperationOutcome`). */
  readonly files: readonly BulkJobFile[];
  /** Unix epoch milliseconds of the last sign of life of the instance running it. */
  readonly heartbeatAt: number;
  /** Unix epoch milliseconds after which the job and its files are gone. */
  readonly expiresAt: number;
  /** Set when `state` is `failed`. */
  readonly failure?: BulkJobFailure | undefined;
}

/**
 * Where a handler keeps its Bulk export jobs. Every method may be backed by a shared store (Redis, a database),
 * so that a job started on one instance is polled, fetched and cancelled on any other.
 */
export interface BulkJobStore {
  /**
   * Store a new running job unless its owner already has `maxRunning` running jobs.
   * @returns false when the owner is at the cap (nothing stored)
   */
  create(job: BulkJobRecord, maxRunning: number): Promise<boolean>;
  /** The job, or `undefined` when it does not exist (never created, cancelled or expired). */
  get(id: string): Promise<BulkJobRecord | undefined>;
  /**
   * Replace a job that exists (progress, completion, failure, next poll time).
   * @returns false when the job no longer exists (cancelled): nothing stored
   */
  update(job: BulkJobRecord): Promise<boolean>;
  /** Delete a job (cancel); true when it existed. */
  delete(id: string): Promise<boolean>;
}

/**
 * Check what a store method is given (a host may call the store itself): a clear error, never a TypeError.
 * @throws {InvalidArgumentError}
 */
export function checkJobRecord(value: unknown): BulkJobRecord {
  if (typeof value !== 'object' || value === null) throw new InvalidArgumentError('job', 'must be a job record');
  const job = value as Record<string, unknown>;
  for (const key of ['id', 'owner', 'state'] as const) if (typeof job[key] !== 'string') throw new InvalidArgumentError(`job.${key}`, 'must be a string');
  for (const key of ['heartbeatAt', 'expiresAt'] as const) if (typeof job[key] !== 'number' || !Number.isFinite(job[key])) throw new InvalidArgumentError(`job.${key}`, 'must be a number');
  return value as BulkJobRecord;
}

/** @throws {InvalidArgumentError} when `value` is not a non-negative number (the cap on running jobs) */
export function checkMaxRunning(value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0)) throw new InvalidArgumentError('maxRunning', 'must be a non-negative number');
  return value;
}

/** @throws {InvalidArgumentError} when `value` is not a string */
export function checkString(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new InvalidArgumentError(name, 'must be a string');
  return value;
}

/** The options of an in-memory store: `now` a function, `staleMs` a positive integer. */
function checkStoreOptions(options: unknown): { now: () => number; staleMs: number } {
  if (options === undefined) return { now: Date.now, staleMs: 60_000 };
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const { now, staleMs } = options as { now?: unknown; staleMs?: unknown };
  if (now !== undefined && typeof now !== 'function') throw new InvalidArgumentError('options.now', 'must be a function');
  if (staleMs !== undefined && (typeof staleMs !== 'number' || !Number.isSafeInteger(staleMs) || staleMs < 1)) throw new InvalidArgumentError('options.staleMs', 'must be a positive integer');
  return { now: (now as (() => number) | undefined) ?? Date.now, staleMs: staleMs ?? 60_000 };
}

/** A record is running and alive: counted against its owner's cap. */
function countsAsRunning(job: BulkJobRecord, now: number, staleMs: number): boolean {
  return job.state === 'running' && now - job.heartbeatAt <= staleMs && job.expiresAt > now;
}

/**
 * Create the in-memory job store, the default: jobs live in this process only (one instance). Expired jobs
 * are dropped when the store is next used.
 * @param options - `now` (the clock, Unix epoch milliseconds; default `Date.now`) and `staleMs` (a running job
 *   without a heartbeat for that long no longer counts against the cap; default 60 000)
 * @returns the store; its methods reject with {@link InvalidArgumentError} for arguments of the wrong type
 * @throws {InvalidArgumentError} for options of the wrong type
 * @example createExportHandler({ dataSource, keyStore, bulk: { jobStore: createInMemoryBulkJobStore() } })
 */
export function createInMemoryBulkJobStore(options?: { now?: () => number; staleMs?: number }): BulkJobStore {
  const { now, staleMs } = checkStoreOptions(options);
  const jobs = new Map<string, BulkJobRecord>();
  const sweep = (): void => {
    const t = now();
    for (const [id, job] of jobs) if (job.expiresAt <= t) jobs.delete(id);
  };
  return {
    async create(given, maxRunning) {
      const job = checkJobRecord(given);
      checkMaxRunning(maxRunning);
      sweep();
      const t = now();
      let running = 0;
      for (const other of jobs.values()) if (other.owner === job.owner && countsAsRunning(other, t, staleMs)) running++;
      if (running >= maxRunning) return false;
      jobs.set(job.id, job);
      return true;
    },
    async get(id) {
      sweep();
      return jobs.get(checkString('id', id));
    },
    async update(given) {
      const job = checkJobRecord(given);
      if (!jobs.has(job.id)) return false;
      jobs.set(job.id, job);
      return true;
    },
    async delete(id) {
      return jobs.delete(checkString('id', id));
    },
  };
}

/** A `[command, ...args]` sender over either Redis client shape. */
export function redisSender(client: RedisCommandClient, name = 'options.client'): (args: string[]) => Promise<unknown> {
  const call: unknown = (client as { call?: unknown } | null)?.call;
  const sendCommand: unknown = (client as { sendCommand?: unknown } | null)?.sendCommand;
  if (typeof call === 'function') return (args) => call.apply(client, args) as Promise<unknown>;
  if (typeof sendCommand === 'function') return (args) => sendCommand.call(client, args) as Promise<unknown>;
  throw new InvalidArgumentError(name, 'must have a call (ioredis) or sendCommand (node-redis) method');
}

/** Options of {@link createRedisBulkJobStore}. */
export interface RedisBulkJobStoreOptions {
  /** The host's connected Redis client, the same shape the Redis rate limiter takes. */
  readonly client: RedisCommandClient;
  /** Prefix of every key; default `'chart-export:bulk:'`. */
  readonly prefix?: string | undefined;
  /** The clock, Unix epoch milliseconds; default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** A running job without a heartbeat for this long no longer counts against its owner's cap; default 60 000. */
  readonly staleMs?: number | undefined;
}

/** The job as JSON text. @throws {InvalidArgumentError} for a record JSON cannot hold (a BigInt, a cycle) */
function jobText(job: BulkJobRecord): string {
  try {
    return JSON.stringify(job);
  } catch (error) {
    throw new InvalidArgumentError('job', 'must be a JSON value', { cause: error });
  }
}

function parseJob(reply: unknown): BulkJobRecord | undefined {
  if (typeof reply !== 'string' && !(reply instanceof Uint8Array)) return undefined;
  const text = typeof reply === 'string' ? reply : new TextDecoder().decode(reply);
  try {
    const job = JSON.parse(text) as BulkJobRecord;
    return typeof job === 'object' && job !== null && typeof job.id === 'string' ? job : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Create a job store on Redis, so that every instance of a host sees the same jobs: each job is one string key
 * (JSON, expiring with the job), and each owner key's running jobs a set (for the per-key cap). The cap is
 * checked, then claimed: two kick-offs of one key at the same moment on two instances may both pass it.
 * @param options - {@link RedisBulkJobStoreOptions}
 * @returns the store
 * @throws {InvalidArgumentError} for a client without `call` or `sendCommand`, or a prefix that is not a string
 * @example bulk: { jobStore: createRedisBulkJobStore({ client: redis }), outputStore: createRedisBulkOutputStore({ client: redis }) }
 */
export function createRedisBulkJobStore(options: RedisBulkJobStoreOptions): BulkJobStore {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const send = redisSender(options.client);
  const prefix = options.prefix ?? 'chart-export:bulk:';
  if (typeof prefix !== 'string') throw new InvalidArgumentError('options.prefix', 'must be a string');
  const now = options.now ?? Date.now;
  const staleMs = options.staleMs ?? 60_000;
  const jobKey = (id: string): string => toRedisKey(`${prefix}job:`, id);
  const runningKey = (owner: string): string => toRedisKey(`${prefix}running:`, owner);
  const ttl = (job: BulkJobRecord): string => String(Math.max(1, job.expiresAt - now()));

  async function get(id: string): Promise<BulkJobRecord | undefined> {
    return parseJob(await send(['GET', jobKey(checkString('id', id))]));
  }
  return {
    async create(given, maxRunning) {
      const job = checkJobRecord(given);
      checkMaxRunning(maxRunning);
      const set = runningKey(job.owner);
      const members = await send(['SMEMBERS', set]);
      let running = 0;
      const t = now();
      for (const member of Array.isArray(members) ? members : []) {
        const id = typeof member === 'string' ? member : String(member);
        const other = await get(id);
        if (other !== undefined && countsAsRunning(other, t, staleMs)) running++;
        else await send(['SREM', set, id]);
      }
      if (running >= maxRunning) return false;
      await send(['SET', jobKey(job.id), jobText(job), 'PX', ttl(job)]);
      await send(['SADD', set, job.id]);
      await send(['PEXPIRE', set, String(Math.max(1, job.expiresAt - t))]);
      return true;
    },
    get,
    async update(given) {
      const job = checkJobRecord(given);
      // XX: only a job that still exists; a cancelled one stays gone.
      const reply = await send(['SET', jobKey(job.id), jobText(job), 'PX', ttl(job), 'XX']);
      if (reply === null || reply === undefined) return false;
      if (job.state !== 'running') await send(['SREM', runningKey(job.owner), job.id]);
      return true;
    },
    async delete(id) {
      checkString('id', id);
      const job = await get(id);
      const removed = await send(['DEL', jobKey(id)]);
      if (job !== undefined) await send(['SREM', runningKey(job.owner), id]);
      return removed === 1 || removed === '1';
    },
  };
}
