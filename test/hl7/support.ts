/**
 * Test helpers: read values back out of parsed HL7 messages, and compare them with chart values under the
 * documented rules (free text may be shortened to fit, chart ids too long for a field are derived).
 */
import { Hl7Message as MedplumMessage } from '@medplum/core';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import { checkHl7Message, escapeHl7, getHl7Value, isHl7LengthDeviation, parseHl7Message, unescapeHl7, type Hl7Message, type Hl7Problem, type Hl7Segment } from '../../src/index.js';

/**
 * What {@link checkHl7Message} reports about a built message, but the documented deviations: a business
 * identifier longer than CX-1 / XCN-1 (15) or a group id longer than XON-10 (20), sent whole (the `max-length`
 * problems at exactly those component positions, `test/support/hl7-deviations.ts`). For generated charts,
 * whose identifiers may be that long; a message built from short identifiers must give `[]` from
 * `checkHl7Message` itself.
 * @param text - the message
 * @returns the problems a conforming built message must not have
 */
export function conformanceProblems(text: string): Hl7Problem[] {
  return checkHl7Message(text).filter((p) => !isHl7LengthDeviation(p));
}

/** All segments with an id. */
export function segmentsOf(message: Hl7Message, id: string): Hl7Segment[] {
  return message.segments.filter((s) => s.id === id);
}

/** The one segment with an id (fails when there is not exactly one). */
export function only(message: Hl7Message, id: string): Hl7Segment {
  const found = segmentsOf(message, id);
  expect(found, `exactly one ${id}`).toHaveLength(1);
  return found[0] as Hl7Segment;
}

/** Shorthand for getHl7Value. */
export function val(segment: Hl7Segment, field: number, component = 1, subcomponent = 1, repetition = 1): string {
  return getHl7Value(segment, field, component, subcomponent, repetition);
}

/** Number of repetitions of a field (0 when the field is empty or absent). */
export function repetitions(segment: Hl7Segment, field: number): number {
  const f = segment.fields[field];
  if (f === undefined) return 0;
  return f.length === 1 && f[0]?.length === 1 && f[0][0]?.length === 1 && f[0][0][0] === '' ? 0 : f.length;
}

/** The raw (escaped) text of one repetition of a field. */
export function rawRepetition(segment: Hl7Segment, field: number, repetition = 1): string {
  const parts = segment.raw.slice(4).split('|');
  const raw = segment.id === 'MSH' ? parts[field - 2] : parts[field - 1];
  return (raw ?? '').split('~')[repetition - 1] ?? '';
}

/**
 * Free text that may have been shortened to fit a field of `max` characters: equal to the chart value, or,
 * when the field is full, a prefix of it.
 */
export function expectText(actual: string, expected: string, rawLength: number, max: number, label: string): void {
  if (rawLength < max - 6) expect(actual, label).toBe(expected);
  else expect(expected.startsWith(actual), `${label}: prefix`).toBe(true);
}

/**
 * Free text sent in a component of at most `max` characters (after escaping) inside a field of `fieldMax`: equal
 * to the chart value when both have room, otherwise a prefix of it that fits the component.
 */
export function expectComponent(actual: string, expected: string, max: number, rawLength: number, fieldMax: number, label: string): void {
  expect(escapeHl7(actual).length, `${label}: length`).toBeLessThanOrEqual(max);
  // Blank text (white space only) is sent as an empty component, as FHIR leaves it out.
  if (!/\S/.test(expected)) {
    expect(actual, label).toBe('');
    return;
  }
  if (escapeHl7(expected).length <= max && rawLength < fieldMax - 6) expect(actual, label).toBe(expected);
  else expect(expected.startsWith(actual), `${label}: prefix`).toBe(true);
}

/**
 * A chart id sent in a field of `max` characters: as is when it fits after escaping, else derived (prefix, `-`
 * and 16 hex digits; below 17 characters, `max` hex digits alone).
 */
