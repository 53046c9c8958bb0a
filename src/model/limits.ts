/**
 * The limits of chart values: one table, read by the chart check (which refuses a value beyond its limit, with
 * the value's path) and by the builders (which rely on it), so that the two cannot drift apart.
 */

/** The longest chart id, in UTF-16 code units. */
export const ID_MAX = 128;

/**
 * The longest code of a coding, in UTF-16 code units: HL7 CE carries a code in a 250-character field
 * after escaping (HL7 v2.5.1 2.A.8), which 64 characters fit whatever they hold.
 */
export const CODE_MAX = 64;

/** The longest language tag (BCP 47), as for codes: it fits HL7 CE (PID-15) whole. */
export const LANGUAGE_MAX = 64;

/**
 * The longest FHIR `string`: "SHALL NOT exceed 1MB (1024*1024 characters)" (FHIR R4 2.24.0.1, string), which
 * the FHIR validator enforces. Note text travels as base64 and XHTML instead and has its own limit.
 */
export const FHIR_STRING_MAX = 1_048_576;

/** The smallest FHIR `integer` (a 32-bit signed integer, FHIR R4 2.24.0.1). */
export const INT32_MIN = -2_147_483_648;

/** The largest FHIR `integer` and `positiveInt` (a 32-bit signed integer, FHIR R4 2.24.0.1). */
export const INT32_MAX = 2_147_483_647;

/*
 * Values that cannot travel whole in every message are refused by the chart check, with their path. The
 * HL7 v2.5.1 lengths below are counted after escaping (HL7 v2.5.1 2.7: `|^&~\` become three characters,
 * a line break or other control character `\Xhh\`); the HL7 builders read the same constants.
 */

/**
 * The most characters one character of text takes once escaped for HL7 (a C1 control character, `\XC285\`):
 * text no longer than `max / HL7_ESCAPED_CHAR_MAX` fits `max` once escaped, whatever it holds.
 */
export const HL7_ESCAPED_CHAR_MAX = 7;

/** The longest repetition of a composite field (CE, CX, XPN, XAD, XTN, XCN) the HL7 builders send. */
export const HL7_COMPOSITE_MAX = 250;

/** The longest HD-2 universal id (ST 199): an identifier system, after its `urn:oid:` / `urn:uuid:` prefix. */
export const HL7_UNIVERSAL_ID_MAX = 199;

/** The longest contact value: XTN-1 telephone number / XTN-4 communication address (ST 199). */
export const HL7_CONTACT_MAX = 199;

/** The longest coverage member id: IN1-49 is the CX `<member id>^^^^MB`, at most {@link HL7_COMPOSITE_MAX}. */
export const HL7_MEMBER_ID_MAX = HL7_COMPOSITE_MAX - '^^^^MB'.length;

/** The longest OBX-5 observation value (a string answer; the score interpretation in ADR^A19), HL7 v2.5.1 7.4.2.5. */
export const HL7_OBX5_MAX = 99_999;

/**
 * The longest NTE-3 comment (FT 65 536, HL7 v2.5.1 2.14.10.3): ORU^R01 sends the score interpretation there, so
 * an interpretation is at most this long (once escaped) in every message.
 */
export const HL7_NTE3_MAX = 65_536;

/**
 * The largest magnitude of a number sent as HL7 NM (16 characters, sign included: HL7 v2.5.1 2.A.47) and the
 * smallest non-zero one; numbers in between are sent rounded to the digits that fit.
 */
export const HL7_NM_ABS_MAX = 1e15;
/** See {@link HL7_NM_ABS_MAX}. */
export const HL7_NM_ABS_MIN = 1e-13;
/**
 * The magnitude from which a negative number cannot be sent as NM: its sign leaves 15 digits, and a magnitude
 * from 999 999 999 999 999.5 on rounds to 10^15, which has 16 (a positive one rounds to `1000000000000000`,
 * which fits).
 */
export const HL7_NM_NEGATIVE_ABS_MAX = 999_999_999_999_999.5;

