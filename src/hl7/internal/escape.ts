/**
 * The escaping every builder uses: {@link escapeHl7} with the standard delimiters, noting on the way
 * whether any text given is not ASCII, so MSH-18 needs no scan of the finished message. Builders run
 * synchronously, so flags per module are enough: `prepareMessage` clears them, `assembleMessage` reads them.
 * Every chart value reaches a message through these functions (codes, table values and date-times are ASCII
 * by construction), so the flag never misses; it can over-report only when escaped text is later shortened or
 * replaced by a derived id, which {@link noteDropped} records so that the message is scanned then.
 */
import { escapeHl7, escapeHl7Lines } from '../encoding.js';

// eslint-disable-next-line no-control-regex
const NON_ASCII_RE = /[^\u0000-\u007f]/;
let nonAscii = false;
let dropped = false;

/**
 * Forget what was seen so far (at the start of a message).
 * @returns nothing
 * @example resetNonAscii()
 */
export function resetNonAscii(): void {
  nonAscii = false;
  dropped = false;
}

/**
 * Note that escaped text was shortened or replaced by a derived id, so some of it may not be sent.
 * @returns nothing
 * @example noteDropped()
 */
export function noteDropped(): void {
  dropped = true;
}

/**
 * Whether the message may hold non-ASCII text.
 * @returns `'no'` when nothing escaped since the last reset held any, `'yes'` when something did and all of
 *   it is sent, `'maybe'` when something did but text was dropped since
 * @example nonAsciiState() // 'no'
 */
export function nonAsciiState(): 'no' | 'yes' | 'maybe' {
  return !nonAscii ? 'no' : dropped ? 'maybe' : 'yes';
}

/**
 * Escape a value with the standard delimiters (see {@link escapeHl7}), noting non-ASCII text.
 * @param text - the value
 * @returns the escaped value
 * @example esc('A & B') // 'A \\T\\ B'
 */
export function esc(text: string): string {
  if (!nonAscii && NON_ASCII_RE.test(text)) nonAscii = true;
  return escapeHl7(text);
}

/**
 * Escape multi-line text into TX repetitions with the standard delimiters (see {@link escapeHl7Lines}),
 * noting non-ASCII text.
 * @param text - the text
 * @returns the repetitions joined by `~`
 * @example escLines('line 1\nline 2') // 'line 1~line 2'
 */
export function escLines(text: string): string {
  if (!nonAscii && NON_ASCII_RE.test(text)) nonAscii = true;
  return escapeHl7Lines(text);
}
