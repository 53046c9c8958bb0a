/**
 * Output reuse over the in-memory data source (HL7 templates, src/http/internal/hl7-template.ts; FHIR Bundle
 * templates, src/http/internal/fhir-template.ts): the handler must send the very bytes the builders give,
 * request after request, with the clock and the control ids moving.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, buildMdmT02, defaultBundleId } from '../../src/index.js';
import { createExportHandler, createInMemoryDataSource, type ChartDataSource, type ExportHandlerOptions } from '../../src/http/index.js';
import type * as fhir from 'fhir/r4';
import { createFhirBundleCache } from '../../src/http/internal/fhir-template.js';
import { createHl7TemplateCache, hl7UtcInstant } from '../../src/http/internal/hl7-template.js';
import { createOutputReuse, MAX_KEPT_TARGET_LENGTH, MAX_KEPT_TARGETS } from '../../src/http/output-reuse.js';
import { createExportCore, type IncomingCall } from '../../src/http/pipeline.js';
import { CHART_DOCUMENT, KEYS, PATIENT_ID } from './support/fixture.js';
import { fixtureOptions } from './support/harness.js';

const P = encodeURIComponent(PATIENT_ID);
const PATHS = [
  `/exportHl7PatientAdt?patientId=${P}`,
  `/exportHl7Encounter?patientId=${P}&encounterId=enc-0003`,
  `/exportHl7Note?patientId=${P}&noteId=note-0002`,
  `/exportHl7Assessment?patientId=${P}&assessmentId=asmt-0002`,
  `/exportHl7Note?patientId=${P}&noteId=note-0001`,
];

/** A clock that moves by odd steps (milliseconds, seconds, days) on every reading. */
function movingClock(): () => number {
  let t = Date.UTC(2026, 2, 1, 15, 0, 0, 0);
  const steps = [1, 999, 1, 86_400_000 + 7, 3_600_000, 59_999];
  let i = 0;
  return () => (t += steps[i++ % steps.length] as number);
}

/** The same data source without the in-memory source's identity, so the handler builds every message. */
function opaque(source: ChartDataSource): ChartDataSource {
  return { ...source };
}

/**
 * A small Bundle as a builder at `now` would give it: timestamp and default id move with the time, the
 * entries do not. `id` replaces the default id.
 */
function bundle(now: string, n: number, id?: (now: string) => string): fhir.Bundle {
  const b: fhir.Bundle = {
    resourceType: 'Bundle',
    id: '',
    type: 'collection',
    timestamp: now,
    total: n,
    entry: Array.from({ length: n }, (_, i) => ({ fullUrl: `Patient/p${i}`, resource: { resourceType: 'Patient', id: `p${i}` } })),
  };
  b.id = id === undefined ? defaultBundleId(b as Parameters<typeof defaultBundleId>[0]) : id(now);
  return b;
}

const FHIR_PATHS = [
  `/exportFhirPatient?patientId=${P}`,
  `/exportFhirPatientBundle?patientId=${P}`,
  `/exportFhirPatientBundle?patientId=${P}&noteLimit=1&encounterLimit=0`,
  `/exportFhirEncounter?patientId=${P}&encounterId=enc-0003`,
  `/exportFhirNote?patientId=${P}&noteId=note-0002`,
  `/exportFhirAssessment?patientId=${P}&assessmentId=asmt-0002`,
];

async function bodies(options: ExportHandlerOptions, rounds: number, paths: readonly string[] = PATHS): Promise<{ status: number; body: string }[]> {
  const handler = createExportHandler(options);
  const out = [];
  for (let r = 0; r < rounds; r++) {
    for (const path of paths) {
      const res = await handler(new Request(`http://localhost${path}`, { headers: { 'x-api-key': KEYS.both } }));
      out.push({ status: res.status, body: await res.text() });
    }
  }
  return out;
}

