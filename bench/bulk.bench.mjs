// Bulk Data export (issue 19): the NDJSON writer and the $export routes, three headline figures, each a ratio
// against a floor measured in the same run (interleaved rounds, medians), printed as
// `SUMMARY\t<figure>\t<ratio>\t<target>`:
//
//   1. NDJSON export of the bench chart (bench/bench-chart.mjs: 1 000 encounters, 1 000 notes, 200
//      assessments, 200 history entries, checked and frozen beforehand) with `streamFhirNdjson` (the event loop
//      given back after every resource), against `JSON.stringify` of the same resources (built beforehand):
//      target ≤ 2.0×. The same ratio for a population of 1 000 generated patients is printed too, and for 200 of
//      them over a directory of 20 000 practitioners and 2 000 locations: that ratio over the small directory's
//      (target ≤ 2.0×: 1.6 measured, 27–42 before) says whether the cost per chart grows with the directory (it did before the
//      frozen directory's index and id claims were kept and its records mapped once per export).
//   2. Peak RSS while exporting 1 000 and 10 000 generated patients (each run in a fresh child process, charts
//      made one at a time as a database cursor would give them, lines counted and dropped as a file sink would
//      write them): the growth from 1 000 to 10 000, target ≤ 64 MB.
//   3. The p99 latency of an interactive route (exportFhirPatient, 10 keep-alive connections, every answer timed
//      to the microsecond: bench/support/latency.mjs) while a system-level export of 10 000 patients runs in the
//      same process, against the same route idle: target ≤ 2.0×.
//
//   npm run build && node --expose-gc bench/bulk.bench.mjs
//   BENCH_ROUNDS=7 BENCH_DURATION=3 …   (defaults 5 and 2)
//   BENCH_STRICT=1 …                    exits non-zero when a ratio misses its target
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { buildFhirPatientBundle, freezeDirectory, freezePatientChart, streamFhirNdjson } from '../dist/index.js';
import { chart, directory } from './bench-chart.mjs';
import { DIRECTORY, generatedChart } from './support/population.mjs';
import { printSummary } from './support/summary.mjs';

