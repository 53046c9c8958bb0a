/**
 * Which data sources serve only deep-frozen checked records (`freezeChartDocument` copies) from a document
 * fixed at creation, so that the same record object always holds the same data and refers to the same
 * directory records. The in-memory data source registers itself; the handler then may reuse what it derived
 * from those records (directory look-ups, HL7 templates, Bundle entry text). A WeakSet: it keeps no source
 * alive.
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
