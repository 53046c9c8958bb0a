/**
 * The synthetic demo chart document served by `npm start`: `generateDemoChart()` builds it, `formatChartDocument()`
 * writes it as `examples/data/demo-chart.json` holds it (`generate-demo-chart.mjs` writes and checks that file).
 * The service command carries this module instead of the 736 KB document and builds the chart when it starts.
 *
 * Deterministic: a seeded PRNG (mulberry32) and fixed tables, no dependency, no clock, no file access. Every
 * call gives an equal document.
 *
 * Everything is synthetic: names, identifiers, NPIs (Luhn-valid, not real), phone numbers (555-01xx),
 * addresses and e-mail domains (example.com/.org/.net). Codes (ICD-10-CM, CPT, SNOMED CT, LOINC) are real.
 * Times are America/Chicago wall-clock times with the offset in force on that day (-06:00 CST, -05:00 CDT).
 */
const SEED = 0x5eed2026;

// ---------------------------------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------------------------------

/** mulberry32: a small, fast 32-bit PRNG; the same seed always gives the same sequence. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** The PRNG of the document being generated: a fresh sequence from `SEED` for each `generateDemoChart()` call. */
let rnd = mulberry32(SEED);
const int = (min, max) => min + Math.floor(rnd() * (max - min + 1));
const pick = (list) => list[Math.floor(rnd() * list.length)];
const chance = (p) => rnd() < p;
const pad = (n, w = 2) => String(n).padStart(w, '0');

// ---------------------------------------------------------------------------------------------------
// America/Chicago time: DST from the second Sunday of March 02:00 CST (08:00 UTC) to the first Sunday of
// November 02:00 CDT (07:00 UTC).
// ---------------------------------------------------------------------------------------------------

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function nthSunday(year, month, n) {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((7 - first) % 7) + (n - 1) * 7;
}

function chicagoOffsetMinutes(utcMs) {
  const y = new Date(utcMs).getUTCFullYear();
  const start = Date.UTC(y, 2, nthSunday(y, 3, 2), 8);
  const end = Date.UTC(y, 10, nthSunday(y, 11, 1), 7);
  return utcMs >= start && utcMs < end ? -300 : -360;
}

/** The UTC instant of a Chicago wall-clock time. */
function chicago(y, mo, d, h = 0, mi = 0, s = 0) {
  const naive = Date.UTC(y, mo - 1, d, h, mi, s);
  let ms = naive + 360 * MINUTE; // try CST
  if (chicagoOffsetMinutes(ms) === -300) ms = naive + 300 * MINUTE;
  return ms;
}

/** ISO date-time in Chicago time with its offset, e.g. `2025-03-10T09:30:00-05:00`. */
function iso(ms) {
  const off = chicagoOffsetMinutes(ms);
  const l = new Date(ms + off * MINUTE);
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  return `${l.getUTCFullYear()}-${pad(l.getUTCMonth() + 1)}-${pad(l.getUTCDate())}T${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

/** ISO calendar date in Chicago time. */
function isoDate(ms) {
  return iso(ms).slice(0, 10);
}

const RANGE_START = chicago(2023, 1, 9);
const RANGE_END = chicago(2026, 6, 30);

/** A weekday clinic time (08:00–16:45) on a random day in [from, to]. */
function clinicTime(from, to) {
  for (;;) {
    const day = new Date(from + Math.floor(rnd() * Math.max(1, to - from)));
    const ms = chicago(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), int(8, 16), pick([0, 15, 30, 45]));
    const dow = new Date(ms - 6 * HOUR).getUTCDay();
    if (dow !== 0 && dow !== 6) return ms;
  }
}

// ---------------------------------------------------------------------------------------------------
// Codes
// ---------------------------------------------------------------------------------------------------

const ICD = {
  'F32.1': 'Major depressive disorder, single episode, moderate',
  'F33.1': 'Major depressive disorder, recurrent, moderate',
  'F33.2': 'Major depressive disorder, recurrent severe without psychotic features',
  'F41.1': 'Generalized anxiety disorder',
  'F43.10': 'Post-traumatic stress disorder, unspecified',
  'F31.81': 'Bipolar II disorder',
  'F10.20': 'Alcohol dependence, uncomplicated',
  'F17.210': 'Nicotine dependence, cigarettes, uncomplicated',
  'G47.00': 'Insomnia, unspecified',
  'E11.9': 'Type 2 diabetes mellitus without complications',
  'E78.5': 'Hyperlipidemia, unspecified',
  'E03.9': 'Hypothyroidism, unspecified',
  I10: 'Essential (primary) hypertension',
  'J45.909': 'Unspecified asthma, uncomplicated',
  'J45.901': 'Unspecified asthma with (acute) exacerbation',
  'M54.50': 'Low back pain, unspecified',
  'R07.9': 'Chest pain, unspecified',
  'R51.9': 'Headache, unspecified',
  'S93.401A': 'Sprain of unspecified ligament of right ankle, initial encounter',
  'J06.9': 'Acute upper respiratory infection, unspecified',
  'N39.0': 'Urinary tract infection, site not specified',
  'K21.9': 'Gastro-esophageal reflux disease without esophagitis',
  'Z00.00': 'Encounter for general adult medical examination without abnormal findings',
};
const CPT = {
  90791: 'Psychiatric diagnostic evaluation',
  90832: 'Psychotherapy, 30 minutes with patient',
  90834: 'Psychotherapy, 45 minutes with patient',
  90837: 'Psychotherapy, 60 minutes with patient',
  96127: 'Brief emotional/behavioral assessment, with scoring and documentation, per standardized instrument',
  99203: 'Office or other outpatient visit, new patient, low medical decision making',
  99213: 'Office or other outpatient visit, established patient, low medical decision making',
  99214: 'Office or other outpatient visit, established patient, moderate medical decision making',
  99284: 'Emergency department visit, moderate medical decision making',
  99223: 'Initial hospital inpatient or observation care, high medical decision making',
  99238: 'Hospital inpatient or observation discharge day management, 30 minutes or less',
  99349: 'Home or residence visit, established patient, moderate medical decision making',
  93000: 'Electrocardiogram, routine, with at least 12 leads, with interpretation and report',
  94640: 'Pressurized or nonpressurized inhalation treatment for acute airway obstruction',
  36415: 'Collection of venous blood by venipuncture',
  83036: 'Hemoglobin; glycosylated (A1C)',
};
const SCT = {
  185349003: 'Encounter for check up',
  390906007: 'Follow-up encounter',
  4525004: 'Emergency department patient visit',
  183452005: 'Emergency hospital admission',
  448337001: 'Telemedicine consultation with patient',
  228557008: 'Cognitive and behavioral therapy',
  76168009: 'Group psychotherapy',
  171207006: 'Depression screening',
  710081004: 'Smoking cessation therapy',
  29303009: 'Electrocardiographic procedure',
  35489007: 'Depressive disorder',
  195967001: 'Asthma',
  38341003: 'Hypertensive disorder, systemic arterial',
  55822004: 'Hyperlipidemia',
  73211009: 'Diabetes mellitus',
  396275006: 'Osteoarthritis',
  161891005: 'Backache',
};
const icd = (code) => ({ system: 'icd-10-cm', code, display: ICD[code] });
const cpt = (code) => ({ system: 'cpt', code: String(code), display: CPT[code] });
const sct = (code) => ({ system: 'snomed-ct', code: String(code), display: SCT[code] });

// ---------------------------------------------------------------------------------------------------
// PHQ-9 and GAD-7
// ---------------------------------------------------------------------------------------------------

const FREQUENCY = [
  { system: 'loinc', code: 'LA6568-5', display: 'Not at all', score: 0 },
  { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 },
  { system: 'loinc', code: 'LA6570-1', display: 'More than half the days', score: 2 },
  { system: 'loinc', code: 'LA6571-9', display: 'Nearly every day', score: 3 },
];
const PHQ9_ITEMS = [
  ['44250-9', 'Little interest or pleasure in doing things'],
  ['44255-8', 'Feeling down, depressed, or hopeless'],
  ['44259-0', 'Trouble falling or staying asleep, or sleeping too much'],
  ['44254-1', 'Feeling tired or having little energy'],
  ['44251-7', 'Poor appetite or overeating'],
  ['44258-2', 'Feeling bad about yourself - or that you are a failure or have let yourself or your family down'],
  ['44252-5', 'Trouble concentrating on things, such as reading the newspaper or watching television'],
  ['44253-3', 'Moving or speaking so slowly that other people could have noticed. Or the opposite - being so fidgety or restless that you have been moving around a lot more than usual'],
  ['44260-8', 'Thoughts that you would be better off dead, or of hurting yourself in some way'],
];
const GAD7_ITEMS = [
  ['69725-0', 'Feeling nervous, anxious or on edge'],
  ['68509-9', 'Not being able to stop or control worrying'],
  ['69733-4', 'Worrying too much about different things'],
  ['69734-2', 'Trouble relaxing'],
  ['69735-9', 'Being so restless that it is hard to sit still'],
  ['69689-8', 'Becoming easily annoyed or irritable'],
  ['69736-7', 'Feeling afraid as if something awful might happen'],
];

function instrument(id, title, panel, prefix, items) {
  return {
    id,
    title,
    code: { system: 'loinc', code: panel, display: title },
    url: `http://loinc.org/q/${panel}`,
    items: items.map(([code, text], i) => ({
      linkId: `${prefix}-${i + 1}`,
      text,
      code: { system: 'loinc', code, display: text },
      type: 'choice',
      options: FREQUENCY,
    })),
  };
}

