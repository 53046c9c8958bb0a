/**
 * Benchmark of the HL7 v2.5.1 core (issue 3), all figures measured in the same run:
 *
 * 1. Build + serialize an MDM^T02 for a note of 2 KB holding characters to escape (`& | ^ ~ \`, line
 *    breaks, non-ASCII), three ways that produce the same text (checked byte for byte):
 *    - `buildMdmT02(chart, noteId, options)`: the chart check, segment builders, escaping, length fitting;
 *    - floor: the same values taken from the chart and directory, each escaped by one regex replace (the
 *      delimiters and every control character, as escapeHl7), and
 *      the segments written as plain string concatenation; no chart check, no length fitting, no table
 *      look-ups (what a hand-written exporter for this one input does at best);
 *    - @medplum/core's `Hl7Message` / `Hl7Segment` built from the same (pre-escaped) field strings and
 *      serialized with `toString()` (Medplum does not escape, so its input is escaped by the same regex).
 *    Target: ≤ 0.8× the floor (issue 18), and faster than Hl7Message. The ratio (and the check's alone) is also
 *    printed as `SUMMARY\t<figure>\t<value>\t<target>`.
 *    The chart check (`validatePatientChart` + `validateDirectory`) is timed alone in the same rounds, and the
 *    build without it is reported too: per round, buildMdmT02's time less the check's, then the median.
 * 2. Escape throughput over 1 MB of text with 2 % special characters: `escapeHl7` vs one regex replace doing
 *    the same job (and `unescapeHl7` on the result, for reference).
 *
 * Figures are steady state (one full GC before the rounds); the MDM comparison is repeated with a full GC
 * before every timing, which makes regular-expression-heavy code (the chart check, the builders) warm up again.
 *
 * Run: `npm run bench` (builds first), or `npx tsup && node --expose-gc bench/hl7.bench.mjs`.
 * A ratio above its target is reported as a warning; the process fails only on an error or a mismatch.
 */
import { Hl7Message, Hl7Segment } from '@medplum/core';
import { pathToFileURL } from 'node:url';

// `BENCH_DIST=/path/to/dist` runs the bench against another build (a before/after in one sitting).
const DIST = process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname;
const { buildMdmT02, escapeHl7, unescapeHl7, validateDirectory, validatePatientChart } = await import(pathToFileURL(`${DIST}/index.js`).href);

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const TARGET_FLOOR = 0.8;

// ---------------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------------

/** 2 KB of note text: clinical lines with `&`, `|`, `^`, `~`, `\`, CRLF and LF, and non-ASCII. */
function noteText() {
  const lines = [
    'Subjective: mood better & sleeping 7 h; appetite improved.',
    'Objective: BP 128/82 | HR 72 | T 36.8; PHQ-9 12 ~ moderate.',
    'Meds: sertraline 50 mg -> 100 mg ^ as tolerated; café naïve.',
    'Files: C:\\notes\\2026\\march.txt, \\\\server\\share',
    'Plan: CBT weekly; return in 4 weeks <sooner if worse>.',
  ];
  let text = '';
  for (let i = 0; text.length < 2048; i++) text += lines[i % lines.length] + (i % 3 === 0 ? '\r\n' : '\n');
  return text.slice(0, 2048);
}

