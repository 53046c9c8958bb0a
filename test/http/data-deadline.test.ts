/**
 * The request deadline's pieces: the per-request source binding (declared arguments, then the signal, for any
 * arguments a caller gives) and the client watch the Node listener hands `runWithDeadline` instead of a signal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientGoneError, bindSignal, runWithDeadline, type ClientWatch } from '../../src/http/data-deadline.js';
import { DATA_SOURCE_METHODS, type ChartDataSource } from '../../src/http/data-source.js';
import { runs } from '../support/runs.js';

/** Methods that declare two arguments (patient id and record id or limit); the others declare one. */
const TWO = new Set(['getEncounter', 'getNote', 'getAssessment', 'getMedicalHistoryEntry', 'listEncounters', 'listNotes', 'listAssessments', 'listMedicalHistory']);

/** A source whose every method answers the arguments it was called with. */
function echoSource(): ChartDataSource {
  const source: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of [...DATA_SOURCE_METHODS, 'listPractitionersPage']) source[method] = (...args) => Promise.resolve(args);
  return source as unknown as ChartDataSource;
}

/** A watch the test makes go away. */
function watch(): ClientWatch & { leave(): void; listeners(): number } {
  let gone = false;
  let subscriber: (() => void) | undefined;
  return {
    get gone() {
      return gone;
    },
    subscribe(listener) {
      subscriber = listener;
      return () => {
        if (subscriber === listener) subscriber = undefined;
      };
    },
    leave() {
      gone = true;
      subscriber?.();
    },
    listeners: () => (subscriber === undefined ? 0 : 1),
  };
}

describe('bindSignal', () => {
  it('should call each method with its declared arguments, padded or cut, then the signal, on every binding', async () => {
    const source = echoSource();
    // The methods live on the bound source's prototype, made once per source.
    const methods = Object.keys(Object.getPrototypeOf(bindSignal(source, new AbortController().signal)) as object);
    expect(methods.length).toBeGreaterThanOrEqual(15);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), fc.array(fc.string(), { maxLength: 4 }), async (method, args) => {
        // Arrange: a new signal per binding, as per request.
        const signal = new AbortController().signal;
        const bound = bindSignal(source, signal) as unknown as Record<string, (...a: unknown[]) => Promise<unknown[]>>;
        // Act
        const given = await (bound[method] as (...a: unknown[]) => Promise<unknown[]>)(...args);
        // Assert
        const arity = TWO.has(method) ? 2 : 1;
        expect(given).toEqual([...args.slice(0, arity), ...Array(Math.max(0, arity - args.length)).fill(undefined), signal]);
        expect(given[arity]).toBe(signal);
      }),
      { numRuns: runs(200) },
    );
  });

  it('should bind the keyset pages only of a source that has them', () => {
    const withPages = bindSignal(echoSource(), new AbortController().signal) as unknown as Record<string, unknown>;
    const plain = { ...echoSource() } as Record<string, unknown>;
    delete plain['listPractitionersPage'];
    const without = bindSignal(plain as unknown as ChartDataSource, new AbortController().signal) as unknown as Record<string, unknown>;
    expect(typeof withPages['listPractitionersPage']).toBe('function');
    expect('listPractitionersPage' in without).toBe(false);
  });
});

describe('runWithDeadline with a client watch', () => {
  it('should abort the work signal with an AbortError and reject ClientGoneError when the client goes away', async () => {
    // Arrange
    const client = watch();
    let given: AbortSignal | undefined;
    const running = runWithDeadline((signal) => ((given = signal), new Promise<never>(() => undefined)), 60_000, client);
    // Act
    client.leave();
    // Assert
    await expect(running).rejects.toBeInstanceOf(ClientGoneError);
    expect(given?.aborted).toBe(true);
    expect((given?.reason as Error).name).toBe('AbortError');
  });

  it('should start with a fired signal when the client is already gone', async () => {
    const client = watch();
    client.leave();
    let given: AbortSignal | undefined;
    const running = runWithDeadline((signal) => ((given = signal), new Promise<never>(() => undefined)), 60_000, client);
    expect(given?.aborted).toBe(true);
    await expect(running).rejects.toBeInstanceOf(ClientGoneError);
  });

  it('should stop watching once the work settles, and a later leave aborts nothing', async () => {
    const client = watch();
    let given: AbortSignal | undefined;
    await expect(runWithDeadline((signal) => ((given = signal), Promise.resolve('done')), 60_000, client)).resolves.toBe('done');
    expect(client.listeners()).toBe(0);
    client.leave();
    expect(given?.aborted).toBe(false);
  });
});
