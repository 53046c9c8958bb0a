/**
 * Benchmark of the FHIR patient Bundle (issue 2): 1 patient, 1000 encounters (2 diagnoses + 1 procedure
 * each), 1000 notes of 2 KB, 200 assessments of 20 items, 200 medical-history entries.
 *
 * Measures, in the same run and on the same output, wall-clock and CPU time (CPU is steadier on a busy
 * machine):
 *   - map + serialize: `JSON.stringify(buildFhirPatientBundle(chart, options))` (the chart check included)
 *   - serialize only:  `JSON.stringify(bundle)` of that Bundle
 *   - the chart check alone (`validatePatientChart`), part of the first
 *   - map + serialize of the same chart checked and frozen beforehand (`freezePatientChart`,
 *     `freezeDirectory`): what a host that checks once and exports many times pays per export
 *   - a floor of map + serialize: a generic deep copy of the Bundle (the least JavaScript that builds objects of
 *     the same shape, sharing its strings) and `JSON.stringify` of that copy; no mapping can cost less
 * and prints the ratios (target ≤ 1.3× for the first), the heap one map + serialize needs, and the peak RSS.
 * The headline ratio (map + serialize with the check / `JSON.stringify`, median of the per-round CPU ratios) is
 * printed as `SUMMARY\t<figure>\t<value>\t<target>` with issue 18's target (≤ 2.0×).
 *
 * Run: `npm run bench` (builds first), or `npx tsup && node --expose-gc bench/fhir-bundle.bench.mjs`.
 * A ratio above the target is reported as a warning; the process fails only on an error.
 */
import { pathToFileURL } from 'node:url';
import { chart, directory } from './bench-chart.mjs';

// `BENCH_DIST=/path/to/dist` runs the bench against another build (a before/after in one sitting).
const DIST = process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname;
const { buildFhirPatientBundle, freezeDirectory, freezePatientChart, validatePatientChart } = await import(pathToFileURL(`${DIST}/index.js`).href);

const TARGET = 1.3;
/** Issue 18's target for the summary line: map + serialize with the check at most 2× `JSON.stringify`. */
const SUMMARY_TARGET = 2.0;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);

const options = { now: '2026-03-01T15:00:00Z', directory };
const frozenChart = freezePatientChart(chart);
const frozenOptions = { ...options, directory: freezeDirectory(directory) };
const gc = globalThis.gc;

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// Peak resident memory of the process so far (the chart is built): the baseline of the peak figure.
const rssBefore = process.resourceUsage().maxRSS * 1024;

// Warm up both paths so the JIT has compiled them before measuring.
for (let i = 0; i < 5; i++) JSON.stringify(buildFhirPatientBundle(chart, options)), JSON.stringify(buildFhirPatientBundle(frozenChart, frozenOptions));

const wall = { mapSerialize: [], serialize: [], check: [], frozen: [], floor: [] };
const cpu = { mapSerialize: [], serialize: [], check: [], frozen: [], floor: [] };

/** The floor's copy: plain objects and arrays of the same keys and order, the same (shared) strings. */
function copy(value) {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
    return out;
  }
  const out = {};
  for (const key in value) out[key] = copy(value[key]);
  return out;
}
let bytes = 0;
let entries = 0;

/** Run `fn` after a full collection; record wall-clock and CPU (user + system, all threads) milliseconds. */
function measure(kind, fn) {
  gc?.();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = fn();
  wall[kind].push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu[kind].push((c.user + c.system) / 1000);
  return result;
}

for (let r = 0; r < ROUNDS; r++) {
  let bundle;
  const json = measure('mapSerialize', () => {
    bundle = buildFhirPatientBundle(chart, options);
    return JSON.stringify(bundle);
  });
  const again = measure('serialize', () => JSON.stringify(bundle));
  measure('check', () => validatePatientChart(chart));
  const fromFrozen = measure('frozen', () => JSON.stringify(buildFhirPatientBundle(frozenChart, frozenOptions)));
  const fromCopy = measure('floor', () => JSON.stringify(copy(bundle)));
  if (again !== json || fromCopy !== json) throw new Error('serialization differs between runs');
  if (fromFrozen !== json) throw new Error('the frozen chart maps to different JSON');
  bytes = json.length;
  entries = bundle.entry.length;
}

