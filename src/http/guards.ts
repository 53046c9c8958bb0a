/**
 * Guards around what the host's code answers: its data source, key store, rate limiter and hooks. Every
 * answer is read once and checked before any of it reaches a response, so a broken host implementation gives
 * a 500 (reported to `onError`), never access, a malformed header or an unhandled rejection.
 */
import { ChartNotFoundError, InvalidArgumentError } from '../index.js';
import { DATA_SOURCE_METHODS, DIRECTORY_PAGE_METHODS, type ChartDataSource } from './data-source.js';
import { isDataSourceUnavailable } from './errors.js';
import type { ApiKeyRecord } from './key-store.js';
import type { RateLimitDecision } from './rate-limiter.js';

/** Whether `value` is an object other than `null` (its members can be read). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/**
 * Observe a host hook's answer when it is a promise-like (an `async` hook where a plain value is expected, from
 * JavaScript): its rejection must not become an unhandled rejection, which ends a Node process by default. The
 * answer itself is then refused as the wrong type by the caller.
 * @param value - what the hook returned
 * @returns the same value
 */
export function settle<T>(value: T): T {
  try {
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
      const then: unknown = (value as { then?: unknown }).then;
      if (typeof then === 'function') (then as (ok: undefined, fail: () => void) => unknown).call(value, undefined, () => undefined);
    }
  } catch {
    // A `then` that throws: nothing to observe.
  }
  return value;
}

/**
 * Call a host hook whose answer does not matter (`observer`, `onError`): what it throws or rejects with is
 * ignored, so a failing hook never changes the response.
 */
export function safeCall<A extends unknown[]>(fn: ((...args: A) => void) | undefined, ...args: A): void {
  if (fn === undefined) return;
  try {
    settle(fn(...args));
  } catch {
    // A failing hook must not change the response.
  }
}

/**
 * A host's data source whose every method (and `ping`, when it has one) returns a promise: a synchronous throw (or a method that cannot be
 * read) becomes a rejection. Reads run in parallel (`Promise.all`), so a synchronous throw in the middle of
 * starting them would leave the promises already started unobserved, and one of them rejecting would be an
 * unhandled rejection in the host's process.
 */
