/**
 * New request ids (src/http/internal/request-id.ts): random version 4 UUIDs in `crypto.randomUUID()`'s form,
 * written from a pool of random bytes. Checked against an independent formatting of the same bytes.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runs } from '../support/runs.js';

/** RFC 9562 version 4, variant 10, lowercase: the form `crypto.randomUUID()` gives. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The module afresh (its pool starts empty), with `crypto.getRandomValues` as given. */
async function freshModule(getRandomValues?: (bytes: Uint8Array) => Uint8Array): Promise<typeof import('../../src/http/internal/request-id.js')> {
  vi.resetModules();
  if (getRandomValues !== undefined) vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(getRandomValues as never);
  return import('../../src/http/internal/request-id.js');
}

/** The UUID of 16 random bytes, written independently: hex of the bytes, version and variant set, hyphens. */
function referenceUuid(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes);
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('newRequestId', () => {
  it('should write each 16 bytes of the random source as the UUID an independent formatting gives, across pool refills', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 16, maxLength: 16 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 255 }), async (ids, skip) => {
        // Arrange: a random source that hands out a known stream of bytes (the ids' bytes after `skip` ids of filler).
        const stream = [...Array.from({ length: skip }, () => new Uint8Array(16)), ...ids];
        let at = 0;
        let fills = 0;
        const { newRequestId } = await freshModule((pool) => {
          fills += 1;
          for (let i = 0; i < pool.length; i += 16) pool.set(stream[at++ % stream.length] as Uint8Array, i);
          return pool;
        });
        // Act: draw past the filler, so the ids may straddle a refill of the pool.
        for (let i = 0; i < skip; i++) newRequestId();
        const got = ids.map(() => newRequestId());
        // Assert
        expect(got).toEqual(ids.map(referenceUuid));
        expect(fills).toBe(Math.ceil((skip + ids.length) / 256));
      }),
      { numRuns: runs(50) },
    );
  });

  it('should give distinct version 4 UUIDs whose random digits take every value, as crypto.randomUUID does', async () => {
    const { newRequestId } = await freshModule();
    const ids = Array.from({ length: 4096 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex position that is random sees all 16 digits (missing one in 4096 draws: odds below 1e-100).
    for (let i = 0; i < 36; i++) {
      if ([8, 13, 14, 18, 23].includes(i)) continue;
      const digits = new Set(ids.map((id) => id[i]));
      // Position 19 holds the variant: 8, 9, a or b.
      expect(digits.size).toBe(i === 19 ? 4 : 16);
    }
    expect(randomUUID()).toMatch(UUID_V4);
  });
});
