/** Date order and URI forms, as the chart check reads them. */
import { isoOrderKey } from '../internal/iso.js';

const URI_RE = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
/** The FHIR `oid` form, `urn:oid:` then an OID (RFC 3001). */
const URN_OID_RE = /^urn:oid:[0-2](\.(0|[1-9][0-9]*))+$/;
/** The FHIR `uuid` form, `urn:uuid:` then a lowercase UUID (RFC 4122). */
const URN_UUID_RE = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** `oid:…` and `uuid:…` are no URI schemes: FHIR writes them `urn:oid:…` and `urn:uuid:…`. */
const BARE_OID_UUID_RE = /^(oid|uuid):/i;

/**
 * Whether `a` is certainly before `b`. Two date-times compare as instants (offsets applied); when either
 * is a date (no time, so no zone), only the calendar parts both have are compared.
 */
export function isBefore(a: string, b: string): boolean {
  if (a.length > 10 && b.length > 10) return sameLayout(a, b) ? a < b : isoOrderKey(a) < isoOrderKey(b);
  const n = Math.min(a.length, b.length, 10);
  return a.slice(0, n) < b.slice(0, n);
}

/**
 * Whether two checked date-times can be compared as text: the same length and the same written offset
 * (so the same number of fraction digits, and the same zone; a leap second `60` then sorts after `59` as
 * text too). Most periods qualify, and skip two parses.
 */
function sameLayout(a: string, b: string): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  if (a.charCodeAt(n - 1) === 90) return b.charCodeAt(n - 1) === 90; // both 'Z'
  for (let i = n - 6; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/**
 * Why `value` is no absolute URI FHIR accepts, or `undefined` when it is one: scheme and rest without white
 * space; an OID written `urn:oid:` + a valid OID and a UUID `urn:uuid:` + a lowercase UUID (the FHIR `oid` and
 * `uuid` forms: the FHIR validator refuses a `urn:oid:` or `urn:uuid:` URI that is neither, and the bare
 * `oid:` and `uuid:` prefixes).
 */
export function uriProblem(value: string): string | undefined {
  if (!URI_RE.test(value)) return 'must be an absolute URI (scheme:rest, no white space)';
  if (BARE_OID_UUID_RE.test(value)) return 'must write an OID as urn:oid:… and a UUID as urn:uuid:…';
  if (value.startsWith('urn:oid:') && !URN_OID_RE.test(value)) return 'must be urn:oid: followed by a valid OID (numbers without leading zeros, separated by dots)';
  if (value.startsWith('urn:uuid:') && !URN_UUID_RE.test(value)) return 'must be urn:uuid: followed by a lowercase UUID (8-4-4-4-12 hex digits)';
  return undefined;
}
