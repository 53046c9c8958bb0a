/// <reference types="node" />
/**
 * Reading an acknowledgement: the ACK is untrusted input, read as the package's own HL7 parser reads it. It
 * must hold an MSA segment whose MSA-2 equals the sent MSH-10, and an MSA-1 from HL7 table 0008. A positive
 * ACK of the usual shape is read without building the whole parsed message (see ack-quick.ts); any other
 * answer is parsed in full.
 * @see HL7 v2.5.1 chapter 2, 2.14.8 (MSA) and 2.14.5 (ERR)
 */
import { Buffer } from 'node:buffer';
import { getHl7Value, parseHl7Message, type Hl7Message, type Hl7Segment } from '../index.js';
import { readQuickAck } from './ack-quick.js';
import { MllpError, MllpNakError } from './errors.js';

/** MSA-1 acknowledgment codes (HL7 table 0008): `A*` original mode, `C*` enhanced mode (commit level). */
export const ACK_CODES = {
  /** Application accept (original mode). */
  AA: 'AA',
  /** Application error (original mode). */
  AE: 'AE',
  /** Application reject (original mode). */
  AR: 'AR',
  /** Commit accept (enhanced mode). */
  CA: 'CA',
  /** Commit error (enhanced mode). */
  CE: 'CE',
  /** Commit reject (enhanced mode). */
  CR: 'CR',
} as const;
/** One of {@link ACK_CODES}. */
export type AckCode = (typeof ACK_CODES)[keyof typeof ACK_CODES];

/** A positive acknowledgement, as `send` resolves with it. */
export interface MllpAck {
  /** MSA-1: `AA` (application accept) or `CA` (commit accept). */
  readonly code: 'AA' | 'CA';
  /** MSA-2: the control id of the message acknowledged (equal to the one sent). */
  readonly controlId: string;
  /** MSA-3, the peer's text message (often empty). Untrusted text. */
  readonly text: string;
  /** The ACK's own MSH-10, when it has one. */
  readonly ackControlId: string;
  /**
   * The whole ACK as `parseHl7Message` reads it. For the usual positive ACK it is parsed on first access (once;
   * the same value every time), so a caller that does not read it does not pay for it.
   */
  readonly message: Hl7Message;
  /** Milliseconds from writing the message to reading its ACK. */
  readonly durationMs: number;
}

function errLocation(err: Hl7Segment): string {
  // ERR-2 (ERL, v2.5): segment id ^ sequence ^ field ^ field repetition ^ component ^ subcomponent.
  let segment = getHl7Value(err, 2, 1);
  let field = getHl7Value(err, 2, 3);
  let component = getHl7Value(err, 2, 5);
  if (segment === '') {
    // ERR-1 (ELD, before v2.5): segment id ^ sequence ^ field position ^ code.
    segment = getHl7Value(err, 1, 1);
    field = getHl7Value(err, 1, 3);
    component = '';
  }
  if (segment === '') return '';
  return `${segment}${field === '' ? '' : `-${field}`}${field !== '' && component !== '' ? `.${component}` : ''}`;
}

/**
 * Read the peer's answer to a message.
 *
 * @param bytes - the frame's bytes
 * @param charset - how to decode them (the sent message's character set)
 * @param controlId - the MSH-10 that was sent
 * @param durationMs - time from writing the message to reading this frame
 * @returns the positive acknowledgement
 * @throws {MllpNakError} for MSA-1 `AE`, `AR`, `CE` or `CR`, with MSA-3 and the ERR code and location
 * @throws {MllpError} `invalid-argument` for arguments of the wrong type; `not-ack` when the frame does not parse or has no MSA with a table-0008 code;
 *   `ack-mismatch` when MSA-2 is not `controlId`
 * @example readAck(frame, 'utf8', 'ADT1').code // 'AA'
 */
export function readAck(bytes: Uint8Array, charset: 'utf8' | 'latin1', controlId: string, durationMs = 0): MllpAck {
  if (!((bytes as unknown) instanceof Uint8Array)) throw new MllpError('invalid-argument', 'Invalid bytes: must be a Uint8Array');
  if (charset !== 'utf8' && charset !== 'latin1') throw new MllpError('invalid-argument', "Invalid charset: must be 'utf8' or 'latin1'");
  if (typeof controlId !== 'string' || controlId === '') throw new MllpError('invalid-argument', 'Invalid controlId: must be a non-empty string');
  const text = (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)).toString(charset);
  const quick = readQuickAck(text, controlId, durationMs);
  if (quick !== undefined) return quick;
  let message: Hl7Message;
  try {
    message = parseHl7Message(text);
  } catch (error) {
    throw new MllpError('not-ack', `The answer to message ${controlId} is not an HL7 message`, { cause: error, controlId });
  }
  const msa = message.segments.find((s) => s.id === 'MSA');
  const code = msa === undefined ? '' : getHl7Value(msa, 1);
  if (msa === undefined || !Object.hasOwn(ACK_CODES, code)) {
    throw new MllpError('not-ack', `The answer to message ${controlId} is not an acknowledgement (no MSA segment with an MSA-1 code of table 0008)`, { controlId });
  }
  const acked = getHl7Value(msa, 2);
  if (acked !== controlId) {
    // Control ids are not patient data; a long one is cut so the message stays one line.
    throw new MllpError('ack-mismatch', `The peer acknowledged message ${JSON.stringify(acked.slice(0, 40))} while message ${controlId} was waiting`, { controlId });
  }
  const msh = message.segments[0] as Hl7Segment;
  if (code === 'AA' || code === 'CA') {
    return { code, controlId, text: getHl7Value(msa, 3), ackControlId: getHl7Value(msh, 10), message, durationMs };
  }
  const err = message.segments.find((s) => s.id === 'ERR');
  const errorCode = err === undefined ? '' : getHl7Value(err, 3) || getHl7Value(err, 1, 4);
  throw new MllpNakError(controlId, {
    ackCode: code as 'AE' | 'AR' | 'CE' | 'CR',
    ackText: getHl7Value(msa, 3),
    errorCode: errorCode.slice(0, 40),
    errorLocation: err === undefined ? '' : errLocation(err).slice(0, 40),
    ack: message,
  });
}
