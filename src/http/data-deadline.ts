/**
 * The data-source timeout and cancellation of a request: every data-source call gets an `AbortSignal` (its
 * last argument) that fires when the request's reads exceed `dataSourceTimeoutMs` or when the client goes
 * away, and the request is answered when the timeout expires, whether or not the reads ever settle.
 */
import { DIRECTORY_PAGE_METHODS, type ChartDataSource } from './data-source.js';
import { DataSourceTimeoutError } from './errors.js';

/** How many arguments each data-source method declares: the signal goes right after them. */
const DATA_SOURCE_ARITY: Readonly<Record<string, number>> = {
  getPatient: 1,
  getEncounter: 2,
  getNote: 2,
  getAssessment: 2,
  getMedicalHistoryEntry: 2,
  listEncounters: 2,
  listNotes: 2,
  listAssessments: 2,
  listMedicalHistory: 2,
  getOrganization: 1,
  getPractitioner: 1,
  getLocation: 1,
  listOrganizations: 1,
  listPractitioners: 1,
  listLocations: 1,
};

/**
 * The data source of one request: each method calls the (guarded) source's with its declared arguments and
 * then `signal`.
 * @param source - a data source whose methods always return a promise (see `guardDataSource`)
 * @param signal - the request's signal
 */
export function bindSignal(source: ChartDataSource, signal: AbortSignal): ChartDataSource {
  const bound: Record<string, (...args: unknown[]) => unknown> = {};
  for (const [method, arity] of Object.entries(DATA_SOURCE_ARITY)) {
    const call = (source as unknown as Record<string, (...args: unknown[]) => unknown>)[method] as (...args: unknown[]) => unknown;
    bound[method] = (...args) => {
      const given = args.slice(0, arity);
      while (given.length < arity) given.push(undefined);
      return call(...given, signal);
    };
  }
  // The optional keyset pages (one argument: the page), only when the source has them.
  for (const method of DIRECTORY_PAGE_METHODS) {
    const page = (source as unknown as Record<string, unknown>)[method];
    if (typeof page === 'function') bound[method] = (given: unknown) => (page as (...args: unknown[]) => unknown)(given, signal);
  }
  return bound as unknown as ChartDataSource;
}

/**
 * Run `work` with a deadline: it gets a signal that fires when `timeoutMs` expire (reason: a
 * {@link DataSourceTimeoutError}) or when `clientSignal` fires (the client went away; reason: its reason).
 * @param work - the reads (and the render) of the request
 * @param timeoutMs - the deadline
 * @param clientSignal - the client's signal, when the runtime gives one
 * @returns what `work` gives, unless the deadline expires first
 * @throws {DataSourceTimeoutError} when the deadline expires first; the client's abort reason when the client
 *   went away first; else what `work` throws
 */
export function runWithDeadline<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, clientSignal: AbortSignal | undefined): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onClientAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DataSourceTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    if (clientSignal === undefined) return;
    onClientAbort = (): void => {
      const reason: unknown = clientSignal.reason;
      controller.abort(reason);
      reject(new ClientGoneError('The client went away', { cause: reason }));
    };
    if (clientSignal.aborted) onClientAbort();
    else clientSignal.addEventListener('abort', onClientAbort, { once: true });
  });
  let running: Promise<T>;
  try {
    running = work(controller.signal);
  } catch (error) {
    running = Promise.reject(error);
  }
  return Promise.race([running, stopped]).finally(() => {
    clearTimeout(timer);
    if (onClientAbort !== undefined) clientSignal?.removeEventListener('abort', onClientAbort);
  });
}

/** The client went away before the answer: nobody reads it, and it is no failure of the host's services. */
export class ClientGoneError extends Error {
  /** The class name. */
  override readonly name = 'ClientGoneError';
}
