// The headline figures of the benchmarks: each benchmark prints its own as `SUMMARY\t<figure>\t<value>\t<target>`
// lines, and bench/run.mjs gathers them into one table at the end of `npm run bench`.

/**
 * Print one headline figure for the summary table.
 * @param {string} figure - what is measured, e.g. 'exportHl7Note adapter / bare node:http (req/s)'
 * @param {number} value - the measured value (a ratio, or milliseconds)
 * @param {string} target - the target as `≥ 0.75×`, `≤ 2.0×` or `≤ 50 ms` (`>=` and `<=` are read too)
 */
export function printSummary(figure, value, target) {
  console.log(`SUMMARY\t${figure}\t${Number(value).toFixed(2)}\t${target}`);
}

/**
 * Read a summary line.
 * @param {string} line - one line of a benchmark's output
 * @returns {{ figure: string, value: number, target: string, met: boolean | undefined } | undefined} the figure, or
 *   undefined for any other line; `met` is undefined when the target names no comparison
 */
export function readSummary(line) {
  if (!line.startsWith('SUMMARY\t')) return undefined;
  const [, figure = '', value = '', target = ''] = line.split('\t');
  const v = Number.parseFloat(value);
  const m = /^\s*(≥|>=|≤|<=)\s*([0-9.]+)/.exec(target);
  const bound = m === null ? undefined : Number.parseFloat(m[2]);
  const met = m === null || Number.isNaN(v) ? undefined : m[1] === '≥' || m[1] === '>=' ? v >= bound : v <= bound;
  return { figure, value: v, target, met };
}
