/**
 * Query-string reading for the handler: strict percent-decoding (a malformed escape is a 400, not a silently
 * kept `%`), duplicate detection, and the parameter rules: ids required and checked, limits defaulted and
 * clamped, every problem reported at once.
 */
import type { ParameterDefinition, RouteDefinition } from '../routes/route-types.js';

/** The values of each parameter name, in order of appearance. */
export type QueryValues = Map<string, string[]>;

/**
 * Split and decode a query string (`url.search`, with or without its leading `?`). `+` is a space, as in
 * HTML forms. Empty pieces (`a=1&&b=2`) are skipped.
 * @returns the values, or `undefined` when a percent-escape is malformed or decodes to invalid UTF-8
 */
export function parseQuery(search: string): QueryValues | undefined {
  const values: QueryValues = new Map();
  const end = search.length;
  // One pass over the pieces between '&', without splitting the string into an array first.
  let at = search.charCodeAt(0) === 0x3f /* ? */ ? 1 : 0;
  while (at < end) {
    let amp = search.indexOf('&', at);
    if (amp === -1) amp = end;
    if (amp > at) {
      const eq = search.indexOf('=', at);
      const hasValue = eq !== -1 && eq < amp;
      const name = decode(search.slice(at, hasValue ? eq : amp));
      const value = hasValue ? decode(search.slice(eq + 1, amp)) : '';
      if (name === undefined || value === undefined) return undefined;
      const list = values.get(name);
      if (list === undefined) values.set(name, [value]);
      else list.push(value);
    }
    at = amp + 1;
  }
  return values;
}

function decode(text: string): string | undefined {
  const plus = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return undefined;
  }
}

/** Why a parameter was refused. */
export type ParameterProblemReason = 'missing' | 'empty' | 'duplicated' | 'malformed' | 'not-an-integer' | 'negative' | 'unknown-value' | 'invalid-cursor';

/** One refused parameter: its name and why (never its value, which may be patient data). */
export interface ParameterProblem {
  readonly name: string;
  readonly reason: ParameterProblemReason;
  /** A sentence naming the parameter and the rule. */
  readonly message: string;
}

/** What a chart id may not hold, as the chart check says: any control character (tab, CR, LF, DEL and C1 included) and lone surrogates. */
// eslint-disable-next-line no-control-regex -- finds the control characters a chart id may not hold
const FORBIDDEN_ID_RE = /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ID_MAX = 128;
const INTEGER_RE = /^[0-9]+$/;
/** A page cursor's alphabet and length (base64url; routes/directory-cursor.ts). */
const CURSOR_RE = /^[A-Za-z0-9_-]{1,1024}$/;
const NEGATIVE_RE = /^-[0-9]*[1-9][0-9]*$/;
/**
 * Significant digits (leading zeros left out) above which a value exceeds every safe-integer maximum: clamped
 * without being parsed. At or below it, `Number` gives the value exactly when it is ≤ the (safe-integer)
 * maximum, and a number above the maximum when it is not, so the comparison with the maximum is exact.
 */
const MAX_SIGNIFICANT_DIGITS = 16;

/** A limit setting: the value used without the parameter, and the largest value honoured. */
export interface ResolvedLimit {
  readonly default: number;
  readonly max: number;
}

/** The parameters of a request after checking: ids as given, limits clamped, the resource type. */
export interface RouteParameters {
  readonly ids: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, number>>;
  readonly resourceType: 'Organization' | 'Practitioner' | 'Location' | undefined;
  /** A page cursor as given (checked for its alphabet and length here, for its content by the route). */
  readonly cursor?: string | undefined;
}

const RESOURCE_TYPES = ['Organization', 'Practitioner', 'Location'] as const;

