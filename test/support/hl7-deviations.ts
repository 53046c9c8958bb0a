/**
 * The documented deviations from v2.5.1 component lengths (README, "Conformance notes and decisions"): a
 * business identifier longer than CX-1's / XCN-1's 15 characters (PID-3, IN1-3, IN1-49, and the patient's
 * identifier in QRD-8), a group id longer than XON-10's 20 (IN1-9) and a chart code longer than CE-1's 20 are sent
 * whole, because cutting or replacing an identifier or a code changes what it identifies. One list, read by both checks the tests run: the
 * independent hl7-dictionary check (positions `PID-3[2].1`) and the package's `checkHl7Message` (`PID-3(2).1`).
 */

/** A component sent longer than v2.5.1 allows, on purpose: `field` component `component`, in any repetition when `repeats`. */
interface Deviation {
  readonly field: string;
  readonly component: number;
  readonly repeats: boolean;
}

export const DOCUMENTED_LENGTH_DEVIATIONS: readonly Deviation[] = [
  { field: 'PID-3', component: 1, repeats: true }, // CX-1 (ST 15): the patient's identifiers
  { field: 'IN1-3', component: 1, repeats: true }, // CX-1: the payer's identifier
  { field: 'IN1-49', component: 1, repeats: true }, // CX-1: the member id
  { field: 'QRD-8', component: 1, repeats: true }, // XCN-1 (ST 15): the patient's identifier
  { field: 'IN1-9', component: 10, repeats: false }, // XON-10 (ST 20): the group id
  // CE-1 (ST 20): chart codes, never cut (the chart check keeps them to 64 characters).
  { field: 'DG1-3', component: 1, repeats: false },
  { field: 'PR1-3', component: 1, repeats: false },
  { field: 'OBX-3', component: 1, repeats: false },
  { field: 'OBX-5', component: 1, repeats: true }, // a coded answer (OBX-2 CE)
  { field: 'OBX-17', component: 1, repeats: true }, // the ADR^A19 instrument
  { field: 'OBR-4', component: 1, repeats: false },
  { field: 'PID-15', component: 1, repeats: false }, // the language tag
];

/** A matcher of the deviation positions, with the repetition written as `repetition` matches it. */
function deviationPattern(repetition: string): RegExp {
  const alternatives = DOCUMENTED_LENGTH_DEVIATIONS.map((d) => `${d.field}${d.repeats ? `(?:${repetition})?` : ''}\\.${d.component}`);
  return new RegExp(`^(?:${alternatives.join('|')})$`);
}

/** Deviation positions as hl7-dictionary's check writes them: `PID-3.1`, `PID-3[2].1`. */
export const DICTIONARY_DEVIATION_POSITIONS = deviationPattern('\\[\\d+\\]');

/** Deviation positions as `checkHl7Message` writes them: `PID-3.1`, `PID-3(2).1` (see `hl7Position`). */
export const CHECK_DEVIATION_POSITIONS = deviationPattern('\\(\\d+\\)');
