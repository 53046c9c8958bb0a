/**
 * Arbitraries for chart records: encounters (with diagnoses and procedures), clinical notes, assessments
 * (with and without item definitions) and medical-history entries.
 */
import { HL7_NM_ABS_MAX, HL7_NM_ABS_MIN } from '../../src/model/limits.js';
import fc from 'fast-check';
import {
  ASSESSMENT_ITEM_TYPES,
  ASSESSMENT_STATUSES,
  CLINICAL_STATUSES,
  CONFIDENTIALITY_CODES,
  DIAGNOSIS_USES,
  ENCOUNTER_CLASSES,
  ENCOUNTER_STATUSES,
  NOTE_STATUSES,
  NOTE_TYPES,
  PARTICIPANT_ROLES,
  PROCEDURE_STATUSES,
  VERIFICATION_STATUSES,
  type AnswerOption,
  type AnswerValue,
  type Assessment,
  type AssessmentAnswer,
  type AssessmentInstrument,
  type AssessmentItemDefinition,
  type AssessmentItemType,
  type ClinicalNote,
  type Coding,
  type Diagnosis,
  type Encounter,
  type MedicalHistoryEntry,
  type Procedure,
} from '../../src/model/index.js';
import { arbCoding } from './codes.js';
import { arbIsoDate, arbIsoDateTime, arbIsoDateTimeFull, arbOrderedPair, arbPeriod, type YearRange } from './dates.js';
import { GAD7_INSTRUMENT, GAD7_TOTAL, PHQ9_INSTRUMENT, PHQ9_TOTAL, gad7Severity, phq9Severity } from './instruments.js';
import { arbIdFor, arbLongText, textFor, type TextMode } from './text.js';
import { compact, freshId, memo, opt, optArray, rare } from './util.js';

/** Options shared by the record arbitraries. */
export interface RecordOptions {
  /** Text mode of free-text fields (default mixed). */
  text?: TextMode;
  /** Id mode (default: the text mode). */
  ids?: TextMode;
  /** Year range of dates (default: realistic for realistic text, else mixed). */
  years?: YearRange;
  /**
   * Practitioner ids references may use. Absent: references are arbitrary ids (a bare chart may point
   * anywhere). Empty: no practitioner references (unless `danglingReferences`).
   */
  practitionerIds?: readonly string[];
  /** Location ids references may use; same rules as `practitionerIds`. */
  locationIds?: readonly string[];
  /** Encounter ids notes and assessments may use; same rules as `practitionerIds`. */
  encounterIds?: readonly string[];
  /** Also produce references to ids that are not in the given pools. Default false. */
  danglingReferences?: boolean;
  /**
   * Leave out the one kind of valid input that a builder rejects by design: a procedure without
   * `performed` (or whose period has no start) in an encounter without `period.start`. HL7 PR1-5 (procedure
   * date/time) is required, so the HL7 builders that send PR1 raise a MappingError for it (FHIR maps it).
   * With `mappable: true` such a procedure gets a date of its own. Everything else generated is valid and
   * mappable in every mode.
   *
   * Default false: generators cover the whole valid input space, which "valid input gives output or a
   * documented MappingError" properties need. Set it for "every export succeeds" properties.
   */
  mappable?: boolean;
}

/**
 * An arbitrary reference into `pool`, or `undefined` when no reference can be made.
 * @param pool - the ids that exist; undefined means "any id"
 * @param dangling - also produce ids missing from the pool
 * @param idMode - id mode for free and dangling ids
 */
export function arbRef(pool: readonly string[] | undefined, dangling: boolean, idMode: TextMode): fc.Arbitrary<string> | undefined {
  if (pool === undefined) return arbIdFor(idMode);
  const taken = new Set(pool);
  const missing = arbIdFor(idMode).map((id) => freshId(`missing-${id}`.trim(), taken));
  if (pool.length === 0) return dangling ? missing : undefined;
  const present = fc.constantFrom(...pool);
  return dangling ? fc.oneof({ arbitrary: present, weight: 2 }, { arbitrary: missing, weight: 1 }) : present;
}

/** The largest `rank` / `order` the chart check accepts (FHIR positiveInt is a 32-bit signed integer). */
export const POSITIVE_INT_MAX = 2_147_483_647;

const arbPositiveInt: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 20 },
  { arbitrary: fc.constantFrom(65536, POSITIVE_INT_MAX - 1, POSITIVE_INT_MAX), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: POSITIVE_INT_MAX }), weight: 1 },
);

