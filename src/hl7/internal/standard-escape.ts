/**
 * The escaping every builder uses: escaping with the standard delimiters `|^~\&` (HL7 v2.5.1 chapter 2, 2.7
 * "Use of escape sequences in text fields"; the same result as `escapeHl7`).
 *
 * Escaping and line splitting (for TX repetitions) are done together, building the result once, in one scan
 * of one regular expression. Text with nothing to escape is returned as is, without copying.
 *
 * Control characters: v2.5.1 text types (ST, TX, FT) hold printable characters, so every control character
 * (C0 U+0000–U+001F with tab, CR and LF, DEL U+007F, C1 U+0080–U+009F) is sent as a hex escape of its UTF-8
 * bytes, the reading `unescapeHl7` gives `\Xhh…\`: tab `\X09\`, DEL `\X7F\`, U+0085 `\XC285\`.
 */
import { controlEscape } from './control-escape.js';

/** The characters the standard delimiters make special, and every control character. Global: a scan resumes at lastIndex. */
// eslint-disable-next-line no-control-regex -- control characters are escaped
const SPECIAL = /[|^~\\&\u0000-\u001f\u007f-\u009f]/g;

const CR = 13;
const LF = 10;

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

/**
 * Escape text with the standard delimiters: `\` → `\E\`, `|` → `\F\`, `^` → `\S\`, `&` → `\T\`,
 * `~` → `\R\`, CR → `\X0D\`, LF → `\X0A\`, any other control character → its UTF-8 bytes in hex
 * (`\X09\`, `\X7F\`, `\XC285\`). With `lines`, LF and CRLF end a line instead and are written as
 * the repetition separator `~` (a lone CR stays `\X0D\`).
 * @param text - the text
 * @param lines - whether line breaks separate repetitions
 * @returns the escaped text (`text` itself when nothing needed escaping)
 * @example escapeStandard('a|b\r\nc', true) // 'a\\F\\b~c'
 */
export function escapeStandard(text: string, lines: boolean): string {
  const re = SPECIAL;
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
    if (code > 0x7f) {
      // A C1 control character: its two UTF-8 bytes.
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

/**
 * Escape a value with the standard delimiters (as `escapeHl7`).
 * @param text - the value
 * @returns the escaped value
 * @example esc('A & B') // 'A \\T\\ B'
 */
export function esc(text: string): string {
  return escapeStandard(text, false);
}

/**
 * Escape multi-line text into TX repetitions with the standard delimiters: each line
 * (LF or CRLF ends a line) becomes one repetition, so line breaks are written as `~`; a lone CR is written
 * `\X0D\`; everything else as `escapeHl7`. Equal to `text.split(/\r\n|\n/).map(escapeHl7).join('~')`.
 * @param text - the text
 * @returns the repetitions joined by `~`
 * @example escLines('line 1\nline 2') // 'line 1~line 2'
 */
export function escLines(text: string): string {
  return escapeStandard(text, true);
}
