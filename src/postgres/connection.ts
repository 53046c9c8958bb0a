/// <reference types="node" />
/**
 * The connection layer of `chart-export/postgres`: the small client surface the package takes from `pg`
 * (node-postgres) or from a host's own pool, a pool made from a connection string, a bounded wait for a
 * pooled connection, the cancel request that stops a running query on the server when the request's
 * `AbortSignal` fires, and the reading of driver errors as "unavailable" (503) or not.
 */
import { createConnection } from 'node:net';
import pg from 'pg';
import { InvalidArgumentError } from '../index.js';
import { DataSourceUnavailableError } from '../http/index.js';

/** What a query returns, as `pg` gives it: the rows as objects. */
export interface PostgresQueryResult {
  /** The rows, one object per row, keyed by column name. */
  readonly rows: readonly Record<string, unknown>[];
  /** Rows affected (writes) or returned. */
  readonly rowCount?: number | null | undefined;
}

/** A pooled connection, as `pg`'s `PoolClient` gives it (the parts used here). */
export interface PostgresPoolClient {
  /** Run one parameterised query. */
  query(text: string, values?: readonly unknown[]): Promise<PostgresQueryResult>;
  /** Give the connection back (`true`: close it instead). */
  release(destroy?: boolean | Error): void;
  /** The server process serving this connection (`pg` sets it once connected); used by the cancel request. */
  readonly processID?: number | null | undefined;
  /** The key of the cancel request (`pg` sets it once connected). */
  readonly secretKey?: number | null | undefined;
  /** The server's host as `pg` connected to it (a folder for a Unix socket). */
  readonly host?: string | undefined;
  /** The server's port. */
  readonly port?: number | undefined;
}

/** A connection pool, as `pg`'s `Pool` is (the parts used here). */
export interface PostgresPool {
  /** Check a connection out. */
  connect(): Promise<PostgresPoolClient>;
  /** Listen for errors of idle connections (a server restart, a network cut). */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Close every connection. */
  end(): Promise<void>;
}

/** Where the package finds PostgreSQL: a host's pool or a connection string, and the schema of its tables. */
export interface PostgresConnectionOptions {
  /** A pool the host made (`new pg.Pool(…)`); the package never ends it. Give this or `connectionString`. */
  readonly pool?: PostgresPool | undefined;
  /**
   * A `postgres://` URL; the package makes its own `pg` pool (ended by `close()`). Give this or `pool`.
   * @example 'postgres://chart_export@db.internal:5432/charts'
   */
  readonly connectionString?: string | undefined;
  /** Size of the pool made from `connectionString`. Default 10. */
  readonly maxConnections?: number | undefined;
  /**
   * The PostgreSQL schema holding the package's tables: lowercase letters, digits and `_`, starting with a
   * letter or `_`, at most 63 characters. Default `chart_export`.
   */
  readonly schema?: string | undefined;
  /**
   * How long a read waits for a free pooled connection before it fails with `DataSourceUnavailableError`
   * (503, `Retry-After: 1`), so a full pool sheds load instead of queueing requests without end. Default 1000.
   */
  readonly acquireTimeoutMs?: number | undefined;
  /**
   * Told of every error of an idle pooled connection (the pool replaces the connection by itself). Without a
   * listener such an error would end a Node process; the package always listens. Default: ignore.
   */
  readonly onPoolError?: ((error: Error) => void) | undefined;
}

/** The default schema of the package's tables. */
export const DEFAULT_POSTGRES_SCHEMA = 'chart_export';

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** A checked connection: the pool, the quoted schema, and how to close what the package opened. */
export interface Connection {
  readonly pool: PostgresPool;
  /** The schema as a quoted identifier, ready to write before a table name. */
  readonly schema: string;
  /** The schema's plain name. */
  readonly schemaName: string;
  readonly acquireTimeoutMs: number;
  /** End the pool when the package made it; nothing for a host's pool. */
  close(): Promise<void>;
}

/**
 * Check the options and make (or take) the pool.
 * @throws {InvalidArgumentError} for options that are not usable
 */