/**
 * A `rank` / `order`: 1…2147483647 (FHIR positiveInt), small mostly, sometimes large or exactly the maximum.
 * @returns integers the chart check accepts
 * @example fc.sample(arbPositive(), 3) // e.g. [1, 2, 2147483647]
 */
export function arbPositive(): fc.Arbitrary<number> {
  return arbPositiveInt;
}

/** A diagnosis (ICD-10-CM or SNOMED CT). The id is optional. */
export function arbDiagnosis(opts: RecordOptions = {}): fc.Arbitrary<Diagnosis> {
  return memo(`diagnosis|${opts.text}|${opts.ids}|${opts.years}`, () => buildDiagnosis(opts));
}

function buildDiagnosis(opts: RecordOptions = {}): fc.Arbitrary<Diagnosis> {
  const mode = opts.text ?? 'mixed';
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  return fc
    .record({
      id: opt(arbIdFor(opts.ids ?? mode), 4),
      code: arbCoding(['icd-10-cm', 'snomed-ct'], mode),
      rank: opt(arbPositive()),
      use: opt(fc.constantFrom(...DIAGNOSIS_USES)),
      onset: opt(arbIsoDateTime({ years }), 2),
      recordedDate: opt(arbIsoDateTime({ years }), 2),
    })
    .map((r): Diagnosis => compact(r));
}

/**
 * A procedure (CPT, SNOMED CT or ICD-10-PCS), performed at a date-time or over a period, or undated.
 * (`mappable` is applied by {@link arbEncounter}, which knows whether the encounter has a start.)
 */
export function arbProcedure(opts: RecordOptions = {}): fc.Arbitrary<Procedure> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  return fc
    .record({
      id: opt(arbIdFor(idMode), 4),
      code: arbCoding(['cpt', 'snomed-ct', 'icd-10-pcs'], mode),
      status: fc.constantFrom(...PROCEDURE_STATUSES),
      performed: opt(fc.oneof(arbIsoDateTime({ years, leapSecond: false }), arbPeriod({ years }))),
      performerId: opt(arbRef(opts.practitionerIds, opts.danglingReferences === true, idMode)),
    })
    .map((r): Procedure => compact(r));
}

/** Options of {@link arbEncounter}. */
export interface EncounterOptions extends RecordOptions {
  /** Maximum diagnoses (default 3). */
  maxDiagnoses?: number;
  /** Maximum procedures (default 2). */
  maxProcedures?: number;
}

/** Ids unique where present (optional ids may repeat as absent). */
const byIdIfAny = <T extends { id?: string | undefined }>(x: T): string | T => x.id ?? x;

/**
 * An encounter: class, status, optional type, period (start ≤ end), location and participants from the
 * given pools, reason, diagnoses and procedures whose ids are unique within the encounter. Unless
 * `mappable`, it sometimes has neither a start nor dated procedures (valid; HL7 PR1-5 cannot be filled).
 * @param opts - text/id mode, year range, reference pools, sizes, mappable
 * @returns encounters the chart check accepts
 */
