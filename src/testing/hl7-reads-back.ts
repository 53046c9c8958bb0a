/**
 * The HL7 read-back property: values a pipeline put into a message are the values a parser reads out of it.
 */
import { getHl7Value, parseHl7Message, type Hl7Segment } from '../index.js';
import { PropertyAssertionError, show, type PropertyMismatch } from './failure.js';

/**
 * An HL7 location: segment id, optional occurrence (`OBX[2]`, 1-based), field, optional repetition
 * (`PID-3[2]`), component and subcomponent: `PID-5.1`, `OBX[3]-5`, `PID-3[2].4.2`, `MSH-9.2`.
 */
const LOCATION_RE = /^([A-Z][A-Z0-9]{2})(?:\[(\d+)\])?-(\d+)(?:\[(\d+)\])?(?:\.(\d+))?(?:\.(\d+))?$/;

/** Where a location points. */
interface Location {
  segment: string;
  occurrence: number;
  field: number;
  repetition: number;
  component: number;
  subcomponent: number;
}

function readLocation(location: string): Location {
  const m = LOCATION_RE.exec(location);
  const numbers = m?.slice(2).map((n) => (n === undefined ? 1 : Number(n)));
  if (m === null || numbers === undefined || numbers.some((n, i) => (i === 1 ? n < 0 : n < 1))) {
    throw new RangeError(`${show(location)} is no HL7 location like 'PID-5.1', 'OBX[2]-5' or 'PID-3[2].4'`);
  }
  const [occurrence = 1, field = 1, repetition = 1, component = 1, subcomponent = 1] = numbers;
  return { segment: m[1] as string, occurrence, field, repetition, component, subcomponent };
}

function segmentAt(segments: readonly Hl7Segment[], id: string, occurrence: number): Hl7Segment | undefined {
  return segments.filter((s) => s.id === id)[occurrence - 1];
}

/**
 * Check that a parser reads back from an HL7 v2 message the values expected at each location, unescaped:
 * `{ 'PID-5.1': "O'Brien", 'PID-5.2': 'Mary', 'OBX[2]-5': '12' }`. Locations are `SEG-field`, with an
 * optional occurrence (`OBX[2]-5`, the second OBX), repetition (`PID-3[2]`), component and subcomponent
 * (`PID-3[2].4.2`); MSH fields count MSH-1 as the field separator, as the standard does. A missing
 * segment or value reads as `''`. Every location is checked before the helper throws.
 * @param message - the message text (segments ending in CR, as built or received)
 * @param expected - location → the value a parser must read there
 * @returns nothing; the property held
 * @throws {PropertyAssertionError} naming each location whose value differs, with both values (the parse
 *   error as `cause` when the message does not parse)
 * @throws {RangeError} when a key is no HL7 location
 * @example
 * const message = buildAdtA31(chart, { now: '2026-03-01T10:00:00Z', controlId: 'ADT1' });
 * assertHl7ReadsBack(message, { 'MSH-9.2': 'A31', 'PID-5.1': chart.patient.names[0]?.family ?? '' });
 */
export function assertHl7ReadsBack(message: string, expected: Readonly<Record<string, string>>): void {
  const locations = Object.entries(expected).map(([key, value]) => ({ key, value, at: readLocation(key) }));
  let segments: readonly Hl7Segment[];
  try {
    segments = parseHl7Message(message).segments;
  } catch (error) {
    throw new PropertyAssertionError('the HL7 message does not parse', [{ path: 'message', expected: 'a message parseHl7Message reads', actual: show(message) }], { cause: error });
  }
  const mismatches: PropertyMismatch[] = [];
  for (const { key, value, at } of locations) {
    const segment = segmentAt(segments, at.segment, at.occurrence);
    const actual = segment === undefined ? '' : getHl7Value(segment, at.field, at.component, at.subcomponent, at.repetition);
    if (actual !== value) mismatches.push({ path: key, expected: show(value), actual: segment === undefined ? `no ${at.segment} segment number ${at.occurrence}` : show(actual) });
  }
  if (mismatches.length > 0) throw new PropertyAssertionError(`HL7 values do not read back (${mismatches.length} of ${locations.length})`, mismatches);
}
