/**
 * The escaping every builder uses: escaping with the standard delimiters `|^~\&` (see `escapeHl7`), noting
 * on the way whether any text given is not ASCII, so MSH-18 needs no scan of the finished message. Builders
 * run synchronously, so flags per module are enough: `prepareMessage` clears them, `assembleMessage` reads
 * them. Every chart value reaches a message through these functions (codes, table values and date-times are
 * ASCII by construction), so the flag never misses; it can over-report only when escaped text is later
 * shortened or replaced by a derived id, which {@link noteDropped} records so that the message is scanned then.
 *
 * Escaping and line splitting (for TX repetitions) are done together, building the result once. A short value
 * is scanned by one regular expression, which also finds non-ASCII characters; a long text (a note) by
 * `indexOf` per special character, one regular expression for control characters and one scan for non-ASCII
 * (see {@link escapeLong}). Text with nothing to escape is returned as is, without copying.
 *
 * Control characters: v2.5.1 text types (ST, TX, FT) hold printable characters, so every control character
 * (C0 U+0000–U+001F with tab, CR and LF, DEL U+007F, C1 U+0080–U+009F) is sent as a hex escape of its UTF-8
 * bytes, the reading `unescapeHl7` gives `\Xhh…\`: tab `\X09\`, DEL `\X7F\`, U+0085 `\XC285\`.
 */

/** The characters the standard delimiters make special, and every control character. Global: a scan resumes at lastIndex. */
// eslint-disable-next-line no-control-regex -- control characters are escaped
const SPECIAL = /[|^~\\&\u0000-\u001f\u007f-\u009f]/g;
/** The same, and every other non-ASCII code unit (U+00A0 … U+FFFF, surrogates included). */
// eslint-disable-next-line no-control-regex -- control characters are escaped
const SPECIAL_OR_NON_ASCII = /[|^~\\&\u0000-\u001f\u007f-\uffff]/g;
/** Control characters other than CR and LF (which long text finds by indexOf). Global. */
// eslint-disable-next-line no-control-regex -- control characters are escaped
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

const CR = 13;
const LF = 10;

const HEX = '0123456789ABCDEF';

/**
 * The hex escape of a control character (C0, DEL or C1) with escape character `e`: its UTF-8 bytes in upper-case
 * hex, `\X09\` for tab, `\X7F\` for DEL, `\XC285\` for U+0085 (a C1 character is two bytes, C2 then itself).
 * @param code - the character's code, 0x00–0x1F, 0x7F or 0x80–0x9F
 * @param e - the escape character
 * @returns the escape sequence
 * @example controlEscape(9, '\\') // '\\X09\\'
 */
export function controlEscape(code: number, e: string): string {
  const byte = HEX.charAt(code >> 4) + HEX.charAt(code & 15);
  return code < 0x80 ? `${e}X${byte}${e}` : `${e}XC2${byte}${e}`;
}

/** For every ASCII code: its escape sequence with the standard delimiters, or undefined. */
const REPLACEMENT: readonly (string | undefined)[] = (() => {
  const table = new Array<string | undefined>(128).fill(undefined);
  for (let code = 0; code < 0x20; code++) table[code] = controlEscape(code, '\\');
  table[0x7f] = controlEscape(0x7f, '\\');
  table[0x5c] = '\\E\\'; // \
  table[0x7c] = '\\F\\'; // |
  table[0x5e] = '\\S\\'; // ^
  table[0x26] = '\\T\\'; // &
  table[0x7e] = '\\R\\'; // ~
  // A line break inside a value cannot be a segment terminator: send it as its byte value.
  table[CR] = '\\X0D\\';
  table[LF] = '\\X0A\\';
  return table;
})();

let nonAscii = false;
let dropped = false;

/** Text at least this long is escaped by {@link escapeLong}; shorter text by one regular expression. */
const LONG = 128;

/**
 * The leading run of characters that are sent as ASCII: ASCII itself and the C1 controls, which are escaped
 * (sticky: matches at lastIndex only, possibly empty).
 */
// eslint-disable-next-line no-control-regex -- ASCII starts at U+0000
const ASCII_RUN = /[\u0000-\u009f]*/y;

/** Printable ASCII, CR and LF: what long text mostly holds (sticky, possibly empty). */
const PLAIN_RUN = /[\n\r\u0020-\u007e]*/y;

/**
 * Whether text holds a code unit sent as non-ASCII (U+00A0 and above) from `from` on: one greedy scan of the
 * run of characters sent as ASCII.
 */
