/**
 * The public directory's page cursor: opaque to clients, it names the resource type and the id of the last
 * record of the previous page (keyset paging, ascending by id in code-point order), so it stays valid while
 * records are added or removed: the next page starts after that id, whatever happened before it.
 *
 * It is validated, not secret: base64url of `type LF id LF checksum`, where the checksum (32-bit FNV-1a of the
 * rest) makes an edited, truncated or made-up cursor a 400. Someone who rebuilds the checksum can start a page
 * after an id of their choosing, which is what paging gives anyone over public records anyway; no key is
 * involved, so cursors work on every instance and across restarts.
 */
import { InvalidArgumentError } from '../../index.js';

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder('utf-8', { fatal: true });
/** What an id may hold: no control character, 1–128 code units (the chart check's rule). */
// eslint-disable-next-line no-control-regex -- finds the control characters an id may not hold
const FORBIDDEN_RE = /[\u0000-\u001F\u007F-\u009F]/;

/** 32-bit FNV-1a over the UTF-16 code units, as 8 hex digits. */
function checksum(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of ENCODER.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(token: string): string | undefined {
  try {
    const binary = atob(token.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return DECODER.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The cursor of the page after the record `afterId`.
 * @param resourceType - the listing's resource type
 * @param afterId - the id of the last record of the current page
 * @returns the cursor (base64url)
 * @throws {InvalidArgumentError} when `afterId` is not a valid id (a source that gave such a record)
 */
export function encodeCursor(resourceType: string, afterId: string): string {
  if (typeof afterId !== 'string' || afterId === '' || afterId.length > 128 || FORBIDDEN_RE.test(afterId)) {
    throw new InvalidArgumentError('id', 'must be a chart id to page after it');
  }
  const body = `${resourceType}\n${afterId}`;
  return toBase64Url(`${body}\n${checksum(body)}`);
}

/**
 * The id a cursor pages after, when it is one this module made for `resourceType`.
 * @param cursor - the `_cursor` parameter (base64url characters)
 * @param resourceType - the request's resource type
 * @returns the id, or `undefined` for a cursor that is malformed, edited, or of another resource type
 */
export function decodeCursor(cursor: string, resourceType: string): string | undefined {
  const text = fromBase64Url(cursor);
  if (text === undefined) return undefined;
  const parts = text.split('\n');
  if (parts.length !== 3) return undefined;
  const [type, id, sum] = parts as [string, string, string];
  if (type !== resourceType || id === '' || id.length > 128 || FORBIDDEN_RE.test(id)) return undefined;
  if (sum !== checksum(`${type}\n${id}`)) return undefined;
  // Only the canonical form: one cursor per position, so a cursor cannot be varied to pass as another.
  return toBase64Url(text) === cursor ? id : undefined;
}
