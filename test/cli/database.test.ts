/**
 * The command over PostgreSQL, in this process against a real server: `db migrate`, `db import` (refused
 * with paths and nothing written; then idempotent), `keys add | revoke | list`, and the service started with
 * `--database-url` serving charts and keys from it, a revocation taking effect without a reload. No line
 * printed holds the URL's password.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/http/index.js';
import { runDatabaseCommand } from '../../src/cli/database-commands.js';
import { HELP_TEXT, parseCliOptions, UsageError } from '../../src/cli/command-line.js';
import { startService } from '../../src/cli/run.js';
import { startPostgresServer, type PostgresTestServer } from '../support/postgres-server.js';

const SECRET = 'pw-S3CRET-mark';
const DEMO = new URL('../../examples/data/demo-chart.json', import.meta.url).pathname;

let server: PostgresTestServer;
let url: string;
let pool: pg.Pool;
let dir: string;

beforeAll(async () => {
  server = await startPostgresServer();
  // Trust authentication ignores the password: it is there to be hidden.
  url = `postgres://postgres:${SECRET}@127.0.0.1:${server.port}/postgres`;
  pool = new pg.Pool({ connectionString: server.url });
  pool.on('error', () => undefined);
  dir = mkdtempSync(join(tmpdir(), 'chart-export-db-cli-'));
});

afterAll(async () => {
  await pool?.end();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Run a subcommand; its exit status and every line it printed. */
async function run(...argv: string[]): Promise<{ status: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runDatabaseCommand(argv, { CHART_EXPORT_DATABASE_URL: url, CHART_EXPORT_DATABASE_SCHEMA: 'cli' }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  expect([...out, ...err].join('\n')).not.toContain(SECRET);
  return { status, out, err };
}

const count = async (table: string): Promise<number> => (await pool.query(`SELECT count(*)::int AS n FROM cli.${table}`)).rows[0].n as number;

describe('chart-export db', () => {
  it('should migrate once, then say the schema is up to date', async () => {
    const first = await run('db', 'migrate');
    expect(first).toMatchObject({ status: 0, out: ['Applied migration 1: the schema cli is at version 1.'] });
    expect((await run('db', 'migrate')).out).toEqual(['The schema cli is up to date (version 1).']);
  });

  it('should refuse a document that fails the chart check, listing paths, and write nothing', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ patients: [{ patient: { id: 'p1', identifiers: [], names: [], birthDate: 'SECRET-DOB' } }, { patient: { id: 'p1' } }, { patient: { id: 'p2', names: [] }, notes: [{ id: 'n1', authorId: 'nobody' }] }] }));
    const result = await run('db', 'import', bad);
    expect(result.status).toBe(1);
    expect(result.err[0]).toMatch(/is not a valid chart document \(\d+ problems\); nothing was written:/);
    expect(result.err.join('\n')).toContain('patients[0].patient.birthDate');
    expect(result.err.join('\n')).toContain('patients[1].patient.id');
    expect(result.err.join('\n')).toContain('patients[2].notes[0]');
    expect(result.err.join('\n')).not.toContain('SECRET-DOB');
    expect(await count('patients')).toBe(0);
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{"patients": [ {"patient": SECRET-VALUE');
    const parsed = await run('db', 'import', notJson);
    expect(parsed.status).toBe(1);
    expect(parsed.err.join('\n')).toMatch(/is not valid JSON/);
    expect(parsed.err.join('\n')).not.toContain('SECRET-VALUE');
    expect((await run('db', 'import', join(dir, 'missing.json'))).err[0]).toMatch(/no such file/);
  });

  it('should import the demo chart, and import it again without duplicating or changing anything', async () => {
    const first = await run('db', 'import', DEMO, '--batch-size', '5');
    expect(first.status).toBe(0);
    expect(first.out[0]).toMatch(/^Imported 24 patients and the directory \(\d+ organizations?, \d+ practitioners?, \d+ locations?\) into postgres:\/\/postgres:\*\*\*\*@/);
    const rows = [await count('patients'), await count('encounters'), await count('notes'), await count('assessments'), await count('medical_history')];
    const again = await run('db', 'import', DEMO);
    expect(again.out[0]).toMatch(/: 0 rows written, 0 rows deleted\.$/);
    expect([await count('patients'), await count('encounters'), await count('notes'), await count('assessments'), await count('medical_history')]).toEqual(rows);
  });

  it('should answer usage errors with status 2', async () => {
    expect((await run('db')).status).toBe(2);
    expect((await run('db', 'import')).status).toBe(2);
    expect((await run('keys', 'add', '--id', 'x')).status).toBe(2);
    expect((await run('keys', 'frobnicate')).status).toBe(2);
    expect((await run('db', 'migrate', '--nope')).status).toBe(2);
  });
});

