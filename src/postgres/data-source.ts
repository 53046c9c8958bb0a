/**
 * `createPostgresDataSource`: the `ChartDataSource` of the HTTP adapter over the package's PostgreSQL tables
 * (see migrations.ts). Every method is one indexed query on one pooled connection; the request's signal
 * cancels it on the server; a full pool or a server that is down gives `DataSourceUnavailableError` (503).
 */
import { ChartValidationError, InvalidArgumentError, type IssuePath } from '../index.js';
import { DataSourceUnavailableError, type ChartDataSource, type KeysetPage } from '../http/index.js';
import { openConnection, runQuery, type Connection, type PostgresConnectionOptions, type PostgresQueryResult } from './connection.js';
import { POSTGRES_SCHEMA_VERSION } from './migrations.js';
import { createRecordCache, type RecordCache, type RecordTable } from './record-cache.js';

/** Options of {@link createPostgresDataSource}: where PostgreSQL is (see {@link PostgresConnectionOptions}), and the record cache. */
export interface PostgresDataSourceOptions extends PostgresConnectionOptions {
  /**
   * How many characters of record JSON the instance keeps as checked, frozen records (least recently used
   * first out): a record read again unchanged is neither parsed nor checked again. A row that changed is read
   * anew (the cache is keyed by the row's exact text), so it is never stale. 0 turns it off. Default 2 000 000
   * (a few MB of memory).
   */
  readonly recordCacheChars?: number | undefined;
}

/** The PostgreSQL data source: a `ChartDataSource` with every optional method, and `close()`. */
export interface PostgresDataSource extends Required<Omit<ChartDataSource, 'ping' | 'stableRecords'>> {
  /**
   * `true` while the record cache is on (`recordCacheChars` above 0): each record comes as the cache's frozen
   * object, the same one for the same row text and a new one for a changed row, so the handler may reuse
   * output built from it (see `ChartDataSource.stableRecords`).
   */
  readonly stableRecords: boolean;
  /** Readiness (`GET /readyz`): one query that also checks the schema is migrated to this package's version. */
  ping(signal: AbortSignal): Promise<void>;
  /** End the pool when the data source made it from a connection string (a host's pool is left open). */
  close(): Promise<void>;
}

/** A UTF-16 surrogate without its other half: text with one has no UTF-8 form. */
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text that is well-formed UTF-16 (no lone surrogate). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE_RE.test(text);
}

/** True for an id that can be stored: PostgreSQL text holds no NUL, and a lone surrogate has no UTF-8 form. */
export function isStorableId(id: unknown): id is string {
  return typeof id === 'string' && !id.includes('\u0000') && isWellFormedText(id);
}

/** A record read back whose id (or patient) is not the row's: written by someone else, and wrong. */
function mismatch(path: IssuePath): ChartValidationError {
  return new ChartValidationError([{ path, code: 'reference', message: 'differs from the key of the database row it was read from' }]);
}

/**
 * The record of a row, checked against the row's key: an object whose `id` is the row's id. Its fields are
 * checked by the builders' chart check, as every source's are (a bad record gives 500, never bad output).
 */
function recordOf(cache: RecordCache, table: RecordTable, row: Record<string, unknown> | undefined, id: string): unknown {
  if (row === undefined) return undefined;
  let record: unknown;
  try {
    record = cache.read(table, row['record'] as string);
  } catch {
    throw new ChartValidationError([{ path: [], code: 'format', message: 'is not valid JSON in the database row it was read from' }]);
  }
  if (record === null || typeof record !== 'object' || (record as { id?: unknown }).id !== id) throw mismatch(['id']);
  return record;
}

function recordsOf(cache: RecordCache, table: RecordTable, rows: readonly Record<string, unknown>[]): unknown[] {
  return rows.map((row) => recordOf(cache, table, row, row['id'] as string));
}

/** The list limit as the in-memory source reads it: a number, floored, at least 0. */
function listLimit(limit: number): number {
  if (typeof limit !== 'number' || Number.isNaN(limit)) throw new InvalidArgumentError('limit', 'must be a non-negative integer');
  return Math.max(0, Math.min(Math.floor(limit), 2 ** 31 - 1));
}

