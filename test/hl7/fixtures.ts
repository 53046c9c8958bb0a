/**
 * One realistic patient for the example tests: demographics with two identifiers (MR not first), two names,
 * mobile, e-mail and work phone, one coverage; one encounter with a diagnosis and a procedure; a note whose
 * text holds `&`, `|`, `\` and a CRLF; a PHQ-2 assessment; a medical-history entry.
 */
import type { Directory, PatientChart } from '../../src/index.js';

export const DIRECTORY: Directory = {
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

export const CHART: PatientChart = {
  patient: {
    id: 'pat-0001',
    identifiers: [
      { system: 'http://hl7.org/fhir/sid/us-ssn', value: '123-45-6789', type: 'SS' },
      { system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' },
    ],
    names: [
      { use: 'official', family: "O'Brien", given: ['Mary', 'Anne'], prefix: ['Ms.'] },
      { use: 'maiden', family: 'Walsh' },
    ],
    birthDate: '1984-07-02',
    gender: 'female',
    addresses: [{ use: 'home', lines: ['12 Elm St', 'Apt 4'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
    telecoms: [
      { system: 'phone', value: '+1 217 555 0142', use: 'mobile' },
      { system: 'email', value: 'mary.obrien@example.org', use: 'home' },
      { system: 'phone', value: '+1 217 555 0100', use: 'work' },
    ],
    maritalStatus: 'M',
    language: 'en-US',
    coverages: [
      {
        id: 'cov-1',
        status: 'active',
        payer: { id: 'payer-acme', name: 'Acme Health Plan', identifier: { system: 'urn:oid:2.16.840.1.113883.3.221.5', value: '60054' } },
        memberId: 'XZ123456',
        plan: { id: 'GOLD-PPO', name: 'Gold PPO' },
        group: { id: 'GRP-7781', name: 'Riverside Employees' },
        relationship: 'self',
        period: { start: '2026-01-01', end: '2026-12-31' },
        order: 1,
      },
    ],
  },
  encounters: [
    {
      id: 'enc-0001',
      status: 'finished',
      class: 'AMB',
      period: { start: '2026-03-01T09:30:00-05:00', end: '2026-03-01T10:10:00-05:00' },
      locationId: 'loc-001',
      participants: [{ role: 'ATND', practitionerId: 'prac-001' }],
      reason: 'Follow-up for low mood',
      diagnoses: [
        {
          id: 'dx-1',
          code: { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' },
          rank: 1,
          use: 'billing',
          onset: '2026-01',
          recordedDate: '2026-03-01',
        },
      ],
      procedures: [
        {
          id: 'proc-1',
          code: { system: 'cpt', code: '90834', display: 'Psychotherapy, 45 minutes with patient' },
          status: 'completed',
          performed: { start: '2026-03-01T09:35:00-05:00', end: '2026-03-01T10:20:00-05:00' },
          performerId: 'prac-001',
        },
      ],
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
      confidentiality: 'R',
      text: 'Subjective: mood better & sleeping 7 h.\nObjective: BP 128/82 | HR 72\r\nPlan: CBT weekly; notes in C:\\notes',
    },
  ],
  assessments: [
    {
      id: 'asmt-0001',
      instrument: {
        id: 'phq-2',
        title: 'PHQ-2 depression screen',
        code: { system: 'loinc', code: '55757-9', display: 'Patient Health Questionnaire 2 item (PHQ-2) [Reported]' },
        items: [
          { linkId: 'phq2-1', text: 'Little interest or pleasure in doing things', code: { system: 'loinc', code: '44250-9' }, type: 'choice' },
          { linkId: 'phq2-2', text: 'Feeling down, depressed, or hopeless', code: { system: 'loinc', code: '44255-8' }, type: 'choice' },
          { linkId: 'comment', text: 'Clinician comment', type: 'string' },
        ],
      },
      status: 'completed',
      authored: '2026-03-01T10:00:00-05:00',
      authorId: 'prac-001',
      encounterId: 'enc-0001',
      answers: [
        { linkId: 'phq2-1', value: { type: 'coding', value: { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 } } },
        { linkId: 'phq2-2', value: { type: 'coding', value: { system: 'loinc', code: 'LA6570-1', display: 'More than half the days', score: 2 } } },
        { linkId: 'comment', value: { type: 'string', value: 'Sleep improving; weekends harder' } },
      ],
      score: {
        value: 3,
        code: { system: 'loinc', code: '55758-7', display: 'PHQ-2 total score' },
        interpretation: 'Positive screen',
      },
    },
  ],
  medicalHistory: [
    {
      id: 'hx-0001',
      code: { system: 'icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' },
      clinicalStatus: 'active',
      onset: '2019',
      recordedDate: '2019-05-14',
    },
  ],
};

/**
 * A segment from its fields by number (HL7 field numbering; absent numbers are empty), so each expected
 * value sits next to the field it belongs to.
 */
export function seg(id: string, fields: Readonly<Record<number, string>>): string {
  const max = Math.max(0, ...Object.keys(fields).map(Number));
  const out = [id];
  for (let i = 1; i <= max; i++) out.push(fields[i] ?? '');
  return out.join('|');
}
