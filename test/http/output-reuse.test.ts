/**
 * Output reuse over the in-memory data source (HL7 templates, src/http/internal/hl7-template.ts; FHIR entry
 * text, src/http/internal/fhir-entries.ts): the handler must send the
 * very bytes the builders give, request after request, with the clock and the control ids moving.
 */
import { describe, expect, it } from 'vitest';
import { buildMdmT02 } from '../../src/index.js';
import { createExportHandler, createInMemoryDataSource, type ChartDataSource, type ExportHandlerOptions } from '../../src/http/index.js';
import type * as fhir from 'fhir/r4';
import { createFhirEntryCache } from '../../src/http/internal/fhir-entries.js';
import { createHl7TemplateCache, hl7UtcInstant } from '../../src/http/internal/hl7-template.js';
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

/** A small Bundle as a builder at `now` would give it: id and timestamp move with the time, the entries do not. */
function bundle(now: string, n: number): fhir.Bundle {
  return {
    resourceType: 'Bundle',
    id: `b-${now}`,
    type: 'collection',
    timestamp: now,
    total: n,
    entry: Array.from({ length: n }, (_, i) => ({ fullUrl: `Patient/p${i}`, resource: { resourceType: 'Patient', id: `p${i}` } })),
  };
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

describe('FHIR entry reuse', () => {
  it('should send the bytes the builders give, with the clock moving', async () => {
    // Arrange
    const reused = await fixtureOptions({ now: movingClock() });
    const plain = await fixtureOptions({ now: movingClock(), dataSource: opaque(createInMemoryDataSource(CHART_DOCUMENT)) });
    // Act
    const got = await bodies(reused, 3, FHIR_PATHS);
    const expected = await bodies(plain, 3, FHIR_PATHS);
    // Assert
    expect(got.every((r) => r.status === 200)).toBe(true);
    expect(got).toEqual(expected);
    expect(new Set(got.map((r) => (JSON.parse(r.body) as { id: string }).id)).size).toBe(got.length);
  });

  it('should serialize the entries of the request at hand when they do not match the kept ones', () => {
    const cache = createFhirEntryCache();
    const key = {};
    const first = bundle('2026-03-01T15:00:00.000Z', 2);
    expect(cache.serialize('r', key, [key], first, (at) => bundle(at, 2))).toBe(JSON.stringify(first));
    const later = bundle('2026-03-01T15:00:00.001Z', 2);
    expect(cache.serialize('r', key, [key], later, (at) => bundle(at, 2))).toBe(JSON.stringify(later));
    // Same records, same entry count: the kept text is used (the records are frozen, so the entries are too).
    const kept = { ...bundle('2026-03-01T15:00:00.001Z', 2), entry: [{ fullUrl: 'x' }, { fullUrl: 'y' }] };
    expect(cache.serialize('r', key, [key], kept, (at) => bundle(at, 2))).toBe(JSON.stringify(later));
    const fewer = bundle('2026-03-01T15:00:00.002Z', 1);
    expect(cache.serialize('r', key, [key], fewer, (at) => bundle(at, 1))).toBe(JSON.stringify(fewer));
    // Entries that change with the time are never kept.
    const timed = (at: string): fhir.Bundle => ({ ...bundle(at, 1), entry: [{ fullUrl: `Basic/${at.slice(0, 4)}` }] });
    const k2 = {};
    cache.serialize('r', k2, [k2], timed('2026-03-01T15:00:00.000Z'), timed);
    expect(cache.serialize('r', k2, [k2], timed('2027-03-01T15:00:00.000Z'), timed)).toBe(JSON.stringify(timed('2027-03-01T15:00:00.000Z')));
    expect(cache.serialize('r', k2, [k2], timed('2028-03-01T15:00:00.000Z'), timed)).toBe(JSON.stringify(timed('2028-03-01T15:00:00.000Z')));
    // A Bundle with a member the proven one did not have is serialized whole, never spliced without it.
    const withMeta = { ...bundle('2026-03-01T15:00:00.003Z', 2), meta: { tag: [{ code: 'x' }] } };
    expect(cache.serialize('r', key, [key], withMeta, (at) => bundle(at, 2))).toBe(JSON.stringify(withMeta));
  });
});

describe('createFhirEntryCache proof', () => {
  it('should prove only on the second request in a row for the same records, so alternating limits never pay for it', () => {
    const cache = createFhirEntryCache();
    const key = {};
    let rebuilds = 0;
    const rebuild = (n: number) => (at: string): fhir.Bundle => {
      rebuilds += 1;
      return bundle(at, n);
    };
    // Limits 1, 2, 1, 2 …: the records differ every time, nothing is proven.
    for (let i = 0; i < 6; i++) {
      const n = 1 + (i % 2);
      const b = bundle(`2026-03-01T15:00:00.00${i}Z`, n);
      expect(cache.serialize('r', key, [key, n], b, rebuild(n))).toBe(JSON.stringify(b));
    }
    expect(rebuilds).toBe(0);
    // The same records twice in a row: proven once (two builds at other times), then reused.
    for (let i = 0; i < 3; i++) {
      const b = bundle(`2026-03-01T15:00:01.00${i}Z`, 2);
      expect(cache.serialize('r', key, [key, 2], b, rebuild(2))).toBe(JSON.stringify(b));
    }
    expect(rebuilds).toBe(2);
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
