/**
 * What the tests' real servers (redis-server, PostgreSQL) share: a free loopback port, and stopping a server
 * process and waiting for it to exit.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A port the kernel just gave out and released. */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Stop a server process with `signal` and wait until it has exited (at once when it already has).
 * @param running - the process
 * @param signal - how the server wants to be stopped (PostgreSQL: SIGINT, its fast shutdown)
 */
export async function stopProcess(running: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (running.exitCode !== null || running.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    running.once('exit', () => resolve());
    running.kill(signal);
  });
}
