/** The chart check's rules of a coverage, and of payers shared by several coverages. */
import { at, type Checker, type Obj, type Path } from './checker.js';
import { HL7_MEMBER_ID_MAX, hl7EscapedLength } from '../model/limits.js';
import { countUpTo } from './speed-ups.js';
import { COVERAGE_STATUSES, SUBSCRIBER_RELATIONSHIPS } from '../model/patient.js';

/** Two optional payer identifiers are the same: system, value and type. */
function sameIdentifier(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const x = a as Obj;
  const y = b as Obj;
  return x['system'] === y['system'] && x['value'] === y['value'] && x['type'] === y['type'];
}

/**
 * One payer id names one payer across the patient's coverages: FHIR exports one Organization per payer id
 * (each payer once), which every Coverage with that id cites, while HL7 sends each coverage's own payer in
 * its IN1. Coverages sharing a payer id must therefore give it the same `name` and `identifier`, or the
 * FHIR export would silently drop the later payer's.
 */
export function checkPayers(c: Checker, list: unknown, path: Path): void {
  if (!Array.isArray(list) || list.length < 2) return;
  const first = new Map<string, Obj>();
  list.forEach((coverage: unknown, i) => {
    if (coverage === null || typeof coverage !== 'object') return;
    const payer = (coverage as Obj)['payer'];
    if (payer === null || typeof payer !== 'object' || Array.isArray(payer)) return;
    const p = payer as Obj;
    const id = p['id'];
    if (typeof id !== 'string') return;
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, p);
      return;
    }
    if (earlier === p) return;
    const pp = at(at(path, i), 'payer');
    if (earlier['name'] !== p['name']) c.add(at(pp, 'name'), 'duplicate', "differs from the name of an earlier coverage's payer with the same id");
    if (!sameIdentifier(earlier['identifier'], p['identifier'])) {
      c.add(at(pp, 'identifier'), 'duplicate', "differs from the identifier of an earlier coverage's payer with the same id");
    }
  });
}

/** Check a coverage at `path`. */
export function checkCoverage(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  c.enumValue(value['status'], COVERAGE_STATUSES, at(path, 'status'), true);
  const payer = value['payer'];
  if (c.object(payer, at(path, 'payer'), true)) {
    c.id(payer['id'], at(at(path, 'payer'), 'id'));
    c.text(payer['name'], at(at(path, 'payer'), 'name'), true);
    if (payer['identifier'] !== undefined) c.identifier(payer['identifier'], at(at(path, 'payer'), 'identifier'));
  }
  const memberId = value['memberId'];
  if (c.text(memberId, at(path, 'memberId'), false) && hl7EscapedLength(memberId, false, countUpTo(HL7_MEMBER_ID_MAX)) > HL7_MEMBER_ID_MAX) {
    c.add(at(path, 'memberId'), 'range', `must be at most ${HL7_MEMBER_ID_MAX} characters once escaped for HL7 (IN1-49; identifiers are never shortened)`);
  }
  for (const key of ['plan', 'group']) {
    const v = value[key];
    if (c.object(v, at(path, key), false)) {
      c.id(v['id'], at(at(path, key), 'id'));
      c.text(v['name'], at(at(path, key), 'name'), false);
    }
  }
  c.enumValue(value['relationship'], SUBSCRIBER_RELATIONSHIPS, at(path, 'relationship'), false);
  c.period(value['period'], at(path, 'period'), true);
  c.number(value['order'], at(path, 'order'), false, 'positive-integer');
}