/**
 * Whether HL7 NM can send `n` (16 characters, sign included, rounded to the digits that fit): 0, or a magnitude
 * from {@link HL7_NM_ABS_MIN} to below {@link HL7_NM_ABS_MAX} ({@link HL7_NM_NEGATIVE_ABS_MAX} for a negative
 * number).
 * @param n - a finite number
 * @returns whether the chart check accepts it where HL7 sends it as NM
 * @example isNmNumber(-999_999_999_999_999.9) // false
 */
export function isNmNumber(n: number): boolean {
  if (n === 0) return true;
  const magnitude = Math.abs(n);
  return magnitude >= HL7_NM_ABS_MIN && magnitude < (n < 0 ? HL7_NM_NEGATIVE_ABS_MAX : HL7_NM_ABS_MAX);
}

/**
 * The most UTF-8 bytes of a note's text: its base64 in `Attachment.data` stays within 1 MiB (4/3 of this),
 * which common receiving FHIR validators and servers enforce on one value.
 */
export const NOTE_UTF8_MAX = 786_432;

/**
 * The length of `text` once escaped for HL7 v2.5.1 with the standard delimiters: `|^&~\` take three characters,
 * CR and LF `\X0D\` / `\X0A\` (with `lines`, LF and CR LF are the one-character repetition separator instead),
 * any other control character (C0, DEL, C1) the hex of its UTF-8 bytes (`\X09\`, `\XC285\`).
 * With `stopAbove`, counting stops as soon as the count is past it (a limit rule needs no more): the result is
 * then some number above `stopAbove`, at most the escaped length.
 * @param text - the text
 * @param lines - whether line breaks become repetitions (multi-line text, TX)
 * @param stopAbove - where counting may stop (default: never)
 * @returns the escaped length, or a number above `stopAbove` when the escaped length is
 * @example hl7EscapedLength('a|b', false) // 5
 */
export function hl7EscapedLength(text: string, lines: boolean, stopAbove = Number.POSITIVE_INFINITY): number {
  // Without line breaks as repetitions, escaping never shortens: the length alone may settle it.
  if (!lines && text.length > stopAbove) return text.length;
  let n = 0; // the escaped length of text[0, i)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x9f) n += 1;
    else if (c === 0x7c || c === 0x5e || c === 0x26 || c === 0x7e || c === 0x5c) n += 3;
    else if (lines && c === 0x0a) n += 1;
    else if (lines && c === 0x0d && text.charCodeAt(i + 1) === 0x0a) {
      n += 1;
      i += 1;
    } else if (c < 0x20 || c === 0x7f) n += 5;
    else if (c >= 0x80) n += 7;
    else n += 1;
    if (n > stopAbove) return n;
  }
  return n;
}

/**
 * The length of an identifier as HL7 CX, `value^^^&<universal id>&<ISO|UUID|URI>[^type]`.
 * @param value - the identifier value
 * @param system - the identifier system (an absolute URI)
 * @param type - the identifier type code, if any
 * @param stopAbove - where counting the value's escaped length may stop (see `hl7EscapedLength`; default: never)
 * @returns the CX length after escaping (with `stopAbove`: some number above it when the value's escaped length is)
 */
export function hl7CxLength(value: string, system: string, type: string | undefined, stopAbove = Number.POSITIVE_INFINITY): number {
  return hl7EscapedLength(value, false, stopAbove) + hl7UniversalIdLength(system) + cxSeparatorsAndCodes(system, type);
}

/** What CX adds to its value and universal id: `^^^&`, `&` and the HD type (ISO, UUID or URI), `^type`. */
function cxSeparatorsAndCodes(system: string, type: string | undefined): number {
  const typeLength = type === undefined || type === '' ? 0 : 1 + type.length;
  const hdType = system.startsWith('urn:uuid:') ? 'UUID' : 'ISO'; // ISO and URI have the same length
  return '^^^&'.length + 1 + hdType.length + typeLength;
}

