/**
 * A real `redis-server` for tests: started on a free loopback port in a temporary directory, without
 * persistence, and stoppable and restartable mid-test on the same port (to test a Redis outage). Needs the
 * `redis-server` binary on the PATH (Debian: `apt-get install redis-server`; `.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort, stopProcess } from './server-process.js';

/** A running test server. */
export interface RedisTestServer {
  /** Its port on 127.0.0.1 (the same across restarts). */
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stop the server (SIGTERM, wait for exit). Idempotent. */
  stop(): Promise<void>;
  /** Start it again on the same port, empty, and wait until it answers. */
  start(): Promise<void>;
  /** Stop it and remove its directory (for `afterAll`). */
  close(): Promise<void>;
}

/** Send `PING` over a raw socket; true when the answer is `+PONG`. */
function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

/**
 * Start a `redis-server` for a test file.
 * @returns the running server; call `close()` in `afterAll`
 * @throws when `redis-server` is not installed or does not answer within 10 s
 */
export async function startRedisServer(): Promise<RedisTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'chart-export-redis-'));
  const port = await findFreePort();
  let child: ChildProcess | undefined;
  let stderr = '';

  async function start(): Promise<void> {
    if (child !== undefined) return;
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning'];
    const started = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    let spawnError: Error | undefined;
    started.once('error', (error) => {
      spawnError = error;
    });
    started.once('exit', () => {
      if (child === started) child = undefined;
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (spawnError !== undefined) {
        child = undefined;
        throw new Error(`cannot start redis-server (install it: apt-get install redis-server): ${spawnError.message}`);
      }
      if (await pingOnce(port)) return;
      if (child === undefined || Date.now() > deadline) {
        await stop();
        throw new Error(`redis-server did not answer on port ${port}: ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    if (running === undefined) return;
    child = undefined;
    await stopProcess(running, 'SIGTERM');
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
