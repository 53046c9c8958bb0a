/**
 * ADR^A19 (patient query response), structure ADR_A19: the longitudinal patient summary.
 */
import { InvalidArgumentError, MappingError, type IssuePath } from '../../errors.js';
import type { Assessment } from '../../model/assessment.js';
import type { PatientChart } from '../../model/chart.js';
import type { Encounter } from '../../model/encounter.js';
import type { MedicalHistoryEntry } from '../../model/history.js';
import type { ClinicalNote } from '../../model/note.js';
import { isoOrderKey } from '../../internal/iso.js';
import { hasText } from '../../internal/text.js';
import { fitId } from '../internal/fit.js';
import { buildDg1, buildHistoryDg1 } from '../segments/dg1.js';
import { buildMsa } from '../segments/msa.js';
import { instrumentCe } from '../segments/obr.js';
import { buildAnswerObx, buildInterpretationObx, buildNoteObx, buildPanelObx, buildScoreObx, OBX_SUB_ID_MAX } from '../segments/obx.js';
import { buildPid } from '../segments/pid.js';
import { buildPr1 } from '../segments/pr1.js';
import { buildPv1, buildPv1NotApplicable, buildPv1Reference } from '../segments/pv1.js';
import { buildQrd, QRD_QUERY_ID_MAX } from '../segments/qrd.js';
import { coverageSegments } from './adt-a31.js';
import { assembleMessage } from './assemble-message.js';
import { prepareMessage, type Hl7MessageOptions, type PreparedMessage } from './prepare-message.js';
import { SI_MAX } from '../internal/set-id.js';
import { esc } from '../internal/standard-escape.js';
import type { MessageContext } from '../internal/message-context.js';

/** Options of {@link buildAdrA19}. */
export interface Hl7SummaryOptions extends Hl7MessageOptions {
  /**
   * The most records to include, newest first, counting encounters, notes, assessments and medical-history
   * entries together (diagnoses and procedures ride with their encounter). QRD-7 carries it. Default: all.
   */
  limit?: number | undefined;
  /**
   * QRD-4 query id (at most 10 characters after escaping), also MSA-2. Default: the last 10 characters of
   * the message control id for QRD-4, the control id for MSA-2.
   */
  queryId?: string | undefined;
}

/** One record of the summary, with what ordering and grouping need. */
type SummaryRecord =
  | { kind: 'encounter'; key: number; index: number; value: Encounter }
  | { kind: 'note'; key: number; index: number; value: ClinicalNote }
  | { kind: 'assessment'; key: number; index: number; value: Assessment }
  | { kind: 'history'; key: number; onsetKey: number; index: number; value: MedicalHistoryEntry };

/**
 * Every record of the chart, newest first: encounters by `period.start`, notes and assessments by
 * `authored`, medical-history entries by `recordedDate`, then (between entries of the same `recordedDate`)
 * `onset`, the order of the FHIR Bundle's `medicalHistory` limit and of `ChartDataSource.listMedicalHistory`.
 * Records without a date come last; ties keep the order encounters, notes, assessments, history, each in
 * chart order.
 * @param chart - the checked chart
 * @returns the records with their kind, sort key and index in the chart
 * @example summaryRecords(chart).map((r) => r.kind) // ['note', 'assessment', 'encounter', 'history']
 */
export function summaryRecords(chart: PatientChart): SummaryRecord[] {
  const all: SummaryRecord[] = [
    ...(chart.encounters ?? []).map((value, index): SummaryRecord => ({ kind: 'encounter', key: isoOrderKey(value.period?.start), index, value })),
    ...(chart.notes ?? []).map((value, index): SummaryRecord => ({ kind: 'note', key: isoOrderKey(value.authored), index, value })),
    ...(chart.assessments ?? []).map((value, index): SummaryRecord => ({ kind: 'assessment', key: isoOrderKey(value.authored), index, value })),
    ...(chart.medicalHistory ?? []).map(
      (value, index): SummaryRecord => ({ kind: 'history', key: isoOrderKey(value.recordedDate), onsetKey: isoOrderKey(value.onset), index, value }),
    ),
  ];
  // Array.prototype.sort is stable, so equal keys keep the order above. Among equal keys, history entries
  // (which come after every other kind) are ordered by onset: each kind then keeps its own newest-first order,
  // so the newest `limit` overall lie within the newest `limit` of each kind (what the HTTP summary reads).
  return all.sort((a, b) => {
    if (a.key !== b.key) return a.key > b.key ? -1 : 1;
    if (a.kind === 'history' && b.kind === 'history') return a.onsetKey === b.onsetKey ? 0 : a.onsetKey > b.onsetKey ? -1 : 1;
    // History after the other kinds, as they stand above (a comparator that says so keeps the order consistent).
    return a.kind === 'history' ? 1 : b.kind === 'history' ? -1 : 0;
  });
}