export function openConnection(options: PostgresConnectionOptions, what: string): Connection {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const schemaName = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  if (typeof schemaName !== 'string' || !SCHEMA_RE.test(schemaName)) {
    throw new InvalidArgumentError('options.schema', 'must be lowercase letters, digits and _, starting with a letter or _, at most 63 characters');
  }
  const acquireTimeoutMs = options.acquireTimeoutMs ?? 1000;
  if (!Number.isSafeInteger(acquireTimeoutMs) || acquireTimeoutMs < 1) throw new InvalidArgumentError('options.acquireTimeoutMs', 'must be a positive integer');
  const onPoolError = options.onPoolError;
  if (onPoolError !== undefined && typeof onPoolError !== 'function') throw new InvalidArgumentError('options.onPoolError', 'must be a function');
  const listener = (error: Error): void => {
    try {
      onPoolError?.(error);
    } catch {
      // A throwing listener must not turn an idle connection's error into a crash either.
    }
  };
  let pool: PostgresPool;
  let owned = false;
  if (options.pool !== undefined) {
    if (options.connectionString !== undefined) throw new InvalidArgumentError('options', `give ${what} either pool or connectionString, not both`);
    const given = options.pool as Partial<PostgresPool> | null;
    if (given === null || typeof given !== 'object' || typeof given.connect !== 'function' || typeof given.on !== 'function') {
      throw new InvalidArgumentError('options.pool', 'must be a pg Pool (connect, on, end)');
    }
    pool = options.pool;
  } else {
    const url = options.connectionString;
    if (typeof url !== 'string' || url.length === 0) throw new InvalidArgumentError('options', `give ${what} a pool or a connectionString`);
    const max = options.maxConnections ?? 10;
    if (!Number.isSafeInteger(max) || max < 1) throw new InvalidArgumentError('options.maxConnections', 'must be a positive integer');
    pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 }) as unknown as PostgresPool;
    owned = true;
  }
  pool.on('error', listener);
  return {
    pool,
    schema: `"${schemaName}"`,
    schemaName,
    acquireTimeoutMs,
    async close() {
      if (owned) await pool.end();
    },
  };
}

/** SQLSTATE classes and codes that say "the server cannot answer now", not "the query is wrong". */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0[1-5])/;
/** Node socket errors of a server that is down or unreachable. */
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOENT']);
/** `pg`'s own messages for a connection that broke or never came. */
const UNAVAILABLE_MESSAGE = /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Client was closed/i;

/**
 * True when `error` says the server is down, unreachable, starting, stopping or out of connections: the
 * data source then rejects with `DataSourceUnavailableError` (503) instead of the driver's error (500).
 */
export function isUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested) && nested.some(isUnavailable)) return true;
  return error instanceof Error && UNAVAILABLE_MESSAGE.test(error.message);
}

/** The driver's error as the data source rejects with it: unavailable → 503, anything else as it is. */
export function readError(error: unknown): unknown {
  if (error instanceof DataSourceUnavailableError) return error;
  if (isUnavailable(error)) return new DataSourceUnavailableError('PostgreSQL is unavailable', { cause: error, retryAfterSeconds: 1 });
  return error;
}

/**
 * Send PostgreSQL's cancel request for the query running on `client`: a new connection that sends the
 * 16-byte `CancelRequest` (protocol code 80877102, the backend's process id and secret key) and closes. It
 * needs no login and no connection slot, so it works when the pool is full. Resolves once sent (or failed:
 * the caller then closes the connection, which also ends the query at the server's next check).
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-CANCELING-REQUESTS
 */
export function sendCancelRequest(client: PostgresPoolClient): Promise<void> {
  const pid = client.processID;
  const key = client.secretKey;
  if (typeof pid !== 'number' || typeof key !== 'number') return Promise.resolve();
  const host = client.host ?? 'localhost';
  const port = client.port ?? 5432;
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? createConnection(`${host}/.s.PGSQL.${port}`) : createConnection({ host, port });
    const done = (): void => {
      socket.destroy();
      resolve();
    };
    socket.setTimeout(2000, done);
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => {
      const packet = Buffer.alloc(16);
      packet.writeInt32BE(16, 0);
      packet.writeInt32BE(80877102, 4);
      packet.writeInt32BE(pid, 8);
      packet.writeInt32BE(key, 12);
      // The server closes the connection once it has read the request.
      socket.end(packet);
    });
  });
}

