/**
 * Builders of invalid input for validator tests: invalid primitive values, and "breakers" that take a valid
 * chart or document and break exactly one rule, reporting the path where the check must find it.
 */
import fc from 'fast-check';
import type { Assessment, ChartDocument, Encounter, PatientChart } from '../../src/model/index.js';
import { arbChartDocument, arbPatientChart, type ChartOptions } from './chart.js';
import { PHQ9_INSTRUMENT } from './instruments.js';

/** Strings outside the ISO profile of `src/internal/iso.ts` (each for its own reason). */
export const INVALID_ISO_DATE_TIMES: readonly string[] = [
  '2023-02-29', // not a leap year
  '1900-02-29', // century, not a leap year
  '2024-04-31',
  '2024-13-01',
  '2024-00-10',
  '2024-1-01',
  '24-01-01',
  '20240101',
  '+2024-01-01',
  '0000',
  '',
  ' 2024',
  '2024-01-01T10:00Z', // no seconds
  '2024-01-01T10:00:00', // no offset
  '2024-01-01T24:00:00Z',
  '2024-01-01T10:60:00Z',
  '2024-01-01T10:00:61Z',
  '2024-01-01T10:00:00.12345Z', // 5 fraction digits
  '2024-01-01T10:00:00.Z',
  '2024-01-01T10:00:00+15:00',
  '2024-01-01T10:00:00-13:00',
  '2024-01-01T10:00:00+05:60',
  '2024-01-01T10:00:00+0530',
  '2024-01-01 10:00:00Z',
  '2024-01-01t10:00:00z',
  '2024-01-01T10:00:00ZZ',
];

/**
 * Codes that break the FHIR `code` shape `[^\s]+(\s[^\s]+)*` (so a single inner tab or LF is valid, two white
 * space characters in a row are not) or the 64-character limit (65 is the first length too long).
 */
export const INVALID_CODES: readonly string[] = ['', ' F32.1', 'F32.1 ', 'F32  1', 'F32 \t1', '\tF32.1', 'F32.1\n', 'x'.repeat(65), `${'9'.repeat(63)}😀`, 'x'.repeat(257)];

/** Values a `rank` / `order` may not have: below 1, beyond 2147483647 (FHIR positiveInt), not integers. */
export const INVALID_POSITIVE_INTS: readonly number[] = [0, -1, 2_147_483_648, 4_294_967_296, Number.MAX_SAFE_INTEGER, 1.5, Number.NaN, Number.POSITIVE_INFINITY];

/** Identifier systems that are not absolute URIs. */
export const INVALID_IDENTIFIER_SYSTEMS: readonly string[] = [
  '',
  'mrn',
  '1urn:x',
  'urn:',
  'urn: x',
  'http ://x',
  ':x',
  // OIDs and UUIDs in the FHIR forms only (the FHIR validator refuses the others).
  'oid:2.16.840.1.113883.19.5',
  'uuid:7b2a4f0c-3c1e-4d7a-9f15-2b8e6a1c0d42',
  'urn:oid:MRN',
  'urn:oid:2.16.840.1.113883.19.05',
  'urn:oid:2.16.',
  'urn:uuid:not-a-uuid',
  'urn:uuid:7B2A4F0C-3C1E-4D7A-9F15-2B8E6A1C0D42',
];

/** An invalid ISO date / date-time string. */
export const arbInvalidIsoDateTime: fc.Arbitrary<string> = fc.constantFrom(...INVALID_ISO_DATE_TIMES);

/** A chart or document broken in one place, and where the check must report it. */
export interface Broken<T> {
  /** The broken value (typed loosely: it no longer satisfies the model). */
  value: T;
  /** The path of the issue, formatted like `formatIssuePath` (`encounters[0].period.start`). */
  path: string;
  /** Which breaker was applied. */
  name: string;
}

/** One way to break a valid chart. */
export interface ChartBreaker {
  /** What rule it breaks. */
  name: string;
  /** Break a deep copy of `chart`; returns the copy and the path the check must report. */
  apply(chart: PatientChart): { value: PatientChart; path: string };
}

const copy = <T>(v: T): T => structuredClone(v);

