/**
 * Base64 of the UTF-8 encoding of a string, for `Attachment.data` (FHIR `base64Binary`), without Node's
 * `Buffer`: `btoa` and `TextEncoder` are web standards present in browsers, Deno, Bun, edge runtimes and
 * Node >= 16. A table-driven encoder covers runtimes without `btoa`.
 */

const ENCODER = new TextEncoder();
// eslint-disable-next-line no-control-regex
const ASCII_RE = /^[\x00-\x7f]*$/;
/** Bytes per `String.fromCharCode.apply` call: well below every engine's argument limit. */
const CHUNK = 0x2000;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const nativeBtoa: ((data: string) => string) | undefined =
  typeof globalThis.btoa === 'function' ? globalThis.btoa.bind(globalThis) : undefined;

/** Base64 of a binary string (every code unit < 256), in plain JavaScript. */
function btoaFallback(binary: string): string {
  let out = '';
  let i = 0;
  for (; i + 2 < binary.length; i += 3) {
    const v = (binary.charCodeAt(i) << 16) | (binary.charCodeAt(i + 1) << 8) | binary.charCodeAt(i + 2);
    out += ALPHABET.charAt(v >>> 18) + ALPHABET.charAt((v >>> 12) & 63) + ALPHABET.charAt((v >>> 6) & 63) + ALPHABET.charAt(v & 63);
  }
  const rest = binary.length - i;
  if (rest > 0) {
    const v = (binary.charCodeAt(i) << 16) | (rest === 2 ? binary.charCodeAt(i + 1) << 8 : 0);
    out += ALPHABET.charAt(v >>> 18) + ALPHABET.charAt((v >>> 12) & 63) + (rest === 2 ? ALPHABET.charAt((v >>> 6) & 63) : '=') + '=';
  }
  return out;
}

/** The base64 text and the byte length of a string's UTF-8 encoding. */
export interface Utf8Base64 {
  /** Base64 (RFC 4648, with padding) of the UTF-8 bytes. */
  readonly data: string;
  /** Number of UTF-8 bytes. */
  readonly size: number;
}

/**
 * Encode `text` as UTF-8 and then as base64.
 * @param text - any string without lone surrogates (the chart check rejects them)
 * @returns the base64 text and the UTF-8 byte count
 * @example utf8Base64('é').data // 'w6k='
 */
export function utf8Base64(text: string): Utf8Base64 {
  const encode = nativeBtoa ?? btoaFallback;
  // Fast path: ASCII text is its own UTF-8 encoding, so it is already a binary string.
  if (ASCII_RE.test(text)) return { data: encode(text), size: text.length };
  const bytes = ENCODER.encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return { data: encode(binary), size: bytes.length };
}

/** Exposed for tests: the plain-JavaScript encoder used when `btoa` is missing. */
export const base64OfBinaryStringFallback = btoaFallback;