function hasNonAscii(text: string, from: number): boolean {
  ASCII_RUN.lastIndex = from;
  ASCII_RUN.test(text);
  return ASCII_RUN.lastIndex !== text.length;
}

/**
 * Escape text with the standard delimiters: `\` → `\E\`, `|` → `\F\`, `^` → `\S\`, `&` → `\T\`,
 * `~` → `\R\`, CR → `\X0D\`, LF → `\X0A\`, any other control character → its UTF-8 bytes in hex
 * (`\X09\`, `\X7F\`, `\XC285\`). With `lines`, LF and CRLF end a line instead and are written as
 * the repetition separator `~` (a lone CR stays `\X0D\`). With `detect`, a non-ASCII character sets the
 * message's non-ASCII flag.
 * @param text - the text
 * @param lines - whether line breaks separate repetitions
 * @param detect - whether to note non-ASCII text
 * @returns the escaped text (`text` itself when nothing needed escaping)
 * @example escapeStandard('a|b\r\nc', true, false) // 'a\\F\\b~c'
 */
export function escapeStandard(text: string, lines: boolean, detect: boolean): string {
  if (text.length >= LONG) return escapeLong(text, lines, detect);
  // Short text (most values have nothing to escape): one scan of one regular expression finds the special
  // characters and, until the message is known to hold some, non-ASCII characters.
  let re = detect && !nonAscii ? SPECIAL_OR_NON_ASCII : SPECIAL;
  re.lastIndex = 0;
  let out = '';
  let last = 0;
  // `test` moves lastIndex just past the character found, without building a match object; the plain runs
  // between special characters are appended as slices.
  while (re.test(text)) {
    const i = re.lastIndex - 1;
    const code = text.charCodeAt(i);
    let next = i + 1;
    let rep: string;
    if (code > 0x9f) {
      // The first non-ASCII character (other than C1): note it, then look for the special characters only.
      nonAscii = true;
      re = SPECIAL;
      re.lastIndex = next;
      continue;
    } else if (code > 0x7f) {
      // A C1 control character is escaped, so the message does not hold it raw (not a reason for MSH-18).
      rep = controlEscape(code, '\\');
    } else if (lines && code === LF) {
      rep = '~';
    } else if (lines && code === CR && text.charCodeAt(next) === LF) {
      rep = '~';
      next += 1;
      re.lastIndex = next;
    } else {
      rep = REPLACEMENT[code] as string;
    }
    out += text.slice(last, i) + rep;
    last = next;
  }
  if (last === 0) return text;
  return last === text.length ? out : out + text.slice(last);
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
 * {@link escapeStandard} for long text (a note), where one regular-expression call per special character
 * costs more than the scanning itself: the next position of each of the seven special characters is kept
 * (found by `indexOf`, which scans fast; the control characters other than CR and LF by one regular expression),
 * and the text is copied run by run up to the nearest one. Every character of the text is scanned at most once
 * per special character. Non-ASCII text is looked for by one
 * regular-expression scan of the leading ASCII run, only until the message is known to hold some.
 */
function escapeLong(text: string, lines: boolean, detect: boolean): string {
  const n = text.length;
  let pC: number;
  if (detect && !nonAscii) {
    // One scan finds the first character that is a control (other than CR, LF) or not ASCII: for an ASCII
    // note without controls, the common case, that is the only scan for either.
    PLAIN_RUN.lastIndex = 0;
    PLAIN_RUN.test(text);
    const k = PLAIN_RUN.lastIndex;
    if (k === n) {
      pC = n;
    } else if (text.charCodeAt(k) > 0x9f) {
      nonAscii = true;
      pC = nextControl(text, k + 1);
    } else {
      pC = k;
      if (hasNonAscii(text, k + 1)) nonAscii = true;
    }
  } else {
    pC = nextControl(text, 0);
  }
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
 * Escape a value with the standard delimiters (as `escapeHl7`), noting non-ASCII text.
 * @param text - the value
 * @returns the escaped value
 * @example esc('A & B') // 'A \\T\\ B'
 */
export function esc(text: string): string {
  return escapeStandard(text, false, true);
}

/**
 * Escape multi-line text into TX repetitions with the standard delimiters, noting non-ASCII text: each line
 * (LF or CRLF ends a line) becomes one repetition, so line breaks are written as `~`; a lone CR is written
 * `\X0D\`; everything else as `escapeHl7`. Equal to `text.split(/\r\n|\n/).map(escapeHl7).join('~')`.
 * @param text - the text
 * @returns the repetitions joined by `~`
 * @example escLines('line 1\nline 2') // 'line 1~line 2'
 */
export function escLines(text: string): string {
  return escapeStandard(text, true, true);
}
