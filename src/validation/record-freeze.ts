/**
 * Check one record on its own and freeze it: what `freezePatientChart` does for a whole chart, for one patient,
 * encounter, note, assessment, medical-history entry or directory record as a data source hands it out. The
 * builders' chart check then skips the field walk of the record (see `frozen.ts`); the checks that span records
 * still run on the chart the record is put in.
 */
import type { ChartIssue } from '../errors.js';
import { Checker } from './checker.js';
import { checkAssessment } from './assessment-rules.js';
import { checkDirectoryInto } from './directory-rules.js';
import { checkEncounter } from './encounter-rules.js';
import { frozenCopy } from './frozen.js';
import { checkHistory } from './history-rules.js';
import { isCheckedFrozen, rememberChecked } from './memo.js';
import { checkNote } from './note-rules.js';
import { checkPatient } from './patient-rules.js';

/** The kinds of record a data source hands out. */
export type RecordKind = 'patient' | 'encounter' | 'note' | 'assessment' | 'medicalHistory' | 'organization' | 'practitioner' | 'location';

/** The field walk of one record of each kind: the rule the chart (or directory) check applies to it. */
const RECORD_CHECKS: Readonly<Record<RecordKind, (c: Checker, value: unknown) => void>> = {
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
 * A deep-frozen copy of one record that passed its kind's rules, remembered as checked (the builders do not walk
 * it again), or `undefined` when the record (or its copy) fails them: the caller then keeps the record as given,
 * and the builder's own check reports it exactly as it would have.
 * @param kind - what the record is
 * @param value - the record as handed out
 * @returns the checked frozen copy (the record itself when it is already one), or `undefined`
 * @example const note = freezeCheckedRecord('note', row) ?? row;
 */
export function freezeCheckedRecord(kind: RecordKind, value: unknown): unknown {
  if (isCheckedFrozen(value)) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const issues: ChartIssue[] = [];
  const copy = frozenCopy(value, [], new Set(), issues);
  if (issues.length > 0 || typeof copy !== 'object' || copy === null) return undefined;
  const c = new Checker();
  RECORD_CHECKS[kind](c, copy);
  if (c.issues.length > 0) return undefined;
  rememberChecked(copy);
  return copy;
}
