/**
 * API keys for the HTTP adapter: the `KeyStore` interface the handler consumes, and an in-memory store that
 * keeps only SHA-256 hashes of the keys and compares them in constant time.
 */
import { InvalidArgumentError } from '../index.js';
import { sha256, sha256Text } from '../internal/adapter.js';
import { registerAnswerNow } from './internal/answers-now.js';

/** The export scopes a key can carry: `fhir:export` for the five patient FHIR routes, `hl7:export` for the five HL7 routes. */
export const API_KEY_SCOPES = ['fhir:export', 'hl7:export'] as const;
/** One of {@link API_KEY_SCOPES}. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A key's rate limit: at most `limit` requests per window of `windowSeconds` seconds. */
export interface ApiKeyRateLimit {
  /** Requests allowed per window; a positive integer. */
  readonly limit: number;
  /** Window length in seconds; a positive integer. */
  readonly windowSeconds: number;
}

/** What the handler needs to know about a presented key. It never holds the key itself. */
export interface ApiKeyRecord {
  /**
   * A stable, non-secret name of the key, unique in the store (e.g. `acme-2026-01`). The rate limit is
   * counted per `keyId`; revocation names it. Never the key itself.
   */
  readonly keyId: string;
  /** The partner the key was issued to; reported to the observer hook. */
  readonly partnerId: string;
  /**
   * The export scopes the key grants: an array of strings, each compared exactly with a route's scope (other
   * strings grant nothing). Not a space-separated string: the handler answers a record whose `scopes` is not
   * an array of strings with 500.
   */
  readonly scopes: readonly ApiKeyScope[];
  /** The key's own rate limit. */
  readonly rateLimit: ApiKeyRateLimit;
  /** True when the key was revoked: the handler answers 401 as for an unknown key. */
  readonly revoked: boolean;
}

/**
 * Resolves a presented API key (the `x-api-key` header) to its record. Hosts back it with their own store;
 * {@link createInMemoryKeyStore} ships for single-process hosts, tests and demos.
 */
export interface KeyStore {
  /**
   * Find the record of a presented key.
   *
   * @param presentedKey - the `x-api-key` header value as received (non-empty); treat it as a secret:
   *   never log it, never put it in an error
   * @returns the record (revoked ones included, with `revoked: true`), or `undefined` (or `null`) for an unknown key.
   *   The handler checks the record's shape on every request (see {@link ApiKeyRecord}); a malformed one is a
   *   500, never access
   * @throws whatever the backing store throws; the handler answers 500, or 503 for a
   *   `DataSourceUnavailableError`
   */
  lookup(presentedKey: string): Promise<ApiKeyRecord | null | undefined>;
}

/** One key of {@link createInMemoryKeyStore}: the record plus the key's SHA-256 hash. */
export interface InMemoryKeyEntry {
  /** SHA-256 of the key's UTF-8 bytes, 64 hexadecimal digits (see {@link hashApiKey}). */
  readonly keyHash: string;
  /** Non-secret key name, unique in the store. Default: the `keyHash`. */
  readonly keyId?: string | undefined;
  /** The partner the key was issued to. */
  readonly partnerId: string;
  /** Scopes granted. */
  readonly scopes: readonly ApiKeyScope[];
  /** Rate limit. Default {@link DEFAULT_KEY_RATE_LIMIT}. */
  readonly rateLimit?: ApiKeyRateLimit | undefined;
  /** Start revoked. Default false. */
  readonly revoked?: boolean | undefined;
}

/** The in-memory key store: a {@link KeyStore} that can add and revoke keys at run time. */
export interface InMemoryKeyStore extends KeyStore {
  /**
   * Add a key.
   * @throws {InvalidArgumentError} for a malformed hash, unknown scope, bad rate limit, or a duplicate hash or keyId
   */
  add(entry: InMemoryKeyEntry): void;
  /**
   * Revoke a key by its `keyId`; later lookups return it with `revoked: true` (the handler answers 401).
   * @returns true when the key existed
   */
  revoke(keyId: string): boolean;
  /** Number of keys held, revoked ones included. */
  readonly size: number;
}

/** Rate limit of an in-memory key entry that sets none: 600 requests per 60 seconds. */
export const DEFAULT_KEY_RATE_LIMIT: ApiKeyRateLimit = Object.freeze({ limit: 600, windowSeconds: 60 });

/**
 * Presented keys longer than this are unknown without being hashed, so an oversized header costs nothing.
 * Real keys are far shorter (a 256-bit key is 43 base64url characters).
 */
export const MAX_API_KEY_LENGTH = 512;

const HEX_RE = /^[0-9a-fA-F]{64}$/;

