/**
 * The chart of the FHIR benchmarks (deterministic): 1 patient, 1000 encounters (2 diagnoses + 1 procedure
 * each), 1000 notes of 2 KB, 200 assessments of 20 items, 200 medical-history entries, and a directory of
 * 20 practitioners, 5 locations and 1 organization.
 */
/** Deterministic pseudo-random numbers (mulberry32), so every run maps the same chart. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rnd = random(20260301);
const pick = (list) => list[Math.floor(rnd() * list.length)];
const pad = (n, w = 2) => String(n).padStart(w, '0');

function dateTime(i) {
  // Spread over ~5 years, Central time offsets, newest last (the builder sorts).
  const day = 1 + (i % 28);
  const month = 1 + (Math.floor(i / 28) % 12);
  const year = 2021 + Math.floor(i / (28 * 12));
  return `${year}-${pad(month)}-${pad(day)}T${pad(8 + (i % 9))}:${pad((i * 7) % 60)}:00-0${5 + (month > 3 && month < 11 ? 0 : 1)}:00`;
}

const WORDS = 'patient reports improved sleep and appetite denies suicidal ideation mood is euthymic affect congruent plan continue sertraline follow up in four weeks discussed coping skills & sleep hygiene; blood pressure 128/82 <normal> "stable" café naïve'.split(' ');
function noteText(target) {
  let text = '';
  let line = '';
  while (text.length + line.length < target) {
    line += `${pick(WORDS)} `;
    if (line.length > 70) {
      text += `${line.trimEnd()}\n`;
      line = '';
    }
  }
  return (text + line).slice(0, target);
}

const ICD = [['F32.1', 'Major depressive disorder, single episode, moderate'], ['F41.1', 'Generalized anxiety disorder'], ['E11.9', 'Type 2 diabetes mellitus without complications'], ['I10', 'Essential (primary) hypertension'], ['F43.10', 'Post-traumatic stress disorder, unspecified']];
const CPT = [['90834', 'Psychotherapy, 45 minutes'], ['90837', 'Psychotherapy, 60 minutes'], ['99214', 'Office or other outpatient visit, established patient']];

const practitioners = Array.from({ length: 20 }, (_, i) => ({
  id: `prac-${pad(i, 3)}`,
  names: [{ family: `Family${i}`, given: [`Given${i}`], prefix: ['Dr.'] }],
  identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: `10030001${pad(i, 2)}`, type: 'NPI' }],
}));
const organizations = [{ id: 'org-001', name: 'Riverside Behavioral Health' }];
const locations = Array.from({ length: 5 }, (_, i) => ({ id: `loc-${pad(i, 3)}`, name: `Riverside Clinic, Suite ${200 + i}`, status: 'active', organizationId: 'org-001' }));
const directory = { organizations, practitioners, locations };

const items = Array.from({ length: 20 }, (_, i) => ({
  linkId: `q${i + 1}`,
  text: `Question ${i + 1}: over the last two weeks, how often have you been bothered by this?`,
  code: { system: 'loinc', code: `4425${i}-9` },
  type: 'choice',
  options: [0, 1, 2, 3].map((s) => ({ system: 'loinc', code: `LA${6568 + s}-5`, display: ['Not at all', 'Several days', 'More than half the days', 'Nearly every day'][s], score: s })),
}));
const instrument = { id: 'scale-20', title: 'Twenty-item screening scale', code: { system: 'loinc', code: '99999-9' }, items };

const chart = {
  patient: {
    id: 'pat-0001',
    identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }],
    names: [{ use: 'official', family: 'Rivera', given: ['Ana', 'Lucía'] }],
    birthDate: '1984-07-02',
    gender: 'female',
    addresses: [{ use: 'home', lines: ['12 Elm St'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
    telecoms: [{ system: 'phone', value: '+1 217 555 0142', use: 'mobile' }],
    maritalStatus: 'M',
    language: 'es-US',
    coverages: [{ id: 'cov-1', status: 'active', payer: { id: 'payer-acme', name: 'Acme Health Plan' }, memberId: 'XZ123456', order: 1 }],
  },
  encounters: Array.from({ length: 1000 }, (_, i) => {
    const start = dateTime(i);
    const dx = [pick(ICD), pick(ICD)];
    const cpt = pick(CPT);
    return {
      id: `enc-${pad(i, 4)}`,
      status: 'finished',
      class: 'AMB',
      type: { system: 'snomed-ct', code: '185349003', display: 'Encounter for check up' },
      period: { start, end: start.replace(/T(\d\d)/, (_m, h) => `T${pad(Number(h) + 1)}`) },
      locationId: pick(locations).id,
      participants: [{ role: 'ATND', practitionerId: pick(practitioners).id }],
      reason: 'Follow-up for low mood',
      diagnoses: [
        { id: 'dx-1', code: { system: 'icd-10-cm', code: dx[0][0], display: dx[0][1] }, rank: 1, use: 'billing' },
        { id: 'dx-2', code: { system: 'icd-10-cm', code: dx[1][0], display: dx[1][1] }, rank: 2 },
      ],
      procedures: [{ id: 'proc-1', code: { system: 'cpt', code: cpt[0], display: cpt[1] }, status: 'completed', performed: start, performerId: pick(practitioners).id }],
    };
  }),
  notes: Array.from({ length: 1000 }, (_, i) => ({
    id: `note-${pad(i, 4)}`,
    type: 'progress-note',
    title: 'Progress note',
    status: 'final',
    authored: dateTime(i),
    authorId: pick(practitioners).id,
    encounterId: `enc-${pad(i, 4)}`,
    text: noteText(2048),
  })),
  assessments: Array.from({ length: 200 }, (_, i) => {
    const answers = items.map((it) => ({ linkId: it.linkId, value: { type: 'coding', value: pick(it.options) } }));
    return {
      id: `asmt-${pad(i, 4)}`,
      instrument,
      status: 'completed',
      authored: dateTime(i * 5),
      authorId: pick(practitioners).id,
      encounterId: `enc-${pad(i * 5, 4)}`,
      answers,
      score: { value: answers.reduce((s, a) => s + a.value.value.score, 0), interpretation: 'Moderate' },
    };
  }),
  medicalHistory: Array.from({ length: 200 }, (_, i) => {
    const code = pick(ICD);
    return { id: `hx-${pad(i, 4)}`, code: { system: 'icd-10-cm', code: code[0], display: code[1] }, clinicalStatus: 'active', onset: `${2000 + (i % 20)}`, recordedDate: `${2000 + (i % 20)}-05-14` };
  }),
};

export { chart, directory };
