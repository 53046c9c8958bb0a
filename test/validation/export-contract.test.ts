/**
 * "Every chart the check accepts exports everywhere": each value that used to pass the chart check and then
 * break a builder (a MappingError, HTTP 500) is now refused by the check with its path, and the largest value
 * accepted exports in every builder with FHIR that validates and HL7 that passes checkHl7Message. The limits
 * come from one table (src/model/limits.ts) that the check and the builders both read.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildFhirAssessmentExport, buildOruR01, checkChartDocument, toFhirId, type ChartDocument, type PatientChart } from '../../src/index.js';
import { formatIssuePath } from '../../src/errors.js';
import { HL7_CONTACT_MAX, HL7_MEMBER_ID_MAX, HL7_NM_ABS_MAX, HL7_NM_ABS_MIN, HL7_NM_NEGATIVE_ABS_MAX, HL7_NTE3_MAX, HL7_OBX5_MAX, HL7_SET_ID_LIMITS, NOTE_UTF8_MAX, hl7EscapedLength, hl7XcnIdentifierLength, isNmNumber } from '../../src/model/limits.js';
import { buildQrd } from '../../src/hl7/segments/qrd.js';
import { fitNm } from '../../src/hl7/internal/fit.js';
import { escapeStandard } from '../../src/hl7/internal/standard-escape.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { runs } from '../support/runs.js';
import { exportFailures } from '../support/export-all.js';

const DEMO = JSON.parse(readFileSync(new URL('../../examples/data/demo-chart.json', import.meta.url), 'utf8')) as ChartDocument;

/**
 * A chart as these tests change it: any field, read and written freely to break it (a cast, not a type).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests reach into charts to break them
type Loose = any;

/** The demo document cut to its first patient, changed by `change`. */
function demoWith(change: (chart: Loose) => void): ChartDocument {
  const doc = structuredClone(DEMO) as ChartDocument & { patients: PatientChart[] };
  doc.patients = [doc.patients[0] as PatientChart];
  change(doc.patients[0]);
  return doc;
}

const issuePaths = (doc: ChartDocument): string[] => checkChartDocument(doc).map((i) => formatIssuePath(i.path));

/** The first assessment made free of item definitions, so any answer type is accepted. */
function freeAnswer(c: Loose, value: unknown): void {
  const a = c.assessments[0];
  a.instrument = { ...a.instrument, items: undefined, id: 'free-instrument' };
  a.answers[0].value = value;
}

describe('values that cannot travel whole are refused by the check, with their path', () => {
  const cases: [string, (c: Loose) => void, (c: Loose) => void, string][] = [
    ['a coverage member id over IN1-49', (c) => (c.patient.coverages[0].memberId = 'M'.repeat(HL7_MEMBER_ID_MAX)), (c) => (c.patient.coverages[0].memberId = 'M'.repeat(300)), 'patients[0].patient.coverages[0].memberId'],
    ['a phone number over XTN-1', (c) => (c.patient.telecoms = [{ system: 'phone', value: '5'.repeat(HL7_CONTACT_MAX) }]), (c) => (c.patient.telecoms = [{ system: 'phone', value: '5'.repeat(200) }]), 'patients[0].patient.telecoms[0].value'],
    ['an identifier of 100 | (300 characters escaped)', (c) => (c.patient.identifiers[0].value = '|'.repeat(60)), (c) => (c.patient.identifiers[0].value = '|'.repeat(100)), 'patients[0].patient.identifiers[0].value'],
    ['a string answer over OBX-5', (c) => freeAnswer(c, { type: 'string', value: 'x'.repeat(HL7_OBX5_MAX) }), (c) => freeAnswer(c, { type: 'string', value: 'x'.repeat(100_000) }), 'patients[0].assessments[0].answers[0].value.value'],
    ['a score interpretation over 99 999 characters (ORU^R01 NTE-3 and ADR^A19 OBX-5 alike)', (c) => (c.assessments[0].score.interpretation = 'i'.repeat(HL7_NTE3_MAX)), (c) => (c.assessments[0].score.interpretation = 'i'.repeat(100_000)), 'patients[0].assessments[0].score.interpretation'],
    ['a score interpretation over NTE-3 (shortened in ORU^R01 only, before)', (c) => (c.assessments[0].score.interpretation = `${'i'.repeat(HL7_NTE3_MAX - 3)}|`), (c) => (c.assessments[0].score.interpretation = 'i'.repeat(HL7_NTE3_MAX + 1)), 'patients[0].assessments[0].score.interpretation'],
    ['a procedure with no date in an encounter without start', (c) => delete c.encounters[0].procedures[0].performed, (c) => (delete c.encounters[0].procedures[0].performed, delete c.encounters[0].period), 'patients[0].encounters[0].procedures[0].performed'],
    ['chart ids crafted so their FHIR ids collide', (c) => c.encounters.push({ ...c.encounters[0], id: 'enc|x' }), (c) => c.encounters.push({ ...c.encounters[0], id: 'enc|x' }, { ...c.encounters[0], id: toFhirId('enc|x') }), 'patients[0].encounters[6].id'],
    ['an empty diagnosis id', (c) => delete c.encounters[0].diagnoses[0].id, (c) => (c.encounters[0].diagnoses[0].id = ''), 'patients[0].encounters[0].diagnoses[0].id'],
    ['an empty procedure id', (c) => delete c.encounters[0].procedures[0].id, (c) => (c.encounters[0].procedures[0].id = ''), 'patients[0].encounters[0].procedures[0].id'],
    ['a note over 786 432 UTF-8 bytes', (c) => (c.notes[0].text = 'é'.repeat(NOTE_UTF8_MAX / 2)), (c) => (c.notes[0].text = 'é'.repeat(400_000)), 'patients[0].notes[0].text'],
    ['a number HL7 NM cannot write', (c) => freeAnswer(c, { type: 'decimal', value: -9.99e14 }), (c) => freeAnswer(c, { type: 'decimal', value: 1e16 }), 'patients[0].assessments[0].answers[0].value.value'],
  ];
  for (const [name, largest, beyond, path] of cases) {
    it(`should refuse ${name}, and export the largest accepted value everywhere`, () => {
      expect(issuePaths(demoWith(beyond))).toEqual([path]);
      const accepted = demoWith(largest);
      expect(issuePaths(accepted)).toEqual([]);
      expect(exportFailures(accepted)).toEqual([]);
    }, 120_000);
  }
});