function problem(name: string, reason: ParameterProblemReason): ParameterProblem {
  const messages: Record<ParameterProblemReason, string> = {
    missing: `The query parameter ${name} is required.`,
    empty: `The query parameter ${name} must not be empty.`,
    duplicated: `The query parameter ${name} must be given at most once.`,
    malformed: `The query parameter ${name} must be a chart id: 1 to ${ID_MAX} UTF-16 code units, no control characters, no leading or trailing white space.`,
    'not-an-integer': `The query parameter ${name} must be a non-negative integer written in decimal digits.`,
    negative: `The query parameter ${name} must not be negative.`,
    'unknown-value': `The query parameter ${name} must be one of ${RESOURCE_TYPES.join(', ')}.`,
    'invalid-cursor': `The query parameter ${name} must be a cursor from a next link of this listing, unchanged.`,
  };
  return { name, reason, message: messages[reason] };
}

function checkOne(def: ParameterDefinition, given: string[] | undefined, problems: ParameterProblem[]): string | undefined {
  if (given === undefined) {
    if (def.required) problems.push(problem(def.name, 'missing'));
    return undefined;
  }
  if (given.length > 1) {
    problems.push(problem(def.name, 'duplicated'));
    return undefined;
  }
  const value = given[0] as string;
  if (value === '') {
    problems.push(problem(def.name, 'empty'));
    return undefined;
  }
  return value;
}

/**
 * The value of an all-digit limit, clamped to `max`: `0000000000000000` is 0, `00000000000000000003` is 3,
 * whatever the number of leading zeros; only a value above `max` gives `max`.
 * @param digits - one or more decimal digits
 * @param max - the largest value honoured, a non-negative safe integer
 */
export function readLimit(digits: string, max: number): number {
  let first = 0;
  while (first < digits.length - 1 && digits.charCodeAt(first) === 0x30) first++;
  if (digits.length - first > MAX_SIGNIFICANT_DIGITS) return max;
  return Math.min(Number(digits.slice(first)), max);
}

/**
 * Check the query parameters of a route, reporting every problem at once.
 * @param route - the matched route
 * @param query - the decoded query
 * @param limitFor - the default and maximum of each limit parameter
 * @returns the checked parameters, or the list of problems
 */
export function checkParameters(
  route: RouteDefinition,
  query: QueryValues,
  limitFor: (parameter: string) => ResolvedLimit,
): RouteParameters | ParameterProblem[] {
  const problems: ParameterProblem[] = [];
  const ids: Record<string, string> = {};
  const limits: Record<string, number> = {};
  let resourceType: RouteParameters['resourceType'];
  let cursor: string | undefined;
  for (const def of route.parameters) {
    const value = checkOne(def, query.get(def.name), problems);
    // An optional count (`_count`): like a limit, but absent when not given (the route then reads another).
    if (def.kind === 'count' && value === undefined) continue;
    if (def.kind === 'limit' || def.kind === 'count') {
      const { default: fallback, max } = limitFor(def.name);
      if (value === undefined) {
        limits[def.name] = Math.min(fallback, max);
      } else if (INTEGER_RE.test(value)) {
        // Read by its value, leading zeros ignored; above the maximum is clamped, not refused.
        limits[def.name] = readLimit(value, max);
      } else {
        problems.push(problem(def.name, NEGATIVE_RE.test(value) ? 'negative' : 'not-an-integer'));
      }
      continue;
    }
    if (value === undefined) continue;
    if (def.kind === 'cursor') {
      if (CURSOR_RE.test(value)) cursor = value;
      else problems.push(problem(def.name, 'invalid-cursor'));
      continue;
    }
    if (def.kind === 'resourceType') {
      if ((RESOURCE_TYPES as readonly string[]).includes(value)) resourceType = value as RouteParameters['resourceType'];
      else problems.push(problem(def.name, 'unknown-value'));
      continue;
    }
    if (value.length > ID_MAX || value.trim() !== value || FORBIDDEN_ID_RE.test(value)) {
      problems.push(problem(def.name, 'malformed'));
      continue;
    }
    ids[def.name] = value;
  }
  if (problems.length > 0) return problems;
  return cursor === undefined ? { ids, limits, resourceType } : { ids, limits, resourceType, cursor };
}
