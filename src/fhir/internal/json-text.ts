/**
 * The pieces of the NDJSON writer's direct JSON (./direct-json.ts): the resource-as-text type, and the JSON text of
 * strings, references, codings, periods and resource openings, each exactly what `JSON.stringify` gives for the
 * value the mappers build.
 * @module
 */
import type * as fhir from 'fhir/r4.js';
import { CODE_SYSTEMS, type Coding, type Period } from '../../model/common.js';
import { hasText } from '../../internal/text.js';
import { keepShape } from '../../internal/kept-shapes.js';

/** A resource already written as JSON: what the writer's filters read of it, and its text. */
export class ResourceJson {
  constructor(
    readonly resourceType:
      | 'Coverage'
      | 'Organization'
      | 'Encounter'
      | 'Condition'
      | 'Procedure'
      | 'Composition'
      | 'DocumentReference'
      | 'QuestionnaireResponse',
    readonly id: string,
    /** The record's `lastUpdated` (the resource's `meta.lastUpdated`), or undefined. */
    readonly lastUpdated: string | undefined,
    /** `JSON.stringify` of the resource, without a line end. */
    readonly json: string,
  ) {}
}

// A resource's JSON of each kind of `lastUpdated` (absent, given), so that the hidden class of these short-lived
// objects outlives every export (src/internal/kept-shapes.ts).
keepShape(new ResourceJson('Condition', 'kept', undefined, '{}'));
keepShape(new ResourceJson('Condition', 'kept', '2026-01-01T00:00:00Z', '{}'));

/** Characters `JSON.stringify` escapes in a string, and surrogates (a lone one is escaped too). */
// eslint-disable-next-line no-control-regex -- the control characters JSON escapes
const JSON_ESCAPED_RE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(text)`: the text quoted, and only when it holds a character JSON escapes, escaped natively. */
export function str(text: string): string {
  return JSON_ESCAPED_RE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * `JSON.stringify(value)` of a value JSON never escapes, by the chart check or by construction: a FHIR id
 * (`[A-Za-z0-9\-.]`), a literal reference (`Type/` and a FHIR id), a checked date or date-time (digits and
 * `-:.TZ+`), a code of one of the model's fixed code lists.
 */
export function safe(value: string): string {
  return `"${value}"`;
}

/** `JSON.stringify(reference)`: the one-key literal reference every context gives for an entry, written directly. */
export function ref(reference: fhir.Reference): string {
  const literal = reference.reference;
  const plain =
    literal !== undefined &&
    reference.type === undefined &&
    reference.identifier === undefined &&
    reference.display === undefined &&
    reference.id === undefined &&
    reference.extension === undefined;
  return plain ? `{"reference":${safe(literal)}}` : JSON.stringify(reference);
}

/** The start of a chart coding's JSON members, by code system key: `"system":"<uri>","code":`. */
const SYSTEM_MEMBER = new Map(Object.entries(CODE_SYSTEMS).map(([key, system]) => [key, `"system":${JSON.stringify(system.uri)},"code":`]));

/** The members of `JSON.stringify(toCoding(coding))`, without the braces. */
export function codingMembers(coding: Coding): string {
  const display = coding.display !== undefined && hasText(coding.display) ? `,"display":${str(coding.display)}` : '';
  return `${SYSTEM_MEMBER.get(coding.system) as string}${str(coding.code)}${display}`;
}

/** `JSON.stringify(toConcept(coding))`. */
export function concept(coding: Coding): string {
  return `{"coding":[{${codingMembers(coding)}}]}`;
}

/** `JSON.stringify(n)` of a number. */
export function num(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/** The JSON of fixed concepts by system and code: a few dozen table entries, each written once. */
const FIXED = new Map<string, Map<string, string>>();

/** `JSON.stringify(fixedConcept(system, code, display))` of a fixed table entry (the same code, the same display). */
export function fixed(system: string, code: string, display: string): string {
  let codes = FIXED.get(system);
  if (codes === undefined) {
    codes = new Map();
    FIXED.set(system, codes);
  }
  let json = codes.get(code);
  if (json === undefined) {
    json = `{"coding":[{"system":${str(system)},"code":${str(code)},"display":${str(display)}}]}`;
    codes.set(code, json);
  }
  return json;
}

/** `JSON.stringify(toPeriod(period))`, or undefined when toPeriod gives none. */
export function period(value: Period | undefined): string | undefined {
  if (value === undefined || (value.start === undefined && value.end === undefined)) return undefined;
  const start = value.start !== undefined ? `"start":${safe(value.start)}` : '';
  const end = value.end !== undefined ? `${start !== '' ? ',' : ''}"end":${safe(value.end)}` : '';
  return `{${start}${end}}`;
}

/** The opening of a resource: type, id and (when the record has `lastUpdated`) `meta`, as `withLastUpdated` orders them. */
export function head(resourceType: string, id: string, lastUpdated: string | undefined): string {
  const meta = lastUpdated !== undefined ? `,"meta":{"lastUpdated":${safe(lastUpdated)}}` : '';
  return `{"resourceType":"${resourceType}","id":${safe(id)}${meta}`;
}
