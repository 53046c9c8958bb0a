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

/** The data source of one request: the (guarded) source's methods on its prototype, the request's signal on it. */
type BoundSource = ChartDataSource & { readonly signal: AbortSignal };

/** For each (guarded) source, the class of its requests' bound sources, made once per source instead of once per request. */
const BOUND = new WeakMap<ChartDataSource, new (signal: AbortSignal) => BoundSource>();

function boundClassOf(source: ChartDataSource): new (signal: AbortSignal) => BoundSource {
  const known = BOUND.get(source);
  if (known !== undefined) return known;
  const methods = source as unknown as Record<string, (...args: unknown[]) => unknown>;
  const Bound = function (this: { signal: AbortSignal }, signal: AbortSignal) {
    this.signal = signal;
  } as unknown as new (signal: AbortSignal) => BoundSource;
  const prototype = Bound.prototype as Record<string, unknown>;
  const define = (method: string, call: (...args: unknown[]) => unknown, arity: number): void => {
    prototype[method] =
      arity === 1
        ? function (this: BoundSource, a: unknown) {
            return call(a, this.signal);
          }
        : function (this: BoundSource, a: unknown, b: unknown) {
            return call(a, b, this.signal);
          };
  };
  for (const [method, arity] of Object.entries(DATA_SOURCE_ARITY)) define(method, methods[method] as (...args: unknown[]) => unknown, arity);
  // The optional keyset pages (one argument: the page), only when the source has them.
  for (const method of DIRECTORY_PAGE_METHODS) {
    const page = methods[method];
    if (typeof page === 'function') define(method, page, 1);
  }
  BOUND.set(source, Bound);
  return Bound;
}

/**
 * The data source of one request: each method calls the (guarded) source's with its declared arguments (more
 * are dropped, missing ones are `undefined`) and then `signal`. One small object per request: the methods
 * live on a prototype made once per source, and read the signal from the object they are called on (every
 * reader calls them as methods).
 * @param source - a data source whose methods always return a promise (see `guardDataSource`)
 * @param signal - the request's signal
 */
export function bindSignal(source: ChartDataSource, signal: AbortSignal): ChartDataSource {
  return new (boundClassOf(source))(signal);
}

/**
 * Whether the client went away before the answer was written, told by the Node listener with one `close`
 * listener, where an `AbortSignal` per request would cost an `AbortController` more.
 */
export interface ClientWatch {
  /** True once the client went away. */
  readonly gone: boolean;
  /** Call `listener` once when the client goes away; returns what stops that. One listener at a time. */
  subscribe(listener: () => void): () => void;
}

/**
 * Run `work` with a deadline: it gets a signal that fires when `timeoutMs` expire (reason: a
 * {@link DataSourceTimeoutError}) or when the client goes away (reason: the client signal's reason, or an
 * `AbortError` for a {@link ClientWatch}).
 * @param work - the reads (and the render) of the request
 * @param timeoutMs - the deadline
 * @param client - the client's signal or watch, when the runtime gives one
 * @returns what `work` gives, unless the deadline expires first
 * @throws {DataSourceTimeoutError} when the deadline expires first; {@link ClientGoneError} when the client
 *   went away first; else what `work` throws
 */
export function runWithDeadline<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, client: AbortSignal | ClientWatch | undefined): Promise<T> {
  const controller = new AbortController();
  // One promise, settled by the first of the work, the deadline and the client: no race of three.
  return new Promise<T>((resolve, reject) => {
    let stopWatching: (() => void) | undefined;
    const stop = (): void => {
      clearTimeout(timer);
      stopWatching?.();
    };
    const timer = setTimeout(() => {
      const error = new DataSourceTimeoutError(timeoutMs);
      controller.abort(error);
      stop();
      reject(error);
    }, timeoutMs);
    if (client !== undefined) {
      const signal = 'subscribe' in client ? undefined : client;
      const onGone = (): void => {
        // A watch has no reason of its own: the signal then carries the default AbortError, as an aborted one would.
        if (signal === undefined) controller.abort();
        else controller.abort(signal.reason);
        stop();
        reject(new ClientGoneError('The client went away', { cause: controller.signal.reason }));
      };
      if (signal === undefined) {
        const watch = client as ClientWatch;
        if (watch.gone) onGone();
        else stopWatching = watch.subscribe(onGone);
      } else if (signal.aborted) onGone();
      else {
        signal.addEventListener('abort', onGone, { once: true });
        stopWatching = () => signal.removeEventListener('abort', onGone);
      }
    }
    let running: Promise<T>;
    try {
      running = work(controller.signal);
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/** The client went away before the answer: nobody reads it, and it is no failure of the host's services. */
export class ClientGoneError extends Error {
  /** The class name. */
  override readonly name = 'ClientGoneError';
}
