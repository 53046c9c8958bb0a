/**
 * OBX, observation / result (HL7 v2.5.1 chapter 7, 7.4.2): a note's text (value type TX), an assessment
 * answer (NM, ST, TX, CE, DT, TS) or an assessment score (NM).
 */
import { HL7_OBX5_MAX } from '../../model/limits.js';
import { MappingError, type IssuePath } from '../../errors.js';
import { hasText } from '../../internal/text.js';
import type { Assessment, AssessmentAnswer, AssessmentItemDefinition } from '../../model/assessment.js';
import { CODE_SYSTEMS, type Coding } from '../../model/common.js';
import type { ClinicalNote } from '../../model/note.js';
import { formatHl7DateTime } from '../datetime.js';
import { fitCompositeOrThrow, fitId, fitNm, truncateEscaped } from '../internal/fit.js';
import { HL7_ANSWER_RESULT_STATUS, HL7_NOTE_RESULT_STATUS, LOINC_NOTE_TYPE } from '../tables.js';
import { ceFromCoding } from '../data-types/ce.js';
import { codeComponent, textComponent } from '../data-types/text-component.js';
import { xcnForPractitioner } from '../data-types/xcn.js';
import { COMPONENT_MAX, COMPOSITE_MAX } from '../internal/component-lengths.js';
import { emptyFields, segment } from '../internal/segment-text.js';
import { setIdField } from '../internal/set-id.js';
import { esc, escLines } from '../internal/standard-escape.js';
import type { MessageContext } from '../internal/message-context.js';

/** OBX-5 maximum length (99 999), applied to the whole field, all repetitions together. */
export const OBX5_MAX = HL7_OBX5_MAX;
/** OBX-4 maximum length (ST, 20). */
export const OBX_SUB_ID_MAX = 20;
/** The longest string answer sent as ST (the ST data type is meant for values under 200 characters). */
const ST_MAX = 199;
/** The item code used for an assessment's total score when the chart gives none. */
export const TOTAL_SCORE_LINK_ID = 'total-score';
/**
 * The local item code of the OBX carrying a score interpretation in ADR^A19. FHIR's item is
 * `total-score-interpretation`; CE-1 holds 20 characters, so HL7 gets this shorter code.
 */
export const INTERPRETATION_CODE = 'total-score-interp';

/**
 * Escape text into TX repetitions (LF or CRLF end a line; a lone CR stays inside its line as `\X0D\`) and
 * pack them into OBX-5 values of at most {@link OBX5_MAX} characters.
 * @param text - the text
 * @returns one OBX-5 value per OBX segment needed
 * @example textValues('a\nb') // ['a~b']
 */
export function textValues(text: string): string[] {
  const escaped = escLines(text);
  // The escaped text holds `~` only as repetition separators, so it splits back into lines exactly.
  return escaped.length <= OBX5_MAX ? [escaped] : packLines(escaped.split('~')).map((chunk) => chunk.join('~'));
}

/**
 * Pack escaped lines into OBX-5 values: repetitions joined by `~`, each value at most {@link OBX5_MAX}
 * characters. A single line longer than that is cut at character boundaries that split no escape sequence
 * (readers see the pieces as separate lines).
 * @param lines - escaped lines
 * @param max - the most characters per value
 * @returns the lines of each value
 * @example packLines(['aa', 'bb', 'cc'], 5) // [['aa', 'bb'], ['cc']]
 */
export function packLines(lines: readonly string[], max = OBX5_MAX): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = -1; // length of current joined by '~'
  const flush = (): void => {
    chunks.push(current);
    current = [];
    size = -1;
  };
  for (let line of lines) {
    while (line.length > max) {
      if (current.length > 0) flush();
      const piece = truncateEscaped(line, max);
      chunks.push([piece]);
      line = line.slice(piece.length);
    }
    if (current.length > 0 && size + 1 + line.length > max) flush();
    current.push(line);
    size += 1 + line.length;
  }
  if (current.length > 0 || chunks.length === 0) chunks.push(current);
  return chunks;
}

