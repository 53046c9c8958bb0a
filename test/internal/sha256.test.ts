import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256, sha256Text } from '../../src/internal/sha256.js';

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

describe('sha256Text', () => {
  it('should equal node:crypto over the UTF-8 bytes for every ASCII length around the one-block limit', () => {
    for (let n = 0; n <= 130; n++) {
      const text = Array.from({ length: n }, (_, i) => String.fromCharCode(0x20 + ((i * 7 + n) % 95))).join('');
      expect(hex(sha256Text(text))).toBe(reference(Buffer.from(text, 'utf8')));
    }
  });

  it('should equal node:crypto for any text, one call after another (the reused block keeps nothing of the last)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 70 }), fc.string({ unit: 'grapheme', maxLength: 60 })), { minLength: 1, maxLength: 4 }), (texts) => {
        for (const text of texts) expect(hex(sha256Text(text))).toBe(reference(Buffer.from(text, 'utf8')));
      }),
    );
  });
});