const NOW = '2026-03-01T10:30:00-05:00';
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
    addresses: [{ use: 'home', lines: ['12 Elm St', 'Apt 4'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
    telecoms: [{ system: 'phone', value: '+1 217 555 0142', use: 'home' }],
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
    {
      id: 'note-0001',
      type: 'progress-note',
      title: 'Progress note',
      status: 'final',
      authored: '2026-03-01T10:15:00-05:00',
      authorId: 'prac-001',
      encounterId: 'enc-0001',
      text: noteText(),
    },
  ],
};
const options = { now: NOW, controlId: 'MDM0001', sendingApplication: 'CHART-EXPORT', sendingFacility: 'RIVERSIDE', directory };

// ---------------------------------------------------------------------------------------------------
// The floor: concatenation and one regex replace per value
// ---------------------------------------------------------------------------------------------------

const ESCAPES = { '\\': '\\E\\', '|': '\\F\\', '^': '\\S\\', '&': '\\T\\', '~': '\\R\\', '\r': '\\X0D\\', '\n': '\\X0A\\' };
// The same job as escapeHl7: the delimiters, and every control character (C0, DEL, C1) as its UTF-8 bytes in hex.
// eslint-disable-next-line no-control-regex -- control characters are escaped
const SPECIAL_RE = /[\\|^~&\u0000-\u001f\u007f-\u009f]/g;
const hex2 = (n) => n.toString(16).toUpperCase().padStart(2, '0');
const controlHex = (c) => {
  const code = c.charCodeAt(0);
  return code < 0x80 ? `\\X${hex2(code)}\\` : `\\XC2${hex2(code)}\\`;
};
const esc = (s) => s.replace(SPECIAL_RE, (c) => ESCAPES[c] ?? controlHex(c));

const NOTE = chart.notes[0];

/** ISO date-time with seconds and offset → HL7 DTM, by slicing (the floor's input has no fractions). */
const dtm = (d) => d.slice(0, 4) + d.slice(5, 7) + d.slice(8, 10) + d.slice(11, 13) + d.slice(14, 16) + d.slice(17, 19) + d.slice(19, 22) + d.slice(23, 25);
const date = (d) => d.replaceAll('-', '');

/** Every value of the MDM^T02, computed from the chart and directory and escaped with the regex. */
function values(c, dir, now) {
  const p = c.patient;
  const n = p.names[0];
  const a = p.addresses[0];
  const note = c.notes[0];
  const enc = c.encounters.find((e) => e.id === note.encounterId);
  const loc = dir.locations.find((l) => l.id === enc.locationId);
  const org = dir.organizations.find((o) => o.id === loc.organizationId);
  const xcn = (id) => {
    const pr = dir.practitioners.find((x) => x.id === id);
    const nm = pr.names[0];
    const ident = pr.identifiers[0];
    return `${esc(ident.value)}^${esc(nm.family)}^${esc(nm.given[0])}^^${esc(nm.suffix[0])}^${esc(nm.prefix[0])}^^^&${esc(ident.system)}&URI^^^^${ident.type}`;
  };
  const id = p.identifiers[0];
  return {
    now: dtm(now),
    cx: `${esc(id.value)}^^^&${esc(id.system.slice(8))}&ISO^${id.type}`,
    xpn: `${esc(n.family)}^${esc(n.given[0])}^${esc(n.given[1])}^^^^L`,
    birth: date(p.birthDate),
    sex: p.gender === 'female' ? 'F' : 'M',
    xad: `${esc(a.lines[0])}^${esc(a.lines[1])}^${esc(a.city)}^${esc(a.state)}^${esc(a.postalCode)}^${esc(a.country)}^H`,
    phone: `${esc(p.telecoms[0].value)}^PRN^PH`,
    pl: `^^^${esc(org.id)}^^^^^${esc(loc.name)}^${esc(loc.id)}`,
    attending: xcn(enc.participants[0].practitionerId),
    visit: `${esc(enc.id)}^^^CHART-EXPORT^VN`, // CX-4: the sending application assigns chart ids
    start: dtm(enc.period.start),
    end: dtm(enc.period.end),
    authored: dtm(note.authored),
    author: xcn(note.authorId),
    noteId: esc(note.id),
    title: esc(note.title),
    lines: note.text.split(/\r\n|\n/).map(esc).join('~'),
  };
}

/** The MDM^T02 fields as arrays (for Medplum). */
function mdmFields(c) {
  const v = values(c, directory, NOW);
  return [
    ['MSH', '^~\\&', 'CHART-EXPORT', 'RIVERSIDE', '', '', v.now, '', 'MDM^T02^MDM_T02', 'MDM0001', 'P', '2.5.1', '', '', '', '', '', 'UNICODE UTF-8'],
    ['EVN', 'T02', v.now],
    ['PID', '1', '', v.cx, '', v.xpn, '', v.birth, v.sex, '', '', v.xad, '', v.phone],
    ['PV1', '1', 'O', v.pl, '', '', '', v.attending, ...Array(11).fill(''), v.visit, ...Array(24).fill(''), v.start, v.end],
    ['TXA', '1', 'PR', 'TX', '', '', v.authored, '', '', v.author, '', '', v.noteId, '', '', '', '', 'AU', 'U', 'AV'],
    ['OBX', '1', 'TX', `11506-3^${v.title}^LN`, '', v.lines, '', '', '', '', '', 'F', '', '', v.authored, '', v.author],
  ];
}

/** The floor: the same values, concatenated into the message text. */
function floor(c) {
  const v = values(c, directory, NOW);
  return (
    `MSH|^~\\&|CHART-EXPORT|RIVERSIDE|||${v.now}||MDM^T02^MDM_T02|MDM0001|P|2.5.1||||||UNICODE UTF-8\r` +
    `EVN|T02|${v.now}\r` +
    `PID|1||${v.cx}||${v.xpn}||${v.birth}|${v.sex}|||${v.xad}||${v.phone}\r` +
    `PV1|1|O|${v.pl}||||${v.attending}||||||||||||${v.visit}|||||||||||||||||||||||||${v.start}|${v.end}\r` +
    `TXA|1|PR|TX|||${v.authored}|||${v.author}|||${v.noteId}|||||AU|U|AV\r` +
    `OBX|1|TX|11506-3^${v.title}^LN||${v.lines}||||||F|||${v.authored}||${v.author}\r`
  );
}

function medplum(c) {
  return `${new Hl7Message(mdmFields(c).map((f) => new Hl7Segment(f))).toString()}\r`;
}

// ---------------------------------------------------------------------------------------------------
// Measurement
// ---------------------------------------------------------------------------------------------------

let sink = 0;

/**
 * Use a message the way a writer would: reading a character makes V8 flatten a string built by
 * concatenation, a cost every candidate's caller pays before sending the text anywhere.
 */
const use = (text) => text.length + text.charCodeAt(text.length >> 1);

/**
 * Time several candidates in the same rounds, interleaved (a round times each candidate in turn), so a busy
 * machine slows them alike. Returns per candidate the median time per call in microseconds, and per
 * candidate the median of its per-round ratio to the first one (and the per-round figures). With `gcEachTime`, a full garbage
 * collection runs before each timing (V8 then drops compiled regular expressions, which must warm up again);
 * without it, one runs before the rounds only (steady state).
 */
function measure(candidates, iterations, gcEachTime = false) {
  for (const fn of candidates) for (let i = 0; i < iterations; i++) sink += use(fn());
  const times = candidates.map(() => []);
  const ratios = candidates.map(() => []);
  globalThis.gc?.();
  for (let r = 0; r < ROUNDS; r++) {
    const round = candidates.map((fn) => {
      if (gcEachTime) globalThis.gc?.();
      const t0 = performance.now();
      for (let i = 0; i < iterations; i++) sink += use(fn());
      return ((performance.now() - t0) * 1000) / iterations;
    });
    round.forEach((t, k) => {
      times[k].push(t);
      ratios[k].push(t / round[0]);
    });
  }
  return { time: times.map(median), ratio: ratios.map(median), rounds: { times, ratios } };
}

const median = (list) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];

