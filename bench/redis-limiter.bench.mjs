// Rate limiter cost over HTTP: exportFhirPatient through the Node listener (`toNodeListener`) with the Redis
// limiter (`createRedisRateLimiter` over ioredis, as the `chart-export --redis-url` command configures it but
// with a 2 s timeout, and over node-redis) against the in-memory limiter (the handler's default), measured in the same run with
// autocannon on loopback against a redis-server of its own. Rounds are interleaved, the order alternating, and
// each ratio is taken within its round (Redis limiter req/s over in-memory req/s of the same round), so a
// machine whose speed drifts between rounds disturbs both sides of a ratio alike; medians are reported. Each
// load level is run: 10 connections (as the other HTTP benchmarks) and 50.
//
// Also measured A/B: the limiter's batches (the requests of one counter that arrive in one turn of the event
// loop, or while its call is in flight, go together as one script call) against the same limiter sending one
// call per request at once (and hashing the counter name again per request, about 1.3 µs, as before the
// limiter's key cache), built from the sources with esbuild (the batch settings are internal).
//
// Also a floor: the in-memory limiter's decisions, each request waiting for one bare round trip per batch
// through the same ioredis client (`EVALSHA` of `return 1`, batched as the limiter batches): what talking to
// Redis at all costs, and how close the limiter comes to it.
//
// Needs `redis-server` on the PATH (Debian: apt-get install redis-server); without it the benchmark says so
// and is skipped.
//
//   npm run build && node bench/redis-limiter.bench.mjs
//   BENCH_DURATION=1 BENCH_ROUNDS=9 BENCH_CONNECTIONS=10,50 node bench/redis-limiter.bench.mjs   (the defaults)
//   BENCH_STRICT=1 … exits non-zero when the ioredis ratio at the first load level is below the 0.7 target.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createConnection, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cannon, measure, startChild } from './support/served-child.mjs';
import { printSummary } from './support/summary.mjs';

const TARGET_RATIO = 0.7;
const DURATION = Number(process.env.BENCH_DURATION ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const API_KEY = 'bench-key-0123456789abcdef0123456789';
const PATH = '/exportFhirPatient?patientId=pat-0001';
/**
 * The limiters' `timeoutMs`: longer than the default 200 ms, since a loaded machine can stall a process that
 * long, and one 503 stops the run. The length changes no work per request.
 */
const TIMEOUT_MS = 2000;
const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The candidates: the limiter and its client. `memory` is the floor of every ratio. */
const VARIANTS = {
  memory: 'in-memory limiter',
  ioredis: 'Redis limiter, ioredis (the command)',
  redis: 'Redis limiter, node-redis',
  unbatched: 'ioredis, one call per request',
  floor: 'floor: in-memory + one bare EVALSHA per batch',
};

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

/** The handler and limiters, from the sources, with a limiter that sends one script call per request. */
const ENTRY = `
export * from './src/http/index.ts';
import { createRedisBatches } from './src/http/internal/redis-batches.ts';
import { toRedisKey } from './src/http/internal/redis-script.ts';
import { DEFAULT_REDIS_RATE_LIMIT_PREFIX } from './src/http/index.ts';
export function createUnbatchedRedisLimiter(send) {
  const decide = createRedisBatches({ send, timeoutMs: ${TIMEOUT_MS}, maxInFlight: Infinity, maxBatch: 1, gather: false, fail: (cause) => { throw cause; } });
  return { consume: (key, limit, windowSeconds) => decide(toRedisKey(DEFAULT_REDIS_RATE_LIMIT_PREFIX, key), limit, windowSeconds) };
}
`;

async function buildModule() {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'chart-export-bench-'));
  const outfile = join(dir, 'limiters.mjs');
  await build({ stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'js' }, bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, logLevel: 'error' });
  return { dir, outfile };
}

async function connectNodeRedis(url) {
  const { createClient } = await import('redis');
  const client = createClient({ url, disableOfflineQueue: true });
  client.on('error', (error) => console.error('redis:', error.message));
  await client.connect();
  return client;
}

/**
 * The floor of any limiter that asks Redis: the in-memory limiter's decisions, each request waiting for one
 * round trip through the same client, batched as the limiter batches (the requests of one turn of the event
 * loop go together; one call in flight, and those that arrive meanwhile go when it returns). The call runs a
 * script that returns a constant (`EVALSHA` of `return 1`), so what it measures is talking to Redis at all.
 */
async function createRoundTripFloor(http, client) {
  const sha = await client.call('SCRIPT', 'LOAD', 'return 1');
  const memory = http.createFixedWindowRateLimiter();
  let queue = [];
  let busy = false;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (busy || queue.length === 0) return;
    const batch = queue;
    queue = [];
    busy = true;
    client
      .call('EVALSHA', sha, '0')
      .then(
        () => batch.forEach((w) => w.resolve(memory.consume(w.key, w.limit, w.windowSeconds))),
        (error) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => ((busy = false), flush()));
  };
  // A plain object, so the handler waits for its promise as it waits for any host's limiter.
  return {
    consume: (key, limit, windowSeconds) =>
      new Promise((resolve, reject) => {
        queue.push({ key, limit, windowSeconds, resolve, reject });
        if (!busy && !scheduled) (scheduled = true), setImmediate(flush);
      }),
  };
}

