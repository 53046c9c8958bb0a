// Latency of one route under a steady load, to the microsecond: `connections` keep-alive connections, each sending
// its next request as soon as its last answer ended, for `duration` seconds. autocannon records whole
// milliseconds, which is too coarse for a p99 of 1–3 ms (one millisecond would move a ratio by a third or a half).
import { Agent, request } from 'node:http';

/**
 * Load `path` and time every answer (request sent → body ended).
 * @param {number} port - loopback port
 * @param {string} path - the route and query
 * @param {{ duration: number, connections: number, apiKey: string }} load
 * @returns {Promise<{ p50: number, p99: number, requests: number }>} milliseconds, and the answers counted
 */
export async function latencies(port, path, { duration, connections, apiKey }) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const times = [];
  const end = performance.now() + duration * 1000;
  const once = () =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent, headers: { 'x-api-key': apiKey } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
        res.on('data', () => {});
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  async function connection() {
    while (performance.now() < end) {
      const t0 = performance.now();
      await once();
      times.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: connections }, connection));
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(times.length * q))];
  return { p50: at(0.5), p99: at(0.99), requests: times.length };
}
