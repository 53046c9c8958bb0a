/**
 * The paged public directory: a searchset with absolute `self` and `next` links, `_count` beside `limit`, an
 * opaque keyset cursor that stays valid while records are added or removed, 400 for a cursor that was not
 * given out unchanged; a source without keyset pages keeps today's first page without `next`.
 */
import fc from 'fast-check';
import type * as fhir from 'fhir/r4';
import { describe, expect, it } from 'vitest';
import {
  compareIds,
  createExportHandler,
  createInMemoryDataSource,
  type ChartDataSource,
  type KeysetPage,
} from '../../src/http/index.js';
import type { DirectoryOrganization } from '../../src/index.js';
import { decodeCursor, encodeCursor } from '../../src/http/routes/directory-cursor.js';
import { runs } from '../support/runs.js';
import { describeMatrix, fixtureOptions, serve } from './support/harness.js';

const org = (id: string): DirectoryOrganization => ({ id, name: `Organization ${id}` });

/** A host's source over a directory of organizations that the test changes between requests. */
function mutableSource(ids: Iterable<string>, paged = true): { source: ChartDataSource; records: Map<string, DirectoryOrganization> } {
  const records = new Map<string, DirectoryOrganization>([...ids].map((id) => [id, org(id)]));
  const base = createInMemoryDataSource({ patients: [] });
  const sorted = (): DirectoryOrganization[] => [...records.values()].sort((a, b) => compareIds(a.id, b.id));
  const source: ChartDataSource = {
    ...base,
    listOrganizations: (limit) => Promise.resolve([...records.values()].slice(0, limit)),
    getOrganization: (id) => Promise.resolve(records.get(id)),
  };
  if (paged) {
    source.listOrganizationsPage = (page: KeysetPage) =>
      Promise.resolve(sorted().filter((o) => page.after === undefined || compareIds(o.id, page.after) > 0).slice(0, page.limit));
  } else {
    delete (source as { listOrganizationsPage?: unknown }).listOrganizationsPage;
  }
  return { source, records };
}

async function handlerOver(source: ChartDataSource, extra: Record<string, unknown> = {}): Promise<(path: string) => Promise<{ status: number; bundle: fhir.Bundle }>> {
  const handler = createExportHandler(await fixtureOptions({ dataSource: source, ...extra }));
  return async (path) => {
    const response = await handler(new Request(new URL(path, 'https://api.example.org').href));
    return { status: response.status, bundle: (await response.json()) as fhir.Bundle };
  };
}

const link = (bundle: fhir.Bundle, relation: string): string | undefined => bundle.link?.find((l) => l.relation === relation)?.url;

