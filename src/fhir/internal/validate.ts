/**
 * Input checks of the standalone mappers: they run the chart check over a minimal chart holding their
 * record and report issue paths relative to their own parameters (`encounter.period.start`).
 */
import { ChartValidationError, type ChartIssue, type IssuePath } from '../../errors.js';
import { checkDirectory, checkPatientChart } from '../../validation/chart-check.js';
import type { PatientChart } from '../../model/chart.js';
import type { Directory } from '../../model/directory.js';

/** How to rename the head of an issue path: `['encounters', 0]` → `['encounter']`. */
type Rename = readonly [from: IssuePath, to: IssuePath];

function rebase(issues: readonly ChartIssue[], renames: readonly Rename[]): ChartIssue[] {
  return issues.map((issue) => {
    for (const [from, to] of renames) {
      if (from.every((part, i) => issue.path[i] === part)) {
        return { ...issue, path: [...to, ...issue.path.slice(from.length)] };
      }
    }
    return issue;
  });
}

/**
 * Check a chart built around a mapper's record; throw with renamed paths when it is invalid.
 * @throws {ChartValidationError}
 */
export function assertValidChartParts(chart: unknown, renames: readonly Rename[]): void {
  const issues = checkPatientChart(chart as PatientChart);
  if (issues.length > 0) throw new ChartValidationError(rebase(issues, renames));
}

/**
 * Check a directory built around a mapper's record; throw with renamed paths when it is invalid.
 * @throws {ChartValidationError}
 */
export function assertValidDirectoryParts(directory: unknown, renames: readonly Rename[]): void {
  const issues = checkDirectory(directory as Directory);
  if (issues.length > 0) throw new ChartValidationError(rebase(issues, renames));
}

/** A minimal valid patient, for checking records that do not need a patient (an instrument, a payer). */
export const PLACEHOLDER_PATIENT = {
  id: 'p',
  identifiers: [{ system: 'urn:ietf:rfc:3986', value: 'urn:x' }],
  names: [{ text: 'p' }],
} as const;
