/// <reference types="node" />
/**
 * The `chart-export` service command: load a chart document and keys, serve the eleven endpoints with
 * `node:http`, print how to call them, and shut down gracefully on SIGINT/SIGTERM. Node-only code: it is
 * bundled into `dist/cli.js` and never imported by the library.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { version } from '../../package.json';
import {
  createExportHandler,
  createExportMetrics,
  createInMemoryDataSource,
  isDataSourceUnavailable,
  toNodeListener,
  type BulkExportOptions,
  type ChartDataSource,
  type ExportHandlerOptions,
  type KeyStore,
  type RateLimiter,
} from '../http/index.js';
import { clientOrigin } from './banner.js';
import { printKeys, printSamples } from './banner-sections.js';
import { CliError, loadData, loadKeys, type CliIo, type LoadedData, type LoadedKeys } from './load.js';
import { HELP_TEXT, UsageError, parseCliOptions, type CliOptions, type ServerLimits } from './command-line.js';
import { createKeyReloader, createSwappableKeyStore } from './key-reload.js';
import { connectSharedLimits, type SharedLimits } from './redis.js';
import { connectDatabase, type ServedDatabase } from './database.js';
import { runDatabaseCommand } from './database-commands.js';
import { createRequestLog, type RequestLog } from './request-log.js';
import { runSend } from './send.js';
import { handleSignals } from './signals.js';

export { formatObservation } from './request-log.js';

/** What the handler is built from, besides the options. */
interface HandlerParts {
  readonly dataSource: ChartDataSource;
  readonly keyStore: KeyStore;
  readonly rateLimiter: RateLimiter | undefined;
  /** Bulk Data stores shared on Redis (`--redis-url`); else the handler's in-memory ones. */
  readonly bulk: BulkExportOptions | undefined;
  readonly log: RequestLog;
  /** Charts served from PostgreSQL: its outages are logged once by the pool, not once per request. */
  readonly database: boolean;
}


function handlerOptions(options: CliOptions, parts: HandlerParts): ExportHandlerOptions {
  const { dataSource, keyStore, rateLimiter, log, database } = parts;
  const hl7: { sendingApplication?: string; sendingFacility?: string; processingId?: 'P' | 'T' | 'D' } = {
    sendingApplication: options.sendingApplication,
  };
  if (options.sendingFacility !== undefined) hl7.sendingFacility = options.sendingFacility;
  if (options.processingId !== undefined) hl7.processingId = options.processingId;
  const result: {
    -readonly [K in keyof ExportHandlerOptions]: ExportHandlerOptions[K];
  } = {
    dataSource,
    keyStore,
    hl7,
    // Liveness, readiness (503 while Redis is unreachable) and the API description are always served.
    healthRoutes: true,
    openApi: true,
    // Bulk Data export ($export, status, files, /metadata): jobs and files in memory, or on Redis with --redis-url.
    bulk: parts.bulk ?? true,
    onError: (error, context) => {
      // A Redis outage is logged once when it starts and once when it ends (redis.ts), not once per request.
      if (rateLimiter !== undefined && context.source === 'rate_limiter' && isDataSourceUnavailable(error)) return;
      if (database && (context.source === 'data_source' || context.source === 'key_store') && isDataSourceUnavailable(error)) return;
      // Core and adapter messages name fields, never patient values; a stack is of no use to the operator here.
      const what = error instanceof Error ? `${error.name}: ${error.message}` : 'non-error value thrown';
      log.event('error', `error on ${context.route ?? 'unknown route'} (request ${context.requestId}): ${what}`, {
        route: context.route,
        requestId: context.requestId,
      });
    },
  };
  if (rateLimiter !== undefined) result.rateLimiter = rateLimiter;
  if (options.metrics) result.metrics = createExportMetrics();
  if (options.directoryRateLimit !== undefined) result.directoryRateLimit = options.directoryRateLimit;
  if (options.basePath !== '') result.basePath = options.basePath;
  const fhir: { baseUrl?: string; strictBundleTotal?: boolean } = {};
  if (options.fhirBaseUrl !== undefined) fhir.baseUrl = options.fhirBaseUrl;
  if (options.strictBundleTotal) fhir.strictBundleTotal = true;
  result.fhir = fhir;
  if (log.request !== undefined) result.observer = log.request;
  return result;
}

/**
 * The command's server: the listener, with timeouts that drop a client sending its headers or its request
 * too slowly, and a cap on open connections. Node checks the timeouts every `connectionsCheckingInterval`
 * (30 s by default): once a second here, so a slow client is dropped within about a second of its timeout.
 */
