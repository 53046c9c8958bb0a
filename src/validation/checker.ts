/**
 * The generic part of the chart check: the issue collector ({@link Checker}) with the checks of the value
 * shapes the chart model shares (text, ids, codes, dates, periods, names, addresses, contacts), and the lazy
 * issue path. The rules per record kind (`*-rules.ts`) are built from these.
 */
import { type ChartIssue, type ChartIssueCode, type IssuePath } from '../errors.js';
import { isoKind } from '../internal/iso.js';
import { isBefore, uriProblem } from './formats.js';
import { countUpTo, hasForbiddenText, surelyFits } from './speed-ups.js';

export { isBefore, uriProblem };
import { mapChartId } from '../fhir/ids.js';
import { hasText } from '../internal/text.js';
import { ADDRESS_TYPES, ADDRESS_USES, CODE_SYSTEMS, IDENTIFIER_TYPES, NAME_USES, TELECOM_SYSTEMS, TELECOM_USES } from '../model/common.js';
import {
  CODE_MAX,
  FHIR_STRING_MAX,
  HL7_COMPOSITE_MAX,
  HL7_CONTACT_MAX,
  HL7_NM_ABS_MAX,
  HL7_NM_ABS_MIN,
  HL7_NM_NEGATIVE_ABS_MAX,
  HL7_UNIVERSAL_ID_MAX,
  HL7_ESCAPED_CHAR_MAX,
  hl7CxLength,
  hl7CxLengthBound,
  hl7EscapedLength,
  hl7UniversalIdLength,
  hl7UniversalIdRawLength,
  hl7XcnIdentifierLength,
  isNmNumber,
  ID_MAX,
  INT32_MAX,
} from '../model/limits.js';
import { keepShape } from '../internal/kept-shapes.js';

/** A path built lazily as a linked list: turned into an array only when an issue is reported. */
export type Path = { readonly parent: Path; readonly key: string | number } | undefined;

export function at(parent: Path, key: string | number): Path {
  return { parent, key };
}

function toArray(path: Path): IssuePath {
  const out: (string | number)[] = [];
  for (let node = path; node !== undefined; node = node.parent) out.push(node.key);
  return out.reverse();
}

/** A record of the input, read by key. */
export type Obj = Record<string, unknown>;

/** White space at either end of a code, or two in a row. */
const CODE_SPACE_RE = /^\s|\s$|\s\s/;
/** Control characters ids and codes must not hold: C0 (tab, CR, LF included), DEL and C1. */
// eslint-disable-next-line no-control-regex -- the check finds the control characters ids may not hold
const ID_FORBIDDEN_RE = /[\u0000-\u001F\u007F-\u009F]/;

const CODE_SYSTEM_KEYS = Object.keys(CODE_SYSTEMS);

/** Collects issues while walking the input. */
export class Checker {
  readonly issues: ChartIssue[] = [];

  add(path: Path, code: ChartIssueCode, message: string): void {
    this.issues.push({ path: toArray(path), code, message });
  }

  object(value: unknown, path: Path, required: boolean): value is Obj {
    if (value === undefined) {
      if (required) this.add(path, 'required', 'is required');
      return false;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.add(path, 'type', 'must be an object');
      return false;
    }
    return true;
  }

  array(value: unknown, path: Path, required: boolean, minItems = 0): value is unknown[] {
    if (value === undefined) {
      if (required) this.add(path, 'required', 'is required');
      return false;
    }
    if (!Array.isArray(value)) {
      this.add(path, 'type', 'must be an array');
      return false;
    }
    if (value.length < minItems) this.add(path, 'required', `must have at least ${minItems} item${minItems === 1 ? '' : 's'}`);
    return true;
  }

  /**
   * Any text. Optional text may be empty; required text must not be. At most `max` UTF-16 code units: by default
   * FHIR's limit of a `string` (1 MB, 1 048 576 characters, which the FHIR validator enforces).
   */
  text(value: unknown, path: Path, required: boolean, max = FHIR_STRING_MAX): value is string {
    if (value === undefined) {
      if (required) this.add(path, 'required', 'is required');
      return false;
    }
    if (typeof value !== 'string') {
      this.add(path, 'type', 'must be a string');
      return false;
    }
    if (required && value.length === 0) {
      this.add(path, 'required', 'must not be empty');
      return false;
    }
    if (value.length > max) {
      this.add(path, 'range', `must be at most ${max} characters (UTF-16 code units; FHIR's string limit)`);
      return false;
    }
    if (hasForbiddenText(value)) {
      this.add(path, 'control-character', 'contains a control character (other than tab, CR, LF) or a lone surrogate');
      return false;
    }
    return true;
  }

