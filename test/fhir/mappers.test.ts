/** Behaviour of the mappers at the edges: FHIR invariants, blank text, answer types, id collisions, errors. */
import type * as fhir from 'fhir/r4';
import { describe, expect, it } from 'vitest';
import {
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  buildFhirEncounterExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  ChartValidationError,
  checkChartDocument,
  formatIssuePath,
  InvalidArgumentError,
  MappingError,
  toFhirComposition,
  toFhirDocumentReference,
  toFhirEncounter,
  toFhirEncounterCondition,
  toFhirHistoryCondition,
  toFhirId,
  toFhirOrganization,
  toFhirPatient,
  toFhirProcedure,
  toFhirQuestionnaire,
  toFhirQuestionnaireResponse,
  type Assessment,
  type ClinicalNote,
  type Directory,
  type Encounter,
  type MedicalHistoryEntry,
  type Patient,
  type PatientChart,
} from '../../src/index.js';
import { validateFhir } from '../support/fhir-validator.js';
import { chart as realistic, directory as realisticDirectory } from './fixtures/realistic-patient.js';

const NOW = '2026-03-01T15:00:00Z';
const patient: Patient = { id: 'p1', identifiers: [{ system: 'urn:oid:1.2.3', value: 'MRN-1' }], names: [{ family: 'Doe' }] };
const note: ClinicalNote = { id: 'n1', type: 'discharge-summary', title: 'Discharge', status: 'final', authored: '2026-02-01T08:00:00Z', text: 'Home.' };
const history = (over: Partial<MedicalHistoryEntry>): MedicalHistoryEntry => ({
  id: 'h1',
  code: { system: 'snomed-ct', code: '44054006' },
  clinicalStatus: 'active',
  ...over,
});
const entries = (bundle: fhir.Bundle): fhir.FhirResource[] => (bundle.entry ?? []).map((e) => e.resource as fhir.FhirResource);
const ids = (bundle: fhir.Bundle, type: string): string[] => entries(bundle).filter((r) => r.resourceType === type).map((r) => r.id as string);

describe('toFhirHistoryCondition', () => {
  it('should keep an abatement only with a status that allows it (con-4)', () => {
    expect(toFhirHistoryCondition(history({ clinicalStatus: 'resolved', abatement: '2021-03' }), patient).abatementDateTime).toBe('2021-03');
    expect(toFhirHistoryCondition(history({ clinicalStatus: 'active', abatement: '2021-03' }), patient).abatementDateTime).toBeUndefined();
  });

  it('should leave the clinical status and abatement out of an entered-in-error entry (con-5, con-4)', () => {
    const c = toFhirHistoryCondition(history({ clinicalStatus: 'resolved', abatement: '2021', verificationStatus: 'entered-in-error' }), patient);
    expect(c.clinicalStatus).toBeUndefined();
    expect(c.abatementDateTime).toBeUndefined();
    expect(c.verificationStatus?.coding?.[0]?.code).toBe('entered-in-error');
    expect(validateFhir(c)).toEqual([]);
  });

  it('should default the verification status to confirmed and keep the note', () => {
    const c = toFhirHistoryCondition(history({ note: 'Diet controlled' }), patient);
    expect(c.verificationStatus?.coding?.[0]?.code).toBe('confirmed');
    expect(c.note).toEqual([{ text: 'Diet controlled' }]);
  });
});

