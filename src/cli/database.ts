/// <reference types="node" />
/**
 * The command's PostgreSQL: `--database-url` (and `CHART_EXPORT_DATABASE_URL`) read and masked, the
 * `chart-export/postgres` entry loaded only when a database is used (it needs the `pg` package, an optional
 * peer dependency), and the data source and key store the service serves from. The URL's password is never
 * printed: the banner shows it masked, and no message quotes the URL.
 */
import type { ChartDocument } from '../index.js';
import type { ChartDataSource, KeyStore } from '../http/index.js';
import type * as Postgres from '../postgres/index.js';
import { CliError } from './load.js';
import type { RequestLog } from './request-log.js';

/** How long a revocation takes to reach every instance: the key store's cache time, in milliseconds. */
export const KEY_CACHE_TTL_MS = 2000;

/**
 * The URL with its user name and password replaced by `****` where a secret may be, safe to print.
 * @param url - a postgres:// URL
 * @returns the masked URL; `postgres://…` when it cannot be parsed
 * @throws never
 * @example maskDatabaseUrl('postgres://app:s3cret@db:5432/charts') // 'postgres://app:****@db:5432/charts'
 */
export function maskDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '****';
    // A query string may carry a password too (`?password=…`, `?sslpassword=…`): keep only its names.
    for (const name of [...parsed.searchParams.keys()]) if (/pass|key|secret/i.test(name)) parsed.searchParams.set(name, '****');
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

/**
 * Load `chart-export/postgres` (next to the command in the package), which loads `pg`.
 * @throws {CliError} when `pg` is not installed
 */
export async function loadPostgres(): Promise<typeof Postgres> {
  try {
    return await import('../postgres/index.js');
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new CliError(['chart-export: PostgreSQL needs the pg client, which is not installed: run  npm install pg']);
    }
    throw new CliError([`chart-export: cannot load the PostgreSQL support: ${error instanceof Error ? error.name : 'load failed'}`]);
  }
}

/** What an error says, without a stack, a value or anything but its code and message. */
export function describeDatabaseError(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = cause instanceof Error ? cause : error;
  const code = (inner as { code?: unknown } | null)?.code;
  const message = inner instanceof Error && inner.message !== '' ? inner.message : 'connection failed';
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/** The service's PostgreSQL parts, as {@link connectDatabase} returns them. */
export interface ServedDatabase {
  readonly dataSource: ChartDataSource;
  /** The key store, or undefined when the keys come from a file. */
  readonly keyStore: KeyStore | undefined;
  /** The URL with its password masked, for the banner. */
  readonly displayUrl: string;
  /** Whether PostgreSQL answered and the schema is migrated at start (else /readyz says 503 until it is). */
  readonly ready: boolean;
  /** A small document of the first patient and its first records, for the banner's sample requests. */
  readonly sample: ChartDocument;
  /** Close the pools (at shutdown). */
  close(): Promise<void>;
}

/**
 * Connect the service to PostgreSQL. The start does not wait for it: when it is unreachable (or not migrated)
 * a warning is printed, the export routes answer 503 and `/readyz` 503 until it is, and the pool reconnects by
 * itself. Pool errors are logged once per outage.
 *
 * @param url - the `--database-url`
 * @param schema - the `--database-schema`, or undefined for `chart_export`
 * @param keysFromDatabase - serve the keys from PostgreSQL too (no `--keys` file given)
 * @param log - where the outages are reported
 * @returns the data source, key store and banner details
 * @throws {CliError} when the `pg` package is not installed
 * @example const db = await connectDatabase('postgres://app@127.0.0.1/charts', undefined, true, log);
 */
export async function connectDatabase(url: string, schema: string | undefined, keysFromDatabase: boolean, log: RequestLog): Promise<ServedDatabase> {
  const postgres = await loadPostgres();
  let down = false;
  const onPoolError = (error: Error): void => {
    if (down) return;
    down = true;
    log.event('warn', `warning: PostgreSQL connection lost: ${describeDatabaseError(error)}; reads answer 503 until it is back`);
  };
  const base = { connectionString: url, onPoolError, ...(schema === undefined ? {} : { schema }) };
  const dataSource = postgres.createPostgresDataSource(base);
  const keyStore = keysFromDatabase ? postgres.createPostgresKeyStore({ ...base, cacheTtlMs: KEY_CACHE_TTL_MS, maxConnections: 2 }) : undefined;
  let ready = true;
  let sample: ChartDocument = { patients: [] };
  try {
    await dataSource.ping(AbortSignal.timeout(5000));
    const first = (await dataSource.listPatients({ limit: 1 }))[0];
    if (first !== undefined) {
      const [encounters, notes, assessments] = await Promise.all([
        dataSource.listEncounters(first.id, 1),
        dataSource.listNotes(first.id, 1),
        dataSource.listAssessments(first.id, 1),
      ]);
      sample = { patients: [{ patient: first, encounters: [...encounters], notes: [...notes], assessments: [...assessments] }] };
    }
  } catch (error) {
    ready = false;
    log.event('warn', `warning: PostgreSQL is not ready: ${describeDatabaseError(error)}; /readyz answers 503 until it is`);
  }
  return {
    dataSource,
    keyStore,
    displayUrl: maskDatabaseUrl(url),
    ready,
    sample,
    async close() {
      await Promise.all([dataSource.close(), keyStore?.close()]);
    },
  };
}
