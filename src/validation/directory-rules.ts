/** The chart check's rules of the directory: organizations, practitioners, locations. */
import { at, type Checker, type Obj, type Path } from './checker.js';
import { isCheckedFrozen } from './memo.js';
import { LOCATION_STATUSES } from '../model/directory.js';

/** Check a directory at `path` (optional: absent is no issue). */
export function checkDirectoryInto(c: Checker, value: unknown, path: Path): void {
  if (isCheckedFrozen(value) || !c.object(value, path, false)) return;
  const orgs = value['organizations'];
  c.each(orgs, at(path, 'organizations'), false, (v, p) => {
    if (isCheckedFrozen(v) || !c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'));
    c.text(v['name'], at(p, 'name'), true);
    c.boolean(v['active'], at(p, 'active'), false);
    c.each(v['identifiers'], at(p, 'identifiers'), false, (x, xp) => c.identifier(x, xp));
    // FHIR org-2 / org-3: an organization's address or telecom can never be of use 'home'.
    const notHome = (x: unknown, xp: Path): void => {
      if (x !== null && typeof x === 'object' && (x as Obj)['use'] === 'home') c.add(at(xp, 'use'), 'enum', "must not be 'home' for an organization");
    };
    c.each(v['telecoms'], at(p, 'telecoms'), false, (x, xp) => (c.telecom(x, xp), notHome(x, xp)));
    c.each(v['addresses'], at(p, 'addresses'), false, (x, xp) => (c.address(x, xp), notHome(x, xp)));
    c.id(v['partOfId'], at(p, 'partOfId'), false);
  });
  c.unique(orgs, 'id', at(path, 'organizations'), 'organization');
  c.uniqueFhirIds(orgs, ['id'], at(path, 'organizations'), 'organization');
  const pracs = value['practitioners'];
  c.each(pracs, at(path, 'practitioners'), false, (v, p) => {
    if (isCheckedFrozen(v) || !c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'));
    c.each(v['names'], at(p, 'names'), true, (x, xp) => c.humanName(x, xp), 1);
    c.boolean(v['active'], at(p, 'active'), false);
    c.each(v['identifiers'], at(p, 'identifiers'), false, (x, xp) => c.identifier(x, xp));
    c.each(v['telecoms'], at(p, 'telecoms'), false, (x, xp) => c.telecom(x, xp));
    c.each(v['qualifications'], at(p, 'qualifications'), false, (x, xp) => {
      if (!c.object(x, xp, true)) return;
      c.coding(x['code'], at(xp, 'code'), true);
      c.text(x['display'], at(xp, 'display'), false);
    });
  });
  c.unique(pracs, 'id', at(path, 'practitioners'), 'practitioner');
  c.uniqueFhirIds(pracs, ['id'], at(path, 'practitioners'), 'practitioner');
  const locs = value['locations'];
  c.each(locs, at(path, 'locations'), false, (v, p) => {
    if (isCheckedFrozen(v) || !c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'));
    c.text(v['name'], at(p, 'name'), true);
    c.enumValue(v['status'], LOCATION_STATUSES, at(p, 'status'), false);
    c.text(v['description'], at(p, 'description'), false);
    if (v['address'] !== undefined) c.address(v['address'], at(p, 'address'));
    c.each(v['telecoms'], at(p, 'telecoms'), false, (x, xp) => c.telecom(x, xp));
    c.id(v['organizationId'], at(p, 'organizationId'), false);
  });
  c.unique(locs, 'id', at(path, 'locations'), 'location');
  c.uniqueFhirIds(locs, ['id'], at(path, 'locations'), 'location');
}