/** The common tail of an OBX: OBX-11 status, OBX-14 observation date/time, OBX-16 responsible observer. */
function tail(
  ctx: MessageContext,fields: string[],
  status: string,
  authored: string,
  authorId: string | undefined,
  path: IssuePath,
  method = '',
): void {
  fields[10] = status;
  fields[16] = method;
  fields[13] = formatHl7DateTime(authored);
  if (authorId !== undefined) fields[15] = xcnForPractitioner(ctx, authorId, [...path, 'authorId'], 'OBX-16');
}

/**
 * Build the OBX segments carrying a note's text.
 *
 * - OBX-2 `TX`; OBX-3 the LOINC document type with the note's title as text (`11506-3^<title>^LN`; the title
 *   has no other v2.5.1 slot); OBX-4 the sub-id given (empty in MDM^T02, the note id in ADR^A19).
 * - OBX-5 repeats once per line (LF and CRLF both end a line, so CRLF reads back as LF; a lone CR stays as
 *   `\X0D\`); when the escaped text exceeds OBX-5's 99 999 characters it continues in further OBX segments
 *   with the same OBX-3 and OBX-4 and the next set ids. Readers join all repetitions of all of them with
 *   line breaks.
 * - OBX-11 status (table 0085: final F, preliminary P, amended C, entered-in-error W); OBX-14 authored;
 *   OBX-16 the author.
 *
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param note - the note (already validated)
 * @param firstSetId - OBX-1 of the first segment
 * @param path - path of the note in the input, for MappingError
 * @param subId - OBX-4 (already encoded), or ''
 * @returns one or more segments without terminators
 * @throws MappingError when the author's identifier does not fit 250 characters after escaping
 * @see HL7 v2.5.1 OBX-1 … OBX-16
 * @example buildNoteObx(ctx, note, 1) // ['OBX|1|TX|11506-3^Progress note^LN||Subjective: low mood~Plan: follow up||||||F|||20260301101500-0500||prac-001^Okafor^Adaeze']
 */
export function buildNoteObx(ctx: MessageContext, note: ClinicalNote, firstSetId: number, path: IssuePath = [], subId = ''): string[] {
  const [loinc] = LOINC_NOTE_TYPE[note.type];
  const obx3 = fitCompositeOrThrow([loinc, textComponent(note.title, COMPONENT_MAX.ceText), 'LN'], [1], COMPOSITE_MAX, [...path, 'title'], 'OBX-3');
  const base = emptyFields(17);
  base[1] = 'TX';
  base[2] = obx3;
  base[3] = subId;
  tail(ctx, base, HL7_NOTE_RESULT_STATUS[note.status], note.authored, note.authorId, path);
  return textValues(note.text).map((value, i) => {
    const fields = i === 0 ? base : [...base];
    fields[0] = setIdField(firstSetId + i, path, 'OBX-1');
    fields[4] = value;
    return segment('OBX', fields);
  });
}

/**
 * An assessment OBX: OBX-1…5 as given, then OBX-11 status, OBX-14 authored, OBX-16 author and OBX-17 method
 * from the assessment (the shared tail of every assessment observation).
 */
function assessmentObx(
  ctx: MessageContext,setId: number,
  type: string,
  identifier: string,
  subId: string,
  value: string,
  assessment: Assessment,
  path: IssuePath,
  method = '',
): string {
  const fields = emptyFields(17);
  fields[0] = setIdField(setId, path, 'OBX-1');
  fields[1] = type;
  fields[2] = identifier;
  fields[3] = subId;
  fields[4] = value;
  tail(ctx, fields, HL7_ANSWER_RESULT_STATUS[assessment.status], assessment.authored, assessment.authorId, path, method);
  return segment('OBX', fields);
}

/**
 * OBX-3 for an assessment item: the item code (from the answer, else the item definition) with the question
 * text, and the linkId as alternate identifier in the local system `L` (`code^text^LN^linkId^^L`); an item
 * without a code is identified by its linkId alone (`linkId^text^L`).
 */
function itemIdentifier(linkId: string, code: Coding | undefined, text: string, path: IssuePath): string {
  // CE-1 and CE-4 hold 20 characters: a longer linkId is derived (fitId); a code is sent whole (codeComponent).
  const question = textComponent(text, COMPONENT_MAX.ceText);
  const parts =
    code === undefined
      ? [fitId(linkId, COMPONENT_MAX.ceIdentifier), question, 'L']
      : [codeComponent(code.code), question, CODE_SYSTEMS[code.system].hl7, fitId(linkId, COMPONENT_MAX.ceIdentifier), '', 'L'];
  return fitCompositeOrThrow(parts, [1], COMPOSITE_MAX, path, 'OBX-3');
}