/**
 * An upper bound of `hl7CxLength` (with `asXcn`, of `hl7XcnIdentifierLength`) that reads no text:
 * every character of the value and universal id counted at its longest escape ({@link HL7_ESCAPED_CHAR_MAX}).
 * @param value - the identifier value
 * @param system - the identifier system (an absolute URI)
 * @param type - the identifier type code, if any
 * @param asXcn - whether to bound the XCN length of ADR^A19 QRD-8 instead
 * @param universalId - the universal id's escaped length when known, or any upper bound of it (default: its
 *   length without prefix, every character at its longest escape)
 * @returns a length at least the escaped one
 * @example hl7CxLengthBound('MRN-1', 'urn:oid:1.2.3', 'MR', false) // 82
 */
export function hl7CxLengthBound(
  value: string,
  system: string,
  type: string | undefined,
  asXcn: boolean,
  universalId = HL7_ESCAPED_CHAR_MAX * hl7UniversalIdRawLength(system),
): number {
  const cx = HL7_ESCAPED_CHAR_MAX * value.length + universalId + cxSeparatorsAndCodes(system, type);
  return asXcn ? cx + xcnIdentifierExtra(type) : cx;
}

/** What the XCN of QRD-8 adds to the CX of the same identifier. */
function xcnIdentifierExtra(type: string | undefined): number {
  return type === undefined || type === '' ? 5 : 8;
}

/**
 * The length of a patient identifier as HL7 XCN in ADR^A19 QRD-8, `value^^^^^^^^&<universal id>&<ISO|UUID|URI>^^^^type`
 * (the name parts XCN-2 … XCN-6 are shortened first, to nothing if need be): 5 characters more than CX without
 * a type, 8 with one.
 * @param value - the identifier value
 * @param system - the identifier system (an absolute URI)
 * @param type - the identifier type code, if any
 * @returns the XCN length after escaping, without name parts
 */
export function hl7XcnIdentifierLength(value: string, system: string, type: string | undefined): number {
  return hl7CxLength(value, system, type) + xcnIdentifierExtra(type);
}

/** The length of an identifier system as HD-2 universal id (without `urn:oid:` / `urn:uuid:`), after escaping. */
export function hl7UniversalIdLength(system: string): number {
  const bare = system.startsWith('urn:oid:') ? system.slice(8) : system.startsWith('urn:uuid:') ? system.slice(9) : system;
  return hl7EscapedLength(bare, false);
}

/**
 * The length of an identifier system as HD-2 universal id (without `urn:oid:` / `urn:uuid:`), before escaping.
 * @param system - the identifier system
 * @returns its length without the prefix
 * @example hl7UniversalIdRawLength('urn:oid:1.2.3') // 5
 */
export function hl7UniversalIdRawLength(system: string): number {
  return system.length - (system.startsWith('urn:oid:') ? 8 : system.startsWith('urn:uuid:') ? 9 : 0);
}

/**
 * The number of UTF-8 bytes of `text` (lone surrogates, refused by the check, count as U+FFFD). With `stopAbove`,
 * counting stops as soon as the count is past it: the result is then some number above `stopAbove`.
 * @param text - the text
 * @param stopAbove - where counting may stop (default: never)
 * @returns the UTF-8 length, or a number above `stopAbove` when the UTF-8 length is
 * @example utf8Length('é') // 2
 */
export function utf8Length(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  // A character takes at least one byte: the length alone may settle it.
  if (text.length > stopAbove) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i += 1;
    } else n += 3;
    if (n > stopAbove) return n;
  }
  return n;
}

/**
 * The most records of one kind that HL7 numbers with a set id (SI, at most 4 digits: 9 999, HL7 v2.5.1 2.A.69),
 * per place they are numbered: coverages (IN1-1), diagnoses and procedures of one encounter (DG1-1, PR1-1),
 * medical-history entries (DG1-1 of the ADR^A19 group without visit), encounters (PID-1 / PV1-1 of the ADR^A19
 * groups, one more for the records without encounter), answers of one assessment (OBX-1: with the panel,
 * score and interpretation OBX) and the OBX of one ADR^A19 group (OBX-1).
 */
export const HL7_SET_ID_LIMITS = {
  coverages: 9_999,
  diagnoses: 9_999,
  procedures: 9_999,
  medicalHistory: 9_999,
  encounters: 9_998,
  answers: 9_996,
  /** OBX of one ADR^A19 group: its notes' text values and its assessments' panel, answers, score, interpretation. */
  summaryObx: 9_999,
} as const;
