/**
 * Command-line options and environment variables of the `chart-export` service command, and its `--help`.
 * A command-line option wins over its environment variable; an empty environment variable counts as unset.
 */
import { parseArgs } from 'node:util';
import { parseUrl, readDatabaseOptions, type DatabaseCliOptions } from './database-options.js';

export { HELP_TEXT } from './help.js';

/** What the command was asked to do. */
export interface CliOptions extends DatabaseCliOptions {
  /** Print the help and exit. */
  readonly help: boolean;
  /** Print the version and exit. */
  readonly version: boolean;
  /** Chart document to serve; undefined = the embedded demo chart. */
  readonly dataFile: string | undefined;
  /** Key file; undefined = demo keys (with the demo chart) or a generated session key (with `--data`). */
  readonly keysFile: string | undefined;
  /** Interface to listen on. */
  readonly host: string;
  /** Port; 0 = any free port. */
  readonly port: number;
  /** Prefix of every route, e.g. `/chart-export`; `''` for none. */
  readonly basePath: string;
  /** Absolute base of FHIR `fullUrl`s, when set. */
  readonly fhirBaseUrl: string | undefined;
  /** Omit `Bundle.total` on `collection` Bundles (R4 invariant bdl-1). */
  readonly strictBundleTotal: boolean;
  /** HL7 MSH-3. */
  readonly sendingApplication: string;
  /** HL7 MSH-4. */
  readonly sendingFacility: string | undefined;
  /** HL7 MSH-11. */
  readonly processingId: 'P' | 'T' | 'D' | undefined;
  /** Seconds to wait for in-flight requests on SIGINT/SIGTERM before closing connections. */
  readonly shutdownTimeoutSeconds: number;
  /**
   * Log one line per request (time, method, route, status, duration, partner, request id) to stderr:
   * `text` (one readable line), `json` (one JSON object per line), or `undefined` for no request log.
   */
  readonly log: 'text' | 'json' | undefined;
  /** Redis URL (`redis://` or `rediss://`) of the shared rate limits; undefined = limits counted in this process. */
  readonly redisUrl: string | undefined;
  /** Prefix of the rate-limit keys on Redis; undefined = the limiter's default. */
  readonly redisPrefix: string | undefined;
  /** Serve Prometheus metrics at `/metrics`. */
  readonly metrics: boolean;
  /** Per-address limit of `/publicFhirDirectory`; undefined = none. */
  readonly directoryRateLimit: { readonly limit: number; readonly windowSeconds: number } | undefined;
  /** Server timeouts and connection cap. */
  readonly server: ServerLimits;
}

/** Timeouts and the connection cap of the command's `node:http` server. */
export interface ServerLimits {
  /** Longest wait for a request's complete headers, in milliseconds. */
  readonly headersTimeoutMs: number;
  /** Longest wait for a complete request (headers and body), in milliseconds. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open, in milliseconds. */
  readonly keepAliveTimeoutMs: number;
  /** Most connections open at once; further ones are closed at once. */
  readonly maxConnections: number;
}

/**
 * A wrong option or environment variable; the command prints the message and exits with status 2.
 * @example throw new UsageError('--port / PORT must be an integer from 0 to 65535');
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Default port when neither `--port` nor `PORT` is given. */
export const DEFAULT_PORT = 8080;
/** Default interface: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
/** Default HL7 MSH-3 of the service: partners route messages by it. */
export const DEFAULT_SENDING_APPLICATION = 'CHART-EXPORT';
/** Default grace period of a shutdown, in seconds. */
export const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 10;
/** Default server limits: a client that has not sent its headers within 10 s is dropped. */
export const DEFAULT_SERVER_LIMITS: ServerLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
});

// eslint-disable-next-line no-control-regex -- finds the control characters an option value may not hold
const CONTROL_RE = /[\u0000-\u001F\u007F]/;
/** MSH-3 / MSH-4 carry the value in HD-1: IS, at most 20 characters (after HL7 escaping, which the handler checks). */
const HD1_MAX = 20;
const BASE_PATH_RE = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

