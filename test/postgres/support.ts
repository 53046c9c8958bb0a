/**
 * Helpers of the PostgreSQL tests: one cluster and pool per test file, a migrated schema of its own per test (so tests share one cluster per
 * file without seeing each other's rows), and a chart document written to it.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { ChartDocument } from '../../src/index.js';
import { createPostgresChartWriter, migratePostgres } from '../../src/postgres/index.js';
import { startPostgresServer, type PostgresTestServer } from '../support/postgres-server.js';

let counter = 0;

/** A fresh schema name for one test. */
export function freshSchema(prefix = 't'): string {
  counter += 1;
  return `${prefix}_${process.pid}_${counter}`;
}

/** A pool for the tests of a file; idle-client errors (a stopped server) are expected and ignored. */
export function testPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}

/** The cluster and pool of a test file, set before its tests run (see {@link usePostgres}). */
export interface PostgresForTests {
  server: PostgresTestServer;
  pool: pg.Pool;
}

/**
 * Start a PostgreSQL cluster and a pool on it before the tests of the calling file, and stop both after them.
 * @returns the cluster and pool, filled in before the file's first test (and its own `beforeAll` hooks declared later)
 */
export function usePostgres(): PostgresForTests {
  const db = {} as PostgresForTests;
  beforeAll(async () => {
    db.server = await startPostgresServer();
    db.pool = testPool(db.server.url);
  });
  afterAll(async () => {
    await db.pool?.end();
    await db.server?.close();
  });
  return db;
}

/** Migrate `schema` and write `doc` to it (directory, then the charts in batches of `batch`). */
export async function writeDocument(pool: pg.Pool, schema: string, doc: ChartDocument, batch = 50): Promise<void> {
  await migratePostgres({ pool, schema });
  const writer = createPostgresChartWriter({ pool, schema });
  await writer.writeDirectory(doc.directory ?? {});
  for (let i = 0; i < doc.patients.length; i += batch) await writer.writePatientCharts(doc.patients.slice(i, i + batch));
}