/** Where a {@link QueryRun} stands. */
const WAITING = 0;
const RUNNING = 1;
const CANCELLED = 2;
const SETTLED = 3;

/** The acquire time-out of a run that still waits for a connection. */
function checkoutTimedOut(run: QueryRun): void {
  run.fail(new DataSourceUnavailableError('No PostgreSQL connection free in time (the pool is full)', { retryAfterSeconds: 1 }));
}

/**
 * One query of {@link runQuery}, from the checkout to the answer: one object per query, which is also its
 * abort listener (`handleEvent`) for both the wait for a connection and the query, so a query costs one
 * listener, one timer and no race of promises.
 */
class QueryRun {
  private phase = WAITING;
  private client: PostgresPoolClient | undefined;
  private released = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly text: string,
    private readonly values: readonly unknown[],
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (result: PostgresQueryResult) => void,
    private readonly reject: (reason: unknown) => void,
  ) {}

  start(): void {
    this.timer = setTimeout(checkoutTimedOut, this.connection.acquireTimeoutMs, this);
    this.signal?.addEventListener('abort', this, { once: true });
    let checkout: Promise<PostgresPoolClient>;
    try {
      checkout = this.connection.pool.connect();
    } catch (error) {
      this.fail(readError(error));
      return;
    }
    checkout.then(
      (client) => this.checkedOut(client),
      (error: unknown) => this.fail(readError(error)),
    );
  }

  /** Reject, while no connection is held: a connection that comes later goes straight back. */
  fail(reason: unknown): void {
    if (this.phase !== WAITING) return;
    this.settle();
    this.reject(reason);
  }

  /** The caller has its answer: no time-out, no listener. */
  private settle(): void {
    this.phase = SETTLED;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this);
  }

  private checkedOut(client: PostgresPoolClient): void {
    if (this.phase !== WAITING) {
      client.release();
      return;
    }
    clearTimeout(this.timer);
    this.phase = RUNNING;
    this.client = client;
    let started: Promise<PostgresQueryResult>;
    try {
      started = client.query(this.text, this.values);
    } catch (error) {
      // A query the driver refuses at once: the connection goes back (closed, as after any doubt about it).
      this.release(true);
      this.settle();
      this.reject(readError(error));
      return;
    }
    started.then(
      (result) => this.answered(result),
      (error: unknown) => this.failed(error),
    );
  }

  private answered(result: PostgresQueryResult): void {
    this.release(this.phase === CANCELLED);
    if (this.phase !== RUNNING) return;
    this.settle();
    this.resolve(result);
  }

  private failed(error: unknown): void {
    // After a cancel the query's own rejection (57014) is nobody's to handle.
    this.release(this.phase === CANCELLED || isUnavailable(error));
    if (this.phase !== RUNNING) return;
    this.settle();
    this.reject(readError(error));
  }

  private release(destroy: boolean): void {
    if (this.released || this.client === undefined) return;
    this.released = true;
    this.client.release(destroy);
  }

  /** The signal fired: give up the wait, or cancel the running query on the server and close its connection. */
  handleEvent(): void {
    const reason: unknown = this.signal?.reason;
    if (this.phase === WAITING) {
      this.fail(reason);
      return;
    }
    if (this.phase !== RUNNING) return;
    this.phase = CANCELLED;
    this.reject(reason);
    void sendCancelRequest(this.client as PostgresPoolClient).then(() => this.release(true));
  }
}

/**
 * Run one query on a pooled connection, bounded by `signal`.
 * - The checkout waits at most `acquireTimeoutMs`, then rejects with `DataSourceUnavailableError` (the pool
 *   stays full, or the server is down); a connection that arrives after the wait was given up goes straight
 *   back to the pool.
 * - When the signal fires, the call rejects with the signal's reason at once; a running query is cancelled on
 *   the server (cancel request) and its connection is then closed rather than reused (a cancel request still
 *   in flight must never reach the next query on it).
 * - A driver error that says the server is unavailable rejects with `DataSourceUnavailableError`.
 */
export function runQuery(connection: Connection, text: string, values: readonly unknown[], signal: AbortSignal | undefined): Promise<PostgresQueryResult> {
  if (signal?.aborted === true) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => new QueryRun(connection, text, values, signal, resolve, reject).start());
}
