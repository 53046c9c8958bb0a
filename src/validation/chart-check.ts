/**
 * Runtime check of chart input. Charts often come from JSON or a database, so every builder checks its
 * input first and nothing invalid is emitted. Problems are reported with their path
 * (`encounters[3].diagnoses[0].code`) and a message that names the rule, never the value.
 *
 * The generic checks are in `checker.ts`, the rules per record kind in `*-rules.ts`.
 */
import { ChartValidationError, type ChartIssue } from '../errors.js';
import type { ChartDocument, PatientChart } from '../model/chart.js';
import type { Directory } from '../model/directory.js';
import { at, Checker, type Obj } from './checker.js';
import { checkDirectoryInto } from './directory-rules.js';
import { checkChart, checkReferences } from './document-rules.js';
import { isCheckedFrozen } from './memo.js';

/**
 * Check one patient's chart and list every problem.
 * @param value - the chart to check (typically parsed JSON)
 * @returns every problem with its path into `value`; empty when the chart is valid
 * @example checkPatientChart({ patient: { id: 'p1', identifiers: [], names: [] } })[0]?.path // ['patient', 'identifiers']
 */
export function checkPatientChart(value: unknown): ChartIssue[] {
  const c = new Checker();
  checkChart(c, value, undefined);
  return c.issues;
}

/**
 * Check one patient's chart and return it typed, or throw.
 * @param value - the chart to check
 * @returns the same object, typed as {@link PatientChart}
 * @throws {ChartValidationError} listing every problem by path (never by value)
 * @example const chart = validatePatientChart(JSON.parse(text));
 */
export function validatePatientChart(value: unknown): PatientChart {
  const issues = checkPatientChart(value);
  if (issues.length > 0) throw new ChartValidationError(issues);
  return value as PatientChart;
}

/**
 * Check a directory (organizations, practitioners, locations) and list every problem.
 * @param value - the directory to check
 * @returns every problem with its path into `value`
 */
export function checkDirectory(value: unknown): ChartIssue[] {
  const c = new Checker();
  // A directory given on its own is required; only inside a chart document is it optional.
  if (value === undefined) c.add(undefined, 'required', 'is required');
  checkDirectoryInto(c, value, undefined);
  return c.issues;
}

/**
 * Check a directory and return it typed, or throw.
 * @param value - the directory to check
 * @returns the same object, typed as {@link Directory}
 * @throws {ChartValidationError} listing every problem by path
 */
export function validateDirectory(value: unknown): Directory {
  const issues = checkDirectory(value);
  if (issues.length > 0) throw new ChartValidationError(issues);
  return value as Directory;
}

/**
 * Check a directory given as a builder's `directory` option and return it typed, or throw. Like
 * {@link validateDirectory}, but every issue's path starts with `directory` (`directory.practitioners[0].names`),
 * so an error tells the option apart from the chart.
 * @param value - the option's value
 * @returns the same object, typed as {@link Directory}
 * @throws {ChartValidationError} listing every problem by path
 */
export function validateDirectoryOption(value: unknown): Directory {
  const issues = checkDirectory(value);
  if (issues.length > 0) throw new ChartValidationError(issues.map((i) => ({ ...i, path: ['directory', ...i.path] })));
  return value as Directory;
}

/**
 * Check a whole chart document (the JSON file format of the in-memory data source): every patient's
 * chart, the directory, unique patient ids, and that every reference resolves.
 * @param value - the document to check (typically parsed JSON)
 * @returns every problem with its path into `value`, e.g. `patients[2].encounters[0].locationId`
 * @example checkChartDocument({ patients: [] }) // []
 */
export function checkChartDocument(value: unknown): ChartIssue[] {
  if (isCheckedFrozen(value)) return [];
  const c = new Checker();
  if (!c.object(value, undefined, true)) return c.issues;
  c.each(value['patients'], at(undefined, 'patients'), true, (v, p) => checkChart(c, v, p));
  if (Array.isArray(value['patients'])) {
    const seen = new Set<string>();
    value['patients'].forEach((chart, i) => {
      const patient = chart !== null && typeof chart === 'object' ? (chart as Obj)['patient'] : undefined;
      const id = patient !== null && typeof patient === 'object' ? (patient as Obj)['id'] : undefined;
      if (typeof id !== 'string') return;
      if (seen.has(id)) c.add(at(at(at(at(undefined, 'patients'), i), 'patient'), 'id'), 'duplicate', 'duplicates the id of an earlier patient');
      seen.add(id);
    });
  }
  checkDirectoryInto(c, value['directory'], at(undefined, 'directory'));
  checkReferences(c, value);
  return c.issues;
}

/**
 * Check a whole chart document and return it typed, or throw.
 * @param value - the document to check
 * @returns the same object, typed as {@link ChartDocument}
 * @throws {ChartValidationError} listing every problem by path (never by value)
 * @example const doc = validateChartDocument(JSON.parse(await readFile('chart.json', 'utf8')));
 */
export function validateChartDocument(value: unknown): ChartDocument {
  const issues = checkChartDocument(value);
  if (issues.length > 0) throw new ChartValidationError(issues);
  return value as ChartDocument;
}
