/**
 * What each speed-up of the FHIR builders, the NDJSON writer and the chart check gains, measured A/B in one process: the
 * package is built twice from `src` (tsup), once as it is and once with one speed-up switched (a small
 * source patch, below), and the two builds run the same workload in alternating order, round after round,
 * so that a busy machine slows both alike. For each speed-up it prints the median CPU time per workload
 * with and without it, the median gain, and in how many rounds the build with the speed-up was faster.
 *
 * A speed-up is kept only if its gain shows (faster in at least 80 % of the rounds and a median gain of at
 * least 2 %). The kept ones and their gains are listed in docs/performance.md.
 *
 * Run: `node --expose-gc bench/speed-ups.bench.mjs` (no build needed), or `npm run bench -- speed-ups`.
 * BENCH_ROUNDS sets the number of rounds (default 15).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'tsup';
import { chart, directory } from './bench-chart.mjs';
import { DIRECTORY, generatedChart } from './support/population.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const root = new URL('..', import.meta.url);

/** Patch `file` (relative to the repository) by replacing each `[from, to]`; every `from` must occur. */
function patchPlugin(file, replacements) {
  const target = new URL(file, root).pathname;
  return {
    name: 'speed-up-switch',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path !== target) return undefined;
        let text = readFileSync(args.path, 'utf8');
        for (const [from, to] of replacements) {
          if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}: update the switch`);
          text = text.replace(from, to);
        }
        return { contents: text, loader: 'ts' };
      });
    },
  };
}

/** Build `src/index.ts` (optionally patched) and import it. */
async function load(dir, name, plugin) {
  const outDir = join(dir, name);
  await build({ entry: { index: new URL('src/index.ts', root).pathname }, format: ['esm'], outDir, dts: false, silent: true, config: false, esbuildPlugins: plugin ? [plugin] : [] });
  return import(pathToFileURL(join(outDir, 'index.js')).href);
}

/** The bench chart with every chart id given an underscore, which FHIR ids cannot hold (so every id is hashed). */
function withUnsafeIds(c) {
  const id = (s) => s.replace('-', '_');
  return {
    ...c,
    patient: { ...c.patient, id: id(c.patient.id) },
    encounters: c.encounters.map((e) => ({ ...e, id: id(e.id) })),
    notes: c.notes.map((n) => ({ ...n, id: id(n.id), encounterId: id(n.encounterId) })),
    assessments: c.assessments.map((a) => ({ ...a, id: id(a.id), encounterId: id(a.encounterId) })),
    medicalHistory: c.medicalHistory.map((h) => ({ ...h, id: id(h.id) })),
  };
}

const now = '2026-03-01T15:00:00Z';

/** The NDJSON of `charts` over `dir`, drained as a file sink would read it (the writer is async). */
async function ndjson(api, charts, dir) {
  let out = '';
  for await (const line of api.streamFhirNdjson(charts, { directory: dir })) out += line.text;
  return out;
}

/** The NDJSON workload over 1 000 generated patients (frozen) and their small frozen directory. */
function population(api) {
  const charts = Array.from({ length: 1000 }, (_, i) => api.freezePatientChart(generatedChart(i)));
  const dir = api.freezeDirectory(DIRECTORY);
  return () => ndjson(api, charts, dir);
}

// The switch of the NDJSON writer's direct JSON: the same names bound to the mappers.
const DIRECT_JSON_IMPORT = "import { compositionJson, documentReferenceJson, historyConditionJson, JSON_MAKERS } from './direct-json.js';";
const MAPPERS_IMPORT =
  "import { mapComposition as compositionJson } from '../composition.js';\nimport { mapDocumentReference as documentReferenceJson } from '../document-reference.js';\nimport { mapHistoryCondition as historyConditionJson } from '../history-condition.js';\nimport { RESOURCE_MAKERS as JSON_MAKERS } from './groups.js';";
const unsafeChart = withUnsafeIds(chart);

/** The speed-ups: how to build without (or with) each, and the workload that shows its effect. */
const SWITCHES = [
  {
    name: 'frozen-object memory (validation/memo.ts): export of a chart frozen once',
    off: ['src/validation/memo.ts', [['return typeof value === \'object\' && value !== null && checked.has(value);', 'return false;']]],
    workload: (api) => {
      const frozen = api.freezePatientChart(chart);
      const options = { now, directory: api.freezeDirectory(directory) };
      return () => JSON.stringify(api.buildFhirPatientBundle(frozen, options));
    },
  },
  {
    name: 'lazy id plan (fhir/id-plan.ts buildIdPlan): note export of one note',
    off: ['src/fhir/id-plan.ts', [['    this.organizations = organizations;\n  }', "    this.organizations = organizations;\n    this.diagnosisIds = planEncounterChildren(this.encounters, 'diagnosis', new Set(conditions.keys()));\n    this.procedureIds = planEncounterChildren(this.encounters, 'procedure', new Set());\n    this.coverageIds = planCoverages(chart.patient.id, this.patient, this.coverages);\n    this.payerIds = planPayers(this.coverages, organizations);\n  }"]]],
    workload: (api) => () => {
      let out = '';
      for (let i = 0; i < 50; i++) out += JSON.stringify(api.buildFhirNoteExport(chart, chart.notes[i * 20].id, { now, directory }));
      return out;
    },
  },
  {
    name: 'chart-id cache (fhir/ids.ts cachedHashedId): patient Bundle, every chart id hashed',
    off: ['src/fhir/ids.ts', [['  return cachedHashedId(chartId);\n}', '  return hashedFhirId(chartId, chartId);\n}']]],
    workload: (api) => () => JSON.stringify(api.buildFhirPatientBundle(unsafeChart, { now, directory })),
  },
  {
    name: 'chart-id cache, bench chart as it is (FHIR-safe ids: the cache is never asked)',
    off: ['src/fhir/ids.ts', [['  return cachedHashedId(chartId);\n}', '  return hashedFhirId(chartId, chartId);\n}']]],
    workload: (api) => () => JSON.stringify(api.buildFhirPatientBundle(chart, { now, directory })),
  },
  {
    // Removed (no gain shown): measured with the cache switched back on.
    name: 'instrument-canonical cache (removed from fhir/ids.ts): patient Bundle, 200 assessments of one instrument',
    on: ['src/fhir/ids.ts', [['  return `urn:uuid:${hexToUuidV8(sha256Hex128(`chart-export:instrument\\u001f${instrument.id}`))}`;\n}', '  let url = CANONICALS.get(instrument.id);\n  if (url === undefined) {\n    url = `urn:uuid:${hexToUuidV8(sha256Hex128(`chart-export:instrument\\u001f${instrument.id}`))}`;\n    if (CANONICALS.size >= 1000) CANONICALS.clear();\n    CANONICALS.set(instrument.id, url);\n  }\n  return url;\n}\nconst CANONICALS = new Map<string, string>();']]],
    workload: (api) => () => JSON.stringify(api.buildFhirPatientBundle(chart, { now, directory })),
  },
  {
    // Removed (no gain shown): measured with the buffers switched back on.
    name: 'reused base64 scratch buffers (removed from fhir/internal/base64.ts): patient Bundle with 1000 notes of 2 KB',
    on: ['src/fhir/internal/base64.ts', [['  const bytes = new Uint8Array(text.length * 3);', '  let bytes = utf8Buffer;\n  if (bytes.length < text.length * 3) {\n    bytes = new Uint8Array(text.length * 3);\n    if (bytes.length <= 1 << 20) utf8Buffer = bytes;\n  }'], ['  const out = new Uint16Array(units);', '  let out = digitBuffer;\n  if (out.length < units) {\n    out = new Uint16Array(units);\n    if (out.length * 2 <= 1 << 20) digitBuffer = out;\n  }'], ['const DECODER = new TextDecoder();', 'const DECODER = new TextDecoder();\nlet utf8Buffer = new Uint8Array(0x10000);\nlet digitBuffer = new Uint16Array(0x8000);']]],
    workload: (api) => () => JSON.stringify(api.buildFhirPatientBundle(chart, { now, directory })),
  },
  {
    name: 'direct JSON of the NDJSON writer (fhir/internal/direct-json.ts): NDJSON of the bench chart',
    off: ['src/fhir/internal/chart-resources.ts', [[DIRECT_JSON_IMPORT, MAPPERS_IMPORT]]],
    workload: (api) => {
      const charts = [api.freezePatientChart(chart)];
      const dir = api.freezeDirectory(directory);
      return () => ndjson(api, charts, dir);
    },
  },
  {
    name: 'direct JSON of the NDJSON writer (fhir/internal/direct-json.ts): NDJSON of 1 000 generated patients',
    off: ['src/fhir/internal/chart-resources.ts', [[DIRECT_JSON_IMPORT, MAPPERS_IMPORT]]],
    workload: (api) => population(api),
  },
  {
    name: 'kept shapes (internal/kept-shapes.ts): NDJSON of 1 000 generated patients after a full collection',
    off: ['src/internal/kept-shapes.ts', [['  kept.push(instance);\n', '']]],
    workload: (api) => population(api),
  },
  {
    // Removed (no gain shown): measured with it switched back on.
    name: 'shared lines kept as text up to 256 characters (removed from fhir/ndjson.ts digest): NDJSON of 1 000 generated patients, one payer',
    on: ['src/fhir/ndjson.ts', [['function digest(text: string): string {\n', 'function digest(text: string): string {\n  if (text.length <= 256) return text;\n']]],
    workload: (api) => population(api),
  },
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU milliseconds (user + system) of one run of `fn` (awaited when it is async), after a full collection. */
async function cpuMs(fn) {
  globalThis.gc?.();
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const dir = mkdtempSync(join(tmpdir(), 'chart-export-speed-ups-'));
const filter = process.argv[2];
try {
  let n = 0;
  for (const s of SWITCHES) {
    if (filter !== undefined && !s.name.includes(filter)) continue;
    const [file, replacements] = s.off ?? s.on;
    // A fresh build of each kind per speed-up, so no earlier workload has shaped either one's JIT state.
    const plain = await load(dir, `plain-${n}`);
    const patched = await load(dir, `variant-${n++}`, patchPlugin(file, replacements));
    const withIt = s.off !== undefined ? plain : patched;
    const without = s.off !== undefined ? patched : plain;
    const runWith = s.workload(withIt);
    const runWithout = s.workload(without);
    // Same output either way (the speed-up changes no output), and both warmed up.
    for (let i = 0; i < 3; i++) if ((await runWith()) !== (await runWithout())) throw new Error(`${s.name}: the output differs with and without`);
    const on = [];
    const off = [];
    let wins = 0;
    for (let r = 0; r < ROUNDS; r++) {
      let a;
      let b;
      if (r % 2 === 0) (a = await cpuMs(runWith)), (b = await cpuMs(runWithout));
      else (b = await cpuMs(runWithout)), (a = await cpuMs(runWith));
      on.push(a);
      off.push(b);
      if (a < b) wins++;
    }
    const gain = (median(off) - median(on)) / median(off);
    const shown = wins >= 0.8 * ROUNDS && gain >= 0.02;
    console.log(`${s.name}\n  with ${median(on).toFixed(1)} ms, without ${median(off).toFixed(1)} ms (CPU, median of ${ROUNDS}); gain ${(gain * 100).toFixed(1)} %, faster in ${wins}/${ROUNDS} rounds: ${shown ? 'gain shown' : 'no gain shown'}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
