/**
 * A small synthetic chart document for the HTTP adapter tests: two patients (so "belongs to another patient"
 * can be asked), records of every kind with directory references, text that needs escaping in both formats,
 * and a patient id that needs percent-encoding in a URL. No real person.
 */
import type { AnswerOption, Assessment, ChartDocument, ClinicalNote, Encounter, MedicalHistoryEntry } from '../../../src/index.js';
import { FREQUENCY_OPTIONS, PHQ9_INSTRUMENT, PHQ9_TOTAL } from '../../../src/testing/instruments.js';

const enc = (id: string, start: string, extra: Partial<Encounter> = {}): Encounter => ({
  id,
  status: 'finished',
  class: 'AMB',
  period: { start, end: start.replace('T09:', 'T10:') },
  ...extra,
});

const note = (id: string, authored: string, extra: Partial<ClinicalNote> = {}): ClinicalNote => ({
  id,
  type: 'progress-note',
  title: 'Progress note',
  status: 'final',
  authored,
  text: 'Subjective: feels better.\nObjective: calm, oriented.',
  ...extra,
});

const phq9 = (id: string, authored: string, extra: Partial<Assessment> = {}): Assessment => ({
  id,
  instrument: PHQ9_INSTRUMENT,
  status: 'completed',
  authored,
  answers: [
    { linkId: 'phq9-1', value: { type: 'coding', value: FREQUENCY_OPTIONS[1] as AnswerOption } },
    { linkId: 'phq9-2', value: { type: 'coding', value: FREQUENCY_OPTIONS[2] as AnswerOption } },
  ],
  score: { value: 3, code: PHQ9_TOTAL, interpretation: 'Minimal depression' },
  ...extra,
});

const history = (id: string, code: string, display: string, recordedDate: string): MedicalHistoryEntry => ({
  id,
  code: { system: 'icd-10-cm', code, display },
  clinicalStatus: 'active',
  recordedDate,
});

/** The patient with everything. */
export const PATIENT_ID = 'pat-0001';
/** A second patient, whose records must not be reachable through the first. */
export const OTHER_PATIENT_ID = 'pat-0002';
/** A patient id with characters that need percent-encoding (space, `|`, `&`, non-ASCII). */
export const ODD_PATIENT_ID = 'pat 3|Zoë&co';

/** The fixture document. Records are deliberately out of date order, to test newest-first selection. */
export const CHART_DOCUMENT: ChartDocument = {
  directory: {
    organizations: [
      { id: 'org-001', name: 'Riverside Health System', active: true },
      { id: 'org-002', name: 'Riverside Behavioral Health', active: true, partOfId: 'org-001' },
      { id: 'org-003', name: 'Lakeside Family Practice' },
    ],
    practitioners: [
      {
        id: 'prac-001',
        names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'] }],
        identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' }],
      },
      { id: 'prac-002', names: [{ family: "O'Brien", given: ['Mary', 'Anne'] }] },
    ],
    locations: [
      { id: 'loc-001', name: 'Riverside Clinic, Suite 200', status: 'active', organizationId: 'org-002' },
      { id: 'loc-002', name: 'Lakeside Office', organizationId: 'org-003' },
    ],
  },
  patients: [
    {
      patient: {
        id: PATIENT_ID,
        identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }],
        names: [{ use: 'official', family: 'Quintero', given: ['Ana', 'María'] }],
        birthDate: '1984-07-02',
        gender: 'female',
        addresses: [{ use: 'home', lines: ['12 Elm St', 'Apt 4'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
        telecoms: [{ system: 'phone', value: '+1 217 555 0142', use: 'mobile' }],
        coverages: [
          {
            id: 'cov-1',
            status: 'active',
            payer: { id: 'payer-aetna', name: 'Aetna', identifier: { system: 'urn:oid:2.16.840.1.113883.6.300', value: '60054' } },
            memberId: 'XZ123456',
            relationship: 'self',
            order: 1,
          },
        ],
      },
      encounters: [
        enc('enc-0002', '2026-02-01T09:30:00-05:00', { class: 'VR', participants: [{ role: 'ATND', practitionerId: 'prac-002' }] }),
        enc('enc-0003', '2026-03-01T09:30:00-05:00', {
          locationId: 'loc-001',
          participants: [{ role: 'ATND', practitionerId: 'prac-001' }],
          reason: 'Follow-up for low mood | sleep ^ issues',
          diagnoses: [{ id: 'dx-1', code: { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' }, rank: 1 }],
          procedures: [
            {
              id: 'proc-1',
              code: { system: 'cpt', code: '90834', display: 'Psychotherapy, 45 minutes' },
              status: 'completed',
              performed: '2026-03-01T09:35:00-05:00',
              performerId: 'prac-001',
            },
          ],
        }),
        enc('enc-0001', '2026-01-05T09:00:00-05:00', { locationId: 'loc-002' }),
      ],
      notes: [
        note('note-0001', '2026-01-05T10:15:00-05:00', { encounterId: 'enc-0001' }),
        note('note-0002', '2026-03-01T10:15:00-05:00', {
          encounterId: 'enc-0003',
          authorId: 'prac-001',
          title: 'Progress note & plan',
          text: 'S: "Sleeping ~5h" | mood 4/10\r\nO: A&O x3, affect ^ flat\nP: continue \\ titrate.\n\nFollow-up in 2 weeks.',
        }),
        note('note-0003', '2026-02-01T11:00:00-05:00', { type: 'consultation-note', title: 'Consultation', authorId: 'prac-002' }),
      ],
      assessments: [
        phq9('asmt-0001', '2026-01-05T09:40:00-05:00'),
        phq9('asmt-0002', '2026-03-01T09:40:00-05:00', { encounterId: 'enc-0003', authorId: 'prac-001' }),
      ],
      medicalHistory: [
        history('hx-0001', 'E11.9', 'Type 2 diabetes mellitus without complications', '2019-05-14'),
        history('hx-0002', 'I10', 'Essential (primary) hypertension', '2021-09-30'),
      ],
    },
    {
      patient: {
        id: OTHER_PATIENT_ID,
        identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000456', type: 'MR' }],
        names: [{ family: 'Nguyen', given: ['Bao'] }],
        gender: 'male',
        birthDate: '1972',
      },
      encounters: [enc('enc-9001', '2025-11-10T09:00:00+01:00')],
      notes: [note('note-9001', '2025-11-10T10:00:00+01:00', { encounterId: 'enc-9001' })],
      assessments: [phq9('asmt-9001', '2025-11-10T09:30:00+01:00')],
    },
    {
      patient: {
        id: ODD_PATIENT_ID,
        identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000789' }],
        names: [{ text: 'Zoë Ünal' }],
      },
    },
  ],
};

/** Plain API keys of the fixture (tests only) and what they grant. */
export const KEYS = {
  both: 'test-key-both-0123456789abcdef',
  fhirOnly: 'test-key-fhir-0123456789abcdef',
  hl7Only: 'test-key-hl7-0123456789abcdef',
  revoked: 'test-key-revoked-0123456789abc',
  tiny: 'test-key-tiny-0123456789abcdef',
} as const;
