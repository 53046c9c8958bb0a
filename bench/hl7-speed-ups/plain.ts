/**
 * The plain equivalents of the speed-ups in src/hl7/internal/speed-ups.ts (and, at the end, of the chart check's
 * in src/validation/speed-ups.ts): the same results, without the
 * cache, table or fast path. (The plain equivalents of the speed-ups removed for want of a shown gain are now
 * the library's own code: one regular-expression scan for long text too, MSH-18 from a scan of the finished
 * message, `new Array(n).fill('')`, `sep.repeat(n)`, a map for every id look-up.) `bench/hl7-speed-ups/ab.mjs` builds the library once per speed-up with that
 * speed-up's export replaced by the one here, and times it against the library as it is.
 */

export function cachedXcn(_built: Map<string, string>, _practitionerId: string, build: () => string): string {
  return build();
}

export function cachedDefinition<T>(_cache: Map<string, T>, _key: string, compute: () => T | undefined): T | undefined {
  return compute();
}

export const STANDARD_DELIMITERS_FAST_PATH = false;

export function cachedDelimiterSet<T>(_delimiters: object, _isCurrent: (compiled: T) => boolean, compile: () => T): T {
  return compile();
}

export function randomByte(): number {
  const one = new Uint8Array(1);
  globalThis.crypto.getRandomValues(one);
  return one[0] as number;
}

export function cachedDateTime(_iso: string, format: () => string): string {
  return format();
}

export function cachedInstant(_iso: string, format: () => string): string {
  return format();
}

export const KEPT_PREFIX_ONLY = false;

export function keptPrefix(text: string, _max: number): string {
  return text;
}

export function separatorRun(sep: string, count: number): string {
  return sep.repeat(count);
}

// The chart check's speed-ups (src/validation/speed-ups.ts).

// eslint-disable-next-line no-control-regex -- the plain check's expressions
const MAYBE_FORBIDDEN_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- the plain check's expressions
const FORBIDDEN_TEXT_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasForbiddenText(text: string): boolean {
  return MAYBE_FORBIDDEN_RE.test(text) && FORBIDDEN_TEXT_RE.test(text);
}

export function countUpTo(_max: number): number {
  return Number.POSITIVE_INFINITY;
}

export function surelyFits(_upperBound: number, _max: number): boolean {
  return false;
}
