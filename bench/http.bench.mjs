// HTTP adapter throughput: the Node listener (`toNodeListener`) serving exportHl7Note and exportFhirPatient
// from the in-memory data source, against a bare node:http server sending the same bytes, measured in the
// same run with autocannon on loopback. A second floor, "fresh", sends those bytes with what any export
// changes per request changed (request id, 20 body characters): the ceiling of an exporter, no export logic. Each server runs in its own child process; autocannon runs here.
//
//   npm run build && node bench/http.bench.mjs
//   BENCH_DURATION=2 BENCH_CONNECTIONS=10 BENCH_ROUNDS=5 node bench/http.bench.mjs   (the defaults: short rounds,
//   alternated between the servers, so a busy machine disturbs all servers alike; medians are reported)
//   BENCH_STRICT=1 … exits non-zero when a ratio is below the 0.75 target.
//
// Each route asks for the same records on every request, as a partner polling one patient would: over the
// in-memory data source the adapter then fills its per-record HL7 or Bundle template (see
// src/http/internal/hl7-template.ts and fhir-template.ts); the first requests for a record cost the full build
// plus the proof of the template. The builder server shows what a fresh build per request costs.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { cannon as cannonLoad, measure as measureLoad, startChild as startServedChild } from './support/served-child.mjs';
import { ONE_PATIENT_DIRECTORY, onePatientChart } from './support/one-patient.mjs';
import { printSummary } from './support/summary.mjs';

const TARGET_RATIO = 0.75;
const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const API_KEY = 'bench-key-0123456789abcdef0123456789';
const LOAD = { duration: DURATION, connections: CONNECTIONS, apiKey: API_KEY };
const startChild = (message) => startServedChild(SELF, message);
const measure = (server, path) => measureLoad(server, path, LOAD);
const cannon = (port, path, duration) => cannonLoad(port, path, { ...LOAD, duration });
const SELF = fileURLToPath(import.meta.url);

/** A synthetic one-patient chart: demographics with coverage, one encounter with diagnosis, one note. */
const CHART = { directory: ONE_PATIENT_DIRECTORY, patients: [onePatientChart('pat-0001', 'MRN-000123')] };

const ROUTES = [
  { name: 'exportHl7Note', path: '/exportHl7Note?patientId=pat-0001&noteId=note-0001' },
  { name: 'exportFhirPatient', path: '/exportFhirPatient?patientId=pat-0001' },
];

// ---------------------------------------------------------------------------------------------- servers

async function serveAdapter() {
  const { createExportHandler, createInMemoryDataSource, createInMemoryKeyStore, hashApiKey, toNodeListener } = await import('../dist/http/index.js');
  const entries = [
    { keyHash: await hashApiKey(API_KEY), keyId: 'bench', partnerId: 'bench', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 1e9, windowSeconds: 3600 } },
  ];
  // Default options throughout: the key store's default digest, the in-memory data source, no observer.
  const handler = createExportHandler({
    dataSource: createInMemoryDataSource(CHART),
    keyStore: createInMemoryKeyStore(entries),
    hl7: { sendingApplication: 'CHART-EXPORT', sendingFacility: 'BENCH' },
  });
  return createServer(toNodeListener(handler));
}

/**
 * Bare node:http calling the core builder directly on the same frozen checked document the in-memory data
 * source holds: a fresh export on every request (new time, control id, Bundle id), without the adapter.
 */
async function serveBuilder() {
  const { buildMdmT02, buildFhirPatientExport, freezeChartDocument } = await import('../dist/index.js');
  const doc = freezeChartDocument(CHART);
  const chart = doc.patients[0];
  const build = {
    [ROUTES[0].path]: () => ['application/hl7-v2; charset=utf-8', buildMdmT02(chart, 'note-0001', { directory: doc.directory, sendingApplication: 'CHART-EXPORT', sendingFacility: 'BENCH', now: new Date().toISOString() })],
    [ROUTES[1].path]: () => ['application/fhir+json; charset=utf-8', JSON.stringify(buildFhirPatientExport({ patient: chart.patient }, { now: new Date().toISOString() }))],
  };
  return createServer((req, res) => {
    const fn = build[req.url];
    if (fn === undefined) {
      res.writeHead(404).end();
      return;
    }
    const [type, body] = fn();
    res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
    res.end(body);
  });
}

