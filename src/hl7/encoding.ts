/**
 * HL7 v2 delimiters, escaping and unescaping (HL7 v2.5.1 chapter 2, section 2.7 "Use of escape sequences
 * in text fields").
 *
 * Escaping replaces, in one pass, the escape character first-class with every other special character:
 * `\` → `\E\`, `|` → `\F\`, `^` → `\S\`, `&` → `\T\`, `~` → `\R\`, CR → `\X0D\`, LF → `\X0A\` (and the
 * v2.7 truncation character → `\P\`, only when a delimiter set declares one); every other control character
 * (tab, the rest of C0, DEL, C1) becomes the hex escape of its UTF-8 bytes (`\X09\`, `\X7F\`, `\XC285\`),
 * since v2.5.1 text types hold printable characters. Because the escape character is itself escaped in the
 * same pass, no output character is ever escaped twice and the result contains no raw delimiter or control
 * character.
 *
 * Unescaping is a tokenizer, not a chain of replaces (a chain turns the text `\F\`, sent as `\E\F\E\`, into
 * `\|` or `\E|E\` depending on the order). It reads `\F\ \S\ \T\ \R\ \E\` (and `\P\` when a truncation
 * character is declared), `\Xhh…\` as UTF-8 bytes (except HAPI's `\X000d\` form, below), `\.br\` as a line feed; it passes `\H\`, `\N\`, the other
 * formatting commands (`\.sp\`, `\.in±n\`, …), `\Zxx\` and the character-set switches `\Cxxyy\`, `\Mxxyyzz\`
 * through unchanged, and keeps any malformed sequence literally, so a UNC path such as `\\server\share`
 * survives. For every string `s`, `unescapeHl7(escapeHl7(s)) === s`.
 *
 * HAPI writes CR as `\X000d\` (a 16-bit code unit, not UTF-8 bytes), which read as UTF-8
 * would be NUL + CR. A hex run of two or more bytes made only of `00 hh` pairs is therefore read as one
 * character U+00hh per pair (`\X000d\` → CR, `\X000D000A\` → CR LF, `\X00e9\` → é). Text never holds NUL
 * in practice, and `escapeHl7` never writes such a run (a NUL alone is `\X00\`, each control character its
 * own sequence), so the round trip is unaffected. A run with an odd number of digits (`\X00D\`) is malformed
 * and kept literally.
 */
import { InvalidArgumentError } from '../errors.js';
import { controlEscape } from './internal/control-escape.js';
import { cachedDelimiterSet, STANDARD_DELIMITERS_FAST_PATH } from './internal/speed-ups.js';
import { escapeStandard } from './internal/standard-escape.js';

/**
 * The delimiters of an HL7 v2 message: MSH-1 (field separator) and the characters of MSH-2 (component,
 * repetition, escape, subcomponent and, from v2.7 on, truncation). Each is a single printable ASCII
 * character that is not a letter or digit; all differ.
 * @see HL7 v2.5.1 chapter 2, 2.5.4 "Message delimiters"; MSH-1, MSH-2
 */
export interface Hl7Delimiters {
  /** Field separator (MSH-1). @example '|' */
  readonly field: string;
  /** Component separator (MSH-2, 1st character). @example '^' */
  readonly component: string;
  /** Repetition separator (MSH-2, 2nd character). @example '~' */
  readonly repetition: string;
  /** Escape character (MSH-2, 3rd character). @example '\\' */
  readonly escape: string;
  /** Subcomponent separator (MSH-2, 4th character). @example '&' */
  readonly subcomponent: string;
  /**
   * Truncation character (MSH-2, 5th character, v2.7 and later only). Present only when a parsed message
   * declares it; never emitted by this library, whose v2.5.1 output has a 4-character MSH-2.
   * @example '#'
   */
  readonly truncation?: string | undefined;
}

/**
 * The standard delimiters `|^~\&` that every message built by this library uses (MSH-2 exactly `^~\&`).
 * @see HL7 v2.5.1 MSH-1, MSH-2
 */
export const DEFAULT_HL7_DELIMITERS: Hl7Delimiters = Object.freeze({
  field: '|',
  component: '^',
  repetition: '~',
  escape: '\\',
  subcomponent: '&',
});

