/**
 * Value formats and table codes: TS, DT, SI and NM fields, OBX-5 against the value type OBX-2 names, and
 * the codes of closed v2.5.1 tables.
 * @see HL7 v2.5.1 chapter 2A (data types); chapter 7, 7.4.2 (OBX-2, OBX-5)
 */
import { parseHl7DateTime } from '../datetime.js';
import { hl7Position, type Hl7Segment } from '../parser.js';
import type { FieldDefinition } from './definitions.js';
import type { Hl7Problem } from './problems.js';

const SI_RE = /^[1-9][0-9]*$/;
const NM_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const DT_RE = /^\d{4}(?:\d{2}(?:\d{2})?)?$/;
/** TM: HH[MM[SS[.S[S[S[S]]]]]][+/-ZZZZ], hours 00–23, minutes and seconds 00–59. */
const TM_RE = /^(?:[01]\d|2[0-3])(?:[0-5]\d(?:[0-5]\d(?:\.\d{1,4})?)?)?(?:[+-](?:[01]\d|2[0-3])[0-5]\d)?$/;
/** SN-1 comparator (v2.5.1 2A.2.69). */
const SN_COMPARATORS: readonly string[] = ['', '>', '<', '>=', '<=', '=', '<>'];
/** SN-3 separator/suffix (v2.5.1 2A.2.69). */
const SN_SEPARATORS: readonly string[] = ['', '-', '+', '/', '.', ':'];

/** Whether a value is an HL7 DTM (parseable, with a valid calendar date and time). */
function isDtm(value: string): boolean {
  try {
    parseHl7DateTime(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether a value is an HL7 DT: YYYY[MM[DD]] and a real date. */
function isDt(value: string): boolean {
  return DT_RE.test(value) && isDtm(value);
}

/**
 * The format OBX-5 must have for the value types of OBX-2 whose format v2.5.1 defines as a primitive or a
 * numeric structure: [rule, test of one repetition's components]. Other value types (ST, TX, FT, CE, …) hold
 * text or composites whose content is not checked.
 */
const OBX5_FORMATS: Readonly<Record<string, readonly [string, (rep: readonly (readonly string[])[]) => boolean]>> = {
  NM: ['a number (NM)', (rep) => rep.length === 1 && NM_RE.test(rep[0]?.[0] ?? '')],
  DT: ['an HL7 DT date (YYYY[MM[DD]])', (rep) => rep.length === 1 && isDt(rep[0]?.[0] ?? '')],
  TM: ['an HL7 TM time (HH[MM[SS[.S…]]][+/-ZZZZ])', (rep) => rep.length === 1 && TM_RE.test(rep[0]?.[0] ?? '')],
  // TS: TS-1 a DTM, TS-2 the (deprecated) degree of precision.
  TS: ['an HL7 TS date-time (DTM)', (rep) => rep.length <= 2 && isDtm(rep[0]?.[0] ?? '')],
  DTM: ['an HL7 DTM date-time', (rep) => rep.length === 1 && isDtm(rep[0]?.[0] ?? '')],
  // SN: comparator ^ number ^ separator/suffix ^ number, at least one number.
  SN: [
    'an HL7 SN structured numeric (comparator^number^separator^number)',
    (rep) => {
      const c = (k: number): string => rep[k]?.[0] ?? '';
      const num1 = c(1);
      const num2 = c(3);
      return (
        rep.length <= 4 &&
        SN_COMPARATORS.includes(c(0)) &&
        SN_SEPARATORS.includes(c(2)) &&
        (num1 === '' || NM_RE.test(num1)) &&
        (num2 === '' || NM_RE.test(num2)) &&
        (num1 !== '' || num2 !== '')
      );
    },
  ],
};


/**
 * Whether OBX-5 of value type `type` has its format checked here (which then covers its number of components).
 * @param type - OBX-2 as sent
 * @returns whether {@link checkObx5} checks that value type
 * @example hasObx5Format('NM') // true
 */
export function hasObx5Format(type: string): boolean {
  return Object.hasOwn(OBX5_FORMATS, type);
}

/**
 * OBX-5 against the value type in OBX-2 (each repetition): NM, DT, TM, TS, DTM and SN formats, and NM's
 * 16 characters.
 * @param segment - an OBX segment
 * @param index - its index in the message
 * @param problems - where problems are added
 * @returns nothing
 * @example checkObx5(obx, 5, problems)
 */
export function checkObx5(segment: Hl7Segment, index: number, problems: Hl7Problem[]): void {
  const type = segment.fields[2]?.[0]?.[0]?.[0] ?? '';
  // Own keys only: OBX-2 comes from the message and may be `constructor` or `__proto__`.
  const format = Object.hasOwn(OBX5_FORMATS, type) ? OBX5_FORMATS[type] : undefined;
  if (format === undefined) return;
  const [rule, test] = format;
  (segment.fields[5] ?? []).forEach((rep, r) => {
    // An empty repetition holds no value; `""` is the explicit null.
    if (rep.every((comp) => comp.every((sub) => sub === '')) || (rep.length === 1 && rep[0]?.length === 1 && rep[0][0] === '""')) return;
    if (!test(rep)) {
      const position = hl7Position(segment.id, 5, r + 1);
      problems.push({ code: 'format', segmentIndex: index, position, message: `${position} must be ${rule}, as OBX-2 (${type}) says` });
    } else if (type === 'NM' && (rep[0]?.[0] ?? '').length > NM_MAX_LENGTH) {
      // NM is a primitive of 16 characters (v2.5.1 chapter 2A), whatever room OBX-5 has.
      const position = hl7Position(segment.id, 5, r + 1);
      problems.push({ code: 'max-length', segmentIndex: index, position, message: `${position} is longer than the ${NM_MAX_LENGTH} characters of an NM value` });
    }
  });
}

/** The length of an NM value (HL7 v2.5.1 chapter 2A). */
const NM_MAX_LENGTH = 16;

/**
 * The format of each repetition of a TS, DT, SI or NM field, and its code when the field has a closed table.
 * @param segment - the segment
 * @param index - its index in the message
 * @param n - the field number
 * @param def - the field's v2.5.1 definition
 * @param problems - where problems are added
 * @returns nothing
 * @example checkFieldValue(pid, 2, 8, def, problems)
 */
export function checkFieldValue(segment: Hl7Segment, index: number, n: number, def: FieldDefinition, problems: Hl7Problem[]): void {
  const field = segment.fields[n] ?? [];
  field.forEach((rep, r) => {
    const value = rep[0]?.[0] ?? '';
    if (value === '' || value === '""') return;
    const position = hl7Position(segment.id, n, r + 1);
    let ok = true;
    let rule = '';
    if (def.type === 'TS') {
      rule = 'an HL7 DTM date-time';
      ok = isDtm(value);
    } else if (def.type === 'DT') {
      rule = 'an HL7 DT date (YYYY[MM[DD]])';
      ok = isDt(value);
    } else if (def.type === 'SI') {
      rule = 'a positive integer (SI)';
      ok = SI_RE.test(value);
    } else if (def.type === 'NM') {
      rule = 'a number (NM)';
      ok = NM_RE.test(value);
    }
    if (!ok) problems.push({ code: 'format', segmentIndex: index, position, message: `${position} must be ${rule}` });
    if (def.table !== undefined && !def.table.includes(value)) {
      problems.push({ code: 'table-value', segmentIndex: index, position, message: `${position} holds a code outside its v2.5.1 table` });
    }
  });
}
