/**
 * Runtime check of chart input. Charts often come from JSON or a database, so every builder checks its
 * input first and nothing invalid is emitted. Problems are reported with their path
 * (`encounters[3].diagnoses[0].code`) and a message that names the rule, never the value.
 */
import { hasText } from '../internal/text.js';
import { ChartValidationError, type ChartIssue, type ChartIssueCode, type IssuePath } from '../errors.js';
import {
  ADDRESS_TYPES,
  ADDRESS_USES,
  CODE_SYSTEMS,
  IDENTIFIER_TYPES,
  NAME_USES,
  TELECOM_SYSTEMS,
  TELECOM_USES,
} from '../model/common.js';
import type { ChartDocument, PatientChart } from '../model/chart.js';
import type { Directory } from '../model/directory.js';
import { LOCATION_STATUSES } from '../model/directory.js';
import { DIAGNOSIS_USES, ENCOUNTER_CLASSES, ENCOUNTER_STATUSES, PARTICIPANT_ROLES, PROCEDURE_STATUSES } from '../model/encounter.js';
import { CLINICAL_STATUSES, VERIFICATION_STATUSES } from '../model/history.js';
import { CONFIDENTIALITY_CODES, NOTE_STATUSES, NOTE_TYPES } from '../model/note.js';
import { COVERAGE_STATUSES, GENDERS, MARITAL_STATUSES, SUBSCRIBER_RELATIONSHIPS } from '../model/patient.js';
import { ASSESSMENT_ITEM_TYPES, ASSESSMENT_STATUSES } from '../model/assessment.js';
import { isoKind, isoOrderKey } from '../internal/iso.js';
import { isCheckedFrozen } from './memo.js';

/** A path built lazily as a linked list: turned into an array only when an issue is reported. */
type Path = { readonly parent: Path; readonly key: string | number } | undefined;

function at(parent: Path, key: string | number): Path {
  return { parent, key };
}

function toArray(path: Path): IssuePath {
  const out: (string | number)[] = [];
  for (let node = path; node !== undefined; node = node.parent) out.push(node.key);
  return out.reverse();
}
type Obj = Record<string, unknown>;

/** Control characters FHIR strings forbid (all C0 but tab, LF, CR) and lone surrogates. */
// eslint-disable-next-line no-control-regex -- finds the C0 control characters FHIR strings forbid
const FORBIDDEN_TEXT_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- a fast pre-check for the C0 control characters FHIR strings forbid
const MAYBE_FORBIDDEN_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/;
/** White space at either end of a code, or two in a row. */
const CODE_SPACE_RE = /^\s|\s$|\s\s/;
const URI_RE = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
/** The FHIR `oid` form, `urn:oid:` then an OID (RFC 3001). */
const URN_OID_RE = /^urn:oid:[0-2](\.(0|[1-9][0-9]*))+$/;
/** The FHIR `uuid` form, `urn:uuid:` then a lowercase UUID (RFC 4122). */
const URN_UUID_RE = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** `oid:…` and `uuid:…` are no URI schemes: FHIR writes them `urn:oid:…` and `urn:uuid:…`. */
const BARE_OID_UUID_RE = /^(oid|uuid):/i;
const LANGUAGE_RE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
/** The longest language tag, as for codes: it fits HL7 CE (PID-15) whole. */
const LANGUAGE_MAX = 64;
const ID_MAX = 128;
/** FHIR strings "SHALL NOT exceed 1MB (1024*1024 characters)"; note text travels as base64 and XHTML instead. */
const FHIR_STRING_MAX = 1_048_576;
/** Codes longer than this cannot be carried in HL7 CE (250 characters after escaping). */
const CODE_MAX = 64;
/** FHIR `positiveInt` is a 32-bit signed integer. */
const INT32_MAX = 2_147_483_647;
// eslint-disable-next-line no-control-regex -- finds the control characters a chart id may not hold
const ID_FORBIDDEN_RE = /[\u0000-\u001F\u007F-\u009F]/;

const CODE_SYSTEM_KEYS = Object.keys(CODE_SYSTEMS);

/**
 * Whether `a` is certainly before `b`. Two date-times compare as instants (offsets applied); when either
 * is a date (no time, so no zone), only the calendar parts both have are compared.
 */
