/**
 * Which data sources serve only deep-frozen checked records (`freezeChartDocument` copies), so that the same
 * record object always holds the same data. The in-memory data source registers itself; the handler then may
 * reuse output built from those records (see hl7-template.ts). A WeakSet: it keeps no source alive.
 */
const frozenSources = new WeakSet<object>();

/** Mark a data source whose every record is a deep-frozen checked copy that never changes. */
export function markFrozenSource(source: object): void {
  frozenSources.add(source);
}

/** Whether `source` was marked by {@link markFrozenSource}. */
export function isFrozenSource(source: unknown): boolean {
  return typeof source === 'object' && source !== null && frozenSources.has(source);
}
