/**
 * Hashes for FHIR ids, written in plain JavaScript so the core runs in browsers and edge runtimes
 * (Web Crypto's digest is asynchronous, and `node:crypto` is Node-only).
 *
 * - {@link sha256Hex128}: SHA-256 (FIPS 180-4) of the UTF-8 encoding, truncated to 128 bits. Used where
 *   collision resistance matters: the mapping of chart ids that are not valid FHIR ids.
 * - {@link createContentHash}: a fast non-cryptographic 128-bit hash (four multiply-xor lanes in the
 *   style of cyrb128) used for the default Bundle.id, where the input can be large and speed matters
 *   more than resistance to crafted collisions.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const ENCODER = new TextEncoder();

/** SHA-256 digest of `bytes` as eight 32-bit words. */
function sha256Words(bytes: Uint8Array): Uint32Array {
  const bitLength = bytes.length * 8;
  // Message + 0x80 + zero padding + 64-bit big-endian length, to a multiple of 64 bytes.
  const padded = new Uint8Array(((bytes.length + 9 + 63) >>> 6) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);

  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = w[i - 15] as number;
      const w2 = w[i - 2] as number;
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0;
    }
    let a = h[0] as number;
    let b = h[1] as number;
    let c = h[2] as number;
    let d = h[3] as number;
    let e = h[4] as number;
    let f = h[5] as number;
    let g = h[6] as number;
    let hh = h[7] as number;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + ch + (K[i] as number) + (w[i] as number)) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0] as number) + a;
    h[1] = (h[1] as number) + b;
    h[2] = (h[2] as number) + c;
    h[3] = (h[3] as number) + d;
    h[4] = (h[4] as number) + e;
    h[5] = (h[5] as number) + f;
    h[6] = (h[6] as number) + g;
    h[7] = (h[7] as number) + hh;
  }
  return h;
}

function hex32(word: number): string {
  return (word >>> 0).toString(16).padStart(8, '0');
}

/**
 * The full SHA-256 digest of the UTF-8 encoding of `text`, as 64 lowercase hex digits.
 * @param text - any string (lone surrogates are encoded as U+FFFD by UTF-8 encoding)
 * @returns the digest in hex
 * @example sha256Hex('abc') // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(text: string): string {
  const words = sha256Words(ENCODER.encode(text));
  let out = '';
  for (const word of words) out += hex32(word);
  return out;
}

/**
 * The first 128 bits of the SHA-256 digest of the UTF-8 encoding of `text`, as 32 lowercase hex digits.
 * @param text - any string
 * @returns 32 hex digits
 */
export function sha256Hex128(text: string): string {
  const words = sha256Words(ENCODER.encode(text));
  return hex32(words[0] as number) + hex32(words[1] as number) + hex32(words[2] as number) + hex32(words[3] as number);
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