describe('chart-export keys and the service over PostgreSQL', () => {
  it('should print a new key once, store its hash only, serve with it, and stop within seconds of a revocation', async () => {
    // Arrange: a key added by the command.
    const added = await run('keys', 'add', '--id', 'acme-1', '--partner', 'acme', '--rate-limit', '100/60');
    expect(added.status).toBe(0);
    const key = added.out[2]?.trim() as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = JSON.stringify((await pool.query('SELECT * FROM cli.api_keys')).rows);
    expect(stored).not.toContain(key);
    expect(stored).toContain(await hashApiKey(key));
    expect((await run('keys', 'add', '--id', 'acme-1', '--partner', 'acme')).status).toBe(2);
    expect((await run('keys', 'list')).out[0]).toMatch(/^acme-1 {2}partner acme {2}fhir:export, hl7:export {2}100 per 60 s {2}added \S+ {2}active$/);
    // The service, started with --database-url (charts and keys from PostgreSQL).
    const out: string[] = [];
    const err: string[] = [];
    const options = parseCliOptions(['--port', '0', '--database-url', url, '--database-schema', 'cli'], {});
    const service = await startService(options, { out: (l) => out.push(l), err: (l) => err.push(l) });
    try {
      expect([...out, ...err].join('\n')).not.toContain(SECRET);
      expect(out.join('\n')).toContain('Serving charts from PostgreSQL at postgres://postgres:****@127.0.0.1');
      const base = `http://127.0.0.1:${service.address.port}`;
      const get = (path: string): Promise<Response> => fetch(`${base}${path}`, { headers: { 'x-api-key': key } });
      expect((await get('/exportFhirPatient?patientId=pat-0001')).status).toBe(200);
      expect((await get('/readyz')).status).toBe(200);
      // Act
      expect((await run('keys', 'revoke', 'acme-1')).status).toBe(0);
      const revoked = Date.now();
      // Assert: within the key store's cache time (2 s), without a reload.
      let status = 200;
      while (status === 200 && Date.now() - revoked < 5000) {
        status = (await get('/exportFhirPatient?patientId=pat-0001')).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(401);
      expect(Date.now() - revoked).toBeLessThan(2000 + 1000);
      expect((await run('keys', 'list')).out[0]).toMatch(/REVOKED \S+$/);
      expect((await run('keys', 'revoke', 'no-such')).status).toBe(1);
    } finally {
      await service.stop(1000);
    }
  });

  it('should document the database options and subcommands in --help', () => {
    for (const name of ['--database-url', 'CHART_EXPORT_DATABASE_URL', '--database-schema', 'CHART_EXPORT_DATABASE_SCHEMA', 'db migrate', 'db import FILE', 'keys add']) {
      expect(HELP_TEXT).toContain(name);
    }
  });

  it('should read --database-url and CHART_EXPORT_DATABASE_URL, refuse it beside --data, and never quote it', () => {
    expect(parseCliOptions([], { CHART_EXPORT_DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(() => parseCliOptions(['--database-url', url, '--data', 'x.json'], {})).toThrow(UsageError);
    for (const bad of [`mysql://u:${SECRET}@h/db`, `postgres://:${SECRET}@/db`, SECRET]) {
      let message = '';
      try {
        parseCliOptions(['--database-url', bad], {});
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/--database-url/);
      expect(message).not.toContain(SECRET);
    }
  });
});
