/**
 * Example-based tests: the exact FHIR output for one realistic patient, written out by hand from the
 * mapping rules, so a reader sees what the builders produce.
 */
import { describe, expect, it } from 'vitest';
import { buildFhirNoteExport, buildFhirPatientBundle } from '../../src/index.js';
import { chart, directory, NOTE_TEXT } from './fixtures/realistic-patient.js';

const NOW = '2026-03-01T15:00:00Z';
const PATIENT_REF = { reference: 'Patient/pat-0001' };
const PRACTITIONER_REF = { reference: 'Practitioner/prac-001' };
const ENCOUNTER_REF = { reference: 'Encounter/enc-0001' };
const LOINC = 'http://loinc.org';
const ORDINAL = 'http://hl7.org/fhir/StructureDefinition/ordinalValue';
const NPI_TYPE = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'NPI', display: 'National provider identifier' }] };
const PROGRESS_NOTE = { coding: [{ system: LOINC, code: '11506-3', display: 'Progress note' }] };

const patient = {
  resourceType: 'Patient',
  id: 'pat-0001',
  identifier: [
    {
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR', display: 'Medical record number' }] },
      system: 'urn:oid:2.16.840.1.113883.19.5',
      value: 'MRN-000123',
    },
  ],
  name: [{ use: 'official', family: 'Rivera', given: ['Ana', 'Lucía'] }],
  telecom: [{ system: 'phone', value: '+1 217 555 0142', use: 'mobile' }],
  gender: 'female',
  birthDate: '1984-07-02',
  // The empty second address line is left out.
  address: [{ use: 'home', line: ['12 Elm St'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
  maritalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus', code: 'M', display: 'Married' }] },
  communication: [{ language: { coding: [{ system: 'urn:ietf:bcp:47', code: 'es-US' }] }, preferred: true }],
};

const coverage = {
  resourceType: 'Coverage',
  id: 'pat-0001-cov-1',
  status: 'active',
  subscriber: PATIENT_REF,
  subscriberId: 'XZ123456',
  beneficiary: PATIENT_REF,
  relationship: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship', code: 'self', display: 'Self' }] },
  period: { start: '2026-01-01', end: '2026-12-31' },
  payor: [{ reference: 'Organization/payer-acme' }],
  class: [
    { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'group', display: 'Group' }] }, value: 'GRP-77' },
    { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan', display: 'Plan' }] }, value: 'HMO-1', name: 'HMO Select' },
  ],
  order: 1,
};

const payer = {
  resourceType: 'Organization',
  id: 'payer-acme',
  identifier: [{ system: 'urn:oid:2.16.840.1.113883.6.300', value: '60054' }],
  active: true,
  type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'pay', display: 'Payer' }] }],
  name: 'Acme Health Plan',
};

const encounter = {
  resourceType: 'Encounter',
  id: 'enc-0001',
  status: 'finished',
  class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB', display: 'ambulatory' },
  type: [{ coding: [{ system: 'http://snomed.info/sct', code: '185349003', display: 'Encounter for check up' }] }],
  subject: PATIENT_REF,
  participant: [
    {
      type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType', code: 'ATND', display: 'attender' }] }],
      individual: PRACTITIONER_REF,
    },
  ],
  period: { start: '2026-02-20T09:30:00-06:00', end: '2026-02-20T10:10:00-06:00' },
  reasonCode: [{ text: 'Follow-up for low mood' }],
  diagnosis: [
    {
      condition: { reference: 'Condition/enc-0001-dx-1' },
      use: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/diagnosis-role', code: 'billing', display: 'Billing' }] },
      rank: 1,
    },
  ],
  location: [{ location: { reference: 'Location/loc-001' } }],
};

const diagnosis = {
  resourceType: 'Condition',
  // Derived from the encounter id and the diagnosis id.
  id: 'enc-0001-dx-1',
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'encounter-diagnosis', display: 'Encounter Diagnosis' }] }],
  code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' }] },
  subject: PATIENT_REF,
  encounter: ENCOUNTER_REF,
};

const procedure = {
  resourceType: 'Procedure',
  // The procedure has no chart id: derived from the encounter id and its position.
  id: 'enc-0001-proc1',
  status: 'completed',
  code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '90834', display: 'Psychotherapy, 45 minutes' }] },
  subject: PATIENT_REF,
  encounter: ENCOUNTER_REF,
  performedDateTime: '2026-02-20T09:35:00-06:00',
  performer: [{ actor: PRACTITIONER_REF }],
};

