/**
 * chart-export/postgres: PostgreSQL as the data source and key store of the HTTP adapter, for charts beyond
 * one process's memory and for several instances sharing one database. Node only; needs the `pg` package
 * (an optional peer dependency of chart-export). The schema belongs to the package: create and upgrade it
 * with `migratePostgres` (or `chart-export db migrate`), fill it with `createPostgresChartWriter` (or
 * `chart-export db import FILE`). See docs/postgres.md.
 *
 * @packageDocumentation
 */

// Connection
export { DEFAULT_POSTGRES_SCHEMA } from './connection.js';
export type { PostgresConnectionOptions, PostgresPool, PostgresPoolClient, PostgresQueryResult } from './connection.js';

// Schema
export { migratePostgres, POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './migrations.js';
export type { PostgresMigration, PostgresMigrationResult } from './migrations.js';

// Charts
export { createPostgresDataSource } from './data-source.js';
export type { PostgresDataSource, PostgresDataSourceOptions } from './data-source.js';
export { createPostgresChartWriter } from './writer.js';
export type { PostgresChartWriter, PostgresChartWriterOptions, PostgresWriteSummary } from './writer.js';

// Keys
export { createPostgresKeyStore } from './key-store.js';
export type { PostgresKeyEntry, PostgresKeyListing, PostgresKeyStore, PostgresKeyStoreOptions } from './key-store.js';
