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
  /** Points this option scores in the instrument (e.g. PHQ-9 items score 0–3). A finite number. @example 1 */
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
  /** Question text, free text; not empty. @example 'Little interest or pleasure in doing things' */
  text: string;
  /**
   * Question code (usually LOINC). Becomes `Questionnaire.item.code` and HL7 OBX-3.
   * @example { system: 'loinc', code: '44250-9', display: 'Little interest or pleasure in doing things' }
   */
  code?: Coding | undefined;
  /** Answer type: a code of {@link ASSESSMENT_ITEM_TYPES}. @example 'choice' */
  type: AssessmentItemType;
  /**
   * Allowed coded answers, for `choice` items only (the chart check rejects options on other item types).
   * When there is at least one, a coded answer must match one by `system` and `code` (FHIR's comparison;
   * `display` and `score` are not compared). Without options a choice item takes any coding.
   * @example
   * [
   *   { system: 'loinc', code: 'LA6568-5', display: 'Not at all', score: 0 },
   *   { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 },
   *   { system: 'loinc', code: 'LA6570-1', display: 'More than half the days', score: 2 },
   *   { system: 'loinc', code: 'LA6571-9', display: 'Nearly every day', score: 3 },
   * ]
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
  /**
   * Panel code (usually LOINC). Becomes `Questionnaire.code` and HL7 OBR-4.
   * @example { system: 'loinc', code: '44249-1', display: 'PHQ-9 quick depression assessment panel' }
   */
  code?: Coding | undefined;
  /**
   * Canonical URL of the instrument's Questionnaire, when it has one: an absolute URI without `|` or `#`.
   * Assessments sharing an instrument id must give the same url. @example 'http://loinc.org/q/44249-1'
   */
  url?: string | undefined;
  /**
   * Question definitions, in question order; `linkId`s unique. When present, a FHIR Questionnaire is exported
   * with the response. Assessments sharing an instrument id that define items must define the same ones.
   * @example [{ linkId: 'phq9-1', text: 'Little interest or pleasure in doing things', code: { system: 'loinc', code: '44250-9' }, type: 'choice' }]
   */
  items?: AssessmentItemDefinition[] | undefined;
}

/**
 * A typed answer value. `integer` must be a safe integer (and a 32-bit one when it answers an `integer`
 * item: FHIR `integer` is 32-bit); `decimal` a finite number. With item definitions, the type must fit the
 * item type (`choice` takes `coding`, `decimal` takes `decimal` or `integer`, `text` and `string` take
 * `string`, the others their own type).
 */
export type AnswerValue =
  | {
      /** A text answer (for `string` and `text` items). @example 'string' */
      type: 'string';
      /** The text; not empty. @example 'Since my mother passed away last spring' */
      value: string;
    }
  | {
      /** A whole-number answer (for `integer` and `decimal` items). @example 'integer' */
      type: 'integer';
      /** A safe integer; 32-bit (−2147483648 … 2147483647) when it answers an `integer` item. @example 6 */
      value: number;
    }
  | {
      /** A decimal answer (for `decimal` items). @example 'decimal' */
      type: 'decimal';
      /** A finite number. @example 7.5 */
      value: number;
    }
  | {
      /** A yes/no answer (for `boolean` items). @example 'boolean' */
      type: 'boolean';
      /** `true` for yes, `false` for no. @example true */
      value: boolean;
    }
  | {
      /** A coded answer (for `choice` items). @example 'coding' */
      type: 'coding';
      /**
       * The chosen option: one of the item's options (same `system` and `code`) when it lists any.
       * @example { system: 'loinc', code: 'LA6570-1', display: 'More than half the days', score: 2 }
       */
      value: AnswerOption;
    }
  | {
      /** A date answer (for `date` items). @example 'date' */
      type: 'date';
      /** A date: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, no time. @example '2025-10-30' */
      value: IsoDate;
    }
  | {
      /** A date-time answer (for `dateTime` items). @example 'dateTime' */
      type: 'dateTime';
      /** A date or a date-time with seconds and offset (see {@link IsoDateTime}). @example '2025-11-27T07:45:00-06:00' */
      value: IsoDateTime;
    };