/** Ensure the chart has at least one encounter (a minimal valid one at the end if needed); returns its index. */
function ensureEncounter(chart: PatientChart): number {
  chart.encounters ??= [];
  if (chart.encounters.length === 0) chart.encounters.push({ id: 'enc-broken', status: 'finished', class: 'AMB' });
  return 0;
}

function firstEncounter(chart: PatientChart): [number, Encounter] {
  const i = ensureEncounter(chart);
  const enc = chart.encounters?.[i];
  if (enc === undefined) throw new Error('unreachable');
  return [i, enc];
}

/** A fresh id not used by any record of the kind in the list. */
function unusedId(list: readonly { id: string }[] | undefined, base: string): string {
  const ids = new Set((list ?? []).map((x) => x.id));
  let id = base;
  for (let i = 2; ids.has(id); i++) id = `${base}-${i}`;
  return id;
}

/** Put `record` first in a list (ids made unique), and return the list. */
function prepend<T extends { id: string }>(list: T[] | undefined, record: T): T[] {
  const out = list ?? [];
  out.unshift({ ...record, id: unusedId(out, record.id) });
  return out;
}

const validAssessment = (over: Partial<Assessment>): Assessment => ({
  id: 'asmt-broken',
  instrument: PHQ9_INSTRUMENT,
  status: 'completed',
  authored: '2024-03-01T10:00:00-06:00',
  answers: [],
  ...over,
});

/**
 * Ways to break a valid chart, each in exactly one place. Records the breaker needs are added first when
 * the chart has none, so every breaker applies to every chart.
 */
