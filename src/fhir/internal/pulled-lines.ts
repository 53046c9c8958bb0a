/**
 * An `AsyncGenerator` driven by a synchronous pull function: a line a pull gives is handed over at once (one
 * resolved promise), and only a pull that must wait (a turn given back, a chart read from an async source)
 * costs awaits. An `async function*` costs several promise turns for every value it yields; for a writer
 * that gives thousands of small lines, those turns cost as much as mapping them.
 * @module
 */

import { keepShape } from '../../internal/kept-shapes.js';

/** %AsyncIteratorPrototype%: the prototype of every async generator's prototype. */
const ASYNC_ITERATOR_PROTOTYPE: object = Object.getPrototypeOf(Object.getPrototypeOf((async function* () {}).prototype as object) as object) as object;

/** What a pull gives when there is nothing more. */
export const PULL_END: unique symbol = Symbol('end');

/**
 * One step of the work: the next value; a promise to wait for before pulling again (the pull keeps what it
 * needs from it); or {@link PULL_END}. A pull that throws ends the iteration with that error.
 */
export type Pull<T> = () => T | Promise<void> | typeof PULL_END;

/** The calls of one generator, run one after another: a call made while another waits runs after it. */
function createCallQueue(): {
  queue: <R>(op: () => Promise<R>) => Promise<R>;
  track: <R>(promise: Promise<R>) => Promise<R>;
  idle: () => boolean;
} {
  /** The last call still waiting, or undefined: later calls run after it. */
  let busy: Promise<unknown> | undefined;
  const hold = (promise: Promise<unknown>): void => {
    busy = promise;
    const clear = (): void => {
      if (busy === promise) busy = undefined;
    };
    promise.then(clear, clear);
  };
  return {
    /** Run `op` now when nothing waits, else after the last waiting call. */
    queue: (op) => {
      if (busy === undefined) return op();
      const promise = busy.then(op, op);
      hold(promise);
      return promise;
    },
    /** Mark a call that must wait as the last one (a call run by `queue` is already held). */
    track: (promise) => {
      if (busy === undefined) hold(promise);
      return promise;
    },
    idle: () => busy === undefined,
  };
}

/**
 * An `AsyncGenerator` over `pull`, with the semantics of an `async function*` whose body is a loop of pulls:
 * nothing runs before the first `next()`; calls made while one is waiting run in order after it; an error of a
 * pull ends the iteration (`close` is called first, its own error dropped) and later calls answer `done`;
 * `return(value)` and `throw(error)` end it too, after `close` (for `return`, an error of `close` rejects it).
 * @param pull - the work, a step at a time
 * @param close - releases what the work holds (the source iterator a `for await` would close); undefined when nothing
 * @returns the generator
 * @example const lines = pulledLines(() => (queue.length > 0 ? (queue.shift() as string) : PULL_END), () => undefined);
 */
export function pulledLines<T>(pull: Pull<T>, close: () => Promise<unknown> | undefined): AsyncGenerator<T, void, undefined> {
  let done = false;
  const { queue, track, idle } = createCallQueue();

  const ended = <R>(value: R): IteratorReturnResult<R> => ({ done: true, value });
  /** End after an error of the work: close, drop close's own error, reject with the work's. */
  const fail = async (error: unknown): Promise<never> => {
    done = true;
    try {
      await close();
    } catch {
      // The work's error is the one to report, as a `for await` closing its source after an error does.
    }
    throw error;
  };
  /** The rest of a `next()` whose pull must wait. */
  const slow = async (wait: Promise<void>): Promise<IteratorResult<T, void>> => {
    for (;;) {
      try {
        await wait;
        const got = pull();
        if (got === PULL_END) {
          done = true;
          return ended(undefined);
        }
        if (!(got instanceof Promise)) return { done: false, value: got };
        wait = got;
      } catch (error) {
        return fail(error);
      }
    }
  };
  const nextNow = (): Promise<IteratorResult<T, void>> => {
    if (done) return Promise.resolve(ended(undefined));
    let got: T | Promise<void> | typeof PULL_END;
    try {
      got = pull();
    } catch (error) {
      return track(fail(error));
    }
    if (got === PULL_END) {
      done = true;
      return Promise.resolve(ended(undefined));
    }
    if (got instanceof Promise) return track(slow(got));
    return Promise.resolve({ done: false, value: got });
  };
  const finish = async (error: { value: unknown } | undefined, value?: void): Promise<IteratorResult<T, void>> => {
    if (!done) {
      done = true;
      if (error === undefined) await close();
      else await fail(error.value);
    }
    if (error !== undefined) throw error.value;
    return ended(value);
  };

  // On the runtime's %AsyncIteratorPrototype%, as an async generator is: `[Symbol.asyncIterator]` and, where the
  // runtime has it, `[Symbol.asyncDispose]` (`await using`) come from there.
  const generator = Object.assign(Object.create(ASYNC_ITERATOR_PROTOTYPE) as object, {
    next: () => (idle() ? nextNow() : queue(nextNow)),
    return: (value?: void | PromiseLike<void>) => queue(() => track(finish(undefined, value as void))),
    throw: (error: unknown) => queue(() => track(finish({ value: error }))),
  }) as AsyncGenerator<T, void, undefined>;
  return generator;
}

// One line stream kept alive, so that the hidden class its methods give it outlives full collections (the object
// gets them by `Object.assign`; src/internal/kept-shapes.ts).
keepShape(pulledLines(() => PULL_END, () => undefined));
