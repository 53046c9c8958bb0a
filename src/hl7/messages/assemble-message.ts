/**
 * The last step of every HL7 message builder: the MSH and the segments joined into message text.
 */
import { buildMsh } from '../segments/msh.js';
import type { PreparedMessage } from './prepare-message.js';

// eslint-disable-next-line no-control-regex -- ASCII starts at U+0000
const NON_ASCII_RE = /[^\u0000-\u007f]/;

/**
 * Put the message together: MSH, then the segments, each followed by the line ending (the last one too).
 * MSH-18 (character set, table 0211) is `UNICODE UTF-8` exactly when the message text holds a character
 * outside ASCII, and empty (ASCII, the default) otherwise: decided from the header values and segments as
 * sent, since text may have been shortened or replaced by a derived id on the way.
 * @param p - the prepared header values
 * @param messageType - MSH-9's three components
 * @param segments - the segments after MSH, without terminators
 * @returns the message text
 * @example assembleMessage(p, ['ADT', 'A31', 'ADT_A05'], ['EVN|A31|…', 'PID|…', 'PV1|1|N'])
 */
export function assembleMessage(p: PreparedMessage, messageType: readonly [string, string, string], segments: readonly string[]): string {
  const le = p.lineEnding;
  const msh = buildMessageHeader(p, messageType, headerIsNonAscii(p) || segments.some((s) => NON_ASCII_RE.test(s)));
  // Plain concatenation: the engine keeps it as a rope and copies it once, when the text is first used.
  let out = msh + le;
  for (const s of segments) out += s + le;
  return out;
}

/**
 * Whether text holds a character outside ASCII (MSH-18 is then `UNICODE UTF-8`).
 * @param text - segments as sent
 * @returns true when a character is above U+007F
 * @example isNonAscii('PID|1||é') // true
 */
export function isNonAscii(text: string): boolean {
  return NON_ASCII_RE.test(text);
}

/**
 * Whether the header values (MSH-3 … MSH-6, MSH-10) hold a character outside ASCII.
 * @param p - the prepared header values
 * @returns true when one does
 * @example headerIsNonAscii(prepareMessage(chart, { sendingFacility: 'Hôpital' }, 'ADR')) // true
 */
export function headerIsNonAscii(p: PreparedMessage): boolean {
  const h = p.header;
  return NON_ASCII_RE.test(h.sendingApplication + h.sendingFacility + h.receivingApplication + h.receivingFacility + p.controlId);
}

/**
 * The MSH of a message, MSH-18 as {@link assembleMessage} decides it.
 * @param p - the prepared header values
 * @param messageType - MSH-9's three components
 * @param nonAscii - whether the header or a segment holds a character outside ASCII
 * @returns the MSH segment, without terminator
 * @example buildMessageHeader(p, ['ADR', 'A19', 'ADR_A19'], false).startsWith('MSH|^~\\&|') // true
 */
export function buildMessageHeader(p: PreparedMessage, messageType: readonly [string, string, string], nonAscii: boolean): string {
  const h = p.header;
  return buildMsh({
    sendingApplication: h.sendingApplication,
    sendingFacility: h.sendingFacility,
    receivingApplication: h.receivingApplication,
    receivingFacility: h.receivingFacility,
    dateTime: p.now,
    messageType,
    controlId: p.controlId,
    processingId: h.processingId,
    characterSet: nonAscii ? 'UNICODE UTF-8' : '',
  });
}
