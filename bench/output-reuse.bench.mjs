// What each output reuse of the HTTP adapter (src/http/output-reuse.ts) gains: the Node listener over the
// in-memory data source serving the demo chart, with every reuse on against the same handler with one reuse
// switched off, measured in the same run with autocannon on loopback, rounds interleaved between the variants
// so a busy machine disturbs them alike; medians are reported. The variants are built from the sources with
// esbuild (the reuse switches are internal, not options of the published handler).
//
//   node bench/output-reuse.bench.mjs
//   BENCH_DURATION=2 BENCH_CONNECTIONS=10 BENCH_ROUNDS=5 node bench/output-reuse.bench.mjs   (the defaults)
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cannon as cannonLoad, measure as measureLoad, startChild as startServedChild } from './support/served-child.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const API_KEY = 'bench-key-0123456789abcdef0123456789';
const LOAD = { duration: DURATION, connections: CONNECTIONS, apiKey: API_KEY };
const startChild = (message) => startServedChild(SELF, message);
const measure = (server, path) => measureLoad(server, path, LOAD);
const cannon = (port, path, duration) => cannonLoad(port, path, { ...LOAD, duration });
const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The reuses and the variant that has each one off. */
const VARIANTS = {
  all: { hl7Templates: true, fhirTemplates: true, directories: true, targets: true },
  'no HL7 templates': { hl7Templates: false, fhirTemplates: true, directories: true, targets: true },
  'no FHIR templates': { hl7Templates: true, fhirTemplates: false, directories: true, targets: true },
  'no directory reuse': { hl7Templates: true, fhirTemplates: true, directories: false, targets: false },
  'no target reuse': { hl7Templates: true, fhirTemplates: true, directories: true, targets: false },
  'templates only off': { hl7Templates: false, fhirTemplates: false, directories: true, targets: false },
  'all off': { hl7Templates: false, fhirTemplates: false, directories: false, targets: false },
};

/**
 * Each route and the comparisons that tell its reuses apart: [with, without]. Directory reuse is measured with
 * the templates off too: without it every request gathers a new directory object, and a template, keyed by
 * the identity of every record it is built from, no longer matches.
 */
const ROUTES = [
  { path: '/exportHl7Note?patientId=pat-0001&noteId=note-0001-01', pairs: [['all', 'no HL7 templates'], ['all', 'no target reuse'], ['no target reuse', 'no directory reuse'], ['templates only off', 'all off']] },
  { path: '/exportHl7Encounter?patientId=pat-0001&encounterId=enc-0001-01', pairs: [['all', 'no HL7 templates'], ['all', 'no directory reuse']] },
  { path: '/exportFhirNote?patientId=pat-0001&noteId=note-0001-01', pairs: [['all', 'no FHIR templates'], ['all', 'no target reuse'], ['no target reuse', 'no directory reuse'], ['templates only off', 'all off']] },
  { path: '/exportFhirPatientBundle?patientId=pat-0001', pairs: [['all', 'no FHIR templates']] },
];

const ENTRY = `
import { createExportCore, EXPORT_CORE } from './src/http/pipeline.ts';
import { toNodeListener } from './src/http/node.ts';
export { createInMemoryDataSource, createInMemoryKeyStore, hashApiKey } from './src/http/index.ts';
export function variantListener(options, reuse) {
  const core = createExportCore(options, reuse);
  const handler = Object.assign(async () => { throw new Error('not called'); }, { [EXPORT_CORE]: core });
  return toNodeListener(handler);
}
`;

async function buildVariants() {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'chart-export-bench-'));
  const outfile = join(dir, 'variants.mjs');
  await build({ stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'js' }, bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, logLevel: 'error' });
  return { dir, outfile };
}

async function serveVariant(module, reuse) {
  const { variantListener, createInMemoryDataSource, createInMemoryKeyStore, hashApiKey } = await import(pathToFileURL(module).href);
  const chart = JSON.parse(readFileSync(join(ROOT, 'examples/data/demo-chart.json'), 'utf8'));
  const entries = [{ keyHash: await hashApiKey(API_KEY), keyId: 'bench', partnerId: 'bench', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 1e9, windowSeconds: 3600 } }];
  const options = { dataSource: createInMemoryDataSource(chart), keyStore: createInMemoryKeyStore(entries), hl7: { sendingApplication: 'CHART-EXPORT', sendingFacility: 'BENCH' } };
  return createServer(variantListener(options, reuse));
}

async function childMain() {
  let requests = 0;
  process.on('message', async (message) => {
    if (message.kind === 'stats') {
      process.send({ stats: { cpu: process.cpuUsage(), requests } });
      return;
    }
    const server = await serveVariant(message.module, message.reuse);
    server.on('request', () => requests++);
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  });
}

/** The body without what changes per request (MSH-7, EVN-2, MSH-10; Bundle id and timestamp): variants must agree. */
async function shape(port, path) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-api-key': API_KEY } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return text.replace(/\d{14}[+-]\d{4}/g, 'T').replace(/\|[A-Z]{3}[A-Z0-9]{17}\|/g, '|C|').replace(/"(id|timestamp)":"[^"]*"/g, '"$1":""');
}

async function main() {
  const { dir, outfile } = await buildVariants();
  const servers = {};
  try {
    for (const [name, reuse] of Object.entries(VARIANTS)) servers[name] = await startChild({ module: outfile, reuse });
    const rows = [];
    for (const route of ROUTES) {
      const variants = [...new Set(route.pairs.flat())];
      const shapes = new Set();
      for (const name of variants) shapes.add(await shape(servers[name].port, route.path));
      if (shapes.size !== 1) throw new Error(`${route.path}: the variants answer differently`);
      for (const name of variants) await cannon(servers[name].port, route.path, 1);
      const runs = Object.fromEntries(variants.map((n) => [n, []]));
      for (let i = 0; i < ROUNDS; i++) for (const name of variants) runs[name].push(await measure(servers[name], route.path));
      const median = (xs, key) => xs.map((x) => x[key]).sort((p, q) => p - q)[Math.floor(xs.length / 2)];
      const m = (name) => ({ rps: median(runs[name], 'rps'), cpu: median(runs[name], 'cpu') });
      for (const [withName, withoutName] of route.pairs) {
        const on = m(withName);
        const off = m(withoutName);
        rows.push({
          route: route.path.split('?')[0],
          with: withName,
          without: withoutName,
          'req/s with': Math.round(on.rps),
          'req/s without': Math.round(off.rps),
          'gain req/s': `${((on.rps / off.rps - 1) * 100).toFixed(0)}%`,
          'CPU µs/req with': on.cpu.toFixed(0),
          'CPU µs/req without': off.cpu.toFixed(0),
          'CPU saved': `${((1 - on.cpu / off.cpu) * 100).toFixed(0)}%`,
        });
      }
    }
    console.log(`\nOutput reuse of the HTTP adapter (demo chart, autocannon, ${CONNECTIONS} connections, ${DURATION}s × ${ROUNDS} interleaved rounds, median)`);
    console.table(rows);
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) await childMain();
else await main();
