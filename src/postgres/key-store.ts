/**
 * `createPostgresKeyStore`: API keys in the package's `api_keys` table, shared by every instance. Only the
 * SHA-256 hash of a key is stored (`hashApiKey`). Lookups are cached per instance for `cacheTtlMs` (default
 * 2 s), so a revocation is seen by every instance within that time, without SIGHUP or a restart.
 */
import { InvalidArgumentError } from '../index.js';
import {
  API_KEY_SCOPES,
  DEFAULT_KEY_RATE_LIMIT,
  MAX_API_KEY_LENGTH,
  hashApiKey,
  type ApiKeyRateLimit,
  type ApiKeyRecord,
  type ApiKeyScope,
  type KeyStore,
} from '../http/index.js';
import { openConnection, runQuery, type Connection, type PostgresConnectionOptions } from './connection.js';

/** Options of {@link createPostgresKeyStore}. */
export interface PostgresKeyStoreOptions extends PostgresConnectionOptions {
  /**
   * How long an instance reuses what it read about a key (found, revoked or unknown), in milliseconds: the
   * longest a revocation (or a new key) takes to be seen by every instance. 0 reads the table on every
   * request. Default 2000.
   */
  readonly cacheTtlMs?: number | undefined;
  /** At most this many keys (presented key hashes) are cached; the oldest entry goes first. Default 10 000. */
  readonly cacheSize?: number | undefined;
  /** The clock of the cache, in milliseconds (tests). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** A key to add: its hash (never the key) and its record. */
export interface PostgresKeyEntry {
  /** SHA-256 of the key as 64 hexadecimal digits (see `hashApiKey`). */
  readonly keyHash: string;
  /** The key's non-secret name, unique. */
  readonly keyId: string;
  /** The partner the key is issued to. */
  readonly partnerId: string;
  /** The scopes granted. */
  readonly scopes: readonly ApiKeyScope[];
  /** Its rate limit; default 600 per 60 s. */
  readonly rateLimit?: ApiKeyRateLimit | undefined;
}

/** A stored key as {@link PostgresKeyStore.list} shows it: the record and when it was made and revoked. */
export interface PostgresKeyListing extends ApiKeyRecord {
  /** When it was added. */
  readonly createdAt: Date;
  /** When it was revoked, if it was. */
  readonly revokedAt: Date | undefined;
}

/** The PostgreSQL key store: lookups for the handler, and the operator's add, revoke and list. */
export interface PostgresKeyStore extends KeyStore {
  /**
   * Add a key (its hash only).
   * @throws {InvalidArgumentError} for a malformed entry, or a `keyId` or hash already stored
   */
  add(entry: PostgresKeyEntry): Promise<void>;
  /**
   * Revoke a key by its `keyId` (idempotent): every instance answers 401 for it within `cacheTtlMs`.
   * @returns true when the key exists
   */
  revoke(keyId: string): Promise<boolean>;
  /** Every key, by `keyId` (no hash, no key). */
  list(): Promise<readonly PostgresKeyListing[]>;
  /** End the pool when the store made it. */
  close(): Promise<void>;
}

const HEX_RE = /^[0-9a-f]{64}$/;
const KEY_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

function checkEntry(entry: PostgresKeyEntry): { rateLimit: ApiKeyRateLimit; scopes: readonly ApiKeyScope[] } {
  if (typeof entry !== 'object' || entry === null) throw new InvalidArgumentError('entry', 'must be an object');
  if (typeof entry.keyHash !== 'string' || !HEX_RE.test(entry.keyHash)) throw new InvalidArgumentError('keyHash', 'must be a SHA-256 digest as 64 lowercase hexadecimal digits');
  if (typeof entry.keyId !== 'string' || !KEY_ID_RE.test(entry.keyId)) throw new InvalidArgumentError('keyId', 'must be 1–128 characters of A–Z a–z 0–9 . _ : -');
  if (typeof entry.partnerId !== 'string' || entry.partnerId.length === 0 || entry.partnerId.length > 200) {
    throw new InvalidArgumentError('partnerId', 'must be a non-empty string of at most 200 characters');
  }
  if (!Array.isArray(entry.scopes) || entry.scopes.length === 0 || entry.scopes.some((x) => !(API_KEY_SCOPES as readonly unknown[]).includes(x))) {
    throw new InvalidArgumentError('scopes', `must list one or more of ${API_KEY_SCOPES.join(', ')}`);
  }
  const rateLimit = entry.rateLimit ?? DEFAULT_KEY_RATE_LIMIT;
  const ok = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 1 && (n as number) <= 2 ** 31 - 1;
  if (typeof rateLimit !== 'object' || rateLimit === null || !ok(rateLimit.limit) || !ok(rateLimit.windowSeconds)) {
    throw new InvalidArgumentError('rateLimit', 'must have a positive integer limit and windowSeconds');
  }
  return { rateLimit, scopes: [...new Set(entry.scopes)] };
}

function recordOf(row: Record<string, unknown>): ApiKeyRecord {
  return Object.freeze({
    keyId: row['key_id'] as string,
    partnerId: row['partner_id'] as string,
    // Scopes outside the known ones (written by hand) grant nothing: the handler compares each exactly.
    scopes: Object.freeze([...(row['scopes'] as ApiKeyScope[])]),
    rateLimit: Object.freeze({ limit: Number(row['rate_limit']), windowSeconds: Number(row['window_seconds']) }),
    revoked: row['revoked'] === true,
  });
}

/** Insert a key (see {@link PostgresKeyStore.add}). */
async function addKey(connection: Connection, entry: PostgresKeyEntry): Promise<void> {
  const { rateLimit, scopes } = checkEntry(entry);
  try {
    await runQuery(
      connection,
      `INSERT INTO ${connection.schema}.api_keys (key_id, key_hash, partner_id, scopes, rate_limit, window_seconds) VALUES ($1, $2, $3, $4, $5, $6)`,
      [entry.keyId, entry.keyHash, entry.partnerId, scopes, rateLimit.limit, rateLimit.windowSeconds],
      undefined,
    );
  } catch (error) {
    // 23505: unique violation. Which one is named by the constraint, never by the value.
    if ((error as { code?: unknown } | null)?.code === '23505') {
      const onHash = String((error as { constraint?: unknown }).constraint ?? '').includes('hash');
      throw new InvalidArgumentError(onHash ? 'keyHash' : 'keyId', onHash ? 'is already stored (under another keyId)' : 'is already used by another key');
    }
    throw error;
  }
}

/** Revoke a key; the hashes of the rows revoked (none when the key id is unknown). */
async function revokeKey(connection: Connection, keyId: string): Promise<string[]> {
  if (typeof keyId !== 'string') throw new InvalidArgumentError('keyId', 'must be a string');
  const result = await runQuery(
    connection,
    `UPDATE ${connection.schema}.api_keys SET revoked = true, revoked_at = coalesce(revoked_at, now()) WHERE key_id = $1 RETURNING key_hash`,
    [keyId],
    undefined,
  );
  return result.rows.map((row) => String(row['key_hash']));
}

async function listKeys(connection: Connection): Promise<readonly PostgresKeyListing[]> {
  const result = await runQuery(
    connection,
    `SELECT key_id, partner_id, scopes, rate_limit, window_seconds, revoked, created_at, revoked_at FROM ${connection.schema}.api_keys ORDER BY key_id`,
    [],
    undefined,
  );
  return result.rows.map((row) =>
    Object.freeze({ ...recordOf(row), createdAt: row['created_at'] as Date, revokedAt: (row['revoked_at'] as Date | null) ?? undefined }),
  );
}

/**
 * Create a key store over the package's `api_keys` table (migrated first: `migratePostgres`). A lookup
 * hashes the presented key and reads the row with that hash (a unique index); the answer, found or not, is
 * reused for `cacheTtlMs` (default 2 s), so each instance reads a key at most once per that time, and a
 * revocation made anywhere (`revoke`, `chart-export keys revoke`) is seen everywhere within it. While
 * PostgreSQL is unreachable, cached answers still serve until they expire; then lookups reject with
 * `DataSourceUnavailableError` (503).
 *
 * @param options - a `pg` pool or a connection string, the schema, the cache's time and size
 * @returns the key store; `close()` ends a pool it made
 * @throws {InvalidArgumentError} for unusable options
 * @example
 * const keyStore = createPostgresKeyStore({ connectionString: process.env.DATABASE_URL, cacheTtlMs: 2000 });
 * await keyStore.add({ keyHash: await hashApiKey(key), keyId: 'acme-1', partnerId: 'acme', scopes: ['fhir:export'] });
 */
export function createPostgresKeyStore(options: PostgresKeyStoreOptions): PostgresKeyStore {
  const connection = openConnection(options, 'createPostgresKeyStore');
  const s = connection.schema;
  const ttl = options.cacheTtlMs ?? 2000;
  if (!Number.isSafeInteger(ttl) || ttl < 0) throw new InvalidArgumentError('options.cacheTtlMs', 'must be a non-negative integer');
  const size = options.cacheSize ?? 10_000;
  if (!Number.isSafeInteger(size) || size < 1) throw new InvalidArgumentError('options.cacheSize', 'must be a positive integer');
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new InvalidArgumentError('options.now', 'must be a function');
  /** Presented-key hash → answer and expiry; a Map keeps insertion order, so the first entry is the oldest. */
  const cache = new Map<string, { record: ApiKeyRecord | undefined; expires: number }>();
  /** Lookups in flight by hash: concurrent requests with one key share one query. */
  const pending = new Map<string, Promise<ApiKeyRecord | undefined>>();
  const lookupSql = `SELECT key_id, partner_id, scopes, rate_limit, window_seconds, revoked FROM ${s}.api_keys WHERE key_hash = $1`;

  async function read(hash: string): Promise<ApiKeyRecord | undefined> {
    const result = await runQuery(connection, lookupSql, [hash], undefined);
    const row = result.rows[0];
    const record = row === undefined ? undefined : recordOf(row);
    if (ttl > 0) {
      cache.delete(hash);
      cache.set(hash, { record, expires: now() + ttl });
      if (cache.size > size) cache.delete(cache.keys().next().value as string);
    }
    return record;
  }

  return {
    async lookup(presentedKey) {
      if (typeof presentedKey !== 'string' || presentedKey.length === 0 || presentedKey.length > MAX_API_KEY_LENGTH) return undefined;
      const hash = await hashApiKey(presentedKey);
      const cached = cache.get(hash);
      if (cached !== undefined && cached.expires > now()) return cached.record;
      let inFlight = pending.get(hash);
      if (inFlight === undefined) {
        inFlight = read(hash).finally(() => pending.delete(hash));
        pending.set(hash, inFlight);
      }
      return inFlight;
    },
    async add(entry) {
      await addKey(connection, entry);
      cache.delete(entry.keyHash);
    },
    async revoke(keyId) {
      const hashes = await revokeKey(connection, keyId);
      for (const hash of hashes) cache.delete(hash);
      return hashes.length > 0;
    },
    list: () => listKeys(connection),
    close: () => connection.close(),
  };
}
