/// <reference types="node" />
/**
 * The outgoing message as the client sends it: its bytes (UTF-8, or the character set MSH-18 names), its
 * MSH-10 control id, and the text decoder the ACK is read with. Only the MSH segment is read (split with the
 * message's delimiters, values unescaped with the package's `unescapeHl7`); the message itself is sent as
 * given, byte for byte.
 */
import { Buffer } from 'node:buffer';
import { DEFAULT_HL7_DELIMITERS, unescapeHl7, type Hl7Delimiters } from '../index.js';
import { MllpError } from './errors.js';
import { encodeMllpFrame, MLLP_CARRIAGE_RETURN, MLLP_END_BLOCK, MLLP_START_BLOCK } from './frame.js';

/** A message ready to frame. */
export interface OutgoingMessage {
  /** The message bytes, exactly as they go on the wire (inside the frame). */
  readonly bytes: Uint8Array;
  /** The whole MLLP frame: `0x0B`, the bytes, `0x1C 0x0D`. */
  readonly frame: Uint8Array;
  /** MSH-10, unescaped: the ACK's MSA-2 must equal it. */
  readonly controlId: string;
  /** How the ACK's bytes are decoded: the message's own character set. */
  readonly charset: 'utf8' | 'latin1';
}

/** A UTF-16 code unit outside 7-bit ASCII (surrogates included). */
const NON_ASCII_RE = /[\u0080-\uFFFF]/;
/** A UTF-16 code unit outside ISO 8859-1. */
const NON_LATIN1_RE = /[\u0100-\uFFFF]/;
/** A lone surrogate: UTF-8 has no encoding for it (the encoder would send U+FFFD, altering the message). */
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether the text has no lone surrogate: the engine's own check where it has one (Node 20), else a regex. */
function isWellFormed(text: string): boolean {
  const own = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof own === 'function' ? own.call(text) : !LONE_SURROGATE_RE.test(text);
}

/** MSH-18 values (HL7 table 0211) the client encodes text in; any other needs the message as bytes. */
const CHARSETS: Readonly<Record<string, 'utf8' | 'latin1' | 'ascii'>> = {
  '': 'utf8',
  'UNICODE UTF-8': 'utf8',
  ASCII: 'ascii',
  '8859/1': 'latin1',
};

/** The MSH segment's text: up to the first CR or LF. */
function mshText(text: string): string {
  let end = text.length;
  const cr = text.indexOf('\r');
  const lf = text.indexOf('\n');
  if (cr !== -1) end = cr;
  if (lf !== -1 && lf < end) end = lf;
  return text.slice(0, end);
}

/** The first component (first repetition, first subcomponent) of a raw field, unescaped: as `getHl7Value` reads it. */
function firstValue(raw: string, d: Hl7Delimiters): string {
  let end = raw.length;
  for (const stop of [d.repetition, d.component, d.subcomponent]) {
    const at = raw.indexOf(stop);
    if (at !== -1 && at < end) end = at;
  }
  const value = raw.slice(0, end);
  return value.includes(d.escape) ? unescapeHl7(value, d) : value;
}

/**
 * MSH-10 and MSH-18 of the message, read from the MSH segment alone with the message's own delimiters (a split,
 * not a parse of the whole message: this runs for every message sent).
 */
/** MSH-n as written (n ≥ 2), given where each field starts. */
function mshField(msh: string, separator: string, starts: readonly number[], n: number): string {
  const from = starts[n - 2];
  if (from === undefined) return '';
  const end = msh.indexOf(separator, from);
  return msh.slice(from, end === -1 ? msh.length : end);
}

