/**
 * MSH-10 message control ids generated when the caller gives none (HL7 v2.5.1 chapter 2, 2.14.9.10: "a number
 * or other identifier that uniquely identifies the message").
 */
import { InvalidArgumentError } from '../../errors.js';
import { randomByte } from '../internal/speed-ups.js';

/** The 36 digits of base 36, upper case. */
const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/**
 * The per-process counter of control ids: the one piece of state the HL7 builders keep between calls, on
 * purpose, since ids must differ across calls (see {@link generateControlId}).
 */
let controlIdCounter = Math.floor(Math.random() * 36 ** 4);

/** The millisecond of the last control id, and its 8 base-36 characters. */
let lastTimeMs = Number.NaN;
let lastTimeText = '';

/** What {@link generateControlId} accepts as a message code: nothing to escape, room for the 12 time and counter characters. */
const MESSAGE_CODE_RE = /^[0-9A-Z]{1,8}$/;

function randomBase36(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 252 = 7 × 36: bytes at or above it would bias the digits, so they are skipped.
    if (b < 252) out += BASE36[b % 36];
  }
  return out;
}

/**
 * Generate an MSH-10 message control id: the 3-letter message code, the current time in milliseconds in
 * base 36 (8 characters), a per-process counter in base 36 (4 characters) and 5 random base-36 characters:
 * exactly 20 characters of `[0-9A-Z]`, nothing to escape. Two calls in one process never repeat (the counter
 * changes on every call and wraps only after 1 679 616 calls, by which time the clock has moved on); calls in
 * different processes collide only if time, counter and 25 random bits all agree.
 *
 * @param messageCode - `ADT`, `ADR`, `MDM` or `ORU` (any 1–8 characters of `[0-9A-Z]`)
 * @returns a 20-character control id beginning with `messageCode`
 * @throws {InvalidArgumentError} when `messageCode` is not 1–8 characters of `[0-9A-Z]` (a longer code
 *   would give more than 20 characters)
 * @example generateControlId('MDM') // 'MDMMI4Z2K7Q0A3F9X2KD' (shape)
 */
export function generateControlId(messageCode: string): string {
  if (typeof messageCode !== 'string' || !MESSAGE_CODE_RE.test(messageCode)) {
    throw new InvalidArgumentError('messageCode', 'must be 1-8 characters of [0-9A-Z]');
  }
  controlIdCounter = (controlIdCounter + 1) % 36 ** 4;
  const ms = Date.now();
  // Ids drawn within one millisecond share its base-36 text.
  if (ms !== lastTimeMs) {
    lastTimeMs = ms;
    lastTimeText = ms.toString(36).toUpperCase().padStart(8, '0').slice(-8);
  }
  const time = lastTimeText;
  const counter = controlIdCounter.toString(36).toUpperCase().padStart(4, '0');
  return messageCode + time + counter + randomBase36(20 - messageCode.length - 12);
}
