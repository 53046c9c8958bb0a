/**
 * Every route over the PostgreSQL data source answers byte for byte as over the in-memory source: for the
 * demo chart (every record of every patient, several list limits, the directory) and for generated chart
 * documents (a property, hostile ids and text included). Keyset pages walk the same ids in the same order.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkChartDocument, type ChartDocument } from '../../src/index.js';
import { createInMemoryDataSource, createInMemoryKeyStore, loadChartDocument, type ChartDataSource, type KeysetPage } from '../../src/http/index.js';
import { createPostgresDataSource } from '../../src/postgres/index.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { KEYS } from '../http/support/fixture.js';
import { fixtureKeys, fixtureOptions, serve, type Caller } from '../http/support/harness.js';
import { routeRequests } from '../http/support/every-route.js';
import { runs } from '../support/runs.js';
import { freshSchema, usePostgres, writeDocument } from './support.js';

const db = usePostgres();

const q = encodeURIComponent;

/** The requests compared: every route for every record, plus lists cut short (the order of what is kept matters). */
function targets(doc: ChartDocument): string[] {
  const out = routeRequests(doc).map((r) => r.target);
  for (const t of ['Organization', 'Practitioner', 'Location']) out.push(`/publicFhirDirectory?resourceType=${t}&limit=1`, `/publicFhirDirectory?resourceType=${t}`);
  for (const chart of doc.patients) {
    const p = `patientId=${q(chart.patient.id)}`;
    out.push(`/exportFhirPatientBundle?${p}&encounterLimit=1&noteLimit=2&assessmentLimit=1&medicalHistoryLimit=2`);
    out.push(`/exportFhirPatientBundle?${p}&encounterLimit=0&noteLimit=0&assessmentLimit=0&medicalHistoryLimit=0`);
    out.push(`/exportHl7PatientSummary?${p}&limit=1`, `/exportHl7PatientSummary?${p}&limit=3`);
  }
  out.push(`/exportFhirPatient?patientId=no-such-patient`, `/exportHl7Note?patientId=${q(doc.patients[0]?.patient.id ?? 'x')}&noteId=no-such-note`);
  return out;
}

/** The message code each HL7 route's control id begins with (the builders refuse any other: a 500). */
const CONTROL_PREFIX: Readonly<Record<string, string>> = {
  exportHl7PatientAdt: 'ADT',
  exportHl7PatientSummary: 'ADR',
  exportHl7Encounter: 'ADT',
  exportHl7Note: 'MDM',
  exportHl7Assessment: 'ORU',
};

/** Handler options of both sides: the fixture's, with one HL7 control id per route (requests run in parallel). */
async function options(dataSource: ChartDataSource) {
  const base = await fixtureOptions({ dataSource });
  // Limits no comparison reaches: otherwise the later requests of a large chart would compare two 429s.
  const keys = (await fixtureKeys()).map((k) => ({ ...k, rateLimit: { limit: 1_000_000, windowSeconds: 60 } }));
  return {
    ...base,
    keyStore: createInMemoryKeyStore(keys),
    hl7: { ...base.hl7, controlId: ({ route }: { route: string }) => `${CONTROL_PREFIX[route] ?? 'X'}000001` },
  };
}

/** The status of each target's last answer over PostgreSQL, as {@link firstDifference} saw it. */
const lastStatus = new Map<string, number>();

/** The requests of every record of `doc` whose last answer was not a 200 (none expected: HL7 included). */
function failedRequests(doc: ChartDocument): string[] {
  return routeRequests(doc)
    .map(({ target }) => `${target}: ${lastStatus.get(target)}`)
    .filter((line) => !line.endsWith(': 200'));
}

/** Ask both callers every target, a few at a time; the first difference, or undefined. */
async function firstDifference(memory: Caller, postgres: Caller, list: readonly string[]): Promise<string | undefined> {
  // A fixed request id: error bodies carry it.
  const headers = { 'x-api-key': KEYS.both, 'x-request-id': 'compare-1' };
  const compare = async (target: string): Promise<string | undefined> => {
    const [a, b] = await Promise.all([memory(target, { headers }), postgres(target, { headers })]);
    lastStatus.set(target, b.status);
    if (a.status !== b.status) return `${target}: status ${a.status} in memory, ${b.status} over PostgreSQL (${b.body.slice(0, 200)})`;
    if (a.headers['content-type'] !== b.headers['content-type']) return `${target}: content-type differs`;
    if (a.body !== b.body) return `${target}: body differs`;
    return undefined;
  };
  for (let i = 0; i < list.length; i += 8) {
    const found = (await Promise.all(list.slice(i, i + 8).map(compare))).find((d) => d !== undefined);
    if (found !== undefined) return found;
  }
  return undefined;
}

