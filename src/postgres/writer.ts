/**
 * Writing charts to the package's PostgreSQL tables: batches of patient charts and the directory, each in
 * one transaction, as idempotent upserts (writing the same chart again changes nothing; a chart written
 * again replaces the patient's records, deleting those it no longer holds). The sort keys are computed here,
 * with the core's order key, so the lists read back in the in-memory source's order.
 */
import {
  ChartValidationError,
  InvalidArgumentError,
  checkDirectory,
  checkPatientChart,
  type ChartIssue,
  type Directory,
  type PatientChart,
} from '../index.js';
import { isoOrderKey } from '../internal/adapter.js';
import { openConnection, readError, type Connection, type PostgresConnectionOptions, type PostgresPoolClient } from './connection.js';
import { isStorableId } from './data-source.js';

/** Options of {@link createPostgresChartWriter}: where PostgreSQL is (see {@link PostgresConnectionOptions}). */
export type PostgresChartWriterOptions = PostgresConnectionOptions;

/** What one write changed. */
export interface PostgresWriteSummary {
  /** Patients (or directory entries) written. */
  readonly records: number;
  /** Rows inserted or changed, over every table (0 when everything was already there as given). */
  readonly changedRows: number;
  /** Rows deleted because the chart (or directory) written no longer holds them. */
  readonly deletedRows: number;
}

/** Writes charts and the directory to the package's tables. */
export interface PostgresChartWriter {
  /**
   * Write a batch of patient charts in one transaction: each patient and all its records, replacing what the
   * database held for those patients. Each chart is checked first (`checkPatientChart`; the references to the
   * directory are not: `chart-export db import` checks whole documents); nothing is written when one fails.
   * @throws {ChartValidationError} with paths `[index, …]` into `charts`; `DataSourceUnavailableError`
   *   when PostgreSQL cannot be reached
   */
  writePatientCharts(charts: readonly PatientChart[]): Promise<PostgresWriteSummary>;
  /**
   * Replace the directory in one transaction: its organizations, practitioners and locations in the order
   * given (the order of the unpaged directory lists); entries it no longer holds are deleted.
   * @throws {ChartValidationError} when the directory fails `checkDirectory`
   */
  writeDirectory(directory: Directory): Promise<PostgresWriteSummary>;
  /** End the pool when the writer made it. */
  close(): Promise<void>;
}

/** The order key of a date as stored: a safe integer, or null for an unknown date (sorts last). */
function sortKey(value: unknown): number | null {
  const key = isoOrderKey(typeof value === 'string' ? value : undefined);
  return Number.isFinite(key) ? key : null;
}

/** A chart's record kinds: table, field of the chart, and its sort keys. */
const KINDS: readonly {
  readonly table: string;
  readonly field: 'encounters' | 'notes' | 'assessments' | 'medicalHistory';
  readonly keys: (record: Record<string, unknown>) => readonly (number | null)[];
}[] = [
  { table: 'encounters', field: 'encounters', keys: (e) => [sortKey((e['period'] as { start?: unknown } | undefined)?.start)] },
  { table: 'notes', field: 'notes', keys: (n) => [sortKey(n['authored'])] },
  { table: 'assessments', field: 'assessments', keys: (a) => [sortKey(a['authored'])] },
  { table: 'medical_history', field: 'medicalHistory', keys: (h) => [sortKey(h['recordedDate']), sortKey(h['onset'])] },
];

/** Issues of ids PostgreSQL cannot hold (a NUL, a lone surrogate), which the chart check lets through. */
function idIssues(chart: PatientChart, base: (string | number)[]): ChartIssue[] {
  const issues: ChartIssue[] = [];
  const message = 'cannot be stored in PostgreSQL (it holds a NUL character or a lone surrogate)';
  if (!isStorableId(chart.patient.id)) issues.push({ path: [...base, 'patient', 'id'], code: 'format', message });
  for (const { field } of KINDS) {
    (chart[field] ?? []).forEach((record, i) => {
      if (!isStorableId(record.id)) issues.push({ path: [...base, field, i, 'id'], code: 'format', message });
    });
  }
  return issues;
}

