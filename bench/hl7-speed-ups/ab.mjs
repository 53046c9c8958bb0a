/**
 * A/B measurement of each speed-up of the HL7 layer (src/hl7/internal/speed-ups.ts) and of the chart check
 * (src/validation/speed-ups.ts: entries with `seam: 'check'`).
 *
 * The library is bundled from src/ once as it is ("on") and once per speed-up with that speed-up's export
 * replaced by its plain equivalent from ./plain.ts ("off"). Each pair is timed on the loads the speed-up
 * concerns, in many short rounds (each a few milliseconds), interleaved (on then off, then off then on), so a
 * busy machine slows both alike, and each is timed in CPU time, not wall-clock time; the figure is the median over the rounds of the per-round ratio off / on,
 * with its quartiles. A gain is "shown" when the rounds without the speed-up are slower significantly more
 * often than not (sign test, p < 0.01) and the median ratio exceeds the A/A control's on the same load (two
 * bundles of the same code) by at least 0.02.
 *
 * Loads (realistic: what an export service does):
 * - `demo messages`: every HL7 message of every patient of examples/data/demo-chart.json (ADT^A31, ADR^A19,
 *   ADT^A08 per encounter, MDM^T02 per note, ORU^R01 per assessment), control ids generated;
 * - `2 KB note`: bench/hl7.bench.mjs's MDM^T02 (a 2 KB note with characters to escape and non-ASCII text);
 * - `check`: `checkHl7Message` of every demo message;
 * - `parse + escape`: `parseHl7Message` of every demo message, then `escapeHl7` of every value read;
 * - `long-text patient`: ADT^A31 and ADR^A19 of bench/support/max-chart.mjs's patient with names, addresses and
 *   display texts at the longest the chart check accepts (about 1 MiB each; issue 18);
 * - `refused long contact`: `checkPatientChart` of the demo's first patient with a contact value of 1 MiB (refused).
 *
 * Every variant's output is compared with the "on" build's first (generated control ids: only their shape), so a
 * plain equivalent that is not equivalent fails the run.
 *
 * Run: `node --expose-gc bench/hl7-speed-ups/ab.mjs` (no build needed; esbuild bundles src/ into a temp dir).
 * `BENCH_ROUNDS` (default 120) sets the rounds; `BENCH_ONLY=name,name` limits the speed-ups measured.
 */
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SEAM = join(ROOT, 'src/hl7/internal/speed-ups.ts');
/** The chart check's seam (src/validation/speed-ups.ts): its speed-ups are replaced from the same plain.ts. */
const CHECK_SEAM = join(ROOT, 'src/validation/speed-ups.ts');
const PLAIN = fileURLToPath(new URL('./plain.ts', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 120);
const PATIENTS_PER_ROUND = 4;

/** Each speed-up: the export(s) replaced when it is off, and the loads it is timed on. */
const SPEED_UPS = [
  // A/A control: a second bundle with nothing replaced. Its ratio is what two builds of the same code differ
  // by; a speed-up's gain counts only beyond it.
  { name: 'none (A/A control)', exports: [], loads: ['demo messages', '2 KB note', 'check', 'parse + escape', 'long-text patient', 'refused long contact'] },
  { name: 'XCN per message', exports: ['cachedXcn'], loads: ['demo messages'] },
  { name: 'separator runs made once', exports: ['separatorRun'], loads: ['2 KB note', 'demo messages'] },
  { name: 'random-byte pool (control ids)', exports: ['randomByte'], loads: ['demo messages'] },
  { name: 'recent date-times', exports: ['cachedDateTime'], loads: ['demo messages', '2 KB note'] },
  { name: 'recent instants', exports: ['cachedInstant'], loads: ['demo messages', '2 KB note'] },
  { name: 'parsed v2.5.1 definitions', exports: ['cachedDefinition'], loads: ['check'] },
  { name: 'standard-delimiter fast path', exports: ['STANDARD_DELIMITERS_FAST_PATH'], loads: ['parse + escape'] },
  { name: 'compiled delimiter sets', exports: ['cachedDelimiterSet'], loads: ['parse + escape'] },
  // Issue 18: work proportional to what is written.
  { name: 'kept prefix only (long text)', exports: ['KEPT_PREFIX_ONLY', 'keptPrefix'], loads: ['long-text patient', 'demo messages'] },
  { name: 'forbidden text: one reading', seam: 'check', exports: ['hasForbiddenText'], loads: ['long-text patient', 'demo messages', '2 KB note'] },
  { name: 'limit rules stop at the limit', seam: 'check', exports: ['countUpTo'], loads: ['refused long contact', 'demo messages'] },
  { name: 'limit rules settled by a length bound', seam: 'check', exports: ['surelyFits'], loads: ['2 KB note', 'demo messages'] },
];

const only = process.env.BENCH_ONLY?.split(',');
const measured = only === undefined ? SPEED_UPS : SPEED_UPS.filter((s) => only.includes(s.name) || s.exports.some((e) => only.includes(e)));

const out = mkdtempSync(join(tmpdir(), 'hl7-speed-ups-'));

/** Bundle src/index.ts; with `off` (a list), through a variant of `seam` whose `off` exports come from plain.ts. */
async function bundle(label, off, seam = 'hl7') {
  const variantOf = seam === 'check' ? CHECK_SEAM : SEAM;
  const file = join(out, `${label.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile: file,
    logLevel: 'error',
    plugins: [
      {
        name: 'speed-up-variant',
        setup(b) {
          b.onResolve({ filter: /speed-ups\.js$/ }, (args) => {
            const file = join(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
            return off === undefined || file !== variantOf ? { path: file } : { path: 'variant', namespace: 'variant' };
          });
          b.onLoad({ filter: /.*/, namespace: 'variant' }, () => ({
            contents: `export * from ${JSON.stringify(variantOf)};\n${off.length === 0 ? '' : `export { ${off.join(', ')} } from ${JSON.stringify(PLAIN)};`}\n`,
            loader: 'ts',
            resolveDir: ROOT,
          }));
        },
      },
    ],
  });
  return import(pathToFileURL(file).href);
}

// ---------------------------------------------------------------------------------------------------
// Loads
// ---------------------------------------------------------------------------------------------------

const DEMO = JSON.parse(readFileSync(join(ROOT, 'examples/data/demo-chart.json'), 'utf8'));
const NOW = '2026-03-01T10:30:00-05:00';

/** Every message of the given demo patients; `fixed` gives fixed control ids (for comparing outputs). */
function demoMessages(lib, fixed, patients = DEMO.patients) {
  const messages = [];
  let n = 0;
  for (const chart of patients) {
    const opts = (code) => ({ now: NOW, directory: DEMO.directory, sendingApplication: 'CHART-EXPORT', ...(fixed ? { controlId: `${code}${(n += 1)}` } : {}) });
    messages.push(lib.buildAdtA31(chart, opts('ADT')), lib.buildAdrA19(chart, opts('ADR')));
    for (const e of chart.encounters ?? []) messages.push(lib.buildAdtA08(chart, e.id, opts('ADT')));
    for (const note of chart.notes ?? []) messages.push(lib.buildMdmT02(chart, note.id, opts('MDM')));
    for (const a of chart.assessments ?? []) messages.push(lib.buildOruR01(chart, a.id, opts('ORU')));
  }
  return messages;
}

/** bench/hl7.bench.mjs's 2 KB note chart. */
function noteChart(size = 2048) {
  const lines = [
    'Subjective: mood better & sleeping 7 h; appetite improved.',
    'Objective: BP 128/82 | HR 72 | T 36.8; PHQ-9 12 ~ moderate.',
    'Meds: sertraline 50 mg -> 100 mg ^ as tolerated; café naïve.',
    'Files: C:\\notes\\2026\\march.txt, \\\\server\\share',
    'Plan: CBT weekly; return in 4 weeks <sooner if worse>.',
  ];
  let text = '';
  for (let i = 0; text.length < size; i++) text += lines[i % lines.length] + (i % 3 === 0 ? '\r\n' : '\n');
  const directory = {
    organizations: [{ id: 'org-001', name: 'Riverside Behavioral Health' }],
    practitioners: [
      {
        id: 'prac-001',
        names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'], suffix: ['MD'] }],
        identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' }],
      },
    ],
    locations: [{ id: 'loc-001', name: 'Riverside Clinic, Suite 200', status: 'active', organizationId: 'org-001' }],
  };
  const chart = {
    patient: {
      id: 'pat-0001',
      identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }],
      names: [{ use: 'official', family: "O'Brien & Walsh", given: ['Mary', 'Anne'] }],
      birthDate: '1984-07-02',
      gender: 'female',
    },
    encounters: [
      {
        id: 'enc-0001',
        status: 'finished',
        class: 'AMB',
        period: { start: '2026-03-01T09:30:00-05:00', end: '2026-03-01T10:10:00-05:00' },
        locationId: 'loc-001',
        participants: [{ role: 'ATND', practitionerId: 'prac-001' }],
      },
    ],
    notes: [
      { id: 'note-0001', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2026-03-01T10:15:00-05:00', authorId: 'prac-001', encounterId: 'enc-0001', text: text.slice(0, size) },
    ],
  };
  return { chart, options: { now: NOW, controlId: 'MDM0001', sendingApplication: 'CHART-EXPORT', directory } };
}

const NOTE = noteChart();

/** The long-text patient and the refused chart, made once (with the "on" build's check). */
let LONG;
async function longTextInputs(lib) {
  if (LONG !== undefined) return LONG;
  const { maxPatient } = await import('../support/max-chart.mjs');
  const patient = maxPatient(lib, (path) => path.includes('names') || path.includes('addresses') || path[path.length - 1] === 'display');
  const refused = structuredClone(DEMO.patients[0]);
  refused.patient.telecoms = [{ system: 'phone', value: `+1 ${'5'.repeat(1_048_570)}` }];
  LONG = { patient, refused };
  return LONG;
}

/**
 * The loads for one build of the library: name → run(round). Round `r` works on 4 demo patients (on and off
 * of one round on the same ones), so one timing takes some 20 ms of CPU, and the rounds cover the whole
 * demo chart.
 */
function loads(lib) {
  const perPatient = DEMO.patients.map((chart) => {
    const fixed = demoMessages(lib, true, [chart]);
    const values = [];
    for (const m of fixed) {
      for (const s of lib.parseHl7Message(m).segments) for (const f of s.fields) for (const r of f ?? []) for (const c of r) for (const v of c) values.push(v);
    }
    return { chart, fixed, values };
  });
  // Round r: patients 4r … 4r + 3 (mod 24).
  const each = (r, fn) => {
    let k = 0;
    for (let i = 0; i < PATIENTS_PER_ROUND; i++) k += fn(perPatient[(r * PATIENTS_PER_ROUND + i) % perPatient.length]);
    return k;
  };
  return {
    'demo messages': (r) => each(r, (p) => demoMessages(lib, false, [p.chart]).length),
    '2 KB note': () => {
      let k = 0;
      for (let i = 0; i < 400; i++) k += lib.buildMdmT02(NOTE.chart, 'note-0001', NOTE.options).length;
      return k;
    },
    check: (r) => each(r, (p) => p.fixed.reduce((k, m) => k + lib.checkHl7Message(m).length, 0)),
    'long-text patient': () => {
      const { chart, directory } = LONG.patient;
      return lib.buildAdtA31(chart, { now: NOW, directory }).length + lib.buildAdrA19(chart, { now: NOW, directory }).length;
    },
    'refused long contact': () => {
      let k = 0;
      for (let i = 0; i < 20; i++) k += lib.checkPatientChart(LONG.refused).length;
      return k;
    },
    'parse + escape': (r) =>
      each(r, (p) => {
        let k = 0;
        for (const m of p.fixed) k += lib.parseHl7Message(m).segments.length;
        for (const v of p.values) k += lib.escapeHl7(v).length;
        return k;
      }),
  };
}

/** What every variant must produce exactly as the "on" build does. */
function outputs(lib) {
  const fixed = demoMessages(lib, true);
  return JSON.stringify([
    fixed,
    lib.buildMdmT02(NOTE.chart, 'note-0001', NOTE.options),
    fixed.map((m) => lib.checkHl7Message(m)),
    fixed.map((m) => lib.parseHl7Message(m)),
    demoMessages(lib, false).map((m) => /^MSH(?:\|[^|\r]*){9}\|([0-9A-Z]{20})\|/.test(m)),
    lib.buildAdtA31(LONG.patient.chart, { now: NOW, controlId: 'ADT1', directory: LONG.patient.directory }),
    lib.buildAdrA19(LONG.patient.chart, { now: NOW, controlId: 'ADR1', directory: LONG.patient.directory }),
    lib.checkPatientChart(LONG.refused),
  ]);
}

// ---------------------------------------------------------------------------------------------------
// Measurement
// ---------------------------------------------------------------------------------------------------

let sink = 0;
const quantile = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))];

/**
 * The CPU time (user + system, ms) of one run: on a machine shared with other work the process is often
 * descheduled for longer than a round lasts, which wall-clock time would count.
 */
function time(fn, r) {
  const c0 = process.cpuUsage();
  sink += fn(r);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/**
 * Interleaved rounds of on and off (which goes first alternates); per round, the ratio off / on. The gain is
 * shown when off is slower in significantly more than half of the rounds (sign test, one-sided, p < 0.01:
 * more than n/2 + 1.17·√n) and the median ratio is at least 1.01.
 */
function compare(on, off) {
  for (let r = 0; r < 24; r++) {
    time(on, r);
    time(off, r);
  }
  globalThis.gc?.();
  const ratios = [];
  const onTimes = [];
  for (let r = 0; r < ROUNDS; r++) {
    let tOn;
    let tOff;
    if (r % 2 === 0) {
      tOn = time(on, r);
      tOff = time(off, r);
    } else {
      tOff = time(off, r);
      tOn = time(on, r);
    }
    ratios.push(tOff / tOn);
    onTimes.push(tOn);
  }
  const slower = ratios.filter((x) => x > 1).length;
  const median = quantile(ratios, 0.5);
  const shown = slower > ROUNDS / 2 + 1.17 * Math.sqrt(ROUNDS) && median >= 1.01;
  return { median, q1: quantile(ratios, 0.25), q3: quantile(ratios, 0.75), slower, shown, onMs: onTimes.reduce((a, b) => a + b, 0) / ROUNDS };
}

const base = await bundle('on', undefined);
await longTextInputs(base);
const baseOutputs = outputs(base);
const baseLoads = loads(base);
const rows = [];
/** The A/A control's median ratio per load. */
const control = {};
for (const s of measured) {
  const variant = await bundle(`off-${s.name}`, s.exports, s.seam);
  if (outputs(variant) !== baseOutputs) {
    console.error(`"${s.name}" off gives other output than on: its plain equivalent is not equivalent`);
    process.exitCode = 1;
    continue;
  }
  const variantLoads = loads(variant);
  for (const load of s.loads) {
    const r = compare(baseLoads[load], variantLoads[load]);
    if (s.exports.length === 0) control[load] = r.median;
    const shown = s.exports.length > 0 && r.shown && r.median >= (control[load] ?? 1) + 0.02;
    rows.push({
      'speed-up': s.name,
      load,
      'CPU ms per round (on)': r.onMs.toFixed(2),
      'off / on (median)': r.median.toFixed(3),
      quartiles: `${r.q1.toFixed(3)} – ${r.q3.toFixed(3)}`,
      'rounds off slower': `${r.slower}/${ROUNDS}`,
      'gain shown': shown ? 'yes' : 'no',
    });
    console.log(`${s.name} / ${load}: off/on ${r.median.toFixed(3)} (${r.q1.toFixed(3)}–${r.q3.toFixed(3)}), off slower in ${r.slower}/${ROUNDS} rounds: ${shown ? 'shown' : 'not shown'}`);
  }
}
console.table(rows);
rmSync(out, { recursive: true, force: true });
if (sink === 42) console.log('');
