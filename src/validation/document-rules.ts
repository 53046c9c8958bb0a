/**
 * The chart check's rules over whole charts and documents: every record of a chart, unique ids per kind,
 * instruments shared across assessments, and the references that need the whole document to resolve.
 */
import { mapChartId } from '../fhir/ids.js';
import { HL7_SET_ID_LIMITS } from '../model/limits.js';
import { at, type Checker, type Obj, type Path } from './checker.js';
import { checkAssessment, checkInstruments } from './assessment-rules.js';
import { checkEncounter } from './encounter-rules.js';
import { checkHistory } from './history-rules.js';
import { isCheckedFrozen } from './memo.js';
import { checkNote } from './note-rules.js';
import { checkPatient } from './patient-rules.js';
import { checkSummaryObx } from './summary-rules.js';

/** The record lists of a chart: key, what one record is called, and its rules. */
const RECORD_KINDS: readonly (readonly [string, string, (c: Checker, v: unknown, p: Path) => void])[] = [
  ['encounters', 'encounter', checkEncounter],
  ['notes', 'note', checkNote],
  ['assessments', 'assessment', checkAssessment],
  ['medicalHistory', 'medical-history entry', checkHistory],
];

/** Check one patient's chart at `path`. */
export function checkChart(c: Checker, value: unknown, path: Path): void {
  // A frozen checked chart (or record) cannot have changed since it passed: see frozen.ts.
  if (isCheckedFrozen(value) || !c.object(value, path, true)) return;
  if (!isCheckedFrozen(value['patient'])) checkPatient(c, value['patient'], at(path, 'patient'));
  for (const [key, what, fn] of RECORD_KINDS) {
    c.each(value[key], at(path, key), false, (v, p) => {
      if (!isCheckedFrozen(v)) fn(c, v, p);
    });
    c.unique(value[key], 'id', at(path, key), what);
    c.uniqueFhirIds(value[key], ['id'], at(path, key), what);
  }
  c.maxSetIds(value['encounters'], at(path, 'encounters'), HL7_SET_ID_LIMITS.encounters, 'PID-1 / PV1-1 in ADR^A19');
  c.maxSetIds(value['medicalHistory'], at(path, 'medicalHistory'), HL7_SET_ID_LIMITS.medicalHistory, 'DG1-1 in ADR^A19');
  checkSummaryObx(c, value, path);
  c.uniqueFhirIds(value['assessments'], ['instrument', 'id'], at(path, 'assessments'), "assessment's instrument");
  checkInstruments(c, value['assessments'], at(path, 'assessments'));
}

function ids(list: unknown): Set<string> {
  const out = new Set<string>();
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (item !== null && typeof item === 'object' && typeof (item as Obj)['id'] === 'string') out.add((item as Obj)['id'] as string);
  }
  return out;
}

/** Reference checks that need the whole document: every id a record points at must exist. */
export function checkReferences(c: Checker, doc: Obj): void {
  const dir = (doc['directory'] !== null && typeof doc['directory'] === 'object' ? doc['directory'] : {}) as Obj;
  const orgIds = ids(dir['organizations']);
  const orgFhirIds = new Set<string>();
  for (const id of orgIds) if (id.length > 0) orgFhirIds.add(mapChartId(id));
  const pracIds = ids(dir['practitioners']);
  const locIds = ids(dir['locations']);
  const ref = (value: unknown, set: Set<string>, path: Path, what: string): void => {
    if (typeof value === 'string' && !set.has(value)) c.add(path, 'reference', `does not match any ${what}`);
  };
  const each = (list: unknown, fn: (item: Obj, i: number) => void): void => {
    if (!Array.isArray(list)) return;
    list.forEach((item, i) => {
      if (item !== null && typeof item === 'object' && !Array.isArray(item)) fn(item as Obj, i);
    });
  };
  each(dir['organizations'], (o, i) => ref(o['partOfId'], orgIds, at(at(at(at(undefined, 'directory'), 'organizations'), i), 'partOfId'), 'organization of the directory'));
  each(dir['locations'], (l, i) => ref(l['organizationId'], orgIds, at(at(at(at(undefined, 'directory'), 'locations'), i), 'organizationId'), 'organization of the directory'));
  each(doc['patients'], (chart, pi) => {
    const base = at(at(undefined, 'patients'), pi);
    const encIds = ids(chart['encounters']);
    // A payer and a directory organization both become FHIR Organizations named by their chart ids: one id for
    // two organizations would make the Organization's id depend on which of them an export includes.
    const patient = chart['patient'];
    if (patient !== null && typeof patient === 'object') {
      each((patient as Obj)['coverages'], (cov, i) => {
        const payer = cov['payer'];
        const id = payer !== null && typeof payer === 'object' ? (payer as Obj)['id'] : undefined;
        if (typeof id === 'string' && (orgIds.has(id) || (id.length > 0 && orgFhirIds.has(mapChartId(id))))) {
          c.add(at(at(at(at(at(base, 'patient'), 'coverages'), i), 'payer'), 'id'), 'duplicate', "must differ from the directory's organization ids (both name a FHIR Organization)");
        }
      });
    }
    each(chart['encounters'], (e, ei) => {
      const ep = at(at(base, 'encounters'), ei);
      ref(e['locationId'], locIds, at(ep, 'locationId'), 'location of the directory');
      each(e['participants'], (p, i) => ref(p['practitionerId'], pracIds, at(at(at(ep, 'participants'), i), 'practitionerId'), 'practitioner of the directory'));
      each(e['procedures'], (p, i) => ref(p['performerId'], pracIds, at(at(at(ep, 'procedures'), i), 'performerId'), 'practitioner of the directory'));
    });
    for (const key of ['notes', 'assessments']) {
      each(chart[key], (n, i) => {
        ref(n['authorId'], pracIds, at(at(at(base, key), i), 'authorId'), 'practitioner of the directory');
        ref(n['encounterId'], encIds, at(at(at(base, key), i), 'encounterId'), "encounter of the same patient's chart");
      });
    }
  });
}