function checkPage(page: KeysetPage): { after: string | undefined; limit: number } {
  const limit = page?.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) throw new InvalidArgumentError('page.limit', 'must be a positive integer');
  const after = page.after;
  if (after !== undefined && typeof after !== 'string') throw new InvalidArgumentError('page.after', 'must be a string');
  return { after, limit: Math.min(limit, 2 ** 31 - 1) };
}

type Rows = (sql: string, values: readonly unknown[], signal: AbortSignal | undefined) => Promise<PostgresQueryResult>;

/** What every query factory below needs: how to run a query, the quoted schema, the record cache. */
interface Reader {
  readonly rows: Rows;
  readonly s: string;
  readonly cache: RecordCache;
}

/** A lookup by primary key (patients, directory entries). */
function getById({ rows, s, cache }: Reader, table: RecordTable) {
  const sql = `SELECT record::text AS record FROM ${s}.${table} WHERE id = $1`;
  return async (id: string, signal?: AbortSignal): Promise<never | undefined> => {
    if (!isStorableId(id)) return undefined;
    return recordOf(cache, table, (await rows(sql, [id], signal)).rows[0], id) as never;
  };
}

/** A lookup of a patient's record by (patient id, id), the primary key. */
function getOfPatient({ rows, s, cache }: Reader, table: RecordTable) {
  const sql = `SELECT record::text AS record FROM ${s}.${table} WHERE patient_id = $1 AND id = $2`;
  return async (patientId: string, id: string, signal?: AbortSignal): Promise<never | undefined> => {
    if (!isStorableId(patientId) || !isStorableId(id)) return undefined;
    return recordOf(cache, table, (await rows(sql, [patientId, id], signal)).rows[0], id) as never;
  };
}

/** A patient's newest records: the `…_newest` index, ties in chart order as the in-memory source keeps them. */
function newest({ rows, s, cache }: Reader, table: RecordTable, keys: 1 | 2) {
  const order = keys === 1 ? 'sort_key DESC NULLS LAST' : 'sort_key DESC NULLS LAST, sort_key_2 DESC NULLS LAST';
  const sql = `SELECT id, record::text AS record FROM ${s}.${table} WHERE patient_id = $1 ORDER BY ${order}, position LIMIT $2`;
  return async (patientId: string, limit: number, signal?: AbortSignal): Promise<readonly never[]> => {
    const n = listLimit(limit);
    if (n === 0 || !isStorableId(patientId)) return [];
    return recordsOf(cache, table, (await rows(sql, [patientId, n], signal)).rows) as never[];
  };
}

/** The first directory entries in document order (the `…_position` index). */
function directoryList({ rows, s, cache }: Reader, table: RecordTable) {
  const sql = `SELECT id, record::text AS record FROM ${s}.${table} ORDER BY position LIMIT $1`;
  return async (limit: number, signal?: AbortSignal): Promise<readonly never[]> => {
    const n = listLimit(limit);
    if (n === 0) return [];
    return recordsOf(cache, table, (await rows(sql, [n], signal)).rows) as never[];
  };
}

/** A keyset page by primary key, ascending in `COLLATE "C"` order. */
function keysetPage({ rows, s, cache }: Reader, table: RecordTable) {
  const first = `SELECT id, record::text AS record FROM ${s}.${table} ORDER BY id LIMIT $1`;
  const next = `SELECT id, record::text AS record FROM ${s}.${table} WHERE id > $2 ORDER BY id LIMIT $1`;
  return async (page: KeysetPage, signal?: AbortSignal): Promise<readonly never[]> => {
    const { after, limit } = checkPage(page);
    let from = after;
    if (from !== undefined && !isWellFormedText(from)) throw new InvalidArgumentError('page.after', 'must be well-formed Unicode (no lone surrogate)');
    // No stored id holds a NUL (PostgreSQL text cannot): the ids after one with a NUL are those after the
    // text before its first NUL, NUL being the lowest character.
    if (from?.includes('\u0000') === true) from = from.slice(0, from.indexOf('\u0000'));
    const result = from === undefined ? await rows(first, [limit], signal) : await rows(next, [limit, from], signal);
    return recordsOf(cache, table, result.rows) as never[];
  };
}

