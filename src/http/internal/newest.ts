/**
 * Newest-first ordering of chart records for the in-memory data source. The core keeps its own sort key
 * internal, and this adapter imports the core only through its public API, so the small rule lives here too:
 * the instant a date or date-time denotes (dates as their first instant in UTC), compared exactly (all four
 * fraction digits, a leap second after second 59), unknown dates last.
 */

// The chart's ISO profile: YYYY | YYYY-MM | YYYY-MM-DD | YYYY-MM-DDThh:mm:ss[.f{1,4}](Z|±hh:mm).
const ISO_RE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/**
 * The order key of an ISO date or date-time: 61 seconds a minute (so a leap second `:60` lies after `:59`
 * and before the next minute), each of 10 000 steps (the profile's four fraction digits), a safe integer
 * for years 0001–9999. Only its order means something. `-Infinity` when absent or not in the profile, so
 * such records sort last.
 * @param value - an ISO 8601 date or date-time, or undefined
 */
export function orderKeyOf(value: string | undefined): number {
  if (value === undefined) return Number.NEGATIVE_INFINITY;
  const m = ISO_RE.exec(value);
  if (m === null) return Number.NEGATIVE_INFINITY;
  const [, y, mo, d, h, mi, s, f, tz] = m;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  date.setUTCFullYear(Number(y), mo === undefined ? 0 : Number(mo) - 1, d === undefined ? 1 : Number(d));
  const dayMs = date.getTime();
  if (Number.isNaN(dayMs)) return Number.NEGATIVE_INFINITY;
  let minutes = dayMs / 60_000 + (h === undefined ? 0 : Number(h) * 60 + Number(mi));
  if (tz !== undefined && tz !== 'Z') {
    const sign = tz[0] === '-' ? -1 : 1;
    minutes -= sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)));
  }
  return (minutes * 61 + (s === undefined ? 0 : Number(s))) * 10_000 + (f === undefined ? 0 : Number(f.padEnd(4, '0').slice(0, 4)));
}

/**
 * Sort records newest first by one or two date keys, keeping input order among equals (the sort is stable).
 * @param records - the records (not modified)
 * @param keys - the date(s) of a record, most significant first
 * @returns a new array, newest first
 */
export function newestFirst<T>(records: readonly T[], keys: (record: T) => readonly (string | undefined)[]): T[] {
  const keyed = records.map((record) => ({ record, k: keys(record).map(orderKeyOf) }));
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
