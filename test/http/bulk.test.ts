/**
 * FHIR Bulk Data export (IG STU2) end to end, in fetch and node modes: kick-off (GET and POST), status polling
 * (202 with X-Progress and Retry-After, 429 when too fast, 200 manifest), files (NDJSON, exact counts, the bytes
 * of the core writer), cancel, expiry, owner-only access, the per-key cap, failures, and the CapabilityStatement.
 * Every answer is also checked against the OpenAPI description (the harness).
 */
import { describe, expect, it } from 'vitest';
import { streamChartDocumentNdjson, type ChartDocument } from '../../src/index.js';
import {
  DataSourceUnavailableError,
  createExportMetrics,
  createInMemoryDataSource,
  type ChartDataSource,
  type ExportHandlerOptions,
  type ExportObservation,
} from '../../src/http/index.js';
import { validateFhir } from '../support/fhir-validator.js';
import { CHART_DOCUMENT, KEYS } from './support/fixture.js';
import { NOW_MS, describeMatrix, fixtureOptions, serve, type Caller, type Mode, type TestResponse } from './support/harness.js';

const KICK_OFF = { accept: 'application/fhir+json', prefer: 'respond-async' };
const FHIR_KEY = { 'x-api-key': KEYS.fhirOnly };

interface Manifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: { type: string; url: string; count: number }[];
  error: { type: string; url: string; count: number }[];
}

/** A handler with a clock the test moves. */
async function bulkServer(mode: Mode, overrides: Partial<ExportHandlerOptions> = {}): Promise<{ call: Caller; clock: { ms: number } }> {
  const clock = { ms: NOW_MS };
  const call = await serve(mode, await fixtureOptions({ now: () => clock.ms, bulk: { retryAfterSeconds: 1, resourcesPerFile: 4 }, ...overrides }));
  return { call, clock };
}

const pathOf = (url: string): string => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** Kick off and poll (moving the clock by Retry-After) until the status is not 202; returns that answer. */
async function runToEnd(call: Caller, clock: { ms: number }, kickOff: TestResponse, headers: Record<string, string> = FHIR_KEY): Promise<TestResponse> {
  expect(kickOff.status, kickOff.body).toBe(202);
  const status = pathOf(kickOff.headers['content-location'] as string);
  for (let i = 0; i < 2000; i++) {
    clock.ms += 1000;
    const res = await call(status, { headers });
    if (res.status !== 202) return res;
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['x-progress']).toMatch(/^\d+ patients exported$/);
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error('the export did not finish');
}

/** The lines of every file of a manifest, per type, fetched with `headers`. */
async function fetchFiles(call: Caller, manifest: Manifest, headers: Record<string, string> = FHIR_KEY): Promise<Map<string, string[]>> {
  const byType = new Map<string, string[]>();
  for (const file of [...manifest.output, ...manifest.error]) {
    const res = await call(pathOf(file.url), { headers });
    expect(res.status, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+ndjson');
    expect(res.body.endsWith('\n')).toBe(true);
    const lines = res.body.slice(0, -1).split('\n');
    expect(lines.length, file.url).toBe(file.count);
    byType.set(file.type, [...(byType.get(file.type) ?? []), ...lines]);
  }
  return byType;
}

/** What the core writer gives for a document, per type. */
async function expectedLines(doc: ChartDocument, wholeDirectory: boolean, types?: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for await (const line of streamChartDocumentNdjson(doc, { wholeDirectory, yieldEvery: 0 })) {
    if (types !== undefined && !types.includes(line.resourceType)) continue;
    out.set(line.resourceType, [...(out.get(line.resourceType) ?? []), line.text.slice(0, -1)]);
  }
  return out;
}

const sorted = (m: Map<string, string[]>): Record<string, string[]> => Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))));

