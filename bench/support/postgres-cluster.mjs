// A throwaway PostgreSQL cluster for the PostgreSQL benchmark, as test/support/postgres-server.ts makes one for
// the tests: initdb in a temporary directory, the server on a free loopback port (as `nobody` when run as
// root), removed by close(). Debian's server binaries (/usr/lib/postgresql/<version>/bin) or the PATH.
// Durable settings stay on (fsync, synchronous commit): the import's throughput is measured against them.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

function binDir() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function asOwner(file, args) {
  return process.getuid?.() === 0 ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', file, ...args]] : [file, args];
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Start a cluster; resolves once it answers a query.
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startCluster() {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'chart-export-pg-bench-'));
  if (process.getuid?.() === 0) {
    chownSync(dir, 65534, 65534);
    chmodSync(dir, 0o700);
  }
  const data = join(dir, 'data');
  const [initFile, initArgs] = asOwner(bin === undefined ? 'initdb' : join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-instructions']);
  const init = spawnSync(initFile, initArgs, { encoding: 'utf8', cwd: dir });
  if (init.status !== 0) throw new Error(`initdb failed (apt-get install postgresql): ${init.error?.message ?? init.stderr}`);
  const port = await freePort();
  const settings = ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'max_connections=100', '-c', 'shared_buffers=128MB'];
  const [file, args] = asOwner(bin === undefined ? 'postgres' : join(bin, 'postgres'), settings);
  const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'ignore'], cwd: dir });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('postgres did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    async close() {
      if (child.exitCode === null) {
        await new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGINT');
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
