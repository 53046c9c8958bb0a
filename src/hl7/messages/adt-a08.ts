/**
 * ADT^A08 (update patient information), structure ADT_A01: one encounter with its diagnoses and procedures.
 */
import { requireIdArgument } from '../../internal/args.js';
import { ChartNotFoundError } from '../../errors.js';
import type { PatientChart } from '../../model/chart.js';
import { buildDg1 } from '../segments/dg1.js';
import { buildEvn } from '../segments/evn.js';
import { buildPid } from '../segments/pid.js';
import { buildPr1 } from '../segments/pr1.js';
import { buildPv1 } from '../segments/pv1.js';
import { coverageSegments } from './adt-a31.js';
import { assembleMessage } from './assemble-message.js';
import { prepareMessage, type Hl7MessageOptions } from './prepare-message.js';

/**
 * Build an ADT^A08 message (MSH-9 `ADT^A08^ADT_A01`) for one encounter: MSH EVN PID PV1 [DG1…] [PR1…]
 * [IN1…]. DG1 per diagnosis (chart order, principal first), PR1 per procedure (each its own PROCEDURE
 * group), IN1 per coverage (entered-in-error ones left out).
 *
 * @param chart - the patient's chart; checked with `validatePatientChart` first
 * @param encounterId - the chart id of the encounter
 * @param options - header values, clock, control id, line ending, directory
 * @returns the message text, every segment ended by `\r` (or the `lineEnding` option)
 * @throws ChartValidationError when the chart (or `options.directory`) is invalid
 * @throws ChartNotFoundError (`encounter`) when the chart has no encounter with that id
 * @throws InvalidArgumentError when an option is invalid or the id is not a string
 * @throws MappingError when a procedure has no date for PR1-5 and its encounter no start, an identifier
 *   or code does not fit its field after escaping, or there are more than 9 999 diagnoses, procedures or
 *   coverages (DG1-1, PR1-1, IN1-1 are SI set ids)
 * @see HL7 v2.5.1 chapter 3, ADT^A08 / ADT_A01
 * @example buildAdtA08(chart, 'enc-0001', { now: '2026-03-01T09:30:00-05:00' })
 */
export function buildAdtA08(chart: PatientChart, encounterId: string, options?: Hl7MessageOptions): string {
  requireIdArgument('encounterId', encounterId);
  const p = prepareMessage(chart, options, 'ADT');
  const ctx = p.ctx;
  const encounters = p.chart.encounters ?? [];
  const index = encounters.findIndex((e) => e.id === encounterId);
  const encounter = encounters[index];
  if (encounter === undefined) throw new ChartNotFoundError('encounter');
  const path = ['encounters', index];
  const segments = [buildEvn('A08', p.now), buildPid(p.chart.patient), buildPv1(ctx, encounter, 1, path)];
  (encounter.diagnoses ?? []).forEach((d, i) => segments.push(buildDg1(i + 1, d, [...path, 'diagnoses', i])));
  (encounter.procedures ?? []).forEach((pr, i) => segments.push(buildPr1(ctx, i + 1, pr, encounter, [...path, 'procedures', i])));
  segments.push(...coverageSegments(p.chart.patient.coverages));
  return assembleMessage(p, ['ADT', 'A08', 'ADT_A01'], segments);
}
