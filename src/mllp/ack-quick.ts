/**
 * The quick read of a positive acknowledgement: MSA-1, MSA-2, MSA-3 and MSH-10 of an ACK of the usual shape
 * (`MSH|^~\&|`, segments ended by CR), without building the whole parsed message, which cost more than the rest
 * of a send. It answers only where its answer is the one `parseHl7Message` and `getHl7Value` give: the text
 * passes every check the parser makes (segment ids, the field separator after each, no second MSH, no raw
 * control character or line feed in a value), and each value is cut and unescaped as the parser does. For
 * anything else (other delimiters, LF or CRLF terminators, a byte-order mark, a segment or value the parser
 * refuses, no MSA, a NAK, another control id) it answers `undefined`, and the caller parses the whole text,
 * which also names what is wrong. test/mllp/ack-quick.test.ts checks it against the parser.
 */
import { DEFAULT_HL7_DELIMITERS, parseHl7Message, unescapeHl7, type Hl7Message } from '../index.js';
import type { MllpAck } from './ack.js';

/** MSH-1 and MSH-2 of the usual delimiters, the only ones read here. */
const PREFIX = 'MSH|^~\\&|';
const FIELD_SEPARATOR = 0x7c;
const SEGMENT_TERMINATOR = '\r';
/**
 * What the parser refuses raw in a value: C0 but tab, DEL and C1, and LF (CR ends segments here). No other
 * character of a segment can be one of these: ids are letters and digits, delimiters are printable.
 */
// eslint-disable-next-line no-control-regex -- finds the control characters the parser refuses in a value
const REFUSED_RE = /[\u0000-\u0008\u000A-\u000C\u000E-\u001F\u007F-\u009F]/;

/** `message` of a {@link LazyAck}: an own enumerable getter, shared by every instance. */
const MESSAGE_PROPERTY: PropertyDescriptor = {
  get(this: LazyAck): Hl7Message {
    return LazyAck.messageOf(this);
  },
  enumerable: true,
  configurable: false,
};

/**
 * A positive ACK whose `message` is parsed on first access, once (the same object every time). The keys are
 * those of a plain ACK, in the same order, all own and enumerable, so spreading, serialising or comparing it
 * gives the parsed message as before. A class, not an object literal with a getter: creating such a literal
 * costs more than the rest of the quick read, while an instance that takes one shared accessor does not.
 */
class LazyAck implements MllpAck {
  declare readonly code: 'AA' | 'CA';
  declare readonly controlId: string;
  declare readonly text: string;
  declare readonly ackControlId: string;
  declare readonly message: Hl7Message;
  declare readonly durationMs: number;
  readonly #source: string;
  #message: Hl7Message | undefined;

  constructor(code: 'AA' | 'CA', controlId: string, text: string, ackControlId: string, source: string, durationMs: number) {
    this.#source = source;
    // Assigned in the constructor, not declared as fields, to keep the plain ACK's key order.
    this.code = code;
    this.controlId = controlId;
    this.text = text;
    this.ackControlId = ackControlId;
    Object.defineProperty(this, 'message', MESSAGE_PROPERTY);
    this.durationMs = durationMs;
  }

  /** The parsed ACK: the quick read accepted the text only where the parser accepts it, so this cannot throw. */
  static messageOf(ack: LazyAck): Hl7Message {
    ack.#message ??= parseHl7Message(ack.#source);
    return ack.#message;
  }
}

const isUpper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Whether the segment [start, end) begins as the parser requires: `[A-Z][A-Z0-9]{2}`, then `|` or its end. */
function segmentBeginsWell(text: string, start: number, end: number): boolean {
  if (end - start < 3) return false;
  const a = text.charCodeAt(start);
  const b = text.charCodeAt(start + 1);
  const c = text.charCodeAt(start + 2);
  if (!isUpper(a) || !(isUpper(b) || isDigit(b)) || !(isUpper(c) || isDigit(c))) return false;
  return end - start === 3 || text.charCodeAt(start + 3) === FIELD_SEPARATOR;
}

/** The n-th field (n ≥ 1) as written, counted from the separator after the segment id; `''` when absent. */
function rawField(text: string, start: number, end: number, n: number): string {
  let at = start + 3;
  for (let k = 1; k < n && at < end; k++) {
    at = text.indexOf('|', at + 1);
    if (at === -1) return '';
  }
  if (at >= end) return '';
  const stop = text.indexOf('|', at + 1);
  return text.slice(at + 1, stop === -1 || stop > end ? end : stop);
}

/** The first subcomponent of the first component of the first repetition, unescaped: `getHl7Value(s, n)`. */
function firstValue(raw: string): string {
  let end = raw.length;
  for (const stop of ['~', '^', '&']) {
    const at = raw.indexOf(stop);
    if (at !== -1 && at < end) end = at;
  }
  const value = end === raw.length ? raw : raw.slice(0, end);
  return value.includes('\\') ? unescapeHl7(value, DEFAULT_HL7_DELIMITERS) : value;
}

/**
 * Read a positive ACK of message `controlId` quickly, or say it cannot.
 *
 * @param text - the ACK as decoded
 * @param controlId - the MSH-10 sent
 * @param durationMs - time from writing the message to reading the ACK
 * @returns the ACK, when the text parses and its first MSA has MSA-1 `AA` or `CA` and MSA-2 `controlId`;
 *   `undefined` when the whole text must be parsed to tell
 * @example readQuickAck('MSH|^~\\&|E|H|||20260301||ACK|A1|P|2.5.1\rMSA|AA|C1\r', 'C1', 3)?.ackControlId // 'A1'
 */
export function readQuickAck(text: string, controlId: string, durationMs: number): MllpAck | undefined {
  if (!text.startsWith(PREFIX) || REFUSED_RE.test(text)) return undefined;
  let mshEnd = -1;
  let msaStart = -1;
  let msaEnd = -1;
  for (let start = 0; start < text.length; ) {
    const stop = text.indexOf(SEGMENT_TERMINATOR, start);
    const end = stop === -1 ? text.length : stop;
    if (start === 0) {
      mshEnd = end;
    } else if (end > start) {
      // A blank line is skipped, as the parser skips it; any other segment must begin well and not be an MSH.
      if (!segmentBeginsWell(text, start, end) || text.startsWith('MSH', start)) return undefined;
      if (msaStart === -1 && text.startsWith('MSA', start)) {
        msaStart = start;
        msaEnd = end;
      }
    }
    start = end + 1;
  }
  if (msaStart === -1) return undefined;
  const code = firstValue(rawField(text, msaStart, msaEnd, 1));
  if ((code !== 'AA' && code !== 'CA') || firstValue(rawField(text, msaStart, msaEnd, 2)) !== controlId) return undefined;
  // MSH-1 is the separator after the id, so MSH-10 is the ninth field counted from it.
  return new LazyAck(code, controlId, firstValue(rawField(text, msaStart, msaEnd, 3)), firstValue(rawField(text, 0, mshEnd, 9)), text, durationMs);
}
