// Streamed Bundles and compression (docs/streaming.md), on the largest Bundle of the FHIR benchmarks (the
// bench chart: 1000 encounters, 1000 notes of 2 KB, 200 assessments, 200 history entries, all in one Bundle):
//
// - compression: gzip (node:zlib, level 6, what the Node listener uses), brotli at quality 5 (likewise) and the
//   web CompressionStream gzip (the fetch handler's): size ratio, and time against the floor of building the
//   Bundle's JSON text (build + JSON.stringify) measured in the same rounds;
// - event loop: the longest the loop is held while the Bundle is produced, buffered (one synchronous build and
//   stringify) against streamed (streamFhirPatientBundle, default pacing), a 0 ms timer ticking alongside; and
//   the streamed total time against the buffered one (the stream maps every resource twice);
// - memory: the peak heap above the starting heap while producing, buffered and streamed.
//
// Rounds are interleaved (buffered, streamed, compressions in each round) and medians reported, so a busy
// machine disturbs them alike. Headline figures are printed as `SUMMARY\t<figure>\t<value>\t<target>` lines.
//
//   npm run build && node --expose-gc bench/compression.bench.mjs
//   BENCH_ROUNDS=7 node --expose-gc bench/compression.bench.mjs   (default 5)
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildFhirPatientBundle, freezeDirectory, freezePatientChart, streamFhirPatientBundle } from '../dist/index.js';
import { chart as rawChart, directory as rawDirectory } from './bench-chart.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const NOW = '2026-03-01T15:00:00Z';
const chart = freezePatientChart(rawChart);
const directory = freezeDirectory(rawDirectory);
const options = { now: NOW, directory };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gc = () => globalThis.gc?.();

/** CPU time of this process in ms (user + system, every thread: the collector's too). */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Run `work` with a 0 ms timer ticking: the longest gap between ticks, in wall time and in the process's CPU
 * time (on a shared machine the wall gap also holds the time the OS gave other processes).
 */
async function watched(work) {
  gc();
  let last = performance.now();
  let lastCpu = cpuMs();
  let longest = 0;
  let longestCpu = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    const cpu = cpuMs();
    longest = Math.max(longest, now - last);
    longestCpu = Math.max(longestCpu, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const started = performance.now();
  const result = await work();
  const total = performance.now() - started;
  // The gap the work ended in counts too.
  longest = Math.max(longest, performance.now() - last);
  longestCpu = Math.max(longestCpu, cpuMs() - lastCpu);
  running = false;
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { result, total, hold: longest, holdCpu: longestCpu };
}

/**
 * The live heap (after a full collection) above the start: buffered, with the Bundle object and its text alive
 * (both exist at once in `JSON.stringify(build(…))`); streamed, sampled between chunks while they are consumed.
 */
async function liveHeap() {
  const streamed = await liveHeapStreamed();
  const buffered = liveHeapBuffered();
  return { buffered, streamed };
}

function liveHeapBuffered() {
  gc();
  const start = process.memoryUsage().heapUsed;
  const bundle = buildFhirPatientBundle(chart, options);
  const json = JSON.stringify(bundle);
  gc();
  const live = process.memoryUsage().heapUsed - start;
  if (json.length === 0 || bundle === undefined) throw new Error('empty');
  return live / 1048576;
}

async function liveHeapStreamed() {
  gc();
  const start = process.memoryUsage().heapUsed;
  let peak = 0;
  let n = 0;
  for await (const chunk of streamFhirPatientBundle(chart, options)) {
    // Every 8th chunk: a full collection per chunk would take minutes.
    if (chunk.length > 0 && n++ % 8 === 0) {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed - start);
    }
  }
  return peak / 1048576;
}

async function buffered() {
  return JSON.stringify(buildFhirPatientBundle(chart, options));
}

async function streamed() {
  let size = 0;
  let digest = 0;
  // Consume as a writer would: look at each chunk, keep none.
  for await (const chunk of streamFhirPatientBundle(chart, options)) {
    size += chunk.length;
    digest = (digest + chunk.charCodeAt(chunk.length - 1)) | 0;
  }
  return { size, digest };
}