const SCALES = {
  phq9: {
    instrument: instrument('phq-9', 'PHQ-9 quick depression assessment panel', '44249-1', 'phq9', PHQ9_ITEMS),
    total: { system: 'loinc', code: '44261-6', display: 'Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]' },
    severity: (t) => (t >= 20 ? 'Severe depression' : t >= 15 ? 'Moderately severe depression' : t >= 10 ? 'Moderate depression' : t >= 5 ? 'Mild depression' : 'Minimal depression'),
  },
  gad7: {
    instrument: instrument('gad-7', 'Generalized anxiety disorder 7 item (GAD-7)', '69737-5', 'gad7', GAD7_ITEMS),
    total: { system: 'loinc', code: '70274-6', display: 'Generalized anxiety disorder 7 item (GAD-7) total score [Reported.PHQ]' },
    severity: (t) => (t >= 15 ? 'Severe anxiety' : t >= 10 ? 'Moderate anxiety' : t >= 5 ? 'Mild anxiety' : 'Minimal anxiety'),
  },
};

/** PHQ-2, recorded without item definitions (the answers carry text and code). */
const PHQ2 = { id: 'phq-2', title: 'Patient Health Questionnaire 2 item (PHQ-2) [Reported]', code: { system: 'loinc', code: '55757-9', display: 'Patient Health Questionnaire 2 item (PHQ-2) [Reported]' } };

/** Item answers (0–3 each) whose sum is close to `target`. */
function answersFor(count, target) {
  const values = Array.from({ length: count }, () => 0);
  let remaining = Math.max(0, Math.min(target, count * 3));
  while (remaining > 0) {
    const i = int(0, count - 1);
    if (values[i] < 3) {
      values[i]++;
      remaining--;
    }
  }
  return values;
}

// ---------------------------------------------------------------------------------------------------
// Directory
// ---------------------------------------------------------------------------------------------------