describe('toFhirComposition and toFhirDocumentReference', () => {
  it('should fall back to the document type for a blank title and state an unknown author', () => {
    const c = toFhirComposition({ ...note, title: '  ' }, patient);
    expect(c.title).toBe('Discharge summary');
    expect(c.section?.[0]?.title).toBeUndefined();
    expect(c.author).toEqual([{ extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] }]);
    expect(validateFhir(c)).toEqual([]);
  });

  it('should show a placeholder for blank text while the DocumentReference keeps it exactly', () => {
    const blank = { ...note, text: ' \n ' };
    expect(toFhirComposition(blank, patient).section?.[0]?.text?.div).toBe('<div xmlns="http://www.w3.org/1999/xhtml"><p>(blank note)</p></div>');
    expect(toFhirDocumentReference(blank, patient).content[0]?.attachment.data).toBe(Buffer.from(' \n ').toString('base64'));
  });

  it('should set DocumentReference.date (an instant) only for a date-time', () => {
    expect(toFhirDocumentReference({ ...note, authored: '2026-02-01' }, patient).date).toBeUndefined();
    expect(toFhirDocumentReference({ ...note, authored: '2026-02-01' }, patient).content[0]?.attachment.creation).toBe('2026-02-01');
    expect(toFhirDocumentReference(note, patient).date).toBe('2026-02-01T08:00:00Z');
  });

  it('should mark an entered-in-error note and carry its confidentiality', () => {
    const d = toFhirDocumentReference({ ...note, status: 'entered-in-error', confidentiality: 'R' }, patient);
    expect([d.status, d.docStatus]).toEqual(['entered-in-error', 'entered-in-error']);
    expect(d.securityLabel?.[0]?.coding?.[0]).toEqual({ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R', display: 'restricted' });
    expect(toFhirComposition({ ...note, confidentiality: 'V' }, patient).confidentiality).toBe('V');
  });
});

describe('toFhirQuestionnaireResponse', () => {
  const base: Assessment = { id: 'a1', instrument: { id: 'i1', title: 'Intake' }, status: 'completed', authored: '2026-02-01T08:00:00Z', answers: [] };

  it('should type every answer, leaving a blank string unanswered', () => {
    const r = toFhirQuestionnaireResponse(
      {
        ...base,
        answers: [
          { linkId: 's', text: 'Comment', value: { type: 'string', value: '   ' } },
          { linkId: 'i', value: { type: 'integer', value: 3 } },
          { linkId: 'big', value: { type: 'integer', value: 2 ** 40 } },
          { linkId: 'd', value: { type: 'decimal', value: 1.5 } },
          { linkId: 'b', value: { type: 'boolean', value: false } },
          { linkId: 'dt', value: { type: 'date', value: '2026-02' } },
          { linkId: 'dtt', value: { type: 'dateTime', value: '2026-02-01T08:00:00.5+01:00' } },
        ],
      },
      patient,
    );
    expect(r.item).toEqual([
      { linkId: 's', text: 'Comment' },
      { linkId: 'i', answer: [{ valueInteger: 3 }] },
      // FHIR integer is 32-bit.
      { linkId: 'big', answer: [{ valueDecimal: 2 ** 40 }] },
      { linkId: 'd', answer: [{ valueDecimal: 1.5 }] },
      { linkId: 'b', answer: [{ valueBoolean: false }] },
      { linkId: 'dt', answer: [{ valueDate: '2026-02' }] },
      { linkId: 'dtt', answer: [{ valueDateTime: '2026-02-01T08:00:00.5+01:00' }] },
    ]);
    // Without item definitions or a URL there is no Questionnaire to point at.
    expect(r.questionnaire).toBeUndefined();
    expect(validateFhir(r)).toEqual([]);
  });

  it('should give an integer answer to a decimal item as a decimal', () => {
    const instrument = { id: 'i1', title: 'Vitals', items: [{ linkId: 'w', text: 'Weight (kg)', type: 'decimal' as const }] };
    const r = toFhirQuestionnaireResponse({ ...base, instrument, answers: [{ linkId: 'w', value: { type: 'integer', value: 70 } }] }, patient);
    expect(r.item?.[0]).toEqual({ linkId: 'w', text: 'Weight (kg)', answer: [{ valueDecimal: 70 }] });
    expect(r.questionnaire).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(r.questionnaire).toBe(toFhirQuestionnaire(instrument).url);
  });

  it('should rename the score items when the instrument already uses their linkIds', () => {
    const instrument = { id: 'i1', title: 'Odd', items: [{ linkId: 'total-score', text: 'Total?', type: 'string' as const }] };
    const r = toFhirQuestionnaireResponse({ ...base, instrument, score: { value: 4, interpretation: 'Mild' } }, patient);
    expect(r.item?.map((i) => i.linkId)).toEqual(['total-score-1', 'total-score-interpretation-1']);
    const q = toFhirQuestionnaire(instrument, {});
    expect(q.item?.map((i) => i.linkId)).toEqual(['total-score', 'total-score-1', 'total-score-interpretation-1']);
    expect(validateFhir(q)).toEqual([]);
  });
});

describe('toFhirOrganization and toFhirPatient', () => {
  it('should identify an organization with a blank name by its chart id (org-1)', () => {
    const o = toFhirOrganization({ id: 'o 1', name: ' ', addresses: [{ use: 'work', city: 'Springfield' }] });
    expect(o.identifier).toEqual([{ value: 'o 1' }]);
    expect(o.name).toBeUndefined();
    expect(o.address).toEqual([{ use: 'work', city: 'Springfield' }]);
    expect(validateFhir(o)).toEqual([]);
  });

  it('should take the unknown marital status from v3 NullFlavor and omit blank parts', () => {
    const p = toFhirPatient({ ...patient, maritalStatus: 'UNK', names: [{ family: 'Doe', given: ['', ' '] }, { text: '\u3000', family: 'X' }] });
    expect(p.maritalStatus?.coding?.[0]).toEqual({ system: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor', code: 'UNK', display: 'unknown' });
    expect(p.name).toEqual([{ family: 'Doe' }, { family: 'X' }]);
    // A blank contact value, identifier value or name reaches no one: the chart check refuses it (FHIR would
    // drop it while HL7 sent blanks in a required component).
    const refused = (bad: Partial<typeof patient>): string[] => {
      try {
        toFhirPatient({ ...patient, ...bad });
        return [];
      } catch (e) {
        return e instanceof ChartValidationError ? e.issues.map((i) => formatIssuePath(i.path)) : ['not a ChartValidationError'];
      }
    };
    expect(refused({ telecoms: [{ system: 'email', value: ' ' }] })).toEqual(['patient.telecoms[0].value']);
    expect(refused({ identifiers: [{ system: 'urn:oid:1.2', value: '\u3000\t' }] })).toEqual(['patient.identifiers[0].value']);
    expect(refused({ names: [{ family: '  ', given: [' '], text: '\n' }] })).toEqual(['patient.names[0]']);
    expect(p.deceasedBoolean).toBeUndefined();
    expect(toFhirPatient({ ...patient, deceased: '2026-01-02' }).deceasedDateTime).toBe('2026-01-02');
    expect(toFhirPatient({ ...patient, deceased: true }).deceasedBoolean).toBe(true);
  });
});

describe('ids', () => {
  it('should keep equal ids of different resource types', () => {
    const chart: PatientChart = { patient: { ...patient, id: 'x1' }, encounters: [{ id: 'x1', status: 'finished', class: 'AMB' }], notes: [{ ...note, id: 'x1' }] };
    const bundle = buildFhirPatientBundle(chart, { now: NOW });
    expect(bundle.entry?.map((e) => e.fullUrl)).toEqual(['Patient/x1', 'Encounter/x1', 'Composition/x1', 'DocumentReference/x1']);
  });

  it('should give a derived Condition id that a history entry already has a hashed id', () => {
    const encounter: Encounter = { id: 'e1', status: 'finished', class: 'AMB', diagnoses: [{ id: 'dx', code: { system: 'icd-10-cm', code: 'F32.1' } }] };
    const chart: PatientChart = { patient, encounters: [encounter], medicalHistory: [history({ id: 'e1-dx' })] };
    const bundle = buildFhirPatientBundle(chart, { now: NOW });
    const conditions = ids(bundle, 'Condition');
    expect(conditions).toHaveLength(2);
    expect(conditions[1]).toBe('e1-dx');
    expect(conditions[0]).toMatch(/^e1-dx-[0-9a-f]{32}$/);
    expect((entries(bundle)[1] as fhir.Encounter).diagnosis?.[0]?.condition).toEqual({ reference: `Condition/${conditions[0]}` });
    // The same ids in every export of the chart.
    expect(ids(buildFhirEncounterExport(chart, 'e1', { now: NOW }), 'Condition')).toEqual([conditions[0]]);
  });

  it('should resolve derived ids that coincide across parents', () => {
    const proc = (id: string): NonNullable<Encounter['procedures']> => [{ id, code: { system: 'cpt', code: '90834' }, status: 'completed' }];
    const chart: PatientChart = {
      patient,
      encounters: [
        { id: 'a', status: 'finished', class: 'AMB', period: { start: '2026-01-05' }, procedures: proc('b-c') },
        { id: 'a-b', status: 'finished', class: 'AMB', period: { start: '2026-01-06' }, procedures: proc('c') },
      ],
    };
    const procedures = ids(buildFhirPatientBundle(chart, { now: NOW }), 'Procedure');
    expect(new Set(procedures).size).toBe(2);
    expect(procedures).toContain('a-b-c');
    expect(toFhirProcedure(chart.encounters?.[0] as Encounter, 0, patient).id).toBe('a-b-c');
  });

  it('should refuse a payer whose id is a directory organization\'s, so that no export renames either', () => {
    const chart: PatientChart = { patient: { ...patient, coverages: [{ id: 'c1', status: 'active', payer: { id: 'org-1', name: 'Acme' } }] } };
    const directory: Directory = { organizations: [{ id: 'org-1', name: 'Clinic' }] };
    // Without the directory the payer keeps its id; with it, one id would name two organizations.
    expect(buildFhirPatientExport(chart, { now: NOW }).entry?.[2]?.resource?.id).toBe('org-1');
    let error: unknown;
    try {
      buildFhirPatientExport(chart, { now: NOW, directory });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MappingError);
    expect(error).toMatchObject({ path: ['patient', 'coverages', 0, 'payer', 'id'], target: 'Organization.id' });
    // A chart document holding both is refused when loaded.
    expect(checkChartDocument({ patients: [chart], directory }).map((i) => [formatIssuePath(i.path), i.code])).toEqual([['patients[0].patient.coverages[0].payer.id', 'duplicate']]);
  });

  it('should refuse, in the chart check, two records of one type whose ids map to the same FHIR id', () => {
    const crafted = toFhirId('enc 1');
    const chart: PatientChart = {
      patient,
      encounters: [
        { id: 'enc 1', status: 'finished', class: 'AMB' },
        { id: crafted, status: 'finished', class: 'AMB' },
      ],
    };
    expect(() => buildFhirPatientBundle(chart, { now: NOW })).toThrow(ChartValidationError);
    try {
      buildFhirPatientBundle(chart, { now: NOW });
    } catch (e) {
      expect((e as ChartValidationError).issues.map((i) => i.path)).toEqual([['encounters', 1, 'id']]);
      expect((e as ChartValidationError).message).not.toContain(crafted);
    }
  });

  it('should export one Questionnaire per instrument', () => {
    const assessment = realistic.assessments?.[0] as Assessment;
    const chart: PatientChart = { ...realistic, assessments: [assessment, { ...assessment, id: 'asmt-0002', authored: '2026-02-27T09:00:00-06:00' }] };
    const bundle = buildFhirPatientBundle(chart, { now: NOW, directory: realisticDirectory });
    expect(ids(bundle, 'Questionnaire')).toEqual(['phq-2']);
    expect(ids(bundle, 'QuestionnaireResponse')).toEqual(['asmt-0002', 'asmt-0001']);
    expect(ids(buildFhirAssessmentExport(chart, 'asmt-0001', { now: NOW }), 'Questionnaire')).toEqual(['phq-2']);
  });
});

describe('buildFhirDirectoryBundle', () => {
  const directory: Directory = {
    organizations: [
      { id: 'parent', name: 'Health System' },
      { id: 'child', name: 'Clinic', partOfId: 'parent' },
    ],
    locations: [{ id: 'l1', name: 'Suite 1', organizationId: 'parent' }],
  };

  it('should refer to a parent in the page literally and to anything else logically', () => {
    const all = entries(buildFhirDirectoryBundle(directory, 'Organization', { now: NOW }));
    expect((all[1] as fhir.Organization).partOf).toEqual({ reference: 'Organization/parent' });
    const reversed = { organizations: [...(directory.organizations ?? [])].reverse() };
    const page = entries(buildFhirDirectoryBundle(reversed, 'Organization', { now: NOW, limit: 1 }));
    expect((page[0] as fhir.Organization).partOf).toEqual({ type: 'Organization', identifier: { value: 'parent' }, display: 'Health System' });
    const locations = entries(buildFhirDirectoryBundle(directory, 'Location', { now: NOW }));
    expect((locations[0] as fhir.Location).managingOrganization).toEqual({ type: 'Organization', identifier: { value: 'parent' }, display: 'Health System' });
  });

  it('should return an empty searchset with total 0 for limit 0', () => {
    expect(buildFhirDirectoryBundle(directory, 'Practitioner', { now: NOW, bundleId: 'b' })).toEqual({
      resourceType: 'Bundle',
      id: 'b',
      type: 'searchset',
      timestamp: NOW,
      total: 0,
    });
    // total stays on a searchset even with strictBundleTotal (bdl-1 allows it there).
    expect(buildFhirDirectoryBundle(directory, 'Location', { now: NOW, limit: 0, strictBundleTotal: true }).total).toBe(0);
  });
});

describe('input checks', () => {
  it('should reject an invalid chart with the paths of the problems', () => {
    const bad = { patient: { ...patient, birthDate: '1984-13-01' }, encounters: [{ id: 'e', status: 'done', class: 'AMB' }] };
    try {
      buildFhirPatientBundle(bad as unknown as PatientChart, { now: NOW });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ChartValidationError);
      expect((e as ChartValidationError).issues.map((i) => i.path)).toEqual([
        ['patient', 'birthDate'],
        ['encounters', 0, 'status'],
      ]);
    }
  });

  it('should reject an invalid directory option and directory argument', () => {
    const directory = { practitioners: [{ id: '', names: [] }] } as unknown as Directory;
    expect(() => buildFhirPatientExport({ patient }, { now: NOW, directory })).toThrow(ChartValidationError);
    expect(() => buildFhirDirectoryBundle(directory, 'Practitioner')).toThrow(ChartValidationError);
  });

  it('should name the standalone mapper parameter in issue paths', () => {
    const encounter = { id: 'e', status: 'done', class: 'AMB' } as unknown as Encounter;
    try {
      toFhirEncounter(encounter, patient);
      expect.unreachable();
    } catch (e) {
      expect((e as ChartValidationError).issues.map((i) => i.path)).toEqual([['encounter', 'status']]);
    }
    expect(() => toFhirEncounterCondition({ id: 'e', status: 'finished', class: 'AMB' }, 0, patient)).toThrow(InvalidArgumentError);
    expect(() => toFhirProcedure({ id: 'e', status: 'finished', class: 'AMB' }, 0.5, patient)).toThrow(InvalidArgumentError);
  });

  it('should reject malformed options, naming the option', () => {
    const chart: PatientChart = { patient };
    const argumentOf = (fn: () => unknown): string | undefined => {
      try {
        fn();
      } catch (e) {
        return e instanceof InvalidArgumentError ? e.argument : `not InvalidArgumentError: ${String(e)}`;
      }
      return undefined;
    };
    expect(argumentOf(() => buildFhirPatientExport(chart, { now: '2026-03-01' }))).toBe('now');
    expect(argumentOf(() => buildFhirPatientExport(chart, { now: '2026-03-01T10:00:00' }))).toBe('now');
    expect(argumentOf(() => buildFhirPatientExport(chart, { bundleId: 'a b' }))).toBe('bundleId');
    expect(argumentOf(() => buildFhirPatientExport(chart, { bundleId: 'x'.repeat(65) }))).toBe('bundleId');
    expect(argumentOf(() => buildFhirPatientExport(chart, { baseUrl: 'fhir.example.org' }))).toBe('baseUrl');
    expect(argumentOf(() => buildFhirPatientExport(chart, { baseUrl: 'ftp://x.org' }))).toBe('baseUrl');
    expect(argumentOf(() => buildFhirPatientExport(chart, { baseUrl: 'https://x.org/fhir?x=1' }))).toBe('baseUrl');
    expect(argumentOf(() => buildFhirPatientExport(chart, { strictBundleTotal: 'yes' as unknown as boolean }))).toBe('strictBundleTotal');
    expect(argumentOf(() => buildFhirPatientExport(chart, 'x' as unknown as object))).toBe('options');
    expect(argumentOf(() => buildFhirPatientBundle(chart, { limits: { encounters: -1 } }))).toBe('limits.encounters');
    expect(argumentOf(() => buildFhirPatientBundle(chart, { limits: { notes: 1.5 } }))).toBe('limits.notes');
    expect(argumentOf(() => buildFhirPatientBundle(chart, { limits: { medicalHistory: '3' as unknown as number } }))).toBe('limits.medicalHistory');
    expect(argumentOf(() => buildFhirDirectoryBundle({}, 'Practitioner', { limit: -2 }))).toBe('limit');
    expect(argumentOf(() => buildFhirDirectoryBundle({}, 'Patient' as 'Location'))).toBe('resourceType');
    expect(argumentOf(() => toFhirId(''))).toBe('chartId');
    expect(argumentOf(() => toFhirId('a\uD800'))).toBe('chartId');
    expect(argumentOf(() => buildFhirPatientExport(chart, { now: NOW, baseUrl: 'https://x.org/fhir/', bundleId: 'b.1' }))).toBeUndefined();
  });

  it('should default the timestamp to the current time', () => {
    const before = Date.now();
    const timestamp = Date.parse(buildFhirPatientExport({ patient }).timestamp as string);
    expect(timestamp).toBeGreaterThanOrEqual(before - 1);
    expect(timestamp).toBeLessThanOrEqual(Date.now());
  });
});
