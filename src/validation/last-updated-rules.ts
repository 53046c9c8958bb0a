/** The chart check's rule of the optional `lastUpdated` of a record (patient, encounter, note, assessment, history entry). */
import { parseIsoDateTime } from '../internal/iso.js';
import { at, type Checker, type Obj, type Path } from './checker.js';

/**
 * Check `record.lastUpdated` when present: an ISO 8601 instant with seconds and an offset, which is what FHIR
 * `meta.lastUpdated` (an `instant`) takes.
 * @see https://hl7.org/fhir/R4/resource-definitions.html#Meta.lastUpdated
 */
export function checkLastUpdated(c: Checker, record: Obj, path: Path): void {
  const value = record['lastUpdated'];
  if (value === undefined) return;
  if (typeof value !== 'string') {
    c.add(at(path, 'lastUpdated'), 'type', 'must be a string');
    return;
  }
  if (parseIsoDateTime(value)?.precision !== 'second') {
    c.add(at(path, 'lastUpdated'), 'format', 'must be an ISO 8601 instant with seconds and an offset (YYYY-MM-DDThh:mm:ss[.ffff](Z|±hh:mm))');
  }
}
