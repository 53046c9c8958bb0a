/**
 * What a host's own code returns must never crash the host's process or turn a documented answer into a 500:
 * async hooks that reject, counter rate limiters whose `remaining` goes below zero, referenced encounters that
 * fail the chart check, and many referenced encounters read a few at a time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExportHandler, createInMemoryDataSource, type ChartDataSource, type RateLimiter } from '../../src/http/index.js';
import type { ChartDocument, Encounter } from '../../src/index.js';
import { CHART_DOCUMENT, KEYS, PATIENT_ID } from './support/fixture.js';
import { fixtureOptions } from './support/harness.js';

const request = (path: string, key?: string): Request => new Request(`http://localhost${path}`, { headers: key === undefined ? {} : { 'x-api-key': key } });

describe('host hooks and host interfaces', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('should not leave an unhandled rejection when an async observer or onError rejects', async () => {
    const handler = createExportHandler(
      await fixtureOptions({
        observer: async () => {
          await null;
          throw new Error('metrics backend down');
        },
        onError: async () => {
          throw new Error('log sink down');
        },
      }),
    );
    const ok = await handler(request('/publicFhirDirectory?resourceType=Location'));
    expect(ok.status).toBe(200);
    // A 500 (a rate limiter that fails) reaches onError too.
    const failing: RateLimiter = { consume: () => Promise.reject(new Error('redis down')) };
    const broken = createExportHandler(await fixtureOptions({ rateLimiter: failing, onError: async () => Promise.reject(new Error('x')) }));
    expect((await broken(request(`/exportFhirPatient?patientId=${PATIENT_ID}`, KEYS.both))).status).toBe(500);
    // Plain-JavaScript hosts can hand in async functions where a value is expected: refused, never unhandled.
    const reject = async (): Promise<never> => {
      throw new Error('async hook');
    };
    const hooks = createExportHandler(
      await fixtureOptions({
        requestId: reject as never,
        directoryRateLimit: { limit: 100, windowSeconds: 60, clientAddress: reject as never },
        hl7: { controlId: reject as never },
      }),
    );
    const directory = await hooks(request('/publicFhirDirectory?resourceType=Location'));
    expect(directory.status).toBe(500);
    expect(directory.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await hooks(request(`/exportHl7Note?patientId=${PATIENT_ID}&noteId=note-0001`, KEYS.both))).status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });

  it('should read a negative remaining (limit - count past the limit) as 0 and answer 429, not 500', async () => {
    const counts = new Map<string, number>();
    // The usual counter limiter: INCR, then remaining = limit - count.
    const incr: RateLimiter = {
      consume: async (key, limit) => {
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        return { allowed: count <= limit, limit, remaining: limit - count, reset: 1_800_000_000, retryAfter: 30 };
      },
    };
    const handler = createExportHandler(await fixtureOptions({ rateLimiter: incr }));
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await handler(request(`/exportFhirPatient?patientId=${PATIENT_ID}`, KEYS.tiny));
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(remaining).toEqual(['1', '0', '0', '0']);
    // A remaining that is not an integer still means a broken limiter.
    const broken = createExportHandler(await fixtureOptions({ rateLimiter: { consume: async (_k, limit) => ({ allowed: true, limit, remaining: 0.5, reset: 1, retryAfter: 0 }) } }));
    expect((await broken(request(`/exportFhirPatient?patientId=${PATIENT_ID}`, KEYS.both))).status).toBe(500);
  });

  /** The fixture's first patient with `count` old encounters, each referenced by a note, and one new one. */
  function manyReferences(count: number, broken?: number): ChartDocument {
    const base = CHART_DOCUMENT.patients[0]!;
    const old: Encounter[] = Array.from({ length: count }, (_, i) => ({
      id: `old-${i}`,
      status: (i === broken ? 'bogus' : 'finished') as Encounter['status'],
      class: 'AMB',
      period: { start: `2020-01-${String((i % 28) + 1).padStart(2, '0')}T09:00:00-05:00` },
    }));
    const notes = old.map((e, i) => ({ id: `n-${i}`, type: 'progress-note' as const, title: 'Note', status: 'final' as const, authored: '2026-01-01T10:00:00-05:00', encounterId: e.id, text: 'x' }));
    const newest: Encounter = { id: 'new', status: 'finished', class: 'AMB', period: { start: '2026-02-01T09:00:00-05:00' } };
    return { patients: [{ patient: base.patient, encounters: [newest, ...old], notes }], directory: CHART_DOCUMENT.directory };
  }

  /** A data source over a valid document, whose getEncounter answers `override` for one id and counts reads in flight. */
  function counting(doc: ChartDocument, override?: { id: string; record: Encounter }): { source: ChartDataSource; maxInFlight: () => number } {
    const inner = createInMemoryDataSource(doc);
    let inFlight = 0;
    let max = 0;
    const source: ChartDataSource = {
      ...inner,
      getPatient: (id) => inner.getPatient(id),
      listEncounters: (id, n) => inner.listEncounters(id, n),
      listNotes: (id, n) => inner.listNotes(id, n),
      listAssessments: (id, n) => inner.listAssessments(id, n),
      listMedicalHistory: (id, n) => inner.listMedicalHistory(id, n),
      getEncounter: async (patientId, id) => {
        inFlight += 1;
        max = Math.max(max, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight -= 1;
        return override !== undefined && id === override.id ? override.record : inner.getEncounter(patientId, id);
      },
    };
    return { source, maxInFlight: () => max };
  }

  it('should read the encounters a Bundle refers to a few at a time', async () => {
    const { source, maxInFlight } = counting(manyReferences(40));
    const handler = createExportHandler(await fixtureOptions({ dataSource: source }));
    const res = await handler(request(`/exportFhirPatientBundle?patientId=${PATIENT_ID}&encounterLimit=1&noteLimit=40&assessmentLimit=0&medicalHistoryLimit=0`, KEYS.both));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { entry: { resource: { resourceType: string; encounter?: { display?: string } } }[] };
    const compositions = body.entry.filter((e) => e.resource.resourceType === 'Composition');
    expect(compositions).toHaveLength(40);
    expect(compositions.every((c) => typeof c.resource.encounter?.display === 'string')).toBe(true);
    expect(maxInFlight()).toBeGreaterThan(1);
    expect(maxInFlight()).toBeLessThanOrEqual(8);
  });

  it('should leave out of the displays a referenced encounter that fails the chart check, not fail the Bundle', async () => {
    const doc = manyReferences(3);
    const bad = { id: 'old-1', status: 'bogus', class: 'AMB', period: { start: '2020-01-02T09:00:00-05:00' } } as unknown as Encounter;
    const { source } = counting(doc, { id: 'old-1', record: bad });
    const handler = createExportHandler(await fixtureOptions({ dataSource: source }));
    const res = await handler(request(`/exportFhirPatientBundle?patientId=${PATIENT_ID}&encounterLimit=1&noteLimit=3&assessmentLimit=0&medicalHistoryLimit=0`, KEYS.both));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { entry: { resource: { resourceType: string; id: string; encounter?: { identifier?: { value: string }; display?: string } } }[] };
    const byEncounter = new Map(body.entry.filter((e) => e.resource.resourceType === 'Composition').map((e) => [e.resource.encounter?.identifier?.value, e.resource.encounter?.display]));
    expect(byEncounter.get('old-1')).toBeUndefined();
    expect(byEncounter.has('old-1')).toBe(true);
    expect(typeof byEncounter.get('old-0')).toBe('string');
  });

  it('should take a referenced encounter only from the answer to its own id', async () => {
    const doc = manyReferences(3);
    const inner = createInMemoryDataSource(doc);
    // A broken source that answers every encounter read with old-0.
    const source: ChartDataSource = { ...inner, getEncounter: (patientId) => inner.getEncounter(patientId, 'old-0') };
    for (const m of ['getPatient', 'listEncounters', 'listNotes', 'listAssessments', 'listMedicalHistory'] as const) {
      (source as unknown as Record<string, unknown>)[m] = (inner[m] as (...a: unknown[]) => unknown).bind(inner);
    }
    const handler = createExportHandler(await fixtureOptions({ dataSource: source }));
    const res = await handler(request(`/exportFhirPatientBundle?patientId=${PATIENT_ID}&encounterLimit=1&noteLimit=3&assessmentLimit=0&medicalHistoryLimit=0`, KEYS.both));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { entry: { resource: { resourceType: string; encounter?: { identifier?: { value: string }; display?: string } } }[] };
    const displays = body.entry.filter((e) => e.resource.resourceType === 'Composition').map((e) => [e.resource.encounter?.identifier?.value, typeof e.resource.encounter?.display]);
    expect(displays).toEqual(expect.arrayContaining([['old-0', 'string'], ['old-1', 'undefined'], ['old-2', 'undefined']]));
  });
});
