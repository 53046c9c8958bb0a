/**
 * Synchronous answers of the adapter's own in-memory key store and rate limiter, so the access step can use
 * them without a wait: each registers, beside its promise-returning method, the function that gives the same
 * answer at once. A host that swaps the method on the object (a spy, a wrapper) is called as usual: the
 * synchronous answer is used only while the object still holds the registered method. A WeakMap: it keeps
 * no store alive.
 */
const registered = new WeakMap<object, { readonly name: string; readonly method: unknown; readonly now: unknown }>();

/**
 * Register `now` as the synchronous form of `owner[name]`: the same answer (or the same throw, where the
 * method rejects), without a promise.
 * @param owner - the key store or rate limiter
 * @param name - the method's name (`lookup`, `consume`)
 * @param now - the synchronous function
 */
export function registerAnswerNow(owner: object, name: string, now: (...args: never[]) => unknown): void {
  registered.set(owner, { name, method: (owner as Record<string, unknown>)[name], now });
}

/**
 * The synchronous form of `owner[name]`, while the object still holds the method registered with it.
 * @returns the function, or `undefined` (then call the method and wait)
 */
export function answerNow<TFn>(owner: object, name: string): TFn | undefined {
  const r = registered.get(owner);
  return r !== undefined && r.name === name && (owner as Record<string, unknown>)[name] === r.method ? (r.now as TFn) : undefined;
}
