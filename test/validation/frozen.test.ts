import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartValidationError, formatIssuePath } from '../../src/errors.js';
import { buildFhirPatientBundle } from '../../src/fhir/patient-bundle.js';
import { buildMdmT02 } from '../../src/hl7/messages/mdm-t02.js';
import type { PatientChart } from '../../src/model/index.js';
import { checkChartDocument, checkPatientChart } from '../../src/validation/chart-check.js';
import { freezeChartDocument, freezeDirectory, freezePatientChart } from '../../src/validation/frozen.js';
import { isCheckedFrozen } from '../../src/validation/memo.js';
import { arbBrokenPatientChart } from '../../src/testing/chart-breakers.js';
import { arbChartDocument, arbPatientChart } from '../../src/testing/charts.js';
import { realisticPatientChart } from '../arbitraries/fixtures.js';
import { runs } from '../support/runs.js';

/** Every object reachable from `value` is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe('freezePatientChart', () => {
  it('should return a deep-frozen copy equal to the input, which later changes of the input do not reach', () => {
    fc.assert(
      fc.property(arbPatientChart({ maxEncounters: 3, maxNotes: 2 }), ({ chart }) => {
        const input = structuredClone(chart);
        const frozen = freezePatientChart(input);
        expect(frozen).not.toBe(input);
        // toEqual: generated objects may have a null prototype; the copy is plain data.
        expect(frozen).toEqual(chart);
        expect(deeplyFrozen(frozen)).toBe(true);
        expect(isCheckedFrozen(frozen) && isCheckedFrozen(frozen.patient)).toBe(true);
        input.patient.id = 'changed';
        expect(frozen.patient.id).toBe(chart.patient.id);
      }),
      { numRuns: runs(60) },
    );
  });

  it('should report the same problems as the check for every broken chart, and remember nothing', () => {
    fc.assert(
      fc.property(arbBrokenPatientChart({ maxEncounters: 2 }), ({ value, path }) => {
        let error: unknown;
        try {
          freezePatientChart(value);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ChartValidationError);
        const issues = (error as ChartValidationError).issues;
        expect(issues).toStrictEqual(checkPatientChart(value));
        expect(issues.map((i) => formatIssuePath(i.path))).toContain(path);
      }),
      { numRuns: runs(80) },
    );
  });

  it('should return a frozen checked chart itself instead of copying it again', () => {
    const frozen = freezePatientChart(realisticPatientChart().chart);
    expect(freezePatientChart(frozen)).toBe(frozen);
  });

  it('should give byte-identical FHIR and HL7 output for the frozen copy and the original', () => {
    fc.assert(
      fc.property(arbPatientChart({ maxEncounters: 3, maxNotes: 2, mappable: true }), ({ chart, directory }) => {
        const options = { now: '2026-03-01T15:00:00Z', directory };
        const frozen = freezePatientChart(chart);
        expect(JSON.stringify(buildFhirPatientBundle(frozen, options))).toBe(JSON.stringify(buildFhirPatientBundle(chart, options)));
        const note = chart.notes?.[0];
        if (note !== undefined) {
          const hl7 = { now: '2026-03-01T10:30:00-05:00', controlId: 'MDM1', directory: freezeDirectory(directory) };
          expect(buildMdmT02(frozen, note.id, hl7)).toBe(buildMdmT02(chart, note.id, { ...hl7, directory }));
        }
      }),
      { numRuns: runs(40) },
    );
  });

  it('should read a getter once, drop functions, and turn a Date into an object the check rejects', () => {
    const { chart } = realisticPatientChart();
    let reads = 0;
    const patient = { ...chart.patient, gender: undefined };
    Object.defineProperty(patient, 'gender', {
      enumerable: true,
      get: () => {
        reads += 1;
        return reads === 1 ? 'female' : 'not-a-gender';
      },
    });
    const frozen = freezePatientChart({ ...chart, patient, extra: () => 1 });
    expect(frozen.patient.gender).toBe('female');
    expect(frozen.patient.gender).toBe('female');
    expect(reads).toBe(1);
    expect('extra' in frozen).toBe(false);

    const withDate = { ...chart, patient: { ...chart.patient, birthDate: new Date(0) } };
    expect(() => freezePatientChart(withDate)).toThrow(ChartValidationError);
    try {
      freezePatientChart(withDate);
    } catch (e) {
      expect((e as ChartValidationError).issues.map((i) => formatIssuePath(i.path))).toStrictEqual(['patient.birthDate']);
    }
  });

  it('should keep a JSON "__proto__" key as an own property without touching the prototype', () => {
    const input = JSON.parse(JSON.stringify(realisticPatientChart().chart).replace('{', '{"__proto__":{"polluted":true},')) as PatientChart;
    const frozen = freezePatientChart(input);
    expect(Object.getPrototypeOf(frozen)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(frozen, '__proto__')).toBe(true);
    expect((frozen as unknown as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('should refuse a cycle and absurd nesting with a typed error naming the path', () => {
    const { chart } = realisticPatientChart();
    const cyclic: Record<string, unknown> = { ...chart, patient: { ...chart.patient } };
    (cyclic['patient'] as Record<string, unknown>)['self'] = cyclic['patient'];
    expect(() => freezePatientChart(cyclic)).toThrow(/patient\.self/);
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = { deep };
    expect(() => freezePatientChart({ ...chart, deep })).toThrow(ChartValidationError);
    // Every cycle is reported, and the check's own issues with it: the first problem hides none.
    const both = { ...cyclic, patient: { ...(cyclic['patient'] as object), gender: 'neither' }, deep };
    (both.patient as Record<string, unknown>)['self'] = both.patient;
    try {
      freezePatientChart(both);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ChartValidationError);
      expect((error as ChartValidationError).issues.map((i) => `${formatIssuePath(i.path.slice(0, 2))} ${i.code}`)).toEqual(['patient.self type', 'deep.deep type', 'patient.gender enum']);
    }
    // With a cycle too, a getter is read once (the check reads the copy), and a getter's value is what is checked.
    let reads = 0;
    const getter = { ...cyclic, patient: { ...(cyclic['patient'] as object) } };
    (getter.patient as Record<string, unknown>)['self'] = getter.patient;
    Object.defineProperty(getter.patient, 'gender', {
      enumerable: true,
      get: () => {
        reads++;
        if (reads > 1) throw new Error('read twice');
        return 'neither';
      },
    });
    try {
      freezePatientChart(getter);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ChartValidationError);
      expect((error as ChartValidationError).issues.map((i) => `${formatIssuePath(i.path.slice(0, 2))} ${i.code}`)).toEqual(['patient.self type', 'patient.gender enum']);
    }
    expect(reads).toBe(1);
    // A record shared twice (not a cycle) is fine.
    const shared = { system: 'urn:oid:1.2.3', value: 'A' };
    expect(freezePatientChart({ ...chart, patient: { ...chart.patient, identifiers: [shared, shared] } }).patient.identifiers).toHaveLength(2);
  });
});

describe('freezeChartDocument', () => {
  it('should freeze and remember every chart, record and the directory of a valid document', () => {
    fc.assert(
      fc.property(arbChartDocument({ maxPatients: 2 }).filter((doc) => checkChartDocument(doc).length === 0), (doc) => {
        const frozen = freezeChartDocument(doc);
        expect(frozen).toEqual(doc);
        expect(deeplyFrozen(frozen)).toBe(true);
        for (const chart of frozen.patients) {
          const records = [chart.patient, ...(chart.encounters ?? []), ...(chart.notes ?? []), ...(chart.assessments ?? []), ...(chart.medicalHistory ?? [])];
          expect(records.every(isCheckedFrozen)).toBe(true);
        }
        const dir = frozen.directory;
        if (dir !== undefined) expect([dir, ...(dir.organizations ?? []), ...(dir.practitioners ?? []), ...(dir.locations ?? [])].every(isCheckedFrozen)).toBe(true);
        expect(freezeChartDocument(frozen)).toBe(frozen);
      }),
      { numRuns: runs(30) },
    );
  });

  it('should still find problems that span records when a chart is assembled from remembered records', () => {
    const { chart: input, directory } = realisticPatientChart();
    const doc = freezeChartDocument({ patients: [input], directory });
    const chart = doc.patients[0] as PatientChart;
    const note = chart.notes?.[0];
    expect(note).toBeDefined();
    const twice = { patient: chart.patient, notes: [note, note] };
    expect(checkPatientChart(twice).map((i) => [formatIssuePath(i.path), i.code])).toStrictEqual([['notes[1].id', 'duplicate']]);
    // A record that is not remembered is walked as usual.
    const broken = { patient: chart.patient, notes: [{ ...note, status: 'nope' }] };
    expect(checkPatientChart(broken).map((i) => formatIssuePath(i.path))).toStrictEqual(['notes[0].status']);
  });
});
