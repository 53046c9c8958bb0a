/**
 * What a message's MSH-18 (character set, HL7 v2.5.1 chapter 2, 2.14.9.18; table 0211) is decided from.
 * A message holding any character outside ASCII declares `UNICODE UTF-8`; an ASCII message leaves MSH-18
 * empty (the default, ASCII). Escaping notes on a per-message object whether any text it escaped held a
 * non-ASCII character; the finished segments are then scanned only when one did (the text may have been
 * shortened or replaced by a derived id since, so only the message itself tells).
 */

/** Per message: whether any text escaped for it held a non-ASCII character (U+00A0 or above). */
export interface CharsetEvidence {
  /** Set by escaping when a non-ASCII character was seen; never cleared within a message. */
  nonAscii: boolean;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII_RE = /[^\u0000-\u007f]/;

/**
 * Whether any of the texts holds a character outside ASCII.
 * @param texts - encoded segments or values
 * @returns whether one of them holds a code unit above U+007F
 * @example holdsNonAscii(['PID|1||x', 'OBX|1|TX|||café']) // true
 */
export function holdsNonAscii(texts: readonly string[]): boolean {
  return texts.some((s) => NON_ASCII_RE.test(s));
}