/** One QUERY_RESPONSE group: a visit and what rides with it. */
export interface Group {
  /** The encounter record, an encounter id known only by reference, or nothing (records without encounter). */
  readonly visit: { kind: 'encounter'; record: SummaryRecord & { kind: 'encounter' } } | { kind: 'reference'; id: string } | { kind: 'none' };
  readonly observations: (SummaryRecord & { kind: 'note' | 'assessment' })[];
  readonly history: (SummaryRecord & { kind: 'history' })[];
}

function checkLimit(limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new InvalidArgumentError('options.limit', 'must be a non-negative integer');
  }
  return limit;
}

/**
 * The last `max` characters of escaped text, dropping leading characters until it holds no cut escape
 * sequence (an odd number of backslashes) and does not start with the second half of a surrogate pair.
 */
function tailOfEscaped(escaped: string, max: number): string {
  let s = escaped.slice(-max);
  for (;;) {
    const first = s.charCodeAt(0);
    if ((s.match(/\\/g)?.length ?? 0) % 2 === 1 || (first >= 0xdc00 && first <= 0xdfff)) s = s.slice(1);
    else return s;
  }
}

/**
 * QRD-4 query id: the option escaped (at most 10 characters), or the last 10 characters of the control id.
 * @param queryId - the `queryId` option
 * @param controlId - MSH-10, encoded
 * @returns the encoded query id
 * @throws InvalidArgumentError when the option is empty, not a string, or too long after escaping
 * @example checkQueryId(undefined, 'ADR0123456789ABCDEF') // '6789ABCDEF'
 */
function checkQueryId(queryId: unknown, controlId: string): string {
  if (queryId === undefined) return tailOfEscaped(controlId, QRD_QUERY_ID_MAX);
  if (typeof queryId !== 'string' || queryId === '') throw new InvalidArgumentError('options.queryId', 'must be a non-empty string');
  const encoded = esc(queryId);
  if (encoded.length > QRD_QUERY_ID_MAX) throw new InvalidArgumentError('options.queryId', `must fit QRD-4's ${QRD_QUERY_ID_MAX} characters after escaping`);
  return encoded;
}

/**
 * The QUERY_RESPONSE groups of the selected records: one per included encounter (newest first), one per
 * encounter that records refer to but that is not included, then one for records without encounter (always
 * present when there is no other group).
 * @param selected - the records, newest first
 * @returns the groups, in message order
 * @example groupRecords(summaryRecords(chart)).length // encounters + referenced-only encounters (+ 1)
 */
function groupRecords(selected: readonly SummaryRecord[]): Group[] {
  const encounterGroups = new Map<string, Group>();
  const referenceGroups = new Map<string, Group>();
  const none: Group = { visit: { kind: 'none' }, observations: [], history: [] };
  for (const r of selected) {
    if (r.kind === 'encounter') encounterGroups.set(r.value.id, { visit: { kind: 'encounter', record: r }, observations: [], history: [] });
  }
  for (const r of selected) {
    if (r.kind === 'encounter') continue;
    if (r.kind === 'history') {
      none.history.push(r);
      continue;
    }
    const encounterId = r.value.encounterId;
    if (encounterId === undefined) {
      none.observations.push(r);
      continue;
    }
    let group = encounterGroups.get(encounterId) ?? referenceGroups.get(encounterId);
    if (group === undefined) {
      group = { visit: { kind: 'reference', id: encounterId }, observations: [], history: [] };
      referenceGroups.set(encounterId, group);
    }
    group.observations.push(r);
  }
  const groups = [...encounterGroups.values(), ...referenceGroups.values()];
  if (none.observations.length > 0 || none.history.length > 0 || groups.length === 0) groups.push(none);
  return groups;
}