  /**
   * Required text that identifies or reaches someone (an identifier value, a contact value): it must hold a
   * character that is not white space (JavaScript `\s`). Blank, it would identify nothing: FHIR drops it
   * while HL7 would send blanks in a required component.
   */
  nonBlank(value: unknown, path: Path): value is string {
    if (!this.text(value, path, true)) return false;
    if (!hasText(value)) {
      this.add(path, 'required', 'must not be white space only');
      return false;
    }
    return true;
  }

  /** A chart id: 1–128 characters, no control characters, no leading or trailing white space. */
  id(value: unknown, path: Path, required = true): value is string {
    if (!this.text(value, path, required)) return false;
    if (value.length === 0) {
      // An optional id may be absent, never empty: ids are 1–128 characters.
      this.add(path, 'required', 'must not be empty (ids are 1–128 characters)');
      return false;
    }
    if (value.length > ID_MAX) {
      this.add(path, 'range', `must be at most ${ID_MAX} characters (UTF-16 code units)`);
      return false;
    }
    if (value.trim() !== value) {
      this.add(path, 'format', 'must not have leading or trailing white space');
      return false;
    }
    if (ID_FORBIDDEN_RE.test(value)) {
      this.add(path, 'control-character', 'must not contain control characters (tab, CR, LF, DEL and C1 included)');
      return false;
    }
    return true;
  }

  enumValue(value: unknown, allowed: readonly string[], path: Path, required: boolean): void {
    if (value === undefined) {
      if (required) this.add(path, 'required', 'is required');
      return;
    }
    if (typeof value !== 'string' || !allowed.includes(value)) {
      this.add(path, 'enum', `must be one of ${allowed.join(', ')}`);
    }
  }

  boolean(value: unknown, path: Path, required: boolean): void {
    if (value === undefined) {
      if (required) this.add(path, 'required', 'is required');
      return;
    }
    if (typeof value !== 'boolean') this.add(path, 'type', 'must be a boolean');
  }

  /**
   * A number that HL7 sends as NM (answers, scores): besides `finite`, its magnitude must be 0 or between
   * 10^-13 and 10^15, which NM's 16 characters can write (rounded to the digits that fit).
   */
  nmNumber(value: unknown, path: Path, required: boolean, kind: 'finite' | 'integer'): void {
    const before = this.issues.length;
    this.number(value, path, required, kind);
    if (this.issues.length !== before || typeof value !== 'number' || value === 0) return;
    if (!isNmNumber(value)) {
      this.add(path, 'range', `must be 0 or of a magnitude from ${HL7_NM_ABS_MIN} to below ${HL7_NM_ABS_MAX} (${HL7_NM_NEGATIVE_ABS_MAX} if negative; HL7 NM, 16 characters)`);
    }
  }

  number(value: unknown, path: Path, required: boolean, kind: 'finite' | 'integer' | 'positive-integer'): void {
    if (value === undefined) {
      if (required) this.add(path, 'required', 'is required');
      return;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(path, 'type', 'must be a finite number');
      return;
    }
    if (kind !== 'finite' && !Number.isSafeInteger(value)) this.add(path, 'type', 'must be an integer');
    else if (kind === 'positive-integer' && (value < 1 || value > INT32_MAX)) {
      this.add(path, 'range', `must be between 1 and ${INT32_MAX}`);
    }
  }

  /** An ISO 8601 date (`dateOnly`) or date-time in the accepted profile; returns the value when valid. */
  date(value: unknown, path: Path, required: boolean, dateOnly: boolean): string | undefined {
    if (value === undefined) {
      if (required) this.add(path, 'required', 'is required');
      return undefined;
    }
    if (typeof value !== 'string') {
      this.add(path, 'type', 'must be an ISO 8601 string');
      return undefined;
    }
    const kind = isoKind(value);
    if (kind === undefined) {
      this.add(
        path,
        'format',
        dateOnly
          ? 'must be an ISO 8601 date (YYYY, YYYY-MM or YYYY-MM-DD) with a real calendar day'
          : 'must be an ISO 8601 date or a date-time YYYY-MM-DDThh:mm:ss[.ffff] with offset (Z or ±hh:mm), at most 4 fraction digits',
      );
      return undefined;
    }
    if (dateOnly && kind === 'dateTime') {
      this.add(path, 'format', 'must be a date without a time');
      return undefined;
    }
    return value;
  }

