/**
 * `freezeChartRecord`: one record checked on its own and frozen. It finds exactly the problems the chart check
 * finds in that record (a one-record chart, so no rule spanning records fires), its copy is remembered so the
 * builders skip it, and a chart assembled from such copies exports byte for byte as the original.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartValidationError, InvalidArgumentError, formatIssuePath, type ChartIssue } from '../../src/errors.js';
import { buildAdrA19 } from '../../src/hl7/messages/adr-a19.js';
import { buildFhirPatientBundle } from '../../src/fhir/patient-bundle.js';
import type { PatientChart } from '../../src/model/index.js';
import { checkDirectory, checkPatientChart } from '../../src/validation/chart-check.js';
import { isCheckedFrozen } from '../../src/validation/memo.js';
import { freezeChartRecord, type ChartRecordKind } from '../../src/validation/record-freeze.js';
import { arbBrokenPatientChart } from '../../src/testing/chart-breakers.js';
import { arbPatientChart } from '../../src/testing/charts.js';
import { runs } from '../support/runs.js';

const NOW = '2026-03-01T10:30:00-05:00';
const KINDS: readonly [keyof PatientChart, ChartRecordKind][] = [
  ['encounters', 'encounter'],
  ['notes', 'note'],
  ['assessments', 'assessment'],
  ['medicalHistory', 'medicalHistory'],
];

/** The issue paths `freezeChartRecord` reports for a record, or [] when it passes. */
function recordIssues(kind: ChartRecordKind, record: unknown): string[] {
  try {
    freezeChartRecord(kind, record);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ChartValidationError);
    return (error as ChartValidationError).issues.map((i: ChartIssue) => formatIssuePath(i.path));
  }
}

/** The issue paths the chart check reports for the record alone in a chart (relative to the record). */
function chartIssues(chart: PatientChart, key: keyof PatientChart | 'patient', record: unknown): string[] {
  const one = key === 'patient' ? { patient: record } : { patient: chart.patient, [key]: [record] };
  const prefix = key === 'patient' ? ['patient'] : [key, 0];
  return checkPatientChart(one)
    .filter((i) => prefix.every((p, n) => i.path[n] === p))
    .map((i) => formatIssuePath(i.path.slice(prefix.length) as ChartIssue['path']));
}

describe('freezeChartRecord', () => {
  it('should find in each record of a broken chart exactly what the chart check finds in it', () => {
    fc.assert(
      fc.property(arbBrokenPatientChart({ maxEncounters: 3, maxNotes: 3 }), ({ value: chart }) => {
        expect(recordIssues('patient', chart.patient)).toEqual(chartIssues(chart, 'patient', chart.patient));
        for (const [key, kind] of KINDS) {
          for (const record of Array.isArray(chart[key]) ? (chart[key] as unknown[]) : []) expect(recordIssues(kind, record), kind).toEqual(chartIssues(chart, key, record));
        }
      }),
      { numRuns: runs(150) },
    );
  });

  it('should give remembered frozen copies that export byte for byte as the original chart', () => {
    fc.assert(
      fc.property(arbPatientChart({ maxEncounters: 3, maxNotes: 3 }), ({ chart, directory }) => {
        const copy: PatientChart = {
          patient: freezeChartRecord('patient', chart.patient),
          ...Object.fromEntries(KINDS.filter(([key]) => chart[key] !== undefined).map(([key, kind]) => [key, (chart[key] as unknown[]).map((r) => freezeChartRecord(kind, r))])),
        };
        for (const [key] of KINDS) for (const r of (copy[key] as unknown[] | undefined) ?? []) expect(isCheckedFrozen(r) && Object.isFrozen(r)).toBe(true);
        const dir = {
          ...(directory.organizations === undefined ? {} : { organizations: directory.organizations.map((r) => freezeChartRecord('organization', r)) }),
          ...(directory.practitioners === undefined ? {} : { practitioners: directory.practitioners.map((r) => freezeChartRecord('practitioner', r)) }),
          ...(directory.locations === undefined ? {} : { locations: directory.locations.map((r) => freezeChartRecord('location', r)) }),
        };
        expect(checkDirectory(dir)).toEqual(checkDirectory(directory));
        const o = { now: NOW, controlId: 'ADR1', directory: dir };
        expect(buildAdrA19(copy, o)).toBe(buildAdrA19(chart, { ...o, directory }));
        expect(buildFhirPatientBundle(copy, { now: NOW, directory: dir })).toEqual(buildFhirPatientBundle(chart, { now: NOW, directory }));
      }),
      { numRuns: runs(40) },
    );
  });

  it('should return a checked frozen copy itself, and refuse an unknown kind', () => {
    const { chart } = fc.sample(arbPatientChart(), { numRuns: 1, seed: 4 })[0] as { chart: PatientChart };
    const patient = freezeChartRecord('patient', chart.patient);
    expect(freezeChartRecord('patient', patient)).toBe(patient);
    expect(() => freezeChartRecord('chart' as ChartRecordKind, chart.patient)).toThrow(InvalidArgumentError);
    expect(() => freezeChartRecord('toString' as ChartRecordKind, chart.patient)).toThrow(InvalidArgumentError);
    expect(() => freezeChartRecord('note', null)).toThrow(ChartValidationError);
  });
});
