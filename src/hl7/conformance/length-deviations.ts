/**
 * The builders' documented length deviations, and the test that tells them from other problems.
 */
import type { Hl7Problem } from './problems.js';

/** A component the builders send longer than v2.5.1 allows, on purpose: `field` component `component`. */
export interface Hl7LengthDeviation {
  /** The field, e.g. `PID-3`. */
  readonly field: string;
  /** The component (1-based). */
  readonly component: number;
}

/**
 * The documented length deviations of the builders (listed in the user documentation's conformance notes): identifiers and
 * codes are never cut or replaced, so one longer than its component is sent whole. Business identifiers in
 * CX-1 / XCN-1 (15: PID-3, IN1-3, IN1-49, the patient in QRD-8), the group id in XON-10 (20: IN1-9), chart
 * codes in CE-1 (20: DG1-3, PR1-3, OBX-3, a coded OBX-5, OBX-17, OBR-4) and the language tag (PID-15).
 */
export const HL7_LENGTH_DEVIATIONS: readonly Hl7LengthDeviation[] = Object.freeze(
  (
    [
      ['PID-3', 1],
      ['IN1-3', 1],
      ['IN1-49', 1],
      ['QRD-8', 1],
      ['IN1-9', 10],
      ['DG1-3', 1],
      ['PR1-3', 1],
      ['OBX-3', 1],
      ['OBX-5', 1],
      ['OBX-17', 1],
      ['OBR-4', 1],
      ['PID-15', 1],
    ] as const
  ).map(([field, component]) => Object.freeze({ field, component })),
);

/** `PID-3.1`, `PID-3(2).1`, `IN1-9.10`: the positions `checkHl7Message` gives the deviations, any repetition. */
const DEVIATION_POSITION_RE = new RegExp(`^(?:${HL7_LENGTH_DEVIATIONS.map((d) => `${d.field}(?:\\(\\d+\\))?\\.${d.component}`).join('|')})$`);

/**
 * Whether a problem from {@link checkHl7Message} is one of the builders' documented length deviations
 * ({@link HL7_LENGTH_DEVIATIONS}): a `max-length` at one of those components. Filter them out to check the
 * builders' output for everything else.
 * @param problem - a problem from `checkHl7Message` (anything else gives false)
 * @returns whether it is a documented deviation
 * @example checkHl7Message(text).filter((p) => !isHl7LengthDeviation(p)) // [] for any message the builders emit
 */
export function isHl7LengthDeviation(problem: Hl7Problem): boolean {
  if (typeof problem !== 'object' || problem === null) return false;
  const { code, position } = problem as { code?: unknown; position?: unknown };
  return code === 'max-length' && typeof position === 'string' && DEVIATION_POSITION_RE.test(position);
}