describe('HL7 templates', () => {
  it('should send the bytes the builders give, with the clock and control ids moving', async () => {
    // Arrange
    const templated = await fixtureOptions({ now: movingClock() });
    const plain = await fixtureOptions({ now: movingClock(), dataSource: opaque(createInMemoryDataSource(CHART_DOCUMENT)) });
    // Act
    const got = await bodies(templated, 4);
    const expected = await bodies(plain, 4);
    // Assert
    expect(got.every((r) => r.status === 200)).toBe(true);
    expect(got).toEqual(expected);
  });

  it('should send the bytes the builders give with their own generated control ids', async () => {
    // Arrange: no controlId option, so MSH-10 is generated; compare everything else.
    const base = await fixtureOptions();
    const hl7 = { ...base.hl7 };
    delete (hl7 as { controlId?: unknown }).controlId;
    const withoutIds = (got: { body: string }[]): string[] => got.map((r) => r.body.replace(/^((?:[^|]*\|){9})[A-Z0-9]{20}\|/, '$1<id>|'));
    // Act
    const got = await bodies({ ...base, hl7, now: movingClock() }, 3);
    const expected = await bodies({ ...base, hl7, now: movingClock(), dataSource: opaque(createInMemoryDataSource(CHART_DOCUMENT)) }, 3);
    // Assert
    expect(withoutIds(got)).toEqual(withoutIds(expected));
    const ids = got.map((r) => r.body.split('|')[9]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^(ADT|MDM|ORU)[0-9A-Z]{17}$/.test(id as string))).toBe(true);
  });

  it('should still refuse a control id the builder refuses, after a template exists', async () => {
    // Arrange: the first id is valid, later ones do not begin with the message code.
    let calls = 0;
    const handler = createExportHandler(await fixtureOptions({ hl7: { controlId: () => (++calls === 1 ? 'MDM1' : 'XYZ1') } }));
    const call = () => handler(new Request(`http://localhost${PATHS[2]}`, { headers: { 'x-api-key': KEYS.both } }));
    // Act
    const first = await call();
    const second = await call();
    // Assert
    expect(first.status).toBe(200);
    expect(second.status).toBe(500);
  });
});

