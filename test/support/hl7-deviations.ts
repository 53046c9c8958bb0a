/**
 * The documented deviations from v2.5.1 component lengths come from the package itself
 * (`HL7_LENGTH_DEVIATIONS`, README "Conformance notes and decisions"): one list, read by both checks the tests
 * run — the package's `checkHl7Message` (positions `PID-3(2).1`, filtered by `isHl7LengthDeviation`) and the
 * independent hl7-dictionary check (positions `PID-3[2].1`, matched here).
 */
import { HL7_LENGTH_DEVIATIONS, isHl7LengthDeviation } from '../../src/index.js';

/** Deviation positions as hl7-dictionary's check writes them: `PID-3.1`, `PID-3[2].1`, in any repetition. */
export const DICTIONARY_DEVIATION_POSITIONS = new RegExp(`^(?:${HL7_LENGTH_DEVIATIONS.map((d) => `${d.field}(?:\\[\\d+\\])?\\.${d.component}`).join('|')})$`);

/** Deviation positions as `checkHl7Message` writes them: `PID-3.1`, `PID-3(2).1` (see `hl7Position`). */
export const CHECK_DEVIATION_POSITIONS = { test: (position: string): boolean => isHl7LengthDeviation({ code: 'max-length', position, segmentIndex: 0, message: '' }) };
