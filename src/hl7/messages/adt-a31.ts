/**
 * ADT^A31 (update person information), structure ADT_A05: the patient's demographics and coverage.
 */
import type { PatientChart } from '../../model/chart.js';
import type { Coverage } from '../../model/patient.js';
import { buildEvn } from '../segments/evn.js';
import { buildIn1 } from '../segments/in1.js';
import { buildPid } from '../segments/pid.js';
import { buildPv1NotApplicable } from '../segments/pv1.js';
import { assembleMessage } from './assemble-message.js';
import { prepareMessage, type Hl7MessageOptions } from './prepare-message.js';

/**
 * IN1 segments for the patient's coverages, in chart order (primary first), leaving out entered-in-error
 * ones (IN1 has no status to mark them).
 * @param coverages - the patient's coverages
 * @returns the IN1 segments, set ids from 1
 * @throws MappingError when an identifier does not fit its field after escaping
 * @example coverageSegments(chart.patient.coverages) // ['IN1|1|GOLD-PPO^Gold PPO|…']
 */
export function coverageSegments(coverages: readonly Coverage[] | undefined): string[] {
  const out: string[] = [];
  (coverages ?? []).forEach((c, i) => {
    if (c.status !== 'entered-in-error') out.push(buildIn1(out.length + 1, c, ['patient', 'coverages', i]));
  });
  return out;
}

/**
 * Build an ADT^A31 message (MSH-9 `ADT^A31^ADT_A05`): MSH EVN PID PV1 [IN1…]. PV1 is required by ADT_A05
 * but a demographics export has no visit, so it is `PV1|1|N` (patient class "not applicable").
 *
 * @param chart - the patient's chart; checked with `validatePatientChart` first
 * @param options - header values, clock, control id, line ending, directory
 * @returns the message text, every segment ended by `\r` (or the `lineEnding` option)
 * @throws ChartValidationError when the chart (or `options.directory`) is invalid
 * @throws InvalidArgumentError when an option is invalid
 * @throws MappingError when an identifier or code does not fit its field after escaping, or there are more
 *   than 9 999 coverages (IN1-1 is an SI set id)
 * @see HL7 v2.5.1 chapter 3, ADT^A31 / ADT_A05
 * @example buildAdtA31(chart, { now: '2026-03-01T09:30:00-05:00', controlId: 'ADT0001' }).split('\r')[0]
 *   // 'MSH|^~\\&|||||20260301093000-0500||ADT^A31^ADT_A05|ADT0001|P|2.5.1'
 */
export function buildAdtA31(chart: PatientChart, options?: Hl7MessageOptions): string {
  const p = prepareMessage(chart, options, 'ADT');
  const segments = [buildEvn('A31', p.now), buildPid(p.chart.patient), buildPv1NotApplicable(), ...coverageSegments(p.chart.patient.coverages)];
  return assembleMessage(p, ['ADT', 'A31', 'ADT_A05'], segments);
}
