/**
 * Regression tests for argument checks found by test/package/api-robustness.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  buildAdtA08,
  ChartValidationError,
  checkDirectory,
  checkPatientChart,
  formatIssuePath,
  freezeDirectory,
  InvalidArgumentError,
  validateDirectory,
} from '../../src/index.js';
import { CHART, DIRECTORY } from '../hl7/fixtures.js';

describe('checkPatientChart', () => {
  it('should report an undefined element or a hole in a text list (given, prefix, suffix, lines)', () => {
    // Arrange
    const chart = structuredClone(CHART) as { patient: { names: { given?: unknown[] }[]; addresses: { lines?: unknown[] }[] } };
    (chart.patient.names[0] as { given?: unknown[] }).given = ['Mary', undefined];
    const lines = new Array<unknown>(2);
    lines[0] = '12 Elm St';
    (chart.patient.addresses[0] as { lines?: unknown[] }).lines = lines;
    // Act
    const issues = checkPatientChart(chart);
    // Assert
    expect(issues.map((i) => formatIssuePath(i.path))).toEqual(['patient.names[0].given[1]', 'patient.addresses[0].lines[1]']);
  });

  it('should make the HL7 builders throw ChartValidationError for such a chart, not a TypeError', () => {
    const chart = structuredClone(CHART) as unknown as { patient: { names: { given?: unknown[] }[] } };
    (chart.patient.names[0] as { given?: unknown[] }).given = ['Mary', undefined];
    expect(() => buildAdtA08(chart as never, 'enc-0001', { now: '2026-03-01T15:00:00Z', controlId: 'ADT1', directory: DIRECTORY })).toThrow(ChartValidationError);
  });
});

describe('checkDirectory', () => {
  it('should require a directory given on its own', () => {
    expect(checkDirectory(undefined)).toEqual([{ path: [], code: 'required', message: 'is required' }]);
    expect(() => validateDirectory(undefined)).toThrow(ChartValidationError);
    expect(() => freezeDirectory(undefined)).toThrow(ChartValidationError);
  });
});

describe('formatIssuePath', () => {
  it('should throw InvalidArgumentError for a path that is not an array of strings and numbers', () => {
    expect(() => formatIssuePath(undefined as never)).toThrow(InvalidArgumentError);
    expect(() => formatIssuePath(['a', Symbol('x')] as never)).toThrow(expect.objectContaining({ argument: 'path[1]' }));
    expect(() => formatIssuePath([{}] as never)).toThrow(InvalidArgumentError);
  });
});