const composition = {
  resourceType: 'Composition',
  id: 'note-0001',
  status: 'final',
  type: PROGRESS_NOTE,
  subject: PATIENT_REF,
  encounter: ENCOUNTER_REF,
  date: '2026-02-20T10:15:00-06:00',
  author: [PRACTITIONER_REF],
  title: 'Progress note',
  confidentiality: 'N',
  section: [
    {
      title: 'Progress note',
      text: {
        status: 'generated',
        // CRLF becomes <br/>; & < > become entity references.
        div: '<div xmlns="http://www.w3.org/1999/xhtml">Subjective: sleeping better, appetite improved.<br/>Plan: continue sertraline 50 mg &amp; CBT &lt;weekly&gt;.</div>',
      },
      entry: [{ reference: 'DocumentReference/note-0001' }],
    },
  ],
};

const documentReference = {
  resourceType: 'DocumentReference',
  id: 'note-0001',
  status: 'current',
  docStatus: 'final',
  type: PROGRESS_NOTE,
  category: [{ coding: [{ system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category', code: 'clinical-note', display: 'Clinical Note' }] }],
  subject: PATIENT_REF,
  date: '2026-02-20T10:15:00-06:00',
  author: [PRACTITIONER_REF],
  description: 'Progress note',
  securityLabel: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'N', display: 'normal' }] }],
  content: [
    {
      attachment: {
        contentType: 'text/plain; charset=utf-8',
        // Base64 of the exact UTF-8 text, computed here by an independent encoder.
        data: Buffer.from(NOTE_TEXT, 'utf8').toString('base64'),
        size: 96, // 47 + CRLF + 47 ASCII characters
        title: 'Progress note',
        creation: '2026-02-20T10:15:00-06:00',
      },
    },
  ],
  context: { encounter: [ENCOUNTER_REF] },
};

const response = {
  resourceType: 'QuestionnaireResponse',
  id: 'asmt-0001',
  questionnaire: 'http://loinc.org/q/55757-9',
  status: 'completed',
  subject: PATIENT_REF,
  encounter: ENCOUNTER_REF,
  authored: '2026-02-20T09:32:00-06:00',
  author: PRACTITIONER_REF,
  item: [
    {
      linkId: 'phq2-1',
      text: 'Little interest or pleasure in doing things',
      answer: [{ valueCoding: { extension: [{ url: ORDINAL, valueDecimal: 1 }], system: LOINC, code: 'LA6569-3', display: 'Several days' } }],
    },
    {
      linkId: 'phq2-2',
      text: 'Feeling down, depressed, or hopeless',
      answer: [{ valueCoding: { extension: [{ url: ORDINAL, valueDecimal: 0 }], system: LOINC, code: 'LA6568-5', display: 'Not at all' } }],
    },
    { linkId: 'total-score', text: 'Total score', answer: [{ valueDecimal: 1 }] },
    { linkId: 'total-score-interpretation', text: 'Score interpretation', answer: [{ valueString: 'Negative screen' }] },
  ],
};

const questionnaire = {
  resourceType: 'Questionnaire',
  id: 'phq-2',
  url: 'http://loinc.org/q/55757-9',
  title: 'PHQ-2 quick depression assessment panel',
  status: 'active',
  subjectType: ['Patient'],
  code: [{ system: LOINC, code: '55757-9' }],
  item: [
    {
      linkId: 'phq2-1',
      code: [{ system: LOINC, code: '44250-9' }],
      text: 'Little interest or pleasure in doing things',
      type: 'choice',
      answerOption: [
        { extension: [{ url: ORDINAL, valueDecimal: 0 }], valueCoding: { system: LOINC, code: 'LA6568-5', display: 'Not at all' } },
        { extension: [{ url: ORDINAL, valueDecimal: 1 }], valueCoding: { system: LOINC, code: 'LA6569-3', display: 'Several days' } },
      ],
    },
    { linkId: 'phq2-2', code: [{ system: LOINC, code: '44255-8' }], text: 'Feeling down, depressed, or hopeless', type: 'choice' },
    {
      linkId: 'total-score',
      code: [{ system: LOINC, code: '55758-7', display: 'Patient Health Questionnaire 2 item (PHQ-2) total score [Reported]' }],
      text: 'Total score',
      type: 'decimal',
      readOnly: true,
    },
    { linkId: 'total-score-interpretation', text: 'Score interpretation', type: 'string', readOnly: true },
  ],
};

const history = {
  resourceType: 'Condition',
  id: 'hx-0001',
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active', display: 'Active' }] },
  verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'confirmed', display: 'Confirmed' }] },
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item', display: 'Problem List Item' }] }],
  code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' }] },
  subject: PATIENT_REF,
  onsetDateTime: '2019',
  recordedDate: '2019-05-14',
};

