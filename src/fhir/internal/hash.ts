/**
 * Hashes for FHIR ids, written in plain JavaScript so the core runs in browsers and edge runtimes
 * (Web Crypto's digest is asynchronous, and `node:crypto` is Node-only; SHA-256 itself is in
 * `src/internal/sha256.ts`).
 *
 * - {@link sha256Hex128}: SHA-256 (FIPS 180-4) of the UTF-8 encoding, truncated to 128 bits. Used where
 *   collision resistance matters: the mapping of chart ids that are not valid FHIR ids.
 * - {@link createContentHash}: a fast non-cryptographic 128-bit hash (four multiply-xor lanes in the
 *   style of cyrb128) used for the default Bundle.id, where the input can be large and speed matters
 *   more than resistance to crafted collisions.
 */

import { sha256 } from '../../internal/sha256.js';

const ENCODER = new TextEncoder();

function hex32(word: number): string {
  return (word >>> 0).toString(16).padStart(8, '0');
}

/** The first `count` bytes of `bytes` as lowercase hex digits. */
function toHex(bytes: Uint8Array, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += (bytes[i] as number).toString(16).padStart(2, '0');
  return out;
}

/**
 * The full SHA-256 digest of the UTF-8 encoding of `text`, as 64 lowercase hex digits.
 * @param text - any string (lone surrogates are encoded as U+FFFD by UTF-8 encoding)
 * @returns the digest in hex
 * @example sha256Hex('abc') // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(text: string): string {
  return toHex(sha256(ENCODER.encode(text)), 32);
}

/**
 * The first 128 bits of the SHA-256 digest of the UTF-8 encoding of `text`, as 32 lowercase hex digits.
 * @param text - any string
 * @returns 32 hex digits
 */
export function sha256Hex128(text: string): string {
  return toHex(sha256(ENCODER.encode(text)), 16);
}

/** Format 32 hex digits as an RFC 9562 UUID of version 8 (custom), variant 10. */
export function hexToUuidV8(hex: string): string {
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A streaming fast 128-bit hash of UTF-16 code units. */
export interface ContentHash {
  /** Feed one string; a separator is mixed in after it so that `['ab','c']` and `['a','bc']` differ. */
  update(text: string): void;
  /** The digest as 32 lowercase hex digits. The state is not reset. */
  digestHex(): string;
}

/**
 * Create a fast non-cryptographic 128-bit streaming hash (cyrb128-style lanes). Not collision resistant
 * against crafted input; use {@link sha256Hex128} where that matters.
 * @returns a fresh hash state
 */
export function createContentHash(): ContentHash {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  return {
    update(text: string): void {
      // The four lanes are local variables in the loop: a helper call per character costs several times more.
      let a = h1;
      let b = h2;
      let c = h3;
      let d = h4;
      // 0x10000 is not a UTF-16 code unit, so it ends each fed string unambiguously.
      for (let i = 0; i <= text.length; i++) {
        const k = i < text.length ? text.charCodeAt(i) : 0x10000;
        a = b ^ Math.imul(a ^ k, 597399067);
        b = c ^ Math.imul(b ^ k, 2869860233);
        c = d ^ Math.imul(c ^ k, 951274213);
        d = a ^ Math.imul(d ^ k, 2716044179);
      }
      h1 = a;
      h2 = b;
      h3 = c;
      h4 = d;
    },
    digestHex(): string {
      let a = h1;
      let b = h2;
      let c = h3;
      let d = h4;
      a = Math.imul(c ^ (a >>> 18), 597399067);
      b = Math.imul(d ^ (b >>> 22), 2869860233);
      c = Math.imul(a ^ (c >>> 17), 951274213);
      d = Math.imul(b ^ (d >>> 19), 2716044179);
      a ^= b ^ c ^ d;
      b ^= a;
      c ^= a;
      d ^= a;
      return hex32(a) + hex32(b) + hex32(c) + hex32(d);
    },
  };
}