describeMatrix('Bulk Data export', (mode) => {
  it('should run the IG flow: kick-off, poll, manifest, files holding exactly the core writer\'s lines', async () => {
    // Arrange
    const { call, clock } = await bulkServer(mode);
    // Act
    const kickOff = await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } });
    const done = await runToEnd(call, clock, kickOff);
    // Assert
    expect(done.status, done.body).toBe(200);
    expect(done.headers['content-type']).toBe('application/json');
    const manifest = JSON.parse(done.body) as Manifest;
    expect(manifest.transactionTime).toBe(new Date(NOW_MS).toISOString());
    expect(manifest.request).toMatch(/^http:\/\/127\.0\.0\.1(:\d+)?\/Patient\/\$export$/);
    expect(kickOff.headers['content-location']).toMatch(/^http:\/\/127\.0\.0\.1(:\d+)?\/bulkstatus\/[0-9a-f-]{36}$/);
    expect(manifest.requiresAccessToken).toBe(true);
    expect(manifest.error).toEqual([]);
    for (const file of manifest.output) expect(file.url.startsWith('http://127.0.0.1')).toBe(true);
    // Files are split at 4 lines: every file but the last of a type is full.
    expect(manifest.output.every((f) => f.count >= 1 && f.count <= 4)).toBe(true);
    const files = await fetchFiles(call, manifest);
    expect(sorted(files)).toEqual(sorted(await expectedLines(CHART_DOCUMENT, false)));
    for (const lines of files.values()) {
      for (const line of lines) expect(validateFhir(JSON.parse(line) as object).filter((f) => f.severity === 'error')).toEqual([]);
    }
  });

  it('should add every directory record at system level, and take a POST Parameters body with _type', async () => {
    const { call, clock } = await bulkServer(mode);
    const system = await runToEnd(call, clock, await call('/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } }));
    expect(sorted(await fetchFiles(call, JSON.parse(system.body) as Manifest))).toEqual(sorted(await expectedLines(CHART_DOCUMENT, true)));
    const body = JSON.stringify({
      resourceType: 'Parameters',
      parameter: [
        { name: '_type', valueString: 'Patient,Encounter' },
        { name: '_outputFormat', valueString: 'application/fhir+ndjson' },
      ],
    });
    const posted = await call('/Patient/$export', { method: 'POST', body, headers: { ...KICK_OFF, ...FHIR_KEY, 'content-type': 'application/fhir+json' } });
    const manifest = JSON.parse((await runToEnd(call, clock, posted)).body) as Manifest;
    expect(new Set(manifest.output.map((f) => f.type))).toEqual(new Set(['Patient', 'Encounter']));
    expect(sorted(await fetchFiles(call, manifest))).toEqual(sorted(await expectedLines(CHART_DOCUMENT, false, ['Patient', 'Encounter'])));
  });

  it('should take the key as Authorization: Bearer, and refuse two different keys', async () => {
    const { call, clock } = await bulkServer(mode);
    const bearer = { authorization: `Bearer ${KEYS.fhirOnly}` };
    const done = await runToEnd(call, clock, await call('/Patient/$export', { headers: { ...KICK_OFF, ...bearer } }), bearer);
    expect(done.status).toBe(200);
    await fetchFiles(call, JSON.parse(done.body) as Manifest, bearer);
    const both = await call('/Patient/$export', { headers: { ...KICK_OFF, ...bearer, 'x-api-key': KEYS.both } });
    expect(both.status).toBe(401);
  });

  it('should refuse what the IG says to refuse, and be lenient when asked', async () => {
    const { call } = await bulkServer(mode);
    const kick = (query: string, headers: Record<string, string> = {}): Promise<TestResponse> => call(`/Patient/$export${query}`, { headers: { ...KICK_OFF, ...FHIR_KEY, ...headers } });
    expect((await call('/Patient/$export', { headers: KICK_OFF })).status).toBe(401);
    expect((await call('/Patient/$export', { headers: { ...KICK_OFF, 'x-api-key': KEYS.hl7Only } })).status).toBe(403);
    expect((await call('/Patient/$export', { headers: FHIR_KEY })).status).toBe(400);
    expect((await kick('', { accept: 'text/csv' })).status).toBe(406);
    expect((await kick('?_typeFilter=Encounter%3Fstatus%3Dfinished')).status).toBe(400);
    expect((await kick('?_type=Patient,Observation')).status).toBe(400);
    expect((await kick('?_outputFormat=text%2Fcsv')).status).toBe(400);
    expect((await kick('?_since=yesterday')).status).toBe(400);
    expect((await kick('?_since=2026-01-01T00:00:00Z&_since=2026-01-02T00:00:00Z')).status).toBe(400);
    expect((await call('/Group/g1/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } })).status).toBe(404);
    const refused = await kick('?_elements=id');
    expect(refused.status).toBe(400);
    expect(refused.body).not.toContain('"id"');
    const lenient = { prefer: 'respond-async, handling=lenient' };
    expect((await kick('?_typeFilter=x&_type=Patient,Observation', lenient)).status).toBe(202);
    expect((await kick('?_outputFormat=application/fhir%2Bndjson&_since=2026-01-01T00:00:00%2B02:00')).status).toBe(202);
  });

  it('should answer 429 to polling faster than Retry-After, cancel with DELETE (then 404), and hide jobs from other keys', async () => {
    const gate = deferred();
    const source = gatedSource(gate.promise);
    const { call, clock } = await bulkServer(mode, { dataSource: source });
    const kickOff = await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } });
    const status = pathOf(kickOff.headers['content-location'] as string);
    const first = await call(status, { headers: FHIR_KEY });
    expect(first.status).toBe(202);
    const fast = await call(status, { headers: FHIR_KEY });
    expect(fast.status).toBe(429);
    expect(Number(fast.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await call(status, { headers: { 'x-api-key': KEYS.both } })).status).toBe(404);
    expect((await call(status, { method: 'DELETE', headers: { 'x-api-key': KEYS.both } })).status).toBe(404);
    expect((await call(status, { method: 'DELETE', headers: FHIR_KEY })).status).toBe(202);
    clock.ms += 5000;
    expect((await call(status, { headers: FHIR_KEY })).status).toBe(404);
    gate.resolve();
  });

  it('should cap running jobs per key with 429 and Retry-After', async () => {
    const gate = deferred();
    const { call } = await bulkServer(mode, { dataSource: gatedSource(gate.promise), bulk: { maxRunningJobsPerKey: 1 } });
    expect((await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } })).status).toBe(202);
    const second = await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } });
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another key has its own cap.
    expect((await call('/Patient/$export', { headers: { ...KICK_OFF, 'x-api-key': KEYS.both } })).status).toBe(202);
    gate.resolve();
  });

  it('should make files of other keys, unknown files and expired jobs 404', async () => {
    const { call, clock } = await bulkServer(mode);
    const done = await runToEnd(call, clock, await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } }));
    const manifest = JSON.parse(done.body) as Manifest;
    const file = pathOf((manifest.output[0] as { url: string }).url);
    expect((await call(file, { headers: { 'x-api-key': KEYS.both } })).status).toBe(404);
    expect((await call(file.replace(/-1\.ndjson$/, '-99.ndjson'), { headers: FHIR_KEY })).status).toBe(404);
    const head = await call(file, { method: 'HEAD', headers: FHIR_KEY });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    clock.ms += 3_601_000;
    expect((await call(file, { headers: FHIR_KEY })).status).toBe(404);
    expect((await call(pathOf(manifest.request.replace('/Patient/$export', '/bulkstatus/x')), { headers: FHIR_KEY })).status).toBe(404);
  });

  it('should report a failed job with its status: 503 when the source was unavailable, 500 otherwise', async () => {
    for (const [error, status] of [
      [new DataSourceUnavailableError('down'), 503],
      [new Error('secret internal detail'), 500],
    ] as const) {
      const base = createInMemoryDataSource(CHART_DOCUMENT);
      const source: ChartDataSource = { ...base, listPatients: () => Promise.reject(error) };
      const { call, clock } = await bulkServer(mode, { dataSource: source });
      const res = await runToEnd(call, clock, await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } }));
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
      expect(res.body).not.toContain('secret');
    }
  });

  it('should tell the observer and the metrics of every Bulk request, by Bulk route, never with a job id', async () => {
    // Arrange
    const seen: ExportObservation[] = [];
    const metrics = createExportMetrics();
    const observer = (o: ExportObservation): void => {
      seen.push(o);
      metrics.observer(o);
    };
    const { call, clock } = await bulkServer(mode, { observer });
    // Act
    const meta = await call('/metadata');
    const kickOff = await call('/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } });
    const done = await runToEnd(call, clock, kickOff);
    const manifest = JSON.parse(done.body) as Manifest;
    const first = manifest.output[0] as { url: string };
    const fileAnswer = await call(pathOf(first.url), { headers: FHIR_KEY });
    const group = await call('/Group/g1/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } });
    // Assert
    expect([meta.status, fileAnswer.status, group.status]).toEqual([200, 200, 404]);
    const polls = seen.filter((o) => o.route === 'bulkStatus');
    expect(seen.map((o) => [o.route, o.status])).toEqual([
      ['metadata', 200],
      ['bulkKickOff', 202],
      ...polls.slice(0, -1).map(() => ['bulkStatus', 202]),
      ['bulkStatus', 200],
      ['bulkFile', 200],
      ['bulkKickOff', 404],
    ]);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    // The CapabilityStatement needs no key, and a Group kick-off is refused before the key is read.
    expect(seen.map((o) => o.partnerId)).toEqual([undefined, ...seen.slice(1, -1).map(() => 'partner-fhir'), undefined]);
    const ids = seen.map((o) => o.requestId);
    expect([ids[0], ids[1], ids.at(-3), ids.at(-2), ids.at(-1)]).toEqual([meta, kickOff, done, fileAnswer, group].map((r) => r.headers['x-request-id']));
    const text = metrics.render();
    expect(text).toContain('chart_export_requests_total{route="metadata",status="200"} 1');
    expect(text).toContain('chart_export_requests_total{route="bulkKickOff",status="202"} 1');
    expect(text).toContain('chart_export_requests_total{route="bulkKickOff",status="404"} 1');
    expect(text).toContain(`chart_export_requests_total{route="bulkStatus",status="200"} 1`);
    expect(text).toContain('chart_export_requests_total{route="bulkFile",status="200"} 1');
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('should answer 501 when the data source cannot list patients', async () => {
    const { listPatients: _dropped, ...rest } = createInMemoryDataSource(CHART_DOCUMENT);
    const { call } = await bulkServer(mode, { dataSource: { ...rest } });
    const res = await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } });
    expect(res.status).toBe(501);
    expect(res.body).toContain('listPatients');
  });

  it('should serve a valid R4 CapabilityStatement declaring the export operations, without a key', async () => {
    const { call } = await bulkServer(mode);
    const res = await call('/metadata');
    expect(res.status).toBe(200);
    const statement = JSON.parse(res.body) as { resourceType: string; rest: { operation: { name: string }[]; resource: { type: string; operation?: { name: string }[] }[] }[] };
    expect(validateFhir(statement).filter((f) => f.severity === 'error')).toEqual([]);
    expect(statement.rest[0]?.operation.map((o) => o.name)).toEqual(['export']);
    expect(statement.rest[0]?.resource.find((r) => r.type === 'Patient')?.operation?.[0]?.name).toBe('export');
  });

  it('should leave the paths unrouted without the bulk option', async () => {
    const call = await serve(mode, await fixtureOptions());
    expect((await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } })).status).toBe(404);
    expect((await call('/metadata')).status).toBe(404);
  });
});