async function webGzip(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const text = await buffered();
const bytes = Buffer.from(text, 'utf8');
{
  let joined = '';
  for await (const chunk of streamFhirPatientBundle(chart, options)) joined += chunk;
  if (joined !== text) throw new Error('the streamed Bundle differs from the buffered one');
}
console.log(`Largest Bundle: ${(bytes.byteLength / 1048576).toFixed(2)} MiB, ${JSON.parse(text).entry.length} entries; ${ROUNDS} interleaved rounds (machine shared with other work).`);

const rows = { build: [], gzip: [], br: [], webGzip: [], bufHold: [], strHold: [], bufHoldCpu: [], strHoldCpu: [], bufTotal: [], strTotal: [] };
let sizes;
for (let round = 0; round < ROUNDS; round++) {
  const b = await watched(buffered);
  const s = await watched(streamed);
  rows.bufHold.push(b.hold);
  rows.strHold.push(s.hold);
  rows.bufTotal.push(b.total);
  rows.strTotal.push(s.total);
  rows.bufHoldCpu.push(b.holdCpu);
  rows.strHoldCpu.push(s.holdCpu);
  rows.build.push(b.total);
  let t = performance.now();
  const gz = gzipSync(bytes);
  rows.gzip.push(performance.now() - t);
  t = performance.now();
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } });
  rows.br.push(performance.now() - t);
  t = performance.now();
  const web = await webGzip(text);
  rows.webGzip.push(performance.now() - t);
  sizes = { gzip: gz.byteLength, br: br.byteLength, web: web.byteLength };
}

const heap = await liveHeap();
const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
const ratio = (x) => (x / bytes.byteLength).toFixed(3);
console.log('');
console.log(`build + stringify (floor)   ${m.build.toFixed(1)} ms`);
console.log(`gzip (node:zlib, level 6)   ${m.gzip.toFixed(1)} ms  ${ratio(sizes.gzip)} of the size  ${(m.gzip / m.build).toFixed(2)}× the floor`);
console.log(`brotli (quality 5)          ${m.br.toFixed(1)} ms  ${ratio(sizes.br)} of the size  ${(m.br / m.build).toFixed(2)}× the floor`);
console.log(`gzip (CompressionStream)    ${m.webGzip.toFixed(1)} ms  ${ratio(sizes.web)} of the size  ${(m.webGzip / m.build).toFixed(2)}× the floor`);
console.log(`event-loop hold (wall): buffered ${m.bufHold.toFixed(1)} ms, streamed ${m.strHold.toFixed(1)} ms`);
console.log(`event-loop hold (CPU):  buffered ${m.bufHoldCpu.toFixed(1)} ms, streamed ${m.strHoldCpu.toFixed(1)} ms`);
console.log(`total time: buffered ${m.bufTotal.toFixed(1)} ms, streamed ${m.strTotal.toFixed(1)} ms`);
console.log(`live heap above start: buffered ${heap.buffered.toFixed(1)} MiB (Bundle and text), streamed ${heap.streamed.toFixed(1)} MiB (peak between chunks)`);
console.log('');
console.log(`SUMMARY\tgzip size ratio, largest Bundle\t${ratio(sizes.gzip)}\t<= 0.200`);
console.log(`SUMMARY\tbrotli q5 size ratio, largest Bundle\t${ratio(sizes.br)}\t<= 0.200`);
console.log(`SUMMARY\tgzip time / build time, largest Bundle\t${(m.gzip / m.build).toFixed(2)}\t<= 1.00`);
console.log(`SUMMARY\tbrotli q5 time / build time, largest Bundle\t${(m.br / m.build).toFixed(2)}\t<= 1.00`);
console.log(`SUMMARY\tevent-loop hold streamed / buffered (CPU)\t${(m.strHoldCpu / m.bufHoldCpu).toFixed(3)}\t<= 0.200`);
console.log(`SUMMARY\tevent-loop hold streamed (CPU ms)\t${m.strHoldCpu.toFixed(1)}\t<= 30`);
console.log(`SUMMARY\tevent-loop hold streamed (wall ms, shared machine)\t${m.strHold.toFixed(1)}\t<= 100`);
console.log(`SUMMARY\tstreamed total time / buffered\t${(m.strTotal / m.bufTotal).toFixed(2)}\t<= 2.50`);
console.log(`SUMMARY\tlive heap streamed / buffered\t${(heap.streamed / Math.max(heap.buffered, 0.001)).toFixed(3)}\t<= 0.250`);
