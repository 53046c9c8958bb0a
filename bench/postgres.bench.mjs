// chart-export/postgres: exportFhirPatient and exportHl7Note over PostgreSQL at 10 connections against two
// floors measured in the same run: the same adapter over the in-memory source (the ratio is reported: the
// database costs what it costs), and a bare node:http server that runs the same queries, in the same rounds
// (queries the adapter runs together run together), through a pool of the same size, and writes the rows as
// they come: the cost of the database itself. Target: the adapter over PostgreSQL ≥ 0.7× the bare floor.
// Then the RSS of one instance serving 1 000 and 100 000 generated patients (target: within 64 MB of each
// other), and `chart-export db import` of generated files: patients per second and the import's peak RSS at
// two sizes (flat memory: the peak does not grow with the file).
//
//   npm run build && node --expose-gc bench/postgres.bench.mjs
//   BENCH_DURATION=2 BENCH_CONNECTIONS=10 BENCH_ROUNDS=5 BENCH_LARGE=100000 BENCH_IMPORT=5000 node bench/postgres.bench.mjs
//   BENCH_DATABASE_URL=postgres://… uses that server instead of a throwaway cluster (schemas bench_* are replaced).
//
// Servers run in child processes of their own; autocannon runs here; rounds alternate between the servers and
// medians are reported, each ratio taken within its round. Headline figures are printed as
// `SUMMARY\t<figure>\t<value>\t<target>` lines.
import { execFileSync, fork, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ONE_PATIENT_DIRECTORY, onePatientChart } from './support/one-patient.mjs';
import { startCluster } from './support/postgres-cluster.mjs';
import { cannon as cannonLoad, measure as measureLoad, startChild as startServedChild } from './support/served-child.mjs';

const TARGET_RATIO = 0.7;
const TARGET_RSS_MB = 64;
const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LARGE = Number(process.env.BENCH_LARGE ?? 100_000);
const IMPORT = Number(process.env.BENCH_IMPORT ?? 5000);
const API_KEY = 'bench-key-0123456789abcdef0123456789';
const LOAD = { duration: DURATION, connections: CONNECTIONS, apiKey: API_KEY };
const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const startChild = (message) => startServedChild(SELF, message);

const idOf = (i) => `pat-${String(i).padStart(6, '0')}`;
const ROUTES = [
  { name: 'exportFhirPatient', path: `/exportFhirPatient?patientId=${idOf(1)}` },
  { name: 'exportHl7Note', path: `/exportHl7Note?patientId=${idOf(1)}&noteId=note-0001` },
];

// ---------------------------------------------------------------------------------------------- servers

async function keyStore(http) {
  const entries = [{ keyHash: await http.hashApiKey(API_KEY), keyId: 'bench', partnerId: 'bench', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 1e9, windowSeconds: 3600 } }];
  return http.createInMemoryKeyStore(entries);
}

/** The adapter over the in-memory source, or over PostgreSQL (a pool of CONNECTIONS, the queries recorded on demand). */
async function serveAdapter(message) {
  const http = await import('../dist/http/index.js');
  let dataSource;
  const recorder = { on: false, log: [], completed: 0 };
  if (message.url === undefined) {
    dataSource = http.createInMemoryDataSource({ patients: [onePatientChart(idOf(1))], directory: ONE_PATIENT_DIRECTORY });
  } else {
    const { createPostgresDataSource } = await import('../dist/postgres/index.js');
    const pool = new pg.Pool({ connectionString: message.url, max: CONNECTIONS });
    // Record each query with the number of queries done before it was sent: queries sent together form a round.
    const connect = pool.connect.bind(pool);
    pool.connect = async () => {
      const client = await connect();
      if (!recorder.on) return client;
      return new Proxy(client, {
        get(target, name) {
          if (name !== 'query') return Reflect.get(target, name);
          return (text, values) => {
            recorder.log.push({ text, values, round: recorder.completed });
            return target.query(text, values).finally(() => recorder.completed++);
          };
        },
      });
    };
    dataSource = createPostgresDataSource({ pool, schema: message.schema });
  }
  const handler = http.createExportHandler({ dataSource, keyStore: await keyStore(http), hl7: { sendingApplication: 'CHART-EXPORT', sendingFacility: 'BENCH' } });
  const server = createServer(http.toNodeListener(handler));
  server.record = async (path) => {
    recorder.on = true;
    recorder.log = [];
    recorder.completed = 0;
    const res = await fetch(`http://127.0.0.1:${server.address().port}${path}`, { headers: { 'x-api-key': API_KEY } });
    await res.arrayBuffer();
    recorder.on = false;
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return recorder.log;
  };
  return server;
}

