/**
 * Parts of assessments: answer options, item definitions and answer values that fit an item type.
 */
import fc from 'fast-check';
import {
  ASSESSMENT_ITEM_TYPES,
  type AnswerOption,
  type AnswerValue,
  type AssessmentItemDefinition,
  type AssessmentItemType,
} from '../index.js';
import { arbCoding } from './codes.js';
import { arbIsoDate, arbIsoDateTime, type YearRange } from './dates.js';
import type { TextMode } from './fragments.js';
import { arbIdFor } from './chart-ids.js';
import { textFor } from './text-values.js';
import { compact, memo, opt } from './internal/util.js';
import { clampToNm } from './internal/nm.js';

/** An answer option (coding, optional finite score). */
export function arbAnswerOption(mode: TextMode): fc.Arbitrary<AnswerOption> {
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
export function arbItemDefinition(mode: TextMode, idMode: TextMode): fc.Arbitrary<AssessmentItemDefinition> {
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
/**
 * Any finite double, the extremes included, brought within the chart check's NM range (non-zero magnitudes
 * 1e-13 … below 1e15; see {@link clampToNm}): the check refuses numbers HL7 NM cannot send.
 */
const arbDecimal: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: arbRealisticDecimal, weight: 4 },
  { arbitrary: fc.constantFrom(0.1, 1e-7, 123456789.123, 1e21, -0, 5e-324, Number.MAX_VALUE), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
).map(clampToNm);
export const decimalFor = (mode: TextMode): fc.Arbitrary<number> => (mode === 'realistic' ? arbRealisticDecimal : arbDecimal);

/**
 * A value that fits an item type (choice items pick one of their options when they have any; integer items
 * take 32-bit integers). `free`: no item definition will hold the answer, so integers may be any safe integer.
 */
export function arbValueFor(item: AssessmentItemDefinition, mode: TextMode, years: YearRange, free = false): fc.Arbitrary<AnswerValue> {
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
export function arbAnyValue(mode: TextMode, years: YearRange): fc.Arbitrary<AnswerValue> {
  return fc.constantFrom<AssessmentItemType>(...ASSESSMENT_ITEM_TYPES).chain((type) => arbValueFor({ linkId: 'x', text: 'x', type }, mode, years, true));
}
