/**
 * `createPostgresKeyStore` against a real PostgreSQL: only hashes stored, lookups through the handler, and
 * a revocation made on one instance seen by a second within the cache time, without a reload.
 */
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/http/index.js';
import { createPostgresKeyStore, migratePostgres } from '../../src/postgres/index.js';
import { fixtureOptions, serve } from '../http/support/harness.js';
import { freshSchema, usePostgres } from './support.js';
import { CHART_DOCUMENT } from '../http/support/fixture.js';

const db = usePostgres();

const PATIENT = encodeURIComponent(CHART_DOCUMENT.patients[0]?.patient.id as string);

describe('createPostgresKeyStore', () => {
  it('should store the hash only, and find the key by it', async () => {
    const schema = freshSchema('keys');
    await migratePostgres({ pool: db.pool, schema });
    const store = createPostgresKeyStore({ pool: db.pool, schema });
    const key = 'k-0123456789-secret-key-material';
    await store.add({ keyHash: await hashApiKey(key), keyId: 'acme-1', partnerId: 'acme', scopes: ['fhir:export'], rateLimit: { limit: 5, windowSeconds: 60 } });
    const dump = JSON.stringify((await db.pool.query(`SELECT * FROM "${schema}".api_keys`)).rows);
    expect(dump).not.toContain(key);
    expect(dump).toContain(await hashApiKey(key));
    expect(await store.lookup(key)).toEqual({ keyId: 'acme-1', partnerId: 'acme', scopes: ['fhir:export'], rateLimit: { limit: 5, windowSeconds: 60 }, revoked: false });
    expect(await store.lookup('another key')).toBeUndefined();
    expect(await store.lookup('x'.repeat(600))).toBeUndefined();
    // A key id or hash already stored is refused without the value in the message.
    await expect(store.add({ keyHash: await hashApiKey(key), keyId: 'acme-2', partnerId: 'acme', scopes: ['fhir:export'] })).rejects.toThrow(/keyHash/);
    await expect(store.add({ keyHash: await hashApiKey('other'), keyId: 'acme-1', partnerId: 'acme', scopes: ['fhir:export'] })).rejects.toThrow(/keyId/);
    await expect(store.add({ keyHash: 'ABC', keyId: 'x', partnerId: 'acme', scopes: ['fhir:export'] })).rejects.toThrow(/keyHash/);
    await expect(store.add({ keyHash: await hashApiKey('y'), keyId: 'y', partnerId: 'acme', scopes: ['admin' as never] })).rejects.toThrow(/scopes/);
    expect((await store.list()).map((k) => [k.keyId, k.revoked])).toEqual([['acme-1', false]]);
  });

  it('should make a revocation on one instance seen by a second within the cache time, without a reload', async () => {
    // Arrange: two instances, each with its own key store (own cache) over one database.
    const schema = freshSchema('revoke');
    await migratePostgres({ pool: db.pool, schema });
    const first = createPostgresKeyStore({ pool: db.pool, schema, cacheTtlMs: 300 });
    const second = createPostgresKeyStore({ connectionString: db.server.url, schema, cacheTtlMs: 300 });
    const key = 'partner-key-for-revocation-test';
    await first.add({ keyHash: await hashApiKey(key), keyId: 'p-1', partnerId: 'p', scopes: ['fhir:export', 'hl7:export'] });
    const callFirst = await serve('fetch', await fixtureOptions({ keyStore: first }));
    const callSecond = await serve('fetch', await fixtureOptions({ keyStore: second }));
    const target = `/exportFhirPatient?patientId=${PATIENT}`;
    const headers = { 'x-api-key': key };
    try {
      expect((await callFirst(target, { headers })).status).toBe(200);
      expect((await callSecond(target, { headers })).status).toBe(200);
      // Act
      expect(await first.revoke('p-1')).toBe(true);
      const revokedAt = Date.now();
      // Assert: the first at once, the second within its cache time.
      expect((await callFirst(target, { headers })).status).toBe(401);
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 3000) {
        status = (await callSecond(target, { headers })).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(300 + 500);
      expect(await first.revoke('no-such-key')).toBe(false);
      expect((await second.list())[0]?.revokedAt).toBeInstanceOf(Date);
    } finally {
      await second.close();
    }
  });

  it('should answer 503 when PostgreSQL is unreachable and nothing is cached', async () => {
    const store = createPostgresKeyStore({ connectionString: 'postgres://postgres@127.0.0.1:1/none', cacheTtlMs: 0 });
    const call = await serve('fetch', await fixtureOptions({ keyStore: store }));
    const res = await call(`/exportFhirPatient?patientId=${PATIENT}`, { headers: { 'x-api-key': 'anything' } });
    expect(res.status).toBe(503);
    await store.close();
  });
});
