import type * as fhir from 'fhir/r4.js';
import type { AnswerValue, Assessment, AssessmentItemType } from '../model/assessment.js';
import type { Patient } from '../model/patient.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { isFhirInteger } from './internal/datatypes.js';
import { mapChartId } from './ids.js';
import { hasText } from '../internal/text.js';
import { assertValidChartParts } from './internal/validate.js';
import { optionCoding, scoreLinkIds } from './questionnaire.js';
import { withLastUpdated } from './internal/meta.js';

/** The FHIR answer of a chart answer value; `undefined` for a blank string (no answer). */
function answerOf(value: AnswerValue, itemType: AssessmentItemType | undefined): fhir.QuestionnaireResponseItemAnswer | undefined {
  switch (value.type) {
    case 'string':
      return hasText(value.value) ? { valueString: value.value } : undefined;
    case 'integer':
      // A decimal item takes its integer answers as decimals; FHIR integer is 32-bit, larger ones go as decimals.
      return itemType !== 'decimal' && isFhirInteger(value.value) ? { valueInteger: value.value } : { valueDecimal: value.value };
    case 'decimal':
      return { valueDecimal: value.value };
    case 'boolean':
      return { valueBoolean: value.value };
    case 'coding':
      return { valueCoding: optionCoding(value.value) };
    case 'date':
      return { valueDate: value.value };
    case 'dateTime':
      return { valueDateTime: value.value };
  }
}

/** QuestionnaireResponse mapping with a given context. */
export function mapQuestionnaireResponse(assessment: Assessment, ctx: MapContext): fhir.QuestionnaireResponse {
  const instrument = assessment.instrument;
  const out: fhir.QuestionnaireResponse = { resourceType: 'QuestionnaireResponse', id: mapChartId(assessment.id) } as fhir.QuestionnaireResponse;
  const url = ctx.questionnaireUrl(instrument);
  if (url !== undefined) out.questionnaire = url;
  out.status = assessment.status;
  out.subject = ctx.patientRef();
  if (assessment.encounterId !== undefined) out.encounter = ctx.encounterRef(assessment.encounterId);
  out.authored = assessment.authored;
  if (assessment.authorId !== undefined) out.author = ctx.practitionerRef(assessment.authorId);

  const defs = instrument.items;
  const byLinkId = new Map<string, { text: string; type: AssessmentItemType }>();
  if (defs !== undefined) for (const d of defs) byLinkId.set(d.linkId, d);
  const items: fhir.QuestionnaireResponseItem[] = [];
  for (const a of assessment.answers) {
    const def = byLinkId.get(a.linkId);
    const item: fhir.QuestionnaireResponseItem = { linkId: a.linkId };
    // With a definition the item repeats its Questionnaire item's text: FHIR validators reject a response
    // item whose text differs from the definition's, so an answer's own text (HL7 OBX-3 carries it) is not used.
    const own = def !== undefined ? def.text : a.text;
    const text = own !== undefined && hasText(own) ? own : undefined;
    if (text !== undefined) item.text = text;
    const answer = answerOf(a.value, def?.type);
    if (answer !== undefined) item.answer = [answer];
    items.push(item);
  }
  const score = assessment.score;
  if (score !== undefined) {
    // The same linkIds as the Questionnaire's score items: computed from the definitions when there are some.
    const ids = scoreLinkIds(new Set(defs !== undefined ? defs.map((d) => d.linkId) : assessment.answers.map((a) => a.linkId)));
    items.push({ linkId: ids.score, text: 'Total score', answer: [{ valueDecimal: score.value }] });
    if (score.interpretation !== undefined && hasText(score.interpretation)) {
      items.push({ linkId: ids.interpretation, text: 'Score interpretation', answer: [{ valueString: score.interpretation }] });
    }
  }
  if (items.length > 0) out.item = items;
  return withLastUpdated(out, assessment.lastUpdated);
}

/**
 * Map an assessment to a FHIR R4 QuestionnaireResponse.
 *
 * `questionnaire` is the instrument's canonical URL when it has one or has item definitions (then the
 * matching Questionnaire comes from `toFhirQuestionnaire`). Each answer becomes an item with one typed
 * answer (`valueString`, `valueInteger`, `valueDecimal`, `valueBoolean`, `valueCoding` with the option's
 * points as `ordinalValue`, `valueDate`, `valueDateTime`); a blank string answer leaves the item
 * unanswered. An integer answer to a decimal item, or beyond FHIR's 32-bit integer (only possible without an
 * item definition: the chart check keeps an `integer` item's answers 32-bit), is a `valueDecimal`. An item
 * with a definition carries the definition's text (an answer's `text` goes to HL7 only), as FHIR requires.
 * The score becomes the item `total-score` (valueDecimal) and its interpretation the item
 * `total-score-interpretation`. Question codes of answers without item definitions have no place in a
 * QuestionnaireResponse and are not exported.
 *
 * @param assessment - the assessment
 * @param patient - the patient (the response's subject)
 * @returns the QuestionnaireResponse; its id is `toFhirId(assessment.id)`
 * @throws {ChartValidationError} when the input fails the chart check (paths start at `assessment` or `patient`)
 * @example toFhirQuestionnaireResponse(chart.assessments[0], chart.patient).status // 'completed'
 * @see https://hl7.org/fhir/R4/questionnaireresponse.html
 */
export function toFhirQuestionnaireResponse(assessment: Assessment, patient: Patient): fhir.QuestionnaireResponse {
  assertValidChartParts({ patient, assessments: [assessment] }, [[['assessments', 0], ['assessment']]]);
  return mapQuestionnaireResponse(assessment, standaloneContext(patient.id));
}
