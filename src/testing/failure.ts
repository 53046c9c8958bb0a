/**
 * The error the property helpers throw: it names every path that failed with the value expected and the
 * value found, so that a fast-check counterexample report says what went wrong where.
 */

/**
 * One failed expectation of a property helper.
 * @example { path: 'PID-5.1', expected: '"O\'Brien"', actual: '"O"' }
 */
export interface PropertyMismatch {
  /** Where: an HL7 location (`PID-5.1`), a JSON path into a Bundle (`entry[2].resource.subject.reference`), or a step (`unescapeHl7(escapeHl7(text))`). */
  path: string;
  /** What was expected there, in words or as a JSON string. */
  expected: string;
  /** What was found, as a JSON string. */
  actual: string;
}

/** How many mismatches a message lists before it says how many more there are. */
const LISTED = 10;

/**
 * Thrown by the property helpers (`assertEscapeRoundTrip`, `assertHl7ReadsBack`,
 * `assertBundleReferencesResolve`) when the property does not hold; the message lists each failed path with
 * the expected and actual values (synthetic test data: it quotes values, unlike the core's errors).
 * @example
 * try { assertHl7ReadsBack(message, { 'PID-5.1': "O'Brien" }); } catch (e) {
 *   if (e instanceof PropertyAssertionError) console.log(e.mismatches[0]?.path); // 'PID-5.1'
 * }
 */
export class PropertyAssertionError extends Error {
  /** Always `'PropertyAssertionError'`. */
  override readonly name = 'PropertyAssertionError';
  /** Every failed expectation, in the order checked. */
  readonly mismatches: readonly PropertyMismatch[];

  /**
   * @param summary - what property failed (`'HL7 values do not read back'`)
   * @param mismatches - the failed expectations (at least one)
   * @param options - the underlying error, if any
   */
  constructor(summary: string, mismatches: readonly PropertyMismatch[], options?: { cause?: unknown }) {
    const lines = mismatches.slice(0, LISTED).map((m) => `  ${m.path}: expected ${m.expected}, got ${m.actual}`);
    if (mismatches.length > LISTED) lines.push(`  … and ${mismatches.length - LISTED} more`);
    super(`${summary}\n${lines.join('\n')}`, options);
    this.mismatches = mismatches;
  }
}

/**
 * A value as a message shows it: strings JSON-quoted (so CR, LF and control characters are visible),
 * long ones cut.
 * @param value - any value
 * @returns a short printable form
 * @example show('a\rb') // '"a\\rb"'
 */
export function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…(${text.length} characters)` : text;
}
