/** The chart check's rules of the patient record (the coverages have their own, `coverage-rules.ts`). */
import { checkLastUpdated } from './last-updated-rules.js';
import { at, type Checker, type Path } from './checker.js';
import { checkCoverage, checkPayers } from './coverage-rules.js';
import { HL7_SET_ID_LIMITS, LANGUAGE_MAX } from '../model/limits.js';
import { GENDERS, MARITAL_STATUSES } from '../model/patient.js';

const LANGUAGE_RE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** Check a patient record at `path`. */
export function checkPatient(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  checkLastUpdated(c, value, path);
  c.each(value['identifiers'], at(path, 'identifiers'), true, (v, p) => c.identifier(v, p, true), 1);
  c.each(value['names'], at(path, 'names'), true, (v, p) => c.humanName(v, p), 1);
  c.date(value['birthDate'], at(path, 'birthDate'), false, true);
  c.enumValue(value['gender'], GENDERS, at(path, 'gender'), false);
  const deceased = value['deceased'];
  // A boolean or a date-time: a value of another type (JSON `null`, a number) is told both.
  if (deceased !== undefined && typeof deceased !== 'boolean' && typeof deceased !== 'string') c.add(at(path, 'deceased'), 'type', 'must be a boolean or an ISO 8601 string');
  else if (typeof deceased === 'string') c.date(deceased, at(path, 'deceased'), false, false);
  c.each(value['addresses'], at(path, 'addresses'), false, (v, p) => c.address(v, p));
  c.each(value['telecoms'], at(path, 'telecoms'), false, (v, p) => c.telecom(v, p));
  c.enumValue(value['maritalStatus'], MARITAL_STATUSES, at(path, 'maritalStatus'), false);
  const language = value['language'];
  if (c.text(language, at(path, 'language'), false) && (!LANGUAGE_RE.test(language) || language.length > LANGUAGE_MAX)) {
    c.add(at(path, 'language'), 'format', `must be a BCP 47 language tag such as en-US, at most ${LANGUAGE_MAX} characters`);
  }
  const coverages = value['coverages'];
  c.each(coverages, at(path, 'coverages'), false, (v, p) => checkCoverage(c, v, p));
  c.unique(coverages, 'id', at(path, 'coverages'), 'coverage');
  c.maxSetIds(coverages, at(path, 'coverages'), HL7_SET_ID_LIMITS.coverages, 'IN1-1');
  checkPayers(c, coverages, at(path, 'coverages'));
}
