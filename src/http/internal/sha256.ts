/**
 * SHA-256 (FIPS 180-4) in plain JavaScript, synchronous, for presented API keys. Keys are short (at most
 * `MAX_API_KEY_LENGTH` characters), and for them this is cheaper inside a busy server than a call into the
 * runtime's crypto: Node's `crypto.hash` fetches the digest from OpenSSL on every call, and Web Crypto's
 * digest goes through the thread pool. Checked against `node:crypto` by the tests, for every length that
 * changes the padding and for random text.
 *
 * @see https://csrc.nist.gov/pubs/fips/180-4/upd1/final sections 4.1.2, 4.2.2, 5.1.1, 6.2
 */

/** The first 32 bits of the fractional part of `root(prime)` (section 4.2.2 and 5.3.3 derive them so). */
function fractionBits(count: number, root: (x: number) => number): Uint32Array {
  const out = new Uint32Array(count);
  let n = 0;
  for (let candidate = 2; n < count; candidate++) {
    let prime = true;
    for (let d = 2; d * d <= candidate; d++) {
      if (candidate % d === 0) {
        prime = false;
        break;
      }
    }
    if (!prime) continue;
    const r = root(candidate);
    out[n++] = Math.floor((r - Math.floor(r)) * 0x100000000) >>> 0;
  }
  return out;
}

/** Round constants: cube roots of the first 64 primes. */
const K = fractionBits(64, Math.cbrt);
/** Initial hash value: square roots of the first 8 primes. */
const H0 = fractionBits(8, Math.sqrt);

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
 * SHA-256 of bytes.
 * @param data - the message
 * @returns the 32-byte digest (a new array)
 * @example sha256(new TextEncoder().encode('abc'))[0] // 0xba
 */
export function sha256(data: Uint8Array): Uint8Array {
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
