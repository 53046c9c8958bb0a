/**
 * The access steps of the pipeline: API key (401), scope (403) and rate limit (429). Every request with a
 * valid key counts against that key's limit, whatever its outcome, and its answer carries the
 * `x-ratelimit-limit`, `-remaining` and `-reset` headers; a public route is counted per client only when
 * `directoryRateLimit` is set.
 */
import { InvalidArgumentError } from '../index.js';
import { readDecision, readKeyRecord, settle } from './guards.js';
import type { ClientInfo, HandlerSettings } from './handler-options.js';
import { ERRORS, scopeMissing, type HttpError } from './internal/responses.js';
import type { ExportErrorSource } from './metrics.js';
import { answerNow } from './internal/answers-now.js';
import type { ApiKeyRecord } from './key-store.js';
import type { RateLimitDecision } from './rate-limiter.js';
import type { RouteDefinition } from './routes/route-types.js';

/** The request as the access steps read it. */
export interface AccessRequest {
  /** A header by lowercase name. */
  header(name: string): string | undefined;
  readonly remoteAddress: string | undefined;
}

const WWW_AUTHENTICATE = 'ApiKey header="x-api-key"';

/** What the access steps learn about a request: the partner of a valid key, for the observer. */
export interface AccessState {
  partnerId: string | undefined;
  /** The `keyId` of a valid key (the owner of a Bulk export job). */
  keyId?: string | undefined;
  /** The part of the host's services the request is using, for `onError`'s `source`. */
  stage: ExportErrorSource;
}

/** A value, or the promise of one where a host's service must be waited for. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * The access check of a handler: the refusal to render, or `undefined` when the request may go on; at once
 * over the in-memory key store and limiter, else a promise. It may throw (a host's store or hook).
 */
export type AccessCheck = (request: AccessRequest, route: RouteDefinition, headers: Record<string, string>, state: AccessState) => MaybePromise<HttpError | undefined>;

/** Set the `x-ratelimit-*` headers from a limiter's decision, checked. @throws {InvalidArgumentError} for a malformed one */
function recordDecision(headers: Record<string, string>, given: unknown): RateLimitDecision {
  const decision = readDecision(given);
  headers['x-ratelimit-limit'] = String(decision.limit);
  headers['x-ratelimit-remaining'] = String(decision.remaining);
  headers['x-ratelimit-reset'] = String(decision.reset);
  return decision;
}

function rateLimited(headers: Record<string, string>, decision: RateLimitDecision): HttpError {
  // A checked decision: retryAfter is a finite non-negative number on a denial.
  headers['retry-after'] = String(Math.max(1, Math.ceil(decision.retryAfter)));
  return ERRORS.rateLimited;
}

/** Scope (403), then the counted decision (429). */
function decideKey(record: ApiKeyRecord, scope: string, headers: Record<string, string>, decision: RateLimitDecision): HttpError | undefined {
  if (!(record.scopes as readonly string[]).includes(scope)) return scopeMissing(scope);
  return decision.allowed ? undefined : rateLimited(headers, decision);
}

// The continuations of a host's store or limiter that waits are built in functions of their own (countLater,
// lookupLater, decideLater): a closure inside a step would make every request allocate the step's context.
function countLater(headers: Record<string, string>, answer: unknown): Promise<RateLimitDecision> {
  return Promise.resolve(answer).then((given) => recordDecision(headers, given));
}

function decideLater(counted: Promise<RateLimitDecision>, record: ApiKeyRecord, scope: string, headers: Record<string, string>): Promise<HttpError | undefined> {
  return counted.then((decision) => decideKey(record, scope, headers, decision));
}

/**
 * The access check of one handler. It sets the headers to send on `headers` (`www-authenticate`,
 * `x-ratelimit-*`, `retry-after`) and the key's partner on `state` as soon as the key is known valid.
 */
