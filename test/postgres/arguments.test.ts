/**
 * chart-export/postgres with garbage arguments (no server needed): every factory throws a typed
 * `InvalidArgumentError` for options it cannot use, never a `TypeError`; the data source and key store reject
 * bad method arguments the same way, before any query, or take them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartExportError, InvalidArgumentError } from '../../src/index.js';
import { createPostgresChartWriter, createPostgresDataSource, createPostgresKeyStore, migratePostgres } from '../../src/postgres/index.js';
import { runs } from '../support/runs.js';

class Accepted extends Error {}
/** A pool that refuses every connection with {@link Accepted}: the arguments were taken, a query would run. */
const idlePool = { connect: () => Promise.reject(new Accepted('accepted')), on: () => undefined, end: () => Promise.resolve() };

describe('chart-export/postgres factories', () => {
  it('should throw InvalidArgumentError for options they cannot use', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (options) => {
        for (const make of [createPostgresDataSource, createPostgresKeyStore, createPostgresChartWriter]) {
          try {
            (make as (o: unknown) => unknown)(options);
          } catch (error) {
            expect(error).toBeInstanceOf(InvalidArgumentError);
          }
        }
      }),
      { numRuns: runs(200) },
    );
    expect(() => createPostgresDataSource({ pool: idlePool, schema: 'Robert"); DROP TABLE x;--' })).toThrow(InvalidArgumentError);
    expect(() => createPostgresDataSource({ pool: idlePool, connectionString: 'postgres://h/db' })).toThrow(/either pool or connectionString/);
    expect(() => createPostgresDataSource({})).toThrow(InvalidArgumentError);
    expect(() => createPostgresKeyStore({ pool: idlePool, cacheTtlMs: -1 })).toThrow(InvalidArgumentError);
  });

  it('should give the connection back, closed, when the driver throws at once on a query', async () => {
    const released: unknown[] = [];
    const refused = new Error('the driver refused the query');
    const client = {
      query: () => {
        throw refused;
      },
      release: (destroy?: unknown) => released.push(destroy),
    };
    const pool = { connect: () => Promise.resolve(client), on: () => undefined, end: () => Promise.resolve() };
    const dataSource = createPostgresDataSource({ pool });
    await expect(dataSource.getPatient('p1', new AbortController().signal)).rejects.toBe(refused);
    await expect(dataSource.getPatient('p2')).rejects.toBe(refused);
    expect(released).toEqual([true, true]);
  });

  it('should reject bad method arguments with a typed error, or answer nothing, without a query', async () => {
    const dataSource = createPostgresDataSource({ pool: idlePool });
    const keys = createPostgresKeyStore({ pool: idlePool });
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (value) => {
        for (const call of [
          () => dataSource.listPatients(value as never),
          () => dataSource.listNotes('p', value as never),
          () => keys.add(value as never),
        ]) {
          const outcome = await call().then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
          // A typed refusal, arguments taken (the query would run), or (limit 0) an answer given without the pool.
          if ('error' in outcome) expect(outcome.error instanceof ChartExportError || outcome.error instanceof Accepted, String(outcome.error)).toBe(true);
          else expect(outcome.result).toEqual([]);
        }
      }),
      { numRuns: runs(200) },
    );
    expect(await keys.lookup('')).toBeUndefined();
    expect(await keys.lookup(42 as never)).toBeUndefined();
    await expect(migratePostgres({ pool: idlePool, schema: 'UPPER' })).rejects.toThrow(InvalidArgumentError);
  });
});
