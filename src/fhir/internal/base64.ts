/**
 * Base64 of the UTF-8 encoding of a string, for `Attachment.data` (FHIR `base64Binary`), without Node's
 * `Buffer`: only web standards present in browsers, Deno, Bun, edge runtimes and Node >= 16.
 *
 * ASCII text goes to the native `btoa` (it is its own UTF-8 encoding). Other text is encoded with
 * `TextEncoder.encodeInto` into a reused buffer, turned into base64 digits by a table in one pass, and
 * decoded once into a string: no per-character string building. Runtimes without `btoa` take that path
 * for all text.
 */

const ENCODER = new TextEncoder();
// eslint-disable-next-line no-control-regex
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
const DECODER = new TextDecoder();
// Scratch buffers reused across calls (the core is synchronous, so calls never interleave); they grow up
// to SHARED_MAX bytes, larger texts get buffers of their own so that one huge note does not pin memory.
const SHARED_MAX = 1 << 20;
let utf8Buffer: Uint8Array = new Uint8Array(0x10000);
let digitBuffer: Uint8Array = new Uint8Array(0x10000);

function scratch(current: Uint8Array, needed: number): Uint8Array {
  if (current.length >= needed) return current;
  return new Uint8Array(needed);
}

/** Base64 of UTF-8 bytes encoded straight into a byte buffer and decoded once as an (ASCII) string. */
function encodeUtf8Base64(text: string): Utf8Base64 {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit.
  const bytes = scratch(utf8Buffer, text.length * 3);
  if (bytes !== utf8Buffer && bytes.length <= SHARED_MAX) utf8Buffer = bytes;
  const n = ENCODER.encodeInto(text, bytes).written;
  const out = scratch(digitBuffer, Math.ceil(n / 3) * 4);
  if (out !== digitBuffer && out.length <= SHARED_MAX) digitBuffer = out;
  const full = n - (n % 3);
  let j = 0;
  for (let i = 0; i < full; i += 3) {
    const v = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[j] = DIGITS[v >>> 18] as number;
    out[j + 1] = DIGITS[(v >>> 12) & 63] as number;
    out[j + 2] = DIGITS[(v >>> 6) & 63] as number;
    out[j + 3] = DIGITS[v & 63] as number;
    j += 4;
  }
  if (full < n) {
    const two = n - full === 2;
    const v = ((bytes[full] as number) << 16) | (two ? (bytes[full + 1] as number) << 8 : 0);
    out[j] = DIGITS[v >>> 18] as number;
    out[j + 1] = DIGITS[(v >>> 12) & 63] as number;
    out[j + 2] = two ? (DIGITS[(v >>> 6) & 63] as number) : 61; // '='
    out[j + 3] = 61;
    j += 4;
  }
  return { data: DECODER.decode(out.subarray(0, j)), size: n };
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