/** The bare server: a map from request target to the exact status, headers and body bytes. */
function serveBare(responses) {
  const table = new Map(responses.map((r) => [r.path, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') }]));
  return createServer((req, res) => {
    const r = table.get(req.url);
    if (r === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(r.status, r.headers);
    res.end(r.body);
  });
}

/**
 * The fresh floor: the bare server's bytes, but with what every export must change per request changed: a new
 * request id, and 20 body characters replaced by fresh ones (as MSH-10, or a Bundle's id, changes), the body
 * sent as a string like the adapter's. No export logic at all: the ceiling of any exporter whose bytes vary.
 */
function serveFresh(responses) {
  const table = new Map(
    responses.map((r) => {
      const text = Buffer.from(r.body, 'base64').toString('utf8');
      const at = Math.floor(text.length / 2);
      // One flat [name, value, …] list built once, as the adapter writes its headers.
      const list = Object.entries(r.headers)
        .filter(([name]) => name !== 'content-length' && name !== 'x-request-id')
        .flat();
      return [r.path, { status: r.status, list, before: text.slice(0, at), after: text.slice(at + 20) }];
    }),
  );
  let counter = 0;
  return createServer((req, res) => {
    const r = table.get(req.url);
    if (r === undefined) {
      res.writeHead(404).end();
      return;
    }
    const body = r.before + (counter++).toString(36).padStart(20, '0') + r.after;
    res.writeHead(r.status, [...r.list, 'x-request-id', randomUUID(), 'content-length', String(Buffer.byteLength(body))]);
    res.end(body);
  });
}

async function childMain() {
  let requests = 0;
  process.on('message', async (message) => {
    // Server CPU per request is steadier than req/s on a machine shared with other work.
    if (message.kind === 'stats') {
      process.send({ stats: { cpu: process.cpuUsage(), requests } });
      return;
    }
    const server =
      message.kind === 'adapter'
        ? await serveAdapter()
        : message.kind === 'builder'
          ? await serveBuilder()
          : message.kind === 'fresh'
            ? serveFresh(message.responses)
            : serveBare(message.responses);
    server.on('request', () => requests++);
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  });
}



// ---------------------------------------------------------------------------------------------- measuring

const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

async function capture(port, path) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-api-key': API_KEY } });
  const headers = {};
  res.headers.forEach((value, name) => {
    if (!TRANSPORT.has(name)) headers[name] = value;
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.toString('utf8')}`);
  return { path, status: res.status, headers, body: body.toString('base64'), bytes: body.length };
}



async function main() {
  const adapter = await startChild({ kind: 'adapter' });
  const responses = [];
  for (const route of ROUTES) responses.push(await capture(adapter.port, route.path));
  const servers = {
    bare: await startChild({ kind: 'bare', responses }),
    fresh: await startChild({ kind: 'fresh', responses }),
    builder: await startChild({ kind: 'builder' }),
    adapter,
  };
  for (const route of ROUTES) {
    // Same bytes: the bare server answers exactly what the adapter answered once.
    const check = await capture(servers.bare.port, route.path);
    if (check.body !== responses.find((r) => r.path === route.path).body) throw new Error('bare server bytes differ');
    await capture(servers.builder.port, route.path);
    const fresh = await capture(servers.fresh.port, route.path);
    if (fresh.bytes !== check.bytes) throw new Error('fresh server size differs');
  }

  const rows = [];
  try {
    for (const route of ROUTES) {
      // Warm every server up (JIT, connection pools), then alternate rounds so drift hits all alike.
      for (const s of Object.values(servers)) await cannon(s.port, route.path, 1);
      const runs = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
      for (let i = 0; i < ROUNDS; i++) {
        for (const [name, s] of Object.entries(servers)) runs[name].push(await measure(s, route.path));
      }
      const median = (xs, key) => xs.map((x) => x[key]).sort((p, q) => p - q)[Math.floor(xs.length / 2)];
      const m = Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, { rps: median(xs, 'rps'), p99: median(xs, 'p99'), cpu: median(xs, 'cpu') }]));
      rows.push({ route: route.name, bytes: responses.find((r) => r.path === route.path).bytes, ...m });
    }
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
  }

  console.log(`\nHTTP adapter vs bare node:http (autocannon, ${CONNECTIONS} connections, ${DURATION}s × ${ROUNDS} alternating rounds, median)`);
  console.log('bare: node:http sending the bytes the adapter sent; builder: node:http calling the core builder on the frozen');
  console.log('document, no adapter; adapter: toNodeListener(createExportHandler(…)) over the in-memory data source, default options;');
  console.log('fresh: the bare bytes with a new request id and 20 fresh body characters per request, no export logic (the ceiling');
  console.log('of any exporter whose output changes per request, as MSH-7/MSH-10 and Bundle.id/timestamp do).');
  console.table(
    rows.map((r) => ({
      route: r.route,
      bytes: r.bytes,
      'bare req/s': Math.round(r.bare.rps),
      'bare p99 ms': r.bare.p99,
      'adapter req/s': Math.round(r.adapter.rps),
      'adapter p99 ms': r.adapter.p99,
      'adapter/bare': (r.adapter.rps / r.bare.rps).toFixed(2),
      'fresh req/s': Math.round(r.fresh.rps),
      'fresh/bare': (r.fresh.rps / r.bare.rps).toFixed(2),
      'adapter/fresh': (r.adapter.rps / r.fresh.rps).toFixed(2),
      'builder req/s': Math.round(r.builder.rps),
      'adapter/builder': (r.adapter.rps / r.builder.rps).toFixed(2),
    })),
  );
  console.log('Server CPU per request (µs, user + system, all threads), median:');
  console.table(
    rows.map((r) => ({
      route: r.route,
      bare: r.bare.cpu.toFixed(1),
      fresh: r.fresh.cpu.toFixed(1),
      builder: r.builder.cpu.toFixed(1),
      adapter: r.adapter.cpu.toFixed(1),
      'adapter − bare': (r.adapter.cpu - r.bare.cpu).toFixed(1),
    })),
  );
  for (const r of rows) {
    printSummary(`${r.route}: adapter / bare node:http (req/s, ${CONNECTIONS} connections)`, r.adapter.rps / r.bare.rps, `≥ ${TARGET_RATIO}×`);
    printSummary(`${r.route}: adapter − bare server CPU per request (µs)`, r.adapter.cpu - r.bare.cpu, '—');
  }
  const below = rows.filter((r) => r.adapter.rps / r.bare.rps < TARGET_RATIO).map((r) => r.route);
  console.log(
    below.length === 0
      ? `Target met: adapter ≥ ${TARGET_RATIO}× bare on every route.`
      : `Below the ${TARGET_RATIO}× target (adapter/bare) on: ${below.join(', ')}. builder/bare shows the share of the core's own export cost.`,
  );
  if (process.env.BENCH_STRICT === '1' && below.length > 0) process.exitCode = 1;
}

if (process.argv.includes('--serve')) await childMain();
else await main();
