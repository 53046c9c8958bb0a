/**
 * Base64 of the UTF-8 encoding of a string, for `Attachment.data` (FHIR `base64Binary`), without Node's
 * `Buffer`: only web standards present in browsers, Deno, Bun, edge runtimes and Node >= 16.
 *
 * ASCII text goes to the native `btoa` (it is its own UTF-8 encoding). Other text is encoded with
 * `TextEncoder.encodeInto` into a buffer, turned into base64 digits by a table (two digits per
 * lookup) in one pass, and decoded once into a string: no per-character string building. Runtimes without `btoa` take that path
 * for all text.
 */

const ENCODER = new TextEncoder();
// eslint-disable-next-line no-control-regex -- ASCII starts at U+0000
const ASCII_RE = /^[\x00-\x7f]*$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const nativeBtoa: ((data: string) => string) | undefined =
  typeof globalThis.btoa === 'function' ? globalThis.btoa.bind(globalThis) : undefined;

/** The base64 text and the byte length of a string's UTF-8 encoding. */
export interface Utf8Base64 {
  /** Base64 (RFC 4648, with padding) of the UTF-8 bytes. */
  readonly data: string;
  /** Number of UTF-8 bytes. */
  readonly size: number;
}

/** Base64 digit codes, indexed by 6-bit value. */
const DIGITS = new Uint8Array(64);
for (let i = 0; i < 64; i++) DIGITS[i] = ALPHABET.charCodeAt(i);

/**
 * Two base64 digits per 12-bit value, as one 16-bit unit laid out so that its two bytes in memory are
 * the first and the second digit: one table read and one write per 12 bits instead of two of each.
 */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const PAIRS = new Uint16Array(4096);
for (let i = 0; i < 4096; i++) {
  const first = DIGITS[i >>> 6] as number;
  const second = DIGITS[i & 63] as number;
  PAIRS[i] = LITTLE_ENDIAN ? first | (second << 8) : (first << 8) | second;
}

const DECODER = new TextDecoder();

/**
 * Texts up to this many UTF-16 code units are encoded in buffers kept between calls, grown to the longest such
 * text seen (at most 192 KB of UTF-8 bytes and 256 KB of digits): a note of a few KB would otherwise allocate
 * two buffers outside the JavaScript heap per call, whose cost (and the collections they prompt) was a third of
 * the encoding's. Longer texts get buffers of their own, so one huge note does not stay in memory.
 */
const REUSED_MAX = 65536;
let reusedBytes = new Uint8Array(0);
let reusedDigits = new Uint32Array(0);

/** The four digits of a 24-bit group as one 32-bit word whose bytes in memory are the digits in order. */
function quad(first: number, second: number): number {
  return LITTLE_ENDIAN ? first | (second << 16) : (first << 16) | second;
}

/** Base64 of UTF-8 bytes written straight into a buffer of digits and decoded once as an (ASCII) string. */
function encodeUtf8Base64(text: string): Utf8Base64 {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit; base64 four digits (one word) per 3 bytes, plus one for the rest.
  let bytes: Uint8Array;
  let out: Uint32Array;
  if (text.length > REUSED_MAX) {
    bytes = new Uint8Array(text.length * 3);
    out = new Uint32Array(text.length + 1);
  } else {
    if (reusedBytes.length < text.length * 3) {
      const capacity = Math.min(REUSED_MAX, Math.max(1024, 2 ** Math.ceil(Math.log2(text.length))));
      reusedBytes = new Uint8Array(capacity * 3);
      reusedDigits = new Uint32Array(capacity + 1);
    }
    bytes = reusedBytes;
    out = reusedDigits;
  }
  const n = ENCODER.encodeInto(text, bytes).written;
  const full = n - (n % 3);
  let j = 0;
  for (let i = 0; i < full; i += 3) {
    const v = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    // One table read per 12 bits and one write per 24: the four digits in one word.
    out[j++] = quad(PAIRS[v >>> 12] as number, PAIRS[v & 4095] as number);
  }
  if (full < n) {
    // One or two bytes left: two or three digits, padded with '=' (61) to four.
    const two = n - full === 2;
    const v = ((bytes[full] as number) << 16) | (two ? (bytes[full + 1] as number) << 8 : 0);
    const third = two ? (DIGITS[(v >>> 6) & 63] as number) : 61;
    out[j++] = quad(PAIRS[v >>> 12] as number, LITTLE_ENDIAN ? third | (61 << 8) : (third << 8) | 61);
  }
  return { data: DECODER.decode(new Uint8Array(out.buffer, 0, j * 4)), size: n };
}

/**
 * Encode `text` as UTF-8 and then as base64.
 * @param text - any string without lone surrogates (the chart check rejects them)
 * @returns the base64 text and the UTF-8 byte count
 * @example utf8Base64('é').data // 'w6k='
 */
export function utf8Base64(text: string): Utf8Base64 {
  // Fast path: ASCII text is its own UTF-8 encoding, so it is already the binary string `btoa` takes.
  if (nativeBtoa !== undefined && ASCII_RE.test(text)) return { data: nativeBtoa(text), size: text.length };
  return encodeUtf8Base64(text);
}

/** Exposed for tests: the encoders behind {@link utf8Base64}. */
export const base64Internals = { encodeUtf8Base64 };