/** Check a batch: every chart passes the chart check, every id can be stored, no patient twice. */
function checkBatch(charts: readonly PatientChart[]): void {
  if (!Array.isArray(charts)) throw new InvalidArgumentError('charts', 'must be an array');
  const issues: ChartIssue[] = [];
  const seen = new Set<string>();
  charts.forEach((chart, i) => {
    const found = checkPatientChart(chart);
    for (const issue of found) issues.push({ ...issue, path: [i, ...issue.path] });
    if (found.length > 0) return;
    issues.push(...idIssues(chart, [i]));
    if (seen.has(chart.patient.id)) issues.push({ path: [i, 'patient', 'id'], code: 'duplicate', message: 'duplicates the id of an earlier patient of the batch' });
    seen.add(chart.patient.id);
  });
  if (issues.length > 0) throw new ChartValidationError(issues);
}

async function inTransaction<T>(connection: Connection, work: (client: PostgresPoolClient) => Promise<T>): Promise<T> {
  let client: PostgresPoolClient;
  try {
    client = await connection.pool.connect();
  } catch (error) {
    throw readError(error);
  }
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw readError(error);
  } finally {
    client.release(broken);
  }
}

/** The statements of one record kind: delete what a chart no longer holds, upsert what it holds. */
interface KindSql {
  readonly remove: string;
  readonly upsert: string;
}

function kindSql(s: string, table: string, two: boolean): KindSql {
  const keyColumns = two ? 'sort_key, sort_key_2' : 'sort_key';
  const keyTypes = two ? '$4::bigint[], $5::bigint[]' : '$4::bigint[]';
  const recordParam = two ? '$6' : '$5';
  const keySet = two ? 'sort_key = EXCLUDED.sort_key, sort_key_2 = EXCLUDED.sort_key_2' : 'sort_key = EXCLUDED.sort_key';
  const columns = two ? ['position', 'sort_key', 'sort_key_2'] : ['position', 'sort_key'];
  const before = [...columns.map((c) => `t.${c}`), 't.record::text'].join(', ');
  const after = [...columns.map((c) => `EXCLUDED.${c}`), 'EXCLUDED.record::text'].join(', ');
  return {
    remove: `DELETE FROM ${s}.${table} AS t WHERE t.patient_id = ANY($1::text[])
AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) AS k(patient_id, id) WHERE k.patient_id = t.patient_id AND k.id = t.id)`,
    // Rows already as given are left alone: writing the same chart again changes (and counts) nothing.
    upsert: `INSERT INTO ${s}.${table} AS t (patient_id, id, position, ${keyColumns}, record)
SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], ${keyTypes}, ${recordParam}::json[])
ON CONFLICT (patient_id, id) DO UPDATE SET position = EXCLUDED.position, ${keySet}, record = EXCLUDED.record
WHERE (${before}) IS DISTINCT FROM (${after})`,
  };
}

/** The columns of one record kind over a batch of charts, as arrays for `unnest`. */
function kindColumns(charts: readonly PatientChart[], kind: (typeof KINDS)[number]): unknown[] {
  const owners: string[] = [];
  const ids: string[] = [];
  const positions: number[] = [];
  const keyColumns: (number | null)[][] = [[], []];
  const records: string[] = [];
  for (const chart of charts) {
    (chart[kind.field] ?? []).forEach((record, i) => {
      owners.push(chart.patient.id);
      ids.push(record.id);
      positions.push(i);
      kind.keys(record as unknown as Record<string, unknown>).forEach((key, j) => (keyColumns[j] as (number | null)[]).push(key));
      records.push(JSON.stringify(record));
    });
  }
  return kind.keys({}).length === 2 ? [owners, ids, positions, keyColumns[0], keyColumns[1], records] : [owners, ids, positions, keyColumns[0], records];
}

