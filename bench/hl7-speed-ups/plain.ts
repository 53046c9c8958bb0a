/**
 * The plain equivalents of the speed-ups in src/hl7/internal/speed-ups.ts: the same results, without the
 * cache, table or fast path. `bench/hl7-speed-ups/ab.mjs` builds the library once per speed-up with that
 * speed-up's export replaced by the one here, and times it against the library as it is.
 */
import type { IdLookup } from '../../src/hl7/internal/directory-index.js';
import type { CharsetEvidence } from '../../src/hl7/internal/charset-evidence.js';

export function escapeLongFast(_text: string, _lines: boolean, _evidence: CharsetEvidence | undefined): string | undefined {
  return undefined;
}

export const NOTE_NON_ASCII = false;

export function emptyFields(count: number): string[] {
  return new Array<string>(count).fill('');
}

export function separatorRun(sep: string, count: number): string {
  return sep.repeat(count);
}

export function cachedXcn(_built: Map<string, string>, _practitionerId: string, build: () => string): string {
  return build();
}

export function lookupById<T extends { readonly id: string }>(list: readonly T[]): IdLookup<T> {
  let map: Map<string, T> | undefined;
  return {
    get(id) {
      map ??= new Map(list.map((x) => [x.id, x]));
      return map.get(id);
    },
  };
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