/**
 * The answer to one item.
 * @example { linkId: 'phq9-1', value: { type: 'coding', value: { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 } } }
 */
export interface AssessmentAnswer {
  /**
   * The answered item's `linkId` (with item definitions, the `linkId` of one of them); unique within the
   * assessment. @example 'phq9-1'
   */
  linkId: string;
  /**
   * Question text, when there is no item definition. With one, it overrides the definition's text in HL7
   * (OBX-3) only: a FHIR QuestionnaireResponse item must repeat its Questionnaire item's text.
   * @example 'Little interest or pleasure in doing things'
   */
  text?: string | undefined;
  /**
   * Question code, when there is no item definition.
   * @example { system: 'loinc', code: '44250-9', display: 'Little interest or pleasure in doing things' }
   */
  code?: Coding | undefined;
  /** The answer. @example { type: 'coding', value: { system: 'loinc', code: 'LA6570-1', display: 'More than half the days', score: 2 } } */
  value: AnswerValue;
}

/**
 * A completed (or partial) assessment: a QuestionnaireResponse in FHIR, an ORU^R01 (OBR + OBX) in HL7.
 * @example see `examples/data/demo-chart.json`
 */
export interface Assessment {
  /** Chart id, unique in the patient's chart. @example 'asmt-0001' */
  id: string;
  /**
   * When the record last changed in the host's store (optional): an ISO 8601 instant with seconds and an offset.
   * Becomes `meta.lastUpdated` of the QuestionnaireResponse, and decides whether a Bulk `$export` with `_since` includes it
   * (a record without it is always included). Absent: no `meta` at all, the output of earlier versions.
   * @example '2026-03-01T15:00:00Z'
   */
  lastUpdated?: IsoDateTime | undefined;
  /**
   * The instrument answered.
   * @example { id: 'phq-9', title: 'PHQ-9 quick depression assessment panel', code: { system: 'loinc', code: '44249-1' }, url: 'http://loinc.org/q/44249-1' }
   */
  instrument: AssessmentInstrument;
  /** Status: a code of {@link ASSESSMENT_STATUSES}. @example 'completed' */
  status: AssessmentStatus;
  /**
   * When it was completed: a date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) or a date-time with seconds and offset
   * (see {@link IsoDateTime}). Newest-first ordering uses it. @example '2024-03-27T08:38:06-05:00'
   */
  authored: IsoDateTime;
  /** Id of the practitioner who administered or recorded it, in the directory. @example 'prac-001' */
  authorId?: string | undefined;
  /** Id of the encounter it belongs to, in the same patient's chart. @example 'enc-0001-01' */
  encounterId?: string | undefined;
  /**
   * Answers, in item order: with item definitions, an answer may not come before an answer to an earlier
   * item (the chart check enforces it; a QuestionnaireResponse keeps its Questionnaire's order). At most one
   * answer per item (`linkId` unique). May be empty.
   * @example [{ linkId: 'phq9-1', value: { type: 'coding', value: { system: 'loinc', code: 'LA6570-1', display: 'More than half the days', score: 2 } } }]
   */
  answers: AssessmentAnswer[];
  /**
   * Total score, when the instrument is scored. Exported as an extra item (`linkId` `total-score`) in FHIR
   * and as an NM OBX in HL7.
   * @example { value: 18, code: { system: 'loinc', code: '44261-6', display: 'Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]' }, interpretation: 'Moderately severe depression' }
   */
  score?:
    | {
        /** The score: a finite number. @example 18 */
        value: number;
        /**
         * Code of the score (usually LOINC).
         * @example { system: 'loinc', code: '44261-6', display: 'Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]' }
         */
        code?: Coding | undefined;
        /** What the score means, free text. @example 'Moderately severe depression' */
        interpretation?: string | undefined;
      }
    | undefined;
}
