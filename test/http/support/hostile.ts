/**
 * Hostile values a host's data source, key store or rate limiter might hand the handler: Proxies that throw
 * on every trap, revoked Proxies, getters that throw or change their answer after the first read.
 */
import fc from 'fast-check';

/** A Proxy whose every trap throws (property reads, `instanceof`, `in`, key listing…). */
export function throwingProxy(): object {
  const fail = (): never => {
    throw new Error('hostile proxy trap');
  };
  return new Proxy(
    {},
    { get: fail, has: fail, ownKeys: fail, getOwnPropertyDescriptor: fail, getPrototypeOf: fail, defineProperty: fail, set: fail, apply: fail },
  );
}

/** A revoked Proxy: any operation on it throws a TypeError. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** `base` with `key` as a getter that answers `base[key]` on its first read and `later` on every read after. */
export function flipping(base: Record<string, unknown>, key: string, later: unknown): Record<string, unknown> {
  const out = { ...base };
  let reads = 0;
  Object.defineProperty(out, key, { enumerable: true, get: () => (reads++ === 0 ? base[key] : later) });
  return out;
}

/** A getter that throws. */
export function throwingGetter(object: Record<string, unknown>, key: string): Record<string, unknown> {
  Object.defineProperty(object, key, {
    enumerable: true,
    get: () => {
      throw new Error(`hostile getter ${key}`);
    },
  });
  return object;
}

/**
 * A hostile value as plain data, so fast-check can generate, shrink and print it; {@link materialize} builds
 * the value itself (Proxies, throwing getters) afresh for every use.
 */
export type Recipe =
  | { readonly leaf: unknown }
  | { readonly special: 'throwing-proxy' | 'revoked-proxy' | 'throwing-conversions' | 'function' }
  | { readonly shaped: readonly (readonly [key: string, how: 'keep' | 'leaf' | 'throw' | 'flip' | 'drop', leaf: Recipe])[]; readonly valid: Readonly<Record<string, unknown>> }
  | { readonly list: readonly Recipe[] };

/** Leaf values that break headers, arithmetic or type assumptions. */
export const arbHostileLeaf: fc.Arbitrary<Recipe> = fc.oneof(
  fc
    .constantFrom<unknown>(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -1,
      1.5,
      -0,
      2 ** 60,
      'a\nb',
      'x\r\nSet-Cookie: a=1',
      '',
      '12',
      'nofhir:exports',
      null,
      undefined,
      true,
      false,
      0n,
      Symbol('hostile'),
    )
    .map((leaf) => ({ leaf })),
  fc.constantFrom('throwing-proxy', 'revoked-proxy', 'throwing-conversions', 'function').map((special) => ({ special }) as Recipe),
  fc.anything({ maxDepth: 2, maxKeys: 3 }).map((leaf) => ({ leaf })),
);

/**
 * Objects shaped like `valid`, each field kept, replaced by a hostile leaf, made a throwing getter, made a
 * getter that changes after its first read, or dropped.
 */
export function arbShaped(valid: Record<string, unknown>): fc.Arbitrary<Recipe> {
  const keys = Object.keys(valid);
  return fc
    .tuple(...keys.map(() => fc.tuple(fc.constantFrom('keep', 'keep', 'leaf', 'throw', 'flip', 'drop' as const), arbHostileLeaf)))
    .map((choices) => ({ valid, shaped: choices.map(([how, leaf], i) => [keys[i] as string, how, leaf] as const) }));
}

/** Lists of hostile values. */
export const arbList = (item: fc.Arbitrary<Recipe>): fc.Arbitrary<Recipe> => fc.array(item, { maxLength: 3 }).map((list) => ({ list }));

/** Build the hostile value a recipe describes (new Proxies, new getters with fresh read counts). */
export function materialize(recipe: Recipe): unknown {
  if ('leaf' in recipe) return recipe.leaf;
  if ('list' in recipe) return recipe.list.map(materialize);
  if ('special' in recipe) {
    switch (recipe.special) {
      case 'throwing-proxy':
        return throwingProxy();
      case 'revoked-proxy':
        return revokedProxy();
      case 'function':
        return () => 'function';
      default:
        return {
          toString: () => {
            throw new Error('hostile toString');
          },
          valueOf: () => {
            throw new Error('hostile valueOf');
          },
        };
    }
  }
  let out: Record<string, unknown> = {};
  const flips: [string, unknown][] = [];
  const throws: string[] = [];
  for (const [key, how, leaf] of recipe.shaped) {
    if (how === 'keep') out[key] = recipe.valid[key];
    else if (how === 'leaf') out[key] = materialize(leaf);
    else if (how === 'throw') throws.push(key);
    else if (how === 'flip') {
      out[key] = recipe.valid[key];
      flips.push([key, materialize(leaf)]);
    }
  }
  for (const [key, later] of flips) out = flipping(out, key, later);
  for (const key of throws) throwingGetter(out, key);
  return out;
}

/** How a host method answers: resolves, rejects, throws synchronously, or returns the value bare. */
export type HostAnswer = 'resolve' | 'reject' | 'throw' | 'return';
export const arbHostAnswer: fc.Arbitrary<HostAnswer> = fc.constantFrom('resolve', 'resolve', 'reject', 'throw', 'return');

/** A host method answering the value of `recipe` (built afresh per call) the given way. */
export function answer(how: HostAnswer, recipe: Recipe): () => unknown {
  return () => {
    const value = materialize(recipe);
    if (how === 'resolve') return Promise.resolve(value);
    if (how === 'reject') return Promise.reject(value);
    if (how === 'throw') throw value;
    return value;
  };
}