export const CHART_BREAKERS: readonly ChartBreaker[] = [
  {
    name: 'impossible date in encounter period start',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.period = { start: '2023-02-29T10:00:00-06:00' };
      return { value: c, path: `encounters[${i}].period.start` };
    },
  },
  {
    name: 'period end before start',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.period = { start: '2024-03-02T10:00:00Z', end: '2024-03-02T09:59:59.999Z' };
      return { value: c, path: `encounters[${i}].period.end` };
    },
  },
  {
    name: 'date-time without offset in note authored',
    apply(chart) {
      const c = copy(chart);
      c.notes = prepend(c.notes, { id: 'note-broken', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2024-03-01T10:00:00', text: 'x' });
      return { value: c, path: 'notes[0].authored' };
    },
  },
  {
    name: 'five fraction digits in assessment authored',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ authored: '2024-03-01T10:00:00.12345Z' }));
      return { value: c, path: 'assessments[0].authored' };
    },
  },
  {
    name: 'birth date with a time',
    apply(chart) {
      const c = copy(chart);
      c.patient.birthDate = '1980-01-01T00:00:00Z';
      return { value: c, path: 'patient.birthDate' };
    },
  },
  {
    name: 'no identifiers',
    apply(chart) {
      const c = copy(chart);
      c.patient.identifiers = [];
      return { value: c, path: 'patient.identifiers' };
    },
  },
  {
    name: 'name without family, given or text',
    apply(chart) {
      const c = copy(chart);
      c.patient.names = [{ use: 'official', given: [''], prefix: ['Dr.'] }];
      return { value: c, path: 'patient.names[0]' };
    },
  },
  {
    name: 'forbidden control character in a family name',
    apply(chart) {
      const c = copy(chart);
      c.patient.names = [{ family: 'O\u0000Brien' }];
      return { value: c, path: 'patient.names[0].family' };
    },
  },
  {
    name: 'lone surrogate in note text',
    apply(chart) {
      const c = copy(chart);
      c.notes = prepend(c.notes, { id: 'note-broken', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2024-03-01T10:00:00Z', text: 'a\uD800b' });
      return { value: c, path: 'notes[0].text' };
    },
  },
  {
    name: 'empty note title',
    apply(chart) {
      const c = copy(chart);
      c.notes = prepend(c.notes, { id: 'note-broken', type: 'discharge-summary', title: '', status: 'final', authored: '2024-03-01T10:00:00Z', text: 'x' });
      return { value: c, path: 'notes[0].title' };
    },
  },
  {
    name: 'missing note text',
    apply(chart) {
      const c = copy(chart);
      const note = { id: 'note-broken', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2024-03-01T10:00:00Z' };
      c.notes = prepend(c.notes, note as unknown as NonNullable<PatientChart['notes']>[number]);
      return { value: c, path: 'notes[0].text' };
    },
  },
  {
    name: 'duplicate encounter id',
    apply(chart) {
      const c = copy(chart);
      const [, enc] = firstEncounter(c);
      const list = c.encounters ?? [];
      list.push(copy(enc));
      return { value: c, path: `encounters[${list.length - 1}].id` };
    },
  },
  {
    name: 'unknown encounter class',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      (enc as unknown as Record<string, unknown>)['class'] = 'OUTPATIENT';
      return { value: c, path: `encounters[${i}].class` };
    },
  },
  {
    name: 'diagnosis code with a leading space',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.diagnoses = [{ code: { system: 'icd-10-cm', code: ' F32.1' } }];
      return { value: c, path: `encounters[${i}].diagnoses[0].code.code` };
    },
  },
  {
    name: 'diagnosis coded in CPT',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.diagnoses = [{ code: { system: 'cpt', code: '99213' } }];
      return { value: c, path: `encounters[${i}].diagnoses[0].code.system` };
    },
  },
  {
    name: 'diagnosis rank 2147483648 (beyond FHIR positiveInt)',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.diagnoses = [{ code: { system: 'icd-10-cm', code: 'F32.1' }, rank: 2_147_483_648 }];
      return { value: c, path: `encounters[${i}].diagnoses[0].rank` };
    },
  },
  {
    name: 'diagnosis code of 65 characters',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.diagnoses = [{ code: { system: 'icd-10-cm', code: 'x'.repeat(65) } }];
      return { value: c, path: `encounters[${i}].diagnoses[0].code.code` };
    },
  },
  {
    name: 'procedure code of 65 characters',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.procedures = [{ code: { system: 'cpt', code: `${'|'.repeat(64)}^` }, status: 'completed', performed: '2024-03-01' }];
      return { value: c, path: `encounters[${i}].procedures[0].code.code` };
    },
  },
  {
    name: 'encounter id with a tab',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.id = 'enc\t0001';
      return { value: c, path: `encounters[${i}].id` };
    },
  },
  {
    name: 'diagnosis id with CR LF',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.diagnoses = [{ id: 'dx\r\n1', code: { system: 'icd-10-cm', code: 'F32.1' } }];
      return { value: c, path: `encounters[${i}].diagnoses[0].id` };
    },
  },
  {
    name: 'note encounter reference with a line feed',
    apply(chart) {
      const c = copy(chart);
      c.notes = prepend(c.notes, { id: 'note-broken', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2024-03-01T10:00:00Z', text: 'x', encounterId: 'enc\n1' });
      return { value: c, path: 'notes[0].encounterId' };
    },
  },
  {
    name: 'medical-history id with DEL',
    apply(chart) {
      const c = copy(chart);
      c.medicalHistory = prepend(c.medicalHistory, { id: 'hx\u007F1', code: { system: 'icd-10-cm', code: 'I10' }, clinicalStatus: 'active' });
      return { value: c, path: 'medicalHistory[0].id' };
    },
  },
  {
    name: 'diagnosis rank 0',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.diagnoses = [{ code: { system: 'icd-10-cm', code: 'F32.1' }, rank: 0 }];
      return { value: c, path: `encounters[${i}].diagnoses[0].rank` };
    },
  },
  {
    name: 'duplicate procedure id within an encounter',
    apply(chart) {
      const c = copy(chart);
      const [i, enc] = firstEncounter(c);
      enc.procedures = [
        { id: 'p', code: { system: 'cpt', code: '90834' }, status: 'completed', performed: '2024-03-01' },
        { id: 'p', code: { system: 'cpt', code: '96127' }, status: 'completed', performed: '2024-03-01' },
      ];
      return { value: c, path: `encounters[${i}].procedures[1].id` };
    },
  },
  {
    name: 'patient id too long',
    apply(chart) {
      const c = copy(chart);
      c.patient.id = 'x'.repeat(129);
      return { value: c, path: 'patient.id' };
    },
  },
  {
    name: 'patient id with a tab inside',
    apply(chart) {
      const c = copy(chart);
      c.patient.id = 'pat\t0001';
      return { value: c, path: 'patient.id' };
    },
  },
  {
    name: 'patient id with trailing white space',
    apply(chart) {
      const c = copy(chart);
      c.patient.id = 'pat-0001 ';
      return { value: c, path: 'patient.id' };
    },
  },
  {
    name: 'identifier system that is not a URI',
    apply(chart) {
      const c = copy(chart);
      c.patient.identifiers = [{ system: 'mrn', value: 'MRN-1' }];
      return { value: c, path: 'patient.identifiers[0].system' };
    },
  },
  {
    name: 'language that is not a BCP 47 tag',
    apply(chart) {
      const c = copy(chart);
      c.patient.language = 'English';
      return { value: c, path: 'patient.language' };
    },
  },
  {
    name: 'coverage period with a time',
    apply(chart) {
      const c = copy(chart);
      c.patient.coverages = [{ id: 'cov-1', status: 'active', payer: { id: 'payer-1', name: 'Payer' }, period: { start: '2024-01-01T00:00:00Z' } }];
      return { value: c, path: 'patient.coverages[0].period.start' };
    },
  },
  {
    name: 'coverage order 0',
    apply(chart) {
      const c = copy(chart);
      c.patient.coverages = [{ id: 'cov-1', status: 'active', payer: { id: 'payer-1', name: 'Payer' }, order: 0 }];
      return { value: c, path: 'patient.coverages[0].order' };
    },
  },
  {
    name: 'coverage order beyond FHIR positiveInt',
    apply(chart) {
      const c = copy(chart);
      c.patient.coverages = [{ id: 'cov-1', status: 'active', payer: { id: 'payer-1', name: 'Payer' }, order: Number.MAX_SAFE_INTEGER }];
      return { value: c, path: 'patient.coverages[0].order' };
    },
  },
  {
    name: 'answer linkId with a tab',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ instrument: { id: 'free', title: 'Free' }, answers: [{ linkId: 'q\t1', value: { type: 'boolean', value: true } }] }));
      return { value: c, path: 'assessments[0].answers[0].linkId' };
    },
  },
  {
    name: 'non-finite score',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ score: { value: Number.POSITIVE_INFINITY } }));
      return { value: c, path: 'assessments[0].score.value' };
    },
  },
  {
    name: 'answer type that does not fit the item type',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ answers: [{ linkId: 'phq9-1', value: { type: 'string', value: 'often' } }] }));
      return { value: c, path: 'assessments[0].answers[0].value.type' };
    },
  },
  {
    name: 'answer to an item the instrument does not define',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ answers: [{ linkId: 'phq9-10', value: { type: 'coding', value: { system: 'loinc', code: 'LA6568-5' } } }] }));
      return { value: c, path: 'assessments[0].answers[0].linkId' };
    },
  },
  {
    name: 'duplicate answer linkId',
    apply(chart) {
      const c = copy(chart);
      const answer = { linkId: 'phq9-1', value: { type: 'coding' as const, value: { system: 'loinc' as const, code: 'LA6568-5', score: 0 } } };
      c.assessments = prepend(c.assessments, validAssessment({ answers: [answer, answer] }));
      return { value: c, path: 'assessments[0].answers[1].linkId' };
    },
  },
  {
    name: 'coded answer outside its item options',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ answers: [{ linkId: 'phq9-1', value: { type: 'coding', value: { system: 'loinc', code: 'LA-not-an-option' } } }] }));
      return { value: c, path: 'assessments[0].answers[0].value' };
    },
  },
  {
    name: 'coded answer with an option code from another system',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ answers: [{ linkId: 'phq9-1', value: { type: 'coding', value: { system: 'snomed-ct', code: 'LA6568-5', display: 'Not at all' } } }] }));
      return { value: c, path: 'assessments[0].answers[0].value' };
    },
  },
  {
    name: 'answers out of item order',
    apply(chart) {
      const c = copy(chart);
      const answer = (linkId: string) => ({ linkId, value: { type: 'coding' as const, value: { system: 'loinc' as const, code: 'LA6568-5', score: 0 } } });
      c.assessments = prepend(c.assessments, validAssessment({ status: 'in-progress', answers: [answer('phq9-2'), answer('phq9-1')] }));
      return { value: c, path: 'assessments[0].answers[1].linkId' };
    },
  },
  {
    name: 'answer options on an item that is not a choice',
    apply(chart) {
      const c = copy(chart);
      const instrument = { id: 'broken-options', title: 'Broken', items: [{ linkId: 'q1', text: 'Comment', type: 'string' as const, options: [{ system: 'loinc' as const, code: 'LA6568-5' }] }] };
      c.assessments = prepend(c.assessments, validAssessment({ instrument }));
      return { value: c, path: 'assessments[0].instrument.items[0].options' };
    },
  },
  {
    name: 'integer answer beyond 32 bits to an integer item',
    apply(chart) {
      const c = copy(chart);
      const instrument = { id: 'broken-integer', title: 'Broken', items: [{ linkId: 'q1', text: 'Count', type: 'integer' as const }] };
      c.assessments = prepend(c.assessments, validAssessment({ instrument, answers: [{ linkId: 'q1', value: { type: 'integer', value: 2 ** 31 } }] }));
      return { value: c, path: 'assessments[0].answers[0].value.value' };
    },
  },
  {
    name: 'integer answer that is not an integer',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ instrument: { id: 'free', title: 'Free' }, answers: [{ linkId: 'a', value: { type: 'integer', value: 1.5 } }] }));
      return { value: c, path: 'assessments[0].answers[0].value.value' };
    },
  },
  {
    name: 'abatement before onset',
    apply(chart) {
      const c = copy(chart);
      c.medicalHistory = prepend(c.medicalHistory, { id: 'hx-broken', code: { system: 'icd-10-cm', code: 'I10' }, clinicalStatus: 'resolved', onset: '2024', abatement: '2023-12-31' });
      return { value: c, path: 'medicalHistory[0].abatement' };
    },
  },
  {
    name: 'unknown code system in history',
    apply(chart) {
      const c = copy(chart);
      const entry = { id: 'hx-broken', code: { system: 'icd-9-cm', code: '250.00' }, clinicalStatus: 'active' };
      c.medicalHistory = prepend(c.medicalHistory, entry as unknown as NonNullable<PatientChart['medicalHistory']>[number]);
      return { value: c, path: 'medicalHistory[0].code.system' };
    },
  },
  {
    name: 'wrong type for encounters',
    apply(chart) {
      const c = copy(chart);
      (c as unknown as Record<string, unknown>)['encounters'] = { id: 'enc-1' };
      return { value: c, path: 'encounters' };
    },
  },
];

