/**
 * The kick-off request of a Bulk Data export (IG STU2, v2.0.0): its headers (`Accept`, `Prefer`) and its
 * parameters, from the query string (GET) or a FHIR `Parameters` body (POST), checked into what a job needs.
 * @see https://hl7.org/fhir/uv/bulkdata/STU2/export.html#bulk-data-kick-off-request
 */
import { FHIR_NDJSON_RESOURCE_TYPES } from '../../index.js';
import type { ParameterProblem } from '../internal/query.js';

/** The `_outputFormat` values the IG names for NDJSON, all served as `application/fhir+ndjson`. */
export const OUTPUT_FORMATS: readonly string[] = Object.freeze(['application/fhir+ndjson', 'application/ndjson', 'ndjson']);

/** Parameters of the IG (and of its next version) that this server does not support: 400, or ignored when lenient. */
const UNSUPPORTED = new Set(['_elements', '_typeFilter', 'patient', 'includeAssociatedData', '_until', 'organizeOutputBy', 'allowPartialManifests']);

/** A FHIR R4 `instant` (https://hl7.org/fhir/R4/datatypes.html#instant). */
const INSTANT_RE = /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00))$/;

/** The longest POST body read, in bytes (a `Parameters` resource of a kick-off is a few hundred). */
export const MAX_KICK_OFF_BODY_BYTES = 65_536;

/** The checked parameters of a kick-off. */
export interface KickOffParameters {
  readonly types: readonly string[] | null;
  readonly since: string | null;
}

/** What the `Prefer` header asks for. */
export interface Preferences {
  readonly respondAsync: boolean;
  readonly lenient: boolean;
}

/**
 * Read the `Prefer` header (RFC 7240): its preferences are comma-separated, each a token with an optional value.
 * @param value - the header, or undefined
 */
export function readPrefer(value: string | undefined): Preferences {
  let respondAsync = false;
  let lenient = false;
  for (const piece of (value ?? '').split(',')) {
    const token = (piece.split(';')[0] ?? '').trim().toLowerCase().replace(/\s*=\s*/, '=');
    if (token === 'respond-async') respondAsync = true;
    else if (token === 'handling=lenient' || token === 'handling="lenient"') lenient = true;
  }
  return { respondAsync, lenient };
}

const problem = (name: string, reason: ParameterProblem['reason'], message: string): ParameterProblem => ({ name, reason, message });

/**
 * Check the kick-off parameters: name → values (query string order, or the `Parameters` body's).
 * @param values - every parameter's values
 * @param lenient - `Prefer: handling=lenient`: unsupported parameters and resource types are ignored
 * @returns the parameters, or the problems (each names its parameter, never its value)
 */
export function checkKickOff(values: ReadonlyMap<string, readonly string[]>, lenient: boolean): KickOffParameters | ParameterProblem[] {
  const problems: ParameterProblem[] = [];
  let types: string[] | null = null;
  let since: string | null = null;
  for (const [name, list] of values) {
    if (name === '_outputFormat') {
      if (list.length > 1) problems.push(problem(name, 'duplicated', 'The _outputFormat parameter must be given once.'));
      // An unencoded `+` arrives as a space in a query string.
      const format = (list[0] ?? '').replace(' ', '+');
      if (!OUTPUT_FORMATS.includes(format)) problems.push(problem(name, 'unknown-value', `The _outputFormat parameter must be one of ${OUTPUT_FORMATS.join(', ')}.`));
    } else if (name === '_since') {
      if (list.length > 1) problems.push(problem(name, 'duplicated', 'The _since parameter must be given once.'));
      // `2026-01-01T00:00:00+02:00` with an unencoded `+` arrives with a space before the offset.
      const value = (list[0] ?? '').replace(/ (\d\d:\d\d)$/, '+$1');
      if (!INSTANT_RE.test(value)) {
        problems.push(problem(name, 'malformed', 'The _since parameter must be a FHIR instant: YYYY-MM-DDThh:mm:ss[.ffff](Z|±hh:mm).'));
      } else since = value;
    } else if (name === '_type') {
      types ??= [];
      for (const type of list.flatMap((v) => v.split(','))) {
        const t = type.trim();
        if ((FHIR_NDJSON_RESOURCE_TYPES as readonly string[]).includes(t)) {
          if (!types.includes(t)) types.push(t);
        } else if (!lenient) {
          problems.push(problem(name, 'unknown-value', `The _type parameter may name only ${FHIR_NDJSON_RESOURCE_TYPES.join(', ')}.`));
          break;
        }
      }
    } else if (!lenient) {
      const known = UNSUPPORTED.has(name);
      problems.push(problem(name, 'unknown-value', known ? `The ${name} parameter is not supported by this server.` : 'A parameter is not supported by this server.'));
    }
  }
  return problems.length > 0 ? problems : { types, since };
}

/** The value of a `Parameters.parameter` as text, from the value types a kick-off uses. */
function parameterValue(p: Record<string, unknown>): string | undefined {
  for (const key of ['valueString', 'valueCode', 'valueInstant', 'valueDateTime', 'valueUri', 'valueUrl', 'valueCanonical']) {
    const value = p[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * Read a kick-off's FHIR `Parameters` body into name → values; a parameter with another value type (a
 * `patient` reference) keeps its name, with an empty value, so that it is refused as unsupported.
 * @param text - the body
 * @returns the values, or a problem when the body is not a `Parameters` resource
 */
export function readParametersBody(text: string): Map<string, string[]> | ParameterProblem {
  const refused = problem('body', 'malformed', 'The body must be a FHIR Parameters resource in JSON.');
  if (text.trim() === '') return new Map();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refused;
  }
  if (typeof body !== 'object' || body === null || (body as { resourceType?: unknown }).resourceType !== 'Parameters') return refused;
  const list: unknown = (body as { parameter?: unknown }).parameter ?? [];
  if (!Array.isArray(list)) return refused;
  const values = new Map<string, string[]>();
  for (const p of list as unknown[]) {
    if (typeof p !== 'object' || p === null || typeof (p as { name?: unknown }).name !== 'string') return refused;
    const name = (p as { name: string }).name;
    const value = parameterValue(p as Record<string, unknown>) ?? '';
    const got = values.get(name);
    if (got === undefined) values.set(name, [value]);
    else got.push(value);
  }
  return values;
}