// Heap: one map + serialize after a full collection, without collecting in between (upper bound of the
// live + garbage bytes it needs), and what stays reachable when the JSON text is kept.
let heap = { before: 0, after: 0, retained: 0 };
if (gc !== undefined) {
  gc();
  const before = process.memoryUsage().heapUsed;
  const bundle = buildFhirPatientBundle(chart, options);
  const json = JSON.stringify(bundle);
  const after = process.memoryUsage().heapUsed;
  gc();
  const retained = process.memoryUsage().heapUsed;
  heap = { before, after, retained: retained - before };
  if (json.length === 0 || bundle.entry.length === 0) throw new Error('empty output');
}

const ms = (n) => `${n.toFixed(1)} ms`;
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const row = (kind) => ({ 'wall (median)': ms(median(wall[kind])), 'CPU (median)': ms(median(cpu[kind])) });
const ratio = median(wall.mapSerialize) / median(wall.serialize);
const cpuRatio = median(cpu.mapSerialize) / median(cpu.serialize);
const frozenRatio = median(wall.frozen) / median(wall.serialize);
const frozenCpuRatio = median(cpu.frozen) / median(cpu.serialize);
console.log('FHIR patient Bundle: 1 patient, 1000 encounters (2 dx + 1 proc), 1000 notes × 2 KB, 200 assessments × 20 items, 200 history');
console.log(`${entries} entries, ${mb(bytes)} of JSON, ${ROUNDS} rounds, a full GC before each measurement`);
console.table({
  'map + serialize': row('mapSerialize'),
  'serialize only (JSON.stringify)': row('serialize'),
  'chart check alone (included above)': row('check'),
  'ratio map + serialize / serialize': { 'wall (median)': `${ratio.toFixed(2)}×`, 'CPU (median)': `${cpuRatio.toFixed(2)}×` },
  'map + serialize, chart frozen beforehand': row('frozen'),
  'ratio of that / serialize': { 'wall (median)': `${frozenRatio.toFixed(2)}×`, 'CPU (median)': `${frozenCpuRatio.toFixed(2)}×` },
  'floor: deep copy of the Bundle + serialize': row('floor'),
  'ratio of the floor / serialize': {
    'wall (median)': `${(median(wall.floor) / median(wall.serialize)).toFixed(2)}×`,
    'CPU (median)': `${(median(cpu.floor) / median(cpu.serialize)).toFixed(2)}×`,
  },
});
const rssPeak = process.resourceUsage().maxRSS * 1024;
console.table({
  'heap growth during one map + serialize': { value: gc ? mb(heap.after - heap.before) : 'run with --expose-gc' },
  'heap retained (Bundle + JSON text)': { value: gc ? mb(heap.retained) : 'run with --expose-gc' },
  'peak RSS of the process': { value: mb(rssPeak) },
  'peak RSS above the chart alone': { value: mb(rssPeak - rssBefore) },
});
const roundRatio = (kind) => median(cpu[kind].map((x, i) => x / cpu.serialize[i]));
console.log(`SUMMARY\tFHIR patient Bundle (${entries} entries) map + serialize with the check vs JSON.stringify, CPU\t${roundRatio('mapSerialize').toFixed(2)}×\t≤ ${SUMMARY_TARGET.toFixed(1)}×`);
console.log(`SUMMARY\t  of which the chart check alone vs JSON.stringify, CPU\t${roundRatio('check').toFixed(2)}×\t—`);
// Issue 18's ≤ 2.0× is out of reach while the floor plus the check alone exceed it: both shown, per round, CPU.
console.log(`floor (deep copy + serialize) ${roundRatio('floor').toFixed(2)}×, frozen chart ${roundRatio('frozen').toFixed(2)}×, floor + check ${(roundRatio('floor') + roundRatio('check')).toFixed(2)}× of JSON.stringify (CPU, medians of per-round ratios)`);
if (ratio > TARGET) console.warn(`ratio ${ratio.toFixed(2)}× (wall) is above the ${TARGET}× target`);

