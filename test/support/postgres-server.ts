/**
 * A real PostgreSQL for tests: a throwaway cluster (`initdb`) in a temporary directory, started with the
 * `postgres` binary on a free loopback port, stoppable and restartable mid-test on the same port (to test an
 * outage), removed afterwards. PostgreSQL refuses to run as root: when the tests run as root, the cluster
 * belongs to the unprivileged user `nobody` and the binaries run under it through `setpriv`. Needs Debian's
 * `postgresql` package (server binaries under /usr/lib/postgresql/<version>/bin; `.ci/run` installs it) or
 * `initdb` and `postgres` on the PATH.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findFreePort, stopProcess } from './server-process.js';

/** A running test cluster. */
export interface PostgresTestServer {
  /** Its port on 127.0.0.1 (the same across restarts). */
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  readonly url: string;
  /** Stop the server (fast shutdown: open connections are cut). Idempotent. */
  stop(): Promise<void>;
  /** Start it again on the same port, with its data, and wait until it accepts connections. */
  start(): Promise<void>;
  /** Stop it and remove its directory (for `afterAll`). */
  close(): Promise<void>;
}

/** The folder holding `initdb` and `postgres`: the newest Debian version, else the PATH. */
function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** True when the server answers a query (it accepts connections before it has finished starting up). */
async function answers(port: number): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The command line that runs `file` as the cluster's owner: itself, or under `nobody` when we are root. */
function asOwner(file: string, args: readonly string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [file, [...args]];
  return ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', file, ...args]];
}

/**
 * Create and start a throwaway PostgreSQL cluster for a test file.
 * @returns the running server; call `close()` in `afterAll`
 * @throws when PostgreSQL is not installed or does not start within 30 s
 */
export async function startPostgresServer(): Promise<PostgresTestServer> {
  const bin = findBinDir();
  const initdb = bin === undefined ? 'initdb' : join(bin, 'initdb');
  const postgres = bin === undefined ? 'postgres' : join(bin, 'postgres');
  const dir = mkdtempSync(join(tmpdir(), 'chart-export-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    chownSync(dir, 65534, 65534);
    chmodSync(dir, 0o700);
  }
  const [initFile, initArgs] = asOwner(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  const init = spawnSync(initFile, initArgs, { encoding: 'utf8', cwd: dir });
  if (init.error !== undefined || init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    const why = init.error?.message ?? init.stderr;
    throw new Error(`cannot create a PostgreSQL cluster (install it: apt-get install postgresql): ${why}`);
  }
  const port = await findFreePort();
  let child: ChildProcess | undefined;
  let stderr = '';

  async function start(): Promise<void> {
    if (child !== undefined) return;
    const settings = [
      '-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir,
      // A test cluster: no durability, small memory, quick to stop.
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
      '-c', 'shared_buffers=16MB', '-c', 'max_connections=60', '-c', 'logging_collector=off', '-c', 'log_min_messages=fatal',
    ];
    const [file, args] = asOwner(postgres, settings);
    const started = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
    child = started;
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    let spawnError: Error | undefined;
    started.once('error', (error) => {
      spawnError = error;
    });
    started.once('exit', () => {
      if (child === started) child = undefined;
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (spawnError !== undefined) {
        child = undefined;
        throw new Error(`cannot start postgres: ${spawnError.message}`);
      }
      if (await answers(port)) return;
      if (child === undefined || Date.now() > deadline) {
        await stop();
        throw new Error(`postgres did not answer on port ${port}: ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    if (running === undefined) return;
    child = undefined;
    // SIGINT: PostgreSQL's fast shutdown (rolls back open transactions, closes connections).
    await stopProcess(running, 'SIGINT');
  }

  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
