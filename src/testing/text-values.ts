/**
 * Text arbitraries: realistic clinical text, hostile text (HL7 delimiters, escape look-alikes, line breaks,
 * markup, astral characters, bidi text, combining marks, empty strings) and long text.
 *
 * Everything generated here is valid chart text under the contract: any Unicode except the control
 * characters U+0000–U+0008, U+000B, U+000C, U+000E–U+001F and lone surrogates. The invalid material
 * (forbidden control characters, lone surrogates) is exported separately for validator tests.
 */
import fc from 'fast-check';
import { FORBIDDEN_CONTROL_CHARS, HOSTILE_FRAGMENTS, REALISTIC_PHRASES, sanitizeText, type TextMode } from './fragments.js';

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

/** The length of `text` in UTF-8 bytes. */
function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
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
      const b = utf8Length(part);
      if (bytes + b > targetBytes || units + part.length > 100_000 || (b === 0 && i > parts.length)) break;
      out.push(part);
      bytes += b;
      units += part.length;
    }
    return out.length === 0 ? 'x' : out.join('');
  })
  .map((s) => (s.length === 0 ? 'x' : s));

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

// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

/**
 * How much a generated value may hold: a few items and short text, more, or many items and long text.
 * @example chartDocument({ size: 'medium' })
 */
export type KitSize = 'small' | 'medium' | 'large';

/**
 * Options of {@link hl7Text}.
 * @example hl7Text({ kind: 'hostile', size: 'medium', required: true })
 */
export interface Hl7TextOptions {
  /** Realistic clinical phrases, hostile material, or a mix of both (default `'hostile'`). */
  kind?: TextMode | undefined;
  /**
   * `'small'` (default): a handful of fragments; `'medium'`: up to 40, long lines included; `'large'`: up
   * to 100 KB of UTF-8 (use with few runs).
   */
  size?: KitSize | undefined;
  /** Never blank: at least one character that is not white space, as required chart text must have (default false). */
  required?: boolean | undefined;
}

/** Hostile text of up to 40 fragments, long lines of one repeated fragment among them. */
const arbMediumHostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.array(fc.oneof({ arbitrary: arbFragment, weight: 4 }, { arbitrary: arbPhrase, weight: 1 }, { arbitrary: arbRandomUnicode, weight: 1 }), { maxLength: 40 }).map((p) => p.join('')), weight: 4 },
  { arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_FRAGMENTS, 'x', 'é'), fc.integer({ min: 100, max: 4000 })).map(([part, n]) => part.repeat(n)), weight: 1 },
);

/** Realistic text of up to 40 phrases, as a long note has. */
const arbMediumRealisticText: fc.Arbitrary<string> = fc
  .tuple(fc.array(arbPhrase, { minLength: 1, maxLength: 40 }), fc.constantFrom(' ', '\n', '\r\n'))
  .map(([parts, sep]) => parts.join(sep));

function textOfSize(kind: TextMode, size: KitSize): fc.Arbitrary<string> {
  if (size === 'small') return textFor(kind);
  if (size === 'large') return kind === 'realistic' ? arbMediumRealisticText.map((s) => s.repeat(20)) : arbLongText;
  if (kind === 'realistic') return arbMediumRealisticText;
  return kind === 'hostile' ? arbMediumHostileText : fc.oneof(arbMediumRealisticText, arbMediumHostileText);
}

/**
 * Text as chart fields may hold it and as HL7 v2 must escape it. `'hostile'` text holds the five HL7
 * delimiters `| ^ ~ \ &` alone and together, lone and doubled backslashes, literal escape sequences
 * (`\F\`, `\X0D\`, `\.br\`, `\Zfoo\`), CR, LF, CRLF and lone CR or LF, tab, DEL and C1 controls (the
 * control characters the chart model accepts), astral characters and emoji sequences, right-to-left text
 * and bidi marks, combining marks, unusual white space, markup, random code points, the empty string and,
 * at `size: 'medium'` or more, long lines. Never a control character the chart check refuses, never a
 * lone surrogate.
 * @param options - kind (default hostile), size (default small), required
 * @returns an arbitrary of strings that are valid chart text
 * @example
 * fc.assert(fc.property(hl7Text({ kind: 'hostile' }), (text) => assertEscapeRoundTrip(text)));
 */
export function hl7Text(options: Hl7TextOptions = {}): fc.Arbitrary<string> {
  const kind = options.kind ?? 'hostile';
  const text = textOfSize(kind, options.size ?? 'small');
  if (options.required !== true) return text;
  return text.map((s) => (/\S/.test(s) ? s : `${s}${kind === 'hostile' ? '\\' : 'x'}`));
}
