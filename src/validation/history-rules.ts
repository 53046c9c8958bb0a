/** The chart check's rules of a medical-history entry. */
import { checkLastUpdated } from './last-updated-rules.js';
import { at, type Checker, isBefore, type Path } from './checker.js';
import { CLINICAL_STATUSES, VERIFICATION_STATUSES } from '../model/history.js';

/** Check a medical-history entry at `path`. */
export function checkHistory(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  checkLastUpdated(c, value, path);
  c.coding(value['code'], at(path, 'code'), true, ['icd-10-cm', 'snomed-ct']);
  c.enumValue(value['clinicalStatus'], CLINICAL_STATUSES, at(path, 'clinicalStatus'), true);
  c.enumValue(value['verificationStatus'], VERIFICATION_STATUSES, at(path, 'verificationStatus'), false);
  const onset = c.date(value['onset'], at(path, 'onset'), false, false);
  const abatement = c.date(value['abatement'], at(path, 'abatement'), false, false);
  if (onset !== undefined && abatement !== undefined && isBefore(abatement, onset)) {
    c.add(at(path, 'abatement'), 'range', 'must not be before onset');
  }
  c.date(value['recordedDate'], at(path, 'recordedDate'), false, false);
  c.text(value['note'], at(path, 'note'), false);
}
