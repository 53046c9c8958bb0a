/**
 * Turns of the event loop while async work runs: a chain of immediates, each of which runs only when the work
 * has given the loop back. Tests of pacing count them (a paced stream or check gives the loop back; one that
 * holds it runs in one stretch and counts none).
 */

/**
 * Run `work` and count the turns of the event loop it gave back meanwhile.
 * @param work - the async work
 * @returns the number of immediates that ran before `work` settled, and what it gave
 * @example const { turns } = await turnsDuring(() => source.listNotes('p', 4000));
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ turns: number; value: T }> {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const value = await work();
    return { turns, value };
  } finally {
    running = false;
  }
}
