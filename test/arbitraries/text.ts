/**
 * Text arbitraries: realistic clinical text, hostile text (HL7 delimiters, escape look-alikes, line breaks,
 * markup, astral characters, bidi text, combining marks, empty strings), long text, and chart ids.
 *
 * Everything generated here is valid chart text under the contract: any Unicode except the control
 * characters U+0000–U+0008, U+000B, U+000C, U+000E–U+001F and lone surrogates. The invalid material
 * (forbidden control characters, lone surrogates) is exported separately for validator tests.
 */
import fc from 'fast-check';

/** How a text-producing arbitrary mixes realistic and hostile content. */
export type TextMode = 'realistic' | 'hostile' | 'mixed';

// eslint-disable-next-line no-control-regex -- removes the C0 control characters FHIR strings forbid
const FORBIDDEN_CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The 29 control characters chart text may never contain. */
export const FORBIDDEN_CONTROL_CHARS: readonly string[] = [
  ...Array.from({ length: 9 }, (_, i) => String.fromCharCode(i)),
  '\u000B',
  '\u000C',
  ...Array.from({ length: 18 }, (_, i) => String.fromCharCode(0x0e + i)),
];

/**
 * True when `text` is acceptable chart text: no forbidden control character, no lone surrogate.
 * @param text - the string to test
 * @returns whether the contract's text rule holds
 */
export function isValidChartText(text: string): boolean {
  FORBIDDEN_CONTROL_RE.lastIndex = 0;
  LONE_SURROGATE_RE.lastIndex = 0;
  return !FORBIDDEN_CONTROL_RE.test(text) && !LONE_SURROGATE_RE.test(text);
}

/** Replace what the text rule forbids (used on raw random strings): controls become `?`, lone surrogates U+FFFD. */
export function sanitizeText(text: string): string {
  return text.replace(FORBIDDEN_CONTROL_RE, '?').replace(LONE_SURROGATE_RE, '\uFFFD');
}

/**
 * Fragments that break naive HL7, XML/XHTML, JSON or Unicode handling. Each is valid chart text.
 */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  // HL7 delimiters, alone and together
  '|',
  '^',
  '~',
  '\\',
  '&',
  '|^~\\&',
  'MSH|^~\\&|',
  'OBX|1|TX|',
  // backslashes: lone, doubled, UNC path, Windows path, trailing
  '\\\\',
  '\\\\\\',
  '\\\\server\\share',
  'C:\\Users\\notes\\',
  // literal HL7 escape sequences that must survive as text
  '\\F\\',
  '\\S\\',
  '\\T\\',
  '\\R\\',
  '\\E\\',
  '\\X0D\\',
  '\\X0A\\',
  '\\.br\\',
  '\\H\\',
  '\\N\\',
  '\\Zfoo\\',
  '\\X\\',
  '\\',
  // line breaks and tabs
  '\r',
  '\n',
  '\r\n',
  '\n\r',
  '\r\r\n',
  '\t',
  '\n\n',
  // markup and entities
  '<script>alert(1)</script>',
  '<b>bold</b>',
  '&amp;',
  '&lt;',
  '&#x0;',
  ']]>',
  '<!-- x -->',
  '<?xml?>',
  // quotes and template syntax
  '"',
  "'",
  '`',
  '""',
  '${x}',
  '{{x}}',
  '%s%n',
  '\\u0000',
  '\\n',
  // astral characters and emoji sequences
  '😀',
  '👩‍⚕️',
  '🏳️‍🌈',
  '👍🏽',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '𠜎𠜱',
  '🇺🇸',
  // right-to-left text and bidi marks
  'שלום',
  'مرحبا بالعالم',
  '\u200F',
  '\u200E',
  '\u202E',
  '\u2066\u2069',
  // combining characters (also one dangling at a fragment start)
  'e\u0301',
  '\u0301',
  'Z\u0324\u0354\u0367\u0311\u0313',
  'n\u0303o\u0308',
  // other scripts and symbols
  '李小龍',
  'Ñúñez',
  'Иванов',
  'Ω≈ç√∫',
  '½ ° µ ±',
  // white space that is not plain space; allowed C1/DEL characters
  '',
  ' ',
  '  ',
  '\u00A0',
  '\u2028',
  '\u2029',
  '\uFEFF',
  '\u3000',
  '\u007F',
  '\u0085',
  '\uFFFD',
  // noncharacters: valid chart text, but U+FFFE and U+FFFF may not appear in XML
  '\uFFFE',
  '\uFFFF',
  '\u{10FFFF}',
];

/** Realistic clinical and administrative phrases. */
export const REALISTIC_PHRASES: readonly string[] = [
  'Patient reports improved sleep.',
  'Follow-up for low mood',
  'Denies suicidal ideation.',
  'BP 128/82, HR 72',
  'Sertraline 50 mg daily',
  'Continue CBT weekly.',
  'Anxiety worse at work; uses breathing exercises.',
  'No known drug allergies',
  'Return in 4 weeks',
  'Mother has type 2 diabetes',
  'Screened with PHQ-9',
  'Alert and oriented x3',
  'Discussed sleep hygiene',
  'Labs within normal limits',
  'Referred to psychiatry',
  'A1c 7.2% (goal < 7%)',
  "Pt's spouse present",
  'Plan: titrate dose',
  'Chief complaint: headache × 3 days',
  'Mrs. García prefers Spanish',
];

