import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PULL_END, pulledLines } from '../../src/fhir/internal/pulled-lines.js';
import { runs } from '../support/runs.js';

/** A step of the work: a value, a wait (a turn of the event loop), or an error of the work. */
type Step = { kind: 'value'; value: number } | { kind: 'wait' } | { kind: 'fail'; message: string };
/** A call of the consumer: `together` calls are made without awaiting the one before. */
type Call = { op: 'next' | 'return' | 'throw'; together: boolean };

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The reference: an `async function*` whose body runs the steps; `closed` counts the early ends (its `finally`). */
function reference(steps: readonly Step[], log: { closed: number }): AsyncGenerator<number, void, undefined> {
  return (async function* () {
    let finished = false;
    try {
      for (const step of steps) {
        if (step.kind === 'value') yield step.value;
        else if (step.kind === 'wait') await turn();
        else throw new Error(step.message);
      }
      finished = true;
    } finally {
      if (!finished) log.closed++;
    }
  })();
}

/** The same work as pulls: a value at once, a wait as a promise, an error thrown; `close` counts the early ends. */
function pulled(steps: readonly Step[], log: { closed: number }): AsyncGenerator<number, void, undefined> {
  let at = 0;
  let started = false;
  return pulledLines(
    () => {
      started = true;
      const step = steps[at++];
      if (step === undefined) return PULL_END;
      if (step.kind === 'value') return step.value;
      if (step.kind === 'wait') return turn();
      throw new Error(step.message);
    },
    () => {
      // An `async function*` not started has no `finally` to run; one that ran to its end neither.
      if (started && at <= steps.length) log.closed++;
      return undefined;
    },
  );
}

/** Make the calls; each call's outcome, in the order the outcomes settled. */
async function drive(generator: AsyncGenerator<number, void, undefined>, calls: readonly Call[]): Promise<string[]> {
  const settled: string[] = [];
  let batch: Promise<void>[] = [];
  for (const [i, call] of calls.entries()) {
    if (!call.together) {
      await Promise.all(batch);
      batch = [];
    }
    const promise = call.op === 'next' ? generator.next() : call.op === 'return' ? generator.return(undefined) : generator.throw(new Error(`thrown ${i}`));
    batch.push(
      promise.then(
        (r) => void settled.push(`${i}: ${r.done ? 'done' : 'value'} ${String(r.value)}`),
        (e: unknown) => void settled.push(`${i}: error ${(e as Error).message}`),
      ),
    );
  }
  await Promise.all(batch);
  return settled;
}

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 99 }).map((value) => ({ kind: 'value' as const, value })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'wait' as const }) },
  { weight: 1, arbitrary: fc.constantFrom('bad record', 'mapping failed').map((message) => ({ kind: 'fail' as const, message })) },
);
const arbCall: fc.Arbitrary<Call> = fc.record({
  op: fc.oneof({ weight: 8, arbitrary: fc.constant('next' as const) }, { weight: 1, arbitrary: fc.constantFrom('return' as const, 'throw' as const) }),
  together: fc.boolean(),
});

describe('pulledLines', () => {
  it('should behave as an async generator over the same work: values, errors, return, throw, queued calls, closing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbStep, { maxLength: 12 }), fc.array(arbCall, { minLength: 1, maxLength: 16 }), async (steps, calls) => {
        const expected = { closed: 0 };
        const got = { closed: 0 };
        const want = await drive(reference(steps, expected), calls);
        expect(await drive(pulled(steps, got), calls)).toEqual(want);
        expect(got.closed).toBe(expected.closed);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should give the values of a pull at once, without waiting for a turn of the event loop', async () => {
    const generator = pulled([{ kind: 'value', value: 1 }, { kind: 'value', value: 2 }], { closed: 0 });
    let turned = false;
    setImmediate(() => (turned = true));
    expect(await generator.next()).toEqual({ done: false, value: 1 });
    expect(await generator.next()).toEqual({ done: false, value: 2 });
    expect(await generator.next()).toEqual({ done: true, value: undefined });
    expect(turned).toBe(false);
    expect(generator[Symbol.asyncIterator]()).toBe(generator);
    // On %AsyncIteratorPrototype%, as an async generator is (`[Symbol.asyncDispose]` comes from there where the runtime has it).
    const asyncGeneratorPrototype: unknown = Object.getPrototypeOf(Object.getPrototypeOf((async function* () {})()));
    expect(Object.getPrototypeOf(generator)).toBe(Object.getPrototypeOf(asyncGeneratorPrototype));
  });

  it('should reject return() with the error of close, and answer done afterwards', async () => {
    const generator = pulledLines(
      () => 1,
      () => Promise.reject(new Error('close failed')),
    );
    expect(await generator.next()).toEqual({ done: false, value: 1 });
    await expect(generator.return(undefined)).rejects.toThrow('close failed');
    expect(await generator.next()).toEqual({ done: true, value: undefined });
  });
});
