// The parent side of the HTTP benchmarks that serve each candidate from a child process of their own script
// (`node <script> --serve`, which answers `{ port }` once listening and `{ stats: { cpu, requests } }` when
// asked): start it, load it with autocannon, and measure req/s, p99 and the child's CPU per request.
import { fork } from 'node:child_process';
import autocannon from 'autocannon';

/**
 * Fork `script --serve`, send it `message`, and resolve once it listens.
 * @param {string} script - the benchmark file (its `--serve` mode serves the candidate)
 * @param {unknown} message - what the child serves
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, port: number }>}
 */
export function startChild(script, message) {
  const child = fork(script, ['--serve'], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', ({ port }) => resolve({ child, port }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.send(message);
  });
}

/**
 * The child's CPU usage and request count so far.
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<{ cpu: NodeJS.CpuUsage, requests: number }>}
 */
export function childStats(child) {
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (m.stats === undefined) return;
      child.off('message', onMessage);
      resolve(m.stats);
    };
    child.on('message', onMessage);
    child.send({ kind: 'stats' });
  });
}

/**
 * Load `path` on the loopback port for `duration` seconds.
 * @param {number} port
 * @param {string} path
 * @param {{ duration: number, connections: number, apiKey: string }} load
 * @returns {Promise<autocannon.Result>}
 */
export function cannon(port, path, { duration, connections, apiKey }) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `http://127.0.0.1:${port}${path}`, connections, duration, headers: { 'x-api-key': apiKey } },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * One measured round: req/s, p99 latency, requests, and the child's CPU (µs) per request it served.
 * @param {{ child: import('node:child_process').ChildProcess, port: number }} server
 * @param {string} path
 * @param {{ duration: number, connections: number, apiKey: string }} load
 * @throws {Error} when any request failed, timed out or was not answered 2xx
 */
export async function measure(server, path, load) {
  const before = await childStats(server.child);
  const r = await cannon(server.port, path, load);
  const after = await childStats(server.child);
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) throw new Error(`${path}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
  const cpu = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
  return { rps: r.requests.average, p99: r.latency.p99, total: r.requests.total, cpu: cpu / Math.max(1, after.requests - before.requests) };
}
