// Rate limiter cost over HTTP: exportFhirPatient through the Node listener (`toNodeListener`) with the Redis
// limiter (`createRedisRateLimiter` over node-redis, configured as the `chart-export --redis-url` command
// configures it) against the in-memory limiter (the handler's default), measured in the same run with
// autocannon on loopback, in interleaved rounds; medians are reported. Needs `redis-server` on the PATH
// (Debian: apt-get install redis-server); without it the benchmark says so and is skipped.
//
//   npm run build && node bench/redis-limiter.bench.mjs
//   BENCH_DURATION=2 BENCH_CONNECTIONS=10 BENCH_ROUNDS=5 node bench/redis-limiter.bench.mjs   (the defaults)
//   BENCH_STRICT=1 … exits non-zero when the ratio is below the 0.7 target.
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createConnection, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const TARGET_RATIO = 0.7;
const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const API_KEY = 'bench-key-0123456789abcdef0123456789';
const PATH = '/exportFhirPatient?patientId=pat-0001';
const SELF = fileURLToPath(import.meta.url);

const CHART = {
  patients: [
    {
      patient: {
        id: 'pat-0001',
        identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }],
        names: [{ use: 'official', family: 'Quintero', given: ['Ana', 'María'] }],
        birthDate: '1984-07-02',
        gender: 'female',
        coverages: [{ id: 'cov-1', status: 'active', payer: { id: 'payer-aetna', name: 'Aetna' }, memberId: 'XZ123456', relationship: 'self', order: 1 }],
      },
    },
  ],
};

async function serve(kind, redisUrl) {
  const http = await import('../dist/http/index.js');
  const entries = [
    { keyHash: await http.hashApiKey(API_KEY), keyId: 'bench', partnerId: 'bench', scopes: ['fhir:export'], rateLimit: { limit: 1e9, windowSeconds: 3600 } },
  ];
  const options = { dataSource: http.createInMemoryDataSource(CHART), keyStore: http.createInMemoryKeyStore(entries) };
  if (kind === 'ioredis') {
    const { Redis } = await import('ioredis');
    const client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    client.on('error', (error) => console.error('redis:', error.message));
    await new Promise((resolve) => client.once('ready', resolve));
    options.rateLimiter = http.createRedisRateLimiter({ client });
  } else if (kind === 'redis') {
    const { createClient } = await import('redis');
    const client = createClient({ url: redisUrl, disableOfflineQueue: true });
    client.on('error', (error) => console.error('redis:', error.message));
    await client.connect();
    options.rateLimiter = http.createRedisRateLimiter({ client });
  } else {
    options.rateLimiter = http.createFixedWindowRateLimiter();
  }
  return createServer(http.toNodeListener(http.createExportHandler(options)));
}

async function childMain() {
  process.on('message', async (message) => {
    const server = await serve(message.kind, message.redisUrl);
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  });
}

function startChild(kind, redisUrl) {
  const child = fork(SELF, ['--serve'], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', ({ port }) => resolve({ child, port }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.send({ kind, redisUrl });
  });
}

async function freePort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function ping(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
    socket.on('error', () => resolve(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
  });
}

async function startRedis() {
  if (spawnSync('redis-server', ['--version']).error !== undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'chart-export-bench-redis-'));
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !(await ping(port)); i++) await new Promise((r) => setTimeout(r, 25));
  return { url: `redis://127.0.0.1:${port}`, stop: () => (child.kill('SIGTERM'), rmSync(dir, { recursive: true, force: true })) };
}

function cannon(port) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `http://127.0.0.1:${port}${PATH}`, connections: CONNECTIONS, duration: DURATION, headers: { 'x-api-key': API_KEY } },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const redis = await startRedis();
  if (redis === undefined) {
    console.log('redis-server is not installed: skipped (apt-get install redis-server).');
    return;
  }
  const servers = { memory: await startChild('memory'), redis: await startChild('redis', redis.url), ioredis: await startChild('ioredis', redis.url) };
  const results = { memory: [], redis: [], ioredis: [] };
  try {
    for (const s of Object.values(servers)) await cannon(s.port); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, the order alternating, so a busy machine disturbs both alike.
      const order = round % 2 === 0 ? ['memory', 'redis', 'ioredis'] : ['ioredis', 'redis', 'memory'];
      for (const kind of order) {
        const r = await cannon(servers[kind].port);
        if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) throw new Error(`${kind}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
        results[kind].push({ rps: r.requests.average, p99: r.latency.p99 });
      }
    }
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
    redis.stop();
  }
  const row = (kind) => ({ rps: median(results[kind].map((r) => r.rps)), p99: median(results[kind].map((r) => r.p99)) });
  const memory = row('memory');
  const shared = row('redis');
  const io = row('ioredis');
  const ratio = shared.rps / memory.rps;
  console.log(`exportFhirPatient, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s (medians):`);
  console.log(`  in-memory limiter              ${memory.rps.toFixed(0).padStart(7)} req/s  p99 ${memory.p99} ms`);
  console.log(`  Redis limiter, node-redis      ${shared.rps.toFixed(0).padStart(7)} req/s  p99 ${shared.p99} ms  (the command's client)`);
  console.log(`  Redis limiter, ioredis         ${io.rps.toFixed(0).padStart(7)} req/s  p99 ${io.p99} ms`);
  console.log(`  ratio node-redis ${ratio.toFixed(2)}, ioredis ${(io.rps / memory.rps).toFixed(2)} (target ≥ ${TARGET_RATIO})`);
  if (process.env.BENCH_STRICT === '1' && ratio < TARGET_RATIO) process.exitCode = 1;
}

if (process.argv.includes('--serve')) await childMain();
else await main();