describe('records HL7 numbers with set ids of at most 4 digits', () => {
  const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
  const diagnosis = (i: number) => ({ id: `dx-${i}`, code: { system: 'icd-10-cm', code: 'F32.1' } });
  it('should refuse more diagnoses of one encounter than DG1-1 numbers, and export the most it numbers', () => {
    expect(issuePaths(demoWith((c) => (c.encounters[0].diagnoses = many(HL7_SET_ID_LIMITS.diagnoses + 1, diagnosis))))).toEqual(['patients[0].encounters[0].diagnoses']);
    const accepted = demoWith((c) => (c.encounters[0].diagnoses = many(HL7_SET_ID_LIMITS.diagnoses, diagnosis)));
    expect(issuePaths(accepted)).toEqual([]);
    expect(exportFailures(accepted, false)).toEqual([]);
  }, 300_000);
  it('should refuse more coverages, procedures, history entries, encounters or answers than their set ids number', () => {
    const coverage = (c: Loose) => (i: number) => ({ ...c.patient.coverages[0], id: `cov-${i}` });
    const procedure = (i: number) => ({ id: `p-${i}`, code: { system: 'cpt', code: '90834' }, status: 'completed', performed: '2024-01-01' });
    const history = (i: number) => ({ id: `hx-${i}`, code: { system: 'icd-10-cm', code: 'I10' }, clinicalStatus: 'active' });
    const encounter = (c: Loose) => (i: number) => ({ ...c.encounters[0], id: `e-${i}` });
    expect(issuePaths(demoWith((c) => (c.patient.coverages = many(HL7_SET_ID_LIMITS.coverages + 1, coverage(c)))))).toEqual(['patients[0].patient.coverages']);
    expect(issuePaths(demoWith((c) => (c.encounters[0].procedures = many(HL7_SET_ID_LIMITS.procedures + 1, procedure))))).toEqual(['patients[0].encounters[0].procedures']);
    expect(issuePaths(demoWith((c) => (c.medicalHistory = many(HL7_SET_ID_LIMITS.medicalHistory + 1, history))))).toEqual(['patients[0].medicalHistory']);
    expect(issuePaths(demoWith((c) => (c.encounters = many(HL7_SET_ID_LIMITS.encounters + 1, encounter(c)), (c.notes = []), (c.assessments = []))))).toEqual(['patients[0].encounters']);
    // Its group of the ADR^A19 summary then needs more than 9 999 OBX as well (reported at the chart's notes).
    expect(issuePaths(demoWith((c) => freeAnswers(c, HL7_SET_ID_LIMITS.answers + 1)))).toEqual(['patients[0].assessments[0].answers', 'patients[0].notes']);
    // Alone in its ADR^A19 group: the OBX of one encounter's notes and assessments share one numbering (not checked).
    const accepted = demoWith((c) => (freeAnswers(c, HL7_SET_ID_LIMITS.answers), (c.notes = []), (c.assessments = [c.assessments[0]])));
    expect(issuePaths(accepted)).toEqual([]);
    expect(exportFailures(accepted, false)).toEqual([]);
  }, 300_000);
});

