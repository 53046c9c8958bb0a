/**
 * A small synthetic chart document for the service-command tests: two patients with records of every kind,
 * directory references, text that needs escaping in FHIR and HL7, and ids that need percent-encoding in a URL
 * and quoting in a shell. No real person.
 */
import type { ChartDocument } from '../../../src/index.js';

/** Ids the tests ask for. The first patient is the one the banner's curl lines use. */
export const IDS = {
  patient: "pat 01&'x'",
  encounter: 'enc|1^a',
  note: 'note #1',
  assessment: 'asmt-1',
  otherPatient: 'pat-02',
} as const;

/** Patient values that must never appear in an error message about the document. */
export const PATIENT_VALUES = ['Quillfeather', 'MRN-77123', '1961-04-09'] as const;

/**
 * Build the document (a fresh copy each call, so tests may break it).
 * @returns the chart document
 */
export function chartDocument(): ChartDocument {
  return {
    patients: [
      {
        patient: {
          id: IDS.patient,
          identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-77123', type: 'MR' }],
          names: [{ use: 'official', family: 'Quillfeather', given: ['Ada', 'M.'] }],
          birthDate: '1961-04-09',
          gender: 'female',
          addresses: [{ use: 'home', lines: ['12 Elm St', 'Apt 4|B'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
          telecoms: [{ system: 'phone', value: '+1 217 555 0142', use: 'mobile' }],
          coverages: [
            {
              id: 'cov-1',
              status: 'active',
              payer: { id: 'payer-acme', name: 'Acme Health & Life' },
              memberId: 'XZ123456',
              relationship: 'self',
              order: 1,
            },
          ],
        },
        encounters: [
          {
            id: IDS.encounter,
            status: 'finished',
            class: 'AMB',
            type: { system: 'cpt', code: '99213', display: 'Office visit, established patient' },
            period: { start: '2026-03-01T09:30:00-05:00', end: '2026-03-01T10:10:00-05:00' },
            locationId: 'loc-1',
            participants: [{ role: 'ATND', practitionerId: 'prac-1' }],
            reason: 'Follow-up: low mood ^ poor sleep',
            diagnoses: [{ id: 'dx-1', code: { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' }, rank: 1, use: 'billing' }],
            procedures: [{ id: 'proc-1', code: { system: 'cpt', code: '90834', display: 'Psychotherapy, 45 minutes' }, status: 'completed', performed: '2026-03-01T09:35:00-05:00', performerId: 'prac-1' }],
          },
        ],
        notes: [
          {
            id: IDS.note,
            type: 'progress-note',
            title: 'Progress note',
            status: 'final',
            authored: '2026-03-01T10:15:00-05:00',
            authorId: 'prac-1',
            encounterId: IDS.encounter,
            text: 'Subjective: sleeps 5 h/night; mood 4/10.\nObjective: calm & oriented | no SI.\r\nPlan: CBT ~ weekly \\ recheck PHQ-9.',
          },
        ],
        assessments: [
          {
            id: IDS.assessment,
            instrument: {
              id: 'phq-9',
              title: 'PHQ-9 quick depression assessment panel',
              code: { system: 'loinc', code: '44249-1', display: 'PHQ-9 quick depression assessment panel' },
            },
            status: 'completed',
            authored: '2026-03-01T09:40:00-05:00',
            authorId: 'prac-1',
            encounterId: IDS.encounter,
            answers: [
              {
                linkId: 'phq9-1',
                text: 'Little interest or pleasure in doing things',
                code: { system: 'loinc', code: '44250-9' },
                value: { type: 'coding', value: { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 } },
              },
            ],
            score: { value: 11, code: { system: 'loinc', code: '44261-6', display: 'PHQ-9 total score' }, interpretation: 'Moderate depression' },
          },
        ],
        medicalHistory: [
          {
            id: 'hx-1',
            code: { system: 'icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' },
            clinicalStatus: 'active',
            onset: '2019',
            recordedDate: '2019-05-14',
          },
        ],
      },
      {
        patient: {
          id: IDS.otherPatient,
          identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-55001', type: 'MR' }],
          names: [{ family: 'Brightwater', given: ['Tomas'] }],
          birthDate: '1990-11',
          gender: 'male',
        },
      },
    ],
    directory: {
      organizations: [{ id: 'org-1', name: 'Riverside Behavioral Health', active: true }],
      practitioners: [
        {
          id: 'prac-1',
          names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'] }],
          identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' }],
        },
      ],
      locations: [{ id: 'loc-1', name: 'Riverside Clinic, Suite 200', status: 'active', organizationId: 'org-1' }],
    },
  };
}
