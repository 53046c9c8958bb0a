/** Unit and property tests of the FHIR helpers: SHA-256, the content hash, base64 of UTF-8, XHTML escaping. */
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64Internals, utf8Base64 } from '../../src/fhir/internal/base64.js';
import { hexToUuidV8, sha256Hex128 } from '../../src/fhir/ids.js';
import { createContentHash } from '../../src/internal/fast-hash.js';
import { sha256 } from '../../src/internal/sha256.js';

/** The full SHA-256 of the UTF-8 text in hex (the package's own SHA-256). */
function sha256Hex(text: string): string {
  return Array.from(sha256(new TextEncoder().encode(text)), (b) => b.toString(16).padStart(2, '0')).join('');
}
import { newestFirst } from '../../src/fhir/internal/bundle.js';
import { sortKey } from '../../src/fhir/internal/sort-key.js';
import { escapeXhtmlText, narrativeDiv, textNarrative } from '../../src/fhir/internal/xhtml.js';
import { isoOrderKey } from '../../src/internal/iso.js';
import { arbIsoDate, arbIsoDateTime } from '../../src/testing/dates.js';
import { parseXhtml } from '../support/fhir-validator.js';
import { runs } from '../support/runs.js';

// eslint-disable-next-line no-control-regex -- finds the C0 control characters FHIR strings forbid
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
/** Any well-formed string (no lone surrogates), from the whole Unicode range. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const arbUnicode = fc.string({ unit: 'binary', maxLength: 300 }).filter((s) => !LONE_SURROGATE.test(s));
/** Chart text: also without the control characters the chart check rejects. */
const arbChartText = arbUnicode.map((s) => s.replace(new RegExp(FORBIDDEN.source, 'g'), ''));