/** An environment: the variables the command reads. */
export type CliEnvironment = Readonly<Record<string, string | undefined>>;

function fromEnv(env: CliEnvironment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** A boolean variable: set and not `0` or `false`. */
function flag(value: string | undefined): boolean {
  return value !== undefined && value !== '0' && value.toLowerCase() !== 'false';
}

function text(value: string | undefined, what: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > max || CONTROL_RE.test(value)) {
    throw new UsageError(`${what} must be 1–${max} characters without control characters`);
  }
  return value;
}

/**
 * `--log` takes an optional format: `--log`, `--log text`, `--log json` and `--log=json` are all read;
 * `parseArgs` knows no optional values, so a bare `--log` becomes `--log=text`.
 */
function normalizeLogArgument(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg !== '--log') {
      out.push(arg);
    } else if (argv[i + 1] === 'json' || argv[i + 1] === 'text') {
      out.push(`--log=${argv[i + 1] as string}`);
      i++;
    } else {
      out.push('--log=text');
    }
  }
  return out;
}

function readLog(given: string | undefined, env: string | undefined): CliOptions['log'] {
  if (given !== undefined) {
    if (given !== 'text' && given !== 'json') throw new UsageError('--log takes text or json');
    return given;
  }
  if (env === undefined || env === '0' || env.toLowerCase() === 'false') return undefined;
  if (env === 'json') return 'json';
  if (env === 'text' || env === '1' || env.toLowerCase() === 'true') return 'text';
  throw new UsageError('CHART_EXPORT_LOG must be text, json, 1 (text) or 0');
}

/** The option and variable a Redis URL comes from, as every message about it names them. */
const REDIS_URL_OPTION = '--redis-url / CHART_EXPORT_REDIS_URL';
/** The highest database number accepted in a Redis URL's path (Redis' `databases` setting is a 32-bit int). */
const MAX_REDIS_DATABASE = 2 ** 31 - 1;
/** Written in every message about a URL that fails to parse: the usual cause is a password not percent-encoded. */
const REDIS_URL_ESCAPE_HINT = 'percent-encode @ : / ? # % in the user name or password (# is %23)';

/** True when `part` (a user name or password as the URL holds it) decodes as ioredis decodes it (`decodeURIComponent`). */
function isDecodable(part: string): boolean {
  try {
    decodeURIComponent(part);
    return true;
  } catch {
    return false;
  }
}

/** The scheme as ioredis reads it: TLS is on only for a URL that starts with `rediss://` exactly, in lower case. */
const REDIS_SCHEME_RE = /^rediss?:\/\//;

/**
 * `--redis-url`: `redis://` or `rediss://` (in lower case), a host, an optional port, and an optional database
 * number as the whole path (`/2`), which is how ioredis reads it (`parseURL`). Only URLs that ioredis uses as
 * written are taken. Refused are those it would read otherwise: a scheme not in lower case (`REDISS://` would
 * connect without TLS), a control character or a trailing space (the URL parser drops a tab or a line break
 * wherever it is, and trims the ends), a query string (ioredis takes it as client options, `?password=…`
 * included), a fragment (ignored), a path that is not a database number (`/1a` would select database 1),
 * port 0, and a user name or password whose percent-escapes `decodeURIComponent` cannot decode (ioredis would
 * throw at start). The URL may hold a password: no message repeats any part of it.
 */