const SELF = fileURLToPath(import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const API_KEY = 'bench-key-0123456789abcdef0123456789';
const STRICT = process.env.BENCH_STRICT === '1';
const gc = globalThis.gc;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Drain a line stream as a file sink would (count, drop); the total characters. */
async function drain(lines) {
  let chars = 0;
  for await (const line of lines) chars += line.text.length;
  return chars;
}

/** Wall milliseconds of `fn`, after a full collection. */
async function timed(fn) {
  gc?.();
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

/**
 * The resources the writer writes for `charts` (first of each type and id), freshly built: a resource built and
 * serialized once before serializes about 2.5× faster the next time (V8 flattened its concatenated strings the
 * first time), so the floor serializes objects no one serialized yet, as the writer does.
 */
function freshResources(charts, dir) {
  const seen = new Set();
  const out = [];
  for (const c of charts) {
    for (const e of buildFhirPatientBundle(c, { directory: dir, now: '2026-03-01T15:00:00Z' }).entry ?? []) {
      const key = `${e.resource.resourceType}/${e.resource.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(e.resource);
    }
  }
  return out;
}

async function writerRatio(name, charts, dir) {
  const floor = (resources) => {
    let chars = 0;
    for (const r of resources) chars += JSON.stringify(r).length + 1;
    return chars;
  };
  const ndjson = () => drain(streamFhirNdjson(charts, { directory: dir }));
  // Warm up.
  for (let i = 0; i < 2; i++) floor(freshResources(charts, dir)), await ndjson();
  const a = [];
  const b = [];
  const c = [];
  let chars = [0, 0];
  let count = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const x = await timed(ndjson);
    const resources = freshResources(charts, dir);
    count = resources.length;
    const y = await timed(() => floor(resources));
    // Today's way to get the same JSON: the patient Bundle builder, then JSON.stringify of each resource.
    const z = await timed(() => floor(freshResources(charts, dir)));
    a.push(x.ms);
    b.push(y.ms);
    c.push(z.ms);
    chars = [x.result, y.result];
  }
  if (chars[0] !== chars[1]) throw new Error(`${name}: the writer gave ${chars[0]} characters, JSON.stringify ${chars[1]}`);
  const ratio = median(a) / median(b);
  const builders = median(a) / median(c);
  console.log(
    `${name}: ${count} resources, ${(chars[0] / 1e6).toFixed(1)} MB; NDJSON writer (mapping included) ${median(a).toFixed(1)} ms; ` +
      `JSON.stringify of the same resources ${median(b).toFixed(1)} ms (ratio ${ratio.toFixed(2)}); ` +
      `Bundle builder + JSON.stringify of them ${median(c).toFixed(1)} ms (ratio ${builders.toFixed(2)})`,
  );
  return { ratio, builders };
}

/** Child mode 1: export `n` generated patients, made one at a time; report peak RSS growth (bytes). */
async function rssChild(n) {
  const dir = freezeDirectory(DIRECTORY);
  async function* charts() {
    for (let i = 0; i < n; i++) yield { chart: generatedChart(i), directory: dir };
  }
  gc?.();
  const before = process.resourceUsage().maxRSS * 1024;
  const chars = await drain(streamFhirNdjson(charts()));
  const peak = process.resourceUsage().maxRSS * 1024;
  process.send({ before, peak, chars });
}

/** Child mode 2: serve exportFhirPatient and Bulk over `n` generated patients; answer stats and kick-offs. */
async function serveChild(n) {
  const { createExportHandler, createInMemoryDataSource, createInMemoryKeyStore, hashApiKey, toNodeListener } = await import('../dist/http/index.js');
  const keyStore = createInMemoryKeyStore([{ keyHash: await hashApiKey(API_KEY), keyId: 'bench', partnerId: 'bench', scopes: ['fhir:export'], rateLimit: { limit: 1e9, windowSeconds: 60 } }]);
  const dataSource = createInMemoryDataSource({ patients: Array.from({ length: n }, (_, i) => generatedChart(i)), directory: DIRECTORY });
  const listener = toNodeListener(createExportHandler({ dataSource, keyStore, bulk: { maxRunningJobsPerKey: 1000 } }));
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    listener(req, res);
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', (m) => {
    if (m.kind === 'stats') process.send({ stats: { cpu: process.cpuUsage(), requests } });
  });
}

function child(args) {
  return fork(SELF, args, { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

async function peakRss(n) {
  const c = child(['--rss', String(n)]);
  return new Promise((resolve, reject) => {
    c.once('message', resolve);
    c.once('error', reject);
    c.once('exit', (code) => code !== 0 && reject(new Error(`rss child exited with ${code}`)));
  });
}

async function interactiveP99() {
  const { cannon } = await import('./support/served-child.mjs');
  const { latencies } = await import('./support/latency.mjs');
  // 10 000 patients: an export outlasts a measurement round even on an idle machine.
  const server = child(['--serve', '10000']);
  const port = await new Promise((resolve) => server.once('message', (m) => resolve(m.port)));
  const base = `http://127.0.0.1:${port}`;
  const route = '/exportFhirPatient?patientId=p000001';
  const load = { duration: DURATION, connections: 10, apiKey: API_KEY };
  const kickOff = async () => {
    const res = await fetch(`${base}/$export`, { headers: { 'x-api-key': API_KEY, accept: 'application/fhir+json', prefer: 'respond-async' } });
    if (res.status !== 202) throw new Error(`kick-off answered ${res.status}`);
    return res.headers.get('content-location');
  };
  const running = async (url) => (await fetch(url, { headers: { 'x-api-key': API_KEY } })).status === 202;
  await cannon(port, route, { ...load, duration: 1 }); // warm-up
  const idle = [];
  const busy = [];
  let overlapped = 0;
  for (let r = 0; r < ROUNDS; r++) {
    idle.push((await latencies(port, route, load)).p99);
    const url = await kickOff();
    const result = await latencies(port, route, load);
    // Only a round whose export was still running at its end measured the route during an export.
    if (await running(url)) {
      overlapped++;
      busy.push(result.p99);
    }
    // Let the export finish before the next idle round.
    while (await running(url)) await new Promise((resolve) => setTimeout(resolve, 1100));
  }
  server.kill();
  if (busy.length === 0) throw new Error('no export lasted as long as a measurement round');
  const ms = (x) => `${x.toFixed(2)} ms`;
  console.log(`exportFhirPatient p99: idle ${ms(median(idle))}, during a whole export ${ms(median(busy))} (${overlapped}/${ROUNDS} rounds overlapped an export)`);
  return median(busy) / median(idle);
}

async function main() {
  console.log(`Bulk Data export benchmark (rounds ${ROUNDS}; medians; the machine may be shared, so read the ratios, not the times)`);
  const bigChart = freezePatientChart(chart);
  const bigDirectory = freezeDirectory(directory);
  const chartRatios = await writerRatio('bench chart', [bigChart], bigDirectory);
  const population = Array.from({ length: 1000 }, (_, i) => freezePatientChart(generatedChart(i)));
  const populationRatios = await writerRatio('1 000 generated patients', population, freezeDirectory(DIRECTORY));
  const largeDirectory = freezeDirectory({
    practitioners: Array.from({ length: 20000 }, (_, i) => ({ id: `prac-${i}`, names: [{ family: `Doctor${i}`, given: ['A'] }] })),
    locations: Array.from({ length: 2000 }, (_, i) => ({ id: `loc-${i}`, name: `Clinic ${i}`, status: 'active' })),
  });
  const largeRatios = await writerRatio('200 generated patients, directory of 20 000 practitioners', population.slice(0, 200), largeDirectory);
  const small = await peakRss(1000);
  const large = await peakRss(10000);
  const growth = (large.peak - small.peak) / 1048576;
  console.log(`peak RSS: 1 000 patients ${(small.peak / 1048576).toFixed(0)} MB (${(small.chars / 1e6).toFixed(0)} MB written), 10 000 patients ${(large.peak / 1048576).toFixed(0)} MB (${(large.chars / 1e6).toFixed(0)} MB written): growth ${growth.toFixed(1)} MB`);
  const p99 = await interactiveP99();
  const lines = [
    ['NDJSON export of the bench chart / JSON.stringify of its resources', chartRatios.ratio, 2.0],
    ['NDJSON export of 1 000 generated patients / JSON.stringify of their resources', populationRatios.ratio, 2.0],
    ['NDJSON export of the bench chart / Bundle builder + JSON.stringify of its resources', chartRatios.builders, 2.0],
    ['NDJSON export of 1 000 generated patients / Bundle builder + JSON.stringify of their resources', populationRatios.builders, 2.0],
    ['NDJSON export over a 20 000-practitioner directory / over a 20-practitioner one (each vs JSON.stringify)', largeRatios.ratio / populationRatios.ratio, 2.0],
    ['peak RSS growth from 1 000 to 10 000 exported patients (MB)', growth, 64],
    ['interactive p99 during a whole export / idle', p99, 2.0],
  ];
  let missed = false;
  for (const [figure, value, target] of lines) {
    printSummary(figure, value, `≤ ${target}`);
    if (value > target) missed = true;
  }
  if (missed) console.log('warning: a figure missed its target');
  if (missed && STRICT) process.exit(1);
}

const mode = process.argv[2];
if (mode === '--rss') await rssChild(Number(process.argv[3]));
else if (mode === '--serve') await serveChild(Number(process.argv[3]));
else await main();
if (mode === '--rss') process.exit(0);
