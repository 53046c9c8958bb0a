/**
 * The one error type of the HTTP adapter's host interfaces: how a data source, key store or rate limiter
 * says "temporarily unavailable" so the handler answers 503 instead of 500.
 */

/** The stable `code` of {@link DataSourceUnavailableError}; also recognised on foreign errors (duck typing). */
export const DATA_SOURCE_UNAVAILABLE = 'data-source-unavailable';

/**
 * Thrown (or rejected) by a {@link ChartDataSource}, {@link KeyStore} or {@link RateLimiter} when its
 * backing store is temporarily unavailable (database down, connection pool exhausted, timeout). The
 * handler answers `503 Service Unavailable`, with `Retry-After` when `retryAfterSeconds` is set. Any other
 * error gives `500`. Neither response carries the error's message.
 *
 * The handler also recognises any error whose `code` is `'data-source-unavailable'`, so a host whose
 * bundler loads two copies of this package (ESM and CJS) still gets 503.
 *
 * @example
 * async getPatient(id) {
 *   try { return await db.patients.find(id); }
 *   catch (e) { if (isConnectionError(e)) throw new DataSourceUnavailableError('database unreachable', { cause: e, retryAfterSeconds: 5 }); throw e; }
 * }
 */
export class DataSourceUnavailableError extends Error {
  /** The class name, `'DataSourceUnavailableError'` (in messages and stack traces). */
  override readonly name: string = 'DataSourceUnavailableError';
  /** Always `'data-source-unavailable'`. */
  readonly code = DATA_SOURCE_UNAVAILABLE;
  /** Seconds a client should wait before retrying; sent as `Retry-After` on the 503. */
  readonly retryAfterSeconds: number | undefined;

  /**
   * @param message - for the host's logs only; never sent to the client
   * @param options - `cause`, and `retryAfterSeconds` (a positive integer) for the `Retry-After` header
   */
  constructor(message = 'Data source unavailable', options: { cause?: unknown; retryAfterSeconds?: number | undefined } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const r = options.retryAfterSeconds;
    this.retryAfterSeconds = r !== undefined && Number.isSafeInteger(r) && r > 0 ? r : undefined;
  }
}

/**
 * The data reads of one request did not settle within the handler's `dataSourceTimeoutMs`. The handler
 * answers 503 with `Retry-After: 5`, fires the `AbortSignal` given to the data-source calls with this error as
 * its reason, and passes it to `onError` (`source: 'data_source'`). Also the error of a `ping` that timed out
 * on `/readyz`. A {@link DataSourceUnavailableError}, so code that handles unavailability handles it too.
 *
 * @example
 * onError: (error) => { if (error instanceof DataSourceTimeoutError) log.warn(`reads over ${error.timeoutMs} ms`); }
 */
export class DataSourceTimeoutError extends DataSourceUnavailableError {
  /** The class name, `'DataSourceTimeoutError'`. */
  override readonly name: string = 'DataSourceTimeoutError';
  /** The timeout that expired, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * @param timeoutMs - the timeout that expired, in milliseconds (`NaN` is kept for anything but a number)
   * @param retryAfterSeconds - sent as `Retry-After` (default 5)
   */
  constructor(timeoutMs: number, retryAfterSeconds = 5) {
    // Only a number is written into the message: anything else (a host's mistake) must not throw here.
    const ms = typeof timeoutMs === 'number' ? timeoutMs : Number.NaN;
    super(`Data source did not answer within ${ms} ms`, { retryAfterSeconds });
    this.timeoutMs = ms;
  }
}

/**
 * True when `error` says the source is temporarily unavailable: a {@link DataSourceUnavailableError}, or any
 * object whose `code` is `'data-source-unavailable'`.
 *
 * @param error - anything thrown
 * @returns whether the handler should answer 503; false (never a throw) for a value whose `code` cannot be read
 * @example isDataSourceUnavailable(new DataSourceUnavailableError()) // true
 */
export function isDataSourceUnavailable(error: unknown): error is {
  /** `'data-source-unavailable'`. */
  code: typeof DATA_SOURCE_UNAVAILABLE;
  /** Seconds for `Retry-After`, when the source gave them (read and checked by the handler). */
  retryAfterSeconds?: unknown;
} {
  try {
    return (
      error instanceof DataSourceUnavailableError ||
      (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DATA_SOURCE_UNAVAILABLE)
    );
  } catch {
    // A Proxy that throws on `instanceof`, or a `code` getter that throws: not a recognisable unavailability.
    return false;
  }
}