/** OBX-2 value type and OBX-5 value of an answer. */
function answerValue(answer: AssessmentAnswer, valuePath: IssuePath): [string, string] {
  const v = answer.value;
  switch (v.type) {
    case 'integer':
    case 'decimal':
      return ['NM', fitNm(v.value, valuePath, 'OBX-5')];
    case 'boolean':
      return ['CE', v.value ? 'Y^Yes^HL70136' : 'N^No^HL70136'];
    case 'coding':
      return ['CE', ceFromCoding(v.value, valuePath, 'OBX-5')];
    case 'date':
      return ['DT', formatHl7DateTime(v.value)];
    case 'dateTime':
      return ['TS', formatHl7DateTime(v.value)];
    case 'string': {
      // A blank answer is no answer, as FHIR leaves the item unanswered: the OBX keeps an empty OBX-5.
      if (!hasText(v.value)) return ['ST', ''];
      const single = esc(v.value);
      if (!/[\r\n]/.test(v.value) && single.length <= ST_MAX) return ['ST', single];
      const text = escLines(v.value);
      if (text.length > OBX5_MAX) {
        throw new MappingError(valuePath, 'OBX-5', `the answer is longer than the ${OBX5_MAX} characters OBX-5 allows after escaping`);
      }
      return ['TX', text];
    }
  }
}

/**
 * Build the OBX segment of one assessment answer.
 *
 * - OBX-2 / OBX-5 by answer type: integer and decimal → NM (plain digits, never an exponent); string → ST
 *   (one line, at most 199 characters after escaping) else TX with one repetition per line; coding → CE
 *   (the option's score is not carried); boolean → CE `Y^Yes^HL70136` / `N^No^HL70136` (v2.5.1 has no boolean
 *   type); date → DT; dateTime → TS (precision and offset kept).
 * - OBX-3 item code and question text, with the linkId as alternate local code (`code^text^LN^linkId^^L`;
 *   without a code `linkId^text^L`; a linkId longer than CE-1's / CE-4's 20 characters after escaping is sent
 *   in the derived form of chart ids, a code whole); OBX-4 the sub-id given; OBX-11 status (table 0085, from the assessment status); OBX-14 authored; OBX-16 author.
 *
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param setId - OBX-1
 * @param answer - the answer (already validated)
 * @param item - its item definition, when the instrument has one
 * @param assessment - the assessment
 * @param path - path of the answer in the input, for MappingError
 * @param subId - OBX-4 (already encoded), or ''
 * @param method - OBX-17 observation method (already encoded CE), or '': the instrument, in ADR^A19
 * @returns the segment text without terminator
 * @throws MappingError when a code or identifier does not fit its field after escaping
 * @see HL7 v2.5.1 OBX-1 … OBX-16
 * @example buildAnswerObx(ctx, 1, answer, item, assessment) // 'OBX|1|CE|44250-9^Little interest or pleasure in doing things^LN^phq9-1^^L||LA6569-3^Several days^LN||||||F|||…'
 */
export function buildAnswerObx(
  ctx: MessageContext,setId: number,
  answer: AssessmentAnswer,
  item: AssessmentItemDefinition | undefined,
  assessment: Assessment,
  path: IssuePath = [],
  subId = '',
  method = '',
): string {
  const [type, value] = answerValue(answer, [...path, 'value', 'value']);
  const identifier = itemIdentifier(answer.linkId, answer.code ?? item?.code, answer.text ?? item?.text ?? '', [...path, 'linkId']);
  return assessmentObx(ctx, setId, type, identifier, subId, value, assessment, path, method);
}

