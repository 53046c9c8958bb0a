/**
 * Check once, export many times. `freezeChartDocument`, `freezePatientChart` and `freezeDirectory` copy
 * their input into plain data, check the copy, deep-freeze it and remember it. The builders' own chart
 * check then skips the field walk of every remembered record (patient, encounter, note, assessment,
 * medical-history entry, directory organization, practitioner, location) and of every remembered chart or
 * directory: a frozen copy that passed the check can no longer change, so checking it again would find
 * the same nothing. The checks that span records (unique ids within a chart) still run on charts assembled
 * from remembered records.
 *
 * The copy holds own enumerable data only (getters are read once, functions dropped, `Date`, `Map` and
 * class instances become plain objects of their own enumerable properties, which the check then rejects
 * wherever the model expects a string), so nothing reachable from it can change after the check.
 */
import { ChartValidationError, type ChartIssue, type IssuePath } from '../errors.js';
import type { ChartDocument, PatientChart } from '../model/chart.js';
import type { Directory } from '../model/directory.js';
import { checkChartDocument, checkDirectory, checkPatientChart } from './chart-check.js';
import { isCheckedFrozen, rememberChecked } from './memo.js';

/** Nesting deeper than this is no chart (the model nests about ten levels); it is reported, not followed. */
const MAX_DEPTH = 64;

/** A cycle or nesting too deep, found while copying: reported with the check's issues, never alone. */
function structural(issues: ChartIssue[], path: (string | number)[], message: string): undefined {
  issues.push({ path: [...path] as IssuePath, code: 'type', message });
  return undefined;
}

/**
 * Copy `value` into frozen plain data (arrays and objects of own enumerable properties). A cycle or nesting
 * deeper than {@link MAX_DEPTH} is added to `issues` and left out of the copy, and the copy goes on.
 */
export function frozenCopy(value: unknown, path: (string | number)[], ancestors: Set<object>, issues: ChartIssue[]): unknown {
  if (typeof value === 'function') return undefined;
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return structural(issues, path, 'must not contain itself (a cycle)');
  if (path.length >= MAX_DEPTH) return structural(issues, path, `nests deeper than ${MAX_DEPTH} levels`);
  ancestors.add(value);
  let out: unknown[] | Record<string, unknown>;
  if (Array.isArray(value)) {
    const list: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      list[i] = frozenCopy(value[i], path, ancestors, issues);
      path.pop();
    }
    out = list;
  } else {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      path.push(key);
      const v = frozenCopy((value as Record<string, unknown>)[key], path, ancestors, issues);
      path.pop();
      if (v === undefined) continue;
      // `__proto__` from JSON is an own data property; plain assignment would set the prototype instead.
      if (key === '__proto__') Object.defineProperty(object, key, { value: v, enumerable: true });
      else object[key] = v;
    }
    out = object;
  }
  ancestors.delete(value);
  return Object.freeze(out);
}

/**
 * Copy, check the copy (throwing every issue), remember it: the common path of the three functions below.
 * Cycles and nesting too deep are left out of the copy and reported together with every issue the check finds
 * in it, so that the first problem never hides the others.
 */
function freezeChecked<T>(value: unknown, check: (copy: unknown) => ChartIssue[], rememberCopy: (copy: T) => void): T {
  if (isCheckedFrozen(value)) return value as T;
  const structuralIssues: ChartIssue[] = [];
  const copy = frozenCopy(value, [], new Set(), structuralIssues);
  // The copy leaves the cycles and the too-deep places out, so the check of the copy reports everything else
  // (and reads no getter of the input a second time).
  const issues = [...structuralIssues, ...check(copy)];
  if (issues.length > 0) throw new ChartValidationError(issues);
  rememberCopy(copy as T);
  return copy as T;
}

function remember(list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const item of list) if (typeof item === 'object' && item !== null) rememberChecked(item);
}

function rememberChart(chart: PatientChart): void {
  rememberChecked(chart);
  rememberChecked(chart.patient);
  remember(chart.encounters);
  remember(chart.notes);
  remember(chart.assessments);
  remember(chart.medicalHistory);
}

function rememberDirectory(directory: Directory): void {
  rememberChecked(directory);
  remember(directory.organizations);
  remember(directory.practitioners);
  remember(directory.locations);
}

/**
 * Check a chart document and return a deep-frozen, checked copy whose charts and records the builders
 * do not check again (see the module comment). The in-memory data source of `chart-export/http` holds
 * its document this way.
 * @param value - the document (typically parsed JSON)
 * @returns the frozen copy, typed
 * @throws {ChartValidationError} listing every problem by path (never by value), also for a cycle or
 *   nesting deeper than 64 levels
 * @example const doc = freezeChartDocument(JSON.parse(text)); buildMdmT02(doc.patients[0], 'note-1', { directory: doc.directory });
 */
export function freezeChartDocument(value: unknown): ChartDocument {
  return freezeChecked<ChartDocument>(value, checkChartDocument, (doc) => {
    rememberChecked(doc);
    for (const chart of doc.patients) rememberChart(chart);
    if (doc.directory !== undefined) rememberDirectory(doc.directory);
  });
}

/**
 * Check one patient's chart and return a deep-frozen, checked copy that the builders do not check again.
 * @param value - the chart (typically parsed JSON)
 * @returns the frozen copy, typed
 * @throws {ChartValidationError} listing every problem by path (never by value)
 * @example const chart = freezePatientChart(input); buildFhirPatientBundle(chart); buildMdmT02(chart, 'note-1');
 */
export function freezePatientChart(value: unknown): PatientChart {
  return freezeChecked(value, checkPatientChart, rememberChart);
}

/**
 * Check a directory and return a deep-frozen, checked copy that the builders do not check again.
 * @param value - the directory (organizations, practitioners, locations)
 * @returns the frozen copy, typed
 * @throws {ChartValidationError} listing every problem by path
 * @example const directory = freezeDirectory(input); buildFhirDirectoryBundle(directory, 'Practitioner');
 */
export function freezeDirectory(value: unknown): Directory {
  return freezeChecked(value, checkDirectory, rememberDirectory);
}