function isBefore(a: string, b: string): boolean {
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
function uriProblem(value: string): string | undefined {
  if (!URI_RE.test(value)) return 'must be an absolute URI (scheme:rest, no white space)';
  if (BARE_OID_UUID_RE.test(value)) return 'must write an OID as urn:oid:… and a UUID as urn:uuid:…';
  if (value.startsWith('urn:oid:') && !URN_OID_RE.test(value)) return 'must be urn:oid: followed by a valid OID (numbers without leading zeros, separated by dots)';
  if (value.startsWith('urn:uuid:') && !URN_UUID_RE.test(value)) return 'must be urn:uuid: followed by a lowercase UUID (8-4-4-4-12 hex digits)';
  return undefined;
}

/** Collects issues while walking the input. */
class Checker {
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
    // Fast path: most text has neither control characters nor surrogates at all.
    if (MAYBE_FORBIDDEN_RE.test(value) && FORBIDDEN_TEXT_RE.test(value)) {
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

  identifier(value: unknown, path: Path): void {
    if (!this.object(value, path, true)) return;
    const system = value['system'];
    if (this.text(system, at(path, 'system'), true)) {
      const problem = uriProblem(system);
      if (problem !== undefined) this.add(at(path, 'system'), 'format', problem);
    }
    this.nonBlank(value['value'], at(path, 'value'));
    this.enumValue(value['type'], IDENTIFIER_TYPES, at(path, 'type'), false);
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
    this.nonBlank(value['value'], at(path, 'value'));
    this.enumValue(value['use'], TELECOM_USES, at(path, 'use'), false);
  }

  each(value: unknown, path: Path, required: boolean, fn: (item: unknown, itemPath: Path) => void, minItems = 0): void {
    if (!this.array(value, path, required, minItems)) return;
    for (let i = 0; i < value.length; i++) fn(value[i], at(path, i));
  }

  /** Report duplicate ids (by `key`) among the objects of `list`. */
  unique(list: unknown, key: string, path: Path, what: string): Set<string> {
    const seen = new Set<string>();
    if (!Array.isArray(list)) return seen;
    list.forEach((item, i) => {
      if (item === null || typeof item !== 'object') return;
      const id = (item as Obj)[key];
      if (typeof id !== 'string') return;
      if (seen.has(id)) this.add(at(at(path, i), key), 'duplicate', `duplicates the ${key} of an earlier ${what}`);
      seen.add(id);
    });
    return seen;
  }
}

function checkPatient(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  c.each(value['identifiers'], at(path, 'identifiers'), true, (v, p) => c.identifier(v, p), 1);
  c.each(value['names'], at(path, 'names'), true, (v, p) => c.humanName(v, p), 1);
  c.date(value['birthDate'], at(path, 'birthDate'), false, true);
  c.enumValue(value['gender'], GENDERS, at(path, 'gender'), false);
  const deceased = value['deceased'];
  // A boolean or a date-time: a value of another type (JSON `null`, a number) is told both.
  if (deceased !== undefined && typeof deceased !== 'boolean' && typeof deceased !== 'string') c.add(at(path, 'deceased'), 'type', 'must be a boolean or an ISO 8601 string');
  else if (typeof deceased === 'string') c.date(deceased, at(path, 'deceased'), false, false);
  c.each(value['addresses'], at(path, 'addresses'), false, (v, p) => c.address(v, p));
  c.each(value['telecoms'], at(path, 'telecoms'), false, (v, p) => c.telecom(v, p));
  c.enumValue(value['maritalStatus'], MARITAL_STATUSES, at(path, 'maritalStatus'), false);
  const language = value['language'];
  if (c.text(language, at(path, 'language'), false) && (!LANGUAGE_RE.test(language) || language.length > LANGUAGE_MAX)) {
    c.add(at(path, 'language'), 'format', `must be a BCP 47 language tag such as en-US, at most ${LANGUAGE_MAX} characters`);
  }
  const coverages = value['coverages'];
  c.each(coverages, at(path, 'coverages'), false, (v, p) => checkCoverage(c, v, p));
  c.unique(coverages, 'id', at(path, 'coverages'), 'coverage');
  checkPayers(c, coverages, at(path, 'coverages'));
}

/** Two optional payer identifiers are the same: system, value and type. */
function sameIdentifier(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const x = a as Obj;
  const y = b as Obj;
  return x['system'] === y['system'] && x['value'] === y['value'] && x['type'] === y['type'];
}

/**
 * One payer id names one payer across the patient's coverages: FHIR exports one Organization per payer id
 * (each payer once), which every Coverage with that id cites, while HL7 sends each coverage's own payer in
 * its IN1. Coverages sharing a payer id must therefore give it the same `name` and `identifier`, or the
 * FHIR export would silently drop the later payer's.
 */
function checkPayers(c: Checker, list: unknown, path: Path): void {
  if (!Array.isArray(list) || list.length < 2) return;
  const first = new Map<string, Obj>();
  list.forEach((coverage: unknown, i) => {
    if (coverage === null || typeof coverage !== 'object') return;
    const payer = (coverage as Obj)['payer'];
    if (payer === null || typeof payer !== 'object' || Array.isArray(payer)) return;
    const p = payer as Obj;
    const id = p['id'];
    if (typeof id !== 'string') return;
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, p);
      return;
    }
    if (earlier === p) return;
    const pp = at(at(path, i), 'payer');
    if (earlier['name'] !== p['name']) c.add(at(pp, 'name'), 'duplicate', "differs from the name of an earlier coverage's payer with the same id");
    if (!sameIdentifier(earlier['identifier'], p['identifier'])) {
      c.add(at(pp, 'identifier'), 'duplicate', "differs from the identifier of an earlier coverage's payer with the same id");
    }
  });
}

