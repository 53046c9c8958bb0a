/**
 * The records of a data source that are not frozen, checked as they are read, one at a time, with the event loop
 * given back between them. A host's source hands out fresh records, so every export would check each one again,
 * in one synchronous stretch with the build (a patient at the accepted maximum of every text field takes tens
 * of milliseconds to check). Read through this wrapper, each record is checked on its own and replaced by a
 * deep-frozen checked copy (`freezeChartRecord`), which the builders do not walk again: the check is paced per
 * record, and the build that follows holds the loop only for what it writes.
 *
 * A record that fails its check is passed on as given, so the builder's own check reports it exactly as before
 * (the same `ChartValidationError`, the same issues in the same order). The checks that span records (unique
 * ids, references) still run in the builder. With `stableRecords` (the source gives the same deep-frozen object
 * for the same row), each frozen record's copy is kept beside it, so it is checked once and output reuse still
 * finds it; a record that is not frozen gets a new copy on every read, so it is built afresh as before.
 */
import { freezeChartRecord, type ChartRecordKind } from '../../index.js';
import { giveBack } from '../../internal/adapter.js';
import type { ChartDataSource } from '../data-source.js';

/** The record kind each read gives (the page methods and `ping` pass through). */
const READS: Readonly<Record<string, ChartRecordKind>> = {
  getPatient: 'patient',
  getEncounter: 'encounter',
  getNote: 'note',
  getAssessment: 'assessment',
  getMedicalHistoryEntry: 'medicalHistory',
  listEncounters: 'encounter',
  listNotes: 'note',
  listAssessments: 'assessment',
  listMedicalHistory: 'medicalHistory',
  getOrganization: 'organization',
  getPractitioner: 'practitioner',
  getLocation: 'location',
  listOrganizations: 'organization',
  listPractitioners: 'practitioner',
  listLocations: 'location',
};

/** The check time (ms) after which the reads give the event loop back before they go on. */
const CHECK_HOLD_MS = 10;

/** The runtime's monotonic clock (only for pacing). */
const clock = (): number => performance.now();

/**
 * Wrap a guarded data source (every method returns a promise) so that its records come out checked and frozen.
 * The checks of all reads run one after the other (a queue), so reads that settle together do not check their
 * records in one stretch; once the checks since the last give-back have taken {@link CHECK_HOLD_MS}, the next
 * step waits for a turn of the event loop (a small record costs no turn at all). An answer whose records all
 * have a kept copy (a stable source's records read before) skips the queue: it is answered from the copies.
 * @param source - the guarded source
 * @param stableRecords - whether the source gives the same deep-frozen object for the same record
 * @returns the wrapped source (same methods and answers, each record that passes its check replaced by its frozen copy)
 * @example const dataSource = checkedReads(guardDataSource(options.dataSource), false);
 */
export function checkedReads(source: ChartDataSource, stableRecords: boolean): ChartDataSource {
  const copies = new WeakMap<object, unknown>();
  let spent = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const freeze = (kind: ChartRecordKind, record: unknown): unknown => {
    if (typeof record !== 'object' || record === null) return record;
    // Only a frozen record of a stable source can be the same record next time (else it is built afresh).
    const keep = stableRecords && Object.isFrozen(record);
    if (keep) {
      const kept = copies.get(record);
      if (kept !== undefined) return kept;
    }
    let copy: unknown;
    try {
      copy = freezeChartRecord(kind, record);
    } catch {
      // The record fails its check (or a getter throws): passed on as given, the builder reports it as before.
      copy = record;
    }
    if (keep) copies.set(record, copy);
    return copy;
  };
  /** Check one answer's records in the queue, giving the loop back whenever the checks have held it long enough. */
  const check = (kind: ChartRecordKind, answer: unknown): Promise<unknown> => {
    const step = (record: unknown): unknown => {
      const t = clock();
      const out = freeze(kind, record);
      spent += clock() - t;
      return out;
    };
    const pause = async (): Promise<void> => {
      await giveBack();
      spent = 0;
    };
    // Awaits only to give the loop back: a turn of the microtask queue per record would cost more than the copy.
    const job = queue.then(async () => {
      if (!Array.isArray(answer)) {
        const out = step(answer);
        if (spent >= CHECK_HOLD_MS) await pause();
        return out;
      }
      const out: unknown[] = [];
      for (const record of answer) {
        out.push(step(record));
        if (spent >= CHECK_HOLD_MS) await pause();
      }
      return out;
    });
    queue = job.catch(() => undefined);
    return job;
  };
  /**
   * The answer with every record replaced by its kept copy, when each record of it has one (a stable source's
   * records read before): no check and no turn of the queue. Else `undefined`, and the answer goes to the queue.
   */
  const keptAnswer = (answer: object): unknown => {
    if (!Array.isArray(answer)) return copies.get(answer);
    const out: unknown[] = [];
    for (const record of answer) {
      const kept = typeof record === 'object' && record !== null ? copies.get(record) : undefined;
      if (kept === undefined) return undefined;
      out.push(kept);
    }
    return out;
  };
  const settle = (kind: ChartRecordKind, answer: unknown): unknown => {
    if (typeof answer !== 'object' || answer === null) return answer;
    if (!stableRecords) return check(kind, answer);
    const kept = keptAnswer(answer);
    return kept === undefined ? check(kind, answer) : kept;
  };
  const wrapped: Record<string, unknown> = { ...source };
  for (const [method, kind] of Object.entries(READS)) {
    const read = (source as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method];
    if (typeof read !== 'function') continue;
    wrapped[method] = (...args: unknown[]): Promise<unknown> => read.apply(source, args).then((answer) => settle(kind, answer));
  }
  return wrapped as unknown as ChartDataSource;
}
