import type { Coding, IsoDate, IsoDateTime } from './common.js';

/** Item types of an assessment instrument (a subset of FHIR `item-type`). */
export const ASSESSMENT_ITEM_TYPES = ['string', 'text', 'integer', 'decimal', 'boolean', 'choice', 'date', 'dateTime'] as const;
/** One of {@link ASSESSMENT_ITEM_TYPES}. */
export type AssessmentItemType = (typeof ASSESSMENT_ITEM_TYPES)[number];

/** Assessment status (FHIR `QuestionnaireResponseStatus`). */
export const ASSESSMENT_STATUSES = ['in-progress', 'completed', 'amended', 'entered-in-error', 'stopped'] as const;
/** One of {@link ASSESSMENT_STATUSES}. */
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

/**
 * A coded answer option, optionally carrying the points it scores.
 * @example { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 }
 */
export interface AnswerOption extends Coding {
  /** Points this option scores in the instrument (e.g. PHQ-9 items score 0–3). */
  score?: number | undefined;
}

/**
 * The definition of one question of an instrument. With definitions, an assessment also exports a FHIR
 * Questionnaire.
 * @example { linkId: 'phq9-1', text: 'Little interest or pleasure in doing things', code: { system: 'loinc', code: '44250-9' }, type: 'choice' }
 */
export interface AssessmentItemDefinition {
  /** Item id, unique within the instrument; links answers to definitions. @example 'phq9-1' */
  linkId: string;
  /** Question text. */
  text: string;
  /** Question code (usually LOINC). Becomes `Questionnaire.item.code` and HL7 OBX-3. */
  code?: Coding | undefined;
  /** Answer type. */
  type: AssessmentItemType;
  /**
   * Allowed coded answers, for `choice` items only (the chart check rejects options on other item types).
   * When there is at least one, a coded answer must match one by `system` and `code` (FHIR's comparison;
   * `display` and `score` are not compared). Without options a choice item takes any coding.
   */
  options?: AnswerOption[] | undefined;
}

/**
 * A scoring or screening instrument (PHQ-9, GAD-7…).
 * @example { id: 'phq-9', title: 'PHQ-9 quick depression assessment panel', code: { system: 'loinc', code: '44249-1' } }
 */
export interface AssessmentInstrument {
  /** Instrument id; becomes the FHIR Questionnaire id. @example 'phq-9' */
  id: string;
  /** Title. @example 'PHQ-9 quick depression assessment panel' */
  title: string;
  /** Panel code (usually LOINC). Becomes `Questionnaire.code` and HL7 OBR-4. */
  code?: Coding | undefined;
  /** Canonical URL of the instrument's Questionnaire, when it has one. @example 'http://loinc.org/q/44249-1' */
  url?: string | undefined;
  /** Question definitions. When present, a FHIR Questionnaire is exported with the response. */
  items?: AssessmentItemDefinition[] | undefined;
}

/**
 * A typed answer value. `integer` must be a safe integer (and a 32-bit one when it answers an `integer`
 * item: FHIR `integer` is 32-bit); `decimal` a finite number. With item definitions, the type must fit the
 * item type (`choice` takes `coding`, `decimal` takes `decimal` or `integer`, `text` and `string` take
 * `string`, the others their own type).
 */
export type AnswerValue =
  | { type: 'string'; value: string }
  | { type: 'integer'; value: number }
  | { type: 'decimal'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'coding'; value: AnswerOption }
  | { type: 'date'; value: IsoDate }
  | { type: 'dateTime'; value: IsoDateTime };

/**
 * The answer to one item.
 * @example { linkId: 'phq9-1', value: { type: 'coding', value: { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 } } }
 */
export interface AssessmentAnswer {
  /** The answered item's `linkId`; unique within the assessment. */
  linkId: string;
  /**
   * Question text, when there is no item definition. With one, it overrides the definition's text in HL7
   * (OBX-3) only: a FHIR QuestionnaireResponse item must repeat its Questionnaire item's text.
   */
  text?: string | undefined;
  /** Question code, when there is no item definition. */
  code?: Coding | undefined;
  /** The answer. */
  value: AnswerValue;
}

/**
 * A completed (or partial) assessment: a QuestionnaireResponse in FHIR, an ORU^R01 (OBR + OBX) in HL7.
 * @example see `examples/data/demo-chart.json`
 */
export interface Assessment {
  /** Chart id, unique in the patient's chart. @example 'asmt-0001' */
  id: string;
  /** The instrument answered. */
  instrument: AssessmentInstrument;
  /** Status. */
  status: AssessmentStatus;
  /**
   * When it was completed: a date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) or a date-time with seconds and offset
   * (see {@link IsoDateTime}). Newest-first ordering uses it.
   */
  authored: IsoDateTime;
  /** Id of the practitioner who administered or recorded it, in the directory. */
  authorId?: string | undefined;
  /** Id of the encounter it belongs to, in the same patient's chart. */
  encounterId?: string | undefined;
  /**
   * Answers, in item order: with item definitions, an answer may not come before an answer to an earlier
   * item (the chart check enforces it; a QuestionnaireResponse keeps its Questionnaire's order). At most one
   * answer per item (`linkId` unique).
   */
  answers: AssessmentAnswer[];
  /**
   * Total score, when the instrument is scored. Exported as an extra item (`linkId` `total-score`) in FHIR
   * and as an NM OBX in HL7. A finite number.
   */
  score?: { value: number; code?: Coding | undefined; interpretation?: string | undefined } | undefined;
}
