import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { DEFAULT_KEY_RATE_LIMIT, MAX_API_KEY_LENGTH, createInMemoryKeyStore, hashApiKey } from '../../src/http/index.js';
import { timingSafeEqual } from '../../src/http/key-store.js';
import { runs } from '../support/runs.js';

describe('hashApiKey', () => {
  it('should give the SHA-256 of the UTF-8 bytes in lowercase hex', async () => {
    expect(await hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 64 }), async (key) => {
        expect(await hashApiKey(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
      }),
      { numRuns: runs(30) },
    );
  });
});

describe('timingSafeEqual', () => {
  it('should say equal exactly for equal lengths and bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        const same = a.length === b.length && a.every((x, i) => x === b[i]);
        expect(timingSafeEqual(a, b)).toBe(same);
        expect(timingSafeEqual(a, a.slice())).toBe(true);
      }),
    );
  });
});

describe('createInMemoryKeyStore', () => {
  it('should find a key by its hash, with its partner, scopes and rate limit', async () => {
    // Arrange
    const store = createInMemoryKeyStore([
      { keyHash: await hashApiKey('key-a'), keyId: 'a', partnerId: 'acme', scopes: ['fhir:export'], rateLimit: { limit: 5, windowSeconds: 10 } },
      { keyHash: (await hashApiKey('key-b')).toUpperCase(), partnerId: 'beta', scopes: ['hl7:export', 'hl7:export'] },
    ]);
    // Act
    const a = await store.lookup('key-a');
    const b = await store.lookup('key-b');
    // Assert
    expect(a).toEqual({ keyId: 'a', partnerId: 'acme', scopes: ['fhir:export'], rateLimit: { limit: 5, windowSeconds: 10 }, revoked: false });
    expect(b).toEqual({ keyId: await hashApiKey('key-b'), partnerId: 'beta', scopes: ['hl7:export'], rateLimit: DEFAULT_KEY_RATE_LIMIT, revoked: false });
    expect(await store.lookup('key-c')).toBeUndefined();
    expect(await store.lookup('')).toBeUndefined();
    expect(await store.lookup('key-a ')).toBeUndefined();
  });

  it('should keep no plain key: only the hash is in the store', async () => {
    const store = createInMemoryKeyStore([{ keyHash: await hashApiKey('plain-secret-key'), partnerId: 'p', scopes: [] }]);
    expect(JSON.stringify(store)).not.toContain('plain-secret-key');
    expect(await store.lookup('plain-secret-key')).toBeDefined();
  });

  it('should return a revoked key as revoked, and revoke at run time by keyId', async () => {
    const store = createInMemoryKeyStore([
      { keyHash: await hashApiKey('old'), keyId: 'old', partnerId: 'p', scopes: ['fhir:export'], revoked: true },
      { keyHash: await hashApiKey('live'), keyId: 'live', partnerId: 'p', scopes: ['fhir:export'] },
    ]);
    expect((await store.lookup('old'))?.revoked).toBe(true);
    expect((await store.lookup('live'))?.revoked).toBe(false);
    expect(store.revoke('live')).toBe(true);
    expect(store.revoke('nope')).toBe(false);
    expect((await store.lookup('live'))?.revoked).toBe(true);
  });

  it('should find each key of any characters and length up to the maximum, whatever was looked up before', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc
            .oneof(
              fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
              fc.string({ unit: 'binary', minLength: 1, maxLength: MAX_API_KEY_LENGTH, size: 'max' }),
              // At the maximum length, in UTF-16 code units, of 1-, 2-, 3- and 4-byte UTF-8 characters.
              fc.constantFrom('k'.repeat(MAX_API_KEY_LENGTH), 'é'.repeat(MAX_API_KEY_LENGTH), '€'.repeat(MAX_API_KEY_LENGTH), '😀'.repeat(MAX_API_KEY_LENGTH / 2)),
            )
            // A key over the maximum (astral characters count two units) is unknown without being hashed.
            .filter((key) => key.length <= MAX_API_KEY_LENGTH),
          { minLength: 1, maxLength: 6 },
        ),
        async (keys) => {
          // Arrange: a store of all the keys; lookups alternate long and short ones, so no byte of a longer
          // key looked up before may take part in hashing a shorter one
          const store = createInMemoryKeyStore(await Promise.all(keys.map(async (key, i) => ({ keyHash: await hashApiKey(key), keyId: `k${i}`, partnerId: 'p', scopes: [] }))));
          for (const [i, key] of [...keys.entries(), ...[...keys.entries()].reverse()]) {
            // Act
            const found = await store.lookup(key);
            const truncated = key.slice(0, -1);
            const other = truncated.length > 0 && !keys.includes(truncated) ? await store.lookup(truncated) : undefined;
            // Assert
            expect(found?.keyId).toBe(`k${i}`);
            expect(other).toBeUndefined();
          }
        },
      ),
      { numRuns: runs(40) },
    );
  });

  it('should not hash an oversized presented key', async () => {
    const long = 'k'.repeat(MAX_API_KEY_LENGTH + 1);
    const store = createInMemoryKeyStore([{ keyHash: await hashApiKey(long), partnerId: 'p', scopes: [] }]);
    expect(await store.lookup(long)).toBeUndefined();
  });

  it('should refuse malformed entries and duplicates, naming no hash', async () => {
    const h = await hashApiKey('x');
    const bad = [
      { keyHash: 'abc', partnerId: 'p', scopes: [] },
      { keyHash: h, partnerId: '', scopes: [] },
      { keyHash: h, partnerId: 'p', scopes: ['admin'] },
      { keyHash: h, partnerId: 'p', scopes: [], rateLimit: { limit: 0, windowSeconds: 1 } },
      { keyHash: h, partnerId: 'p', scopes: [], rateLimit: { limit: 1, windowSeconds: 0.5 } },
    ];
    for (const entry of bad) expect(() => createInMemoryKeyStore([entry as never]), JSON.stringify(entry)).toThrow(InvalidArgumentError);
    const store = createInMemoryKeyStore([{ keyHash: h, keyId: 'one', partnerId: 'p', scopes: [] }]);
    expect(() => store.add({ keyHash: h, keyId: 'two', partnerId: 'p', scopes: [] })).toThrow(/duplicate hash/);
    expect(() => store.add({ keyHash: h.replace(/^./, h[0] === '0' ? '1' : '0'), keyId: 'one', partnerId: 'p', scopes: [] })).toThrow(/duplicate keyId/);
    try {
      store.add({ keyHash: h, keyId: 'three', partnerId: 'p', scopes: [] });
    } catch (error) {
      expect((error as Error).message).not.toContain(h);
    }
    expect(store.size).toBe(1);
  });
});

describe('createInMemoryKeyStore with a digest option', () => {
  it('should hash presented keys with the given SHA-256 function, sync or async', async () => {
    const entry = { keyHash: await hashApiKey('key-a'), keyId: 'a', partnerId: 'acme', scopes: ['fhir:export'] as const };
    const calls: number[] = [];
    const sync = createInMemoryKeyStore([entry], { digest: (data) => (calls.push(data.length), createHash('sha256').update(data).digest()) });
    const async = createInMemoryKeyStore([entry], { digest: async (data) => new Uint8Array(createHash('sha256').update(data).digest()).buffer });
    expect((await sync.lookup('key-a'))?.keyId).toBe('a');
    expect(await sync.lookup('key-b')).toBeUndefined();
    expect((await async.lookup('key-a'))?.keyId).toBe('a');
    expect(calls).toEqual([5, 5]);
  });
});
