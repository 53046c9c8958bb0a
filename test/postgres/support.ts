/**
 * Helpers of the PostgreSQL tests: a migrated schema of its own per test (so tests share one cluster per
 * file without seeing each other's rows), and a chart document written to it.
 */
import pg from 'pg';
import type { ChartDocument } from '../../src/index.js';
import { createPostgresChartWriter, migratePostgres } from '../../src/postgres/index.js';

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

/** Migrate `schema` and write `doc` to it (directory, then the charts in batches of `batch`). */
export async function writeDocument(pool: pg.Pool, schema: string, doc: ChartDocument, batch = 50): Promise<void> {
  await migratePostgres({ pool, schema });
  const writer = createPostgresChartWriter({ pool, schema });
  await writer.writeDirectory(doc.directory ?? {});
  for (let i = 0; i < doc.patients.length; i += batch) await writer.writePatientCharts(doc.patients.slice(i, i + batch));
}