describe('FHIR Bundle templates', () => {
  it('should send the bytes the builders give, with the clock moving', async () => {
    // Arrange
    const reused = await fixtureOptions({ now: movingClock() });
    const plain = await fixtureOptions({ now: movingClock(), dataSource: opaque(createInMemoryDataSource(CHART_DOCUMENT)) });
    // Act
    const got = await bodies(reused, 4, FHIR_PATHS);
    const expected = await bodies(plain, 4, FHIR_PATHS);
    // Assert
    expect(got.every((r) => r.status === 200)).toBe(true);
    expect(got).toEqual(expected);
    expect(new Set(got.map((r) => (JSON.parse(r.body) as { id: string }).id)).size).toBe(got.length);
  });

  it('should send the bytes the builders give with an absolute base URL and no Bundle.total', async () => {
    // Arrange
    const fhir = { baseUrl: 'https://fhir.example.org/r4', strictBundleTotal: true };
    const reused = await fixtureOptions({ now: movingClock(), fhir });
    const plain = await fixtureOptions({ now: movingClock(), fhir, dataSource: opaque(createInMemoryDataSource(CHART_DOCUMENT)) });
    // Act
    const got = await bodies(reused, 3, FHIR_PATHS);
    const expected = await bodies(plain, 3, FHIR_PATHS);
    // Assert
    expect(got).toEqual(expected);
    const last = JSON.parse(got[got.length - 1]?.body as string) as fhir.Bundle;
    expect(last.total).toBeUndefined();
    expect(last.entry?.[0]?.fullUrl?.startsWith('https://fhir.example.org/r4/Patient/')).toBe(true);
  });

  it('should fill a proven template without building, to the builder output for any later time', () => {
    // Arrange
    const cache = createFhirBundleCache();
    const key = {};
    let builds = 0;
    const build = (at: string): fhir.Bundle => (builds++, bundle(at, 3));
    cache.render('r', key, [key], '2026-03-01T15:00:00.000Z', build);
    cache.render('r', key, [key], '2026-03-01T15:00:00.001Z', build);
    builds = 0;
    // Act
    const later = ['2026-03-01T15:00:00.002Z', '2031-07-04T00:00:00.000Z', '1999-12-31T23:59:59.999Z'].map((at) => [
      cache.render('r', key, [key], at, build),
      JSON.stringify(bundle(at, 3)),
    ]);
    // Assert
    expect(builds).toBe(0);
    for (const [got, expected] of later) expect(got).toBe(expected);
  });

  it('should answer requests at the same time with the builder output for that time, and follow the time when it moves', () => {
    // Arrange: a proven template; then times that repeat (a busy server's requests within one millisecond),
    // move on, and come back
    const cache = createFhirBundleCache();
    const key = {};
    let builds = 0;
    const build = (at: string): fhir.Bundle => (builds++, bundle(at, 4));
    cache.render('r', key, [key], '2026-03-01T15:00:00.000Z', build);
    cache.render('r', key, [key], '2026-03-01T15:00:00.001Z', build);
    builds = 0;
    const times = ['2026-03-01T15:00:00.005Z', '2026-03-01T15:00:00.005Z', '2026-03-01T15:00:00.006Z', '2026-03-01T15:00:00.005Z', '2026-03-01T15:00:00.005Z'];
    // Act
    const got = times.map((at) => cache.render('r', key, [key], at, build));
    // Assert
    expect(builds).toBe(0);
    times.forEach((at, i) => expect(got[i]).toBe(JSON.stringify(bundle(at, 4))));
  });
  it('should build every time when the Bundle is not a function of its records and the time alone', () => {
    // Arrange: an id other than the default one, and entries that change with the time.
    const cache = createFhirBundleCache();
    const ownId = (at: string): fhir.Bundle => bundle(at, 2, (now) => `b-${now.slice(0, 4)}`);
    const timed = (at: string): fhir.Bundle => {
      const b: fhir.Bundle = { ...bundle(at, 0), entry: [{ fullUrl: 'Basic/x', resource: { resourceType: 'Basic', id: `b${at.slice(0, 4)}`, code: {} } }] };
      return { ...b, id: defaultBundleId(b as Parameters<typeof defaultBundleId>[0]) };
    };
    // The own id fails the proof at the request's time, the timed entries at the first other time (one build more).
    for (const [build, expectedBuilds] of [
      [ownId, 4],
      [timed, 5],
    ] as const) {
      const key = {};
      let builds = 0;
      const counting = (at: string): fhir.Bundle => (builds++, build(at));
      // Act
      const got = ['2026-03-01T15:00:00.000Z', '2027-03-01T15:00:00.000Z', '2028-03-01T15:00:00.000Z', '2029-03-01T15:00:00.000Z'].map((at) => [
        cache.render('r', key, [key], at, counting),
        JSON.stringify(build(at)),
      ]);
      // Assert: the builder's bytes, and after the failed proof one build per request.
      for (const [g, e] of got) expect(g).toBe(e);
      expect(builds).toBe(expectedBuilds);
    }
  });

  it('should build again for other records, and prove only on the second request in a row for the same ones', () => {
    // Arrange
    const cache = createFhirBundleCache();
    const key = {};
    let builds = 0;
    const build = (n: number) => (at: string): fhir.Bundle => (builds++, bundle(at, n));
    // Act: limits 1, 2, 1, 2 …: the records differ every time, nothing is proven, one build per request.
    for (let i = 0; i < 6; i++) {
      const n = 1 + (i % 2);
      const at = `2026-03-01T15:00:00.00${i}Z`;
      expect(cache.render('r', key, [key, n], at, build(n))).toBe(JSON.stringify(bundle(at, n)));
    }
    // Assert
    expect(builds).toBe(6);
    // The same records again (the last ones were limit 2 too): the proof (the request and two other times), then no build.
    builds = 0;
    for (let i = 0; i < 3; i++) {
      const at = `2026-03-01T15:00:01.00${i}Z`;
      expect(cache.render('r', key, [key, 2], at, build(2))).toBe(JSON.stringify(bundle(at, 2)));
    }
    expect(builds).toBe(3);
  });
});