function check(label, actual, expected) {
  if (actual !== expected) {
    let i = 0;
    while (i < actual.length && actual[i] === expected[i]) i++;
    console.error(`${label} differs at character ${i}:\n  got      ${JSON.stringify(actual.slice(Math.max(0, i - 40), i + 40))}\n  expected ${JSON.stringify(expected.slice(Math.max(0, i - 40), i + 40))}`);
    process.exit(1);
  }
}

// 1. MDM^T02
const ours = buildMdmT02(chart, 'note-0001', options);
check('floor', floor(chart), ours);
check('Hl7Message', medplum(chart), ours);
const noteBytes = new TextEncoder().encode(NOTE.text).length;
const specials = [...NOTE.text].filter((ch) => '\\|^~&\r\n'.includes(ch)).length;

const chartCheck = () => {
  validatePatientChart(chart);
  validateDirectory(directory);
  return '';
};
const mdm = measure([() => floor(chart), () => buildMdmT02(chart, 'note-0001', options), () => medplum(chart), chartCheck], 1000);
const [tFloor, tOurs, tMedplum, tCheck] = mdm.time;
const [, ratio, medplumRatio, checkRatio] = mdm.ratio;
// The build without the chart check: in each round, buildMdmT02's time less the check's, then the median.
const rounds = mdm.rounds;
const tBuild = median(rounds.times[1].map((t, r) => t - rounds.times[3][r]));
const buildRatio = median(rounds.ratios[1].map((x, r) => x - rounds.ratios[3][r]));
const afterGc = measure([() => floor(chart), () => buildMdmT02(chart, 'note-0001', options), () => medplum(chart)], 1000, true);