/** Write a checked batch of charts on a connection inside a transaction. */
async function writeCharts(client: PostgresPoolClient, s: string, sql: readonly KindSql[], charts: readonly PatientChart[]): Promise<PostgresWriteSummary> {
  const patientIds = charts.map((c) => c.patient.id);
  const upsertPatients = `INSERT INTO ${s}.patients AS t (id, record)
SELECT * FROM unnest($1::text[], $2::json[])
ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record, updated_at = now()
WHERE t.record::text IS DISTINCT FROM EXCLUDED.record::text`;
  let changedRows = (await client.query(upsertPatients, [patientIds, charts.map((c) => JSON.stringify(c.patient))])).rowCount ?? 0;
  let deletedRows = 0;
  for (let k = 0; k < KINDS.length; k++) {
    const columns = kindColumns(charts, KINDS[k] as (typeof KINDS)[number]);
    const statements = sql[k] as KindSql;
    deletedRows += (await client.query(statements.remove, [patientIds, columns[0], columns[1]])).rowCount ?? 0;
    if ((columns[1] as string[]).length > 0) changedRows += (await client.query(statements.upsert, columns)).rowCount ?? 0;
  }
  return { records: charts.length, changedRows, deletedRows };
}

const DIRECTORY_KINDS = ['organizations', 'practitioners', 'locations'] as const;

/** Replace the directory on a connection inside a transaction. */
async function writeDirectoryRows(client: PostgresPoolClient, s: string, directory: Directory): Promise<PostgresWriteSummary> {
  let changedRows = 0;
  let deletedRows = 0;
  let records = 0;
  for (const table of DIRECTORY_KINDS) {
    const entries = directory[table] ?? [];
    records += entries.length;
    const ids = entries.map((e) => e.id);
    deletedRows += (await client.query(`DELETE FROM ${s}.${table} WHERE NOT (id = ANY($1::text[]))`, [ids])).rowCount ?? 0;
    if (entries.length === 0) continue;
    const upsert = `INSERT INTO ${s}.${table} AS t (id, position, record)
SELECT * FROM unnest($1::text[], $2::integer[], $3::json[])
ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, record = EXCLUDED.record
WHERE (t.position, t.record::text) IS DISTINCT FROM (EXCLUDED.position, EXCLUDED.record::text)`;
    changedRows += (await client.query(upsert, [ids, entries.map((_, i) => i), entries.map((e) => JSON.stringify(e))])).rowCount ?? 0;
  }
  return { records, changedRows, deletedRows };
}

/** The directory's issues: the chart check's, and ids PostgreSQL cannot hold. */
function directoryIssues(directory: Directory): ChartIssue[] {
  const issues = checkDirectory(directory);
  for (const field of DIRECTORY_KINDS) {
    (directory?.[field] ?? []).forEach((entry, i) => {
      if (!isStorableId(entry.id)) issues.push({ path: [field, i, 'id'], code: 'format', message: 'cannot be stored in PostgreSQL (it holds a NUL character or a lone surrogate)' });
    });
  }
  return issues;
}

/**
 * Create a writer of charts to the package's PostgreSQL tables (migrated first: `migratePostgres`).
 *
 * @param options - a `pg` pool or a connection string, and the schema
 * @returns the writer; `close()` ends a pool it made
 * @throws {InvalidArgumentError} for unusable options
 * @example
 * const writer = createPostgresChartWriter({ connectionString: process.env.DATABASE_URL });
 * await writer.writeDirectory(document.directory ?? {});
 * await writer.writePatientCharts(document.patients);
 * await writer.close();
 */
export function createPostgresChartWriter(options: PostgresChartWriterOptions): PostgresChartWriter {
  const connection = openConnection(options, 'createPostgresChartWriter');
  const s = connection.schema;
  const sql = KINDS.map(({ table, keys }) => kindSql(s, table, keys({}).length === 2));
  return {
    async writePatientCharts(charts) {
      checkBatch(charts);
      if (charts.length === 0) return { records: 0, changedRows: 0, deletedRows: 0 };
      return inTransaction(connection, (client) => writeCharts(client, s, sql, charts));
    },
    async writeDirectory(directory) {
      const issues = directoryIssues(directory);
      if (issues.length > 0) throw new ChartValidationError(issues);
      return inTransaction(connection, (client) => writeDirectoryRows(client, s, directory));
    },
    close: () => connection.close(),
  };
}
