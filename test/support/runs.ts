/**
 * How many runs a property gets: `runs(n)` is `n` times the factor in `CHART_EXPORT_PROPERTY_RUNS` (default 1).
 * `npm run test:deep` (vitest.deep.config.ts) sets the factor to 20, so every property of the suite runs twenty
 * times as often; `npm test` keeps the counts written in the tests. A failing property prints its seed and path
 * (fast-check's report), which `fc.assert(…, { seed, path })` replays.
 * @param n - the runs of the property in the ordinary suite
 * @returns the runs for this session, at least 1
 * @example fc.assert(property, { numRuns: runs(200) })
 */
export function runs(n: number): number {
  const raw = process.env['CHART_EXPORT_PROPERTY_RUNS'];
  const factor = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!Number.isFinite(factor) || factor <= 0) throw new Error(`CHART_EXPORT_PROPERTY_RUNS must be a positive number, not ${JSON.stringify(raw)}`);
  return Math.max(1, Math.round(n * factor));
}
