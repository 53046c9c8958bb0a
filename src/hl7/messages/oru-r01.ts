/**
 * ORU^R01 (unsolicited observation result), structure ORU_R01: one assessment.
 */
import { requireIdArgument } from '../../internal/args.js';
import { hasText } from '../../internal/text.js';
import { ChartNotFoundError, type IssuePath } from '../../errors.js';
import type { Assessment } from '../../model/assessment.js';
import type { PatientChart } from '../../model/chart.js';
import type { MessageContext } from '../internal/message-context.js';
import { buildNte } from '../segments/nte.js';
import { buildObr } from '../segments/obr.js';
import { buildAnswerObx, buildScoreObx } from '../segments/obx.js';
import { buildPid } from '../segments/pid.js';
import { assembleMessage } from './assemble-message.js';
import { prepareMessage, type Hl7MessageOptions } from './prepare-message.js';
import { visitSegment } from './mdm-t02.js';

/**
 * The OBX segments of an assessment (one per answer, in answer order, then the score as NM) and the NTE of
 * the score interpretation, numbered from `firstSetId`.
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param assessment - the assessment
 * @param firstSetId - OBX-1 of the first OBX
 * @param path - where the assessment is in the input
 * @param subId - OBX-4, or ''
 * @returns the segments
 * @throws MappingError when a code or identifier does not fit its field after escaping, or the assessment has
 *   more than 9 998 answers (OBX-1 is an SI set id of at most 9 999)
 * @example assessmentObservations(ctx, assessment, 1, ['assessments', 0]).length // answers + score + NTE
 */
export function assessmentObservations(ctx: MessageContext, assessment: Assessment, firstSetId: number, path: IssuePath, subId = ''): string[] {
  const items = new Map((assessment.instrument.items ?? []).map((item) => [item.linkId, item]));
  const out: string[] = [];
  let setId = firstSetId;
  assessment.answers.forEach((answer, i) => {
    out.push(buildAnswerObx(ctx, setId++, answer, items.get(answer.linkId), assessment, [...path, 'answers', i], subId));
  });
  const score = buildScoreObx(ctx, setId, assessment, path, subId);
  if (score !== '') {
    out.push(score);
    const interpretation = assessment.score?.interpretation;
    if (hasText(interpretation)) out.push(buildNte(1, interpretation));
  }
  return out;
}

/**
 * Build an ORU^R01 message (MSH-9 `ORU^R01^ORU_R01`) for one assessment: MSH PID PV1 OBR OBX… [NTE]. OBR-4
 * is the instrument, one OBX per answered item (value type by answer type), then an NM OBX for the total
 * score with an NTE for its interpretation (NTE is allowed after OBX in the OBSERVATION group).
 *
 * @param chart - the patient's chart; checked with `validatePatientChart` first
 * @param assessmentId - the chart id of the assessment
 * @param options - header values, clock, control id (must begin with `ORU`), line ending, directory
 * @returns the message text, every segment ended by `\r` (or the `lineEnding` option)
 * @throws ChartValidationError when the chart (or `options.directory`) is invalid
 * @throws ChartNotFoundError (`assessment`) when the chart has no assessment with that id
 * @throws InvalidArgumentError when an option is invalid or the id is not a string
 * @throws MappingError when a code or identifier does not fit its field after escaping, or the assessment has
 *   more than 9 998 answers (OBX-1 is an SI set id of at most 9 999)
 * @see HL7 v2.5.1 chapter 7, ORU^R01 / ORU_R01
 * @example buildOruR01(chart, 'asmt-0001', { now: '2026-03-01T10:30:00-05:00', controlId: 'ORU0001' })
 */
export function buildOruR01(chart: PatientChart, assessmentId: string, options?: Hl7MessageOptions): string {
  requireIdArgument('assessmentId', assessmentId);
  const p = prepareMessage(chart, options, 'ORU');
  const ctx = p.ctx;
  const assessments = p.chart.assessments ?? [];
  const index = assessments.findIndex((a) => a.id === assessmentId);
  const assessment = assessments[index];
  if (assessment === undefined) throw new ChartNotFoundError('assessment');
  const path = ['assessments', index];
  const segments = [
    buildPid(p.chart.patient),
    visitSegment(ctx, p.chart, assessment.encounterId),
    buildObr(assessment, path),
    ...assessmentObservations(ctx, assessment, 1, path),
  ];
  return assembleMessage(p, ['ORU', 'R01', 'ORU_R01'], segments);
}
