import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/internal/sha256.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const reference = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('sha256', () => {
  it('should give the FIPS 180-4 example digests', () => {
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('should equal node:crypto for every length around the padding boundaries', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(hex(sha256(bytes))).toBe(reference(bytes));
    }
  });

  it('should equal node:crypto for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), (text) => {
        const bytes = new TextEncoder().encode(text);
        expect(hex(sha256(bytes))).toBe(reference(bytes));
      }),
    );
  });
});