/**
 * SHA-256 of a key's UTF-8 bytes as 64 lowercase hexadecimal digits, with the package's own SHA-256 in plain
 * JavaScript, so it runs in Node, browsers, Deno, Bun and edge runtimes. Store this, never the key.
 * Asynchronous for the sake of stores whose digest is (the result is ready at once).
 *
 * @param key - the API key
 * @returns the hex digest
 * @throws never synchronously; rejects with {@link InvalidArgumentError} when `key` is not a string
 * @example await hashApiKey('demo-key') // '…64 hex digits…'
 */
export function hashApiKey(key: string): Promise<string> {
  // A number or object would be hashed as its string form, a key nobody presents: refuse it instead.
  if (typeof key !== 'string') return Promise.reject(new InvalidArgumentError('key', 'must be a string'));
  let hex = '';
  for (const byte of sha256(new TextEncoder().encode(key))) hex += byte.toString(16).padStart(2, '0');
  return Promise.resolve(hex);
}

/**
 * A SHA-256 function over bytes, for {@link InMemoryKeyStoreOptions.digest}: returns the 32-byte digest,
 * synchronously or as a promise.
 */
export type Sha256Digest = (data: Uint8Array) => ArrayBuffer | Uint8Array | Promise<ArrayBuffer | Uint8Array>;

/** Options of {@link createInMemoryKeyStore}. */
export interface InMemoryKeyStoreOptions {
  /**
   * How a presented key is hashed. It must be SHA-256: stored hashes are compared with its output.
   * Default: the package's own synchronous SHA-256 in plain JavaScript, which runs on every runtime and, for
   * keys of API-key length, costs less inside a busy server than Node's `crypto.hash` (which fetches the
   * digest from OpenSSL on each call) or Web Crypto's `crypto.subtle.digest` (asynchronous, through the
   * thread pool: tens of microseconds per request). Pass a function to use another implementation, e.g.
   * `(data) => createHash('sha256').update(data).digest()`.
   */
  readonly digest?: ((data: Uint8Array) => ArrayBuffer | Uint8Array | Promise<ArrayBuffer | Uint8Array>) | undefined;
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Compare two byte arrays in time that depends only on their lengths, not on where they differ.
 *
 * @param a - first array
 * @param b - second array
 * @returns true when both have the same length and bytes
 * @throws {InvalidArgumentError} when `a` or `b` is not a `Uint8Array`
 * @example timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])) // true
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (!(a instanceof Uint8Array)) throw new InvalidArgumentError('a', 'must be a Uint8Array');
  if (!(b instanceof Uint8Array)) throw new InvalidArgumentError('b', 'must be a Uint8Array');
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

interface StoredKey {
  readonly hash: Uint8Array;
  readonly hashHex: string;
  record: ApiKeyRecord;
}

function checkScopes(scopes: unknown): readonly ApiKeyScope[] {
  if (!Array.isArray(scopes)) throw new InvalidArgumentError('scopes', 'must be an array');
  for (const s of scopes) {
    if (!(API_KEY_SCOPES as readonly unknown[]).includes(s)) {
      throw new InvalidArgumentError('scopes', `must contain only ${API_KEY_SCOPES.join(', ')}`);
    }
  }
  return Object.freeze([...new Set(scopes as ApiKeyScope[])]);
}

function checkRateLimit(rateLimit: ApiKeyRateLimit | undefined): ApiKeyRateLimit {
  if (rateLimit === undefined) return DEFAULT_KEY_RATE_LIMIT;
  if (typeof rateLimit !== 'object' || rateLimit === null) throw new InvalidArgumentError('rateLimit', 'must be an object');
  const { limit, windowSeconds } = rateLimit;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new InvalidArgumentError('rateLimit.limit', 'must be a positive integer');
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) {
    throw new InvalidArgumentError('rateLimit.windowSeconds', 'must be a positive integer');
  }
  return Object.freeze({ limit, windowSeconds });
}

/**
 * The record of the stored key whose hash is `hashed`, comparing with every stored hash in constant time.
 * @throws {InvalidArgumentError} when a host's digest returned something else than bytes
 */
function findKey(keys: readonly StoredKey[], hashed: ArrayBuffer | Uint8Array): ApiKeyRecord | undefined {
  let presented: Uint8Array;
  if (hashed instanceof Uint8Array) presented = hashed;
  else if (hashed instanceof ArrayBuffer) presented = new Uint8Array(hashed);
  else throw new InvalidArgumentError('options.digest', 'must return an ArrayBuffer or a Uint8Array');
  let found: ApiKeyRecord | undefined;
  // Visit every key, whatever matches, so the time taken does not depend on which key (if any) matched.
  for (const k of keys) {
    if (timingSafeEqual(presented, k.hash)) found = k.record;
  }
  return found;
}