describe('createHl7TemplateCache', () => {
  const chart = CHART_DOCUMENT.patients[0]!;
  const build = (now: string, controlId: string): string => buildMdmT02(chart, 'note-0002', { now, controlId, directory: CHART_DOCUMENT.directory! });

  it('should fill a template to the builder output for any later time and id', () => {
    const cache = createHl7TemplateCache();
    const key = {};
    cache.render('r', key, [key], 'MDM', '2026-03-01T15:00:00.000Z', 'MDM1', build);
    for (const [now, id] of [
      ['2026-03-01T15:00:00.999Z', 'MDM2'],
      ['2030-12-31T23:59:59.000Z', 'MDMZZZZZZZZZZZZZZZZZ'],
    ] as const) {
      expect(cache.render('r', key, [key], 'MDM', now, id, build)).toBe(build(now, id));
    }
  });

  it('should build again when a record differs, and never template a time it cannot format', () => {
    const cache = createHl7TemplateCache();
    const key = {};
    let builds = 0;
    const counting = (now: string, id: string): string => (builds++, build(now, id));
    cache.render('r', key, [key, 1], 'MDM', '2026-03-01T15:00:00.000Z', 'MDM1', counting);
    builds = 0;
    cache.render('r', key, [key, 1], 'MDM', '2026-03-01T15:00:01.000Z', 'MDM2', counting);
    expect(builds).toBe(0);
    cache.render('r', key, [key, 2], 'MDM', '2026-03-01T15:00:02.000Z', 'MDM3', counting);
    expect(builds).toBeGreaterThan(0);
    builds = 0;
    expect(cache.render('r', key, [key, 2], 'MDM', '2026-03-01T10:00:00-05:00', 'MDM4', counting)).toBe(build('2026-03-01T10:00:00-05:00', 'MDM4'));
    expect(builds).toBe(1);
  });

  it('should not template a message whose fields depend on the time in another way', () => {
    const cache = createHl7TemplateCache();
    const key = {};
    const odd = (now: string, id: string): string => `MSH|^~\\&|${id}|${now.slice(0, 4)}\rEVN|${now}`;
    cache.render('r', key, [key], 'MDM', '2026-03-01T15:00:00.000Z', 'MDM1', odd);
    expect(cache.render('r', key, [key], 'MDM', '2027-03-01T15:00:00.000Z', 'MDM2', odd)).toBe(odd('2027-03-01T15:00:00.000Z', 'MDM2'));
  });
});

describe('hl7UtcInstant', () => {
  it('should give the DTM of a UTC instant and nothing for other shapes', () => {
    expect(hl7UtcInstant('2026-03-01T15:04:05.678Z')).toBe('20260301150405+0000');
    expect(hl7UtcInstant('2026-03-01T15:04:05Z')).toBe('20260301150405+0000');
    expect(hl7UtcInstant('+275760-09-13T00:00:00.000Z')).toBeUndefined();
    expect(hl7UtcInstant('2026-03-01T10:00:00-05:00')).toBeUndefined();
  });
});

describe('output reuse switches (src/http/output-reuse.ts)', () => {
  it('should send the same bytes with any reuse switched off, each reuse working without the others', async () => {
    // Arrange: every combination of the four switches, the same moving clock and control ids.
    const combos = Array.from({ length: 16 }, (_, bits) => ({
      hl7Templates: (bits & 1) !== 0,
      fhirTemplates: (bits & 2) !== 0,
      directories: (bits & 4) !== 0,
      targets: (bits & 8) !== 0,
    }));
    const run = async (reuse: (typeof combos)[number]): Promise<string[]> => {
      const core = createExportCore(await fixtureOptions({ now: movingClock() }), reuse);
      const out: string[] = [];
      for (let round = 0; round < 3; round++) {
        for (const path of [...PATHS, ...FHIR_PATHS]) {
          const [pathname, query] = path.split('?') as [string, string];
          const answer = await core.handle({ method: 'GET', pathname, search: `?${query}`, header: (name) => (name === 'x-api-key' ? KEYS.both : undefined), remoteAddress: undefined });
          expect(answer.status).toBe(200);
          out.push(answer.body as string);
        }
      }
      return out;
    };
    // Act
    const expected = await run(combos[0]!);
    // Assert
    for (const reuse of combos.slice(1)) expect(await run(reuse), JSON.stringify(reuse)).toEqual(expected);
  });
});

