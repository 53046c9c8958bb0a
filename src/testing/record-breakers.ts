/**
 * Breakers of a chart's patient, encounters, notes and medical history, each in exactly one place.
 */
import type { PatientChart } from '../index.js';
import { copy, firstEncounter, prepend, validAssessment, type ChartBreaker } from './breakers.js';

/** Ways to break a valid chart's records (not its assessments), each in exactly one place. */
export const RECORD_BREAKERS: readonly ChartBreaker[] = [
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