export function arbEncounter(opts: EncounterOptions = {}): fc.Arbitrary<Encounter> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const dangling = opts.danglingReferences === true;
  const prac = arbRef(opts.practitionerIds, dangling, idMode);
  return fc
    .record({
      id: arbIdFor(idMode),
      status: fc.constantFrom(...ENCOUNTER_STATUSES),
      class: fc.constantFrom(...ENCOUNTER_CLASSES),
      type: opt(arbCoding(['snomed-ct', 'cpt'], mode)),
      period: opt(arbPeriod({ years: opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed') }), 6),
      locationId: opt(arbRef(opts.locationIds, dangling, idMode)),
      participants: prac === undefined ? fc.constant(undefined) : optArray(fc.record({ role: fc.constantFrom(...PARTICIPANT_ROLES), practitionerId: prac }), 3),
      reason: opt(textFor(mode)),
      diagnoses: opt(fc.uniqueArray(arbDiagnosis(opts), { maxLength: opts.maxDiagnoses ?? 3, selector: byIdIfAny })),
      procedures: opt(fc.uniqueArray(arbProcedure(opts), { maxLength: opts.maxProcedures ?? 2, selector: byIdIfAny })),
      fallbackDate: arbIsoDateTimeFull({ years: opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed'), leapSecond: false }),
    })
    .map(({ fallbackDate, ...r }): Encounter => {
      const encounter: Encounter = compact(r);
      // The check requires a procedure date (HL7 PR1-5): the procedure's own, else the encounter's start.
      if (encounter.period?.start === undefined && encounter.procedures !== undefined) {
        encounter.procedures = encounter.procedures.map((p) => {
          const start = typeof p.performed === 'object' ? p.performed.start : p.performed;
          return start === undefined ? { ...p, performed: fallbackDate } : p;
        });
      }
      return encounter;
    });
}

/** Options of {@link arbNote}. */
export interface NoteOptions extends RecordOptions {
  /** Let the text sometimes be up to 100 KB (default false). */
  longText?: boolean;
}

const NOTE_TITLES = ['Progress note', 'Discharge summary', 'Psychiatric consultation', 'History & physical', 'Procedure note'];

/** Realistic multi-line note text with characters HL7 must escape. */
const arbRealisticNoteText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('Patient reports improved mood.', 'Low mood for 3 weeks; sleep 5 h/night.', 'Anxiety worse at work.'),
    fc.constantFrom('BP 128/82 | HR 72', 'Weight 81.2 kg', 'PHQ-9 = 12 (moderate)'),
    fc.constantFrom('Sertraline 50 mg ^ to 100 mg', 'Continue CBT ~ weekly', 'Labs & ECG ordered'),
    fc.constantFrom('Files: C:\\Users\\notes', 'Follow up in 4 weeks.', 'Safety plan reviewed; denies SI/HI.'),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([s, o, a, p, nl]) => `Subjective: ${s}${nl}Objective: ${o}${nl}Assessment: ${a}${nl}Plan: ${p}`);

/** A clinical note: type, required title and text, full date-time `authored`, author and encounter references. */
export function arbNote(opts: NoteOptions = {}): fc.Arbitrary<ClinicalNote> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const dangling = opts.danglingReferences === true;
  const text =
    mode === 'realistic'
      ? arbRealisticNoteText
      : fc.oneof(
          { arbitrary: arbRealisticNoteText, weight: 2 },
          { arbitrary: textFor(mode, true), weight: 3 },
          ...(opts.longText === true ? [{ arbitrary: arbLongText, weight: 1 }] : []),
        );
  return fc
    .record({
      id: arbIdFor(idMode),
      type: fc.constantFrom(...NOTE_TYPES),
      title: mode === 'realistic' ? fc.constantFrom(...NOTE_TITLES) : fc.oneof(fc.constantFrom(...NOTE_TITLES), textFor(mode, true)),
      status: fc.constantFrom(...NOTE_STATUSES),
      authored: arbIsoDateTimeFull({ years: opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed') }),
      authorId: opt(arbRef(opts.practitionerIds, dangling, idMode)),
      encounterId: opt(arbRef(opts.encounterIds, dangling, idMode)),
      confidentiality: opt(fc.constantFrom(...CONFIDENTIALITY_CODES)),
      text,
    })
    .map((r): ClinicalNote => compact(r));
}

// ---------------------------------------------------------------------------------------------------
// Assessments
// ---------------------------------------------------------------------------------------------------

/** An answer option (coding, optional finite score). */
function arbAnswerOption(mode: TextMode): fc.Arbitrary<AnswerOption> {
  return memo(`option|${mode}`, () => buildAnswerOption(mode));
}

function buildAnswerOption(mode: TextMode): fc.Arbitrary<AnswerOption> {
  return fc
    .record({
      coding: arbCoding(undefined, mode),
      score: opt(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 4 }), weight: 4 }, { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 })),
    })
    .map(({ coding, score }): AnswerOption => (score === undefined ? coding : { ...coding, score }));
}

/** A random item definition (choice items carry 0–5 options with unique codes). */
function arbItemDefinition(mode: TextMode, idMode: TextMode): fc.Arbitrary<AssessmentItemDefinition> {
  return memo(`item|${mode}|${idMode}`, () => buildItemDefinition(mode, idMode));
}

function buildItemDefinition(mode: TextMode, idMode: TextMode): fc.Arbitrary<AssessmentItemDefinition> {
  return fc
    .record({
      linkId: arbIdFor(idMode),
      text: textFor(mode, true),
      code: opt(arbCoding(undefined, mode)),
      type: fc.constantFrom(...ASSESSMENT_ITEM_TYPES),
      options: fc.uniqueArray(arbAnswerOption(mode), { maxLength: 5, selector: (o) => `${o.system}|${o.code}` }),
      keepOptions: fc.boolean(),
    })
    .map(({ options, keepOptions, ...r }): AssessmentItemDefinition => {
      const item: AssessmentItemDefinition = compact(r);
      if (r.type === 'choice' && (options.length > 0 || keepOptions)) item.options = options;
      return item;
    });
}

