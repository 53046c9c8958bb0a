import type * as fhir from 'fhir/r4.js';
import type { AnswerOption, AssessmentInstrument } from '../model/assessment.js';
import type { Coding } from '../model/common.js';
import { InvalidArgumentError } from '../errors.js';
import { EXTENSION, toCoding } from './internal/codings.js';
import { instrumentCanonical, mapChartId } from './ids.js';
import { hasText } from '../internal/text.js';
import { assertValidChartParts, PLACEHOLDER_PATIENT } from './internal/validate.js';

/** The linkIds of the total-score items (the score travels as an extra item, `total-score`, after the instrument's items). */
export interface ScoreLinkIds {
  readonly score: string;
  readonly interpretation: string;
}

/**
 * The linkIds of the score items: `total-score` and `total-score-interpretation`, or with a `-<n>`
 * suffix when the instrument already uses either linkId.
 * @param taken - linkIds in use (item definitions, or answers when there are none)
 */
export function scoreLinkIds(taken: ReadonlySet<string>): ScoreLinkIds {
  for (let n = 0; ; n++) {
    const suffix = n === 0 ? '' : `-${n}`;
    const score = `total-score${suffix}`;
    const interpretation = `total-score-interpretation${suffix}`;
    if (!taken.has(score) && !taken.has(interpretation)) return { score, interpretation };
  }
}

/** A coded answer option as FHIR Coding, with its points as the `ordinalValue` extension. */
export function optionCoding(option: AnswerOption): fhir.Coding {
  const coding = toCoding(option);
  if (option.score === undefined) return coding;
  return { extension: [{ url: EXTENSION.ordinalValue, valueDecimal: option.score }], ...coding };
}

/** The score descriptor a Questionnaire gets when its instrument is scored. */
export interface QuestionnaireScore {
  /** Code of the total score (e.g. LOINC 44261-6 PHQ-9 total score). */
  code?: Coding | undefined;
}

/** Questionnaire mapping; `score` adds the read-only total-score items. */
export function mapQuestionnaire(instrument: AssessmentInstrument, score: QuestionnaireScore | undefined): fhir.Questionnaire {
  const out: fhir.Questionnaire = { resourceType: 'Questionnaire', id: mapChartId(instrument.id), url: instrumentCanonical(instrument) } as fhir.Questionnaire;
  if (hasText(instrument.title)) out.title = instrument.title;
  out.status = 'active';
  out.subjectType = ['Patient'];
  if (instrument.code !== undefined) out.code = [toCoding(instrument.code)];
  const items: fhir.QuestionnaireItem[] = [];
  const taken = new Set<string>();
  for (const def of instrument.items ?? []) {
    taken.add(def.linkId);
    const item: fhir.QuestionnaireItem = { linkId: def.linkId } as fhir.QuestionnaireItem;
    if (def.code !== undefined) item.code = [toCoding(def.code)];
    if (hasText(def.text)) item.text = def.text;
    item.type = def.type;
    if (def.options !== undefined && def.options.length > 0) {
      item.answerOption = def.options.map((o) => {
        const option: fhir.QuestionnaireItemAnswerOption = {};
        // The option's points ride on the answer option (ordinalValue's R4 context), not in the coding.
        if (o.score !== undefined) option.extension = [{ url: EXTENSION.ordinalValue, valueDecimal: o.score }];
        option.valueCoding = toCoding(o);
        return option;
      });
    }
    items.push(item);
  }
  if (score !== undefined) {
    const ids = scoreLinkIds(taken);
    const scoreItem: fhir.QuestionnaireItem = { linkId: ids.score } as fhir.QuestionnaireItem;
    if (score.code !== undefined) scoreItem.code = [toCoding(score.code)];
    scoreItem.text = 'Total score';
    scoreItem.type = 'decimal';
    scoreItem.readOnly = true;
    items.push(scoreItem, { linkId: ids.interpretation, text: 'Score interpretation', type: 'string', readOnly: true });
  }
  if (items.length > 0) out.item = items;
  return out;
}

/**
 * Map an assessment instrument with item definitions to a FHIR R4 Questionnaire.
 *
 * `url` is the instrument's `url`, or a stable `urn:uuid:` derived from the instrument id; `status` is
 * `active`; each item definition becomes an item (its code, text and type; choice options as
 * `answerOption.valueCoding` with their points as the `ordinalValue` extension). With `score`, two
 * read-only items follow: `total-score` (decimal) and `total-score-interpretation` (string), renamed
 * with a `-<n>` suffix if the instrument already uses those linkIds.
 *
 * @param instrument - the instrument
 * @param score - set when the instrument is scored: adds the total-score items (with `score.code`)
 * @returns the Questionnaire; its id is `toFhirId(instrument.id)`
 * @throws {ChartValidationError} when the instrument fails the chart check (paths start at `instrument`)
 * @throws {InvalidArgumentError} when `score` is given but is not an object
 * @example toFhirQuestionnaire(phq9, { code: { system: 'loinc', code: '44261-6' } }).item?.at(-2)?.linkId // 'total-score'
 * @see https://hl7.org/fhir/R4/questionnaire.html
 */
export function toFhirQuestionnaire(instrument: AssessmentInstrument, score?: QuestionnaireScore): fhir.Questionnaire {
  // `null` or a number would pass the spread below unseen and crash the mapping: refuse it by name.
  if (score !== undefined && (typeof score !== 'object' || score === null || Array.isArray(score))) {
    throw new InvalidArgumentError('score', 'must be an object');
  }
  const assessment = { id: 'a', instrument, status: 'completed', authored: '2000', answers: [], ...(score !== undefined ? { score: { value: 0, ...score } } : {}) };
  assertValidChartParts({ patient: PLACEHOLDER_PATIENT, assessments: [assessment] }, [
    [['assessments', 0, 'instrument'], ['instrument']],
    [['assessments', 0, 'score'], ['score']],
  ]);
  return mapQuestionnaire(instrument, score);
}