/** Readiness: the schema's version, which must be this package's. */
function ping({ rows, s }: Reader) {
  const versionSql = `SELECT max(version) AS version FROM ${s}.schema_migrations`;
  const notMigrated = (): DataSourceUnavailableError => new DataSourceUnavailableError('The PostgreSQL schema is not migrated: run chart-export db migrate');
  return async (signal: AbortSignal): Promise<void> => {
    const result = await rows(versionSql, [], signal).catch((error: unknown) => {
      // 42P01: the table does not exist, the schema was never migrated.
      throw (error as { code?: unknown } | null)?.code === '42P01' ? notMigrated() : error;
    });
    if (Number(result.rows[0]?.['version'] ?? 0) < POSTGRES_SCHEMA_VERSION) throw notMigrated();
  };
}

/**
 * Create a `ChartDataSource` over the package's PostgreSQL tables (create them with `migratePostgres` or
 * `chart-export db migrate`; fill them with `writePatientCharts` / `writeDirectory` or `chart-export db import`).
 *
 * - Each method is one parameterised query on one pooled connection, through a primary key or an index
 *   (lists: the patient's index in newest-first order, the same order as the in-memory source, ties in chart
 *   order; pages: the id's primary key, ascending by id in `COLLATE "C"` order).
 * - The request's `AbortSignal` (the handler's data-source time-out, or a client that went away) cancels the
 *   running query on the server with PostgreSQL's cancel request; the call rejects at once with the signal's
 *   reason and the connection is closed rather than reused.
 * - A read waits at most `acquireTimeoutMs` (default 1 s) for a pooled connection, then fails with
 *   `DataSourceUnavailableError` (503); a server that is down, starting or stopping gives the same.
 * - An idle pooled connection's `error` event is always listened to (`onPoolError`), never a crash.
 * - A record read back must be an object whose `id` is its row's; the builders check the rest (a bad record
 *   written by someone else gives 500, never bad output).
 * - With the record cache on, the source declares `stableRecords`: an unchanged row gives the same frozen
 *   object, so the handler fills kept HL7 messages and FHIR Bundles in instead of building them again. The
 *   records are still read on every request, and a changed row (or a changed record it refers to) is built
 *   afresh on the next request.
 *
 * @param options - a `pg` pool or a connection string, the schema, the pool's wait and size
 * @returns the data source; `close()` ends a pool it made
 * @throws {InvalidArgumentError} for unusable options
 * @example
 * const dataSource = createPostgresDataSource({ connectionString: process.env.DATABASE_URL });
 * const handler = createExportHandler({ dataSource, keyStore, healthRoutes: true });
 */
export function createPostgresDataSource(options: PostgresDataSourceOptions): PostgresDataSource {
  const connection: Connection = openConnection(options, 'createPostgresDataSource');
  const cacheChars = options.recordCacheChars ?? 2_000_000;
  if (!Number.isSafeInteger(cacheChars) || cacheChars < 0) throw new InvalidArgumentError('options.recordCacheChars', 'must be a non-negative integer');
  const r: Reader = { rows: (sql, values, signal) => runQuery(connection, sql, values, signal), s: connection.schema, cache: createRecordCache(cacheChars) };
  return {
    getPatient: getById(r, 'patients'),
    getEncounter: getOfPatient(r, 'encounters'),
    getNote: getOfPatient(r, 'notes'),
    getAssessment: getOfPatient(r, 'assessments'),
    getMedicalHistoryEntry: getOfPatient(r, 'medical_history'),
    listEncounters: newest(r, 'encounters', 1),
    listNotes: newest(r, 'notes', 1),
    listAssessments: newest(r, 'assessments', 1),
    listMedicalHistory: newest(r, 'medical_history', 2),
    getOrganization: getById(r, 'organizations'),
    getPractitioner: getById(r, 'practitioners'),
    getLocation: getById(r, 'locations'),
    listOrganizations: directoryList(r, 'organizations'),
    listPractitioners: directoryList(r, 'practitioners'),
    listLocations: directoryList(r, 'locations'),
    listPatients: keysetPage(r, 'patients'),
    listOrganizationsPage: keysetPage(r, 'organizations'),
    listPractitionersPage: keysetPage(r, 'practitioners'),
    listLocationsPage: keysetPage(r, 'locations'),
    ping: ping(r),
    // The cache hands out one frozen object per row text: the handler may key its output reuse on it.
    stableRecords: cacheChars > 0,
    close: () => connection.close(),
  };
}
