/**
 * Giving the event loop back from long work (the NDJSON writer, the Bulk job runner), in any runtime.
 * @module
 */

/**
 * A macrotask turn: the event loop runs I/O and timers before the caller goes on (`setImmediate` where the
 * runtime has it: Node, Bun, Deno; else `setTimeout(0)`: browsers, workers).
 * @returns a promise that settles on the next turn
 * @example await giveBack();
 */
export function giveBack(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => {
    if (typeof immediate === 'function') immediate(resolve);
    else setTimeout(resolve, 0);
  });
}