/** The bare floor: the recorded queries, round after round (a round's queries together), rows written as they come. */
function serveBare(message) {
  const pool = new pg.Pool({ connectionString: message.url, max: CONNECTIONS });
  const table = new Map(message.recorded.map((r) => [r.path, groupRounds(r.queries)]));
  return createServer(async (req, res) => {
    const rounds = table.get(req.url);
    if (rounds === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const round of rounds) {
      const results = await Promise.all(round.map((q) => pool.query(q.text, q.values)));
      for (const result of results) for (const row of result.rows) res.write(JSON.stringify(row.record));
    }
    res.end();
  });
}

function groupRounds(queries) {
  const byRound = new Map();
  for (const q of queries) byRound.set(q.round, [...(byRound.get(q.round) ?? []), q]);
  return [...byRound.keys()].sort((a, b) => a - b).map((k) => byRound.get(k));
}

async function childMain() {
  let requests = 0;
  let server;
  process.on('message', async (message) => {
    if (message.kind === 'stats') {
      process.send({ stats: { cpu: process.cpuUsage(), requests } });
      return;
    }
    if (message.kind === 'rss') {
      globalThis.gc?.();
      process.send({ rss: process.memoryUsage().rss });
      return;
    }
    if (message.kind === 'record') {
      const recorded = [];
      for (const path of message.paths) recorded.push({ path, queries: await server.record(path) });
      process.send({ recorded });
      return;
    }
    server = message.kind === 'bare' ? serveBare(message) : await serveAdapter(message);
    server.on('request', () => requests++);
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  });
}

// ---------------------------------------------------------------------------------------------- database

/** Migrate `schema` afresh and fill it with `n` generated patients (one written by the package, the rest copied in SQL). */
async function fill(url, schema, n) {
  const { migratePostgres, createPostgresChartWriter } = await import('../dist/postgres/index.js');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await migratePostgres({ pool, schema });
  const writer = createPostgresChartWriter({ pool, schema });
  await writer.writeDirectory(ONE_PATIENT_DIRECTORY);
  await writer.writePatientCharts([onePatientChart(idOf(1))]);
  const id = `'pat-' || lpad(i::text, 6, '0')`;
  await pool.query(`INSERT INTO ${schema}.patients (id, record) SELECT ${id}, replace(p.record::text, '${idOf(1)}', ${id})::json FROM ${schema}.patients p, generate_series(2, $1) i WHERE p.id = '${idOf(1)}'`, [n]);
  for (const table of ['encounters', 'notes']) {
    await pool.query(
      `INSERT INTO ${schema}.${table} (patient_id, id, position, sort_key, record) SELECT ${id}, t.id, t.position, t.sort_key, t.record FROM ${schema}.${table} t, generate_series(2, $1) i WHERE t.patient_id = '${idOf(1)}'`,
      [n],
    );
  }
  await pool.query(`ANALYZE ${schema}.patients; ANALYZE ${schema}.encounters; ANALYZE ${schema}.notes`);
  await pool.end();
}