/**
 * A number the chart check accepts where HL7 sends it as NM (answers, scores): 0 for a non-zero one of magnitude
 * below 1e-13, ±9e14 for one of magnitude 1e15 or more, else the number itself.
 */
export function clampToNm(x: number): number {
  if (x === 0) return x;
  if (Math.abs(x) < HL7_NM_ABS_MIN) return 0;
  return Math.abs(x) >= HL7_NM_ABS_MAX ? Math.sign(x) * 9e14 : x;
}

/** Numbers: small integers mostly, the safe-integer and double extremes sometimes (within the check's NM range). */
/** Realistic integers (counts, scores): -10 … 100. */
const arbRealisticInt: fc.Arbitrary<number> = fc.integer({ min: -10, max: 100 });
const arbSafeInt: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: -10, max: 100 }), weight: 6 },
  { arbitrary: fc.constantFrom(0, -1, 2147483647, -2147483648, 2147483648, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER), weight: 1 },
  { arbitrary: fc.maxSafeInteger(), weight: 1 },
).map(clampToNm);
/**
 * Integers for an `integer` item: FHIR `integer` is 32-bit, so the chart check rejects larger answers to
 * such an item (a decimal item, or an answer without a definition, takes any safe integer).
 */
const arbInt32: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: -10, max: 100 }), weight: 6 },
  { arbitrary: fc.constantFrom(0, -1, 2147483647, -2147483648), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
);
/** Realistic decimals: tenths from -100 to 100. */
const arbRealisticDecimal: fc.Arbitrary<number> = fc.integer({ min: -1000, max: 1000 }).map((n) => n / 10);
/** Any finite double, the extremes included (HL7 NM cannot carry |x| ≥ 1e16 or a non-zero |x| < 1e-14). */
const arbDecimal: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: arbRealisticDecimal, weight: 4 },
  { arbitrary: fc.constantFrom(0.1, 1e-7, 123456789.123, 1e21, -0, 5e-324, Number.MAX_VALUE), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
).map(clampToNm);
const decimalFor = (mode: TextMode): fc.Arbitrary<number> => (mode === 'realistic' ? arbRealisticDecimal : arbDecimal);

/**
 * A value that fits an item type (choice items pick one of their options when they have any; integer items
 * take 32-bit integers). `free`: no item definition will hold the answer, so integers may be any safe integer.
 */
function arbValueFor(item: AssessmentItemDefinition, mode: TextMode, years: YearRange, free = false): fc.Arbitrary<AnswerValue> {
  switch (item.type) {
    case 'choice': {
      const options = item.options ?? [];
      const pick = options.length > 0 ? fc.constantFrom(...options) : arbAnswerOption(mode);
      return pick.map((value) => ({ type: 'coding' as const, value }));
    }
    case 'string':
    case 'text':
      return textFor(mode, true).map((value) => ({ type: 'string' as const, value }));
    case 'integer':
      return (mode === 'realistic' ? arbRealisticInt : free ? arbSafeInt : arbInt32).map((value) => ({ type: 'integer' as const, value }));
    case 'decimal':
      return fc.oneof(
        decimalFor(mode).map((value) => ({ type: 'decimal' as const, value })),
        (mode === 'realistic' ? arbRealisticInt : arbSafeInt).map((value) => ({ type: 'integer' as const, value })),
      );
    case 'boolean':
      return fc.boolean().map((value) => ({ type: 'boolean' as const, value }));
    case 'date':
      return arbIsoDate({ years }).map((value) => ({ type: 'date' as const, value }));
    case 'dateTime':
      return arbIsoDateTime({ years }).map((value) => ({ type: 'dateTime' as const, value }));
  }
}

/** A free answer value of any type (for instruments without definitions). */
function arbAnyValue(mode: TextMode, years: YearRange): fc.Arbitrary<AnswerValue> {
  return fc.constantFrom<AssessmentItemType>(...ASSESSMENT_ITEM_TYPES).chain((type) => arbValueFor({ linkId: 'x', text: 'x', type }, mode, years, true));
}

/** Options of {@link arbAssessment}. */
export interface AssessmentOptions extends RecordOptions {
  /** Maximum items / answers of generated instruments (default 8). */
  maxItems?: number;
  /** Force instruments with item definitions (true), without (false), or either (default). */
  withDefinitions?: boolean;
  /** Draw the instrument from these (a chart's instrument pool); default PHQ-9, GAD-7 or a generated one. */
  instruments?: readonly AssessmentInstrument[];
}