function readRedisUrl(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  const url = parseUrl(given);
  if (url === undefined || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new UsageError(`${REDIS_URL_OPTION} must be a redis:// or rediss:// URL with a host (${REDIS_URL_ESCAPE_HINT})`);
  }
  if (!REDIS_SCHEME_RE.test(given)) {
    throw new UsageError(`${REDIS_URL_OPTION} must start with redis:// or rediss:// in lower case (ioredis turns TLS on only for rediss:// so written)`);
  }
  if (CONTROL_RE.test(given) || given.endsWith(' ')) {
    throw new UsageError(`${REDIS_URL_OPTION} must hold no control characters and end without a space: percent-encode them in the user name or password (a tab is %09)`);
  }
  if (url.port === '0') throw new UsageError(`${REDIS_URL_OPTION} must not give port 0: give the port Redis listens on, or none for 6379`);
  // `given.includes`: `new URL` drops an empty query or fragment (`redis://h?`), which still shows a mistake.
  if (url.search !== '' || given.includes('?')) {
    throw new UsageError(`${REDIS_URL_OPTION} takes no query string (ioredis would read it as client options): give the database as the path, e.g. redis://host:6379/2, and ${REDIS_URL_ESCAPE_HINT}`);
  }
  if (url.hash !== '' || given.includes('#')) {
    throw new UsageError(`${REDIS_URL_OPTION} takes no fragment (ioredis ignores it): ${REDIS_URL_ESCAPE_HINT}`);
  }
  const database = url.pathname === '' || url.pathname === '/' ? undefined : /^\/(\d{1,10})$/.exec(url.pathname)?.[1];
  if (url.pathname !== '' && url.pathname !== '/' && (database === undefined || Number(database) > MAX_REDIS_DATABASE)) {
    throw new UsageError(`${REDIS_URL_OPTION} may have as its path only a database number from 0 to ${MAX_REDIS_DATABASE}, e.g. redis://host:6379/2`);
  }
  if (!isDecodable(url.username) || !isDecodable(url.password)) {
    throw new UsageError(`${REDIS_URL_OPTION} has a user name or password with a malformed percent-escape: write % as %25`);
  }
  return given;
}

function readDirectoryRateLimit(value: string | undefined): CliOptions['directoryRateLimit'] {
  if (value === undefined) return undefined;
  const m = /^(\d{1,9})\/(\d{1,7})$/.exec(value);
  if (m === null || Number(m[1]) < 1 || Number(m[2]) < 1) {
    throw new UsageError('--directory-rate-limit / CHART_EXPORT_DIRECTORY_RATE_LIMIT must be LIMIT/SECONDS, e.g. 120/60');
  }
  return { limit: Number(m[1]), windowSeconds: Number(m[2]) };
}

function readMilliseconds(value: string | undefined, what: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) * 1000 < min || Number(value) > 3600) {
    throw new UsageError(`${what} must be a number of seconds from ${min / 1000} to 3600`);
  }
  return Math.round(Number(value) * 1000);
}

function readServerLimits(str: (name: string) => string | undefined, env: CliEnvironment): ServerLimits {
  const d = DEFAULT_SERVER_LIMITS;
  const pick = (name: string, variable: string): string | undefined => str(name) ?? fromEnv(env, variable);
  const headersTimeoutMs = readMilliseconds(pick('headers-timeout', 'CHART_EXPORT_HEADERS_TIMEOUT'), '--headers-timeout / CHART_EXPORT_HEADERS_TIMEOUT', d.headersTimeoutMs, 1000);
  const requestTimeoutMs = readMilliseconds(pick('request-timeout', 'CHART_EXPORT_REQUEST_TIMEOUT'), '--request-timeout / CHART_EXPORT_REQUEST_TIMEOUT', d.requestTimeoutMs, 1000);
  const keepAliveTimeoutMs = readMilliseconds(pick('keep-alive-timeout', 'CHART_EXPORT_KEEP_ALIVE_TIMEOUT'), '--keep-alive-timeout / CHART_EXPORT_KEEP_ALIVE_TIMEOUT', d.keepAliveTimeoutMs, 0);
  if (headersTimeoutMs > requestTimeoutMs) throw new UsageError('--headers-timeout must not be longer than --request-timeout');
  const connections = pick('max-connections', 'CHART_EXPORT_MAX_CONNECTIONS');
  if (connections !== undefined && (!/^\d{1,6}$/.test(connections) || Number(connections) < 1)) {
    throw new UsageError('--max-connections / CHART_EXPORT_MAX_CONNECTIONS must be an integer from 1 to 999999');
  }
  return { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections: connections === undefined ? d.maxConnections : Number(connections) };
}

