/**
 * The package's PostgreSQL schema, as versioned migrations shipped in the package: each one SQL text,
 * applied once, in order, recorded in `schema_migrations`, under an advisory lock so that instances that
 * start together (or `chart-export db migrate` run twice) apply each migration exactly once.
 *
 * The schema follows the chart model: one table per record kind, the record kept whole as JSON text (so
 * fields the package does not index, and fields added later, pass through unchanged), with the columns the
 * routes look up copied out at write time and indexed: the patient id, the record id, the newest-first sort
 * keys (the core's exact order key of the record's dates; NULL for an unknown date, which sorts last) and
 * the record's place in its chart (the tie-break, as the in-memory source keeps document order among equals).
 * Ids use `COLLATE "C"`: byte order of UTF-8, the code-point order of the keyset pages.
 */
import { InvalidArgumentError } from '../index.js';
import { openConnection, readError, type Connection, type PostgresConnectionOptions } from './connection.js';

/** One migration: a version (1, 2, …), a name, and SQL in which `$schema$` stands for the quoted schema. */
export interface PostgresMigration {
  /** The version: consecutive integers from 1. */
  readonly version: number;
  /** What it does, in a few words. */
  readonly name: string;
  /** The statements, run in one transaction. */
  readonly sql: string;
}

/** The record tables of patient charts: table name and the number of sort keys. */
const CHART_TABLES = [
  ['encounters', 1],
  ['notes', 1],
  ['assessments', 1],
  ['medical_history', 2],
] as const;

function chartTable(name: string, keys: number): string {
  const keyColumns = keys === 1 ? 'sort_key bigint,' : 'sort_key bigint,\n  sort_key_2 bigint,';
  const keyOrder = keys === 1 ? 'sort_key DESC NULLS LAST' : 'sort_key DESC NULLS LAST, sort_key_2 DESC NULLS LAST';
  return `CREATE TABLE $schema$.${name} (
  patient_id text COLLATE "C" NOT NULL REFERENCES $schema$.patients (id) ON DELETE CASCADE,
  id text COLLATE "C" NOT NULL,
  position integer NOT NULL,
  ${keyColumns}
  record json NOT NULL,
  PRIMARY KEY (patient_id, id)
);
CREATE INDEX ${name}_newest ON $schema$.${name} (patient_id, ${keyOrder}, position);`;
}

function directoryTable(name: string): string {
  return `CREATE TABLE $schema$.${name} (
  id text COLLATE "C" PRIMARY KEY,
  position integer NOT NULL,
  record json NOT NULL
);
CREATE INDEX ${name}_position ON $schema$.${name} (position);`;
}

/** Every migration of the package, in order. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = Object.freeze([
  Object.freeze({
    version: 1,
    name: 'chart records, directory and API keys',
    sql: [
      `CREATE TABLE $schema$.patients (
  id text COLLATE "C" PRIMARY KEY,
  record json NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`,
      ...CHART_TABLES.map(([name, keys]) => chartTable(name, keys)),
      directoryTable('organizations'),
      directoryTable('practitioners'),
      directoryTable('locations'),
      `CREATE TABLE $schema$.api_keys (
  key_id text COLLATE "C" PRIMARY KEY,
  key_hash char(64) NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  partner_id text NOT NULL,
  scopes text[] NOT NULL,
  rate_limit integer NOT NULL CHECK (rate_limit > 0),
  window_seconds integer NOT NULL CHECK (window_seconds > 0),
  revoked boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);`,
    ].join('\n'),
  }),
]);

/** The schema version this package reads and writes: the last migration's. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

/** What {@link migratePostgres} did. */
export interface PostgresMigrationResult {
  /** The versions applied by this call, in order (empty when the schema was up to date). */
  readonly applied: readonly number[];
  /** The schema's version afterwards. */
  readonly version: number;
}

/** The SQL of a migration for a schema. */
export function migrationSql(migration: PostgresMigration, schema: string): string {
  return migration.sql.replaceAll('$schema$', schema);
}

/** Apply the missing migrations over an open connection (see {@link migratePostgres}). */
export async function migrateConnection(connection: Connection, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<PostgresMigrationResult> {
  let client;
  try {
    client = await connection.pool.connect();
  } catch (error) {
    throw readError(error);
  }
  const { schema, schemaName } = connection;
  let failed = false;
  try {
    await client.query('BEGIN');
    // One lock per schema, held to the end of the transaction: concurrent migrators run one after the other,
    // and the second finds the versions the first applied.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`chart-export migrations ${schemaName}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`);
    const done = await client.query(`SELECT version FROM ${schema}.schema_migrations`);
    const have = new Set(done.rows.map((r) => Number(r['version'])));
    const newest = Math.max(0, ...have);
    if (newest > migrations.length) {
      throw new InvalidArgumentError('schema', `is at version ${newest}, newer than this package knows (${migrations.length}): upgrade chart-export`);
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (have.has(migration.version)) continue;
      await client.query(migrationSql(migration, schema));
      await client.query(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return { applied, version: migrations.length };
  } catch (error) {
    failed = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw readError(error);
  } finally {
    client.release(failed);
  }
}

/**
 * Create or upgrade the package's tables in PostgreSQL: every migration not yet applied to the schema, in
 * order, in one transaction, under an advisory lock (safe to run from several instances at once; a second run
 * applies nothing). `chart-export db migrate` runs it. Needs the right to create a schema and tables.
 *
 * @param options - the pool or connection string, and the schema (default `chart_export`)
 * @returns the versions applied and the schema's version
 * @throws {InvalidArgumentError} for unusable options, or a schema newer than this package
 * @throws {DataSourceUnavailableError} when PostgreSQL cannot be reached; the driver's error for any other failure
 * @example
 * const { applied } = await migratePostgres({ connectionString: process.env.DATABASE_URL });
 */
export async function migratePostgres(options: PostgresConnectionOptions): Promise<PostgresMigrationResult> {
  const connection = openConnection(options, 'migratePostgres');
  try {
    return await migrateConnection(connection);
  } finally {
    await connection.close();
  }
}
