/**
 * `runQuery` (src/postgres/connection.ts) over a scripted pool (no server needed): whatever the order of the
 * checkout, the query, the acquire time-out and the signal, the call settles once with the documented answer,
 * every connection checked out goes back exactly once (closed after a cancel or an unavailable server), and
 * no abort listener is left on the signal.
 */
import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DataSourceUnavailableError } from '../../src/http/index.js';
import { openConnection, runQuery, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from '../../src/postgres/connection.js';
import { runs } from '../support/runs.js';

type Checkout = 'ok' | 'refused' | 'broken' | 'never';
type Query = 'ok' | 'unavailable' | 'sql-error' | 'never' | 'throws';
type AbortAt = 'none' | 'before' | 'waiting' | 'running' | 'after';

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Let every pending promise callback and the next turn run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const ACQUIRE_MS = 15;
const RESULT: PostgresQueryResult = { rows: [{ record: '{}' }], rowCount: 1 };
const sqlError = Object.assign(new Error('relation does not exist'), { code: '42P01' });
const brokenError = new Error('a bug in the pool');

async function scenario(checkout: Checkout, query: Query, abortAt: AbortAt, lateClient: boolean) {
  const releases: unknown[] = [];
  const checkoutDone = deferred<PostgresPoolClient>();
  const queryDone = deferred<PostgresQueryResult>();
  // A query or checkout the run never reached rejects unobserved: only the run's own handling is under test.
  checkoutDone.promise.catch(() => undefined);
  queryDone.promise.catch(() => undefined);
  let connects = 0;
  // No process id: the cancel request is skipped, as for a connection that never told one.
  const client: PostgresPoolClient = {
    query: () => {
      if (query === 'throws') throw sqlError;
      return queryDone.promise;
    },
    release: (destroy?: boolean | Error) => releases.push(destroy ?? false),
  };
  const pool: PostgresPool = {
    connect: () => {
      connects++;
      return checkoutDone.promise;
    },
    on: () => undefined,
    end: () => Promise.resolve(),
  };
  // Only a checkout that never comes may reach the acquire time-out, however slow the machine's turns.
  const connection = openConnection({ pool, acquireTimeoutMs: checkout === 'never' ? ACQUIRE_MS : 60_000 }, 'test');
  const controller = new AbortController();
  const reason = new Error('the client went away');
  if (abortAt === 'before') controller.abort(reason);
  /** Let the query move on a turn, abort it when it has reached `stage`, and let it move on again. */
  const reach = async (stage: AbortAt): Promise<void> => {
    await turn();
    if (abortAt === stage) controller.abort(reason);
    await turn();
  };
  let outcome: { value: unknown } | { error: unknown } | undefined;
  let settlements = 0;
  runQuery(connection, 'SELECT 1', [], controller.signal).then(
    (value) => {
      settlements++;
      outcome = { value };
    },
    (error: unknown) => {
      settlements++;
      outcome = { error };
    },
  );
  await reach('waiting');
  if (checkout === 'ok') checkoutDone.resolve(client);
  else if (checkout === 'refused') checkoutDone.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  else if (checkout === 'broken') checkoutDone.reject(brokenError);
  else if (lateClient) {
    // The wait is given up first; the connection comes after.
    await new Promise((resolve) => setTimeout(resolve, ACQUIRE_MS + 10));
    checkoutDone.resolve(client);
  } else await new Promise((resolve) => setTimeout(resolve, ACQUIRE_MS + 10));
  await reach('running');
  if (query === 'ok') queryDone.resolve(RESULT);
  else if (query === 'unavailable') queryDone.reject(Object.assign(new Error('terminating connection'), { code: '57P01' }));
  else if (query === 'sql-error') queryDone.reject(sqlError);
  await reach('after');
  return { outcome, settlements, releases, connects, reason, listeners: getEventListeners(controller.signal, 'abort').length };
}

describe('runQuery', () => {
  it('should settle once as documented, give every connection back once, and leave no listener, in any order of events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Checkout>('ok', 'refused', 'broken', 'never'),
        fc.constantFrom<Query>('ok', 'unavailable', 'sql-error', 'never', 'throws'),
        fc.constantFrom<AbortAt>('none', 'before', 'waiting', 'running', 'after'),
        fc.boolean(),
        async (checkout, query, abortAt, lateClient) => {
          // Act
          const run = await scenario(checkout, query, abortAt, lateClient);
          // Assert: the expected answer, from the first event that decides it.
          const aborted = abortAt === 'before' || abortAt === 'waiting';
          const checkedOut = !aborted && checkout === 'ok';
          const running = checkedOut && query !== 'throws';
          // An abort after the other events still finds a query that never answers running.
          const abortsRunning = abortAt === 'running' || (abortAt === 'after' && query === 'never');
          const cancelled = running && abortsRunning && query === 'never';
          let expected: { value: unknown } | { error: unknown } | 'unavailable' | 'pending';
          if (aborted) expected = { error: run.reason };
          else if (checkout === 'never' || checkout === 'refused') expected = 'unavailable';
          else if (checkout === 'broken') expected = { error: brokenError };
          else if (query === 'throws') expected = { error: sqlError };
          else if (abortsRunning) expected = { error: run.reason };
          else if (query === 'sql-error') expected = { error: sqlError };
          else if (query === 'ok') expected = { value: RESULT };
          else if (query === 'unavailable') expected = 'unavailable';
          else expected = 'pending';
          if (expected === 'pending') {
            expect(run.settlements).toBe(0);
            return;
          }
          expect(run.settlements).toBe(1);
          if (expected === 'unavailable') expect((run.outcome as { error: unknown }).error).toBeInstanceOf(DataSourceUnavailableError);
          else expect(run.outcome).toEqual(expected);
          expect(run.connects).toBe(abortAt === 'before' ? 0 : 1);
          // Every connection back once: closed after a cancel, a refused query or a server gone; else kept.
          const late = abortAt !== 'before' && ((abortAt === 'waiting' && checkout === 'ok') || (checkout === 'never' && lateClient));
          if (late) expect(run.releases).toEqual([false]);
          else if (!checkedOut) expect(run.releases).toEqual([]);
          else if (cancelled || query === 'throws' || query === 'unavailable' || (abortsRunning && query !== 'never')) {
            expect(run.releases).toEqual([true]);
          } else expect(run.releases).toEqual([false]);
          expect(run.listeners).toBe(0);
        },
      ),
      { numRuns: runs(60) },
    );
  });
});