/** The command line's values by option name (`parseArgs`, strict: unknown options are refused). */
function readArguments(argv: readonly string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({
      args: normalizeLogArgument(argv),
      strict: true,
      allowPositionals: false,
      options: {
        data: { type: 'string' },
        keys: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'base-path': { type: 'string' },
        'fhir-base-url': { type: 'string' },
        'sending-application': { type: 'string' },
        'sending-facility': { type: 'string' },
        'processing-id': { type: 'string' },
        'shutdown-timeout': { type: 'string' },
        'strict-bundle-total': { type: 'boolean' },
        log: { type: 'string' },
        metrics: { type: 'boolean' },
        'redis-url': { type: 'string' },
        'redis-prefix': { type: 'string' },
        'database-url': { type: 'string' },
        'database-schema': { type: 'string' },
        'directory-rate-limit': { type: 'string' },
        'headers-timeout': { type: 'string' },
        'request-timeout': { type: 'string' },
        'keep-alive-timeout': { type: 'string' },
        'max-connections': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }).values;
  } catch (error) {
    // A stray argument is quoted whole by parseArgs, and it may be a secret (a Redis URL given without its
    // option): say what is wrong without it. Its other messages name the option only ("Unknown option '--x'").
    if ((error as { code?: unknown } | null)?.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError('this command takes no positional arguments: give every value after its option (--redis-url URL or --redis-url=URL)');
    }
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0] ?? 'Invalid arguments' : 'Invalid arguments');
  }
}

