/**
 * Escaping of long text (a note) with the standard delimiters `|^~\&`: the same result as the general
 * escaping (standard-escape.ts), by a scanner suited to long text. Called through the speed-up seam
 * (speed-ups.ts).
 */
import type { CharsetEvidence } from './charset-evidence.js';
import { controlEscape } from './control-escape.js';

/** Control characters other than CR and LF (which long text finds by indexOf). Global. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * The leading run of characters that are sent as ASCII: ASCII itself and the C1 controls, which are escaped
 * (sticky: matches at lastIndex only, possibly empty).
 */
// eslint-disable-next-line no-control-regex
const ASCII_RUN = /[\u0000-\u009f]*/y;

/** Printable ASCII, CR and LF: what long text mostly holds (sticky, possibly empty). */
const PLAIN_RUN = /[\n\r\u0020-\u007e]*/y;

const CR = 13;
const LF = 10;

/** Whether text holds a code unit sent as non-ASCII (U+00A0 and above) from `from` on. */
function hasNonAscii(text: string, from: number): boolean {
  ASCII_RUN.lastIndex = from;
  ASCII_RUN.test(text);
  return ASCII_RUN.lastIndex !== text.length;
}

/** The position of the next `ch` in `text` from `from`, or `text.length` when there is none. */
function nextOf(text: string, ch: string, from: number): number {
  const k = text.indexOf(ch, from);
  return k < 0 ? text.length : k;
}

/** The position of the next control character other than CR and LF in `text` from `from`, or `text.length`. */
function nextControl(text: string, from: number): number {
  CONTROL.lastIndex = from;
  return CONTROL.test(text) ? CONTROL.lastIndex - 1 : text.length;
}

/**
 * The position of the first control character other than CR and LF, noting on the way whether the text holds
 * a non-ASCII character (only until the message is known to hold one). For an ASCII note without controls,
 * the common case, one scan finds both.
 */
function firstControl(text: string, evidence: CharsetEvidence | undefined): number {
  if (evidence === undefined || evidence.nonAscii) return nextControl(text, 0);
  PLAIN_RUN.lastIndex = 0;
  PLAIN_RUN.test(text);
  const k = PLAIN_RUN.lastIndex;
  if (k === text.length) return k;
  if (text.charCodeAt(k) > 0x9f) {
    evidence.nonAscii = true;
    return nextControl(text, k + 1);
  }
  if (hasNonAscii(text, k + 1)) evidence.nonAscii = true;
  return k;
}

/**
 * Escape long text with the standard delimiters, as `escapeStandard` does: where one regular-expression call
 * per special character costs more than the scanning itself, the next position of each of the seven special
 * characters is kept (found by `indexOf`; the control characters other than CR and LF by one regular
 * expression), and the text is copied run by run up to the nearest one. Every character is scanned at most
 * once per special character.
 * @param text - the text
 * @param lines - whether LF and CRLF end a line (written as the repetition separator `~`)
 * @param evidence - where a non-ASCII character is noted, or undefined
 * @returns the escaped text (`text` itself when nothing needed escaping)
 * @example escapeLongText('a|b'.repeat(50), false, undefined) // 'a\\F\\ba\\F\\b…'
 */
export function escapeLongText(text: string, lines: boolean, evidence: CharsetEvidence | undefined): string {
  const n = text.length;
  let pC = firstControl(text, evidence);
  let pE = nextOf(text, '\\', 0);
  let pF = nextOf(text, '|', 0);
  let pS = nextOf(text, '^', 0);
  let pT = nextOf(text, '&', 0);
  let pR = nextOf(text, '~', 0);
  let pCR = nextOf(text, '\r', 0);
  let pLF = nextOf(text, '\n', 0);
  let out = '';
  let last = 0;
  for (;;) {
    let i = pE;
    if (pF < i) i = pF;
    if (pS < i) i = pS;
    if (pT < i) i = pT;
    if (pR < i) i = pR;
    if (pCR < i) i = pCR;
    if (pLF < i) i = pLF;
    if (pC < i) i = pC;
    if (i === n) break;
    let next = i + 1;
    let rep: string;
    switch (text.charCodeAt(i)) {
      case 0x5c:
        rep = '\\E\\';
        pE = nextOf(text, '\\', next);
        break;
      case 0x7c:
        rep = '\\F\\';
        pF = nextOf(text, '|', next);
        break;
      case 0x5e:
        rep = '\\S\\';
        pS = nextOf(text, '^', next);
        break;
      case 0x26:
        rep = '\\T\\';
        pT = nextOf(text, '&', next);
        break;
      case 0x7e:
        rep = '\\R\\';
        pR = nextOf(text, '~', next);
        break;
      case LF:
        rep = lines ? '~' : '\\X0A\\';
        pLF = nextOf(text, '\n', next);
        break;
      case CR:
        pCR = nextOf(text, '\r', next);
        if (lines && text.charCodeAt(next) === LF) {
          rep = '~';
          next += 1;
          pLF = nextOf(text, '\n', next);
        } else {
          rep = '\\X0D\\';
        }
        break;
      default: // another control character
        rep = controlEscape(text.charCodeAt(i), '\\');
        pC = nextControl(text, next);
    }
    out += text.slice(last, i) + rep;
    last = next;
  }
  if (last === 0) return text;
  return last === n ? out : out + text.slice(last);
}
