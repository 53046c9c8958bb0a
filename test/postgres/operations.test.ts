/**
 * The PostgreSQL data source under failure, against a real server: a client that goes away cancels its
 * query (gone from pg_stat_activity), a slow query gives 503 at the handler's time-out and is cancelled, a
 * full pool fails fast with 503, a stopped server gives 503 (and /readyz 503) and a started one 200 again
 * without a restart, an idle connection's error is no crash, a bad record gives 500 without patient data,
 * migrations run once under concurrency, and writes are idempotent.
 */
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { createExportHandler, toNodeListener } from '../../src/http/index.js';
import { createPostgresChartWriter, createPostgresDataSource, migratePostgres, POSTGRES_SCHEMA_VERSION } from '../../src/postgres/index.js';
import { CHART_DOCUMENT, KEYS } from '../http/support/fixture.js';
import { fixtureOptions, listen, serve } from '../http/support/harness.js';
import { freshSchema, testPool, usePostgres, writeDocument } from './support.js';

const db = usePostgres();
const schema = freshSchema('ops');
const PATIENT = CHART_DOCUMENT.patients[0]?.patient.id as string;
const q = encodeURIComponent;

beforeAll(async () => {
  await writeDocument(db.pool, schema, CHART_DOCUMENT);
});

/** Poll until `check` passes or `ms` pass; returns whether it passed. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** Queries of the data source on the patients table that are running now (waiting included). */
async function runningPatientQueries(): Promise<number> {
  const result = await db.pool.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
    [`SELECT record::text AS record FROM "${schema}".patients%`],
  );
  return result.rows[0].n as number;
}

/** Hold an exclusive lock on the patients table (every read of it waits) until `release()`. */
async function lockPatients(): Promise<{ release(): Promise<void> }> {
  const client = await db.pool.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE "${schema}".patients IN ACCESS EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query('ROLLBACK');
      client.release();
    },
  };
}

describe('createPostgresDataSource: cancellation and time-outs', () => {
  it('should cancel the query on the server when the client goes away', async () => {
    // Arrange: every read of the patients table waits for the lock.
    const dataSource = createPostgresDataSource({ pool: db.pool, schema });
    const port = await listen(toNodeListener(createExportHandler(await fixtureOptions({ dataSource, dataSourceTimeoutMs: 30_000 }))));
    const lock = await lockPatients();
    try {
      // Act: a request that waits on the lock, then a client that hangs up.
      const req = request({ port, host: '127.0.0.1', path: `/exportFhirPatient?patientId=${q(PATIENT)}`, headers: { 'x-api-key': KEYS.both } });
      req.on('error', () => undefined);
      req.end();
      expect(await eventually(async () => (await runningPatientQueries()) === 1, 5000)).toBe(true);
      req.destroy();
      // Assert: the query is gone from the server while the lock is still held.
      expect(await eventually(async () => (await runningPatientQueries()) === 0, 5000)).toBe(true);
    } finally {
      await lock.release();
    }
  });

  it('should answer 503 at the data-source time-out and cancel the query', async () => {
    const dataSource = createPostgresDataSource({ pool: db.pool, schema });
    const call = await serve('fetch', await fixtureOptions({ dataSource, dataSourceTimeoutMs: 300 }));
    const lock = await lockPatients();
    try {
      const started = Date.now();
      const res = await call(`/exportFhirPatient?patientId=${q(PATIENT)}`, { headers: { 'x-api-key': KEYS.both } });
      const took = Date.now() - started;
      expect(res.status).toBe(503);
      expect(took).toBeGreaterThanOrEqual(290);
      expect(took).toBeLessThan(3000);
      expect(await eventually(async () => (await runningPatientQueries()) === 0, 5000)).toBe(true);
    } finally {
      await lock.release();
    }
    // The pool serves again afterwards (the cancelled connection was closed, not reused).
    expect((await dataSource.getPatient(PATIENT))?.id).toBe(PATIENT);
  });

  it('should fail fast with 503 when the pool stays full', async () => {
    const small = testPool(db.server.url, 1);
    const held = await small.connect();
    try {
      const dataSource = createPostgresDataSource({ pool: small, schema, acquireTimeoutMs: 150 });
      const call = await serve('fetch', await fixtureOptions({ dataSource, dataSourceTimeoutMs: 10_000 }));
      const started = Date.now();
      const res = await call(`/exportHl7PatientAdt?patientId=${q(PATIENT)}`, { headers: { 'x-api-key': KEYS.both } });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      held.release();
      await small.end();
    }
  });

  it('should reject with the signal reason at once when the signal has fired', async () => {
    const dataSource = createPostgresDataSource({ pool: db.pool, schema });
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(dataSource.getPatient(PATIENT, controller.signal)).rejects.toThrow('gone');
  });
});