/** A delimiter set checked once and prepared for fast scanning. */
interface CompiledDelimiters {
  /** For every ASCII code: the escape sequence that replaces it, or undefined. */
  readonly replacement: readonly (string | undefined)[];
  /** Finds the next character that needs escaping, from `lastIndex` (global). */
  readonly specialGlobal: RegExp;
  /** A frozen copy of the checked delimiters: the object passed in may be changed after it was compiled. */
  readonly d: Hl7Delimiters;
}

function regexClassChar(c: string): string {
  // Inside a character class only these need a backslash.
  return /[\\\]^-]/.test(c) ? `\\${c}` : c;
}

function checkDelimiter(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length !== 1) {
    throw new InvalidArgumentError('delimiters', `${name} must be exactly one character`);
  }
  const code = value.charCodeAt(0);
  // Printable ASCII other than letters and digits: escape sequences use letters and hex digits, and the
  // segment terminator and line breaks can never be delimiters.
  if (code < 0x21 || code > 0x7e || /[A-Za-z0-9]/.test(value)) {
    throw new InvalidArgumentError('delimiters', `${name} must be a printable ASCII character other than a letter or digit`);
  }
  return value;
}

/** Whether a compiled delimiter set still matches the object it was compiled from (which may have been changed). */
function sameDelimiters(a: Hl7Delimiters, b: Hl7Delimiters): boolean {
  return (
    a.field === b.field &&
    a.component === b.component &&
    a.repetition === b.repetition &&
    a.escape === b.escape &&
    a.subcomponent === b.subcomponent &&
    a.truncation === b.truncation
  );
}

function compile(delimiters: Hl7Delimiters): CompiledDelimiters {
  return cachedDelimiterSet(delimiters, (c: CompiledDelimiters) => sameDelimiters(c.d, delimiters), () => compileNew(delimiters));
}

function compileNew(delimiters: Hl7Delimiters): CompiledDelimiters {
  if (delimiters === null || typeof delimiters !== 'object') {
    throw new InvalidArgumentError('delimiters', 'must be an object with field, component, repetition, escape and subcomponent');
  }
  const field = checkDelimiter('field', delimiters.field);
  const component = checkDelimiter('component', delimiters.component);
  const repetition = checkDelimiter('repetition', delimiters.repetition);
  const escape = checkDelimiter('escape', delimiters.escape);
  const subcomponent = checkDelimiter('subcomponent', delimiters.subcomponent);
  const truncation = delimiters.truncation === undefined ? undefined : checkDelimiter('truncation', delimiters.truncation);
  const all = [field, component, repetition, escape, subcomponent, ...(truncation === undefined ? [] : [truncation])];
  if (new Set(all).size !== all.length) throw new InvalidArgumentError('delimiters', 'all delimiters must differ');

  const replacement: (string | undefined)[] = new Array<string | undefined>(128).fill(undefined);
  const seq = (letter: string): string => escape + letter + escape;
  replacement[escape.charCodeAt(0)] = seq('E');
  replacement[field.charCodeAt(0)] = seq('F');
  replacement[component.charCodeAt(0)] = seq('S');
  replacement[subcomponent.charCodeAt(0)] = seq('T');
  replacement[repetition.charCodeAt(0)] = seq('R');
  if (truncation !== undefined) replacement[truncation.charCodeAt(0)] = seq('P');
  // Control characters (a line break inside a value cannot be a segment terminator either): their UTF-8 bytes.
  for (let code = 0; code < 0x20; code++) replacement[code] = controlEscape(code, escape);
  replacement[0x7f] = controlEscape(0x7f, escape);
  const cls = `[${all.map(regexClassChar).join('')}\\u0000-\\u001f\\u007f-\\u009f]`;
  const compiled: CompiledDelimiters = {
    replacement,
    specialGlobal: new RegExp(cls, 'g'),
    d: Object.freeze({ field, component, repetition, escape, subcomponent, ...(truncation === undefined ? {} : { truncation }) }),
  };
  return compiled;
}

