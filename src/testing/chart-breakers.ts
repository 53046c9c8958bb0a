/**
 * Every chart breaker, and valid charts broken by one of them.
 */
import fc from 'fast-check';
import type { PatientChart } from '../index.js';
import { ASSESSMENT_BREAKERS } from './assessment-breakers.js';
import type { Broken, ChartBreaker } from './breakers.js';
import { arbPatientChart, type ChartOptions } from './charts.js';
import { RECORD_BREAKERS } from './record-breakers.js';

/**
 * Ways to break a valid chart, each in exactly one place. Records the breaker needs are added first when
 * the chart has none, so every breaker applies to every chart.
 */
export const CHART_BREAKERS: readonly ChartBreaker[] = [...RECORD_BREAKERS, ...ASSESSMENT_BREAKERS];

/**
 * A valid chart (from {@link arbPatientChart}) broken in exactly one place by one of {@link CHART_BREAKERS}.
 * @param opts - chart options
 */
export function arbBrokenPatientChart(opts: ChartOptions = {}): fc.Arbitrary<Broken<PatientChart>> {
  return fc.tuple(arbPatientChart(opts), fc.constantFrom(...CHART_BREAKERS)).map(([{ chart }, breaker]) => ({ ...breaker.apply(chart), name: breaker.name }));
}