/**
 * A generated instrument: with (1..maxItems unique linkIds) or without item definitions.
 * @param opts - text/id mode, maxItems, withDefinitions
 */
export function arbInstrument(opts: AssessmentOptions = {}): fc.Arbitrary<AssessmentInstrument> {
  return memo(`instrument|${opts.text}|${opts.ids}|${opts.maxItems}|${opts.withDefinitions}`, () => buildInstrument(opts));
}

function buildInstrument(opts: AssessmentOptions = {}): fc.Arbitrary<AssessmentInstrument> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const items = fc.uniqueArray(arbItemDefinition(mode, idMode), { minLength: 1, maxLength: opts.maxItems ?? 8, selector: (i) => i.linkId });
  return fc
    .record({
      id: arbIdFor(idMode),
      title: textFor(mode, true),
      code: opt(arbCoding(['loinc', 'snomed-ct'], mode)),
      url: opt(fc.constantFrom('http://example.org/Questionnaire/q1', 'urn:uuid:0f3c8a8e-2b5c-4c1e-9a77-0b1d2e3f4a5b', 'https://example.org/q?a=1&b=2%7C3'), 2),
      items: opts.withDefinitions === true ? items : opts.withDefinitions === false ? fc.constant(undefined) : opt(items, 4),
    })
    .map((r): AssessmentInstrument => compact(r));
}

/** A standard panel without item definitions: the answers carry question text and code themselves. */
function withoutDefinitions(i: AssessmentInstrument): AssessmentInstrument {
  const { items: _items, ...rest } = i;
  return { ...rest, id: `${i.id}-nodef` };
}

interface Panel {
  items: AssessmentItemDefinition[];
  total: Coding;
  severity: (n: number) => string;
}

const PHQ9_PANEL: Panel = { items: PHQ9_INSTRUMENT.items ?? [], total: PHQ9_TOTAL, severity: phq9Severity };
const GAD7_PANEL: Panel = { items: GAD7_INSTRUMENT.items ?? [], total: GAD7_TOTAL, severity: gad7Severity };

/** PHQ-9 without item definitions (id `phq-9-nodef`). */
export const PHQ9_INSTRUMENT_NO_ITEMS: AssessmentInstrument = withoutDefinitions(PHQ9_INSTRUMENT);
/** GAD-7 without item definitions (id `gad-7-nodef`). */
export const GAD7_INSTRUMENT_NO_ITEMS: AssessmentInstrument = withoutDefinitions(GAD7_INSTRUMENT);

/** The standard instruments (by identity) and their scoring. */
const STANDARD = new Map<AssessmentInstrument, Panel>([
  [PHQ9_INSTRUMENT, PHQ9_PANEL],
  [GAD7_INSTRUMENT, GAD7_PANEL],
  [PHQ9_INSTRUMENT_NO_ITEMS, PHQ9_PANEL],
  [GAD7_INSTRUMENT_NO_ITEMS, GAD7_PANEL],
]);

function standardInstruments(withDefinitions: boolean | undefined): AssessmentInstrument[] {
  if (withDefinitions === true) return [PHQ9_INSTRUMENT, GAD7_INSTRUMENT];
  if (withDefinitions === false) return [PHQ9_INSTRUMENT_NO_ITEMS, GAD7_INSTRUMENT_NO_ITEMS];
  return [...STANDARD.keys()];
}

/** Answers for an instrument: consistent with its definitions when it has any. */
function arbAnswers(instrument: AssessmentInstrument, opts: AssessmentOptions): fc.Arbitrary<AssessmentAnswer[]> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  const panel = STANDARD.get(instrument);
  const items = instrument.items ?? panel?.items;
  if (items !== undefined && items.length > 0) {
    const defined = instrument.items !== undefined;
    // Answers in item order; a standard panel is answered in full most of the time.
    const chosen = panel !== undefined ? fc.oneof({ arbitrary: fc.constant(items), weight: 4 }, { arbitrary: fc.subarray(items), weight: 1 }) : fc.subarray(items);
    return chosen.chain((subset) =>
      fc.tuple(
        ...subset.map((item) =>
          fc
            .record({
              value: arbValueFor(item, mode, years),
              override: defined && mode !== 'realistic' ? rare(textFor(mode)) : fc.constant(undefined),
            })
            .map(({ value, override }): AssessmentAnswer => {
              // Without definitions the answer carries the question text and code itself.
              if (!defined) return compact({ linkId: item.linkId, text: item.text, code: item.code, value });
              return compact({ linkId: item.linkId, text: override, value });
            }),
        ),
      ),
    );
  }
  return fc.uniqueArray(
    fc
      .record({ linkId: arbIdFor(idMode), text: opt(textFor(mode)), code: opt(arbCoding(undefined, mode)), value: arbAnyValue(mode, years) })
      .map((r): AssessmentAnswer => compact(r)),
    { maxLength: opts.maxItems ?? 8, selector: (a) => a.linkId },
  );
}