function checkCoverage(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  c.enumValue(value['status'], COVERAGE_STATUSES, at(path, 'status'), true);
  const payer = value['payer'];
  if (c.object(payer, at(path, 'payer'), true)) {
    c.id(payer['id'], at(at(path, 'payer'), 'id'));
    c.text(payer['name'], at(at(path, 'payer'), 'name'), true);
    if (payer['identifier'] !== undefined) c.identifier(payer['identifier'], at(at(path, 'payer'), 'identifier'));
  }
  c.text(value['memberId'], at(path, 'memberId'), false);
  for (const key of ['plan', 'group']) {
    const v = value[key];
    if (c.object(v, at(path, key), false)) {
      c.id(v['id'], at(at(path, key), 'id'));
      c.text(v['name'], at(at(path, key), 'name'), false);
    }
  }
  c.enumValue(value['relationship'], SUBSCRIBER_RELATIONSHIPS, at(path, 'relationship'), false);
  c.period(value['period'], at(path, 'period'), true);
  c.number(value['order'], at(path, 'order'), false, 'positive-integer');
}

function checkEncounter(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  c.enumValue(value['status'], ENCOUNTER_STATUSES, at(path, 'status'), true);
  c.enumValue(value['class'], ENCOUNTER_CLASSES, at(path, 'class'), true);
  c.coding(value['type'], at(path, 'type'), false);
  c.period(value['period'], at(path, 'period'), false);
  c.id(value['locationId'], at(path, 'locationId'), false);
  c.each(value['participants'], at(path, 'participants'), false, (v, p) => {
    if (!c.object(v, p, true)) return;
    c.enumValue(v['role'], PARTICIPANT_ROLES, at(p, 'role'), true);
    c.id(v['practitionerId'], at(p, 'practitionerId'));
  });
  c.text(value['reason'], at(path, 'reason'), false);
  const diagnoses = value['diagnoses'];
  c.each(diagnoses, at(path, 'diagnoses'), false, (v, p) => {
    if (!c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'), false);
    c.coding(v['code'], at(p, 'code'), true, ['icd-10-cm', 'snomed-ct']);
    c.number(v['rank'], at(p, 'rank'), false, 'positive-integer');
    c.enumValue(v['use'], DIAGNOSIS_USES, at(p, 'use'), false);
    c.date(v['onset'], at(p, 'onset'), false, false);
    c.date(v['recordedDate'], at(p, 'recordedDate'), false, false);
  });
  c.unique(diagnoses, 'id', at(path, 'diagnoses'), 'diagnosis');
  const procedures = value['procedures'];
  c.each(procedures, at(path, 'procedures'), false, (v, p) => {
    if (!c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'), false);
    c.coding(v['code'], at(p, 'code'), true, ['cpt', 'snomed-ct', 'icd-10-pcs']);
    c.enumValue(v['status'], PROCEDURE_STATUSES, at(p, 'status'), true);
    const performed = v['performed'];
    if (typeof performed === 'object' && performed !== null) c.period(performed, at(p, 'performed'), false);
    else c.date(performed, at(p, 'performed'), false, false);
    c.id(v['performerId'], at(p, 'performerId'), false);
  });
  c.unique(procedures, 'id', at(path, 'procedures'), 'procedure');
}

function checkNote(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  c.enumValue(value['type'], NOTE_TYPES, at(path, 'type'), true);
  c.text(value['title'], at(path, 'title'), true);
  c.enumValue(value['status'], NOTE_STATUSES, at(path, 'status'), true);
  c.date(value['authored'], at(path, 'authored'), true, false);
  c.id(value['authorId'], at(path, 'authorId'), false);
  c.id(value['encounterId'], at(path, 'encounterId'), false);
  c.enumValue(value['confidentiality'], CONFIDENTIALITY_CODES, at(path, 'confidentiality'), false);
  // Note text is no FHIR string (base64 attachment data and narrative XHTML): no length limit.
  c.text(value['text'], at(path, 'text'), true, Number.POSITIVE_INFINITY);
}

/** Which answer value types fit which item type. */
const ANSWER_FITS: Record<string, readonly string[]> = {
  string: ['string'],
  text: ['string'],
  integer: ['integer'],
  decimal: ['decimal', 'integer'],
  boolean: ['boolean'],
  choice: ['coding'],
  date: ['date'],
  dateTime: ['dateTime'],
};

/** The answer value types an item type takes; `undefined` for anything that is no item type. */
function fitsOf(itemType: unknown): readonly string[] | undefined {
  // Own keys only: an item type such as `constructor` must not find Object.prototype's members.
  return typeof itemType === 'string' && Object.hasOwn(ANSWER_FITS, itemType) ? ANSWER_FITS[itemType] : undefined;
}

/** FHIR `integer` is a 32-bit signed integer. */
const INT32_MIN = -2_147_483_648;

function checkAnswerOption(c: Checker, value: unknown, path: Path): void {
  c.coding(value, path, true);
  if (value !== null && typeof value === 'object') c.number((value as Obj)['score'], at(path, 'score'), false, 'finite');
}

/** What the answers of an assessment are checked against: one item definition. */
interface ItemRule {
  /** The item type as given (an unknown one is reported at the item, and its answers are not compared). */
  readonly type: string;
  /** Position in the instrument's items: answers follow this order. */
  readonly index: number;
  /** The item's answer options when it has at least one (else any coding fits a choice item). */
  readonly options: readonly unknown[] | undefined;
}

/**
 * Whether a coding is one of the options, compared the way FHIR compares a `valueCoding` with
 * `Questionnaire.item.answerOption.valueCoding`: same system and same code. The display is not compared
 * (it is a label, and may be localized or abbreviated), nor the score.
 * @see https://hl7.org/fhir/R4/questionnaire-definitions.html#Questionnaire.item.answerOption
 */
function isOption(coding: Obj, options: readonly unknown[]): boolean {
  const system = coding['system'];
  const code = coding['code'];
  for (const option of options) {
    if (option !== null && typeof option === 'object' && (option as Obj)['system'] === system && (option as Obj)['code'] === code) return true;
  }
  return false;
}

function checkAssessment(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  const itemRules = new Map<string, ItemRule>();
  const instrument = value['instrument'];
  const ip = at(path, 'instrument');
  if (c.object(instrument, ip, true)) {
    c.id(instrument['id'], at(ip, 'id'));
    c.text(instrument['title'], at(ip, 'title'), true);
    c.coding(instrument['code'], at(ip, 'code'), false);
    const url = instrument['url'];
    if (c.text(url, at(ip, 'url'), false)) {
      // The url is the Questionnaire's canonical URL, which a response cites: in a canonical reference `|`
      // starts a version and `#` a fragment, so a url holding either would cite another Questionnaire.
      const problem = uriProblem(url) ?? (/[|#]/.test(url) ? 'must not contain | or # (a canonical reference reads them as version and fragment)' : undefined);
      if (problem !== undefined) c.add(at(ip, 'url'), 'format', problem);
    }
    const items = instrument['items'];
    let index = 0;
    c.each(items, at(ip, 'items'), false, (v, p) => {
      const itemIndex = index++;
      if (!c.object(v, p, true)) return;
      c.id(v['linkId'], at(p, 'linkId'));
      c.text(v['text'], at(p, 'text'), true);
      c.coding(v['code'], at(p, 'code'), false);
      const type = v['type'];
      c.enumValue(type, ASSESSMENT_ITEM_TYPES, at(p, 'type'), true);
      const options = v['options'];
      c.each(options, at(p, 'options'), false, (o, op) => checkAnswerOption(c, o, op));
      const hasOptions = Array.isArray(options) && options.length > 0;
      // Options are codings: on another item type no answer could be one of them (and FHIR que-5 forbids
      // answerOption on boolean and text items), so the Questionnaire would refuse every answer.
      if (hasOptions && type !== 'choice' && fitsOf(type) !== undefined) {
        c.add(at(p, 'options'), 'type', 'must be empty unless the item type is choice (answer options are codings)');
      }
      const linkId = v['linkId'];
      if (typeof linkId === 'string' && typeof type === 'string' && !itemRules.has(linkId)) {
        itemRules.set(linkId, { type, index: itemIndex, options: hasOptions ? options : undefined });
      }
    });
    c.unique(items, 'linkId', at(ip, 'items'), 'item');
  }
  // A plain test, not c.object: the instrument was reported above when it is not an object.
  const hasDefinitions = instrument !== null && typeof instrument === 'object' && !Array.isArray(instrument) && Array.isArray((instrument as Obj)['items']);
  c.enumValue(value['status'], ASSESSMENT_STATUSES, at(path, 'status'), true);
  c.date(value['authored'], at(path, 'authored'), true, false);
  c.id(value['authorId'], at(path, 'authorId'), false);
  c.id(value['encounterId'], at(path, 'encounterId'), false);
  const answers = value['answers'];
  // The highest item position answered so far: a QuestionnaireResponse lists its items in the order of
  // the Questionnaire's (the FHIR validator rejects any other order), and answers map one to one.
  let lastIndex = -1;
  c.each(answers, at(path, 'answers'), true, (v, p) => {
    if (!c.object(v, p, true)) return;
    const linkId = v['linkId'];
    c.id(linkId, at(p, 'linkId'));
    c.text(v['text'], at(p, 'text'), false);
    c.coding(v['code'], at(p, 'code'), false);
    const answer = v['value'];
    const vp = at(p, 'value');
    if (!c.object(answer, vp, true)) return;
    const type = answer['type'];
    const inner = answer['value'];
    const issuesBefore = c.issues.length;
    switch (type) {
      case 'string':
        c.text(inner, at(vp, 'value'), true);
        break;
      case 'integer':
        c.number(inner, at(vp, 'value'), true, 'integer');
        break;
      case 'decimal':
        c.number(inner, at(vp, 'value'), true, 'finite');
        break;
      case 'boolean':
        c.boolean(inner, at(vp, 'value'), true);
        break;
      case 'coding':
        checkAnswerOption(c, inner, at(vp, 'value'));
        break;
      case 'date':
        c.date(inner, at(vp, 'value'), true, true);
        break;
      case 'dateTime':
        c.date(inner, at(vp, 'value'), true, false);
        break;
      default:
        c.add(at(vp, 'type'), 'enum', 'must be one of string, integer, decimal, boolean, coding, date, dateTime');
        return;
    }
    if (!hasDefinitions || typeof linkId !== 'string') return;
    const item = itemRules.get(linkId);
    if (item === undefined) {
      c.add(at(p, 'linkId'), 'reference', 'does not match any item of the instrument');
      return;
    }
    if (item.index < lastIndex) c.add(at(p, 'linkId'), 'range', 'must follow the item order of the instrument (an answer to a later item comes first)');
    else lastIndex = item.index;
    const fits = fitsOf(item.type);
    if (fits === undefined) return; // the item type itself is reported
    if (!fits.includes(type)) {
      c.add(at(vp, 'type'), 'type', `does not fit the item type ${item.type}`);
      return;
    }
    if (type === 'coding' && item.options !== undefined) {
      // Only a well-formed coding is compared; a malformed one is already reported where it breaks.
      if (c.issues.length === issuesBefore && !isOption(inner as Obj, item.options)) {
        c.add(vp, 'enum', "must be one of the item's answer options (same system and code)");
      }
    } else if (type === 'integer' && item.type === 'integer' && Number.isSafeInteger(inner) && ((inner as number) < INT32_MIN || (inner as number) > INT32_MAX)) {
      // An integer item's answer is a FHIR valueInteger, which is 32-bit; a decimal item takes any integer.
      c.add(at(vp, 'value'), 'range', `must be between ${INT32_MIN} and ${INT32_MAX} (FHIR integer) for an integer item`);
    }
  });
  c.unique(answers, 'linkId', at(path, 'answers'), 'answer');
  const score = value['score'];
  if (c.object(score, at(path, 'score'), false)) {
    c.number(score['value'], at(at(path, 'score'), 'value'), true, 'finite');
    c.coding(score['code'], at(at(path, 'score'), 'code'), false);
    c.text(score['interpretation'], at(at(path, 'score'), 'interpretation'), false);
  }
}

function checkHistory(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  c.coding(value['code'], at(path, 'code'), true, ['icd-10-cm', 'snomed-ct']);
  c.enumValue(value['clinicalStatus'], CLINICAL_STATUSES, at(path, 'clinicalStatus'), true);
  c.enumValue(value['verificationStatus'], VERIFICATION_STATUSES, at(path, 'verificationStatus'), false);
  const onset = c.date(value['onset'], at(path, 'onset'), false, false);
  const abatement = c.date(value['abatement'], at(path, 'abatement'), false, false);
  if (onset !== undefined && abatement !== undefined && isBefore(abatement, onset)) {
    c.add(at(path, 'abatement'), 'range', 'must not be before onset');
  }
  c.date(value['recordedDate'], at(path, 'recordedDate'), false, false);
  c.text(value['note'], at(path, 'note'), false);
}

function checkChart(c: Checker, value: unknown, path: Path): void {
  // A frozen checked chart (or record) cannot have changed since it passed: see frozen.ts.
  if (isCheckedFrozen(value) || !c.object(value, path, true)) return;
  if (!isCheckedFrozen(value['patient'])) checkPatient(c, value['patient'], at(path, 'patient'));
  const kinds: [string, string, (c: Checker, v: unknown, p: Path) => void][] = [
    ['encounters', 'encounter', checkEncounter],
    ['notes', 'note', checkNote],
    ['assessments', 'assessment', checkAssessment],
    ['medicalHistory', 'medical-history entry', checkHistory],
  ];
  for (const [key, what, fn] of kinds) {
    c.each(value[key], at(path, key), false, (v, p) => {
      if (!isCheckedFrozen(v)) fn(c, v, p);
    });
    c.unique(value[key], 'id', at(path, key), what);
  }
  checkInstruments(c, value['assessments'], at(path, 'assessments'));
}

/** Two optional codings (answer options included) are the same: system, code, display and score. */
function sameCoding(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const x = a as Obj;
  const y = b as Obj;
  // `===`: a score of -0 (JSON.parse('-0')) is the score 0, as FHIR writes it.
  return x['system'] === y['system'] && x['code'] === y['code'] && x['display'] === y['display'] && x['score'] === y['score'];
}

/**
 * Two item-definition lists define the same items: in order, the same linkId, text, type, code and options
 * (the fields the mappers read; unknown keys are ignored here as everywhere else in the check). Flat
 * comparisons only, so no input nesting can exhaust the stack.
 */
function sameItems(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x: unknown = a[i];
    const y: unknown = b[i];
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
    const p = x as Obj;
    const q = y as Obj;
    if (p['linkId'] !== q['linkId'] || p['text'] !== q['text'] || p['type'] !== q['type'] || !sameCoding(p['code'] ?? null, q['code'] ?? null)) return false;
    const po = p['options'];
    const qo = q['options'];
    if (po === undefined || qo === undefined) {
      if (po !== qo) return false;
      continue;
    }
    if (!Array.isArray(po) || !Array.isArray(qo) || po.length !== qo.length) return false;
    for (let k = 0; k < po.length; k++) if (!sameCoding(po[k], qo[k])) return false;
  }
  return true;
}

/**
 * One instrument id names one instrument across the chart: an export carries one Questionnaire per id, which
 * every response of that instrument must fit. Assessments sharing an instrument id must give it the same
 * `url` and, where both define items, the same item definitions. Runs across records, so also on charts
 * assembled from frozen ones.
 */
function checkInstruments(c: Checker, list: unknown, path: Path): void {
  if (!Array.isArray(list) || list.length < 2) return;
  const first = new Map<string, Obj>();
  const withItems = new Map<string, Obj>();
  list.forEach((assessment: unknown, i) => {
    if (assessment === null || typeof assessment !== 'object') return;
    const instrument = (assessment as Obj)['instrument'];
    if (instrument === null || typeof instrument !== 'object') return;
    const inst = instrument as Obj;
    const id = inst['id'];
    if (typeof id !== 'string') return;
    const ip = at(at(path, i), 'instrument');
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, inst);
    else if (earlier !== inst && earlier['url'] !== inst['url']) {
      c.add(at(ip, 'url'), 'duplicate', 'differs from the url of an earlier assessment whose instrument has the same id');
    }
    if (inst['items'] === undefined) return;
    const defined = withItems.get(id);
    if (defined === undefined) withItems.set(id, inst);
    else if (defined['items'] !== inst['items'] && !sameItems(defined['items'], inst['items'])) {
      c.add(at(ip, 'items'), 'duplicate', 'differ from the item definitions of an earlier assessment whose instrument has the same id');
    }
  });
}

function checkDirectoryInto(c: Checker, value: unknown, path: Path): void {
  if (isCheckedFrozen(value) || !c.object(value, path, false)) return;
  const orgs = value['organizations'];
  c.each(orgs, at(path, 'organizations'), false, (v, p) => {
    if (isCheckedFrozen(v) || !c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'));
    c.text(v['name'], at(p, 'name'), true);
    c.boolean(v['active'], at(p, 'active'), false);
    c.each(v['identifiers'], at(p, 'identifiers'), false, (x, xp) => c.identifier(x, xp));
    // FHIR org-2 / org-3: an organization's address or telecom can never be of use 'home'.
    const notHome = (x: unknown, xp: Path): void => {
      if (x !== null && typeof x === 'object' && (x as Obj)['use'] === 'home') c.add(at(xp, 'use'), 'enum', "must not be 'home' for an organization");
    };
    c.each(v['telecoms'], at(p, 'telecoms'), false, (x, xp) => (c.telecom(x, xp), notHome(x, xp)));
    c.each(v['addresses'], at(p, 'addresses'), false, (x, xp) => (c.address(x, xp), notHome(x, xp)));
    c.id(v['partOfId'], at(p, 'partOfId'), false);
  });
  c.unique(orgs, 'id', at(path, 'organizations'), 'organization');
  const pracs = value['practitioners'];
  c.each(pracs, at(path, 'practitioners'), false, (v, p) => {
    if (isCheckedFrozen(v) || !c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'));
    c.each(v['names'], at(p, 'names'), true, (x, xp) => c.humanName(x, xp), 1);
    c.boolean(v['active'], at(p, 'active'), false);
    c.each(v['identifiers'], at(p, 'identifiers'), false, (x, xp) => c.identifier(x, xp));
    c.each(v['telecoms'], at(p, 'telecoms'), false, (x, xp) => c.telecom(x, xp));
    c.each(v['qualifications'], at(p, 'qualifications'), false, (x, xp) => {
      if (!c.object(x, xp, true)) return;
      c.coding(x['code'], at(xp, 'code'), true);
      c.text(x['display'], at(xp, 'display'), false);
    });
  });
  c.unique(pracs, 'id', at(path, 'practitioners'), 'practitioner');
  const locs = value['locations'];
  c.each(locs, at(path, 'locations'), false, (v, p) => {
    if (isCheckedFrozen(v) || !c.object(v, p, true)) return;
    c.id(v['id'], at(p, 'id'));
    c.text(v['name'], at(p, 'name'), true);
    c.enumValue(v['status'], LOCATION_STATUSES, at(p, 'status'), false);
    c.text(v['description'], at(p, 'description'), false);
    if (v['address'] !== undefined) c.address(v['address'], at(p, 'address'));
    c.each(v['telecoms'], at(p, 'telecoms'), false, (x, xp) => c.telecom(x, xp));
    c.id(v['organizationId'], at(p, 'organizationId'), false);
  });
  c.unique(locs, 'id', at(path, 'locations'), 'location');
}

function ids(list: unknown): Set<string> {
  const out = new Set<string>();
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (item !== null && typeof item === 'object' && typeof (item as Obj)['id'] === 'string') out.add((item as Obj)['id'] as string);
  }
  return out;
}

/** Reference checks that need the whole document: every id a record points at must exist. */
function checkReferences(c: Checker, doc: Obj): void {
  const dir = (doc['directory'] !== null && typeof doc['directory'] === 'object' ? doc['directory'] : {}) as Obj;
  const orgIds = ids(dir['organizations']);
  const pracIds = ids(dir['practitioners']);
  const locIds = ids(dir['locations']);
  const ref = (value: unknown, set: Set<string>, path: Path, what: string): void => {
    if (typeof value === 'string' && !set.has(value)) c.add(path, 'reference', `does not match any ${what}`);
  };
  const each = (list: unknown, fn: (item: Obj, i: number) => void): void => {
    if (!Array.isArray(list)) return;
    list.forEach((item, i) => {
      if (item !== null && typeof item === 'object' && !Array.isArray(item)) fn(item as Obj, i);
    });
  };
  each(dir['organizations'], (o, i) => ref(o['partOfId'], orgIds, at(at(at(at(undefined, 'directory'), 'organizations'), i), 'partOfId'), 'organization of the directory'));
  each(dir['locations'], (l, i) => ref(l['organizationId'], orgIds, at(at(at(at(undefined, 'directory'), 'locations'), i), 'organizationId'), 'organization of the directory'));
  each(doc['patients'], (chart, pi) => {
    const base = at(at(undefined, 'patients'), pi);
    const encIds = ids(chart['encounters']);
    // A payer and a directory organization both become FHIR Organizations named by their chart ids: one id for
    // two organizations would make the Organization's id depend on which of them an export includes.
    const patient = chart['patient'];
    if (patient !== null && typeof patient === 'object') {
      each((patient as Obj)['coverages'], (cov, i) => {
        const payer = cov['payer'];
        const id = payer !== null && typeof payer === 'object' ? (payer as Obj)['id'] : undefined;
        if (typeof id === 'string' && orgIds.has(id)) {
          c.add(at(at(at(at(at(base, 'patient'), 'coverages'), i), 'payer'), 'id'), 'duplicate', "must differ from the directory's organization ids (both name a FHIR Organization)");
        }
      });
    }
    each(chart['encounters'], (e, ei) => {
      const ep = at(at(base, 'encounters'), ei);
      ref(e['locationId'], locIds, at(ep, 'locationId'), 'location of the directory');
      each(e['participants'], (p, i) => ref(p['practitionerId'], pracIds, at(at(at(ep, 'participants'), i), 'practitionerId'), 'practitioner of the directory'));
      each(e['procedures'], (p, i) => ref(p['performerId'], pracIds, at(at(at(ep, 'procedures'), i), 'performerId'), 'practitioner of the directory'));
    });
    for (const key of ['notes', 'assessments']) {
      each(chart[key], (n, i) => {
        ref(n['authorId'], pracIds, at(at(at(base, key), i), 'authorId'), 'practitioner of the directory');
        ref(n['encounterId'], encIds, at(at(at(base, key), i), 'encounterId'), "encounter of the same patient's chart");
      });
    }
  });
}

/**
 * Check one patient's chart and list every problem.
 * @param value - the chart to check (typically parsed JSON)
 * @returns every problem with its path into `value`; empty when the chart is valid
 * @example checkPatientChart({ patient: { id: 'p1', identifiers: [], names: [] } })[0]?.path // ['patient', 'identifiers']
 */
export function checkPatientChart(value: unknown): ChartIssue[] {
  const c = new Checker();
  checkChart(c, value, undefined);
  return c.issues;
}

/**
 * Check one patient's chart and return it typed, or throw.
 * @param value - the chart to check
 * @returns the same object, typed as {@link PatientChart}
 * @throws {ChartValidationError} listing every problem by path (never by value)
 * @example const chart = validatePatientChart(JSON.parse(text));
 */
export function validatePatientChart(value: unknown): PatientChart {
  const issues = checkPatientChart(value);
  if (issues.length > 0) throw new ChartValidationError(issues);
  return value as PatientChart;
}

/**
 * Check a directory (organizations, practitioners, locations) and list every problem.
 * @param value - the directory to check
 * @returns every problem with its path into `value`
 */
export function checkDirectory(value: unknown): ChartIssue[] {
  const c = new Checker();
  // A directory given on its own is required; only inside a chart document is it optional.
  if (value === undefined) c.add(undefined, 'required', 'is required');
  checkDirectoryInto(c, value, undefined);
  return c.issues;
}

/**
 * Check a directory and return it typed, or throw.
 * @param value - the directory to check
 * @returns the same object, typed as {@link Directory}
 * @throws {ChartValidationError} listing every problem by path
 */
export function validateDirectory(value: unknown): Directory {
  const issues = checkDirectory(value);
  if (issues.length > 0) throw new ChartValidationError(issues);
  return value as Directory;
}

/**
 * Check a directory given as a builder's `directory` option and return it typed, or throw. Like
 * {@link validateDirectory}, but every issue's path starts with `directory` (`directory.practitioners[0].names`),
 * so an error tells the option apart from the chart.
 * @param value - the option's value
 * @returns the same object, typed as {@link Directory}
 * @throws {ChartValidationError} listing every problem by path
 */
export function validateDirectoryOption(value: unknown): Directory {
  const issues = checkDirectory(value);
  if (issues.length > 0) throw new ChartValidationError(issues.map((i) => ({ ...i, path: ['directory', ...i.path] })));
  return value as Directory;
}

/**
 * Check a whole chart document (the JSON file format of the in-memory data source): every patient's
 * chart, the directory, unique patient ids, and that every reference resolves.
 * @param value - the document to check (typically parsed JSON)
 * @returns every problem with its path into `value`, e.g. `patients[2].encounters[0].locationId`
 * @example checkChartDocument({ patients: [] }) // []
 */
export function checkChartDocument(value: unknown): ChartIssue[] {
  if (isCheckedFrozen(value)) return [];
  const c = new Checker();
  if (!c.object(value, undefined, true)) return c.issues;
  c.each(value['patients'], at(undefined, 'patients'), true, (v, p) => checkChart(c, v, p));
  if (Array.isArray(value['patients'])) {
    const seen = new Set<string>();
    value['patients'].forEach((chart, i) => {
      const patient = chart !== null && typeof chart === 'object' ? (chart as Obj)['patient'] : undefined;
      const id = patient !== null && typeof patient === 'object' ? (patient as Obj)['id'] : undefined;
      if (typeof id !== 'string') return;
      if (seen.has(id)) c.add(at(at(at(at(undefined, 'patients'), i), 'patient'), 'id'), 'duplicate', 'duplicates the id of an earlier patient');
      seen.add(id);
    });
  }
  checkDirectoryInto(c, value['directory'], at(undefined, 'directory'));
  checkReferences(c, value);
  return c.issues;
}

/**
 * Check a whole chart document and return it typed, or throw.
 * @param value - the document to check
 * @returns the same object, typed as {@link ChartDocument}
 * @throws {ChartValidationError} listing every problem by path (never by value)
 * @example const doc = validateChartDocument(JSON.parse(await readFile('chart.json', 'utf8')));
 */
export function validateChartDocument(value: unknown): ChartDocument {
  const issues = checkChartDocument(value);
  if (issues.length > 0) throw new ChartValidationError(issues);
  return value as ChartDocument;
}