/** The first assessment made free of item definitions with `n` integer answers. */
function freeAnswers(c: Loose, n: number): void {
  const a = c.assessments[0];
  a.instrument = { ...a.instrument, items: undefined, id: 'free-instrument' };
  a.answers = Array.from({ length: n }, (_, i) => ({ linkId: `q${i}`, value: { type: 'integer', value: i } }));
}

describe('a score of -0', () => {
  it('should be accepted and exported as 0 everywhere (FHIR JSON and HL7 NM)', () => {
    const doc = demoWith((c) => (c.assessments[0].score.value = -0));
    expect(issuePaths(doc)).toEqual([]);
    const chart = doc.patients[0] as PatientChart;
    const id = chart.assessments![0]!.id;
    expect(JSON.stringify(buildFhirAssessmentExport(chart, id, { now: '2026-03-02T12:00:30Z' }))).toMatch(/"valueDecimal":0[,}]/);
    const obx = buildOruR01(chart, id, { now: '2026-03-02T12:00:30Z', controlId: 'ORU1' }).split('\r').filter((s) => s.startsWith('OBX|') && s.includes('|NM|'));
    expect(obx.map((s) => s.split('|')[5])).toContain('0');
    expect(exportFailures(doc)).toEqual([]);
  }, 120_000);
});

describe('hl7EscapedLength', () => {
  it('should be the length HL7 escaping gives, single-line and multi-line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.boolean(), (text, lines) => {
        expect(hl7EscapedLength(text, lines)).toBe(escapeStandard(text, lines).length);
      }),
    );
  });
});

describe('hl7XcnIdentifierLength', () => {
  it("should be the length of QRD-8's XCN for a patient without name parts", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }).filter((v) => v.trim() !== ''),
        fc.constantFrom('urn:oid:2.16.840.1.113883.19.5', 'urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e', 'http://example.org/mrn|^&', 'https://x.org'),
        fc.constantFrom(undefined, 'MR', 'NPI'),
        (value, system, type) => {
          const patient = { id: 'p', identifiers: [{ system, value, ...(type === undefined ? {} : { type }) }], names: [] } as never;
          const qrd8 = buildQrd('20260302120030+0000', 'Q', undefined, 0, patient).split('|')[8] as string;
          expect(hl7XcnIdentifierLength(value, system, type)).toBe(qrd8.length);
        },
      ),
      { numRuns: runs(200) },
    );
  });
});

describe('isNmNumber', () => {
  const edges = [0, -0, HL7_NM_ABS_MIN, -HL7_NM_ABS_MIN, 9.99e-14, -9.99e-14, 999_999_999_999_999.9, -999_999_999_999_999.4, -HL7_NM_NEGATIVE_ABS_MAX, -999_999_999_999_999.9, HL7_NM_ABS_MAX, -HL7_NM_ABS_MAX];
  it('should hold only for numbers HL7 NM writes in 16 characters (the check accepts no number a builder cannot send)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...edges), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ min: -1.1e15, max: 1.1e15, noNaN: true })), (n) => {
        if (!isNmNumber(n)) return;
        expect(fitNm(n, [], 'OBX-5').length).toBeLessThanOrEqual(16);
      }),
      { numRuns: runs(2000) },
    );
    // The boundaries: at the limit accepted, one over refused.
    expect([999_999_999_999_999.9, -999_999_999_999_999.4, 1e-13, -1e-13].map(isNmNumber)).toEqual([true, true, true, true]);
    expect([1e15, -999_999_999_999_999.5, 9.99e-14, -9.99e-14].map(isNmNumber)).toEqual([false, false, false, false]);
    expect(() => fitNm(-999_999_999_999_999.5, [], 'OBX-5')).toThrow(/16 characters/);
  });
});

describe('every chart document the check accepts', () => {
  for (const text of ['realistic', 'hostile'] as const) {
    it(`should export with every builder for every record (${text} text, generated without fitForHl7)`, () => {
      fc.assert(
        fc.property(arbChartDocument({ text, maxPatients: 1 }), (doc) => {
          fc.pre(checkChartDocument(doc).length === 0);
          expect(exportFailures(doc)).toEqual([]);
        }),
        { numRuns: runs(60) },
      );
    }, 600_000);
  }
});