function readHeader(text: string): { controlId: string; charset: string } {
  if (!text.startsWith('MSH')) throw new MllpError('invalid-message', 'The message does not begin with an MSH segment');
  const msh = mshText(text);
  const separator = msh.charAt(3);
  // Field n of MSH (n ≥ 2) starts after the (n-1)th separator: MSH-1 is the separator itself.
  const starts: number[] = [];
  for (let at = msh.indexOf(separator, 3); at !== -1 && starts.length < 18; at = msh.indexOf(separator, at + 1)) starts.push(at + 1);
  const encoding = mshField(msh, separator, starts, 2);
  let d: Hl7Delimiters = DEFAULT_HL7_DELIMITERS;
  if (separator !== d.field || encoding !== '^~\\&') {
    d = { field: separator, component: encoding.charAt(0), repetition: encoding.charAt(1), escape: encoding.charAt(2), subcomponent: encoding.charAt(3) };
  }
  let controlId: string;
  let charset: string;
  try {
    if (encoding.length !== 4 && encoding.length !== 5) throw new MllpError('invalid-message', 'MSH-2 must be 4 or 5 encoding characters');
    controlId = firstValue(mshField(msh, separator, starts, 10), d);
    charset = firstValue(mshField(msh, separator, starts, 18), d).toUpperCase();
  } catch (error) {
    throw new MllpError('invalid-message', 'The MSH segment cannot be read (MSH-1, MSH-2)', { cause: error });
  }
  if (controlId === '') throw new MllpError('invalid-message', 'The message has no MSH-10 control id: its ACK could not be matched to it');
  return { controlId, charset };
}

/**
 * Read an outgoing message: check it, find MSH-10 and MSH-18, and encode it.
 *
 * @param message - HL7 v2 text (encoded as MSH-18 says: UTF-8 when empty or `UNICODE UTF-8`, `ASCII`,
 *   `8859/1`), or bytes already encoded (sent unaltered; MSH is read as ASCII)
 * @returns the bytes, the frame, the control id and the ACK charset
 * @throws {MllpError} `invalid-message` when the message does not start with MSH, has no MSH-10, names a
 *   character set its text does not fit (or one not listed, given as text), holds a lone surrogate, or holds
 *   an MLLP framing byte (0x0B, 0x1C)
 * @example prepareOutgoing('MSH|^~\\&|A|B|C|D|20260301||ADT^A31^ADT_A05|C1|P|2.5.1\r').controlId // 'C1'
 */
export function prepareOutgoing(message: string | Uint8Array): OutgoingMessage {
  if (typeof message !== 'string') {
    if (!(message instanceof Uint8Array)) throw new MllpError('invalid-message', 'The message must be a string or a Uint8Array');
    const head = Buffer.from(message.buffer, message.byteOffset, Math.min(message.length, 4096)).toString('latin1');
    const { controlId, charset } = readHeader(head);
    return { bytes: message, frame: encodeMllpFrame(message), controlId, charset: CHARSETS[charset] === 'latin1' ? 'latin1' : 'utf8' };
  }
  const { controlId, charset } = readHeader(message);
  const encoding = CHARSETS[charset];
  if (encoding === undefined) {
    throw new MllpError('invalid-message', `MSH-18 character set ${JSON.stringify(charset.slice(0, 40))} is not one the client encodes text in (UTF-8, ASCII, 8859/1): pass the message as bytes`, { controlId });
  }
  if (encoding === 'ascii' && NON_ASCII_RE.test(message)) {
    throw new MllpError('invalid-message', 'MSH-18 says ASCII but the message holds other characters', { controlId });
  }
  if (encoding === 'latin1' && NON_LATIN1_RE.test(message)) {
    throw new MllpError('invalid-message', 'MSH-18 says 8859/1 but the message holds characters outside ISO 8859-1', { controlId });
  }
  if (encoding === 'utf8' && !isWellFormed(message)) {
    throw new MllpError('invalid-message', 'The message holds a lone surrogate, which has no UTF-8 encoding', { controlId });
  }
  if (message.indexOf('\u000b') !== -1 || message.indexOf('\u001c') !== -1) {
    throw new MllpError('invalid-message', 'The message holds an MLLP framing byte (0x0B or 0x1C): it cannot be framed', { controlId });
  }
  // Encoded straight into the frame: one buffer, one copy.
  const bufferEncoding = encoding === 'latin1' ? 'latin1' : 'utf8';
  const length = Buffer.byteLength(message, bufferEncoding);
  const frame = Buffer.allocUnsafe(length + 3);
  frame[0] = MLLP_START_BLOCK;
  frame.write(message, 1, bufferEncoding);
  frame[length + 1] = MLLP_END_BLOCK;
  frame[length + 2] = MLLP_CARRIAGE_RETURN;
  return { bytes: frame.subarray(1, length + 1), frame, controlId, charset: bufferEncoding };
}