describe('createPostgresDataSource: records written by others', () => {
  it('should answer 500 without patient data for a record that fails the chart check or sits in the wrong row', async () => {
    const own = freshSchema('bad');
    await writeDocument(db.pool, own, CHART_DOCUMENT);
    const dataSource = createPostgresDataSource({ pool: db.pool, schema: own });
    const errors: unknown[] = [];
    const call = await serve('fetch', await fixtureOptions({ dataSource, onError: (e) => errors.push(e) }));
    const chart = CHART_DOCUMENT.patients[0];
    const note = chart?.notes?.[0]?.id as string;
    // A birth date that is no date; a note stored under another note's id.
    await db.pool.query(`UPDATE "${own}".patients SET record = json_build_object('id', id, 'identifiers', '[]'::json, 'names', '[]'::json, 'birthDate', 'SECRET-VALUE') WHERE id = $1`, [PATIENT]);
    await db.pool.query(`UPDATE "${own}".notes SET record = (SELECT record FROM "${own}".notes WHERE id <> $1 LIMIT 1) WHERE id = $1`, [note]);
    for (const target of [`/exportFhirPatient?patientId=${q(PATIENT)}`, `/exportHl7Note?patientId=${q(PATIENT)}&noteId=${q(note)}`]) {
      const res = await call(target, { headers: { 'x-api-key': KEYS.both } });
      expect(res.status, target).toBe(500);
      expect(res.body).not.toContain('SECRET-VALUE');
    }
    expect(errors.length).toBe(2);
  });
});

describe('createPostgresDataSource: the record cache', () => {
  it('should give the same frozen record for an unchanged row, and the new record once the row changed', async () => {
    const own = freshSchema('cache');
    await writeDocument(db.pool, own, CHART_DOCUMENT);
    const dataSource = createPostgresDataSource({ pool: db.pool, schema: own });
    const first = await dataSource.getPatient(PATIENT);
    expect(Object.isFrozen(first)).toBe(true);
    expect(await dataSource.getPatient(PATIENT)).toBe(first);
    // Another writer changes the row: the next read sees it, never a stale copy.
    await db.pool.query(`UPDATE "${own}".patients SET record = json_build_object('id', id, 'identifiers', record->'identifiers', 'names', record->'names', 'gender', 'unknown') WHERE id = $1`, [PATIENT]);
    const changed = await dataSource.getPatient(PATIENT);
    expect(changed?.gender).toBe('unknown');
    expect(changed).not.toBe(first);
    // Without the cache, every read is a fresh, unfrozen record.
    const uncached = createPostgresDataSource({ pool: db.pool, schema: own, recordCacheChars: 0 });
    expect(Object.isFrozen(await uncached.getPatient(PATIENT))).toBe(false);
    expect(() => createPostgresDataSource({ pool: db.pool, schema: own, recordCacheChars: -1 })).toThrow(/recordCacheChars/);
  });
});

