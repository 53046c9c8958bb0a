/**
 * The record cache of the PostgreSQL source (src/postgres/record-cache.ts): a record is the parse of its
 * row's text, frozen once checked; the same text read again gives the same object while it is kept; a
 * record read again regularly stays kept while others come and go; the characters kept stay bounded; a
 * table's record never comes back for another table's row of the same text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRecordCache, type RecordTable } from '../../src/postgres/record-cache.js';
import { runs } from '../support/runs.js';

const patientText = (id: string, pad = ''): string =>
  JSON.stringify({ id, identifiers: [{ system: 'urn:oid:1.2.3', value: `MRN-${id}${pad}` }], names: [{ family: 'Quintero' }] });

describe('createRecordCache', () => {
  it('should give the parse of the text, the same frozen object while kept, for any sequence of reads', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 4000 }), (reads, maxChars) => {
        const cache = createRecordCache(maxChars);
        let previous: { text: string; record: unknown } | undefined;
        for (const i of reads) {
          const text = patientText(`p${i}`, 'x'.repeat(i * 3));
          const record = cache.read('patients', text);
          expect(record).toEqual(JSON.parse(text));
          expect(Object.isFrozen(record)).toBe(maxChars >= text.length);
          // The text just read is kept: read again at once, it is the same object.
          if (previous?.text === text && maxChars >= text.length) expect(record).toBe(previous.record);
          previous = { text, record };
        }
      }),
      { numRuns: runs(100) },
    );
  });

  it('should keep a record read again regularly while others pass through, and let go of the others', () => {
    const hot = patientText('hot');
    const maxChars = 20 * hot.length;
    const cache = createRecordCache(maxChars);
    const first = cache.read('patients', hot);
    const cold = patientText('c0');
    const coldFirst = cache.read('patients', cold);
    for (let i = 1; i < 500; i++) {
      cache.read('patients', patientText(`c${i}`));
      expect(cache.read('patients', hot)).toBe(first);
    }
    // The first cold record went long ago: read again, it is a new (equal) object.
    const coldAgain = cache.read('patients', cold);
    expect(coldAgain).not.toBe(coldFirst);
    expect(coldAgain).toEqual(coldFirst);
  });

  it('should keep at most maxChars characters: a record read within the bound is kept, one further back is not', () => {
    const texts = Array.from({ length: 40 }, (_, i) => patientText(`p${String(i).padStart(2, '0')}`));
    const size = texts[0]?.length as number;
    const cache = createRecordCache(10 * size);
    const records = texts.map((text) => cache.read('patients', text));
    // The last ten fit in the bound; the first ten were let go.
    for (let i = 30; i < 40; i++) expect(cache.read('patients', texts[i] as string)).toBe(records[i]);
    for (let i = 0; i < 10; i++) expect(cache.read('patients', texts[i] as string)).not.toBe(records[i]);
  });

  it('should never give one table a record kept for another table', () => {
    const text = JSON.stringify({ id: 'org-1', name: 'Springfield Clinic' });
    const cache = createRecordCache(10_000);
    const tables: RecordTable[] = ['organizations', 'locations', 'organizations', 'locations'];
    const records = tables.map((table) => cache.read(table, text));
    expect(records[0]).toBe(records[2]);
    expect(records[1]).not.toBe(records[0]);
    expect(records[3]).not.toBe(records[0]);
    for (const record of records) expect(record).toEqual(JSON.parse(text));
  });

  it('should parse every read afresh with maxChars 0', () => {
    const cache = createRecordCache(0);
    const text = patientText('p1');
    const a = cache.read('patients', text);
    expect(cache.read('patients', text)).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(false);
  });
});
