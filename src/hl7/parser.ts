/**
 * A small HL7 v2.x reader: segments, fields, repetitions, components, subcomponents, unescaped. It exists
 * so consumers and tests can check round trips; it is not an intake interface (no batches, no MLLP
 * sessions, no acknowledgments).
 */
import { Hl7ParseError, InvalidArgumentError } from '../errors.js';
import { checkHl7Delimiters, unescapeHl7, type Hl7Delimiters } from './encoding.js';

/** A component: its subcomponents' unescaped text (at least one, possibly empty). */
export type Hl7Component = readonly string[];
/** A repetition of a field: its components, component 1 at index 0. */
export type Hl7Repetition = readonly Hl7Component[];
/** A field: its repetitions (at least one; an empty field is one empty repetition). */
export type Hl7Field = readonly Hl7Repetition[];

/** One segment of a parsed message. */
export interface Hl7Segment {
  /** Segment id, e.g. `PID`. */
  readonly id: string;
  /**
   * Fields indexed by HL7 field number: `fields[5]` is `PID-5`. `fields[0]` holds the segment id. In MSH,
   * `fields[1]` is the field separator (MSH-1) and `fields[2]` the encoding characters (MSH-2), both as
   * written, neither split nor unescaped.
   */
  readonly fields: readonly Hl7Field[];
  /** The segment as received, without terminator (escaped; used for length checks). */
  readonly raw: string;
}

/** A parsed message. */
export interface Hl7Message {
  /** The delimiters read from MSH-1 and MSH-2. */
  readonly delimiters: Hl7Delimiters;
  /** The segments in order. */
  readonly segments: readonly Hl7Segment[];
}

const SEGMENT_ID_RE = /^[A-Z][A-Z0-9]{2}$/;
/**
 * Control characters a value may not hold raw: C0 but tab (CR and LF end segments), DEL and C1. A raw tab is
 * common in real messages and harmless, so it is read as data. The others are not text: most often a wrong
 * character-set decoding (Windows-1252 bytes read as Latin-1 turn quotes into U+0091…U+0094), and some act
 * on terminals and logs (ESC, and U+009B, its one-character C1 form). Escaped (`\X7F\`) they are data.
 */
// eslint-disable-next-line no-control-regex -- finds the control characters a value may not hold raw
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * The position of a value in HL7 notation: `PID-5`, `PID-5.1`, `PID-3.4.2`; a repetition after the first is
 * written in parentheses, `PID-5(2).1`.
 * @param segmentId - segment id
 * @param field - field number
 * @param repetition - repetition number, default 1
 * @param component - component number, when the position names one
 * @param subcomponent - subcomponent number, when the position names one
 * @returns the position
 * @example hl7Position('PID', 5, 2, 1) // 'PID-5(2).1'
 */
export function hl7Position(segmentId: string, field: number, repetition = 1, component?: number, subcomponent?: number): string {
  let out = `${segmentId}-${field}`;
  if (repetition > 1) out += `(${repetition})`;
  if (component !== undefined) out += `.${component}`;
  if (subcomponent !== undefined) out += `.${subcomponent}`;
  return out;
}

/** {@link CONTROL_RE} or a CR or LF left in a segment after splitting on the message's own terminator. */
// eslint-disable-next-line no-control-regex -- finds the control characters a value may not hold raw
const RAW_CONTROL_RE = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F]/;
/** A line made of line breaks only: a blank line, or the final newline of a file after the last segment. */
const BLANK_LINE_RE = /^[\r\n]*$/;
/** How a message's segment terminator is named in errors. */
const TERMINATOR_NAME: Record<string, string> = { '\r': 'CR', '\n': 'LF', '\r\n': 'CRLF' };

/** Where a value is, for the errors of {@link readValue}. */
interface FieldPlace {
  readonly d: Hl7Delimiters;
  readonly segmentIndex: number;
  readonly segmentId: string;
  readonly fieldNumber: number;
  readonly terminator: string;
}

/**
 * One value, unescaped, after checking it holds no raw control character. A module function, not a closure per
 * field: the build keeps function names, which costs a property definition for every closure created.
 */
function readValue(sub: string, p: FieldPlace, r: number, c: number, s: number): string {
  // One scan for the common case (no raw control character at all); which kind it is only on a hit. The
  // message never repeats the value: it may be patient data.
  if (!RAW_CONTROL_RE.test(sub)) return unescapeHl7(sub, p.d);
  const position = hl7Position(p.segmentId, p.fieldNumber, r + 1, c + 1, s + 1);
  // A raw control character (other than tab: C0, DEL, C1) is not HL7 text; escaped ones (\X00\) are fine.
  if (CONTROL_RE.test(sub)) throw new Hl7ParseError(p.segmentIndex, position, 'raw control character in a value');
  // Else a CR or LF: read as a terminator, it would end the segment inside a value and start one made of its text.
  throw new Hl7ParseError(
    p.segmentIndex,
    position,
    `raw line break in a value (this message ends its segments with ${TERMINATOR_NAME[p.terminator] ?? 'CR'}; a line break in text must be escaped)`,
  );
}

