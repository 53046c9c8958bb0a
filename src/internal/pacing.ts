/**
 * Cutting a streamed export into chunks and giving the event loop back while it is written: the settings every
 * stream of the core takes (`chunkChars`, `maxHoldMs`) and the pacer that keeps a walk within its budget.
 * @module
 */
import { InvalidArgumentError } from '../errors.js';

/** Defaults of {@link StreamSettings}. */
export const DEFAULT_CHUNK_CHARS = 64 * 1024;
export const DEFAULT_MAX_HOLD_MS = 10;

/** How a stream is cut and paced, after checks. */
export interface StreamSettings {
  /** A chunk is given once it holds at least this many characters (a larger record is one chunk). */
  readonly chunkChars: number;
  /** The longest the walk keeps the event loop before it waits for a macrotask. */
  readonly maxHoldMs: number;
}

/**
 * Check the stream options.
 * @param options - the caller's options (only `chunkChars` and `maxHoldMs` are read)
 * @returns the settings, defaults filled in
 * @throws {InvalidArgumentError} when `chunkChars` is not a positive safe integer or `maxHoldMs` not a non-negative finite number
 * @example resolveStreamSettings({ maxHoldMs: 5 }) // { chunkChars: 65536, maxHoldMs: 5 }
 */
export function resolveStreamSettings(options: { chunkChars?: unknown; maxHoldMs?: unknown } | undefined): StreamSettings {
  const chunkChars = options?.chunkChars ?? DEFAULT_CHUNK_CHARS;
  const maxHoldMs = options?.maxHoldMs ?? DEFAULT_MAX_HOLD_MS;
  if (typeof chunkChars !== 'number' || !Number.isSafeInteger(chunkChars) || chunkChars < 1) {
    throw new InvalidArgumentError('chunkChars', 'must be a positive integer');
  }
  if (typeof maxHoldMs !== 'number' || !Number.isFinite(maxHoldMs) || maxHoldMs < 0) {
    throw new InvalidArgumentError('maxHoldMs', 'must be a non-negative finite number');
  }
  return { chunkChars, maxHoldMs };
}

/** The runtime's monotonic clock (only for pacing: it never reaches the output). */
const clock: () => number = typeof globalThis.performance?.now === 'function' ? () => globalThis.performance.now() : () => Date.now();

/** Wait for a macrotask: `setTimeout` is in every runtime the core supports (browsers, Node, Deno, Bun, workers). */
function macrotask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A pacer: `due()` tells whether the walk has held the event loop long enough to give it back now. */
export interface Pacer {
  due(): boolean;
  pause(): Promise<void>;
}

/**
 * A pacer for one walk, its budget starting now.
 * @param maxHoldMs - the longest the walk keeps the event loop between two give-backs
 * @returns the pacer
 * @example const pacer = createPacer(10); for (const x of work) { step(x); if (pacer.due()) await pacer.pause(); }
 */
export function createPacer(maxHoldMs: number): Pacer {
  let since = clock();
  return {
    due: () => clock() - since >= maxHoldMs,
    async pause() {
      await macrotask();
      since = clock();
    },
  };
}