async function pages(source: ChartDataSource, method: 'listPatients' | 'listOrganizationsPage' | 'listPractitionersPage' | 'listLocationsPage', limit: number): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page: KeysetPage = after === undefined ? { limit } : { after, limit };
    const got = (await source[method]?.(page)) ?? [];
    ids.push(...got.map((r) => r.id));
    if (got.length < limit) return ids;
    after = got.at(-1)?.id;
  }
}

describe('createPostgresDataSource over the demo chart', () => {
  const doc = loadChartDocument(readFileSync(new URL('../../examples/data/demo-chart.json', import.meta.url)));
  const schema = freshSchema('demo');
  let dataSource: ReturnType<typeof createPostgresDataSource>;

  beforeAll(async () => {
    await writeDocument(db.pool, schema, doc, 7);
    dataSource = createPostgresDataSource({ pool: db.pool, schema });
  });

  it('should answer every route byte for byte as the in-memory source', async () => {
    // Arrange
    const memory = await serve('fetch', await options(createInMemoryDataSource(doc)));
    const postgres = await serve('node', await options(dataSource));
    // Act
    const difference = await firstDifference(memory, postgres, targets(doc));
    // Assert: the same answers, each record's a 200 (HL7 included), and again when asked again (output reuse).
    expect(difference).toBeUndefined();
    expect(failedRequests(doc)).toEqual([]);
    expect(await firstDifference(memory, postgres, targets(doc))).toBeUndefined();
  });

  it('should walk the keyset pages in the in-memory order', async () => {
    const memory = createInMemoryDataSource(doc);
    for (const method of ['listPatients', 'listOrganizationsPage', 'listPractitionersPage', 'listLocationsPage'] as const) {
      for (const limit of [1, 3, 1000]) expect(await pages(dataSource, method, limit), `${method} ${limit}`).toEqual(await pages(memory, method, limit));
    }
    // An id after which nothing sorts, one with a NUL (stored ids hold none), and the first id itself.
    const first = doc.patients.map((c) => c.patient.id).sort()[0] as string;
    for (const after of ['\u{10FFFF}', `${first}\u0000`, first, '']) {
      expect((await dataSource.listPatients({ after, limit: 5 })).map((p) => p.id)).toEqual((await memory.listPatients?.({ after, limit: 5 }))?.map((p) => p.id));
    }
  });

  it('should refuse a page limit that is not a positive integer, and an after with a lone surrogate', async () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) await expect(dataSource.listPatients({ limit })).rejects.toThrow(/page\.limit/);
    await expect(dataSource.listPatients({ after: '\uD800', limit: 1 })).rejects.toThrow(/page\.after/);
  });

  it('should answer undefined for ids PostgreSQL cannot hold, without asking it', async () => {
    const id = doc.patients[0]?.patient.id as string;
    expect(await dataSource.getPatient(`${id}\u0000`)).toBeUndefined();
    expect(await dataSource.getPatient('\uDC00')).toBeUndefined();
    expect(await dataSource.listNotes('\uDC00', 5)).toEqual([]);
  });
});

describe('createPostgresDataSource over generated chart documents', () => {
  it('should answer every route byte for byte as the in-memory source', async () => {
    await fc.assert(
      fc.asyncProperty(arbChartDocument({ mappable: true, maxPatients: 3 }).filter((d) => checkChartDocument(d).length === 0), async (generated) => {
        const doc = loadChartDocument(generated);
        const schema = freshSchema('gen');
        await writeDocument(db.pool, schema, doc, 2);
        const dataSource = createPostgresDataSource({ pool: db.pool, schema });
        try {
          const memory = await serve('fetch', await options(createInMemoryDataSource(doc)));
          const postgres = await serve('fetch', await options(dataSource));
          expect(await firstDifference(memory, postgres, targets(doc))).toBeUndefined();
          expect(failedRequests(doc)).toEqual([]);
          expect(await firstDifference(memory, postgres, targets(doc))).toBeUndefined();
          const memorySource = createInMemoryDataSource(doc);
          expect(await pages(dataSource, 'listPatients', 2)).toEqual(await pages(memorySource, 'listPatients', 2));
        } finally {
          await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
        }
      }),
      { numRuns: runs(8), endOnFailure: true },
    );
  });
});
