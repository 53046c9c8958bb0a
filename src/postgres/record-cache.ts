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

/** A kept record: its table, and the count of keeps when it was last moved to the recent end. */
interface Entry {
  readonly table: RecordTable;
  readonly record: unknown;
  stamp: number;
}

/**
 * Create a record cache holding at most `maxChars` characters of JSON text (0: no cache, every record parsed
 * and left to the builders' check).
 *
 * Keyed by the row's text itself (a table's record of the same text as another table's is parsed afresh). A
 * hit moves its entry to the recent end only when at least half the entries were kept since it last moved,
 * so a hit on a recent entry costs one lookup, and an entry read again within that many keeps stays ahead
 * of every entry that was not.
 * @throws {SyntaxError} from `read` for text that is not JSON (a row written by someone else)
 */
export function createRecordCache(maxChars: number): RecordCache {
  const entries = new Map<string, Entry>();
  let held = 0;
  let keeps = 0;
  const keep = (text: string, entry: Entry): void => {
    entry.stamp = ++keeps;
    entries.set(text, entry);
  };
  return {
    read(table, text) {
      if (maxChars === 0) return JSON.parse(text) as unknown;
      const hit = entries.get(text);
      if (hit !== undefined && hit.table === table) {
        if (keeps - hit.stamp >= entries.size / 2) {
          // Most recently used last: a Map keeps insertion order.
          entries.delete(text);
          keep(text, hit);
        }
        return hit.record;
      }
      const parsed = JSON.parse(text) as unknown;
      const frozen = freezeRecord(table, parsed);
      if (frozen === undefined || text.length > maxChars || hit !== undefined) return parsed;
      keep(text, { table, record: frozen, stamp: 0 });
      held += text.length;
      for (const old of entries.keys()) {
        if (held <= maxChars) break;
        entries.delete(old);
        held -= old.length;
      }
      return frozen;
    },
  };
}
