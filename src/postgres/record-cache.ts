/**
 * The data source's cache of checked records: a record read as JSON text is parsed, checked and frozen once
 * (with the core's `freezePatientChart` / `freezeDirectory`), and the same text read again gives the same
 * frozen record, which the builders do not check again (see the core's `freezeChartDocument`). Keyed by the
 * exact text of the row, so a row that changed is a new entry; bounded by the characters held, the least
 * recently used going first. A record that fails the check is returned as parsed, unfrozen and uncached: the
 * builders then report it (500), as for any source.
 */
import { freezeDirectory, freezePatientChart, type Patient } from '../index.js';

/** The record kinds, by the table they are stored in. */
export type RecordTable = 'patients' | 'encounters' | 'notes' | 'assessments' | 'medical_history' | 'organizations' | 'practitioners' | 'locations';

/** A patient that passes the check, to carry a lone record through `freezePatientChart`. */
const CARRIER: Patient = { id: 'carrier', identifiers: [{ system: 'urn:oid:1.2.3', value: 'carrier' }], names: [{ family: 'carrier' }] };

const CHART_FIELD: Readonly<Record<string, 'encounters' | 'notes' | 'assessments' | 'medicalHistory'>> = {
  encounters: 'encounters',
  notes: 'notes',
  assessments: 'assessments',
  medical_history: 'medicalHistory',
};

/** Check and freeze one record, or undefined when it fails the check. */
function freezeRecord(table: RecordTable, record: unknown): unknown {
  try {
    if (table === 'patients') return freezePatientChart({ patient: record as Patient }).patient;
    if (table === 'organizations' || table === 'practitioners' || table === 'locations') {
      return (freezeDirectory({ [table]: [record] }) as Record<string, unknown[]>)[table]?.[0];
    }
    const field = CHART_FIELD[table] as string;
    return (freezePatientChart({ patient: CARRIER, [field]: [record] } as never) as unknown as Record<string, unknown[]>)[field]?.[0];
  } catch {
    return undefined;
  }
}

/** The cache: `read(table, text)` gives the record of a row's JSON text. */
export interface RecordCache {
  read(table: RecordTable, text: string): unknown;
}

/**
 * Create a record cache holding at most `maxChars` characters of JSON text (0: no cache, every record parsed
 * and left to the builders' check).
 * @throws {SyntaxError} from `read` for text that is not JSON (a row written by someone else)
 */
export function createRecordCache(maxChars: number): RecordCache {
  const entries = new Map<string, unknown>();
  let held = 0;
  return {
    read(table, text) {
      if (maxChars === 0) return JSON.parse(text) as unknown;
      const key = `${table}\u0000${text}`;
      const hit = entries.get(key);
      if (hit !== undefined) {
        // Most recently used last: a Map keeps insertion order.
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const parsed = JSON.parse(text) as unknown;
      const frozen = freezeRecord(table, parsed);
      if (frozen === undefined || text.length > maxChars) return parsed;
      entries.set(key, frozen);
      held += key.length;
      for (const old of entries.keys()) {
        if (held <= maxChars) break;
        entries.delete(old);
        held -= old.length;
      }
      return frozen;
    },
  };
}
