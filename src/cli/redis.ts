/// <reference types="node" />
/**
 * The command's shared rate limits: an ioredis client for `--redis-url`, loaded only when the option is given
 * (the `ioredis` package is an optional peer dependency of chart-export), and the Redis limiter over it.
 * The URL's password is never printed: the banner shows it masked, and Redis' own messages carry none.
 */
import {
  createRedisBulkJobStore,
  createRedisBulkOutputStore,
  createRedisRateLimiter,
  type BulkExportOptions,
  type RedisCallClient,
  type RedisRateLimiter,
} from '../http/index.js';
import { CliError } from './load.js';
import type { RequestLog } from './request-log.js';

/** The parts of an ioredis client (v5 and later) the command uses. */
interface IoRedisClient extends RedisCallClient {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready' | 'close', listener: () => void): unknown;
  connect(): Promise<unknown>;
  disconnect(): void;
}

/** The options the command gives ioredis. */
interface IoRedisOptions {
  readonly lazyConnect: boolean;
  readonly enableOfflineQueue: boolean;
  readonly maxRetriesPerRequest: number;
  readonly connectTimeout: number;
}

/** ioredis' client class. */
type IoRedisConstructor = new (url: string, options: IoRedisOptions) => IoRedisClient;

/**
 * The ioredis module as `import()` returns it: a CommonJS module, so its `Redis` export is a named export in
 * Node's ESM namespace, and `default` is either the class or the whole `module.exports` (bundlers differ).
 */
interface IoRedisModule {
  readonly Redis?: unknown;
  readonly default?: unknown;
}

/** Rate limits shared on Redis, as {@link connectSharedLimits} returns them. */
export interface SharedLimits {
  /** The limiter for the handler. */
  readonly rateLimiter: RedisRateLimiter;
  /** Bulk Data jobs and files on the same Redis, so every instance polls, fetches and cancels every job. */
  readonly bulk: BulkExportOptions;
  /** The URL with its password masked, for the banner. */
  readonly displayUrl: string;
  /** Close the connection (at shutdown). */
  close(): void;
}

/**
 * The URL with its password replaced by `****`, safe to print.
 * @param url - a redis:// or rediss:// URL
 * @returns the masked URL; `redis://…` when it cannot be parsed
 * @throws never
 * @example maskRedisUrl('redis://:s3cret@cache:6379/0') // 'redis://:****@cache:6379/0'
 */
export function maskRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    // Both parts: a secret is often written where the user name goes (`redis://s3cret@host`).
    if (parsed.username !== '') parsed.username = '****';
    if (parsed.password !== '') parsed.password = '****';
    return parsed.toString();
  } catch {
    return 'redis://…';
  }
}

/** The `Redis` class of a loaded ioredis module, whichever way it was exported; undefined when there is none. */
function findRedisClass(module: IoRedisModule): IoRedisConstructor | undefined {
  const fallback = module.default as { Redis?: unknown; default?: unknown } | undefined;
  for (const candidate of [module.Redis, fallback?.Redis, module.default, fallback?.default]) {
    if (typeof candidate === 'function') return candidate as IoRedisConstructor;
  }
  return undefined;
}

async function importIoRedis(): Promise<IoRedisConstructor> {
  let module: IoRedisModule;
  try {
    // A variable specifier keeps bundlers from resolving the optional peer at build time.
    const name = 'ioredis';
    module = (await import(name)) as IoRedisModule;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new CliError(['chart-export: --redis-url needs the ioredis client, which is not installed: run  npm install ioredis']);
    }
    throw new CliError([`chart-export: cannot load the ioredis package: ${error instanceof Error ? error.message : 'load failed'}`]);
  }
  const Redis = findRedisClass(module);
  if (Redis === undefined) throw new CliError(['chart-export: cannot load the ioredis package: it exports no Redis class (install ioredis 5 or later)']);
  return Redis;
}

/** What an error says, without a stack and without anything but its code and message. */
function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  let message = error instanceof Error ? error.message : 'unknown error';
  // Node's AggregateError (every address of a host name refused) has an empty message: say its first error's.
  const first = (error as { errors?: unknown } | null)?.errors;
  if (message === '' && Array.isArray(first) && first[0] instanceof Error) message = first[0].message;
  if (message === '') message = 'connection failed';
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * Connect to Redis for shared rate limits. The start does not wait for Redis: while it is unreachable the
 * export routes answer 503 with `Retry-After` (fail closed), the client reconnects by itself, and the routes
 * serve again as soon as it has. Each outage is logged once when it starts and once when it ends.
 *
 * @param url - the `--redis-url`
 * @param prefix - the `--redis-prefix`, or undefined for the limiter's default
 * @param log - where the outages are reported
 * @returns the limiter and how to close the connection
 * @throws {CliError} when the ioredis package is not installed
 * @example const shared = await connectSharedLimits('redis://127.0.0.1:6379', undefined, log);
 */
export async function connectSharedLimits(url: string, prefix: string | undefined, log: RequestLog): Promise<SharedLimits> {
  const Redis = await importIoRedis();
  const displayUrl = maskRedisUrl(url);
  // As docs/redis-rate-limits.md recommends: a command fails at once while disconnected instead of waiting in
  // the offline queue, or for more than one reconnection; the default retryStrategy stays, which reconnects
  // forever (at most about 5 s apart). ioredis turns TLS on for a rediss:// URL. lazyConnect: the listeners
  // below are attached before the first connection starts, and its promise is handled here.
  let client: IoRedisClient;
  try {
    client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  } catch {
    // The URL was checked (readRedisUrl); its text is never repeated, as it may hold a password.
    throw new CliError([`chart-export: ioredis cannot use the Redis URL ${displayUrl}`]);
  }
  let up = false;
  let reported = false;
  let closing = false;
  const reportOutage = (error: unknown): void => {
    if (up || !reported) log.event('warn', `warning: Redis at ${displayUrl} is unavailable: ${describe(error)}; export routes answer 503 until it is back`);
    up = false;
    reported = true;
  };
  client.on('error', reportOutage);
  // A connection closed without an error (a server restarting, or one that hangs up during the handshake)
  // emits no 'error': it starts an outage too. After an 'error', ioredis emits 'close' as well: no second line.
  client.on('close', () => {
    if (!closing) reportOutage(new Error('the connection was closed'));
  });
  client.on('ready', () => {
    log.event('info', `Redis at ${displayUrl} is ${reported ? 'back' : 'connected'}: rate limits are shared`);
    up = true;
    reported = false;
  });
  // Not awaited: the start does not wait for Redis. The promise rejects when the first attempt fails, which
  // the 'error' listener has already reported; ioredis keeps reconnecting by itself.
  client.connect().catch(() => undefined);
  const options: Parameters<typeof createRedisRateLimiter>[0] = { client, ...(prefix === undefined ? {} : { prefix }) };
  return {
    rateLimiter: createRedisRateLimiter(options),
    bulk: {
      jobStore: createRedisBulkJobStore({ client, prefix: `${prefix ?? 'chart-export:'}bulk:` }),
      outputStore: createRedisBulkOutputStore({ client, prefix: `${prefix ?? 'chart-export:'}bulk:` }),
    },
    displayUrl,
    close() {
      closing = true;
      try {
        client.disconnect();
      } catch {
        // Already closed.
      }
    },
  };
}
