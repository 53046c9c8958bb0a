/// <reference types="node" />
/**
 * The command's shared rate limits: a node-redis client for `--redis-url`, loaded only when the option is
 * given (the `redis` package is an optional peer dependency of chart-export), and the Redis limiter over it.
 * The URL's password is never printed: the banner shows it masked, and Redis' own messages carry none.
 */
import { createRedisRateLimiter, type RedisRateLimiter, type RedisSendCommandClient } from '../http/index.js';
import { CliError } from './load.js';
import type { RequestLog } from './request-log.js';

/** The parts of a node-redis client (v4 and later) the command uses. */
interface NodeRedisClient extends RedisSendCommandClient {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  connect(): Promise<unknown>;
  destroy?(): void;
  disconnect?(): Promise<void>;
}

/** The node-redis module, as far as the command needs it. */
interface NodeRedisModule {
  createClient(options: { url: string; disableOfflineQueue: boolean; socket?: { connectTimeout?: number } }): NodeRedisClient;
}

/** Rate limits shared on Redis, as {@link connectSharedLimits} returns them. */
export interface SharedLimits {
  /** The limiter for the handler. */
  readonly rateLimiter: RedisRateLimiter;
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

async function importNodeRedis(): Promise<NodeRedisModule> {
  try {
    // A variable specifier keeps bundlers from resolving the optional peer at build time.
    const name = 'redis';
    return (await import(name)) as NodeRedisModule;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new CliError(['chart-export: --redis-url needs the node-redis client, which is not installed: run  npm install redis']);
    }
    throw new CliError([`chart-export: cannot load the redis package: ${error instanceof Error ? error.message : 'load failed'}`]);
  }
}

/** What an error says, without a stack and without anything but its code and message. */
function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : 'unknown error';
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
 * @throws {CliError} when the redis package is not installed
 * @example const shared = await connectSharedLimits('redis://127.0.0.1:6379', undefined, log);
 */
export async function connectSharedLimits(url: string, prefix: string | undefined, log: RequestLog): Promise<SharedLimits> {
  const redis = await importNodeRedis();
  const displayUrl = maskRedisUrl(url);
  // As docs/redis-rate-limits.md recommends: a command fails at once while disconnected instead of waiting in
  // a queue, and an 'error' listener (without one node-redis throws); the default reconnection strategy stays.
  const client = redis.createClient({ url, disableOfflineQueue: true, socket: { connectTimeout: 2000 } });
  let up = false;
  let reported = false;
  client.on('error', (error) => {
    if (up || !reported) log.event('warn', `warning: Redis at ${displayUrl} is unavailable: ${describe(error)}; export routes answer 503 until it is back`);
    up = false;
    reported = true;
  });
  client.on('ready', () => {
    log.event('info', `Redis at ${displayUrl} is ${reported ? 'back' : 'connected'}: rate limits are shared`);
    up = true;
    reported = false;
  });
  // Not awaited: connect() retries until Redis answers, and the service serves (503s) meanwhile.
  client.connect().catch((error: unknown) => log.event('error', `error: Redis at ${displayUrl}: gave up connecting: ${describe(error)}`));
  const options: Parameters<typeof createRedisRateLimiter>[0] = { client, ...(prefix === undefined ? {} : { prefix }) };
  return {
    rateLimiter: createRedisRateLimiter(options),
    displayUrl,
    close() {
      try {
        if (typeof client.destroy === 'function') client.destroy();
        else void client.disconnect?.().catch(() => undefined);
      } catch {
        // Already closed.
      }
    },
  };
}