/**
 * Check a delimiter set: single printable ASCII characters, not letters or digits, all different.
 * @param delimiters - the delimiter set to check
 * @returns the same delimiter set
 * @throws InvalidArgumentError when a delimiter is missing, not one character, alphanumeric or repeated
 * @example checkHl7Delimiters({ ...DEFAULT_HL7_DELIMITERS, component: '|' }) // throws: all delimiters must differ
 * @internal
 */
export function checkHl7Delimiters(delimiters: Hl7Delimiters): Hl7Delimiters {
  compile(delimiters);
  return delimiters;
}

/**
 * Escape text for an HL7 v2 field, component or subcomponent: the escape character first (as `\E\`), then
 * `|` `^` `&` `~` as `\F\` `\S\` `\T\` `\R\`, CR / LF as `\X0D\` / `\X0A\`, and every other control
 * character (tab, C0, DEL U+007F, C1 U+0080–U+009F) as its UTF-8 bytes in hex (`\X09\`, `\X7F\`,
 * `\XC285\`), all in one pass. Text without any of those characters is returned as is, without copying.
 *
 * @param text - any Unicode text
 * @param delimiters - the message's delimiters; default `|^~\&`
 * @returns the escaped text, which contains no raw delimiter and no control character
 * @throws InvalidArgumentError when `text` is not a string or `delimiters` is not a valid delimiter set
 * @see HL7 v2.5.1 chapter 2, 2.7.1 "Formatting codes" / escape sequences `\F\ \S\ \T\ \R\ \E\ \Xdddd\`
 * @example escapeHl7('Smith & Sons | 50%^') // 'Smith \\T\\ Sons \\F\\ 50%\\S\\'
 */
export function escapeHl7(text: string, delimiters: Hl7Delimiters = DEFAULT_HL7_DELIMITERS): string {
  if (typeof text !== 'string') throw new InvalidArgumentError('text', 'must be a string');
  if (STANDARD_DELIMITERS_FAST_PATH && delimiters === DEFAULT_HL7_DELIMITERS) return escapeStandard(text, false);
  const c = compile(delimiters);
  const re = c.specialGlobal;
  const replacement = c.replacement;
  re.lastIndex = 0;
  let out = '';
  let last = 0;
  // Jump from special character to special character (`test` moves lastIndex just past it, without building
  // a match object), appending the plain runs between them as slices.
  while (re.test(text)) {
    const i = re.lastIndex - 1;
    const code = text.charCodeAt(i);
    out += text.slice(last, i) + (code < 0x80 ? (replacement[code] as string) : controlEscape(code, c.d.escape));
    last = i + 1;
  }
  if (last === 0) return text;
  return last === text.length ? out : out + text.slice(last);
}

const HEX_RE = /^X(?:[0-9A-Fa-f]{2})+$/;
/** HAPI's 16-bit form: two or more bytes, every other one zero (`X000d`). */
const HEX_16_RE = /^X(?:00[0-9A-Fa-f]{2})+$/;

/** Decode a `\X…\` body (`X` and hex digits): HAPI's `00hh` pairs as U+00hh each, anything else as UTF-8. */
function decodeHex(body: string): string | undefined {
  if (HEX_16_RE.test(body)) {
    let out = '';
    for (let k = 3; k < body.length; k += 4) out += String.fromCharCode(parseInt(body.slice(k, k + 2), 16));
    return out;
  }
  return decodeUtf8Hex(body.slice(1));
}
/** Sequences that HL7 defines but that carry no character: kept literally so formatting survives. */
const PASS_THROUGH_RE = /^(?:H|N|\.(?:sp|in|ti|sk)[+-]?\d*|\.(?:fi|nf|ce)|Z.+|C[0-9A-Fa-f]{4}|M[0-9A-Fa-f]{4}(?:[0-9A-Fa-f]{2})?)$/;

/**
 * Decode hex digits as UTF-8 bytes. Returns undefined for invalid UTF-8 (overlong forms, surrogates,
 * truncated or stray continuation bytes, code points above U+10FFFF), so the sequence is kept literally.
 */