async function limiterFor(http, variant, redisUrl) {
  if (variant === 'memory') return http.createFixedWindowRateLimiter();
  if (variant === 'redis') return http.createRedisRateLimiter({ client: await connectNodeRedis(redisUrl), timeoutMs: TIMEOUT_MS });
  // As the command configures it.
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on('error', (error) => console.error('redis:', error.message));
  await new Promise((resolve) => client.once('ready', resolve));
  if (variant === 'unbatched') return http.createUnbatchedRedisLimiter((args) => client.call(...args));
  if (variant === 'floor') return createRoundTripFloor(http, client);
  return http.createRedisRateLimiter({ client, timeoutMs: TIMEOUT_MS });
}

async function childMain() {
  let requests = 0;
  process.on('message', async (message) => {
    if (message.kind === 'stats') {
      process.send({ stats: { cpu: process.cpuUsage(), requests } });
      return;
    }
    const http = await import(pathToFileURL(message.module).href);
    const entries = [
      { keyHash: await http.hashApiKey(API_KEY), keyId: 'bench', partnerId: 'bench', scopes: ['fhir:export'], rateLimit: { limit: 1e9, windowSeconds: 3600 } },
    ];
    const rateLimiter = await limiterFor(http, message.variant, message.redisUrl);
    const handler = http.createExportHandler({ dataSource: http.createInMemoryDataSource(CHART), keyStore: http.createInMemoryKeyStore(entries), rateLimiter });
    const server = createServer(http.toNodeListener(handler));
    server.on('request', () => requests++);
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
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

/** Redis' own CPU time so far, in µs, and the script calls it ran (`INFO cpu`, `INFO commandstats`). */
async function redisStats(admin) {
  const info = await admin.sendCommand(['INFO', 'all']);
  const read = (name) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  const calls = [...info.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { cpu: (read('used_cpu_user') + read('used_cpu_sys')) * 1e6, calls };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Interleaved rounds at one load level: per variant, each round's req/s, p99, server and Redis CPU per request. */
async function runLevel(servers, admin, connections) {
  const load = { duration: DURATION, connections, apiKey: API_KEY };
  const names = Object.keys(VARIANTS);
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) await cannon(servers[name].port, PATH, load); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const before = await redisStats(admin);
      const m = await measure(servers[name], PATH, load);
      const after = await redisStats(admin);
      runs[name].push({ ...m, redisCpu: (after.cpu - before.cpu) / m.total, perCall: m.total / Math.max(1, after.calls - before.calls) });
    }
  }
  return runs;
}

function report(runs, connections) {
  const ratio = (name) => median(runs[name].map((r, i) => r.rps / runs.memory[i].rps));
  const cpu = (name) => median(runs[name].map((r) => r.cpu));
  const rows = Object.entries(VARIANTS).map(([name, label]) => ({
    limiter: label,
    'req/s': Math.round(median(runs[name].map((r) => r.rps))),
    'p99 ms': median(runs[name].map((r) => r.p99)),
    'ratio to in-memory': name === 'memory' ? '1' : ratio(name).toFixed(2),
    'server CPU µs/req': cpu(name).toFixed(0),
    'Redis CPU µs/req': median(runs[name].map((r) => r.redisCpu)).toFixed(1),
    'req/call': name === 'memory' ? '—' : median(runs[name].map((r) => r.perCall)).toFixed(1),
  }));
  console.log(`\nexportFhirPatient, ${connections} connections, ${ROUNDS} interleaved rounds of ${DURATION} s (medians; each ratio within its round)`);
  console.table(rows);
  if (process.env.BENCH_VERBOSE) for (const n of Object.keys(VARIANTS)) console.log(n.padEnd(10), runs[n].map((r) => Math.round(r.rps)).join(' '));
  console.log(`  batches vs one call per request (ioredis): ${(ratio('ioredis') / ratio('unbatched')).toFixed(2)}× the req/s, ${((1 - cpu('ioredis') / cpu('unbatched')) * 100).toFixed(0)}% less server CPU per request`);
  const ofFloor = median(runs.ioredis.map((r, i) => r.rps / runs.floor[i].rps));
  console.log(`  floor (in-memory decisions, one bare round trip per batch through ioredis): ${ratio('floor').toFixed(2)}× the in-memory req/s; the limiter reaches ${ofFloor.toFixed(2)}× the floor`);
  return { limiter: ratio('ioredis'), floor: ratio('floor'), ofFloor };
}

async function main() {
  const redis = await startRedis();
  if (redis === undefined) {
    console.log('redis-server is not installed: skipped (apt-get install redis-server).');
    return;
  }
  const { dir, outfile } = await buildModule();
  const servers = {};
  let admin;
  try {
    admin = await connectNodeRedis(redis.url);
    for (const variant of Object.keys(VARIANTS)) servers[variant] = await startChild(SELF, { module: outfile, variant, redisUrl: redis.url });
    const ratios = [];
    for (const connections of LEVELS) ratios.push(report(await runLevel(servers, admin, connections), connections));
    console.log(`\nTarget: Redis limiter (ioredis, the command's client) ≥ ${TARGET_RATIO}× the in-memory req/s at ${LEVELS[0]} connections: ${ratios[0].limiter.toFixed(2)}.`);
    LEVELS.forEach((connections, i) => printSummary(`Redis limiter (ioredis) / in-memory limiter (req/s, ${connections} connections)`, ratios[i].limiter, i === 0 ? `≥ ${TARGET_RATIO}×` : '—'));
    printSummary(`floor: in-memory limiter + one bare Redis round trip per batch / in-memory (req/s, ${LEVELS[0]} connections)`, ratios[0].floor, '—');
    if (process.env.BENCH_STRICT === '1' && ratios[0].limiter < TARGET_RATIO) process.exitCode = 1;
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
    await admin?.quit().catch(() => undefined);
    redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) await childMain();
else await main();