export function createAccessCheck(settings: Pick<HandlerSettings, 'keyStore' | 'rateLimiter' | 'directoryRateLimit'>): AccessCheck {
  const { keyStore, rateLimiter, directoryRateLimit } = settings;

  /**
   * Count a request through the host's rate limiter and set the `x-ratelimit-*` headers from its checked
   * decision.
   * @throws what the limiter throws, or {@link InvalidArgumentError} for a malformed decision (a 500)
   */
  function count(headers: Record<string, string>, key: string, limit: number, windowSeconds: number, state: AccessState): RateLimitDecision | Promise<RateLimitDecision> {
    state.stage = 'rate_limiter';
    // The in-memory limiter answers at once; any other limiter's answer (a host's may be a plain value or a
    // thenable) is waited for, without an async wrapper of its own.
    const consumeNow = answerNow<(key: string, limit: number, windowSeconds: number) => unknown>(rateLimiter, 'consume');
    if (consumeNow !== undefined) return recordDecision(headers, consumeNow(key, limit, windowSeconds));
    return countLater(headers, rateLimiter.consume(key, limit, windowSeconds));
  }

  /** Key → scope → rate limit, on a route that needs a key. May throw (a host's store): the pipeline catches it. */
  function checkKey(request: AccessRequest, scope: string, headers: Record<string, string>, state: AccessState): MaybePromise<HttpError | undefined> {
    const key = request.header('x-api-key');
    if (key === undefined || key === '') {
      headers['www-authenticate'] = WWW_AUTHENTICATE;
      return ERRORS.keyMissing;
    }
    state.stage = 'key_store';
    // The in-memory key store answers at once: no wait then.
    const lookupNow = answerNow<(presentedKey: string) => unknown>(keyStore, 'lookup');
    // Its records were checked and frozen when the keys were added: no second check.
    if (lookupNow !== undefined) return checkRecord(lookupNow(key) as ApiKeyRecord | undefined, scope, headers, state);
    return lookupLater(keyStore.lookup(key), scope, headers, state);
  }

  function lookupLater(answer: unknown, scope: string, headers: Record<string, string>, state: AccessState): Promise<HttpError | undefined> {
    return Promise.resolve(answer).then((found: unknown) => checkRecord(found == null ? undefined : readKeyRecord(found), scope, headers, state));
  }

  /** The presented key's record: valid (401), counted (429, every valid key's request counts), with the scope (403). */
  function checkRecord(record: ApiKeyRecord | { readonly revoked: true } | undefined, scope: string, headers: Record<string, string>, state: AccessState): MaybePromise<HttpError | undefined> {
    if (record === undefined || record.revoked) {
      headers['www-authenticate'] = WWW_AUTHENTICATE;
      return ERRORS.keyInvalid;
    }
    state.partnerId = record.partnerId;
    state.keyId = record.keyId;
    // Every request with a valid key counts, so a 403 or 400 carries the rate-limit headers too.
    const counted = count(headers, `key:${record.keyId}`, record.rateLimit.limit, record.rateLimit.windowSeconds, state);
    return counted instanceof Promise ? decideLater(counted, record, scope, headers) : decideKey(record, scope, headers, counted);
  }

  /** The per-client limit of a public route, when the host set one. May throw (a host's hook): the pipeline catches it. */
  function checkClient(request: AccessRequest, headers: Record<string, string>, state: AccessState): MaybePromise<HttpError | undefined> {
    if (directoryRateLimit === undefined) return undefined;
    state.stage = 'rate_limiter';
    const client: ClientInfo = { remoteAddress: request.remoteAddress, header: (name) => request.header(name) };
    const address = directoryRateLimit.clientAddress === undefined ? request.remoteAddress : settle(directoryRateLimit.clientAddress(client));
    if (address !== undefined && typeof address !== 'string') {
      throw new InvalidArgumentError('directoryRateLimit.clientAddress() result', 'must be a string or undefined');
    }
    const counter = address === undefined || address === '' ? 'unknown' : address;
    const decide = (decision: RateLimitDecision): HttpError | undefined => (decision.allowed ? undefined : rateLimited(headers, decision));
    const counted = count(headers, `directory:${counter}`, directoryRateLimit.limit, directoryRateLimit.windowSeconds, state);
    return counted instanceof Promise ? counted.then(decide) : decide(counted);
  }

  return (request, route, headers, state) =>
    route.scope === undefined ? checkClient(request, headers, state) : checkKey(request, route.scope, headers, state);
}