describe('sha256Hex', () => {
  it('should match the FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('should match node:crypto for any UTF-8 text, and sha256Hex128 be its first half', () => {
    fc.assert(
      fc.property(arbUnicode, (text) => {
        const expected = createHash('sha256').update(text, 'utf8').digest('hex');
        expect(sha256Hex(text)).toBe(expected);
        expect(sha256Hex128(text)).toBe(expected.slice(0, 32));
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('createContentHash', () => {
  it('should separate the strings it is fed', () => {
    const digest = (...parts: string[]): string => {
      const h = createContentHash();
      for (const p of parts) h.update(p);
      return h.digestHex();
    };
    expect(digest('ab', 'c')).not.toBe(digest('a', 'bc'));
    expect(digest('a', '')).not.toBe(digest('a'));
    expect(digest('x', 'y')).toBe(digest('x', 'y'));
    expect(digest('x')).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('hexToUuidV8', () => {
  it('should format 32 hex digits as a version-8 variant-10 UUID', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{32}$/), (hex) => {
        const uuid = hexToUuidV8(hex);
        expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(uuid.slice(0, 8)).toBe(hex.slice(0, 8));
      }),
    );
  });
});

describe('utf8Base64', () => {
  it('should equal base64 of the UTF-8 bytes on both paths, with the byte size', () => {
    fc.assert(
      fc.property(fc.oneof(arbUnicode, fc.string({ unit: 'grapheme-ascii' })), (text) => {
        const expected = Buffer.from(text, 'utf8').toString('base64');
        const size = Buffer.byteLength(text, 'utf8');
        expect(utf8Base64(text)).toEqual({ data: expected, size });
        expect(base64Internals.encodeUtf8Base64(text)).toEqual({ data: expected, size });
      }),
      { numRuns: runs(500) },
    );
  });

  it('should encode texts larger than the shared buffers', () => {
    const text = 'é😀a'.repeat(200_000);
    expect(utf8Base64(text).data).toBe(Buffer.from(text, 'utf8').toString('base64'));
    expect(utf8Base64('').data).toBe('');
  });

  it('should encode each text of a sequence on its own, whatever the lengths before it', () => {
    // The kept buffers grow and are reused: a shorter text after a longer one must not see its bytes.
    const texts = ['é'.repeat(65_536), 'é'.repeat(65_537), 'ü'.repeat(3), 'a😀'.repeat(700), 'ß', 'é'.repeat(2_000), 'ñ'.repeat(1_025)];
    for (const text of texts) {
      expect(base64Internals.encodeUtf8Base64(text)).toEqual({ data: Buffer.from(text, 'utf8').toString('base64'), size: Buffer.byteLength(text, 'utf8') });
    }
  });
});

describe('escapeXhtmlText', () => {
  it('should leave text without special characters untouched', () => {
    expect(escapeXhtmlText('Plain text, no markup.')).toBe('Plain text, no markup.');
  });

  it('should escape markup and turn every line break into <br/>', () => {
    expect(escapeXhtmlText('<script>alert("x")</script> & ]]>')).toBe('&lt;script&gt;alert("x")&lt;/script&gt; &amp; ]]&gt;');
    expect(escapeXhtmlText('a\r\nb\rc\nd\n\re')).toBe('a<br/>b<br/>c<br/>d<br/><br/>e');
    expect(escapeXhtmlText('\uFFFE\uFFFF')).toBe('\uFFFD\uFFFD');
  });

  it('should give well-formed XHTML whose text is the input for any text', () => {
    fc.assert(
      fc.property(arbChartText, (text) => {
        const parsed = parseXhtml(narrativeDiv(escapeXhtmlText(text)));
        expect(parsed.errors).toEqual([]);
        expect(parsed.elements.every((e, i) => (i === 0 ? e.name === 'div' : e.name === 'br'))).toBe(true);
        // XML has no way to carry U+FFFE/U+FFFF: they become U+FFFD.
        expect(parsed.text).toBe(text.replace(/\r\n?/g, '\n').replace(/[\uFFFE\uFFFF]/g, '\uFFFD'));
      }),
      { numRuns: runs(500) },
    );
  });
});

describe('textNarrative', () => {
  it('should show a placeholder for text without visible characters', () => {
    expect(textNarrative(' \r\n\t', '(blank note)')).toEqual({
      status: 'generated',
      div: '<div xmlns="http://www.w3.org/1999/xhtml"><p>(blank note)</p></div>',
    });
    expect(textNarrative('\u00A0', 'x').div).toBe('<div xmlns="http://www.w3.org/1999/xhtml">\u00A0</div>');
  });
});

describe('sortKey', () => {
  it('should equal isoOrderKey for every checked date and date-time', () => {
    fc.assert(
      fc.property(fc.oneof(arbIsoDate(), arbIsoDateTime()), (value) => {
        expect(sortKey(value)).toBe(isoOrderKey(value));
      }),
      { numRuns: runs(1000) },
    );
    for (const v of ['0050-01-01', '0001', '2026-03-01T09:30:00.5-05:00', '2016-12-31T23:59:60Z', '2016-12-31T23:59:60.25-05:45', '2026-03-01T00:00:00.1234+14:00', '9999-12-31T23:59:60.9999-12:00']) {
      expect(sortKey(v)).toBe(isoOrderKey(v));
    }
    expect(sortKey(undefined)).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('newestFirst', () => {
  // The reference: every record's keys by isoOrderKey (the independent parser), compared key by key, newest
  // first, missing last, by the engine's stable sort; equal keys keep chart order.
  const reference = <T>(records: readonly T[], limit: number, keys: (r: T) => readonly (string | undefined)[]): T[] =>
    records
      .map((record) => ({ record, keys: keys(record).map(isoOrderKey) }))
      .sort((a, b) => {
        for (let k = 0; k < a.keys.length; k++) {
          const x = a.keys[k] as number;
          const y = b.keys[k] as number;
          if (x !== y) return x < y ? 1 : -1;
        }
        return 0;
      })
      .slice(0, limit)
      .map((d) => d.record);
  const arbKey = fc.option(fc.oneof(arbIsoDate(), arbIsoDateTime(), fc.constantFrom('2024-01-01', '2024-01-01T00:00:00Z')), { nil: undefined });

  it('should order newest first, missing last, ties in chart order, and keep the newest limit (small and large lists)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arbKey, arbKey), { maxLength: 40 }),
        fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 45 })),
        (pairs, limit) => {
          // Objects, so equal keys of different records stay told apart.
          const records = pairs.map(([a, b], i) => ({ i, a, b }));
          const keys = (r: { a: string | undefined; b: string | undefined }): readonly (string | undefined)[] => [r.a, r.b];
          expect(newestFirst(records, limit, keys)).toEqual(reference(records, limit, keys));
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
