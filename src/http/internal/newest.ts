/**
 * Newest-first ordering of chart records for the in-memory data source, by the core's exact order key of
 * ISO dates and date-times (`isoOrderKey`: offsets applied, all four fraction digits, a leap second after
 * second 59, dates as their first instant in UTC, unknown dates last).
 */
import { isoOrderKey } from '../../internal/adapter.js';

/**
 * Sort records newest first by one or two date keys, keeping input order among equals (the sort is stable).
 * @param records - the records (not modified)
 * @param keys - the date(s) of a record, most significant first
 * @returns a new array, newest first
 */
export function newestFirst<T>(records: readonly T[], keys: (record: T) => readonly (string | undefined)[]): T[] {
  const keyed = records.map((record) => ({ record, k: keys(record).map(isoOrderKey) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.k.length; i++) {
      const x = a.k[i] as number;
      const y = b.k[i] as number;
      if (x !== y) return x > y ? -1 : 1;
    }
    return 0;
  });
  return keyed.map((e) => e.record);
}