describe('request-target reuse (src/http/output-reuse.ts)', () => {
  const call = (path: string, key: string | undefined, accept?: string): IncomingCall => {
    const [pathname, query] = path.split('?') as [string, string];
    const headers: Record<string, string | undefined> = { 'x-api-key': key, accept };
    return { method: 'GET', pathname, search: `?${query}`, header: (name) => headers[name], remoteAddress: undefined };
  };

  it('should run the access checks and the Accept check on every request for a kept target', async () => {
    // Arrange: the target is read once with a key of both scopes, so it is kept.
    const core = createExportCore(await fixtureOptions({ now: movingClock() }));
    const path = `/exportHl7Note?patientId=${P}&noteId=note-0002`;
    expect((await core.handle(call(path, KEYS.both))).status).toBe(200);
    // Act + Assert: each refusal as on a first request.
    expect((await core.handle(call(path, undefined))).status).toBe(401);
    expect((await core.handle(call(path, KEYS.revoked))).status).toBe(401);
    expect((await core.handle(call(path, KEYS.fhirOnly))).status).toBe(403);
    expect((await core.handle(call(path, KEYS.both, 'application/fhir+json'))).status).toBe(406);
    const again = await core.handle(call(path, KEYS.both));
    expect(again.status).toBe(200);
    expect(again.headers['vary']).toBe('Accept');
  });

  it('should not keep a target whose data holds the base URL of the request (the links of the directory)', async () => {
    // Arrange: the same query from two origins.
    const core = createExportCore(await fixtureOptions());
    const directory = (origin: string): IncomingCall => ({
      method: 'GET',
      pathname: '/publicFhirDirectory',
      search: '?resourceType=Practitioner&_count=1',
      header: () => undefined,
      remoteAddress: undefined,
      origin: () => origin,
    });
    // Act
    const first = JSON.parse((await core.handle(directory('https://a.example'))).body as string) as { link: { url: string }[] };
    const second = JSON.parse((await core.handle(directory('https://b.example'))).body as string) as { link: { url: string }[] };
    // Assert: each answer links to its own origin.
    expect(first.link.every((l) => l.url.startsWith('https://a.example/'))).toBe(true);
    expect(second.link.every((l) => l.url.startsWith('https://b.example/'))).toBe(true);
  });

  it('should keep only query strings up to its length limit, and drop the oldest past its count', () => {
    const reuse = createOutputReuse('frozen');
    const kept = { parameters: { ids: {}, limits: {}, resourceType: undefined }, data: {} };
    const long = `?${'a'.repeat(MAX_KEPT_TARGET_LENGTH)}`;
    reuse.keepTarget('r', long, kept);
    expect(reuse.keptTarget('r', long)).toBeUndefined();
    for (let i = 0; i <= MAX_KEPT_TARGETS; i++) reuse.keepTarget('r', `?n=${i}`, kept);
    expect(reuse.keptTarget('r', '?n=0')).toBeUndefined();
    expect(reuse.keptTarget('r', '?n=1')).toBe(kept);
    expect(reuse.keptTarget('r', `?n=${MAX_KEPT_TARGETS}`)).toBe(kept);
    expect(reuse.keptTarget('other', '?n=1')).toBeUndefined();
  });

  it('should keep nothing over a data source whose records may change', () => {
    const reuse = createOutputReuse('none');
    reuse.keepTarget('r', '?n=1', { parameters: { ids: {}, limits: {}, resourceType: undefined }, data: {} });
    expect(reuse.keptTarget('r', '?n=1')).toBeUndefined();
  });
});