/**
 * An assessment: PHQ-9 or GAD-7 (with or without item definitions; total score = sum of the chosen
 * options' scores when fully answered) or a generated instrument (answers consistent with its definitions;
 * any score), full date-time `authored`, author and encounter references.
 * @param opts - text/id mode, reference pools, maxItems, withDefinitions, instrument pool
 */
export function arbAssessment(opts: AssessmentOptions = {}): fc.Arbitrary<Assessment> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const dangling = opts.danglingReferences === true;
  const instrumentArb =
    opts.instruments !== undefined && opts.instruments.length > 0
      ? fc.constantFrom(...opts.instruments)
      : fc.oneof({ arbitrary: fc.constantFrom(...standardInstruments(opts.withDefinitions)), weight: 1 }, { arbitrary: arbInstrument(opts), weight: 2 });
  return instrumentArb.chain((instrument) =>
    fc
      .record({
        id: arbIdFor(idMode),
        status: fc.constantFrom(...ASSESSMENT_STATUSES),
        authored: arbIsoDateTimeFull({ years: opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed') }),
        authorId: opt(arbRef(opts.practitionerIds, dangling, idMode)),
        encounterId: opt(arbRef(opts.encounterIds, dangling, idMode)),
        answers: arbAnswers(instrument, opts),
        freeScore: opt(
          fc.record({ value: decimalFor(mode), code: opt(arbCoding(['loinc'], mode)), interpretation: opt(textFor(mode)) }).map((s) => compact(s)),
          2,
        ),
      })
      .map(({ freeScore, ...r }): Assessment => {
        const panel = STANDARD.get(instrument);
        if (panel !== undefined) {
          const complete = r.answers.length === panel.items.length;
          if (!complete) return compact({ ...r, instrument, status: 'in-progress' as const });
          const total = r.answers.reduce((sum, a) => sum + (a.value.type === 'coding' ? (a.value.value.score ?? 0) : 0), 0);
          return compact({ ...r, instrument, status: 'completed' as const, score: { value: total, code: panel.total, interpretation: panel.severity(total) } });
        }
        return compact({ ...r, instrument, score: freeScore });
      }),
  );
}

// ---------------------------------------------------------------------------------------------------
// Medical history
// ---------------------------------------------------------------------------------------------------

/**
 * A medical-history entry (ICD-10-CM or SNOMED CT): active, or resolved/inactive/remission with an
 * abatement after the onset most of the time.
 */
export function arbMedicalHistoryEntry(opts: RecordOptions = {}): fc.Arbitrary<MedicalHistoryEntry> {
  return memo(`history|${opts.text}|${opts.ids}|${opts.years}`, () => buildMedicalHistoryEntry(opts));
}

function buildMedicalHistoryEntry(opts: RecordOptions = {}): fc.Arbitrary<MedicalHistoryEntry> {
  const mode = opts.text ?? 'mixed';
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  return fc
    .record({
      id: arbIdFor(opts.ids ?? mode),
      code: arbCoding(['icd-10-cm', 'snomed-ct'], mode),
      clinicalStatus: fc.constantFrom(...CLINICAL_STATUSES),
      verificationStatus: opt(fc.constantFrom(...VERIFICATION_STATUSES)),
      dates: arbOrderedPair({ years }),
      which: fc.record({ onset: fc.boolean(), abatement: fc.boolean() }),
      recordedDate: opt(arbIsoDateTime({ years })),
      note: opt(textFor(mode), 2),
    })
    .map(({ dates, which, ...r }): MedicalHistoryEntry => {
      const ended = r.clinicalStatus === 'resolved' || r.clinicalStatus === 'inactive' || r.clinicalStatus === 'remission';
      return compact({
        ...r,
        onset: which.onset ? dates[0] : undefined,
        abatement: ended || which.abatement ? dates[1] : undefined,
      });
    });
}