function parseField(
  text: string,
  d: Hl7Delimiters,
  segmentIndex: number,
  segmentId: string,
  fieldNumber: number,
  terminator: string,
): Hl7Field {
  // Most fields are empty or one plain value: three arrays, without the splits' and maps' intermediate ones
  // (a message of many small fields spent most of its time collecting them).
  if (!text.includes(d.repetition) && !text.includes(d.component) && !text.includes(d.subcomponent)) {
    if (!RAW_CONTROL_RE.test(text) && !text.includes(d.escape)) return [[[text]]];
    return [[[readValue(text, { d, segmentIndex, segmentId, fieldNumber, terminator }, 0, 0, 0)]]];
  }
  const p: FieldPlace = { d, segmentIndex, segmentId, fieldNumber, terminator };
  const field: Hl7Repetition[] = [];
  const reps = text.split(d.repetition);
  for (let r = 0; r < reps.length; r++) {
    const comps = (reps[r] as string).split(d.component);
    const rep: Hl7Component[] = [];
    for (let c = 0; c < comps.length; c++) {
      const subs = (comps[c] as string).split(d.subcomponent);
      const comp: string[] = [];
      for (let s = 0; s < subs.length; s++) comp.push(readValue(subs[s] as string, p, r, c, s));
      rep.push(comp);
    }
    field.push(rep);
  }
  return field;
}

/**
 * Delimiter sets already read, by MSH-1 and MSH-2 as written: the same frozen object for the same set, so the
 * escape tables compiled for it (cached by object in src/hl7/internal) are built once, not once per message
 * (that took most of the time of parsing a short message such as an ACK). Bounded: cleared when full.
 */
const READ_DELIMITERS = new Map<string, Hl7Delimiters>();
const READ_DELIMITERS_MAX = 64;

function readDelimiters(field: string, encoding: string): Hl7Delimiters {
  const key = field + encoding;
  const known = READ_DELIMITERS.get(key);
  if (known !== undefined) return known;
  const delimiters: Hl7Delimiters = Object.freeze({
    field,
    component: encoding.charAt(0),
    repetition: encoding.charAt(1),
    escape: encoding.charAt(2),
    subcomponent: encoding.charAt(3),
    ...(encoding.length === 5 ? { truncation: encoding.charAt(4) } : {}),
  });
  try {
    checkHl7Delimiters(delimiters);
  } catch (cause) {
    throw new Hl7ParseError(0, 'MSH-2', 'the field separator and encoding characters must be distinct printable characters other than letters and digits', { cause });
  }
  if (READ_DELIMITERS.size >= READ_DELIMITERS_MAX) READ_DELIMITERS.clear();
  READ_DELIMITERS.set(key, delimiters);
  return delimiters;
}

/**
 * Parse HL7 v2.x message text.
 *
 * - Delimiters come from the message: MSH-1 and MSH-2 (4 characters, or 5 with the v2.7 truncation
 *   character, which is accepted and then unescaped from `\P\`).
 * - Segments end with CR, LF or CRLF: whichever ends the MSH segment ends every segment of the message (MSH
 *   holds no free text, so its terminator is the sender's). A raw CR or LF inside a value that is not that
 *   terminator, which HL7 text may not hold raw, is a typed error naming the value's position, never a segment
 *   made of the text after it. (The terminator itself cannot be told apart inside a value: a raw CR in a
 *   CR-terminated message ends the segment, and what follows must then begin like a segment, or it is a typed
 *   error at that segment.) Blank lines (a file's final newline too) are skipped. A leading byte-order mark
 *   and MLLP framing characters (VT before; FS, with the CR or CRLF after it, at the end) are ignored.
 * - Every value is unescaped with {@link unescapeHl7} (so `\.br\` becomes a line feed and `\X…\` UTF-8 bytes).
 *
 * @param text - the message text
 * @returns the segments with their fields, repetitions, components and subcomponents
 * @throws Hl7ParseError naming the segment index (0-based) and the position (`MSH-2`, `PID-5.1`) when the
 *   text does not start with MSH, the delimiters are invalid, a segment id is malformed, a second MSH starts
 *   another message, or a value holds a raw control character other than tab (C0, DEL U+007F, C1
 *   U+0080–U+009F; a raw tab is read as data) or a raw line break other than the message's terminator
 * @see HL7 v2.5.1 chapter 2, 2.5 "Message construction rules"
 * @example parseHl7Message('MSH|^~\\&|A|B|||20260301||ADT^A31^ADT_A05|1|P|2.5.1\rPID|1||42^^^&1.2&ISO\r').segments[1]?.fields[3]?.[0]?.[3] // ['', '1.2', 'ISO']
 */