// ---------------------------------------------------------------------------------------------- measuring

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function throughput(url) {
  const servers = {
    memory: await startChild({ kind: 'adapter' }),
    postgres: await startChild({ kind: 'adapter', url, schema: 'bench_small' }),
  };
  servers.postgres.child.send({ kind: 'record', paths: ROUTES.map((r) => r.path) });
  const recorded = await new Promise((resolve) => servers.postgres.child.once('message', (m) => resolve(m.recorded)));
  servers.bare = await startChild({ kind: 'bare', url, recorded });
  const rows = [];
  try {
    for (const route of ROUTES) {
      for (const s of Object.values(servers)) await cannonLoad(s.port, route.path, { ...LOAD, duration: 1 });
      const runs = { memory: [], postgres: [], bare: [] };
      for (let i = 0; i < ROUNDS; i++) {
        // Alternate the order, so a machine whose speed drifts disturbs every server alike.
        const order = i % 2 === 0 ? ['memory', 'postgres', 'bare'] : ['bare', 'postgres', 'memory'];
        for (const name of order) runs[name].push(await measureLoad(servers[name], route.path, LOAD));
      }
      const queries = recorded.find((r) => r.path === route.path).queries;
      rows.push({
        route: route.name,
        queries: queries.length,
        rounds: groupRounds(queries).length,
        memory: median(runs.memory.map((r) => r.rps)),
        postgres: median(runs.postgres.map((r) => r.rps)),
        bare: median(runs.bare.map((r) => r.rps)),
        postgresP99: median(runs.postgres.map((r) => r.p99)),
        bareP99: median(runs.bare.map((r) => r.p99)),
        vsBare: median(runs.postgres.map((r, i) => r.rps / runs.bare[i].rps)),
        vsMemory: median(runs.postgres.map((r, i) => r.rps / runs.memory[i].rps)),
        postgresCpu: median(runs.postgres.map((r) => r.cpu)),
        bareCpu: median(runs.bare.map((r) => r.cpu)),
        memoryCpu: median(runs.memory.map((r) => r.cpu)),
      });
    }
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
  }
  return rows;
}

/** RSS of one instance (adapter over PostgreSQL) after serving `sweep` different patients and a load round. */
async function rssServing(url, schema, patients) {
  const child = fork(SELF, ['--serve'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.send({ kind: 'adapter', url, schema });
  });
  try {
    const sweep = Math.min(patients, 3000);
    let next = 0;
    const worker = async () => {
      while (next < sweep) {
        const i = 1 + Math.floor(((next++) * patients) / sweep);
        const res = await fetch(`http://127.0.0.1:${port}/exportFhirPatient?patientId=${idOf(i)}`, { headers: { 'x-api-key': API_KEY } });
        if (res.status !== 200) throw new Error(`patient ${i}: ${res.status}`);
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    await cannonLoad(port, ROUTES[0].path, { ...LOAD, duration: DURATION });
    child.send({ kind: 'rss' });
    return await new Promise((resolve) => child.on('message', (m) => m.rss !== undefined && resolve(m.rss)));
  } finally {
    child.kill();
  }
}

/** `chart-export db import` of a generated file of `n` patients: seconds and peak RSS of the command's process. */
async function importFile(url, n, dir) {
  const file = join(dir, `import-${n}.json`);
  const out = createWriteStream(file);
  out.write(`{"directory":${JSON.stringify(ONE_PATIENT_DIRECTORY)},"patients":[`);
  for (let i = 1; i <= n; i++) {
    if (!out.write(`${i === 1 ? '' : ','}${JSON.stringify(onePatientChart(idOf(i)))}`)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(']}', resolve));
  const schema = `bench_import_${n}`;
  const env = { ...process.env, CHART_EXPORT_DATABASE_URL: url, CHART_EXPORT_DATABASE_SCHEMA: schema };
  const cli = join(ROOT, 'dist/cli.js');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
  execFileSync(process.execPath, [cli, 'db', 'migrate'], { env, stdio: 'ignore' });
  // The command's own process, reporting its peak RSS (kB) as it exits.
  const script = `process.on('exit', () => process.stderr.write('MAXRSS ' + process.resourceUsage().maxRSS + '\\n')); process.argv.splice(1, 0, ${JSON.stringify(cli)}); await import(${JSON.stringify(cli)});`;
  const started = performance.now();
  const { stderr, code } = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, 'db', 'import', file], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('exit', (exit) => resolve({ stderr: text, code: exit }));
  });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`import failed: ${stderr}`);
  return { n, seconds, perSecond: n / seconds, peakMb: Number(/MAXRSS (\d+)/.exec(stderr)?.[1] ?? 0) / 1024 };
}

