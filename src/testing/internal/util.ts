/**
 * Small helpers for building model objects under `exactOptionalPropertyTypes`: optional values are
 * generated as `undefined` and then their keys are removed, so no object ever holds an `undefined` key.
 */
import fc from 'fast-check';

/** Keys whose type includes `undefined` become optional (without `undefined`); the others stay required. */
export type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * Remove the keys whose value is `undefined`.
 * @param obj - an object with possibly undefined values
 * @returns a shallow copy without those keys
 */
export function compact<T extends object>(obj: T): Compact<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as Compact<T>;
}

/**
 * An optional value: `undefined` about one time in `freq` (default 3), or the value.
 * @param arb - the value's arbitrary; `undefined` means always absent
 */
export function opt<T>(arb: fc.Arbitrary<T> | undefined, freq = 3): fc.Arbitrary<T | undefined> {
  if (arb === undefined) return fc.constant(undefined);
  return fc.option(arb, { nil: undefined, freq });
}

/** A value that is usually absent: present about one time in `1 + absentWeight`. */
export function rare<T>(arb: fc.Arbitrary<T>, absentWeight = 5): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: absentWeight }, { arbitrary: arb, weight: 1 });
}

/** An optional array (absent, empty or with items). */
export function optArray<T>(arb: fc.Arbitrary<T>, maxLength: number, minLength = 0): fc.Arbitrary<T[] | undefined> {
  return opt(fc.array(arb, { minLength, maxLength }));
}

/**
 * An id not in `taken`: `candidate` itself, or it with a suffix.
 * @param candidate - the preferred id
 * @param taken - ids already used
 */
export function freshId(candidate: string, taken: ReadonlySet<string>): string {
  // Cut on code points so that no surrogate pair is split, and leave room for the suffix.
  const base = Array.from(candidate).slice(0, 60).join('').trim() || 'id';
  let id = candidate.length > 120 ? base : candidate;
  for (let i = 2; taken.has(id); i++) id = `${base}~${i}`;
  return id;
}

const MEMO = new Map<string, unknown>();

/**
 * Build an arbitrary once per key. Arbitraries are immutable, and building some (`stringMatching`, deep
 * records) costs more than drawing from them, which matters inside `chain`.
 * @param key - what the arbitrary depends on
 * @param build - builds the arbitrary
 */
export function memo<T>(key: string, build: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  let arb = MEMO.get(key) as fc.Arbitrary<T> | undefined;
  if (arb === undefined) {
    arb = build();
    MEMO.set(key, arb);
  }
  return arb;
}