const practitioner = {
  resourceType: 'Practitioner',
  id: 'prac-001',
  identifier: [{ type: NPI_TYPE, system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126' }],
  active: true,
  name: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'] }],
};

const location = {
  resourceType: 'Location',
  id: 'loc-001',
  status: 'active',
  name: 'Riverside Clinic, Suite 200',
  managingOrganization: { reference: 'Organization/org-001' },
};

const organization = {
  resourceType: 'Organization',
  id: 'org-001',
  identifier: [{ type: NPI_TYPE, system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }],
  active: true,
  name: 'Riverside Behavioral Health',
};

const entry = (resource: { resourceType: string; id: string }): { fullUrl: string; resource: object } => ({
  fullUrl: `${resource.resourceType}/${resource.id}`,
  resource,
});

describe('buildFhirPatientBundle', () => {
  it('should produce the exact Bundle of a realistic patient', () => {
    // Arrange
    const expected = {
      resourceType: 'Bundle',
      id: 'example-bundle',
      type: 'collection',
      timestamp: NOW,
      total: 14,
      entry: [
        patient,
        coverage,
        payer,
        encounter,
        diagnosis,
        procedure,
        composition,
        documentReference,
        response,
        questionnaire,
        history,
        // Directory records in order of first reference; the Location brings its Organization.
        practitioner,
        location,
        organization,
      ].map(entry),
    };
    // Act
    const bundle = buildFhirPatientBundle(chart, { now: NOW, bundleId: 'example-bundle', directory });
    // Assert: the same JSON text, key order included.
    expect(JSON.parse(JSON.stringify(bundle))).toEqual(expected);
    expect(JSON.stringify(bundle)).toBe(JSON.stringify(expected));
  });

  it('should give absolute fullUrls with baseUrl and leave total out with strictBundleTotal', () => {
    const bundle = buildFhirPatientBundle(chart, { now: NOW, directory, baseUrl: 'https://fhir.example.org/r4/', strictBundleTotal: true });
    expect(bundle.total).toBeUndefined();
    expect(bundle.entry?.[0]?.fullUrl).toBe('https://fhir.example.org/r4/Patient/pat-0001');
    expect(bundle.entry?.[3]?.resource).toEqual(encounter);
    // The default id is a UUID (version 8) derived from the content.
    expect(bundle.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('should make references to records beyond a limit logical', () => {
    const bundle = buildFhirPatientBundle(chart, { now: NOW, directory, limits: { encounters: 0, assessments: 0, medicalHistory: 0 } });
    expect(bundle.entry?.map((e) => e.fullUrl)).toEqual([
      'Patient/pat-0001',
      'Coverage/pat-0001-cov-1',
      'Organization/payer-acme',
      'Composition/note-0001',
      'DocumentReference/note-0001',
      'Practitioner/prac-001',
    ]);
    const logical = { type: 'Encounter', identifier: { value: 'enc-0001' }, display: 'Encounter for check up, 2026-02-20T09:30:00-06:00' };
    expect(bundle.entry?.[3]?.resource).toEqual({ ...composition, encounter: logical });
    expect(bundle.entry?.[4]?.resource).toEqual({ ...documentReference, context: { encounter: [logical] } });
  });
});

describe('buildFhirNoteExport', () => {
  it('should bring the note, its encounter with the encounter diagnoses, and the directory records', () => {
    const bundle = buildFhirNoteExport(chart, 'note-0001', { now: NOW, bundleId: 'note-export', directory });
    expect(bundle).toEqual({
      resourceType: 'Bundle',
      id: 'note-export',
      type: 'collection',
      timestamp: NOW,
      total: 8,
      entry: [patient, composition, documentReference, encounter, diagnosis, practitioner, location, organization].map(entry),
    });
  });

  it('should make author and encounter references logical without a directory', () => {
    const bundle = buildFhirNoteExport(chart, 'note-0001', { now: NOW });
    const types = bundle.entry?.map((e) => e.resource?.resourceType);
    expect(types).toEqual(['Patient', 'Composition', 'DocumentReference', 'Encounter', 'Condition']);
    expect(bundle.entry?.[1]?.resource).toMatchObject({ author: [{ type: 'Practitioner', identifier: { value: 'prac-001' } }] });
    expect(bundle.entry?.[3]?.resource).toMatchObject({
      participant: [{ individual: { type: 'Practitioner', identifier: { value: 'prac-001' } } }],
      location: [{ location: { type: 'Location', identifier: { value: 'loc-001' } } }],
    });
  });
});
