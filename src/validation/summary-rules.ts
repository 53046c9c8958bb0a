/**
 * The chart check's rule for the HL7 ADR^A19 summary: the OBX segments of one QUERY_RESPONSE group (the notes
 * and assessments of one encounter, or of those without encounter) share one OBX-1 numbering, a set id of at
 * most 4 digits (HL7 v2.5.1 2.A.69), so a group may need at most 9 999 OBX.
 */
import { HL7_OBX5_MAX, HL7_SET_ID_LIMITS } from '../model/limits.js';
import { at, type Checker, type Obj, type Path } from './checker.js';
import { surelyFits } from './speed-ups.js';

/** The most characters one character of text takes once escaped for HL7 (a C1 control: `\XC285\`). */
const ESCAPED_CHAR_MAX = 7;

/**
 * The most OBX a note's text needs in ADR^A19: one while its escaped text surely fits OBX-5's 99 999
 * characters; else a bound of the line packing (two consecutive OBX together hold more than 99 998
 * characters), so the check never accepts what the builder cannot number.
 * @param text - the note text (any value: the note's own rules report a wrong type)
 * @returns an upper bound of the OBX segments it takes
 * @example noteObxBound('Plan: follow up') // 1
 */
export function noteObxBound(text: unknown): number {
  const length = typeof text === 'string' ? text.length : 0;
  if (length * ESCAPED_CHAR_MAX <= HL7_OBX5_MAX) return 1;
  return 2 * Math.ceil((length * ESCAPED_CHAR_MAX) / (HL7_OBX5_MAX - 1)) + 1;
}

/** The OBX an assessment takes in ADR^A19: the panel, one per answer, the score and its interpretation. */
function assessmentObx(assessment: Obj): number {
  const answers = assessment['answers'];
  return 1 + (Array.isArray(answers) ? answers.length : 0) + 2;
}

/** The OBX all notes and assessments of a chart take in ADR^A19, all groups together. */
function chartObx(chart: Obj): number {
  let total = 0;
  const notes = chart['notes'];
  if (Array.isArray(notes)) for (const note of notes) if (note !== null && typeof note === 'object') total += noteObxBound((note as Obj)['text']);
  const assessments = chart['assessments'];
  if (Array.isArray(assessments)) for (const a of assessments) if (a !== null && typeof a === 'object') total += assessmentObx(a as Obj);
  return total;
}

/**
 * Report, at the chart's `notes` (or `assessments`), an ADR^A19 group whose notes and assessments would need
 * more OBX segments than OBX-1 numbers.
 * @param c - the checker
 * @param chart - the patient chart (an object)
 * @param path - the chart's path
 */
export function checkSummaryObx(c: Checker, chart: Obj, path: Path): void {
  // The groups together need no more than the whole chart: when that fits, so does every group.
  if (surelyFits(chartObx(chart), HL7_SET_ID_LIMITS.summaryObx)) return;
  const perGroup = new Map<string, number>();
  const count = (list: unknown, obx: (record: Obj) => number): void => {
    if (!Array.isArray(list)) return;
    for (const record of list) {
      if (record === null || typeof record !== 'object') continue;
      const encounterId = (record as Obj)['encounterId'];
      const group = typeof encounterId === 'string' ? `encounter:${encounterId}` : 'none';
      perGroup.set(group, (perGroup.get(group) ?? 0) + obx(record as Obj));
    }
  };
  count(chart['notes'], (note) => noteObxBound(note['text']));
  count(chart['assessments'], assessmentObx);
  const max = HL7_SET_ID_LIMITS.summaryObx;
  if ([...perGroup.values()].some((n) => n > max)) {
    const where = Array.isArray(chart['notes']) && chart['notes'].length > 0 ? 'notes' : 'assessments';
    c.add(
      at(path, where),
      'range',
      `the notes and assessments of one encounter (or of those without encounter) must fit ${max} OBX segments of the HL7 ADR^A19 summary (OBX-1 set ids have at most 4 digits)`,
    );
  }
}
