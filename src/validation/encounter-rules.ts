/** The chart check's rules of an encounter, its diagnoses and its procedures. */
import { checkLastUpdated } from './last-updated-rules.js';
import { at, type Checker, type Obj, type Path } from './checker.js';
import { HL7_SET_ID_LIMITS } from '../model/limits.js';
import { DIAGNOSIS_USES, ENCOUNTER_CLASSES, ENCOUNTER_STATUSES, PARTICIPANT_ROLES, PROCEDURE_STATUSES } from '../model/encounter.js';

/** Check an encounter at `path`. */
export function checkEncounter(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  checkLastUpdated(c, value, path);
  c.enumValue(value['status'], ENCOUNTER_STATUSES, at(path, 'status'), true);
  c.enumValue(value['class'], ENCOUNTER_CLASSES, at(path, 'class'), true);
  c.coding(value['type'], at(path, 'type'), false);
  c.period(value['period'], at(path, 'period'), false);
  c.id(value['locationId'], at(path, 'locationId'), false);
  c.each(value['participants'], at(path, 'participants'), false, (v, p) => {
    if (!c.object(v, p, true)) return;
    c.enumValue(v['role'], PARTICIPANT_ROLES, at(p, 'role'), true);
    c.id(v['practitionerId'], at(p, 'practitionerId'));
  });
  c.text(value['reason'], at(path, 'reason'), false);
  const diagnoses = value['diagnoses'];
  c.each(diagnoses, at(path, 'diagnoses'), false, (v, p) => {
    if (!c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'), false);
    c.coding(v['code'], at(p, 'code'), true, ['icd-10-cm', 'snomed-ct']);
    c.number(v['rank'], at(p, 'rank'), false, 'positive-integer');
    c.enumValue(v['use'], DIAGNOSIS_USES, at(p, 'use'), false);
    c.date(v['onset'], at(p, 'onset'), false, false);
    c.date(v['recordedDate'], at(p, 'recordedDate'), false, false);
  });
  c.unique(diagnoses, 'id', at(path, 'diagnoses'), 'diagnosis');
  c.maxSetIds(diagnoses, at(path, 'diagnoses'), HL7_SET_ID_LIMITS.diagnoses, 'DG1-1');
  const period = value['period'];
  const encounterStart = period !== null && typeof period === 'object' ? (period as Obj)['start'] : undefined;
  const procedures = value['procedures'];
  c.each(procedures, at(path, 'procedures'), false, (v, p) => {
    if (!c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'), false);
    c.coding(v['code'], at(p, 'code'), true, ['cpt', 'snomed-ct', 'icd-10-pcs']);
    c.enumValue(v['status'], PROCEDURE_STATUSES, at(p, 'status'), true);
    const performed = v['performed'];
    if (typeof performed === 'object' && performed !== null) c.period(performed, at(p, 'performed'), false);
    else c.date(performed, at(p, 'performed'), false, false);
    // HL7 PR1-5 (procedure date/time) is required: the procedure's own date, else the encounter's start.
    const own = typeof performed === 'string' ? performed : typeof performed === 'object' && performed !== null ? (performed as Obj)['start'] : undefined;
    if (own === undefined && encounterStart === undefined) {
      c.add(at(p, 'performed'), 'required', 'is required when the encounter has no period start (HL7 PR1-5 procedure date/time is required)');
    }
    c.id(v['performerId'], at(p, 'performerId'), false);
  });
  c.unique(procedures, 'id', at(path, 'procedures'), 'procedure');
  c.maxSetIds(procedures, at(path, 'procedures'), HL7_SET_ID_LIMITS.procedures, 'PR1-1');
}