describe('Bulk Data export over a data source that gives the event loop back', () => {
  it('should export every patient of a larger population in parts', async () => {
    const patients = Array.from({ length: 250 }, (_, i) => ({
      patient: { id: `p${String(i).padStart(4, '0')}`, identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: String(i) }], names: [{ family: 'Test' }] },
    }));
    const { call, clock } = await bulkServer('fetch', { dataSource: createInMemoryDataSource({ patients }), bulk: { resourcesPerFile: 100, pageSize: 30, retryAfterSeconds: 1 } });
    const manifest = JSON.parse((await runToEnd(call, clock, await call('/Patient/$export', { headers: { ...KICK_OFF, ...FHIR_KEY } }))).body) as Manifest;
    expect(manifest.output.map((f) => [f.type, f.count])).toEqual([
      ['Patient', 100],
      ['Patient', 100],
      ['Patient', 50],
    ]);
    const files = await fetchFiles(call, manifest);
    expect(new Set(files.get('Patient')).size).toBe(250);
  });
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The fixture's source whose patient listing waits for `gate`. */
function gatedSource(gate: Promise<void>): ChartDataSource {
  const base = createInMemoryDataSource(CHART_DOCUMENT);
  return { ...base, listPatients: async (page, signal) => (await gate, (base.listPatients as NonNullable<ChartDataSource['listPatients']>)(page, signal)) };
}
