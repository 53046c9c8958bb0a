/**
 * Check one record on its own and freeze it: what `freezePatientChart` does for a whole chart, for one patient,
 * encounter, note, assessment, medical-history entry or directory record as a data source hands it out. The
 * builders' chart check then skips the field walk of the record (see `frozen.ts`); the checks that span records
 * (unique ids, references, set-id counts) still run on the chart the record is put in.
 */
import { ChartValidationError, InvalidArgumentError, type ChartIssue } from '../errors.js';
import { Checker } from './checker.js';
import { checkAssessment } from './assessment-rules.js';
import { checkDirectoryInto } from './directory-rules.js';
import { checkEncounter } from './encounter-rules.js';
import { frozenCopy } from './frozen.js';
import { checkHistory } from './history-rules.js';
import { isCheckedFrozen, rememberChecked } from './memo.js';
import { checkNote } from './note-rules.js';
import { checkPatient } from './patient-rules.js';

/** The kinds of record {@link freezeChartRecord} takes: those a chart or a directory holds. */
export type ChartRecordKind = 'patient' | 'encounter' | 'note' | 'assessment' | 'medicalHistory' | 'organization' | 'practitioner' | 'location';

/** The field walk of one record of each kind: the rule the chart (or directory) check applies to it. */
const RECORD_CHECKS: Readonly<Record<ChartRecordKind, (c: Checker, value: unknown) => void>> = {
  patient: (c, v) => checkPatient(c, v, undefined),
  encounter: (c, v) => checkEncounter(c, v, undefined),
  note: (c, v) => checkNote(c, v, undefined),
  assessment: (c, v) => checkAssessment(c, v, undefined),
  medicalHistory: (c, v) => checkHistory(c, v, undefined),
  // A directory of the one record: its field walk, and the directory-wide checks that one record always passes.
  organization: (c, v) => checkDirectoryInto(c, { organizations: [v] }, undefined),
  practitioner: (c, v) => checkDirectoryInto(c, { practitioners: [v] }, undefined),
  location: (c, v) => checkDirectoryInto(c, { locations: [v] }, undefined),
};

/**
 * Check one record on its own and return a deep-frozen, checked copy that the builders do not check again,
 * wherever it is put: a chart assembled from such records is checked only for what spans records (unique ids,
 * references, set-id counts). For a data source that reads records one at a time, this spreads the chart check
 * over the reads, and a record read again as the same frozen copy is never checked twice.
 * @param kind - what the record is: `patient`, `encounter`, `note`, `assessment`, `medicalHistory`,
 *   `organization`, `practitioner` or `location`
 * @param value - the record (typically parsed JSON)
 * @returns the frozen copy, typed as given (the record itself when it already is such a copy)
 * @throws {InvalidArgumentError} when `kind` is not one of the kinds above
 * @throws {ChartValidationError} listing every problem by path within the record (never by value), also for a
 *   cycle or nesting deeper than 64 levels
 * @example const note = freezeChartRecord('note', JSON.parse(row)); buildMdmT02({ patient, notes: [note] }, note.id);
 */
export function freezeChartRecord<T = unknown>(kind: ChartRecordKind, value: T): T {
  const check = typeof kind === 'string' && Object.hasOwn(RECORD_CHECKS, kind) ? RECORD_CHECKS[kind] : undefined;
  if (check === undefined) throw new InvalidArgumentError('kind', `must be one of ${Object.keys(RECORD_CHECKS).join(', ')}`);
  if (isCheckedFrozen(value)) return value;
  const issues: ChartIssue[] = [];
  const copy = frozenCopy(value, [], new Set(), issues);
  const c = new Checker();
  check(c, copy);
  const all = [...issues, ...c.issues];
  if (all.length > 0) throw new ChartValidationError(all);
  // A value that is no object (the check refused it above) never reaches here.
  rememberChecked(copy as object);
  return copy as T;
}
