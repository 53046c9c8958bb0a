/**
 * The problems `checkHl7Message` reports: their codes and their shape.
 */

/** The kinds of problems the check reports. */
export const HL7_PROBLEM_CODES = [
  'parse',
  'message-type',
  'unsupported-structure',
  'missing-segment',
  'unexpected-segment',
  'segment-order',
  'required-field',
  'max-length',
  'repetition',
  'unknown-field',
  'format',
  'table-value',
  'value',
  'conditional',
] as const;
/**
 * One of {@link HL7_PROBLEM_CODES}: `parse` (not readable as HL7), `message-type` (MSH-9.3 against the event
 * map), `unsupported-structure`, `missing-segment`, `unexpected-segment`, `segment-order`, `required-field` (a
 * required field, or a required component of a valued composite: CX-1, TS-1, FN-1), `max-length`,
 * `repetition`, `unknown-field` (a field, component or sub-component v2.5.1 does not define), `format`,
 * `table-value`, `value` (MSH-12), and `conditional`: a component that a v2.5.1 data type's conditional rule
 * requires given its siblings is empty (HD-2 / HD-3 valued one without the other, likewise EI-3 / EI-4; XCN-1
 * valued without XCN-8 or XCN-9), reported at the empty component.
 */
export type Hl7ProblemCode = (typeof HL7_PROBLEM_CODES)[number];

/** One problem found by {@link checkHl7Message}. Messages name positions and rules, never values. */
export interface Hl7Problem {
  /** What kind of problem it is. */
  readonly code: Hl7ProblemCode;
  /**
   * 0-based index of the segment concerned; for a missing segment, the index of the segment before which it
   * is missing (the number of segments when it is missing at the end); -1 for the message as a whole.
   */
  readonly segmentIndex: number;
  /** The field, component or sub-component position (`PID-5`, `PID-5(2)`, `MSH-9.3`, `PID-5.1.1`) or segment id (`TXA`) concerned, when there is one. */
  readonly position: string | undefined;
  /** A human-readable explanation. */
  readonly message: string;
}