const arbFragment = fc.constantFrom(...HOSTILE_FRAGMENTS);
const arbPhrase = fc.constantFrom(...REALISTIC_PHRASES);

/** Random code points of the whole Unicode range, sanitised to valid chart text. */
const arbRandomUnicode = fc.string({ unit: 'binary', maxLength: 12 }).map(sanitizeText);

/** A printable random string (graphemes, including combining sequences and emoji). */
const arbGraphemes = fc.string({ unit: 'grapheme', maxLength: 12 });

/**
 * Hostile text: HL7 delimiters, lone and doubled backslashes, literal escape sequences, CR, LF, CRLF, tab,
 * markup, entities, quotes, emoji and astral characters, right-to-left text and marks, combining marks,
 * unusual white space, random code points, and the empty string. Never a forbidden control character or a
 * lone surrogate. May be empty or white space only, so use {@link arbHostileNonEmptyText} for required text.
 */
export const arbHostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(''), weight: 1 },
  { arbitrary: arbFragment, weight: 3 },
  {
    arbitrary: fc
      .array(fc.oneof({ arbitrary: arbFragment, weight: 6 }, { arbitrary: arbPhrase, weight: 1 }, { arbitrary: arbRandomUnicode, weight: 1 }, { arbitrary: arbGraphemes, weight: 1 }), {
        minLength: 1,
        maxLength: 8,
      })
      .map((parts) => parts.join('')),
    weight: 6,
  },
);

/**
 * Realistic text: clinical phrases, sometimes several joined by spaces or line breaks.
 */
export const arbRealisticText: fc.Arbitrary<string> = fc
  .tuple(fc.array(arbPhrase, { minLength: 1, maxLength: 4 }), fc.constantFrom(' ', '\n', '\r\n'))
  .map(([parts, sep]) => parts.join(sep));

/**
 * Text as chart fields hold it: mostly realistic, often hostile, sometimes a mix of both.
 * May be empty; use {@link arbNonEmptyText} for required fields.
 */
export const arbText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: arbRealisticText, weight: 3 },
  { arbitrary: arbHostileText, weight: 2 },
  {
    arbitrary: fc.array(fc.oneof(arbPhrase, arbFragment), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' ')),
    weight: 2,
  },
);

/**
 * Hostile text with at least one character that is not white space (required text fields: titles, note
 * text, names…; the chart check refuses blank required text). White space around it stays.
 */
export const arbHostileNonEmptyText: fc.Arbitrary<string> = arbHostileText.map((s) => (/\S/.test(s) ? s : `${s}\\`));

/** {@link arbText} with at least one character. */
export const arbNonEmptyText: fc.Arbitrary<string> = arbText.map((s) => (/\S/.test(s) ? s : `${s}x`));

/**
 * Text for a mode.
 * @param mode - realistic, hostile, or mixed (default)
 * @param required - when true, never the empty string
 */
export function textFor(mode: TextMode = 'mixed', required = false): fc.Arbitrary<string> {
  if (mode === 'realistic') return arbRealisticText;
  if (mode === 'hostile') return required ? arbHostileNonEmptyText : arbHostileText;
  return required ? arbNonEmptyText : arbText;
}

/**
 * Long text: up to 100 KB of UTF-8 (at most 100 000 UTF-16 code units), built from realistic and hostile
 * fragments repeated, so it stays quick to generate. Use sparingly (few runs).
 */
export const arbLongText: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.oneof(arbPhrase, arbFragment, arbRandomUnicode), { minLength: 1, maxLength: 12 }),
    fc.integer({ min: 1, max: 100 * 1024 }),
  )
  .map(([parts, targetBytes]) => {
    const out: string[] = [];
    let bytes = 0;
    let units = 0;
    // Whole fragments only, so no surrogate pair is ever cut in half.
    for (let i = 0; ; i++) {
      const part = parts[i % parts.length] ?? '';
      const b = Buffer.byteLength(part, 'utf8');
      if (bytes + b > targetBytes || units + part.length > 100_000 || (b === 0 && i > parts.length)) break;
      out.push(part);
      bytes += b;
      units += part.length;
    }
    return out.length === 0 ? 'x' : out.join('');
  })
  .map((s) => (s.length === 0 ? 'x' : s));

// ---------------------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------
// Invalid text material for validator tests
// ---------------------------------------------------------------------------------------------------

/** One control character the text rule forbids (U+0000–U+0008, U+000B, U+000C, U+000E–U+001F). */
export const arbForbiddenControlChar: fc.Arbitrary<string> = fc.constantFrom(...FORBIDDEN_CONTROL_CHARS);

/** One lone surrogate (high or low) code unit. */
export const arbLoneSurrogate: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0xd800, max: 0xdbff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xdc00, max: 0xdfff }).map((c) => String.fromCharCode(c)),
);

/**
 * Text that breaks the text rule: valid text with a forbidden control character or a lone surrogate
 * inserted somewhere (never fixed up by a neighbouring surrogate).
 */
export const arbInvalidText: fc.Arbitrary<string> = fc
  .tuple(arbText, fc.oneof(arbForbiddenControlChar, arbLoneSurrogate), fc.nat())
  .map(([text, bad, at]) => {
    // Insert between code points so that a high surrogate is never followed by an existing low one.
    const cps = Array.from(text);
    const i = cps.length === 0 ? 0 : at % (cps.length + 1);
    cps.splice(i, 0, bad);
    return cps.join('');
  });

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