describe('createPostgresDataSource: PostgreSQL stopped and started', () => {
  it('should answer 503 (and /readyz 503) while stopped and 200 again once started, without a restart', async () => {
    const errors: Error[] = [];
    const dataSource = createPostgresDataSource({ connectionString: db.server.url, schema, acquireTimeoutMs: 2000, onPoolError: (e) => errors.push(e) });
    const call = await serve('fetch', await fixtureOptions({ dataSource, healthRoutes: true, dataSourceTimeoutMs: 3000 }));
    const target = `/exportFhirPatient?patientId=${q(PATIENT)}`;
    const headers = { 'x-api-key': KEYS.both };
    try {
      expect((await call(target, { headers })).status).toBe(200);
      expect((await call('/readyz')).status).toBe(200);
      // Act: stop the server; the pool's idle connection breaks (an 'error' event, no crash).
      await db.server.stop();
      expect((await call(target, { headers })).status).toBe(503);
      expect((await call('/readyz')).status).toBe(503);
      await db.server.start();
      // Assert
      expect(await eventually(async () => (await call(target, { headers })).status === 200, 10_000)).toBe(true);
      expect((await call('/readyz')).status).toBe(200);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await dataSource.close();
    }
  });

  it('should not be ready while the schema is not migrated', async () => {
    const dataSource = createPostgresDataSource({ pool: db.pool, schema: freshSchema('empty') });
    const call = await serve('fetch', await fixtureOptions({ dataSource, healthRoutes: true }));
    expect((await call('/readyz')).status).toBe(503);
  });
});

describe('migratePostgres and createPostgresChartWriter', () => {
  it('should apply each migration once when several instances migrate at the same time', async () => {
    const own = freshSchema('mig');
    const results = await Promise.all([1, 2, 3].map(() => migratePostgres({ pool: db.pool, schema: own })));
    expect(results.flatMap((r) => r.applied)).toEqual([1]);
    expect(results.every((r) => r.version === POSTGRES_SCHEMA_VERSION)).toBe(true);
    expect((await migratePostgres({ connectionString: db.server.url, schema: own })).applied).toEqual([]);
    const rows = await db.pool.query(`SELECT version FROM "${own}".schema_migrations`);
    expect(rows.rows).toEqual([{ version: 1 }]);
  });

  it('should write the same charts twice without a change, and replace what a chart no longer holds', async () => {
    const own = freshSchema('idem');
    await writeDocument(db.pool, own, CHART_DOCUMENT);
    const writer = createPostgresChartWriter({ pool: db.pool, schema: own });
    const count = async (): Promise<number> => (await db.pool.query(`SELECT (SELECT count(*) FROM "${own}".patients) + (SELECT count(*) FROM "${own}".notes) + (SELECT count(*) FROM "${own}".encounters) AS n`)).rows[0].n as number;
    const before = await count();
    // Act: the same charts again.
    const again = await writer.writePatientCharts(CHART_DOCUMENT.patients);
    expect(again).toMatchObject({ records: CHART_DOCUMENT.patients.length, changedRows: 0, deletedRows: 0 });
    expect(await count()).toBe(before);
    // A chart without its first note: that note is deleted, nothing else changes.
    const chart = CHART_DOCUMENT.patients[0] as (typeof CHART_DOCUMENT.patients)[number];
    const fewer = { ...chart, notes: (chart.notes ?? []).slice(1) };
    const changed = await writer.writePatientCharts([fewer]);
    expect(changed.deletedRows).toBe(1);
    const dataSource = createPostgresDataSource({ pool: db.pool, schema: own });
    expect(await dataSource.getNote(PATIENT, chart.notes?.[0]?.id as string)).toBeUndefined();
  });

  it('should refuse a batch with a bad chart, naming its path, and write nothing', async () => {
    const own = freshSchema('refuse');
    await migratePostgres({ pool: db.pool, schema: own });
    const writer = createPostgresChartWriter({ pool: db.pool, schema: own });
    const good = CHART_DOCUMENT.patients[0] as (typeof CHART_DOCUMENT.patients)[number];
    const bad = { patient: { ...good.patient, id: 'p-2', birthDate: 'not a date' } };
    await expect(writer.writePatientCharts([good, bad])).rejects.toMatchObject({ issues: [expect.objectContaining({ path: [1, 'patient', 'birthDate'] })] });
    await expect(writer.writePatientCharts([{ patient: { ...good.patient, id: 'a\u0000b' } }])).rejects.toMatchObject({ issues: [expect.objectContaining({ path: [0, 'patient', 'id'] })] });
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM "${own}".patients`)).rows[0].n).toBe(0);
  });
});