/** A 10-digit NPI-shaped number with a valid check digit (Luhn over the prefix 80840). */
function npi(base9) {
  const digits = String(base9).padStart(9, '0');
  const full = `80840${digits}`;
  let sum = 0;
  for (let i = 0; i < full.length; i++) {
    let d = Number(full[full.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${digits}${(10 - (sum % 10)) % 10}`;
}
const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
const phone = (n) => `+1 312 555 01${pad(n)}`;

const organizations = [
  {
    id: 'org-001',
    name: 'Riverside Health System',
    active: true,
    identifiers: [
      { system: NPI_SYSTEM, value: npi(154000001), type: 'NPI' },
      { system: 'urn:oid:2.16.840.1.113883.4.4', value: '36-4000001', type: 'TAX' },
    ],
    telecoms: [
      { system: 'phone', value: phone(0), use: 'work' },
      { system: 'url', value: 'https://riverside-health.example.org', use: 'work' },
    ],
    addresses: [{ use: 'work', type: 'both', lines: ['1200 W Harrison St'], city: 'Chicago', state: 'IL', postalCode: '60607', country: 'US' }],
  },
  {
    id: 'org-002',
    name: 'Riverside Behavioral Health',
    active: true,
    identifiers: [{ system: NPI_SYSTEM, value: npi(154000002), type: 'NPI' }],
    telecoms: [
      { system: 'phone', value: phone(10), use: 'work' },
      { system: 'fax', value: phone(11), use: 'work' },
      { system: 'email', value: 'intake@riverside-health.example.org', use: 'work' },
    ],
    addresses: [{ use: 'work', lines: ['2150 N Lincoln Ave', 'Suite 200'], city: 'Chicago', state: 'IL', postalCode: '60614', country: 'US' }],
    partOfId: 'org-001',
  },
  {
    id: 'org-003',
    name: 'St. Mary’s Hospital',
    active: true,
    identifiers: [{ system: NPI_SYSTEM, value: npi(154000003), type: 'NPI' }],
    telecoms: [{ system: 'phone', value: phone(20), use: 'work' }],
    addresses: [{ use: 'work', lines: ['2233 W Division St'], city: 'Chicago', state: 'IL', postalCode: '60622', country: 'US' }],
    partOfId: 'org-001',
  },
  {
    id: 'org-004',
    name: 'Lakeview Family Practice & Counseling',
    active: true,
    identifiers: [
      { system: NPI_SYSTEM, value: npi(154000004), type: 'NPI' },
      { system: 'urn:oid:2.16.840.1.113883.4.4', value: '36-4000004', type: 'TAX' },
    ],
    telecoms: [{ system: 'phone', value: phone(30), use: 'work' }],
    addresses: [{ use: 'work', lines: ['3401 N Broadway'], city: 'Chicago', state: 'IL', postalCode: '60657', country: 'US' }],
  },
  {
    id: 'org-005',
    name: 'Prairie Home Health Services',
    active: true,
    identifiers: [{ system: NPI_SYSTEM, value: npi(154000005), type: 'NPI' }],
    telecoms: [{ system: 'phone', value: phone(40), use: 'work' }],
    addresses: [{ use: 'work', lines: ['800 E Northwest Hwy'], city: 'Arlington Heights', state: 'IL', postalCode: '60004', country: 'US' }],
  },
  {
    id: 'org-006',
    name: 'North Shore Counseling Collective (closed)',
    active: false,
    addresses: [{ use: 'old', lines: ['1603 Orrington Ave'], city: 'Evanston', state: 'IL', postalCode: '60201', country: 'US' }],
  },
];

const QUAL = {
  psychiatrist: { code: { system: 'snomed-ct', code: '80546007', display: 'Psychiatrist' }, display: 'MD, Psychiatry' },
  physician: { code: { system: 'snomed-ct', code: '309343006', display: 'Physician' }, display: 'MD' },
  psychologist: { code: { system: 'snomed-ct', code: '59944000', display: 'Psychologist' }, display: 'PhD, Clinical Psychology' },
  socialWorker: { code: { system: 'snomed-ct', code: '106328005', display: 'Social worker' }, display: 'LCSW' },
  nurse: { code: { system: 'snomed-ct', code: '224535009', display: 'Registered nurse' }, display: 'RN' },
  family: { code: { system: 'snomed-ct', code: '62247001', display: 'Family medicine specialist' }, display: 'MD, Family Medicine' },
  emergency: { code: { system: 'snomed-ct', code: '309294001', display: 'Accident and Emergency doctor' }, display: 'DO, Emergency Medicine' },
};

const practitionerSeeds = [
  ['prac-001', { family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'], suffix: ['MD'] }, QUAL.psychiatrist, 'org-002'],
  ['prac-002', { family: 'Lindqvist', given: ['Erik'], prefix: ['Dr.'], suffix: ['PhD'] }, QUAL.psychologist, 'org-002'],
  ['prac-003', { family: 'Hernández', given: ['María', 'José'], suffix: ['LCSW'] }, QUAL.socialWorker, 'org-002'],
  ['prac-004', { family: 'Chen', given: ['Wei'], prefix: ['Dr.'], suffix: ['MD'], text: 'Dr. Wei Chen (陈伟), MD' }, QUAL.family, 'org-004'],
  ['prac-005', { family: "O'Connell", given: ['Siobhan'], prefix: ['Dr.'], suffix: ['DO'] }, QUAL.emergency, 'org-003'],
  ['prac-006', { family: 'Patel', given: ['Priya'], prefix: ['Dr.'], suffix: ['MD'] }, QUAL.physician, 'org-003'],
  ['prac-007', { family: 'Novak', given: ['Jana'], suffix: ['RN'] }, QUAL.nurse, 'org-005'],
  ['prac-008', { family: 'Washington-Reyes', given: ['Marcus'], prefix: ['Dr.'], suffix: ['MD'] }, QUAL.psychiatrist, 'org-003'],
  ['prac-009', { family: 'Abramowitz', given: ['Leah'], prefix: ['Dr.'], suffix: ['PsyD'] }, QUAL.psychologist, 'org-004'],
  ['prac-010', { family: 'Nakamura', given: ['Kenji'], prefix: ['Dr.'], suffix: ['MD'] }, QUAL.family, 'org-004'],
];
const practitioners = practitionerSeeds.map(([id, name, qual, org], i) => ({
  id,
  names: [{ use: 'official', ...name }],
  active: true,
  identifiers: [{ system: NPI_SYSTEM, value: npi(120000000 + (i + 1) * 7919), type: 'NPI' }],
  telecoms: [
    { system: 'phone', value: phone(50 + i), use: 'work' },
    { system: 'email', value: `${name.given[0].toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '')}.${name.family.toLowerCase().replace(/[^a-z]/g, '')}@${org === 'org-004' ? 'lakeview-fp.example.com' : 'riverside-health.example.org'}`, use: 'work' },
  ],
  qualifications: [qual],
}));
practitioners[9].active = false; // retired; still referenced by older records

const locations = [
  { id: 'loc-001', name: 'Riverside Behavioral Health, Suite 200', status: 'active', description: 'Outpatient psychiatry & psychotherapy', address: organizations[1].addresses[0], telecoms: [{ system: 'phone', value: phone(10), use: 'work' }], organizationId: 'org-002' },
  { id: 'loc-002', name: 'Riverside Telehealth (virtual visits)', status: 'active', description: 'Video visits | patient joins from home', organizationId: 'org-002' },
  { id: 'loc-003', name: 'St. Mary’s Hospital Emergency Department', status: 'active', address: organizations[2].addresses[0], telecoms: [{ system: 'phone', value: phone(21), use: 'work' }], organizationId: 'org-003' },
  { id: 'loc-004', name: 'St. Mary’s Hospital, Ward 4B (Inpatient Psychiatry)', status: 'active', description: 'Locked unit; visiting hours 14:00–20:00', organizationId: 'org-003' },
  { id: 'loc-005', name: 'St. Mary’s Hospital Observation Unit', status: 'active', organizationId: 'org-003' },
  { id: 'loc-006', name: 'Lakeview Family Practice', status: 'active', address: organizations[3].addresses[0], organizationId: 'org-004' },
  { id: 'loc-007', name: 'Prairie Home Health — field team', status: 'active', description: 'Visits at the patient’s home', organizationId: 'org-005' },
  { id: 'loc-008', name: 'North Shore Counseling, Evanston office', status: 'inactive', organizationId: 'org-006' },
];

// ---------------------------------------------------------------------------------------------------
// Payers
// ---------------------------------------------------------------------------------------------------

const PAYER_SYSTEM = 'https://clearinghouse.example.com/payer-id';
const PAYERS = {
  bcbs: { id: 'payer-bcbsil', name: 'Blue Cross and Blue Shield of Illinois', identifier: { system: PAYER_SYSTEM, value: '00621' } },
  aetna: { id: 'payer-aetna', name: 'Aetna', identifier: { system: PAYER_SYSTEM, value: '60054' } },
  uhc: { id: 'payer-uhc', name: 'UnitedHealthcare', identifier: { system: PAYER_SYSTEM, value: '87726' } },
  cigna: { id: 'payer-cigna', name: 'Cigna Healthcare', identifier: { system: PAYER_SYSTEM, value: '62308' } },
  medicare: { id: 'payer-medicare', name: 'Medicare Part B (CMS)', identifier: { system: PAYER_SYSTEM, value: 'MCR-IL' } },
  medicaid: { id: 'payer-il-hfs', name: 'Illinois Medicaid — HFS', identifier: { system: PAYER_SYSTEM, value: 'ILMCD' } },
  humana: { id: 'payer-humana', name: 'Humana Gold Plus (HMO)' },
};
const PLANS = {
  bcbs: [
    { plan: { id: 'BCBS-PPO-G', name: 'Blue Choice PPO Gold' }, group: { id: 'GRP-004512', name: 'Riverside Manufacturing Co. & Sons' } },
    { plan: { id: 'BCBS-HMO-IL', name: 'Blue Precision HMO' }, group: { id: 'GRP-118877', name: 'City Colleges | Staff' } },
  ],
  aetna: [{ plan: { id: 'AET-OA-M', name: 'Aetna Open Access Managed Choice' }, group: { id: 'GRP-0870-22', name: 'Northside Logistics' } }],
  uhc: [{ plan: { id: 'UHC-CP', name: 'Choice Plus' }, group: { id: 'GRP-77221', name: 'Lakefront Tech Partners' } }],
  cigna: [{ plan: { id: 'CIG-OAP', name: 'Open Access Plus' }, group: { id: 'GRP-3340', name: 'O’Hare Aviation Services' } }],
  medicare: [{ plan: { id: 'MCR-B', name: 'Original Medicare Part B' } }],
  medicaid: [{ plan: { id: 'IL-MCD-FFS', name: 'Medicaid fee-for-service' } }],
  humana: [{ plan: { id: 'HUM-H5619', name: 'Humana Gold Plus H5619-016' } }],
};
const MEMBER_ID = {
  bcbs: () => `XOF${int(100000000, 999999999)}`,
  aetna: () => `W${int(100000000, 999999999)}`,
  uhc: () => `${int(900000000, 999999999)}01`,
  cigna: () => `U${int(10000000, 99999999)} 01`,
  medicare: () => {
    // MBI shape: C A AN N A AN N A A N N (no S, L, O, I, B, Z).
    const L = 'ACDEFGHJKMNPQRTUVWXY';
    const AN = `${L}0123456789`;
    const c = () => L[int(0, L.length - 1)];
    const an = () => AN[int(0, AN.length - 1)];
    return `${int(1, 9)}${c()}${an()}${int(0, 9)}${c()}${an()}${int(0, 9)}${c()}${c()}${int(0, 9)}${int(0, 9)}`;
  },
  medicaid: () => `IL${int(100000000, 999999999)}`,
  humana: () => `H${int(10000000, 99999999)}`,
};

function coverage(pid, n, key, opts) {
  const plan = pick(PLANS[key]);
  const cov = { id: `cov-${pid}-${n}`, status: opts.status ?? 'active', payer: PAYERS[key], memberId: MEMBER_ID[key](), plan: plan.plan };
  if (plan.group) cov.group = plan.group;
  cov.relationship = opts.relationship ?? 'self';
  cov.period = opts.period;
  cov.order = n;
  return cov;
}

// ---------------------------------------------------------------------------------------------------
// Patients
// ---------------------------------------------------------------------------------------------------

const STREETS = ['N Clark St', 'W Belmont Ave', 'S Halsted St', 'N Milwaukee Ave', 'W Armitage Ave', 'E 53rd St', 'W Devon Ave', 'N Sheridan Rd', 'S Michigan Ave', 'W Cermak Rd'];
const PLACES = [
  ['Chicago', 'Cook', 'IL', '60614'],
  ['Chicago', 'Cook', 'IL', '60640'],
  ['Chicago', 'Cook', 'IL', '60608'],
  ['Evanston', 'Cook', 'IL', '60201'],
  ['Oak Park', 'Cook', 'IL', '60302'],
  ['Naperville', 'DuPage', 'IL', '60540'],
  ['Gary', 'Lake', 'IN', '46402'],
  ['Kenosha', 'Kenosha', 'WI', '53140'],
];

/**
 * Patient seeds: name(s), gender, birth date, marital status, language, clinical profile, payers.
 * Profiles: dep (depression), anx (anxiety), bip (bipolar, inpatient stay), ptsd, dm (diabetes + hypertension),
 * asthma (ED visit), back (back pain), sud (alcohol use), well (wellness + screening).
 */
const PATIENTS = [
  { names: [{ use: 'official', family: "O'Brien", given: ['Mary', 'Anne'], prefix: ['Ms.'] }, { use: 'maiden', family: 'Kowalski', given: ['Mary'] }], gender: 'female', birth: '1984-07-02', marital: 'M', lang: 'en-US', profiles: ['dep', 'anx'], payers: ['bcbs'] },
  { names: [{ use: 'official', family: 'García-López', given: ['José', 'Luis'] }, { use: 'nickname', given: ['Pepe'] }], gender: 'male', birth: '1979-11-23', marital: 'M', lang: 'es-MX', profiles: ['dm', 'dep'], payers: ['aetna'] },
  { names: [{ use: 'official', family: 'Nguyễn', given: ['Thị', 'Lan'], text: 'Nguyễn Thị Lan' }], gender: 'female', birth: '1990-03-14', marital: 'S', lang: 'vi', profiles: ['anx'], payers: ['uhc'] },
  { names: [{ use: 'official', family: '李', given: ['伟'], text: '李伟' }, { use: 'usual', family: 'Li', given: ['Wei'] }], gender: 'male', birth: '1968-05-30', marital: 'M', lang: 'zh-Hans-CN', profiles: ['dm', 'well'], payers: ['medicare', 'bcbs'] },
  { names: [{ use: 'official', family: 'محمد', given: ['عائشة'], text: 'عائشة محمد' }, { use: 'usual', family: 'Mohammed', given: ['Aisha'] }], gender: 'female', birth: '1955-01-17', marital: 'W', lang: 'ar', profiles: ['dep', 'back'], payers: ['medicare', 'medicaid'] },
  { names: [{ use: 'official', family: "D'Angelo", given: ['Jean-Luc'] }], gender: 'male', birth: '1988-09-09', marital: 'D', lang: 'fr-CA', profiles: ['bip'], payers: ['cigna'] },
  { names: [{ use: 'official', family: 'Mac Giolla Phádraig', given: ['Siobhán'] }], gender: 'female', birth: '1996-12-01', marital: 'S', lang: 'en-IE', profiles: ['ptsd', 'anx'], payers: ['bcbs'] },
  { names: [{ use: 'official', family: 'Müller-Schmidt', given: ['Zoë'] }], gender: 'other', birth: '2001-04-27', marital: 'T', lang: 'de', profiles: ['dep'], payers: ['bcbs'], relationship: 'child' },
  { names: [{ use: 'official', family: 'Иванов', given: ['Дмитрий', 'Сергеевич'] }, { use: 'usual', family: 'Ivanov', given: ['Dmitri'] }], gender: 'male', birth: '1972-08-15', marital: 'M', lang: 'ru', profiles: ['sud', 'dep'], payers: ['uhc'] },
  { names: [{ use: 'official', family: '田中', given: ['優希'], text: '田中 優希' }, { use: 'usual', family: 'Tanaka', given: ['Yūki'] }], gender: 'female', birth: '1993-02-28', marital: 'S', lang: 'ja', profiles: ['anx', 'well'], payers: ['aetna'] },
  { names: [{ use: 'official', family: 'Okonkwo', given: ['Oluwaseun'], suffix: ['Jr.'] }], gender: 'male', birth: '1999-10-10', marital: 'S', lang: 'en-US', profiles: ['asthma', 'anx'], payers: ['medicaid'] },
  { names: [{ use: 'official', family: 'Øster', given: ['Bjørn'] }], gender: 'male', birth: '1961-06-21', marital: 'L', lang: 'nb', profiles: ['dm', 'back'], payers: ['humana'] },
  { names: [{ use: 'official', family: 'St. John', given: ['Renée'], prefix: ['Mrs.'] }], gender: 'female', birth: '1941-03-03', marital: 'W', lang: 'en-US', profiles: ['dep', 'dm'], payers: ['medicare', 'humana'], deceased: true },
  { names: [{ use: 'official', family: 'Ñúñez de la Cruz', given: ['Ana', 'María'] }], gender: 'female', birth: '1986-11-30', marital: 'U', lang: 'es', profiles: ['ptsd'], payers: ['medicaid'] },
  { names: [{ use: 'official', family: 'Smith-Jones', given: ['Chloé'] }], gender: 'female', birth: '2010-08-19', marital: 'S', lang: 'en-US', profiles: ['asthma', 'anx'], payers: ['uhc', 'cigna'], relationship: 'child' },
  { names: [{ use: 'official', family: 'Kowalczyk', given: ['Mateusz'] }, { use: 'usual', given: ['Matt'], family: 'Kowalczyk' }], gender: 'male', birth: '1982-01-05', marital: 'D', lang: 'pl', profiles: ['sud', 'back'], payers: ['bcbs'] },
  { names: [{ use: 'official', family: 'Patel', given: ['Aarav'] }], gender: 'male', birth: '1977-04-12', marital: 'M', lang: 'gu', profiles: ['dm', 'well'], payers: ['aetna', 'bcbs'], relationship: 'spouse' },
  { names: [{ use: 'official', family: 'כהן', given: ['דוד'], text: 'דוד כהן' }, { use: 'usual', family: 'Cohen', given: ['David'] }], gender: 'male', birth: '1958-09-25', marital: 'M', lang: 'he', profiles: ['dep', 'anx'], payers: ['medicare'] },
  { names: [{ use: 'official', family: '김', given: ['민준'], text: '김민준' }, { use: 'usual', family: 'Kim', given: ['Min-jun'] }], gender: 'male', birth: '2004-07-07', marital: 'S', lang: 'ko', profiles: ['anx'], payers: ['bcbs'], relationship: 'child' },
  { names: [{ use: 'official', family: 'El Amrani', given: ['Fatima', 'Zahra'] }], gender: 'female', birth: '1991-12-12', marital: 'UNK', lang: 'ar-MA', profiles: ['dep', 'well'], payers: ['cigna'] },
  { names: [{ use: 'official', family: 'Whitaker', given: ['Samuel'] }, { use: 'usual', given: ['Sam'], family: 'Whitaker' }], gender: 'other', birth: '1998-05-16', marital: 'T', lang: 'en-US', profiles: ['bip', 'anx'], payers: ['uhc'] },
  { names: [{ use: 'official', family: 'Nwosu-Okafor', given: ['Adaeze', 'Chioma'] }], gender: 'female', birth: '1983-10-02', marital: 'M', lang: 'en-NG', profiles: ['dep', 'dm'], payers: ['aetna'] },
  { names: [{ use: 'anonymous', text: 'Pat Morgan (alias)' }], gender: 'unknown', birth: '1975', marital: 'UNK', lang: 'en-US', profiles: ['sud'], payers: [] },
  { names: [{ use: 'official', family: "O'Connor-Ní Bhriain", given: ['Liam'] }], gender: 'male', birth: '2003-03-17', marital: 'S', lang: 'ga', profiles: ['asthma', 'dep'], payers: ['bcbs'], relationship: 'child' },
];

function ascii(s) {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
}

function demographics(seed, index) {
  const pid = pad(index + 1, 4);
  const id = `pat-${pid}`;
  const place = pick(PLACES);
  const latin = seed.names.find((n) => n.use === 'usual') ?? seed.names[0];
  const first = ascii((latin.given ?? ['pat'])[0]) || 'pat';
  const last = ascii(latin.family ?? 'morgan') || 'patient';
  const identifiers = [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: `MRN-${pad(104200 + index * 37, 6)}`, type: 'MR' }];
  if (index % 4 === 1) identifiers.push({ system: 'urn:oid:2.16.840.1.113883.4.3.17', value: `${last[0]?.toUpperCase() ?? 'X'}${int(100, 999)}-${int(1000, 9999)}-${int(1000, 9999)}`, type: 'DL' });
  if (index % 5 === 2) identifiers.push({ system: 'https://riverside-health.example.org/portal-account', value: `acct|${pid}^web`, type: 'AN' });
  const patient = { id, identifiers, names: seed.names, birthDate: seed.birth, gender: seed.gender };
  const home = { use: 'home', type: 'both', lines: [`${int(100, 9899)} ${pick(STREETS)}`], city: place[0], district: place[1], state: place[2], postalCode: place[3], country: 'US' };
  if (chance(0.4)) home.lines.push(pick(['Apt 2B', 'Unit 1404', 'Fl 3 (rear)', '# 7']));
  const addresses = [home];
  if (index % 3 === 0) addresses.push({ use: 'work', lines: [`${int(100, 999)} W Madison St`, `Floor ${int(2, 40)}`], city: 'Chicago', state: 'IL', postalCode: '60606', country: 'US' });
  if (index % 4 === 2) addresses.push({ use: 'old', lines: [`${int(10, 99)} Maple Ave`], city: 'Peoria', state: 'IL', postalCode: '61602', country: 'US' });
  if (index % 7 === 3) addresses.push({ use: 'billing', type: 'postal', lines: [`PO Box ${int(1000, 9999)}`], city: place[0], state: place[2], postalCode: place[3], country: 'US' });
  patient.addresses = addresses;
  const telecoms = [{ system: 'phone', value: `+1 312 555 01${pad(index + 10)}`, use: 'mobile' }];
  if (index % 2 === 0) telecoms.push({ system: 'phone', value: `(773) 555-01${pad(index + 40)}`, use: 'home' });
  if (index % 3 === 1) telecoms.push({ system: 'phone', value: `+1 312 555 01${pad(index + 60)} ext. ${int(100, 999)}`, use: 'work' });
  if (index % 5 !== 4) telecoms.push({ system: 'email', value: `${first}.${last}@${pick(['example.com', 'example.org', 'example.net'])}`, use: index % 4 === 0 ? 'work' : 'home' });
  if (index % 6 === 5) telecoms.push({ system: 'sms', value: `+1 312 555 01${pad(index + 10)}`, use: 'mobile' });
  patient.telecoms = telecoms;
  patient.maritalStatus = seed.marital;
  patient.language = seed.lang;
  return { pid, patient };
}

// ---------------------------------------------------------------------------------------------------
// Clinical content
// ---------------------------------------------------------------------------------------------------

const PROFILE_DX = {
  dep: ['F32.1', 'F33.1'],
  anx: ['F41.1'],
  bip: ['F31.81'],
  ptsd: ['F43.10'],
  dm: ['E11.9', 'I10', 'E78.5'],
  asthma: ['J45.909'],
  back: ['M54.50'],
  sud: ['F10.20', 'F17.210'],
  well: ['Z00.00'],
};

const MEDS_BY_PROFILE = {
  dep: ['Sertraline 50 mg ^ to 100 mg daily', 'Escitalopram 10 mg daily', 'Bupropion XL 150 mg qAM'],
  anx: ['Escitalopram 10 mg daily', 'Sertraline 50 mg ^ to 100 mg daily', 'Hydroxyzine 25 mg PRN anxiety'],
  bip: ['Lamotrigine 100 mg daily', 'Lithium carbonate 300 mg BID'],
  ptsd: ['Prazosin 1 mg qHS (nightmares)', 'Sertraline 50 mg ^ to 100 mg daily'],
  dm: ['Metformin 500 mg BID (with meals)', 'Lisinopril 10 mg daily', 'Atorvastatin 20 mg qHS'],
  asthma: ['Albuterol HFA 90 mcg 2 puffs q4–6h PRN', 'Fluticasone 110 mcg 2 puffs BID'],
  back: ['Ibuprofen 400 mg TID with food x 7 days', 'Physical therapy 2x/week'],
  sud: ['Naltrexone 50 mg daily', 'Nicotine patch 21 mg/24 h'],
  well: ['No medication changes'],
};

const SUBJECTIVE = {
  dep: ['improved mood', 'low mood most days', 'better energy, still poor sleep'],
  anx: ['less worry & better sleep', 'ongoing stress at work', 'two panic attacks this month'],
  bip: ['stable mood, sleeping 7 h', 'a few days of racing thoughts'],
  ptsd: ['fewer nightmares', 'flashbacks after a news story'],
  dm: ['home glucose 110–160 mg/dL', 'missed some metformin doses'],
  asthma: ['no night symptoms', 'wheeze with exercise'],
  back: ['less pain (4/10)', 'pain 7/10 after lifting'],
  sud: ['3 weeks without alcohol', 'cut down to 5 cigarettes/day'],
  well: ['no complaints'],
};

function progressText(name, profile, dxCode, nl, visit, vitals) {
  const lines = [
    `Subjective: ${name} reports ${pick(SUBJECTIVE[profile])} since the last visit.`,
    `Objective: BP ${vitals.sys + int(-6, 6)}/${vitals.dia + int(-4, 4)} | HR ${vitals.hr + int(-6, 6)} | Wt ${(vitals.wt + int(-15, 15) / 10).toFixed(1)} kg`,
    `Assessment: ${ICD[dxCode]} (${dxCode}) — ${pick(['improving', 'stable', 'not at goal'])}.`,
    `Plan: ${pick(MEDS_BY_PROFILE[profile])}; ${pick(['continue CBT weekly', 'CBT every 2 wk ~ reassess in 4 wk', 'sleep hygiene handout given', 'labs & ECG ordered', 'return in 4 weeks'])}.`,
  ];
  if (visit % 3 === 0) lines.push('Safety: denies SI/HI; crisis line 988 reviewed.');
  if (visit % 4 === 1) lines.push(`Scanned intake form saved to C:\\Users\\notes\\${visit}-intake.pdf`);
  if (visit % 5 === 2) lines.push('Vitals (table):\tBP\t128/82\n\tHR\t72');
  if (visit % 7 === 3) lines.push('Patient quote: "I feel like myself again 🙂"');
  if (visit % 6 === 4) lines.push('Imported from the legacy EHR, where line breaks were stored as \\.br\\ and bars as \\F\\.');
  return lines.join(nl);
}

function dischargeText(name, admit, discharge, dxCode, nl) {
  return [
    `Admission date: ${isoDate(admit)}`,
    `Discharge date: ${isoDate(discharge)}`,
    `Patient: ${name}`,
    `Reason for admission: ${ICD[dxCode]} (${dxCode}); ${pick(['passive SI with plan', 'not sleeping for 4 nights, pressured speech', 'unable to care for self'])}.`,
    '',
    'Hospital course:',
    `  Admitted to Ward 4B. ${pick(['Lithium restarted', 'Lamotrigine titrated'])}; mood & sleep improved by day ${int(2, 4)}.`,
    '  Labs: Na 139 | K 4.1 | TSH 2.3 | Li level 0.8 mmol/L',
    '',
    'Discharge medications:',
    `  - ${pick(MEDS_BY_PROFILE.bip)}`,
    '  - Quetiapine 50 mg PO qHS ~ PRN insomnia',
    '',
    'Follow-up: Riverside Behavioral Health in 7 days. Return / call 988 if worse.',
    'Copy of this summary: \\\\riverside-fs01\\clinical\\discharge\\ (network share)',
  ].join(nl);
}

function edText(name, dxCode, nl) {
  return [
    `ED consultation — ${name}`,
    `HPI: ${pick(['wheeze & chest tightness x2 days', 'acute anxiety, palpitations', 'low back pain after lifting'])}.`,
    `Exam: SpO2 ${int(91, 99)}% RA | RR ${int(14, 26)} | T 37.${int(0, 8)} °C`,
    `Impression: ${ICD[dxCode]} (${dxCode})`,
    'Disposition: discharged home; follow up with PCP in 2–3 days.',
  ].join(nl);
}

const NOTE_TITLE = {
  'progress-note': 'Progress note',
  'discharge-summary': 'Discharge summary',
  'consultation-note': 'Emergency department consultation',
  'history-and-physical': 'History & physical',
  'procedure-note': 'ECG procedure note',
};

// ---------------------------------------------------------------------------------------------------
// Chart builder
// ---------------------------------------------------------------------------------------------------

const OUTPATIENT_BY_PROFILE = {
  dep: { loc: 'loc-001', pracs: ['prac-001', 'prac-002', 'prac-003'] },
  anx: { loc: 'loc-001', pracs: ['prac-002', 'prac-003', 'prac-001'] },
  bip: { loc: 'loc-001', pracs: ['prac-001', 'prac-008'] },
  ptsd: { loc: 'loc-001', pracs: ['prac-002', 'prac-003'] },
  dm: { loc: 'loc-006', pracs: ['prac-004', 'prac-010'] },
  asthma: { loc: 'loc-006', pracs: ['prac-004', 'prac-010'] },
  back: { loc: 'loc-006', pracs: ['prac-004', 'prac-009'] },
  sud: { loc: 'loc-001', pracs: ['prac-001', 'prac-003'] },
  well: { loc: 'loc-006', pracs: ['prac-004', 'prac-010'] },
};

function scaleFor(profiles) {
  const out = [];
  if (profiles.some((p) => ['dep', 'bip', 'sud', 'well', 'dm'].includes(p))) out.push('phq9');
  if (profiles.some((p) => ['anx', 'ptsd'].includes(p))) out.push('gad7');
  return out;
}

function buildChart(seed, index) {
  const { pid, patient } = demographics(seed, index);
  const displayName = (seed.names.find((n) => n.use === 'usual') ?? seed.names[0]).text ?? `${(seed.names[0].given ?? [])[0] ?? ''} ${seed.names[0].family ?? ''}`.trim();
  const nl = index % 3 === 2 ? '\r\n' : '\n';

  // Coverage: primary, sometimes secondary; one patient has a cancelled older plan too.
  const coverages = seed.payers.map((key, n) =>
    coverage(pid, n + 1, key, {
      relationship: n === 0 ? (seed.relationship ?? 'self') : seed.relationship === 'child' ? 'child' : ['medicaid', 'medicare', 'humana'].includes(key) ? 'self' : 'spouse',
      period: n === 0 ? { start: `${int(2019, 2023)}-01-01` } : { start: `${int(2023, 2024)}-${pad(int(1, 12))}-01`, end: '2026-12-31' },
    }),
  );
  if (index === 5) coverages.push({ ...coverage(pid, coverages.length + 1, 'uhc', { status: 'cancelled', period: { start: '2020-01-01', end: '2022-12-31' } }), order: coverages.length + 1 });
  if (coverages.length > 0) patient.coverages = coverages;

  const encounters = [];
  const notes = [];
  const assessments = [];
  const scales = scaleFor(seed.profiles);
  const primary = seed.profiles[0];
  const team = OUTPATIENT_BY_PROFILE[primary];
  const mainPrac = team.pracs[index % team.pracs.length];

  // Baseline vitals, so that one patient's notes agree with each other.
  const vitals = { sys: int(108, 142), dia: int(68, 90), hr: int(58, 92), wt: int(520, 1180) / 10 };

  // A severity trajectory for the scales: starting high and mostly improving.
  let severity = int(9, 20);

  const visitCount = int(3, 6);
  // A deceased patient's visits all lie before the death.
  const rangeEnd = seed.deceased ? chicago(2025, 6, 30) : RANGE_END;
  const times = Array.from({ length: visitCount }, () => clinicTime(RANGE_START, rangeEnd)).sort((a, b) => a - b);
  let e = 0;
  const nextEnc = () => `enc-${pid}-${pad(++e)}`;

  times.forEach((start, v) => {
    let profile = seed.profiles[v % seed.profiles.length];
    // Pick the class: mostly office visits; the profiles add emergencies, stays and home visits.
    let cls = 'AMB';
    if (seed.profiles.includes('asthma') && v === 1) [cls, profile] = ['EMER', 'asthma'];
    else if (seed.profiles.includes('bip') && v === 1) [cls, profile] = ['IMP', 'bip'];
    else if (seed.profiles.includes('back') && v === 2) [cls, profile] = ['OBSENC', 'back'];
    else if (seed.deceased && v === visitCount - 1) cls = 'HH';
    else if (v % 3 === 2 && ['dep', 'anx', 'ptsd', 'sud'].includes(profile)) cls = 'VR';
    else if (index === 11 && v === 0) cls = 'HH';

    const id = nextEnc();
    const dx1 = pick(PROFILE_DX[profile]);
    const diagnoses = [{ id: 'dx-1', code: icd(dx1), rank: 1, use: cls === 'IMP' ? 'AD' : 'billing' }];
    const secondary = seed.profiles.length > 1 ? pick(PROFILE_DX[seed.profiles[(v + 1) % seed.profiles.length]]) : undefined;
    if (secondary && secondary !== dx1) diagnoses.push({ id: 'dx-2', code: icd(secondary), rank: 2, use: cls === 'IMP' ? 'CM' : 'billing' });
    if (profile === 'dm' && chance(0.5)) diagnoses.push({ id: `dx-${diagnoses.length + 1}`, code: { system: 'snomed-ct', code: '38341003', display: SCT[38341003] }, rank: diagnoses.length + 1, use: 'CM', recordedDate: isoDate(start) });

    let end;
    let locationId;
    let type;
    const participants = [];
    const procedures = [];
    let prac = mainPrac;
    switch (cls) {
      case 'EMER': {
        start = chicago(...isoDate(start).split('-').map(Number), int(0, 23), int(0, 59));
        end = start + int(3 * 60, 8 * 60) * MINUTE;
        locationId = 'loc-003';
        type = sct(4525004);
        prac = 'prac-005';
        participants.push({ role: 'ATND', practitionerId: 'prac-005' }, { role: 'REF', practitionerId: mainPrac });
        procedures.push({ id: 'proc-1', code: cpt(99284), status: 'completed', performed: iso(start + 20 * MINUTE), performerId: 'prac-005' });
        if (profile === 'asthma') {
          diagnoses[0] = { id: 'dx-1', code: icd('J45.901'), rank: 1, use: 'billing', onset: isoDate(start - 2 * DAY) };
          procedures.push({ id: 'proc-2', code: cpt(94640), status: 'completed', performed: { start: iso(start + 40 * MINUTE), end: iso(start + 70 * MINUTE) }, performerId: 'prac-005' });
        }
        break;
      }
      case 'IMP': {
        // One stay crosses the March DST change, so start and end carry different offsets.
        if (index === 5) start = chicago(2025, 3, 6, 22, 40);
        if (index === 20) start = chicago(2024, 10, 31, 19, 5);
        end = start + int(3, 6) * DAY + int(1, 8) * HOUR;
        locationId = 'loc-004';
        type = sct(183452005);
        prac = 'prac-008';
        participants.push({ role: 'ADM', practitionerId: 'prac-008' }, { role: 'ATND', practitionerId: 'prac-008' }, { role: 'CON', practitionerId: 'prac-006' });
        diagnoses.push({ id: `dx-${diagnoses.length + 1}`, code: icd(dx1), rank: diagnoses.length + 1, use: 'DD' });
        procedures.push(
          { id: 'proc-1', code: cpt(99223), status: 'completed', performed: iso(start + 2 * HOUR), performerId: 'prac-008' },
          { id: 'proc-2', code: cpt(93000), status: 'completed', performed: iso(start + 3 * HOUR), performerId: 'prac-006' },
          { id: 'proc-3', code: cpt(99238), status: 'completed', performed: iso(end - 2 * HOUR), performerId: 'prac-008' },
        );
        break;
      }
      case 'OBSENC': {
        end = start + int(18, 30) * HOUR;
        locationId = 'loc-005';
        type = sct(390906007);
        prac = 'prac-006';
        participants.push({ role: 'ATND', practitionerId: 'prac-006' });
        procedures.push({ id: 'proc-1', code: sct(29303009), status: 'completed', performed: iso(start + HOUR), performerId: 'prac-006' });
        break;
      }
      case 'HH': {
        end = start + int(45, 75) * MINUTE;
        locationId = 'loc-007';
        type = cpt(99349);
        prac = 'prac-007';
        participants.push({ role: 'PPRF', practitionerId: 'prac-007' }, { role: 'SPRF', practitionerId: mainPrac });
        procedures.push({ id: 'proc-1', code: cpt(99349), status: 'completed', performed: { start: iso(start), end: iso(end) }, performerId: 'prac-007' });
        break;
      }
      case 'VR': {
        end = start + pick([30, 45, 60]) * MINUTE;
        locationId = 'loc-002';
        type = sct(448337001);
        participants.push({ role: 'PPRF', practitionerId: prac });
        procedures.push({ id: 'proc-1', code: cpt(end - start === 60 * MINUTE ? 90837 : end - start === 45 * MINUTE ? 90834 : 90832), status: 'completed', performed: iso(start), performerId: prac });
        break;
      }
      default: {
        end = start + pick([30, 45, 60]) * MINUTE;
        locationId = team.loc;
        participants.push({ role: 'ATND', practitionerId: prac });
        if (v === 0 && team.loc === 'loc-001') {
          type = sct(185349003);
          procedures.push({ id: 'proc-1', code: cpt(90791), status: 'completed', performed: iso(start), performerId: prac });
        } else if (team.loc === 'loc-001') {
          type = sct(390906007);
          procedures.push({ id: 'proc-1', code: cpt(pick([90834, 90837, 90832])), status: 'completed', performed: iso(start), performerId: prac });
        } else {
          type = cpt(v === 0 ? 99203 : pick([99213, 99214]));
          procedures.push({ id: 'proc-1', code: type, status: 'completed', performed: iso(start), performerId: prac });
          if (profile === 'dm') procedures.push({ id: 'proc-2', code: cpt(83036), status: 'completed', performed: iso(start + 10 * MINUTE) }, { id: 'proc-3', code: cpt(36415), status: 'completed', performed: iso(start + 5 * MINUTE), performerId: 'prac-004' });
        }
      }
    }

    const future = start > chicago(2026, 4, 1);
    const encounter = { id, status: future ? 'planned' : 'finished', class: cls };
    if (type) encounter.type = type;
    encounter.period = future ? { start: iso(start) } : { start: iso(start), end: iso(end) };
    encounter.locationId = locationId;
    encounter.participants = participants;
    encounter.reason = pick({
      dep: ['Follow-up for low mood', 'Medication check — SSRI', 'Depression follow-up'],
      anx: ['Worry & panic symptoms', 'Anxiety follow-up', 'Therapy session'],
      bip: ['Mood instability', 'Mania symptoms, not sleeping'],
      ptsd: ['Trauma-focused therapy', 'Nightmares / flashbacks'],
      dm: ['Diabetes follow-up (A1c)', 'BP check | med refill'],
      asthma: ['Wheezing, shortness of breath', 'Asthma follow-up'],
      back: ['Low back pain', 'Back pain follow-up'],
      sud: ['Alcohol use follow-up', 'Smoking cessation'],
      well: ['Annual wellness visit', 'Preventive visit'],
    }[profile]);
    encounter.diagnoses = diagnoses;
    if (!future) encounter.procedures = procedures;
    if (index === 6 && v === visitCount - 1 && !future) {
      // A cancelled visit: no end, nothing performed.
      encounter.status = 'cancelled';
      encounter.period = { start: iso(start) };
      delete encounter.procedures;
    }
    if (future) {
      encounters.push(encounter);
      return;
    }

    // Screening at behavioral-health and wellness visits, with 96127 billed.
    const screen = scales.length > 0 && (cls === 'AMB' || cls === 'VR' || cls === 'HH') && encounter.status === 'finished';
    if (screen) {
      // Every scale at the first visit, then one scale every other visit, alternating.
      const due = v === 0 ? scales : v % 2 === 0 ? [scales[(v / 2) % scales.length]] : [];
      for (const key of due) {
        const scale = SCALES[key];
        const n = scale.instrument.items.length;
        const target = Math.max(0, Math.min(n * 3, severity + int(-2, 2) - (key === 'gad7' ? 3 : 0)));
        const values = answersFor(n, target);
        const partial = index === 9 && v === 0 && key === 'phq9';
        const answered = partial ? values.slice(0, 5) : values;
        const asmtId = `asmt-${pid}-${pad(assessments.length + 1)}`;
        const authored = iso(start + int(2, 10) * MINUTE + int(0, 59) * 1000);
        const assessment = {
          id: asmtId,
          instrument: scale.instrument,
          status: partial ? 'in-progress' : index === 17 && v === 0 ? 'amended' : 'completed',
          authored,
          authorId: prac,
          encounterId: id,
          answers: answered.map((value, i) => ({ linkId: scale.instrument.items[i].linkId, value: { type: 'coding', value: FREQUENCY[value] } })),
        };
        if (!partial) {
          const total = values.reduce((s, x) => s + x, 0);
          assessment.score = { value: total, code: scale.total, interpretation: scale.severity(total) };
        }
        assessments.push(assessment);
        procedures.push({ id: `proc-${procedures.length + 1}`, code: cpt(96127), status: 'completed', performed: authored, performerId: prac });
      }
      severity = Math.max(0, severity - int(0, 5));
    }

    // Wellness visits also get a PHQ-2 recorded without item definitions: the answers carry their own
    // question text and code, as a chart without an instrument library would.
    if (profile === 'well' && encounter.status === 'finished' && cls === 'AMB') {
      const values = answersFor(2, int(0, 3));
      const total = values[0] + values[1];
      const authored = iso(start + int(1, 5) * MINUTE + int(0, 59) * 1000);
      assessments.push({
        id: `asmt-${pid}-${pad(assessments.length + 1)}`,
        instrument: PHQ2,
        status: 'completed',
        authored,
        authorId: prac,
        encounterId: id,
        answers: PHQ9_ITEMS.slice(0, 2).map(([code, text], i) => ({ linkId: `phq2-${i + 1}`, text, code: { system: 'loinc', code, display: text }, value: { type: 'coding', value: FREQUENCY[values[i]] } })),
        score: { value: total, code: { system: 'loinc', code: '55758-7', display: 'Patient Health Questionnaire 2 item (PHQ-2) total score [Reported]' }, interpretation: total >= 3 ? 'Positive screen: complete PHQ-9' : 'Negative screen' },
      });
    }

    // Notes: a progress note for most visits; H&P plus discharge summary for stays; ED consultation.
    const note = (type, authored, text, extra = {}) => {
      notes.push({ id: `note-${pid}-${pad(notes.length + 1)}`, type, title: NOTE_TITLE[type], status: 'final', authored: iso(authored), authorId: extra.authorId ?? prac, encounterId: id, confidentiality: extra.confidentiality ?? 'N', text, ...(extra.status ? { status: extra.status } : {}) });
    };
    if (cls === 'IMP') {
      note('history-and-physical', start + 3 * HOUR, [`Chief complaint: ${encounter.reason}`, `HPI: ${displayName}, admitted via ED.`, 'PMH: see problem list', 'Exam: alert, oriented x3; affect labile', `Plan: admit to Ward 4B; ${pick(MEDS_BY_PROFILE[profile])}`].join(nl), { confidentiality: 'R' });
      note('discharge-summary', end - HOUR, dischargeText(displayName, start, end, dx1, nl), { confidentiality: 'R' });
    } else if (cls === 'EMER') {
      note('consultation-note', end - 30 * MINUTE, edText(displayName, diagnoses[0].code.code, nl));
    } else if (cls === 'OBSENC') {
      note('procedure-note', start + 2 * HOUR, ['12-lead ECG: sinus rhythm, rate 74, no acute ST changes.', 'Interpretation & report by the attending.'].join(nl));
    } else if (encounter.status === 'finished' && (v !== 1 || index % 2 === 0)) {
      const confidential = ['dep', 'bip', 'ptsd', 'sud'].includes(profile);
      note('progress-note', end + int(5, 90) * MINUTE, progressText(displayName, profile, dx1, nl, index * 7 + v, vitals), {
        confidentiality: profile === 'sud' ? 'V' : confidential ? 'R' : 'N',
        ...(v === 2 && index % 4 === 0 ? { status: 'amended' } : {}),
      });
    }
    encounters.push(encounter);
  });

  // One preliminary note without an encounter (phone call), and one entered in error.
  if (index % 6 === 1) {
    const t = clinicTime(chicago(2025, 1, 1), chicago(2026, 3, 1));
    notes.push({ id: `note-${pid}-${pad(notes.length + 1)}`, type: 'progress-note', title: 'Telephone note', status: 'preliminary', authored: iso(t), authorId: mainPrac, text: `Phone call with ${displayName}: refill request for ${pick(MEDS_BY_PROFILE[primary])}.${nl}Pharmacy: Walgreens #1234 (N Clark & W Diversey).` });
  }
  if (index === 8 && notes.length > 0) notes[0].status = 'entered-in-error';

  // Medical history: active problems from the profiles, plus resolved and remission entries.
  const medicalHistory = [];
  const hx = (entry) => medicalHistory.push({ id: `hx-${pid}-${pad(medicalHistory.length + 1)}`, ...entry });
  for (const profile of seed.profiles) {
    const code = PROFILE_DX[profile][0];
    if (code === 'Z00.00') continue;
    const onsetYear = int(2008, 2022);
    const entry = { code: icd(code), clinicalStatus: 'active', verificationStatus: 'confirmed', onset: String(onsetYear), recordedDate: `${onsetYear}-${pad(int(1, 12))}-${pad(int(1, 28))}` };
    if (profile === 'dep' && index % 5 === 0) {
      Object.assign(entry, { clinicalStatus: 'remission', abatement: isoDate(times[times.length - 1] ?? RANGE_END), note: 'In remission on sertraline & CBT; PHQ-9 < 5 twice.' });
    }
    hx(entry);
  }
  if (index % 2 === 0) {
    const onset = chicago(int(2015, 2022), int(1, 12), int(1, 28), int(9, 17));
    hx({ code: icd('S93.401A'), clinicalStatus: 'resolved', verificationStatus: 'confirmed', onset: iso(onset), abatement: isoDate(onset + int(14, 60) * DAY), recordedDate: isoDate(onset), note: 'Right ankle sprain | playing soccer; resolved with RICE & PT.' });
  }
  if (index % 3 === 1) {
    hx({ code: sct(396275006), clinicalStatus: 'inactive', verificationStatus: 'provisional', onset: `${int(2010, 2018)}-${pad(int(1, 12))}`, abatement: `${int(2019, 2022)}`, note: 'Knee pain; "probable OA" per X-ray report ~2018.' });
  }
  if (index % 5 === 3) hx({ code: icd('G47.00'), clinicalStatus: 'recurrence', verificationStatus: 'confirmed', onset: '2020-11', recordedDate: '2023-02-14' });

  if (seed.deceased) patient.deceased = iso(times[times.length - 1] + int(10, 40) * DAY);

  const chart = { patient, encounters, notes, assessments, medicalHistory };
  if (notes.length === 0) delete chart.notes;
  if (assessments.length === 0) delete chart.assessments;
  return chart;
}

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------

/**
 * The demo chart document: 20-odd patients with encounters, notes, assessments and medical history, and the
 * directory they reference.
 * @example const text = formatChartDocument(generateDemoChart()); // the bytes of examples/data/demo-chart.json
 */
export function generateDemoChart() {
  rnd = mulberry32(SEED);
  const document = {
    patients: PATIENTS.map(buildChart),
    directory: { organizations, practitioners, locations },
  };
  // A copy: the document shares no object with the tables of this module, so a caller may freeze or change it.
  return structuredClone(document);
}

/**
 * JSON with one-space indentation, where any object or array that fits in `width` characters stays on
 * one line: readable, diff-friendly, and about half the size of fully indented JSON. The file adds a final newline.
 * @example formatChartDocument({ a: [1, 2] }) // '{"a":[1,2]}'
 */
export function formatChartDocument(value, indent = '', width = 110) {
  const flat = JSON.stringify(value);
  if (flat === undefined || typeof value !== 'object' || value === null || indent.length + flat.length <= width) return flat;
  const inner = `${indent} `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + formatChartDocument(v, inner, width)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatChartDocument(v, inner, width)}`).join(',\n')}\n${indent}}`;
}