describe('output reuse over a source with stable records (ChartDataSource.stableRecords)', () => {
  /** The in-memory source's records (deep-frozen, one object per record) behind a source of a host's own. */
  const stable = (): ChartDataSource => ({ ...createInMemoryDataSource(CHART_DOCUMENT), stableRecords: true });
  const kept = { parameters: { ids: {}, limits: {}, resourceType: undefined }, data: {} };

  it('should send the bytes the builders give, with the clock and control ids moving', async () => {
    // Arrange
    const reused = await fixtureOptions({ now: movingClock(), dataSource: stable() });
    const plain = await fixtureOptions({ now: movingClock(), dataSource: opaque(createInMemoryDataSource(CHART_DOCUMENT)) });
    // Act
    const got = await bodies(reused, 4, [...PATHS, ...FHIR_PATHS]);
    const expected = await bodies(plain, 4, [...PATHS, ...FHIR_PATHS]);
    // Assert
    expect(got.every((r) => r.status === 200)).toBe(true);
    expect(got).toEqual(expected);
  });

  it('should keep no request target and read the directory on every request', async () => {
    // Arrange: a source counting its directory reads.
    let reads = 0;
    const source = stable();
    const getPractitioner = source.getPractitioner.bind(source);
    source.getPractitioner = (id) => (reads++, getPractitioner(id));
    const reuse = createOutputReuse('stable');
    const note = CHART_DOCUMENT.patients[0]?.notes?.[1] as object;
    // Act
    reuse.keepTarget('r', '?n=1', kept);
    for (let i = 0; i < 3; i++) await reuse.directoryFor(source, note, undefined, { notes: [CHART_DOCUMENT.patients[0]?.notes?.[1] as never] });
    // Assert
    expect(reuse.keptTarget('r', '?n=1')).toBeUndefined();
    expect(reads).toBe(3);
  });

  it('should fill kept output for frozen records only, and build every time when one is not frozen', () => {
    const reuse = createOutputReuse('stable');
    const frozen = Object.freeze({ id: 'a' });
    const open = { id: 'b' };
    let builds = 0;
    const build = (at: string): fhir.Bundle => (builds++, bundle(at, 2));
    const times = ['2026-03-01T15:00:00.000Z', '2026-03-01T15:00:00.001Z', '2026-03-01T15:00:00.002Z', '2026-03-01T15:00:00.003Z'];
    // Frozen: built, then proven (the request and two other times), then filled without a build.
    for (const at of times) expect(reuse.fhirBody('r', frozen, [frozen, 1], at, build)).toBe(JSON.stringify(bundle(at, 2)));
    expect(builds).toBe(4);
    // A record among them not frozen (it could change after it was handed out): one build per request, no proof.
    builds = 0;
    for (const at of times) expect(reuse.fhirBody('r', frozen, [frozen, open], at, build)).toBe(JSON.stringify(bundle(at, 2)));
    expect(builds).toBe(times.length);
    let messages = 0;
    const chart = CHART_DOCUMENT.patients[0]!;
    const message = (now: string, controlId: string): string => (messages++, buildMdmT02(chart, 'note-0002', { now, controlId, directory: CHART_DOCUMENT.directory! }));
    for (const [i, at] of times.entries()) expect(reuse.hl7Body('r', open, [open], 'MDM', at, `MDM${i}`, message)).toBe(message(at, `MDM${i}`));
    expect(messages).toBe(2 * times.length);
  });

  it('should refuse a stableRecords that is not a boolean when the handler is created', async () => {
    const options = await fixtureOptions({ dataSource: { ...createInMemoryDataSource(CHART_DOCUMENT), stableRecords: 'yes' } as unknown as ChartDataSource });
    expect(() => createExportHandler(options)).toThrow(InvalidArgumentError);
    expect(() => createExportHandler(options)).toThrow(/dataSource\.stableRecords/);
  });
});

describe('HL7 templates over records that change around a kept one', () => {
  const chart = CHART_DOCUMENT.patients[0]!;
  const build = (now: string, controlId: string): string => buildMdmT02(chart, 'note-0002', { now, controlId, directory: CHART_DOCUMENT.directory! });

  it('should pay no proof for requests alternating between two sets of records of one key, and prove a set asked twice in a row', () => {
    // Arrange: one key (a record shared by two patients, or whose encounter changed), two sets of records.
    const cache = createHl7TemplateCache();
    const key = {};
    let builds = 0;
    const counting = (now: string, id: string): string => (builds++, build(now, id));
    const at = (i: number): string => `2026-03-01T15:00:${String(i).padStart(2, '0')}.000Z`;
    cache.render('r', key, [key, 1], 'MDM', at(0), 'MDM0', counting);
    builds = 0;
    // Act: sets alternating from the other one, one build each.
    for (let i = 1; i <= 6; i++) expect(cache.render('r', key, [key, (i + 1) % 2], 'MDM', at(i), `MDM${i}`, counting)).toBe(build(at(i), `MDM${i}`));
    expect(builds).toBe(6);
    // Then set 0 three times: remembered (one build), proven (three), filled (none).
    builds = 0;
    for (let i = 7; i <= 9; i++) expect(cache.render('r', key, [key, 0], 'MDM', at(i), `MDM${i}`, counting)).toBe(build(at(i), `MDM${i}`));
    expect(builds).toBe(4);
  });
});