export function parseHl7Message(text: string): Hl7Message {
  if (typeof text !== 'string') throw new Hl7ParseError(-1, undefined, 'the message must be a string');
  let body = text;
  if (body.charCodeAt(0) === 0xfeff) body = body.slice(1);
  if (body.charCodeAt(0) === 0x0b) body = body.slice(1);
  // eslint-disable-next-line no-control-regex -- U+001C ends an MLLP-framed message
  body = body.replace(/\x1c(?:\r\n?|\n)?$/, '');
  if (!body.startsWith('MSH')) throw new Hl7ParseError(0, 'MSH', 'the message must begin with an MSH segment');
  const field = body.charAt(3);
  const lineEnd = body.search(/[\r\n]/);
  const firstLine = lineEnd < 0 ? body : body.slice(0, lineEnd);
  const afterSep = firstLine.indexOf(field, 4);
  const encoding = afterSep < 0 ? firstLine.slice(4) : firstLine.slice(4, afterSep);
  if (encoding.length !== 4 && encoding.length !== 5) {
    throw new Hl7ParseError(0, 'MSH-2', 'the encoding characters must be 4 characters (5 with the v2.7 truncation character)');
  }
  const delimiters = readDelimiters(field, encoding);

  // The terminator is the one that ends MSH, which holds no free text: only it ends a segment. A raw CR or LF
  // elsewhere lies inside a value, where splitting on it would turn the rest of the text into a segment.
  const terminator = lineEnd < 0 ? '\r' : body.startsWith('\r\n', lineEnd) ? '\r\n' : body.charAt(lineEnd);
  const lines = body.split(terminator);
  const segments: Hl7Segment[] = [];
  for (const line of lines) {
    if (BLANK_LINE_RE.test(line)) continue;
    const index = segments.length;
    const id = line.slice(0, 3);
    if (!SEGMENT_ID_RE.test(id) || (line.length > 3 && line.charAt(3) !== field)) {
      throw new Hl7ParseError(index, undefined, 'a segment must begin with a 3-character id (upper-case letter, then letters or digits) and the field separator');
    }
    if (id === 'MSH' && index > 0) throw new Hl7ParseError(index, 'MSH', 'a second MSH segment begins another message; batches are not supported');
    const fields: Hl7Field[] = [[[[id]]]];
    if (line.length > 3) {
      const parts = line.slice(4).split(field);
      if (id === 'MSH') {
        // MSH-1 is the field separator itself, so the first part after it is MSH-2 and the rest shift by one.
        fields.push([[[field]]], [[[parts[0] ?? '']]]);
        for (let i = 1; i < parts.length; i++) fields.push(parseField(parts[i] as string, delimiters, index, id, i + 2, terminator));
      } else {
        for (let i = 0; i < parts.length; i++) fields.push(parseField(parts[i] as string, delimiters, index, id, i + 1, terminator));
      }
    }
    segments.push({ id, fields, raw: line });
  }
  return { delimiters, segments };
}

/**
 * Read one value of a parsed segment by HL7 numbers (all 1-based).
 *
 * @param segment - the segment
 * @param field - field number (`5` for PID-5)
 * @param component - component number, default 1
 * @param subcomponent - subcomponent number, default 1
 * @param repetition - repetition number, default 1
 * @returns the unescaped value, or `''` when absent
 * @throws {InvalidArgumentError} when `segment` is not a segment of {@link parseHl7Message}'s shape, `field` is
 *   not a non-negative integer, or `component`, `subcomponent` or `repetition` is not a positive integer
 * @example getHl7Value(pid, 5, 2) // given name, PID-5.2
 */
export function getHl7Value(segment: Hl7Segment, field: number, component = 1, subcomponent = 1, repetition = 1): string {
  if (typeof segment !== 'object' || segment === null || !Array.isArray(segment.fields)) {
    throw new InvalidArgumentError('segment', 'must be a parsed segment with a fields array');
  }
  if (!Number.isSafeInteger(field) || field < 0) throw new InvalidArgumentError('field', 'must be a non-negative integer');
  for (const [name, n] of [['component', component], ['subcomponent', subcomponent], ['repetition', repetition]] as const) {
    if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError(name, 'must be a positive integer');
  }
  // Each level is checked, not trusted: a hand-made or altered segment must not crash the read.
  const f: unknown = segment.fields[field];
  const r: unknown = Array.isArray(f) ? f[repetition - 1] : undefined;
  const c: unknown = Array.isArray(r) ? r[component - 1] : undefined;
  const value: unknown = Array.isArray(c) ? c[subcomponent - 1] : undefined;
  if (value === undefined) {
    if (f !== undefined && !Array.isArray(f)) throw new InvalidArgumentError(`segment.fields[${field}]`, 'must be an array of repetitions');
    return '';
  }
  if (typeof value !== 'string') throw new InvalidArgumentError(`segment.fields[${field}]`, 'must hold strings at the subcomponent level');
  return value;
}