export function guardDataSource(source: ChartDataSource): ChartDataSource {
  const guarded: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of DATA_SOURCE_METHODS) {
    guarded[method] = (...args) => {
      try {
        return Promise.resolve(Reflect.apply(source[method] as (...a: unknown[]) => unknown, source, args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  // The optional keyset pages, only when the source has them (the route reads their presence).
  for (const method of DIRECTORY_PAGE_METHODS) {
    const page: unknown = source[method];
    if (typeof page !== 'function') continue;
    guarded[method] = (...args) => {
      try {
        return Promise.resolve(Reflect.apply(page, source, args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  const ping = source.ping;
  if (typeof ping === 'function') {
    guarded['ping'] = (...args) => {
      try {
        return Promise.resolve(Reflect.apply(ping, source, args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return guarded as unknown as ChartDataSource;
}

/** The record kinds a 404 names. */
const NOT_FOUND_KINDS: readonly string[] = ['patient', 'encounter', 'note', 'assessment'];

/** What a failure thrown during a request means for the answer. */
export type Failure =
  | { readonly kind: 'not-found'; readonly recordType: 'patient' | 'encounter' | 'note' | 'assessment' }
  | { readonly kind: 'unavailable'; readonly retryAfter: number | undefined }
  | { readonly kind: 'internal' };

/**
 * Classify anything thrown by the host's interfaces or the builders. Total: the thrown value may be a Proxy
 * that throws on every trap, or an object whose `code` or `retryAfterSeconds` getter throws; whatever cannot
 * be read is an internal error (500), never a rejection of the handler.
 */
export function classifyFailure(error: unknown): Failure {
  try {
    if (error instanceof ChartNotFoundError) {
      const recordType: unknown = error.recordType;
      return typeof recordType === 'string' && NOT_FOUND_KINDS.includes(recordType)
        ? { kind: 'not-found', recordType: recordType as 'patient' | 'encounter' | 'note' | 'assessment' }
        : { kind: 'internal' };
    }
    if (isDataSourceUnavailable(error)) {
      const retry: unknown = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
      return { kind: 'unavailable', retryAfter: typeof retry === 'number' && Number.isSafeInteger(retry) && retry > 0 ? retry : undefined };
    }
  } catch {
    // Fall through: what cannot be read is an internal error.
  }
  return { kind: 'internal' };
}

/**
 * A rate limiter's answer, each field read once and checked before any of it reaches a header: `allowed` a
 * boolean; `limit` and `reset` non-negative integers; `remaining` an integer, a negative one read as 0 (a
 * counter limiter computing `limit - count` goes below 0 once a key is over its limit); on a denial,
 * `retryAfter` a non-negative number of seconds up to `Number.MAX_SAFE_INTEGER`. Anything else means the
 * host's limiter is broken: a 500.
 * @throws {InvalidArgumentError} naming the malformed field (for `onError`; never sent to the client)
 */
export function readDecision(value: unknown): RateLimitDecision {
  const name = 'rateLimiter.consume() result';
  if (!isObject(value)) throw new InvalidArgumentError(name, 'must be an object');
  const { allowed, limit, remaining, reset } = value;
  if (typeof allowed !== 'boolean') throw new InvalidArgumentError(`${name}.allowed`, 'must be a boolean');
  if (!isNonNegativeInteger(limit)) throw new InvalidArgumentError(`${name}.limit`, 'must be a non-negative integer');
  if (typeof remaining !== 'number' || !Number.isSafeInteger(remaining)) throw new InvalidArgumentError(`${name}.remaining`, 'must be an integer');
  if (!isNonNegativeInteger(reset)) throw new InvalidArgumentError(`${name}.reset`, 'must be a non-negative integer (Unix epoch seconds)');
  let retryAfter = 0;
  if (!allowed) {
    const given = value['retryAfter'];
    // At most the largest safe integer: beyond it (1e21) String() writes an exponent, which is not delta-seconds.
    if (typeof given !== 'number' || !Number.isFinite(given) || given < 0 || given > Number.MAX_SAFE_INTEGER) {
      throw new InvalidArgumentError(`${name}.retryAfter`, 'must be a non-negative number of seconds on a denial, at most 2^53 - 1');
    }
    retryAfter = given;
  }
  return { allowed, limit, remaining: Math.max(0, remaining), reset, retryAfter };
}

/** More scopes than this on one key record is a broken store (real keys carry a handful). */
const MAX_SCOPES = 256;

/**
 * A key store's record, each field read once and checked, since access depends on it: `keyId` and `partnerId`
 * non-empty strings, `scopes` an array of strings (compared exactly, never as a substring of one string),
 * `rateLimit` `{ limit, windowSeconds }` positive integers, `revoked` a boolean. Anything else means the
 * host's store is broken: a 500, never access.
 * @throws {InvalidArgumentError} naming the malformed field (for `onError`; never sent to the client)
 */
export function readKeyRecord(value: unknown): ApiKeyRecord | { readonly revoked: true } {
  const name = 'keyStore.lookup() result';
  if (!isObject(value)) throw new InvalidArgumentError(name, 'must be an object, null or undefined');
  const revoked = value['revoked'];
  if (typeof revoked !== 'boolean') throw new InvalidArgumentError(`${name}.revoked`, 'must be a boolean');
  // A revoked key is refused whatever else its record holds: nothing more is needed from it.
  if (revoked) return { revoked };
  const { keyId, partnerId, scopes, rateLimit } = value;
  if (typeof keyId !== 'string' || keyId === '') throw new InvalidArgumentError(`${name}.keyId`, 'must be a non-empty string');
  if (typeof partnerId !== 'string' || partnerId === '') throw new InvalidArgumentError(`${name}.partnerId`, 'must be a non-empty string');
  const scopeList = readScopes(name, scopes);
  if (!isObject(rateLimit)) throw new InvalidArgumentError(`${name}.rateLimit`, 'must be an object');
  const { limit, windowSeconds } = rateLimit;
  if (!isPositiveInteger(limit)) throw new InvalidArgumentError(`${name}.rateLimit.limit`, 'must be a positive integer');
  if (!isPositiveInteger(windowSeconds)) throw new InvalidArgumentError(`${name}.rateLimit.windowSeconds`, 'must be a positive integer');
  return { keyId, partnerId, scopes: scopeList as ApiKeyRecord['scopes'], rateLimit: { limit, windowSeconds }, revoked: false };
}

/** A copy of a key record's scopes, element by element: the array itself may be a Proxy or change after this check. */
function readScopes(name: string, scopes: unknown): string[] {
  if (!Array.isArray(scopes)) throw new InvalidArgumentError(`${name}.scopes`, 'must be an array of strings');
  const length: unknown = scopes.length;
  if (typeof length !== 'number' || length > MAX_SCOPES) throw new InvalidArgumentError(`${name}.scopes`, `must hold at most ${MAX_SCOPES} scopes`);
  const scopeList: string[] = [];
  for (let i = 0; i < length; i++) {
    const scope: unknown = scopes[i];
    if (typeof scope !== 'string') throw new InvalidArgumentError(`${name}.scopes`, 'must be an array of strings');
    scopeList.push(scope);
  }
  return scopeList;
}
