/**
 * Which data sources serve only deep-frozen checked records (`freezeChartDocument` copies) from a document
 * fixed at creation, so that the same record object always holds the same data and refers to the same
 * directory records. The in-memory data source registers itself; the handler then may reuse what it derived
 * from those records (directory look-ups, HL7 and Bundle templates). A WeakSet: it keeps no source
 * alive. The helpers both reuses share (proof times, record identity) live here too.
 */
const frozenSources = new WeakSet<object>();

/**
 * Mark a data source whose every record is a deep-frozen checked copy and whose answers never change (the
 * in-memory source fixes its document at creation): the same question always gets the same record object.
 */
export function markFrozenSource(source: object): void {
  frozenSources.add(source);
}

/** Whether `source` was marked by {@link markFrozenSource}. */
export function isFrozenSource(source: unknown): boolean {
  return typeof source === 'object' && source !== null && frozenSources.has(source);
}

/**
 * Two export times other than any request's, at which the handler's reuse builds its proofs (an output that
 * differs between them in anything but the time-dependent fields is never reused).
 */
export const PROOF_TIMES: readonly [string, string] = ['2001-02-03T04:05:06.000Z', '2011-12-13T14:15:16.000Z'];

/**
 * Whether two lists hold the same records in the same order, by identity (frozen records: identity means
 * the same data).
 */
export function sameRecords(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