describeMatrix('publicFhirDirectory paging', (mode) => {
  it('should walk every record once, in id order, following absolute next links', async () => {
    const call = await serve(mode, await fixtureOptions({ dataSource: mutableSource(Array.from({ length: 23 }, (_, i) => `org-${String(i).padStart(3, '0')}`)).source }));
    let path: string | undefined = '/publicFhirDirectory?resourceType=Organization&_count=5';
    const seen: string[] = [];
    let pages = 0;
    while (path !== undefined) {
      const res = await call(path);
      expect(res.status).toBe(200);
      const bundle = JSON.parse(res.body) as fhir.Bundle;
      expect(bundle.type).toBe('searchset');
      const self = link(bundle, 'self') as string;
      expect(self).toMatch(/^http:\/\/127\.0\.0\.1(:\d+)?\/publicFhirDirectory\?resourceType=Organization&_count=5/);
      expect(new URL(self).pathname + new URL(self).search).toBe(path);
      seen.push(...(bundle.entry ?? []).map((e) => (e.resource as fhir.Organization).id as string));
      const next = link(bundle, 'next');
      path = next === undefined ? undefined : new URL(next).pathname + new URL(next).search;
      pages++;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => `org-${String(i).padStart(3, '0')}`));
  });

  it('should refuse a malformed, edited or foreign cursor with a 400 OperationOutcome', async () => {
    const call = await serve(mode, await fixtureOptions());
    const good = encodeCursor('Organization', 'org-001');
    const edited = `${good.slice(0, -2)}${good.endsWith('A') ? 'B' : 'A'}${good.slice(-1)}`;
    for (const cursor of ['%00', 'not*base64', edited, encodeCursor('Location', 'org-001'), 'A'.repeat(2000), `${good}=`]) {
      const res = await call(`/publicFhirDirectory?resourceType=Organization&_cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      const outcome = JSON.parse(res.body) as fhir.OperationOutcome;
      expect(outcome.resourceType).toBe('OperationOutcome');
      expect(outcome.issue[0]?.code).toBe('value');
    }
    expect((await call(`/publicFhirDirectory?resourceType=Organization&_cursor=${good}`)).status).toBe(200);
  });
});

describe('publicFhirDirectory paging (fetch handler)', () => {
  it('should let _count win over limit, clamp it to the maximum, and give no next for _count=0', async () => {
    const call = await handlerOver(mutableSource(Array.from({ length: 30 }, (_, i) => `o${i}`)).source, { limits: { directory: { default: 10, max: 12 } } });
    expect((await call('/publicFhirDirectory?resourceType=Organization')).bundle.entry).toHaveLength(10);
    expect((await call('/publicFhirDirectory?resourceType=Organization&limit=3')).bundle.entry).toHaveLength(3);
    const both = (await call('/publicFhirDirectory?resourceType=Organization&limit=3&_count=4')).bundle;
    expect(both.entry).toHaveLength(4);
    expect(link(both, 'next')).toContain('_count=4&_cursor=');
    expect((await call('/publicFhirDirectory?resourceType=Organization&_count=99')).bundle.entry).toHaveLength(12);
    const zero = (await call('/publicFhirDirectory?resourceType=Organization&_count=0')).bundle;
    expect(zero.entry).toBeUndefined();
    expect(link(zero, 'next')).toBeUndefined();
    expect((await call('/publicFhirDirectory?resourceType=Organization&_count=-1')).status).toBe(400);
  });

  it('should keep today’s first page, without next, over a source without keyset pages, and refuse a cursor there', async () => {
    const { source } = mutableSource(['b', 'a', 'c'], false);
    const call = await handlerOver(source);
    const { status, bundle } = await call('/publicFhirDirectory?resourceType=Organization&_count=2');
    expect(status).toBe(200);
    expect(bundle.entry?.map((e) => e.resource?.id)).toEqual(['b', 'a']);
    expect(bundle.link).toEqual([{ relation: 'self', url: 'https://api.example.org/publicFhirDirectory?resourceType=Organization&_count=2' }]);
    expect((await call(`/publicFhirDirectory?resourceType=Organization&_cursor=${encodeCursor('Organization', 'a')}`)).status).toBe(400);
  });

  it('should make links under fhir.baseUrl when it is set', async () => {
    const call = await handlerOver(mutableSource(['a', 'b']).source, { fhir: { baseUrl: 'https://fhir.example.net/r4/' } });
    const { bundle } = await call('/publicFhirDirectory?resourceType=Organization&_count=1');
    expect(link(bundle, 'self')).toBe('https://fhir.example.net/r4/publicFhirDirectory?resourceType=Organization&_count=1');
    expect(link(bundle, 'next')?.startsWith('https://fhir.example.net/r4/publicFhirDirectory?resourceType=Organization&_count=1&_cursor=')).toBe(true);
  });

  it('should answer 500, never a page, when a source’s keyset page is out of order', async () => {
    const { source } = mutableSource(['a', 'b', 'c']);
    source.listOrganizationsPage = () => Promise.resolve([org('b'), org('a')]);
    expect((await (await handlerOver(source))('/publicFhirDirectory?resourceType=Organization&_count=5')).status).toBe(500);
  });

  it('should give every record present throughout a walk exactly once, while records are added and removed between pages', async () => {
    const arbId = fc.stringMatching(/^[a-z0-9-]{1,6}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(arbId, { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.record({ add: fc.array(arbId, { maxLength: 3 }), remove: fc.array(fc.nat(), { maxLength: 3 }) }), { maxLength: 12 }),
        async (initial, count, changes) => {
          const { source, records } = mutableSource(initial);
          const call = await handlerOver(source);
          const everPresent = new Set(initial);
          const alwaysPresent = new Set(initial);
          const seen: string[] = [];
          let path: string | undefined = `/publicFhirDirectory?resourceType=Organization&_count=${count}`;
          for (let page = 0; path !== undefined; page++) {
            const { status, bundle } = await call(path);
            expect(status).toBe(200);
            seen.push(...(bundle.entry ?? []).map((e) => e.resource?.id as string));
            const next = link(bundle, 'next');
            path = next === undefined ? undefined : next.slice('https://api.example.org'.length);
            // Between pages: add and remove records.
            const change = changes[page % Math.max(changes.length, 1)];
            for (const id of change?.add ?? []) {
              records.set(id, org(id));
              everPresent.add(id);
            }
            const present = [...records.keys()];
            for (const i of change?.remove ?? []) {
              const id = present[i % Math.max(present.length, 1)];
              if (id === undefined) continue;
              records.delete(id);
              alwaysPresent.delete(id);
            }
            for (const id of change?.add ?? []) if (!initial.includes(id)) alwaysPresent.delete(id);
          }
          // Ascending and never twice; every record present all along, once; nothing that never existed.
          expect([...seen].sort(compareIds)).toEqual(seen);
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of alwaysPresent) expect(seen, id).toContain(id);
          for (const id of seen) expect(everPresent.has(id), id).toBe(true);
        },
      ),
      { numRuns: runs(60) },
    );
  });
});

describe('directory cursor', () => {
  it('should decode what it encodes, for the same type only, and refuse any other token', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 128, unit: 'grapheme' }), fc.string({ maxLength: 60 }), (id, other) => {
        // eslint-disable-next-line no-control-regex -- ids hold no control characters
        fc.pre(!/[\u0000-\u001F\u007F-\u009F]/.test(id));
        const cursor = encodeCursor('Practitioner', id);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor, 'Practitioner')).toBe(id);
        expect(decodeCursor(cursor, 'Organization')).toBeUndefined();
        if (other !== cursor) expect(decodeCursor(other, 'Practitioner') === undefined || encodeCursor('Practitioner', decodeCursor(other, 'Practitioner') as string) === other).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should refuse every single-character edit of a cursor', () => {
    const cursor = encodeCursor('Location', 'loc-0001');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < cursor.length; i++) {
      for (const c of alphabet) {
        if (c === cursor[i]) continue;
        const edited = `${cursor.slice(0, i)}${c}${cursor.slice(i + 1)}`;
        expect(decodeCursor(edited, 'Location'), edited).toBeUndefined();
      }
    }
  });
});


