/**
 * Fixed realistic fixtures from the demo chart document (`examples/data/demo-chart.json`), for example
 * tests that need exact, readable input.
 */
import { readFileSync } from 'node:fs';
import type { ChartDocument } from '../../src/index.js';
import type { ChartWithDirectory } from '../../src/testing/index.js';

const DEMO_URL = new URL('../../examples/data/demo-chart.json', import.meta.url);
let demoText: string | undefined;

/**
 * The demo chart document, freshly parsed (callers may mutate it).
 * @returns 24 patients' charts and the shared directory
 */
export function demoChartDocument(): ChartDocument {
  demoText ??= readFileSync(DEMO_URL, 'utf8');
  return JSON.parse(demoText) as ChartDocument;
}

/**
 * One realistic patient's chart from the demo document, with the directory its references resolve to.
 * Patient 0 (`pat-0001`, Mary Anne O'Brien) has office visits, PHQ-9 and GAD-7, progress notes and
 * history; patient 5 (`pat-0006`) an inpatient stay across a daylight-saving change with a discharge
 * summary; patient 10 (`pat-0011`) an emergency visit.
 * @param index - the patient's position in the document (0–23)
 * @returns `{ chart, directory }`
 * @throws {RangeError} when there is no such patient
 */
export function realisticPatientChart(index = 0): ChartWithDirectory {
  const doc = demoChartDocument();
  const chart = doc.patients[index];
  if (chart === undefined) throw new RangeError(`the demo document has ${doc.patients.length} patients`);
  return { chart, directory: doc.directory ?? {} };
}
