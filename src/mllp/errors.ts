/// <reference types="node" />
/**
 * Typed errors of `chart-export/mllp`. Every error has a stable `code` from a closed union and a message that
 * names codes, control ids and limits, never a patient value: the peer's own text (MSA-3) and the ACK are kept
 * on the error's properties for the caller to log as it sees fit, never in `message`.
 */
import type { Hl7Message } from '../index.js';

/** Stable codes of the MLLP client's errors. */
export const MLLP_ERROR_CODES = [
  'nak',
  'ack-timeout',
  'ack-mismatch',
  'not-ack',
  'frame-invalid',
  'frame-too-large',
  'unexpected-frame',
  'connection',
  'queue-full',
  'closed',
  'aborted',
  'invalid-message',
  'invalid-argument',
] as const;
/** One of {@link MLLP_ERROR_CODES}. */
export type MllpErrorCode = (typeof MLLP_ERROR_CODES)[number];

/**
 * An MLLP send or read failed. `code` says why; `controlId` is the MSH-10 of the message it concerns, when
 * there is one.
 * @example if (error instanceof MllpError && error.code === 'ack-timeout') scheduleLater(message);
 */
export class MllpError extends Error {
  /** The class name, `'MllpError'` (in messages and stack traces). */
  override readonly name: string = 'MllpError';
  /** A stable machine-readable code. */
  readonly code: MllpErrorCode;
  /** MSH-10 of the message the error concerns, when known. */
  readonly controlId: string | undefined;

  constructor(code: MllpErrorCode, message: string, options?: { cause?: unknown; controlId?: string | undefined }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.controlId = options?.controlId;
  }
}

/** What a negative acknowledgement says, as {@link MllpNakError} carries it. */
export interface MllpNakDetails {
  /** MSA-1: `AE` / `AR` (original mode) or `CE` / `CR` (enhanced mode, commit level). */
  readonly ackCode: 'AE' | 'AR' | 'CE' | 'CR';
  /** MSA-3, the peer's text message (may be empty). Untrusted text from the peer, kept out of `message`. */
  readonly ackText: string;
  /** ERR-3.1 (HL7 table 0357, e.g. `101` required field missing), or ERR-1.4.1 from older peers; `''` when absent. */
  readonly errorCode: string;
  /** ERR-2 (or ERR-1) as a position, `PID-3` or `PID-5.1`; `''` when absent. */
  readonly errorLocation: string;
  /** The whole ACK as parsed. */
  readonly ack: Hl7Message;
}

/**
 * The peer answered with a negative acknowledgement (MSA-1 `AE`, `AR`, `CE` or `CR`): the message was
 * received but not accepted. `AE`/`CE`: the peer found an error in it; `AR`/`CR`: the peer refused it (for a
 * reason of its own: unsupported type, version, processing id, or a system problem).
 * @see HL7 v2.5.1 chapter 2, 2.9 (acknowledgment modes) and table 0008
 * @example catch (e) { if (e instanceof MllpNakError) console.error(e.ackCode, e.errorCode, e.errorLocation); }
 */
export class MllpNakError extends MllpError implements MllpNakDetails {
  /** The class name, `'MllpNakError'` (in messages and stack traces). */
  override readonly name = 'MllpNakError';
  readonly ackCode: MllpNakDetails['ackCode'];
  readonly ackText: string;
  readonly errorCode: string;
  readonly errorLocation: string;
  readonly ack: Hl7Message;

  constructor(controlId: string, details: MllpNakDetails) {
    // The code and location come from the peer: named in the message only when they look like a code and a
    // position (the peer's free text stays on the properties).
    const code = /^[A-Za-z0-9._-]{1,20}$/.test(details.errorCode) ? details.errorCode : '';
    const at = /^[A-Z][A-Z0-9]{2}(-\d{1,3}(\.\d{1,3})?)?$/.test(details.errorLocation) ? ` at ${details.errorLocation}` : '';
    const error = code === '' ? '' : ` (error ${code}${at})`;
    super('nak', `The peer answered ${details.ackCode} to message ${controlId}${error}`, { controlId });
    this.ackCode = details.ackCode;
    this.ackText = details.ackText;
    this.errorCode = details.errorCode;
    this.errorLocation = details.errorLocation;
    this.ack = details.ack;
  }
}

/**
 * True when `error` is an {@link MllpError} (of any subclass), optionally with the given code.
 * @param error - anything caught
 * @param code - the code to look for; any code when omitted
 * @returns whether it is such an error
 * @throws never
 * @example if (isMllpError(e, 'queue-full')) await client.waitForRoom();
 */
export function isMllpError(error: unknown, code?: MllpErrorCode): error is MllpError {
  return error instanceof MllpError && (code === undefined || error.code === code);
}