function decodeUtf8Hex(hex: string): string | undefined {
  let out = '';
  let i = 0;
  const n = hex.length;
  const byte = (k: number): number => parseInt(hex.slice(k, k + 2), 16);
  while (i < n) {
    const b0 = byte(i);
    i += 2;
    if (b0 < 0x80) {
      out += String.fromCharCode(b0);
      continue;
    }
    let need: number;
    let cp: number;
    let min: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      cp = b0 & 0x1f;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      cp = b0 & 0x0f;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      cp = b0 & 0x07;
      min = 0x10000;
    } else {
      return undefined;
    }
    if (i + need * 2 > n) return undefined;
    for (let k = 0; k < need; k++) {
      const b = byte(i);
      i += 2;
      if ((b & 0xc0) !== 0x80) return undefined;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
    out += String.fromCodePoint(cp);
  }
  return out;
}

/**
 * Unescape HL7 v2 text with a single-pass tokenizer: `\F\ \S\ \T\ \R\ \E\` become the message's delimiters,
 * `\Xhh…\` is read as UTF-8 bytes (a run of `00hh` pairs, HAPI's `\X000d\`, as one character U+00hh per
 * pair), `\.br\` becomes a line feed, `\P\` becomes the truncation character when
 * the delimiters declare one; `\H\`, `\N\`, other formatting commands, `\Z…\` and character-set switches
 * are kept as written; a malformed sequence (unknown letter, odd or invalid hex, no closing escape
 * character) is kept literally, so `\\server\share` comes back unchanged.
 *
 * @param text - escaped text of one field, component or subcomponent
 * @param delimiters - the message's delimiters; default `|^~\&`
 * @returns the unescaped text; `unescapeHl7(escapeHl7(s)) === s` for every `s`
 * @throws InvalidArgumentError when `text` is not a string or `delimiters` is not a valid delimiter set
 * @see HL7 v2.5.1 chapter 2, 2.7 "Use of escape sequences in text fields"
 * @example unescapeHl7('Smith \\T\\ Sons \\F\\ 50%\\S\\') // 'Smith & Sons | 50%^'
 * @example unescapeHl7('\\\\server\\share') // '\\\\server\\share' (kept literally)
 * @example unescapeHl7('a\\X000d\\b') // 'a\rb' (HAPI's carriage return)
 */
export function unescapeHl7(text: string, delimiters: Hl7Delimiters = DEFAULT_HL7_DELIMITERS): string {
  if (typeof text !== 'string') throw new InvalidArgumentError('text', 'must be a string');
  const c = compile(delimiters);
  const e = c.d.escape;
  let i = text.indexOf(e);
  if (i < 0) return text;
  let out = '';
  let last = 0;
  while (i >= 0) {
    const j = text.indexOf(e, i + 1);
    if (j < 0) break; // no closing escape character: the rest is literal
    let rep: string | undefined;
    let passThrough = false;
    if (j === i + 2) {
      // One-letter sequences, the common case: no slice needed.
      switch (text.charCodeAt(i + 1)) {
        case 0x46: // F
          rep = c.d.field;
          break;
        case 0x53: // S
          rep = c.d.component;
          break;
        case 0x54: // T
          rep = c.d.subcomponent;
          break;
        case 0x52: // R
          rep = c.d.repetition;
          break;
        case 0x45: // E
          rep = e;
          break;
        case 0x50: // P, v2.7 truncation character, only when the message declares one
          rep = c.d.truncation;
          break;
        case 0x48: // H: start highlighting
        case 0x4e: // N: normal text
          passThrough = true;
          break;
        default:
          break;
      }
    } else if (j > i + 2) {
      const body = text.slice(i + 1, j);
      if (HEX_RE.test(body)) rep = decodeHex(body);
      else if (body === '.br') rep = '\n';
      else passThrough = PASS_THROUGH_RE.test(body);
    }
    if (rep !== undefined) {
      out += text.slice(last, i) + rep;
      last = j + 1;
      i = text.indexOf(e, last);
    } else if (passThrough) {
      // A complete sequence kept as written: scanning resumes after its closing escape character.
      i = text.indexOf(e, j + 1);
    } else {
      // Malformed: the escape character at i is literal; the one at j may open the next sequence.
      i = j;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}