function createLimitedServer(listener: ReturnType<typeof toNodeListener>, limits: ServerLimits): Server {
  const server = createServer(
    { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: 1000 },
    listener,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  return server;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const reasons: Readonly<Record<string, string>> = {
        EADDRINUSE: 'the port is already in use; choose another with --port or PORT (0 = any free port)',
        EACCES: 'permission denied; ports below 1024 need privileges, choose another with --port or PORT',
        EADDRNOTAVAIL: 'this machine has no such address; check --host',
        ENOTFOUND: 'the host name does not resolve; check --host',
      };
      const code = error.code ?? 'error';
      reject(new CliError([`chart-export: cannot listen on ${host}:${port}: ${reasons[code] ?? 'listen failed'} (${code})`]));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function printBanner(
  io: CliIo,
  options: CliOptions,
  data: LoadedData,
  keys: LoadedKeys,
  address: AddressInfo,
  shared: SharedLimits | undefined,
  database: ServedDatabase | undefined,
): void {
  const origin = clientOrigin(address.address, address.port);
  const patients = data.document.patients.length;
  const source = data.file === undefined ? 'the embedded demo chart' : `${JSON.stringify(data.file)}`;
  io.out(`chart-export ${version} listening on ${origin}${options.basePath}`);
  if (database === undefined) io.out(`Serving ${source}: ${patients} patient${patients === 1 ? '' : 's'}.`);
  else io.out(`Serving charts from PostgreSQL at ${database.displayUrl} (schema ${options.databaseSchema ?? 'chart_export'}).`);
  io.out(
    shared === undefined
      ? 'Rate limits: counted in this process.'
      : `Rate limits: shared on Redis at ${shared.displayUrl} (fail closed: 503 while Redis is unreachable).`,
  );
  io.out(`Health: ${origin}${options.basePath}/healthz, ${origin}${options.basePath}/readyz; API description: ${origin}${options.basePath}/openapi.json${options.metrics ? `; metrics: ${origin}${options.basePath}/metrics` : ''}.`);
  io.out('');

  const sampleKeys = printKeys(io, options, keys, database);
  printSamples(io, origin, options.basePath, data.document, sampleKeys);
  io.out('');
  io.out('Press Ctrl+C to stop.');
}

/** A running service, as {@link startService} returns it. */
export interface RunningService {
  /** The server. */
  readonly server: Server;
  /** The address taken. */
  readonly address: AddressInfo;
  /** Read the key file again (SIGHUP); resolves when done, whatever the outcome (logged). Undefined without `--keys`. */
  readonly reloadKeys: (() => Promise<void>) | undefined;
  /**
   * Stop: refuse new connections, let requests in flight finish, close idle keep-alive connections; after
   * `timeoutMs`, close whatever is left.
   * @returns true when every request finished in time, false when some had to be cut
   */
  stop(timeoutMs: number): Promise<boolean>;
}

/**
 * Load everything, listen and print the banner.
 * @param options - the parsed options
 * @param io - where to write
 * @returns the running service
 * @throws {CliError} for invalid input or a port that cannot be taken
 * @example const service = await startService(parseCliOptions(['--port', '0'], {}), io); await service.stop(1000);
 */
export async function startService(options: CliOptions, io: CliIo): Promise<RunningService> {
  const log = createRequestLog(options.log, io);
  const database = options.databaseUrl === undefined ? undefined : await connectDatabase(options.databaseUrl, options.databaseSchema, options.keysFile === undefined, log);
  // With a database, the banner's sample requests come from its first patient; no demo keys ever guard it.
  const data: LoadedData = database === undefined ? await loadData(options.dataFile) : { document: database.sample, file: '(PostgreSQL)' };
  const keys = database?.keyStore !== undefined ? { entries: [], kind: 'file' as const } : await loadKeys(options.keysFile, data.file === undefined);
  if (keys.kind === 'demo' && !isLoopback(options.host)) {
    io.err(`chart-export: warning: listening on ${options.host} with the public demo keys: anyone who can reach it can read the demo chart.`);
  }
  const keyStore = database?.keyStore ?? createSwappableKeyStore(keys.entries);
  const swappable = database?.keyStore === undefined ? (keyStore as ReturnType<typeof createSwappableKeyStore>) : undefined;
  const shared = options.redisUrl === undefined ? undefined : await connectSharedLimits(options.redisUrl, options.redisPrefix, log);
  let listener;
  try {
    listener = toNodeListener(
      createExportHandler(
        handlerOptions(options, {
          dataSource: database?.dataSource ?? createInMemoryDataSource(data.document),
          keyStore,
          rateLimiter: shared?.rateLimiter,
          bulk: shared?.bulk,
          log,
          database: database !== undefined,
        }),
      ),
    );
  } catch (error) {
    shared?.close();
    void database?.close();
    throw new CliError([`chart-export: ${error instanceof Error ? error.message : 'cannot create the handler'}`], 2);
  }
  const server = createLimitedServer(listener, options.server);
  let address: AddressInfo;
  try {
    address = await listen(server, options.port, options.host);
  } catch (error) {
    shared?.close();
    void database?.close();
    throw error;
  }
  printBanner(io, options, data, keys, address, shared, database);
  const reloadKeys = options.keysFile === undefined || swappable === undefined ? undefined : createKeyReloader(options.keysFile, swappable, log);
  server.once('close', () => {
    shared?.close();
    void database?.close();
  });

  return {
    server,
    address,
    reloadKeys,
    stop(timeoutMs) {
      return new Promise((resolve) => {
        let done = false;
        const finish = (clean: boolean): void => {
          if (done) return;
          done = true;
          clearInterval(sweeper);
          clearTimeout(timer);
          resolve(clean);
        };
        server.close(() => finish(true));
        // Keep-alive connections that go idle after their last response would hold close() open: close them as
        // they go idle. Connections with a request in flight are left to finish.
        server.closeIdleConnections();
        const sweeper = setInterval(() => server.closeIdleConnections(), 50);
        const timer = setTimeout(() => {
          server.closeAllConnections();
          finish(false);
        }, timeoutMs);
      });
    },
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * Run the command: parse the options, start, and wait for SIGINT/SIGTERM. Sets `process.exitCode` and never
 * throws; errors are printed as one line or a list of paths, never with a stack.
 * @param argv - arguments after the script
 * @param env - the environment
 * @param io - where to write (default stdout/stderr)
 * @returns when the service has started (or failed to); the process exits after a shutdown
 * @throws never
 * @example void main(process.argv.slice(2), process.env);
 */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: CliIo = defaultIo): Promise<void> {
  if (io === defaultIo) {
    // A reader that goes away (`chart-export | head -1`, a log pipe that closes) makes writes fail with EPIPE,
    // an unhandled 'error' that would stop the service with a stack trace: only output is lost, so keep serving.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  }
  // Subcommands: `chart-export send …` pushes HL7 v2 over MLLP (src/cli/send.ts).
  if (argv[0] === 'send') return runSend(argv.slice(1), env, io);
  // The parent at start, read before anything is printed: a shell that dies once the banner is out (the
  // moment a caller knows the service runs) is then still seen to have gone (see the watch below).
  const parent = process.ppid;
  // The PostgreSQL subcommands: run, print, exit (no server).
  if (argv[0] === 'db' || argv[0] === 'keys') {
    process.exitCode = await runDatabaseCommand(argv, env, io);
    return;
  }
  let options: CliOptions;
  try {
    options = parseCliOptions(argv, env);
  } catch (error) {
    io.err(`chart-export: ${error instanceof Error ? error.message : 'invalid arguments'}`);
    io.err('Run chart-export --help for the options.');
    process.exitCode = error instanceof UsageError ? 2 : 1;
    return;
  }
  if (options.help) {
    io.out(HELP_TEXT.trimEnd());
    return;
  }
  if (options.version) {
    io.out(version);
    return;
  }

  // Before the first await: from here on a signal is the command's, never Node's default (which for SIGHUP,
  // SIGINT and SIGTERM ends the process at once), however long the start takes.
  const signals = handleSignals(options, io);
  let service: RunningService;
  try {
    service = await startService(options, io);
  } catch (error) {
    signals.remove();
    if (error instanceof CliError) {
      for (const line of error.lines) io.err(line);
      process.exitCode = error.exitCode;
    } else {
      io.err(`chart-export: could not start: ${error instanceof Error ? error.name : 'unknown error'}`);
      process.exitCode = 1;
    }
    return;
  }
  signals.started(service);

  // Under `npm start`, npm runs `sh -c "… && node dist/cli.js"` and forwards a SIGTERM (from a process
  // manager, say) to that shell only, which dies and leaves this process running. Ctrl+C reaches every process
  // of the terminal's group and needs nothing. So when started by an npm script, stop as for SIGTERM once the
  // parent goes away (the process is then re-parented).
  if (env['npm_lifecycle_event'] !== undefined) {
    const watch = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(watch);
      signals.stop('npm exited');
    }, 250);
    watch.unref();
  }
}
