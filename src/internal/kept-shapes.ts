/**
 * A speed-up for V8 (Node, Chrome, Deno; harmless elsewhere): one instance of each class that the builders, the NDJSON
 * writer and the chart check make many of and drop, kept alive for the life of the module.
 *
 * V8 holds the hidden class that an object reaches by adding its properties one by one (a class instance's fields,
 * an `Object.assign`) only as long as some object has it. When every instance is garbage at a full collection, the
 * class is freed, and optimized code that expected it is thrown away ("weak objects" in `--trace-deopt`): an export
 * then runs unoptimized until the engine optimizes it again: a population export that starts after a full collection
 * took about a quarter longer. One live instance keeps the hidden class, and the code, valid. Object literals need none:
 * their hidden class is held by the literal itself. Plain equivalent: `keepShape(x)` is `x`.
 *
 * A closure made per chart or per call is the same case for its function: code that inlined it is thrown away once
 * it is collected. Hence classes (one function per method, for every instance) where a chart's context, id plan or
 * Bundle plan used to be an object of closures.
 * @module
 */

/** The instances kept; never read. */
const kept: object[] = [];

/**
 * Keep `instance` alive, so that its hidden class outlives the other instances (see the module comment).
 * @param instance - a finished instance of the class (every field set, with values of the usual kinds)
 * @returns `instance`
 */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