async function main() {
  const external = process.env.BENCH_DATABASE_URL;
  const cluster = external === undefined ? await startCluster() : { url: external, close: async () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'chart-export-pg-bench-'));
  try {
    await fill(cluster.url, 'bench_small', 1000);
    const rows = await throughput(cluster.url);
    console.log(`\nchart-export/postgres (autocannon, ${CONNECTIONS} connections, pool of ${CONNECTIONS}, ${DURATION}s × ${ROUNDS} alternating rounds, medians; ratios within each round)`);
    console.log('memory: the adapter over the in-memory source; postgres: the adapter over createPostgresDataSource;');
    console.log("bare: node:http running the adapter's queries (same rounds, same pool size) and writing the rows as they come.");
    console.table(
      rows.map((r) => ({
        route: r.route,
        'queries (rounds)': `${r.queries} (${r.rounds})`,
        'memory req/s': Math.round(r.memory),
        'postgres req/s': Math.round(r.postgres),
        'bare req/s': Math.round(r.bare),
        'postgres p99 ms': r.postgresP99,
        'bare p99 ms': r.bareP99,
        'postgres/bare': r.vsBare.toFixed(2),
        'postgres/memory': r.vsMemory.toFixed(2),
      })),
    );
    console.log('Server process CPU per request (µs, user + system; PostgreSQL itself not counted), median:');
    console.table(rows.map((r) => ({ route: r.route, memory: r.memoryCpu.toFixed(0), postgres: r.postgresCpu.toFixed(0), bare: r.bareCpu.toFixed(0), 'postgres − bare': (r.postgresCpu - r.bareCpu).toFixed(0) })));

    await fill(cluster.url, 'bench_large', LARGE);
    const small = await rssServing(cluster.url, 'bench_small', 1000);
    const large = await rssServing(cluster.url, 'bench_large', LARGE);
    const diffMb = (large - small) / 2 ** 20;
    console.log(`\nRSS of one instance after serving ${Math.min(LARGE, 3000)} different patients and a load round: ${(small / 2 ** 20).toFixed(1)} MB (1 000 patients), ${(large / 2 ** 20).toFixed(1)} MB (${LARGE.toLocaleString('en-US')} patients).`);

    const imports = [await importFile(cluster.url, Math.max(1, Math.round(IMPORT / 5)), dir), await importFile(cluster.url, IMPORT, dir)];
    console.log('\nchart-export db import (three streaming passes: directory, check, batched writes of 500 in transactions; durable commits):');
    console.table(imports.map((r) => ({ patients: r.n, seconds: r.seconds.toFixed(1), 'patients/s': Math.round(r.perSecond), 'peak RSS MB': r.peakMb.toFixed(1) })));

    for (const r of rows) console.log(`SUMMARY\t${r.route} over PostgreSQL / bare pool floor (req/s, ${CONNECTIONS} connections)\t${r.vsBare.toFixed(2)}\t>= ${TARGET_RATIO}`);
    for (const r of rows) console.log(`SUMMARY\t${r.route} over PostgreSQL / in-memory source (req/s)\t${r.vsMemory.toFixed(2)}\treported`);
    console.log(`SUMMARY\tRSS serving ${LARGE.toLocaleString('en-US')} minus 1 000 patients (MB)\t${diffMb.toFixed(1)}\t<= ${TARGET_RSS_MB}`);
    const last = imports[imports.length - 1];
    console.log(`SUMMARY\tdb import throughput (patients/s, ${last.n} patients)\t${Math.round(last.perSecond)}\treported`);
    console.log(`SUMMARY\tdb import peak RSS ${last.n} / ${imports[0].n} patients\t${(last.peakMb / imports[0].peakMb).toFixed(2)}\tflat (about 1)`);
    const missed = rows.filter((r) => r.vsBare < TARGET_RATIO).map((r) => r.route);
    if (Math.abs(diffMb) > TARGET_RSS_MB) missed.push('RSS');
    console.log(missed.length === 0 ? 'Targets met.' : `Below target: ${missed.join(', ')}.`);
    if (process.env.BENCH_STRICT === '1' && missed.length > 0) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cluster.close();
  }
}

if (process.argv.includes('--serve')) await childMain();
else await main();