export function expectId(actual: string, id: string, max: number, label: string): void {
  if (escapeHl7(id).length <= max) {
    expect(actual, label).toBe(id);
  } else if (max < 17) {
    expect(actual, label).toMatch(new RegExp(`^[0-9a-f]{${max}}$`));
  } else {
    expect(actual, label).toMatch(/-[0-9a-f]{16}$/);
    expect(escapeHl7(actual).length, label).toBeLessThanOrEqual(max);
    expect(id.startsWith(actual.slice(0, -17)), `${label}: prefix`).toBe(true);
  }
}

/** The identifier system a CX-4 / XCN-9 assigning authority stands for (exact reverse of the builders). */
export function systemOf(segment: Hl7Segment, field: number, component: number, repetition = 1): string {
  const uid = val(segment, field, component, 2, repetition);
  const type = val(segment, field, component, 3, repetition);
  return type === 'ISO' ? `urn:oid:${uid}` : type === 'UUID' ? `urn:uuid:${uid}` : uid;
}

/**
 * Parse with an independent parser (@medplum/core's Hl7Message) and compare: same segments, same number of
 * fields, repetitions and components, and the same unescaped subcomponent values.
 */
export function crossCheckWithMedplum(text: string): void {
  const ours = parseHl7Message(text);
  // Medplum splits on /[\r\n]+/, so the terminator after the last segment leaves one empty segment: drop it.
  const theirs = MedplumMessage.parse(text).segments.filter((s, i, all) => !(i === all.length - 1 && s.name === ''));
  // One comparable shape per parser: segment id, then per field its repetitions, components, subcomponents.
  // Medplum keeps values escaped and does not split subcomponents; MSH-1 is not a field there, so its MSH
  // starts at MSH-2, which neither parser splits.
  const mine = ours.segments.map((seg) => [seg.id, ...seg.fields.slice(seg.id === 'MSH' ? 3 : 1)]);
  const other = theirs.map((seg) => [
    seg.name,
    ...seg.fields.slice(seg.name === 'MSH' ? 2 : 1).map((field) => field.components.map((rep) => rep.map((raw) => raw.split('&').map((s) => unescapeHl7(s))))),
  ]);
  expect(other).toEqual(mine);
}

/** The little of hl7-standard's API the cross-check uses (the package ships no type declarations). */
interface Hl7StandardMessage {
  transform(): void;
  getSegments(): { type: string; data: Record<string, unknown>; index: number }[];
}
const Hl7Standard = createRequire(import.meta.url)('hl7-standard') as new (text: string) => Hl7StandardMessage;

/**
 * Parse with a second independent parser (hl7-standard) and compare: same segments in the same order, same
 * number of fields in each, same number of repetitions in each field.
 */
export function crossCheckWithHl7Standard(text: string): void {
  const ours = parseHl7Message(text);
  const theirs = new Hl7Standard(text);
  theirs.transform();
  const shape = (id: string, data: Record<string, unknown>): [string, number, number[]] => {
    const numbers = Object.keys(data).map((k) => Number(k.slice(id.length + 1)));
    const count = Math.max(0, ...numbers);
    const reps = numbers.sort((a, b) => a - b).filter((n) => n > 2 || id !== 'MSH').map((n) => (Array.isArray(data[`${id}.${n}`]) ? (data[`${id}.${n}`] as unknown[]).length : 1));
    return [id, count, reps];
  };
  // getSegments() groups segments by type; `index` is the position in the message.
  const other = theirs
    .getSegments()
    .sort((a, b) => a.index - b.index)
    .map((s) => shape(s.type, s.data));
  const mine = ours.segments.map((s): [string, number, number[]] => [
    s.id,
    s.fields.length - 1,
    s.fields.slice(s.id === 'MSH' ? 3 : 1).map((f) => f.length),
  ]);
  expect(other).toEqual(mine);
}
