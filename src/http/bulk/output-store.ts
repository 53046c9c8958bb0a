/**
 * Where the NDJSON files of Bulk export jobs live until they expire: the {@link BulkOutputStore} interface, its
 * in-memory default and a Redis one (any instance serves any job's files). A file is written by appending
 * chunks as the job runs and read back as a stream of chunks.
 */
import { InvalidArgumentError } from '../../index.js';
import { toRedisKey } from '../internal/redis-script.js';
import type { RedisCommandClient } from '../redis-rate-limiter.js';
import { checkString, redisSender } from './job-store.js';

/** Where a handler keeps the files of its Bulk export jobs. */
export interface BulkOutputStore {
  /**
   * Append `text` to the job's file `name` (created by the first append).
   * @param expiresAt - Unix epoch milliseconds after which the file may be dropped
   */
  append(jobId: string, name: string, text: string, expiresAt: number): Promise<void>;
  /** The file's text as chunks, in order; `undefined` when the store no longer holds it. */
  read(jobId: string, name: string): Promise<AsyncIterable<string> | undefined>;
  /** Make the job's files `names` expire at `expiresAt` (Unix epoch milliseconds), with their finished job. */
  expire(jobId: string, names: readonly string[], expiresAt: number): Promise<void>;
  /** Drop the job's files (`names`: every file the job wrote). */
  remove(jobId: string, names: readonly string[]): Promise<void>;
}

/** @throws {InvalidArgumentError} unless a finite number of milliseconds */
function checkExpiry(value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidArgumentError('expiresAt', 'must be Unix epoch milliseconds');
}

/** @throws {InvalidArgumentError} unless an array of strings */
function checkNames(value: unknown): readonly string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new InvalidArgumentError('names', 'must be an array of file names');
  return value as string[];
}

/**
 * Create the in-memory output store, the default: files live in this process's memory until their job expires
 * or is cancelled, so its memory grows with the exports it holds (one instance, modest exports). Give a shared
 * store (Redis, or your own over object storage or a shared directory) for several instances or large exports.
 * @param options - `now` (Unix epoch milliseconds; default `Date.now`), to drop expired files
 * @returns the store; its methods reject with {@link InvalidArgumentError} for arguments of the wrong type
 * @throws {InvalidArgumentError} for options of the wrong type
 * @example bulk: { outputStore: createInMemoryBulkOutputStore() }
 */
export function createInMemoryBulkOutputStore(options?: { now?: () => number }): BulkOutputStore {
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new InvalidArgumentError('options', 'must be an object');
  const given: unknown = options?.now;
  if (given !== undefined && typeof given !== 'function') throw new InvalidArgumentError('options.now', 'must be a function');
  const now = (given as (() => number) | undefined) ?? Date.now;
  const files = new Map<string, { chunks: string[]; expiresAt: number }>();
  const keyOf = (jobId: string, name: string): string => `${checkString('jobId', jobId)}/${checkString('name', name)}`;
  const sweep = (): void => {
    const t = now();
    for (const [key, file] of files) if (file.expiresAt <= t) files.delete(key);
  };
  return {
    async append(jobId, name, text, expiresAt) {
      const key = keyOf(jobId, name);
      checkString('text', text);
      checkExpiry(expiresAt);
      const file = files.get(key);
      if (file === undefined) files.set(key, { chunks: [text], expiresAt });
      else {
        file.chunks.push(text);
        file.expiresAt = expiresAt;
      }
    },
    async read(jobId, name) {
      sweep();
      const file = files.get(keyOf(jobId, name));
      if (file === undefined) return undefined;
      const chunks = file.chunks;
      return (async function* (): AsyncGenerator<string> {
        for (const chunk of chunks) yield chunk;
      })();
    },
    async expire(jobId, names, expiresAt) {
      checkExpiry(expiresAt);
      for (const name of checkNames(names)) {
        const file = files.get(keyOf(jobId, name));
        if (file !== undefined) file.expiresAt = expiresAt;
      }
    },
    async remove(jobId, names) {
      for (const name of checkNames(names)) files.delete(keyOf(jobId, name));
      sweep();
    },
  };
}

/** Options of {@link createRedisBulkOutputStore}. */
export interface RedisBulkOutputStoreOptions {
  /** The host's connected Redis client, the same shape the Redis rate limiter takes. */
  readonly client: RedisCommandClient;
  /** Prefix of every key; default `'chart-export:bulk:'`. */
  readonly prefix?: string | undefined;
}

/**
 * Create an output store on Redis: each file is one list key whose items are the appended chunks (each a run
 * of whole lines, so each is valid UTF-8 on its own), expiring with the job (`PEXPIREAT`), read back one item
 * per `LRANGE`. Redis then holds every file of every live job: size its memory for the exports it keeps (see
 * docs/bulk-export.md), or give a store of your own.
 * @param options - {@link RedisBulkOutputStoreOptions}
 * @returns the store
 * @throws {InvalidArgumentError} for a client without `call` or `sendCommand`, or a malformed option
 * @example bulk: { outputStore: createRedisBulkOutputStore({ client: redis }) }
 */
export function createRedisBulkOutputStore(options: RedisBulkOutputStoreOptions): BulkOutputStore {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const send = redisSender(options.client);
  const prefix = options.prefix ?? 'chart-export:bulk:';
  if (typeof prefix !== 'string') throw new InvalidArgumentError('options.prefix', 'must be a string');
  const keyOf = (jobId: string, name: string): string => toRedisKey(`${prefix}out:`, `${checkString('jobId', jobId)}/${checkString('name', name)}`);
  const asText = (item: unknown): string => (typeof item === 'string' ? item : item instanceof Uint8Array ? new TextDecoder().decode(item) : '');
  return {
    async append(jobId, name, text, expiresAt) {
      const key = keyOf(jobId, name);
      checkExpiry(expiresAt);
      await send(['RPUSH', key, checkString('text', text)]);
      await send(['PEXPIREAT', key, String(expiresAt)]);
    },
    async read(jobId, name) {
      const key = keyOf(jobId, name);
      const length = Number(await send(['LLEN', key]));
      if (!Number.isSafeInteger(length) || length === 0) return undefined;
      return (async function* (): AsyncGenerator<string> {
        for (let i = 0; i < length; i++) {
          const reply = await send(['LRANGE', key, String(i), String(i)]);
          if (!Array.isArray(reply) || reply.length !== 1) throw new Error('Bulk output file changed or expired while it was read');
          yield asText(reply[0]);
        }
      })();
    },
    async expire(jobId, names, expiresAt) {
      checkExpiry(expiresAt);
      for (const name of checkNames(names)) await send(['PEXPIREAT', keyOf(jobId, name), String(expiresAt)]);
    },
    async remove(jobId, names) {
      if (checkNames(names).length === 0) return;
      await send(['DEL', ...names.map((n) => keyOf(jobId, n))]);
    },
  };
}
