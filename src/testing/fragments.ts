/**
 * The raw material of the text arbitraries: fragments that break naive HL7, XML, JSON or Unicode handling,
 * realistic clinical phrases, and the chart text rule (any Unicode except the control characters
 * U+0000–U+0008, U+000B, U+000C, U+000E–U+001F and lone surrogates).
 */

/**
 * How a text-producing arbitrary mixes realistic and hostile content: clinical phrases only, material that
 * breaks naive HL7 / XML / JSON / Unicode handling, or both.
 * @example const kind: TextMode = 'hostile';
 */
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
 * Fragments that break naive HL7, XML/XHTML, JSON or Unicode handling, for example-based tests. Each is
 * valid chart text.
 * @example for (const text of HOSTILE_FRAGMENTS) assertEscapeRoundTrip(text);
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
  // white space that is not plain space; the DEL and C1 control characters chart text may hold
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
  '\u0080',
  '\u009F',
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
