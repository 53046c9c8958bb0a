/**
 * New request ids: random (version 4) UUIDs, in the form `crypto.randomUUID()` gives, lowercase.
 *
 * Random bytes are drawn 4 KiB at a time (as Node's own `randomUUID` draws 2 KiB) and each id is written as 36
 * bytes decoded once, so the id is one flat string. `crypto.randomUUID()` builds it from 20 pieces, which the
 * header check and the write then copy again; per request that was about 0.3 µs and 0.6 KB of garbage.
 */
import { settle } from '../guards.js';
import { REQUEST_ID_RE } from './responses.js';

/** Random bytes for 256 ids; filled on first use, not at load (some edge runtimes refuse random values outside a request). */
const pool = new Uint8Array(16 * 256);
let next = pool.length;
/** The id being written, as ASCII bytes. */
const text = new Uint8Array(36);
const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
const DECODER = new TextDecoder();
const HYPHEN = 0x2d;

/**
 * A new random UUID (version 4, variant 10, lowercase hex), e.g. `3b241101-e2bb-4255-8caf-4136c566a962`.
 * Plain equivalent: `crypto.randomUUID()`.
 * @returns the UUID, 36 characters
 * @throws what `crypto.getRandomValues` throws (a runtime without a secure random source)
 * @example newRequestId() // 'c1c6a4f2-0b1e-4d3a-9f57-2a8e0d6b4c19' (shape)
 */
export function newRequestId(): string {
  if (next === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    next = 0;
  }
  const at = next;
  next += 16;
  // Version 4 in the high nibble of byte 6; variant 10 in the two high bits of byte 8 (RFC 9562 5.4).
  pool[at + 6] = ((pool[at + 6] as number) & 0x0f) | 0x40;
  pool[at + 8] = ((pool[at + 8] as number) & 0x3f) | 0x80;
  let j = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[j++] = HYPHEN;
    const byte = pool[at + i] as number;
    text[j++] = HEX_DIGITS[byte >> 4] as number;
    text[j++] = HEX_DIGITS[byte & 15] as number;
  }
  return DECODER.decode(text);
}

/**
 * The request id of an answer: the caller's `x-request-id` when it is 1–128 characters of `[A-Za-z0-9._:-]`,
 * else the host's generator's value when it passes the same rule, else a new UUID.
 * @param given - the caller's `x-request-id`, if any
 * @param generate - the host's `requestId` option, if any
 * @returns the request id, which always passes {@link REQUEST_ID_RE}
 * @throws nothing: a generator that throws or answers something else gives a UUID
 * @example resolveRequestId('abc-1', undefined) // 'abc-1'
 */
export function resolveRequestId(given: string | undefined, generate: (() => string) | undefined): string {
  if (given !== undefined && REQUEST_ID_RE.test(given)) return given;
  // A UUID always passes the rule.
  if (generate === undefined) return newRequestId();
  let generated: unknown;
  try {
    generated = settle(generate());
  } catch {
    generated = undefined;
  }
  // A generator's value goes into a header too, so it must pass the same rule.
  return typeof generated === 'string' && REQUEST_ID_RE.test(generated) ? generated : newRequestId();
}
