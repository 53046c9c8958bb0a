/**
 * The access step takes the in-memory key store's and rate limiter's answers at once (src/http/internal/
 * answers-now.ts), and calls a method a host swapped in on those objects as it would any store's.
 */
import { describe, expect, it } from 'vitest';
import { createExportHandler, createFixedWindowRateLimiter, createInMemoryKeyStore, type ExportHandler } from '../../src/http/index.js';
import { answerNow } from '../../src/http/internal/answers-now.js';
import { KEYS, PATIENT_ID } from './support/fixture.js';
import { fixtureKeys, fixtureOptions } from './support/harness.js';

const PATH = `http://localhost/exportFhirPatient?patientId=${encodeURIComponent(PATIENT_ID)}`;
const get = (handler: ExportHandler, key: string): Promise<Response> => handler(new Request(PATH, { headers: { 'x-api-key': key } }));

describe('answerNow', () => {
  it('should give the synchronous form of the in-memory stores while they hold their own methods', async () => {
    const keyStore = createInMemoryKeyStore(await fixtureKeys());
    const limiter = createFixedWindowRateLimiter({ now: () => 0 });
    expect(answerNow(keyStore, 'lookup')).toBeTypeOf('function');
    expect(answerNow(limiter, 'consume')).toBeTypeOf('function');
    expect(answerNow(limiter, 'lookup')).toBeUndefined();
    // A store with its own digest hashes asynchronously: no synchronous answer.
    expect(answerNow(createInMemoryKeyStore(await fixtureKeys(), { digest: (d) => d }), 'lookup')).toBeUndefined();
  });

  it('should call a lookup and a consume that a host swapped in on the in-memory objects', async () => {
    // Arrange: spies replace the methods after creation.
    const keyStore = createInMemoryKeyStore(await fixtureKeys());
    const rateLimiter = createFixedWindowRateLimiter({ now: () => 0 });
    const lookups: string[] = [];
    const own = keyStore.lookup.bind(keyStore);
    keyStore.lookup = (key) => {
      lookups.push('called');
      return own(key);
    };
    rateLimiter.consume = () => Promise.resolve({ allowed: false, limit: 1, remaining: 0, reset: 60, retryAfter: 42 });
    const handler = createExportHandler(await fixtureOptions({ keyStore, rateLimiter }));
    // Act
    const res = await get(handler, KEYS.both);
    // Assert: the swapped methods answered.
    expect(lookups).toEqual(['called']);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
    expect(answerNow(keyStore, 'lookup')).toBeUndefined();
  });

  it('should give the same answers at once as through the promises: limits counted, revocation seen', async () => {
    const keyStore = createInMemoryKeyStore(await fixtureKeys());
    const handler = createExportHandler(await fixtureOptions({ keyStore }));
    const answers = [await get(handler, KEYS.tiny), await get(handler, KEYS.tiny), await get(handler, KEYS.tiny)];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['1', '0', '0']);
    expect((await get(handler, KEYS.both)).status).toBe(200);
    expect(keyStore.revoke('both')).toBe(true);
    expect((await get(handler, KEYS.both)).status).toBe(401);
  });
});
