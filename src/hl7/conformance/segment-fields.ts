/**
 * The fields of one segment: unknown and required fields, repetition, maximum lengths, then each
 * repetition's components, value formats and table codes, and OBX-2's condition.
 * @see HL7 v2.5.1 chapter 2, 2.5.3 (fields); the segment definitions of chapters 2, 3, 6, 7 and 9
 */
import { hl7Position, type Hl7Message, type Hl7Segment } from '../parser.js';
import { checkComponents, type ComponentContext } from './data-type-components.js';
import { segmentFields } from './definitions.js';
import type { Hl7Problem } from './problems.js';
import { checkFieldValue, checkObx5, hasObx5Format } from './value-formats.js';

/** The raw (escaped) text of each field of a segment, indexed by field number (MSH-1 is the separator). */
function rawFields(segment: Hl7Segment, fieldSeparator: string): string[] {
  const raw = segment.raw;
  if (raw.length <= 3) return [segment.id];
  const parts = raw.slice(4).split(fieldSeparator);
  return segment.id === 'MSH' ? [segment.id, fieldSeparator, ...parts] : [segment.id, ...parts];
}

/**
 * Check the fields of a segment this library emits (a segment the check has no definitions for is skipped).
 * @param segment - the segment
 * @param index - its index in the message
 * @param message - the message (for its delimiters)
 * @param problems - where problems are added
 * @returns nothing
 * @example checkSegmentFields(pid, 2, parsed, problems)
 */
export function checkSegmentFields(segment: Hl7Segment, index: number, message: Hl7Message, problems: Hl7Problem[]): void {
  const defs = segmentFields(segment.id);
  if (defs === undefined) return;
  const d = message.delimiters;
  const raw = rawFields(segment, d.field);
  for (let n = 1; n < raw.length || n <= defs.length; n++) {
    const def = defs[n - 1];
    const text = raw[n] ?? '';
    if (def === undefined) {
      if (text !== '') {
        const position = hl7Position(segment.id, n);
        problems.push({ code: 'unknown-field', segmentIndex: index, position, message: `${position} does not exist in v2.5.1` });
      }
      continue;
    }
    const position = hl7Position(segment.id, n);
    if (text === '') {
      if (def.required) problems.push({ code: 'required-field', segmentIndex: index, position, message: `${position} is required` });
      continue;
    }
    // MSH-1 and MSH-2 are the delimiters themselves: not split, not escaped.
    const reps = segment.id === 'MSH' && n <= 2 ? [text] : text.split(d.repetition);
    if (!def.repeating && reps.length > 1) {
      problems.push({ code: 'repetition', segmentIndex: index, position, message: `${position} does not repeat` });
    }
    // OBX-5 takes the type OBX-2 names; where OBX-5's format check applies, it covers the number of components.
    const obx5 = segment.id === 'OBX' && n === 5;
    const type = obx5 ? (segment.fields[2]?.[0]?.[0]?.[0] ?? '') : def.type;
    const countExtra = !(obx5 && hasObx5Format(type));
    const ctx: ComponentContext = { segment, index, field: n, repetition: 1, delimiters: d, problems, countExtra };
    const checkParts = !(segment.id === 'MSH' && n <= 2);
    reps.forEach((rep, r) => {
      // `""` is the explicit HL7 null, not a value of two characters.
      if (def.maxLength > 0 && rep.length > def.maxLength && rep !== '""') {
        const at = hl7Position(segment.id, n, r + 1);
        problems.push({
          code: 'max-length',
          segmentIndex: index,
          position: at,
          message: `${at} is longer than the ${def.maxLength} characters v2.5.1 allows (after escaping)`,
        });
      }
      if (checkParts) {
        ctx.repetition = r + 1;
        checkComponents(ctx, rep, type);
      }
    });
    if (!(segment.id === 'MSH' && n <= 2)) checkFieldValue(segment, index, n, def, problems);
    if (segment.id === 'OBX' && n === 5) checkObx5(segment, index, problems);
  }
  if (segment.id === 'OBX') checkObx2(segment, index, problems);
}

/**
 * OBX-2's condition (v2.5.1 7.4.2.2): "It must be valued if OBX-11-Observation Result Status is not valued
 * with an 'X'."
 */
function checkObx2(segment: Hl7Segment, index: number, problems: Hl7Problem[]): void {
  const valued = (n: number): string => segment.fields[n]?.[0]?.[0]?.[0] ?? '';
  if (valued(2) === '' && valued(11) !== 'X') {
    problems.push({ code: 'conditional', segmentIndex: index, position: 'OBX-2', message: "OBX-2 (value type) must be valued when OBX-11 (result status) is not 'X' (v2.5.1 7.4.2.2)" });
  }
}
