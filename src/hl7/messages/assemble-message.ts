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
  const h = p.header;
  const nonAscii =
    NON_ASCII_RE.test(h.sendingApplication + h.sendingFacility + h.receivingApplication + h.receivingFacility + p.controlId) ||
    segments.some((s) => NON_ASCII_RE.test(s));
  const msh = buildMsh({
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
  // Plain concatenation: the engine keeps it as a rope and copies it once, when the text is first used.
  let out = msh + le;
  for (const s of segments) out += s + le;
  return out;
}