function readPort(portText: string | undefined): number {
  if (portText === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new UsageError('--port / PORT must be an integer from 0 to 65535');
  return Number(portText);
}

function readBasePath(given: string | undefined): string {
  let basePath = given ?? '';
  if (basePath.endsWith('/')) basePath = basePath.replace(/\/+$/, '');
  if (basePath !== '' && !BASE_PATH_RE.test(basePath)) {
    throw new UsageError('--base-path / CHART_EXPORT_BASE_PATH must be a URL path such as /chart-export');
  }
  return basePath;
}

function readFhirBaseUrl(fhirBaseUrl: string | undefined): string | undefined {
  if (fhirBaseUrl === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(fhirBaseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new UsageError('--fhir-base-url / CHART_EXPORT_FHIR_BASE_URL must be an absolute http(s) URL without query or fragment');
  }
  return fhirBaseUrl.replace(/\/+$/, '');
}

function readProcessingId(processingId: string | undefined): CliOptions['processingId'] {
  if (processingId !== undefined && processingId !== 'P' && processingId !== 'T' && processingId !== 'D') {
    throw new UsageError('--processing-id / CHART_EXPORT_HL7_PROCESSING_ID must be P, T or D');
  }
  return processingId;
}

function readShutdownTimeout(timeoutText: string | undefined): number {
  if (timeoutText === undefined) return DEFAULT_SHUTDOWN_TIMEOUT_SECONDS;
  if (!/^\d+(\.\d+)?$/.test(timeoutText) || Number(timeoutText) > 3600) {
    throw new UsageError('--shutdown-timeout / CHART_EXPORT_SHUTDOWN_TIMEOUT must be a number of seconds from 0 to 3600');
  }
  return Number(timeoutText);
}

/**
 * Read the command line and the environment.
 *
 * @param argv - the arguments after the script (`process.argv.slice(2)`)
 * @param env - the environment (`process.env`)
 * @returns the options, with defaults applied
 * @throws {UsageError} for an unknown option, a missing value, or a value out of range
 * @example parseCliOptions(['--port', '0'], {}).port // 0
 */
export function parseCliOptions(argv: readonly string[], env: CliEnvironment): CliOptions {
  const values = readArguments(argv);
  const str = (name: string): string | undefined => {
    const v = values[name];
    return typeof v === 'string' ? v : undefined;
  };
  // Checked in this order, so the first problem reported is the same whatever else is wrong.
  const port = readPort(str('port') ?? fromEnv(env, 'PORT'));
  const host = text(str('host') ?? fromEnv(env, 'CHART_EXPORT_HOST'), '--host / CHART_EXPORT_HOST', 255) ?? DEFAULT_HOST;
  const basePath = readBasePath(str('base-path') ?? fromEnv(env, 'CHART_EXPORT_BASE_PATH'));
  const fhirBaseUrl = readFhirBaseUrl(str('fhir-base-url') ?? fromEnv(env, 'CHART_EXPORT_FHIR_BASE_URL'));
  const processingId = readProcessingId(str('processing-id') ?? fromEnv(env, 'CHART_EXPORT_HL7_PROCESSING_ID'));
  const shutdownTimeoutSeconds = readShutdownTimeout(str('shutdown-timeout') ?? fromEnv(env, 'CHART_EXPORT_SHUTDOWN_TIMEOUT'));
  const log = readLog(str('log'), fromEnv(env, 'CHART_EXPORT_LOG'));
  const redisUrl = readRedisUrl(str('redis-url') ?? fromEnv(env, 'CHART_EXPORT_REDIS_URL'));
  const redisPrefix = text(str('redis-prefix') ?? fromEnv(env, 'CHART_EXPORT_REDIS_PREFIX'), '--redis-prefix / CHART_EXPORT_REDIS_PREFIX', 200);
  const dataFile = str('data') ?? fromEnv(env, 'CHART_EXPORT_DATA');
  const database = readDatabaseOptions(str('database-url') ?? fromEnv(env, 'CHART_EXPORT_DATABASE_URL'), str('database-schema') ?? fromEnv(env, 'CHART_EXPORT_DATABASE_SCHEMA'), dataFile);
  if (typeof database === 'string') throw new UsageError(database);
  const server = readServerLimits(str, env);
  const metrics = values['metrics'] === true || flag(fromEnv(env, 'CHART_EXPORT_METRICS'));
  const directoryRateLimit = readDirectoryRateLimit(str('directory-rate-limit') ?? fromEnv(env, 'CHART_EXPORT_DIRECTORY_RATE_LIMIT'));
  const strictBundleTotal = values['strict-bundle-total'] === true || flag(fromEnv(env, 'CHART_EXPORT_FHIR_STRICT_BUNDLE_TOTAL'));

  return {
    help: values['help'] === true,
    version: values['version'] === true,
    dataFile,
    keysFile: str('keys') ?? fromEnv(env, 'CHART_EXPORT_KEYS'),
    host,
    port,
    basePath,
    fhirBaseUrl,
    strictBundleTotal,
    sendingApplication:
      text(
        str('sending-application') ?? fromEnv(env, 'CHART_EXPORT_HL7_SENDING_APPLICATION'),
        '--sending-application / CHART_EXPORT_HL7_SENDING_APPLICATION',
        HD1_MAX,
      ) ?? DEFAULT_SENDING_APPLICATION,
    sendingFacility: text(
      str('sending-facility') ?? fromEnv(env, 'CHART_EXPORT_HL7_SENDING_FACILITY'),
      '--sending-facility / CHART_EXPORT_HL7_SENDING_FACILITY',
      HD1_MAX,
    ),
    processingId,
    shutdownTimeoutSeconds,
    log,
    redisUrl,
    redisPrefix,
    ...database,
    metrics,
    directoryRateLimit,
    server,
  };
}