/**
 * Create an in-memory key store. It holds SHA-256 hashes only; a lookup hashes the presented key
 * (synchronously; see {@link InMemoryKeyStoreOptions.digest}) and compares it with every stored hash in
 * constant time (no early exit), so response time says nothing about how close a guess was.
 *
 * @param entries - the keys, each with its `keyHash` (see {@link hashApiKey}), partner, scopes and rate limit
 * @param options - `digest`: the SHA-256 function for presented keys (default: the package's synchronous one)
 * @returns an {@link InMemoryKeyStore}
 * @throws {InvalidArgumentError} for entries that are not an array, a malformed entry, a duplicate hash or keyId
 *   (messages never carry a hash), or options whose `digest` is not a function
 * @example
 * const keyStore = createInMemoryKeyStore([
 *   { keyHash: await hashApiKey(process.env.ACME_KEY!), keyId: 'acme-1', partnerId: 'acme', scopes: ['fhir:export'], rateLimit: { limit: 100, windowSeconds: 60 } },
 * ]);
 */
export function createInMemoryKeyStore(entries: readonly InMemoryKeyEntry[] = [], options: InMemoryKeyStoreOptions = {}): InMemoryKeyStore {
  if (!Array.isArray(entries)) throw new InvalidArgumentError('entries', 'must be an array');
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const keys: StoredKey[] = [];
  const digest = options.digest;
  if (digest !== undefined && typeof digest !== 'function') throw new InvalidArgumentError('options.digest', 'must be a function');
  const encoder = new TextEncoder();

  const find = (hashed: ArrayBuffer | Uint8Array): ApiKeyRecord | undefined => findKey(keys, hashed);

  function add(entry: InMemoryKeyEntry): void {
    if (typeof entry !== 'object' || entry === null) throw new InvalidArgumentError('entry', 'must be an object');
    if (typeof entry.keyHash !== 'string' || !HEX_RE.test(entry.keyHash)) {
      throw new InvalidArgumentError('keyHash', 'must be a SHA-256 digest as 64 hexadecimal digits');
    }
    const hashHex = entry.keyHash.toLowerCase();
    const keyId = entry.keyId ?? hashHex;
    if (typeof keyId !== 'string' || keyId.length === 0) throw new InvalidArgumentError('keyId', 'must be a non-empty string');
    if (typeof entry.partnerId !== 'string' || entry.partnerId.length === 0) {
      throw new InvalidArgumentError('partnerId', 'must be a non-empty string');
    }
    for (const k of keys) {
      if (k.hashHex === hashHex) throw new InvalidArgumentError('keyHash', `duplicate hash (keyId ${keyId})`);
      if (k.record.keyId === keyId) throw new InvalidArgumentError('keyId', `duplicate keyId ${keyId}`);
    }
    keys.push({
      hash: hexToBytes(hashHex),
      hashHex,
      record: Object.freeze({
        keyId,
        partnerId: entry.partnerId,
        scopes: checkScopes(entry.scopes),
        rateLimit: checkRateLimit(entry.rateLimit),
        revoked: entry.revoked === true,
      }),
    });
  }

  for (const entry of entries) add(entry);

  /** The default digest's answer, at once. */
  function lookupNow(presentedKey: string): ApiKeyRecord | undefined {
    if (typeof presentedKey !== 'string' || presentedKey.length === 0 || presentedKey.length > MAX_API_KEY_LENGTH) return undefined;
    return find(sha256Text(presentedKey));
  }

  const store: InMemoryKeyStore = {
    lookup(presentedKey) {
      if (typeof presentedKey !== 'string' || presentedKey.length === 0 || presentedKey.length > MAX_API_KEY_LENGTH) {
        return Promise.resolve(undefined);
      }
      try {
        // A synchronous digest answers without a trip through the microtask queue or the thread pool.
        if (digest === undefined) return Promise.resolve(lookupNow(presentedKey));
        const hashed = digest(encoder.encode(presentedKey));
        return typeof (hashed as { then?: unknown }).then === 'function'
          ? Promise.resolve(hashed).then(find)
          : Promise.resolve(find(hashed as ArrayBuffer | Uint8Array));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    add,
    revoke(keyId) {
      for (const k of keys) {
        if (k.record.keyId === keyId) {
          k.record = Object.freeze({ ...k.record, revoked: true });
          return true;
        }
      }
      return false;
    },
    get size() {
      return keys.length;
    },
  };
  // With the default digest, the handler's access step takes the answer at once (internal/answers-now.ts).
  if (digest === undefined) registerAnswerNow(store, 'lookup', lookupNow);
  return store;
}
