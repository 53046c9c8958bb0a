/// <reference types="node" />
/**
 * The outgoing message as the client sends it: its frame (text encoded as UTF-8, or in the character set MSH-18
 * names, when written; bytes as given), its MSH-10 control id, and the text decoder the ACK is read with. Only
 * the MSH segment is read (scanned for the message's delimiters, values unescaped with the package's
 * `unescapeHl7`); the message itself is sent as given, byte for byte.
 */
import { Buffer } from 'node:buffer';
import { DEFAULT_HL7_DELIMITERS, unescapeHl7, type Hl7Delimiters } from '../index.js';
import { MllpError } from './errors.js';
import { encodeMllpFrame } from './frame.js';

/** A message ready to write. */
export interface OutgoingMessage {
  /**
   * The whole MLLP frame: `0x0B`, the message, `0x1C 0x0D`. Text stays text, written with `encoding` (the
   * socket encodes it straight into its write: no buffer to allocate and fill per message, and the same bytes
   * at every write, since the text was checked to have an encoding); bytes given as bytes are framed here.
   */
  readonly frame: string | Uint8Array;
  /** How a text frame is encoded on the wire. */
  readonly encoding: 'utf8' | 'latin1';
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

/** Where the MSH segment ends: at the first CR or LF (found without scanning the whole message for an LF). */
function mshEnd(text: string): number {
  const cr = text.indexOf('\r');
  const end = cr === -1 ? text.length : cr;
  return text.lastIndexOf('\n', end) === -1 ? end : text.indexOf('\n');
}

/** The first component (first repetition, first subcomponent) of a raw field, unescaped: as `getHl7Value` reads it. */
function firstValue(raw: string, d: Hl7Delimiters): string {
  let end = raw.length;
  const repetition = raw.indexOf(d.repetition);
  if (repetition !== -1) end = repetition;
  const component = raw.indexOf(d.component);
  if (component !== -1 && component < end) end = component;
  const subcomponent = raw.indexOf(d.subcomponent);
  if (subcomponent !== -1 && subcomponent < end) end = subcomponent;
  const value = end === raw.length ? raw : raw.slice(0, end);
  return value.includes(d.escape) ? unescapeHl7(value, d) : value;
}

function unreadable(cause?: unknown): MllpError {
  return new MllpError('invalid-message', 'The MSH segment cannot be read (MSH-1, MSH-2)', cause === undefined ? undefined : { cause });
}

/**
 * MSH-2, MSH-10 and MSH-18 as written, read from the MSH segment alone (a scan for its separators, not a parse
 * of the whole message: this runs for every message sent). MSH-n (n ≥ 2) starts after the (n-1)th separator,
 * MSH-1 being the separator itself.
 */
function mshFields(text: string): { encoding: string; controlId: string; charset: string } {
  const end = mshEnd(text);
  if (end < 4) throw unreadable(new MllpError('invalid-message', 'MSH-2 must be 4 or 5 encoding characters'));
  const separator = text.charAt(3);
  let encoding = '';
  let controlId = '';
  let charset = '';
  for (let n = 2, at = 3; n <= 18; n++) {
    const next = text.indexOf(separator, at + 1);
    const stop = next === -1 || next > end ? end : next;
    if (n === 2) encoding = text.slice(at + 1, stop);
    else if (n === 10) controlId = text.slice(at + 1, stop);
    else if (n === 18) charset = text.slice(at + 1, stop);
    if (stop === end) break;
    at = next;
  }
  return { encoding, controlId, charset };
}

function readHeader(text: string): { controlId: string; charset: string } {
  if (!text.startsWith('MSH')) throw new MllpError('invalid-message', 'The message does not begin with an MSH segment');
  const raw = mshFields(text);
  const { encoding } = raw;
  const separator = text.charAt(3);
  let d: Hl7Delimiters = DEFAULT_HL7_DELIMITERS;
  if (separator !== d.field || encoding !== '^~\\&') {
    // With the v2.7 truncation character (a fifth character), `\P\` stands for it, as the parser reads it.
    d = { field: separator, component: encoding.charAt(0), repetition: encoding.charAt(1), escape: encoding.charAt(2), subcomponent: encoding.charAt(3) };
    if (encoding.length === 5) d = { ...d, truncation: encoding.charAt(4) };
  }
  let controlId: string;
  let charset: string;
  try {
    if (encoding.length !== 4 && encoding.length !== 5) throw new MllpError('invalid-message', 'MSH-2 must be 4 or 5 encoding characters');
    controlId = firstValue(raw.controlId, d);
    charset = firstValue(raw.charset, d).toUpperCase();
  } catch (error) {
    throw unreadable(error);
  }
  if (controlId === '') throw new MllpError('invalid-message', 'The message has no MSH-10 control id: its ACK could not be matched to it');
  return { controlId, charset };
}

/**
 * Read an outgoing message: check it, find MSH-10 and MSH-18, and encode it.
 *
 * @param message - HL7 v2 text (encoded as MSH-18 says: UTF-8 when empty or `UNICODE UTF-8`, `ASCII`,
 *   `8859/1`), or bytes already encoded (sent unaltered; MSH is read as ASCII)
 * @returns the frame and how to encode it, the control id and the ACK charset
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
    return { frame: encodeMllpFrame(message), encoding: 'latin1', controlId, charset: CHARSETS[charset] === 'latin1' ? 'latin1' : 'utf8' };
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
  const bufferEncoding = encoding === 'latin1' ? 'latin1' : 'utf8';
  return { frame: `\u000b${message}\u001c\r`, encoding: bufferEncoding, controlId, charset: bufferEncoding };
}