  period(value: unknown, path: Path, dateOnly: boolean): void {
    if (!this.object(value, path, false)) return;
    const start = this.date(value['start'], at(path, 'start'), false, dateOnly);
    const end = this.date(value['end'], at(path, 'end'), false, dateOnly);
    if (start !== undefined && end !== undefined && isBefore(end, start)) {
      this.add(at(path, 'end'), 'range', 'must not be before start');
    }
  }

  coding(value: unknown, path: Path, required: boolean, systems?: readonly string[]): void {
    if (!this.object(value, path, required)) return;
    this.enumValue(value['system'], systems ?? CODE_SYSTEM_KEYS, at(path, 'system'), true);
    const code = value['code'];
    const codePath = at(path, 'code');
    if (this.text(code, codePath, true)) {
      if (code.length > CODE_MAX) this.add(codePath, 'range', `must be at most ${CODE_MAX} characters`);
      else if (ID_FORBIDDEN_RE.test(code)) this.add(codePath, 'control-character', 'must not contain control characters (tab, CR, LF, DEL and C1 included)');
      else if (CODE_SPACE_RE.test(code)) this.add(codePath, 'format', 'must have no leading, trailing or repeated white space');
    }
    this.text(value['display'], at(path, 'display'), false);
  }

  /**
   * An identifier: its system fits HD-2, and the whole fits one HL7 CX repetition (with `asXcn`, a patient's
   * identifier, also the XCN of ADR^A19 QRD-8, which is longer) once escaped; reported at the value.
   */
  identifier(value: unknown, path: Path, asXcn = false): void {
    if (!this.object(value, path, true)) return;
    const system = value['system'];
    let systemFits = false;
    // The universal id's escaped length, or an upper bound of it when that bound already fits HD-2.
    let universalId = 0;
    if (this.text(system, at(path, 'system'), true)) {
      const problem = uriProblem(system);
      universalId = HL7_ESCAPED_CHAR_MAX * hl7UniversalIdRawLength(system);
      if (problem === undefined && !surelyFits(universalId, HL7_UNIVERSAL_ID_MAX)) universalId = hl7UniversalIdLength(system);
      if (problem !== undefined) this.add(at(path, 'system'), 'format', problem);
      else if (universalId > HL7_UNIVERSAL_ID_MAX) {
        this.add(at(path, 'system'), 'range', `must be at most ${HL7_UNIVERSAL_ID_MAX} characters after its urn:oid: or urn:uuid: prefix once escaped for HL7 (HD-2 universal id)`);
      } else systemFits = true;
    }
    const idValue = value['value'];
    const valueOk = this.nonBlank(idValue, at(path, 'value'));
    const type = value['type'];
    const typeOk = type === undefined || (typeof type === 'string' && (IDENTIFIER_TYPES as readonly string[]).includes(type));
    this.enumValue(type, IDENTIFIER_TYPES, at(path, 'type'), false);
    if (!valueOk || !systemFits || !typeOk) return;
    const typeCode = type as string | undefined;
    if (surelyFits(hl7CxLengthBound(idValue, system as string, typeCode, asXcn, universalId), HL7_COMPOSITE_MAX)) return;
    if (hl7CxLength(idValue, system as string, typeCode, countUpTo(HL7_COMPOSITE_MAX)) > HL7_COMPOSITE_MAX) {
      this.add(at(path, 'value'), 'range', `must fit, with its system and type, the ${HL7_COMPOSITE_MAX} characters of HL7 CX once escaped (identifiers are never shortened)`);
    } else if (asXcn && hl7XcnIdentifierLength(idValue, system as string, typeCode) > HL7_COMPOSITE_MAX) {
      this.add(at(path, 'value'), 'range', `must fit, with its system and type, the ${HL7_COMPOSITE_MAX} characters of HL7 XCN (QRD-8) once escaped (identifiers are never shortened)`);
    }
  }