console.log(`MDM^T02, note ${noteBytes} bytes with ${specials} characters to escape; message ${ours.length} characters (same text from all three)`);
console.table([
  { build: 'buildMdmT02 (chart check + build + serialize)', 'µs/message': tOurs.toFixed(1), 'messages/s': Math.round(1e6 / tOurs), 'vs floor': ratio.toFixed(2) },
  { build: 'floor: concatenation + regex escape', 'µs/message': tFloor.toFixed(1), 'messages/s': Math.round(1e6 / tFloor), 'vs floor': '1.00' },
  { build: '@medplum/core Hl7Message (pre-escaped)', 'µs/message': tMedplum.toFixed(1), 'messages/s': Math.round(1e6 / tMedplum), 'vs floor': medplumRatio.toFixed(2) },
  { build: '  of which: the chart check alone (validatePatientChart + validateDirectory)', 'µs/message': tCheck.toFixed(1), 'messages/s': Math.round(1e6 / tCheck), 'vs floor': checkRatio.toFixed(2) },
  { build: '  of which: the build without the check (per round: buildMdmT02 − check)', 'µs/message': tBuild.toFixed(1), 'messages/s': Math.round(1e6 / tBuild), 'vs floor': buildRatio.toFixed(2) },
]);
console.log(`buildMdmT02 without its chart check: ${tBuild.toFixed(1)} µs, ${buildRatio.toFixed(2)}× the floor (median over the rounds of buildMdmT02 less the check, timed in the same round)`);
console.log(`With a full GC before every timing: buildMdmT02 ${afterGc.ratio[1].toFixed(2)}×, Hl7Message ${afterGc.ratio[2].toFixed(2)}× the floor`);
console.log(`buildMdmT02 / floor = ${ratio.toFixed(2)} (target ≤ ${TARGET_FLOOR}); buildMdmT02 / Hl7Message = ${(ratio / medplumRatio).toFixed(2)} (target < 1) — medians of per-round ratios`);
console.log(`SUMMARY\tMDM^T02 build + serialize with the check vs the concatenation + regex floor\t${ratio.toFixed(2)}×\t≤ ${TARGET_FLOOR}×`);
console.log(`SUMMARY\t  of which the chart check alone vs the floor\t${checkRatio.toFixed(2)}×\t—`);
if (ratio > TARGET_FLOOR) console.warn(`WARNING: buildMdmT02 is ${ratio.toFixed(2)}× the floor, above the ${TARGET_FLOOR}× target`);
if (ratio >= medplumRatio) console.warn('WARNING: buildMdmT02 is not faster than Hl7Message');

// 2. Escape throughput, 1 MB with 2 % specials
const SPECIAL_CHARS = ['\\', '|', '^', '~', '&', '\r', '\n'];
const PLAIN = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789.,;:-';
let seed = 12345;
const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
let big = '';
const chunk = [];
for (let i = 0; i < 1024 * 1024; i++) chunk.push(next() < 0.02 ? SPECIAL_CHARS[Math.floor(next() * 7)] : PLAIN[Math.floor(next() * PLAIN.length)]);
big = chunk.join('');
const escapedBig = escapeHl7(big);
check('escapeHl7 vs regex', escapedBig, esc(big));
if (unescapeHl7(escapedBig) !== big) {
  console.error('unescapeHl7(escapeHl7(text)) differs from text');
  process.exit(1);
}
const esc1mb = measure([() => esc(big), () => escapeHl7(big), () => unescapeHl7(escapedBig)], 5);
const [tRegex, tEscape, tUnescape] = esc1mb.time;
const mb = big.length / (1024 * 1024);
console.log(`\nEscape, ${mb.toFixed(0)} MB (${big.length} characters, 2 % specials)`);
console.table([
  { operation: 'escapeHl7', 'ms/MB': (tEscape / 1000 / mb).toFixed(2), 'MB/s': Math.round((mb * 1e6) / tEscape), 'vs regex': esc1mb.ratio[1].toFixed(2) },
  { operation: 'one regex replace', 'ms/MB': (tRegex / 1000 / mb).toFixed(2), 'MB/s': Math.round((mb * 1e6) / tRegex), 'vs regex': '1.00' },
  { operation: 'unescapeHl7 (of the escaped text)', 'ms/MB': (tUnescape / 1000 / mb).toFixed(2), 'MB/s': Math.round((mb * 1e6) / tUnescape), 'vs regex': esc1mb.ratio[2].toFixed(2) },
]);
if ((esc1mb.ratio[1] ?? 0) > 1) console.warn('WARNING: escapeHl7 is slower than one regex replace');
if (sink === 42) console.log('');
