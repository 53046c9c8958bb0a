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

/** A data source bound to one request's signal: the methods live on a prototype made once per source. */
type BoundSource = new (signal: AbortSignal) => ChartDataSource;

/** The bound-source class of each (guarded) data source, made on its first request. */
const BOUND_CLASSES = new WeakMap<ChartDataSource, BoundSource>();

/** The class whose instances call `source`'s methods with their declared arguments and then the instance's signal. */
function boundClass(source: ChartDataSource): BoundSource {
  const methods: Record<string, unknown> = {};
  const table = source as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const [method, arity] of Object.entries(DATA_SOURCE_ARITY)) {
    const call = table[method] as (...args: unknown[]) => unknown;
    methods[method] =
      arity === 1
        ? function (this: { signal: AbortSignal }, a: unknown) {
            return call(a, this.signal);
          }
        : function (this: { signal: AbortSignal }, a: unknown, b: unknown) {
            return call(a, b, this.signal);
          };
  }
  // The optional keyset pages (one argument: the page), only when the source has them.
  for (const method of DIRECTORY_PAGE_METHODS) {
    const page = table[method];
    if (typeof page === 'function') {
      methods[method] = function (this: { signal: AbortSignal }, given: unknown) {
        return page(given, this.signal);
      };
    }
  }
  function Bound(this: { signal: AbortSignal }, signal: AbortSignal): void {
    this.signal = signal;
  }
  Bound.prototype = methods;
  return Bound as unknown as BoundSource;
}

/**
 * The data source of one request: each method calls the (guarded) source's with its declared arguments and
 * then `signal`. One object per request; its methods are shared by every request over the same source.
 * @param source - a data source whose methods always return a promise (see `guardDataSource`)
 * @param signal - the request's signal
 */
export function bindSignal(source: ChartDataSource, signal: AbortSignal): ChartDataSource {
  let Bound = BOUND_CLASSES.get(source);
  if (Bound === undefined) {
    Bound = boundClass(source);
    BOUND_CLASSES.set(source, Bound);
  }
  return new Bound(signal);
}

/**
 * Tells when the client goes away, for less than an `AbortSignal` costs (the Node listener's: one `close`
 * listener per request and no `AbortController`, whose signal alone costs a few microseconds to make).
 */
export interface ClientWatch {
  /** Whether the client has gone away already. */
  readonly gone: boolean;
  /** Call `listener` once when the client goes away (one listener at a time); the returned function stops it. */
  subscribe(listener: () => void): () => void;
}

/** Call `onGone` when the client goes away (at once when it is gone already); returns what stops listening. */
function watchClient(client: AbortSignal | ClientWatch | undefined, onGone: () => void): (() => void) | undefined {
  if (client === undefined) return undefined;
  if ('subscribe' in client) {
    if (client.gone) {
      onGone();
      return undefined;
    }
    return client.subscribe(onGone);
  }
  if (client.aborted) {
    onGone();
    return undefined;
  }
  client.addEventListener('abort', onGone, { once: true });
  return () => client.removeEventListener('abort', onGone);
}

/**
 * Run `work` with a deadline: it gets a signal that fires when `timeoutMs` expire (reason: a
 * {@link DataSourceTimeoutError}) or when the client goes away (reason: the client signal's reason, or an
 * `AbortError` for a {@link ClientWatch}).
 * @param work - the reads (and the render) of the request
 * @param timeoutMs - the deadline
 * @param client - the client's signal or watch, when the runtime gives one
 * @returns what `work` gives, unless the deadline expires or the client goes away first
 * @throws {DataSourceTimeoutError} when the deadline expires first; {@link ClientGoneError} (caused by the
 *   abort reason) when the client went away first; else what `work` throws
 */
export function runWithDeadline<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, client: AbortSignal | ClientWatch | undefined): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    // Set once the client is watched; a client gone already settles before (while it is still unset).
    const watching: { stop?: (() => void) | undefined } = {};
    /** The first outcome wins: the timer and the client's listener go, and later outcomes are ignored. */
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      watching.stop?.();
      return true;
    };
    const timer = setTimeout(() => {
      const error = new DataSourceTimeoutError(timeoutMs);
      controller.abort(error);
      if (settle()) reject(error);
    }, timeoutMs);
    watching.stop = watchClient(client, () => {
      if (client !== undefined && !('subscribe' in client)) controller.abort(client.reason);
      else controller.abort();
      const reason: unknown = controller.signal.reason;
      if (settle()) reject(new ClientGoneError('The client went away', { cause: reason }));
    });
    let running: Promise<T>;
    try {
      running = work(controller.signal);
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => {
        if (settle()) resolve(value);
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
}

/** The client went away before the answer: nobody reads it, and it is no failure of the host's services. */
export class ClientGoneError extends Error {
  /** The class name. */
  override readonly name = 'ClientGoneError';
}