/**
 * Build the OBX segment of an assessment's total score: OBX-2 `NM`, OBX-3 the score code (with alternate
 * local code `total-score`) or `total-score^Total score^L`, OBX-5 the score. The interpretation goes to an
 * NTE after it (see the message builders).
 *
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param setId - OBX-1
 * @param assessment - the scored assessment
 * @param path - path of the assessment in the input, for MappingError
 * @param subId - OBX-4 (already encoded), or ''
 * @param method - OBX-17 observation method (already encoded CE), or ''
 * @returns the segment text without terminator, or '' when the assessment has no score
 * @throws MappingError when the score code does not fit OBX-3 after escaping
 * @see HL7 v2.5.1 OBX-2, OBX-3, OBX-5
 * @example buildScoreObx(ctx, 10, assessment) // 'OBX|10|NM|44261-6^…^LN^total-score^^L||12||||||F|||…'
 */
export function buildScoreObx(
  ctx: MessageContext,setId: number,
  assessment: Assessment,
  path: IssuePath = [],
  subId = '',
  method = '',
): string {
  const score = assessment.score;
  if (score === undefined) return '';
  const identifier = itemIdentifier(TOTAL_SCORE_LINK_ID, score.code, score.code?.display ?? 'Total score', [...path, 'score', 'code']);
  return assessmentObx(ctx, setId, 'NM', identifier, subId, fitNm(score.value, [...path, 'score', 'value'], 'OBX-5'), assessment, path, method);
}

/**
 * Build the OBX that carries a score interpretation where no NTE may follow (ADR^A19's QUERY_RESPONSE
 * allows OBX but not NTE): OBX-2 `ST` (or `TX` with one repetition per line), OBX-3
 * `total-score-interp^Score interpretation^L` (a local code), OBX-5 the interpretation.
 *
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param setId - OBX-1
 * @param interpretation - the text
 * @param assessment - the assessment
 * @param path - path of the assessment in the input, for MappingError
 * @param subId - OBX-4 (already encoded), or ''
 * @param method - OBX-17 (already encoded CE), or ''
 * @returns the segment text without terminator
 * @throws MappingError when the text exceeds OBX-5 after escaping
 * @see HL7 v2.5.1 OBX-2, OBX-3, OBX-5
 * @example buildInterpretationObx(ctx, 11, 'Moderate depression', assessment) // 'OBX|11|ST|total-score-interp^Score interpretation^L||Moderate depression||||||F|||…'
 */
export function buildInterpretationObx(
  ctx: MessageContext,setId: number,
  interpretation: string,
  assessment: Assessment,
  path: IssuePath = [],
  subId = '',
  method = '',
): string {
  const [type, value] = answerValue({ linkId: INTERPRETATION_CODE, value: { type: 'string', value: interpretation } }, [...path, 'score', 'interpretation']);
  return assessmentObx(ctx, setId, type, `${INTERPRETATION_CODE}^Score interpretation^L`, subId, value, assessment, path, method);
}

/**
 * Build the OBX that opens an assessment in ADR^A19, where no OBR may carry it: OBX-3 the instrument
 * (`code^title^system`, or `<instrument id>^<title>^L` without a code), OBX-4 the assessment's sub-id, OBX-2
 * `CE` and OBX-5 the instrument again (the instrument administered: v2.5.1 7.4.2.2 wants OBX-2 valued
 * whenever OBX-11 is not `X`, and a value type without a value would say nothing), OBX-11 status, OBX-14
 * authored, OBX-16 author. An assessment without answers is still visible this way.
 *
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param setId - OBX-1
 * @param instrument - the instrument, already encoded as CE
 * @param assessment - the assessment
 * @param path - path of the assessment in the input, for MappingError
 * @param subId - OBX-4 (already encoded)
 * @returns the segment text without terminator
 * @throws MappingError when the author's identifier does not fit 250 characters after escaping
 * @see HL7 v2.5.1 OBX-3, OBX-4, OBX-11
 * @example buildPanelObx(ctx, 1, '44249-1^PHQ-9 quick depression assessment panel^LN', assessment, [], 'asmt-0001') // 'OBX|1|CE|44249-1^PHQ-9 quick depression assessment panel^LN|asmt-0001|44249-1^PHQ-9 quick depression assessment panel^LN||||||F|||20260301101000-0500'
 */
export function buildPanelObx(ctx: MessageContext, setId: number, instrument: string, assessment: Assessment, path: IssuePath, subId: string): string {
  return assessmentObx(ctx, setId, 'CE', instrument, subId, instrument, assessment, path);
}
