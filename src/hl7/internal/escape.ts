/**
 * The escaping every builder uses: {@link escapeHl7} with the standard delimiters, noting on the way
 * whether any text given is not ASCII, so a message whose text is all ASCII (the common case) needs no scan
 * for MSH-18. Builders run synchronously, so one flag per module is enough: `prepareMessage` clears it,
 * `assembleMessage` reads it. Every chart value reaches a message through these functions (codes, table
 * values and date-times are ASCII by construction), so the flag can only over-report, never miss.
 */
import { escapeHl7, escapeHl7Lines } from '../encoding.js';

// eslint-disable-next-line no-control-regex
const NON_ASCII_RE = /[^\u0000-\u007f]/;
let nonAscii = false;

/** Forget non-ASCII text seen so far (at the start of a message). */
export function resetNonAscii(): void {
  nonAscii = false;
}

/** Whether text escaped since the last reset held a character outside ASCII. */
export function sawNonAscii(): boolean {
  return nonAscii;
}

/** Escape a value with the standard delimiters (see {@link escapeHl7}). */
export function esc(text: string): string {
  if (!nonAscii && NON_ASCII_RE.test(text)) nonAscii = true;
  return escapeHl7(text);
}

/** Escape multi-line text into TX repetitions with the standard delimiters (see {@link escapeHl7Lines}). */
export function escLines(text: string): string {
  if (!nonAscii && NON_ASCII_RE.test(text)) nonAscii = true;
  return escapeHl7Lines(text);
}
