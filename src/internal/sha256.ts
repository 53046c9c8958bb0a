/**
 * SHA-256 (FIPS 180-4) in plain JavaScript, synchronous, for every runtime: the core uses it for FHIR ids
 * (`toFhirId`, instrument URLs) and the HTTP adapter's key store for presented API keys. Web Crypto's digest
 * is asynchronous (and goes through a thread pool on Node), and `node:crypto` is Node-only.
 *
 * The constants are written out, not derived: `Math.cbrt` is not required to be correctly rounded, so a
 * derived table could differ in a last bit between engines.
 *
 * @see https://csrc.nist.gov/pubs/fips/180-4/upd1/final sections 4.1.2, 4.2.2, 5.1.1, 5.3.3, 6.2
 */
import { InvalidArgumentError } from '../errors.js';

/** Round constants (section 4.2.2): the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
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

/** Initial hash value (section 5.3.3): the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

const W = new Uint32Array(64);
const H = new Uint32Array(8);

function compress(block: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = (((block[j] as number) << 24) | ((block[j + 1] as number) << 16) | ((block[j + 2] as number) << 8) | (block[j + 3] as number)) >>> 0;
  }
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15] as number;
    const w2 = W[i - 2] as number;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = ((W[i - 16] as number) + s0 + (W[i - 7] as number) + s1) | 0;
  }
  let a = H[0] as number;
  let b = H[1] as number;
  let c = H[2] as number;
  let d = H[3] as number;
  let e = H[4] as number;
  let f = H[5] as number;
  let g = H[6] as number;
  let h = H[7] as number;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + s1 + ch + (K[i] as number) + (W[i] as number)) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = ((H[0] as number) + a) | 0;
  H[1] = ((H[1] as number) + b) | 0;
  H[2] = ((H[2] as number) + c) | 0;
  H[3] = ((H[3] as number) + d) | 0;
  H[4] = ((H[4] as number) + e) | 0;
  H[5] = ((H[5] as number) + f) | 0;
  H[6] = ((H[6] as number) + g) | 0;
  H[7] = ((H[7] as number) + h) | 0;
}

/**
 * SHA-256 of bytes, synchronously, in plain JavaScript (FIPS 180-4; checked against `node:crypto` by the
 * tests).
 * @param data - the message
 * @returns the 32-byte digest (a new array)
 * @throws {InvalidArgumentError} when `data` is not a `Uint8Array` (a string would be hashed as something else
 *   than its UTF-8 bytes: encode it first)
 * @example sha256(new TextEncoder().encode('abc'))[0] // 0xba
 */
export function sha256(data: Uint8Array): Uint8Array {
  if (!(data instanceof Uint8Array)) throw new InvalidArgumentError('data', 'must be a Uint8Array');
  // Message, 0x80, zero padding, 64-bit big-endian bit length: a multiple of 64 bytes (section 5.1.1).
  const padded = new Uint8Array(((data.length + 9 + 63) >>> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const bits = data.length * 8;
  const end = padded.length;
  const high = Math.floor(bits / 0x100000000);
  padded[end - 8] = high >>> 24;
  padded[end - 7] = (high >>> 16) & 0xff;
  padded[end - 6] = (high >>> 8) & 0xff;
  padded[end - 5] = high & 0xff;
  padded[end - 4] = bits >>> 24;
  padded[end - 3] = (bits >>> 16) & 0xff;
  padded[end - 2] = (bits >>> 8) & 0xff;
  padded[end - 1] = bits & 0xff;
  return digestPadded(padded, end);
}

/** Hash the padded message in `padded[0, end)`: a new 32-byte digest. */
function digestPadded(padded: Uint8Array, end: number): Uint8Array {
  H.set(H0);
  for (let offset = 0; offset < end; offset += 64) compress(padded, offset);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const v = H[i] as number;
    out[i * 4] = v >>> 24;
    out[i * 4 + 1] = (v >>> 16) & 0xff;
    out[i * 4 + 2] = (v >>> 8) & 0xff;
    out[i * 4 + 3] = v & 0xff;
  }
  return out;
}

/** One block for short messages, reused: a presented API key is hashed on every request. */
const BLOCK = new Uint8Array(64);
const ENCODER = new TextEncoder();

/**
 * SHA-256 of a string's UTF-8 bytes. A string of at most 55 ASCII characters (one block, as API keys are)
 * is written straight into a reused block, without an encoder call or an allocation but the digest.
 * @param text - the message
 * @returns the 32-byte digest (a new array), as `sha256(new TextEncoder().encode(text))`
 * @example sha256Text('abc')[0] // 0xba
 */
export function sha256Text(text: string): Uint8Array {
  const n = text.length;
  if (n <= 55) {
    let ascii = true;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) {
        ascii = false;
        break;
      }
      BLOCK[i] = c;
    }
    if (ascii) {
      BLOCK.fill(0, n);
      BLOCK[n] = 0x80;
      const bits = n * 8;
      BLOCK[62] = bits >>> 8;
      BLOCK[63] = bits & 0xff;
      return digestPadded(BLOCK, 64);
    }
  }
  return sha256(ENCODER.encode(text));
}