/**
 * Build an ADR^A19 message (MSH-9 `ADR^A19^ADR_A19`), the longitudinal summary:
 * MSH MSA QRD { PID PV1 [OBX…] [DG1…] [PR1…] [IN1…] }.
 *
 * - MSA-1 `AA`, MSA-2 the query id (or the control id); QRD-1 the export time, QRD-2 `R`, QRD-3 `I`, QRD-4 the
 *   query id, QRD-7 `<limit>^RD` (or the number of records sent), QRD-8 the patient's primary identifier and
 *   first name, QRD-9 `DEM^Demographics^HL70048`, QRD-10 `^Patient summary`.
 * - One QUERY_RESPONSE group per encounter, newest first (PV1 of the encounter, its diagnoses as DG1, its
 *   procedures as PR1); a group per encounter that records refer to but that is not included (limit) or not
 *   in the chart (PV1 class U with the id as visit number); then one group for records without encounter
 *   (`PV1|n|N`, medical-history entries as DG1). Every group repeats the PID (PID-1 / PV1-1 number the groups).
 * - Notes ride as OBX TX (as in MDM^T02). An assessment rides as a CE OBX whose OBX-3 and value (OBX-5) are
 *   the instrument (in place of ORU's OBR-4; OBX-2 must be valued unless OBX-11 is X), then its answer OBX (as in ORU^R01, with the instrument also in
 *   OBX-17, observation method), the score, and the score interpretation as an ST OBX (QUERY_RESPONSE allows
 *   no NTE). OBX-4 (sub-id) holds the note or assessment id, so the OBX of one record can be told apart (ids
 *   longer than 20 characters after escaping in the derived form).
 * - Coverages (IN1) ride in the first group only.
 * - The segment order within a group is the standard's: OBX before DG1 before PR1 before IN1 (v2.5.1 chapter 3,
 *   ADR_A19 QUERY_RESPONSE).
 *
 * @param chart - the patient's chart; checked with `validatePatientChart` first
 * @param options - header values, clock, control id (must begin with `ADR`), line ending, directory, `limit`,
 *   `queryId`
 * @returns the message text, every segment ended by `\r` (or the `lineEnding` option)
 * @throws ChartValidationError when the chart (or `options.directory`) is invalid
 * @throws InvalidArgumentError when an option is invalid (`limit` not a non-negative integer, `queryId` too long)
 * @throws MappingError when a procedure has no date for PR1-5, an identifier or code does not fit its field, or a
 *   set id would exceed 9 999 (more groups, or more OBX, DG1 or PR1 in one group, than SI holds)
 * @see HL7 v2.5.1 chapter 3, ADR^A19 / ADR_A19
 * @example buildAdrA19(chart, { limit: 10, queryId: 'Q1', now: '2026-03-01T10:30:00-05:00' })
 */
export function buildAdrA19(chart: PatientChart, options?: Hl7SummaryOptions): string {
  const plan = planAdrA19(chart, options);
  const le = plan.p.lineEnding;
  // Each group's segments are joined into one flat text (its segments, separated by the line ending) as soon as
  // the group is written: the engine then keeps one string per group until the message is put together, not a
  // rope of every value of every segment, which a message of thousands of segments kept for the garbage collector
  // to copy again and again. The message text is the same.
  const texts: string[] = [...plan.head];
  let segments: string[] = [];
  for (const unit of adrA19Units(plan)) {
    if (unit === GROUP_END) {
      texts.push(segments.join(le));
      segments = [];
    } else for (const s of unit) segments.push(s);
  }
  return assembleMessage(plan.p, ADR_A19_TYPE, texts);
}

/** MSH-9 of ADR^A19. */
export const ADR_A19_TYPE: readonly [string, string, string] = ['ADR', 'A19', 'ADR_A19'];

/** What an ADR^A19 is written from, after every check that can fail before the first segment. */
export interface AdrA19Plan {
  readonly p: PreparedMessage;
  /** MSA and QRD. */
  readonly head: readonly string[];
  readonly groups: readonly Group[];
  /** The coverages' IN1, which ride in the first group. */
  readonly coverages: readonly string[];
}

/**
 * Check the chart and options of an ADR^A19 and plan its groups: everything {@link buildAdrA19} throws before it
 * writes the first group (chart, options, too many groups) is thrown here.
 * @param chart - the patient's chart
 * @param options - the builder's options
 * @returns the prepared header values, MSA and QRD, and the groups
 * @throws ChartValidationError, InvalidArgumentError, MappingError as {@link buildAdrA19}
 * @example planAdrA19(chart, { limit: 10 }).groups.length
 */
