/**
 * Chart ids: realistic (`enc-0001`, UUIDs, MRN-like), hostile (HL7 delimiters, spaces inside, emoji, other
 * scripts, exactly 128 characters) and near-colliding ones, and ids that break the id rule.
 */
import fc from 'fast-check';
import { HOSTILE_FRAGMENTS, sanitizeText, type TextMode } from './fragments.js';
import { arbForbiddenControlChar } from './text-values.js';

const arbFragment = fc.constantFrom(...HOSTILE_FRAGMENTS);

/** A printable random string (graphemes, including combining sequences and emoji). */
const arbGraphemes = fc.string({ unit: 'grapheme', maxLength: 12 });

/** Characters that are white space for `String.prototype.trim` (ids may not start or end with them). */
const TRIM_WS_RE = /^\s|\s$/;

/** Realistic chart ids: `enc-0001`, UUIDs, MRN-like values. */
const arbRealisticId: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom('pat', 'enc', 'note', 'asmt', 'hx', 'cov', 'prac', 'loc', 'org', 'dx', 'proc'), fc.integer({ min: 1, max: 99999 }))
    .map(([p, n]) => `${p}-${String(n).padStart(4, '0')}`),
  fc.uuid(),
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9.-]{0,30}$/),
);

/** A tiny alphabet so that ids often differ only by one character that an id mapping might fold. */
const arbNearCollisionId: fc.Arbitrary<string> = fc
  .array(fc.constantFrom('a', 'A', '-', '.', '_', '|', '^', ' ', 'é', 'e\u0301', '😀', '1'), { minLength: 1, maxLength: 4 })
  .map((cs) => cs.join(''));

/** Hostile ids: delimiters, spaces inside, emoji, non-Latin scripts, exactly 128 characters. */
const arbHostileIdRaw: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('|', '^~\\&', '\\F\\', 'a b', 'a|b', 'a^b', '😀', '李', 'שלום', '<x>', '"q"', '-', '.', 'ID\\.br\\1', '123', '0'),
  fc.array(fc.oneof(arbFragment, arbGraphemes), { minLength: 1, maxLength: 6 }).map((p) => p.join('')),
  fc.constant('x'.repeat(128)),
  fc.constant(`${'9'.repeat(126)}😀`),
  fc.string({ unit: 'grapheme', minLength: 100, maxLength: 128 }),
);

/**
 * Every control character (Unicode general category Cc): C0 (tab, CR and LF included), DEL and C1. The chart
 * check rejects C0 and DEL in ids; generated ids leave out C1 too, as the contract says "no control
 * characters at all".
 */
// eslint-disable-next-line no-control-regex -- removes the control characters a chart id may not hold
const ID_CONTROL_RE = /[\u0000-\u001F\u007F-\u009F]/g;

/**
 * Make any string a valid id: control characters (tab, CR, LF, DEL and C1 included) become `_`, no leading
 * or trailing white space, 1–128 UTF-16 code units, no lone surrogate.
 * @param raw - any string
 * @returns a valid chart id (`'id'` when nothing usable is left)
 */
export function toValidId(raw: string): string {
  let s = sanitizeText(raw).replace(ID_CONTROL_RE, '_');
  s = s.trim();
  if (s.length > 128) {
    s = s.slice(0, 128);
    // Do not leave half a surrogate pair at the cut.
    if (/[\uD800-\uDBFF]$/.test(s)) s = s.slice(0, 127);
    s = s.trim();
  }
  if (s.length === 0 || TRIM_WS_RE.test(s)) return 'id';
  return s;
}

const arbHostileId: fc.Arbitrary<string> = fc.oneof(arbHostileIdRaw, arbNearCollisionId).map(toValidId);
const arbMixedId: fc.Arbitrary<string> = fc.oneof({ arbitrary: arbRealisticId, weight: 3 }, { arbitrary: arbHostileId, weight: 2 });

/**
 * A chart id: 1–128 UTF-16 code units, no control character at all (no tab, CR, LF, DEL or C1), no leading
 * or trailing white space; any other character allowed (HL7 delimiters, spaces inside, emoji, other
 * scripts). Realistic most of the time, else hostile or deliberately colliding after folding.
 * @param mode - realistic ids only, hostile ids only, or mixed (default)
 * @returns the id arbitrary for that mode
 */
export function arbIdFor(mode: TextMode = 'mixed'): fc.Arbitrary<string> {
  return mode === 'realistic' ? arbRealisticId : mode === 'hostile' ? arbHostileId : arbMixedId;
}

/** A chart id (mixed realistic and hostile). See {@link arbIdFor}. */
export const arbId: fc.Arbitrary<string> = arbMixedId;

/**
 * Ids that break the id rule, each at the id's own path: empty, 129 code units, padded with white space, or
 * holding a control character inside: tab, CR, LF, CRLF, DEL or another C0 control.
 */
export const arbInvalidId: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.constant('x'.repeat(129)),
  fc.constantFrom(' a', 'a ', '\ta', 'a\n', '\r\na', '\u00A0a', 'a\u3000', '\uFEFFa'),
  fc.constantFrom('enc\t1', 'enc\r1', 'enc\n1', 'enc\r\n1', 'enc\u007F1', 'a\tb\tc', 'MRN\u007F'),
  arbForbiddenControlChar.map((c) => `id${c}x`),
);