/** One way to break a valid chart document. */
export interface DocumentBreaker {
  /** What rule it breaks. */
  name: string;
  /** Break a deep copy of `doc`; returns the copy and the path the check must report. */
  apply(doc: ChartDocument): { value: ChartDocument; path: string };
}

/** Ways to break a valid document in exactly one place (reference and uniqueness rules). */
export const DOCUMENT_BREAKERS: readonly DocumentBreaker[] = [
  {
    name: 'encounter location missing from the directory',
    apply(doc) {
      const d = copy(doc);
      const chart = d.patients[0];
      if (chart === undefined) throw new Error('documents have at least one patient');
      const [i, enc] = firstEncounter(chart);
      enc.locationId = unusedId(d.directory?.locations, 'loc-nowhere');
      return { value: d, path: `patients[0].encounters[${i}].locationId` };
    },
  },
  {
    name: 'note author missing from the directory',
    apply(doc) {
      const d = copy(doc);
      const chart = d.patients[0];
      if (chart === undefined) throw new Error('documents have at least one patient');
      chart.notes = prepend(chart.notes, { id: 'note-broken', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2024-03-01T10:00:00Z', text: 'x', authorId: unusedId(d.directory?.practitioners, 'prac-nobody') });
      return { value: d, path: 'patients[0].notes[0].authorId' };
    },
  },
  {
    name: "assessment encounter missing from the patient's chart",
    apply(doc) {
      const d = copy(doc);
      const chart = d.patients[0];
      if (chart === undefined) throw new Error('documents have at least one patient');
      chart.assessments = prepend(chart.assessments, validAssessment({ encounterId: unusedId(chart.encounters, 'enc-elsewhere') }));
      return { value: d, path: 'patients[0].assessments[0].encounterId' };
    },
  },
  {
    name: 'duplicate patient id',
    apply(doc) {
      const d = copy(doc);
      const first = d.patients[0];
      if (first === undefined) throw new Error('documents have at least one patient');
      d.patients.push(copy(first));
      return { value: d, path: `patients[${d.patients.length - 1}].patient.id` };
    },
  },
  {
    name: 'location organization missing from the directory',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.locations ??= [];
      d.directory.locations.push({ id: unusedId(d.directory.locations, 'loc-orphan'), name: 'Orphan', organizationId: unusedId(d.directory.organizations, 'org-nowhere') });
      return { value: d, path: `directory.locations[${d.directory.locations.length - 1}].organizationId` };
    },
  },
  {
    name: 'organization address with use home',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.organizations ??= [];
      d.directory.organizations.push({ id: unusedId(d.directory.organizations, 'org-home'), name: 'Home office', addresses: [{ use: 'work', city: 'Springfield' }, { use: 'home', city: 'Springfield' }] });
      return { value: d, path: `directory.organizations[${d.directory.organizations.length - 1}].addresses[1].use` };
    },
  },
  {
    name: 'organization contact point with use home',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.organizations ??= [];
      d.directory.organizations.push({ id: unusedId(d.directory.organizations, 'org-home'), name: 'Home office', telecoms: [{ system: 'phone', value: '555-0100', use: 'home' }] });
      return { value: d, path: `directory.organizations[${d.directory.organizations.length - 1}].telecoms[0].use` };
    },
  },
  {
    name: 'practitioner qualification code of 65 characters',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.practitioners ??= [];
      d.directory.practitioners.push({ id: unusedId(d.directory.practitioners, 'prac-long'), names: [{ family: 'Long' }], qualifications: [{ code: { system: 'snomed-ct', code: '1'.repeat(65) } }] });
      return { value: d, path: `directory.practitioners[${d.directory.practitioners.length - 1}].qualifications[0].code.code` };
    },
  },
  {
    name: 'location id with a line feed',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.locations ??= [];
      d.directory.locations.push({ id: 'loc\n1', name: 'Ward 4B' });
      return { value: d, path: `directory.locations[${d.directory.locations.length - 1}].id` };
    },
  },
  {
    name: 'duplicate practitioner id in the directory',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.practitioners ??= [];
      d.directory.practitioners.push({ id: 'prac-twin', names: [{ family: 'Twin' }] }, { id: 'prac-twin', names: [{ family: 'Twin' }] });
      return { value: d, path: `directory.practitioners[${d.directory.practitioners.length - 1}].id` };
    },
  },
];

/**
 * A valid chart (from {@link arbPatientChart}) broken in exactly one place by one of {@link CHART_BREAKERS}.
 * @param opts - chart options
 */
export function arbBrokenPatientChart(opts: ChartOptions = {}): fc.Arbitrary<Broken<PatientChart>> {
  return fc.tuple(arbPatientChart(opts), fc.constantFrom(...CHART_BREAKERS)).map(([{ chart }, breaker]) => ({ ...breaker.apply(chart), name: breaker.name }));
}

/**
 * A valid document (from {@link arbChartDocument}) broken in exactly one place by one of
 * {@link DOCUMENT_BREAKERS}.
 * @param opts - document options
 */
export function arbBrokenChartDocument(opts: ChartOptions & { maxPatients?: number } = {}): fc.Arbitrary<Broken<ChartDocument>> {
  return fc.tuple(arbChartDocument(opts), fc.constantFrom(...DOCUMENT_BREAKERS)).map(([doc, breaker]) => ({ ...breaker.apply(doc), name: breaker.name }));
}