export function planAdrA19(chart: PatientChart, options?: Hl7SummaryOptions): AdrA19Plan {
  const p = prepareMessage(chart, options, 'ADR');
  const limit = checkLimit(options?.limit);
  const queryId = checkQueryId(options?.queryId, p.controlId);
  const c = p.chart;
  const records = summaryRecords(c);
  const selected = limit === undefined ? records : records.slice(0, limit);
  const groups = groupRecords(selected);
  if (groups.length > SI_MAX) {
    // PID-1 and PV1-1 number the QUERY_RESPONSE groups (SI, 4 digits): more groups need a lower limit.
    throw new MappingError(['encounters'], 'PID-1', `the summary would need ${groups.length} QUERY_RESPONSE groups; PID-1 and PV1-1 (SI) number at most ${SI_MAX} (set a lower limit)`);
  }
  const head = [buildMsa(options?.queryId === undefined ? p.controlId : queryId), buildQrd(p.now, queryId, limit, selected.length, c.patient)];
  return { p, head, groups, coverages: coverageSegments(c.patient.coverages) };
}

/** Yielded by {@link adrA19Units} after the last unit of each QUERY_RESPONSE group. */
export const GROUP_END: readonly string[] = Object.freeze([]);

/**
 * The segments of the QUERY_RESPONSE groups, one record at a time: each yield is one unit (a group's PID and PV1;
 * one note's OBX; one assessment's OBX; the encounter's DG1 and PR1; one history entry's DG1; the coverages'
 * IN1), then {@link GROUP_END} after each group. {@link buildAdrA19} and `streamAdrA19` both write from it, so
 * the two give the same segments; the stream gives the event loop back between units.
 * @param plan - the planned message
 * @returns the units, in message order (never an empty unit but {@link GROUP_END})
 * @throws MappingError (from the iteration) when a record does not fit its segment
 * @example for (const unit of adrA19Units(planAdrA19(chart))) if (unit !== GROUP_END) console.log(unit.length);
 */
export function* adrA19Units(plan: AdrA19Plan): Generator<readonly string[], void, undefined> {
  const { ctx, chart: c } = plan.p;
  const coverages = plan.coverages;
  let gi = 0;
  for (const g of plan.groups) {
    const setId = ++gi;
    const visit = g.visit;
    const pv1 =
      visit.kind === 'encounter'
        ? buildPv1(ctx, visit.record.value, setId, ['encounters', visit.record.index])
        : visit.kind === 'reference'
          ? buildPv1Reference(ctx, visit.id, setId)
          : buildPv1NotApplicable(setId);
    yield [buildPid(c.patient, setId), pv1];
    let obx = 1;
    for (const r of g.observations) {
      const unit: string[] = [];
      if (r.kind === 'note') unit.push(...buildNoteObx(ctx, r.value, obx, ['notes', r.index], fitId(r.value.id, OBX_SUB_ID_MAX)));
      else pushAssessment(ctx, unit, r.value, obx, ['assessments', r.index]);
      obx += unit.length;
      yield unit;
    }
    let dg1 = 1;
    if (visit.kind === 'encounter') {
      const e = visit.record.value;
      const unit: string[] = [];
      (e.diagnoses ?? []).forEach((d, i) => unit.push(buildDg1(dg1++, d, ['encounters', visit.record.index, 'diagnoses', i])));
      (e.procedures ?? []).forEach((pr, i) => unit.push(buildPr1(ctx, i + 1, pr, e, ['encounters', visit.record.index, 'procedures', i])));
      if (unit.length > 0) yield unit;
    }
    for (const h of g.history) yield [buildHistoryDg1(dg1++, h.value, ['medicalHistory', h.index])];
    if (gi === 1 && coverages.length > 0) yield coverages;
    yield GROUP_END;
  }
}

/** Push an assessment's OBX (answers, score, interpretation) and return the next OBX set id. */
function pushAssessment(ctx: MessageContext, segments: string[], a: Assessment, firstSetId: number, path: IssuePath): number {
  const subId = fitId(a.id, OBX_SUB_ID_MAX);
  const instrument = a.instrument;
  const method = instrumentCe(instrument, path, 'OBX-17');
  const items = new Map((instrument.items ?? []).map((item) => [item.linkId, item]));
  let setId = firstSetId;
  segments.push(buildPanelObx(ctx, setId++, method, a, path, subId));
  a.answers.forEach((answer, i) => {
    segments.push(buildAnswerObx(ctx, setId++, answer, items.get(answer.linkId), a, [...path, 'answers', i], subId, method));
  });
  const score = buildScoreObx(ctx, setId, a, path, subId, method);
  if (score !== '') {
    segments.push(score);
    setId++;
    const interpretation = a.score?.interpretation;
    if (hasText(interpretation)) segments.push(buildInterpretationObx(ctx, setId++, interpretation, a, path, subId, method));
  }
  return setId;
}