  textArray(value: unknown, path: Path): void {
    if (!this.array(value, path, false)) return;
    // An element is never optional: `undefined` (or a hole, which `forEach` would skip) is not text the
    // builders can write. Empty strings stay allowed, as for all optional text.
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v === undefined) this.add(at(path, i), 'required', 'must be a string');
      else this.text(v, at(path, i), false);
    }
  }

  humanName(value: unknown, path: Path): void {
    if (!this.object(value, path, true)) return;
    this.enumValue(value['use'], NAME_USES, at(path, 'use'), false);
    this.text(value['family'], at(path, 'family'), false);
    this.textArray(value['given'], at(path, 'given'));
    this.textArray(value['prefix'], at(path, 'prefix'));
    this.textArray(value['suffix'], at(path, 'suffix'));
    this.text(value['text'], at(path, 'text'), false);
    const nonBlank = (v: unknown): boolean => typeof v === 'string' && hasText(v);
    const given = value['given'];
    if (!nonBlank(value['family']) && !nonBlank(value['text']) && !(Array.isArray(given) && given.some(nonBlank))) {
      this.add(path, 'required', 'must have a family, given or text that is not empty or white space only');
    }
  }

  address(value: unknown, path: Path): void {
    if (!this.object(value, path, true)) return;
    this.enumValue(value['use'], ADDRESS_USES, at(path, 'use'), false);
    this.enumValue(value['type'], ADDRESS_TYPES, at(path, 'type'), false);
    this.textArray(value['lines'], at(path, 'lines'));
    for (const key of ['city', 'district', 'state', 'postalCode', 'country']) this.text(value[key], at(path, key), false);
  }

  telecom(value: unknown, path: Path): void {
    if (!this.object(value, path, true)) return;
    this.enumValue(value['system'], TELECOM_SYSTEMS, at(path, 'system'), true);
    const contact = value['value'];
    if (
      this.nonBlank(contact, at(path, 'value')) &&
      !surelyFits(HL7_ESCAPED_CHAR_MAX * contact.length, HL7_CONTACT_MAX) &&
      hl7EscapedLength(contact, false, countUpTo(HL7_CONTACT_MAX)) > HL7_CONTACT_MAX
    ) {
      this.add(at(path, 'value'), 'range', `must be at most ${HL7_CONTACT_MAX} characters once escaped for HL7 (XTN-1 / XTN-4; contact values are never shortened)`);
    }
    this.enumValue(value['use'], TELECOM_USES, at(path, 'use'), false);
  }

  each(value: unknown, path: Path, required: boolean, fn: (item: unknown, itemPath: Path) => void, minItems = 0): void {
    if (!this.array(value, path, required, minItems)) return;
    for (let i = 0; i < value.length; i++) fn(value[i], at(path, i));
  }

  /**
   * Report records of `list` whose chart ids differ but map to the same FHIR id (one chart id crafted to equal
   * another's hashed form): one FHIR type cannot hold two resources with one id.
   * @param keys - the path of the id within each record (`['id']`, `['instrument', 'id']`)
   */
  uniqueFhirIds(list: unknown, keys: readonly string[], path: Path, what: string): void {
    if (!Array.isArray(list) || list.length < 2) return;
    const seen = new Map<string, string>();
    list.forEach((item: unknown, i) => {
      let id: unknown = item;
      for (const key of keys) id = id !== null && typeof id === 'object' ? (id as Obj)[key] : undefined;
      if (typeof id !== 'string' || id.length === 0) return;
      const fhirId = mapChartId(id);
      const earlier = seen.get(fhirId);
      if (earlier === undefined) seen.set(fhirId, id);
      else if (earlier !== id) {
        let p = at(path, i);
        for (const key of keys) p = at(p, key);
        this.add(p, 'duplicate', `maps to the same FHIR id as the id of an earlier ${what} (FHIR ids: see toFhirId)`);
      }
    });
  }

  /** Report an array of more than `max` items, which HL7 numbers with set ids (`field`) of at most 4 digits. */
  maxSetIds(list: unknown, path: Path, max: number, field: string): void {
    if (Array.isArray(list) && list.length > max) this.add(path, 'range', `must have at most ${max} items (HL7 ${field} set ids have at most 4 digits)`);
  }

  /** Report duplicate ids (by `key`) among the objects of `list` (a list of fewer than two has none). */
  unique(list: unknown, key: string, path: Path, what: string): void {
    if (!Array.isArray(list) || list.length < 2) return;
    const seen = new Set<string>();
    for (let i = 0; i < list.length; i++) {
      const item: unknown = list[i];
      if (item === null || typeof item !== 'object') continue;
      const id = (item as Obj)[key];
      if (typeof id !== 'string') continue;
      if (seen.has(id)) this.add(at(at(path, i), key), 'duplicate', `duplicates the ${key} of an earlier ${what}`);
      seen.add(id);
    }
  }
}

// One checker kept, so that the hidden class of the checker of each call outlives it (src/internal/kept-shapes.ts).
keepShape(new Checker());
