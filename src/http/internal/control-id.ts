/**
 * MSH-10 control ids for the handler, in the shape of the core's `generateControlId`: the 3-letter message
 * code, the current time in milliseconds in base 36 (8 characters), a counter in base 36 (4 characters) and 5
 * random base-36 characters, 20 characters of `[0-9A-Z]` in all. The random characters come from a pool of
 * `crypto.getRandomValues` bytes refilled 512 at a time: one call per id costs microseconds on Node, a pool
 * read costs nothing, and the bytes are as random.
 */

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const POOL_SIZE = 512;
/** 252 = 7 × 36: bytes at or above it would bias the digits, so they are skipped. */
const UNBIASED_LIMIT = 252;
const RANDOM_CHARS = 5;

/** A generator of control ids; each call gives a new one. */
export type ControlIdSource = (messageCode: string) => string;

/**
 * Create a control-id generator with its own counter (starting at a random value) and random pool.
 * @returns `(messageCode) => id`; two ids of one generator never repeat (the counter changes on every call and
 *   wraps only after 1 679 616 calls, by which time the clock has moved on)
 * @example createControlIdSource()('MDM') // 'MDMMI4Z2K7Q0A3F9X2KD' (shape)
 */
export function createControlIdSource(): ControlIdSource {
  const pool = new Uint8Array(POOL_SIZE);
  let next = POOL_SIZE;
  function byte(): number {
    if (next === POOL_SIZE) {
      globalThis.crypto.getRandomValues(pool);
      next = 0;
    }
    return pool[next++] as number;
  }
  function randomDigit(): string {
    for (;;) {
      const b = byte();
      if (b < UNBIASED_LIMIT) return BASE36[b % 36] as string;
    }
  }
  let counter = ((byte() << 16) | (byte() << 8) | byte()) % 36 ** 4;
  return (messageCode) => {
    counter = (counter + 1) % 36 ** 4;
    const time = Date.now().toString(36).toUpperCase().padStart(8, '0').slice(-8);
    let id = messageCode + time + counter.toString(36).toUpperCase().padStart(4, '0');
    for (let i = 0; i < RANDOM_CHARS; i++) id += randomDigit();
    return id;
  };
}
