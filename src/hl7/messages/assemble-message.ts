/**
 * The last step of every HL7 message builder: the MSH and the segments joined into message text.
 */
import { holdsNonAscii } from '../internal/charset-evidence.js';
import { NOTE_NON_ASCII } from '../internal/speed-ups.js';
import { buildMsh } from '../segments/msh.js';
import type { PreparedMessage } from './prepare-message.js';

/**
 * Put the message together: MSH (with MSH-18 `UNICODE UTF-8` exactly when some text sent is not ASCII),
 * then the segments, each followed by the line ending (the last one too). Escaping noted on the message
 * context whether any text given was not ASCII; only then are the header values and segments scanned (the
 * text may have been shortened or replaced by a derived id since, so only the message itself tells).
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
    (p.ctx.nonAscii || !NOTE_NON_ASCII) &&
    (holdsNonAscii([h.sendingApplication, h.sendingFacility, h.receivingApplication, h.receivingFacility, p.controlId]) || holdsNonAscii(segments));
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
