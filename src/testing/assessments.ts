/**
 * Assessments: PHQ-9 and GAD-7 (with and without item definitions) and generated instruments.
 */
import fc from 'fast-check';
import {
  ASSESSMENT_STATUSES,
  type Assessment,
  type AssessmentAnswer,
  type AssessmentInstrument,
  type AssessmentItemDefinition,
  type Coding,
} from '../index.js';
import { arbCoding } from './codes.js';
import { arbIsoDateTimeFull } from './dates.js';
import { GAD7_INSTRUMENT, GAD7_TOTAL, PHQ9_INSTRUMENT, PHQ9_TOTAL, gad7Severity, phq9Severity } from './instruments.js';
import { arbIdFor } from './chart-ids.js';
import { textFor } from './text-values.js';
import { compact, memo, opt, rare } from './internal/util.js';
import { arbRef, type RecordOptions } from './record-options.js';
import { arbAnyValue, arbItemDefinition, arbValueFor, decimalFor } from './assessment-values.js';

/** Options of {@link arbAssessment}. */
export interface AssessmentOptions extends RecordOptions {
  /** Maximum items / answers of generated instruments (default 8). */
  maxItems?: number | undefined;
  /** Force instruments with item definitions (true), without (false), or either (default). */
  withDefinitions?: boolean | undefined;
  /** Draw the instrument from these (a chart's instrument pool); default PHQ-9, GAD-7 or a generated one. */
  instruments?: readonly AssessmentInstrument[] | undefined;
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
