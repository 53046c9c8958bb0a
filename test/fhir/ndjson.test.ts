/**
 * The NDJSON writers: for any chart document the check accepts, the lines of each type are exactly the
 * resources the patient Bundle builder gives (same bytes, none missing, none twice), every line passes the R4
 * validator, `_since` keeps exactly the resources updated later (and those without `meta.lastUpdated`), and
 * `lastUpdated` becomes `meta.lastUpdated` right after `id`.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  ChartValidationError,
  InvalidArgumentError,
  buildFhirPatientBundle,
  checkChartDocument,
  freezeChartDocument,
  freezeDirectory,
  streamChartDocumentNdjson,
  streamFhirNdjson,
  toFhirEncounter,
  type ChartDocument,
  type Directory,
  type FhirNdjsonLine,
  type PatientChart,
} from '../../src/index.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { validateFhir } from '../support/fhir-validator.js';
import { runs } from '../support/runs.js';

/**
 * Drain a writer while a chain of macrotasks runs beside it: each link runs only when the writer has given the
 * event loop back, so `ticks` counts the turns it gave back.
 */
async function countTurns(lines: AsyncIterable<{ readonly text: string }>): Promise<{ lines: number; ticks: number }> {
  let ticks = 0;
  let done = false;
  const tick = (): void => {
    if (done) return;
    ticks++;
    setImmediate(tick);
  };
  setImmediate(tick);
  let count = 0;
  try {
    for await (const line of lines) count += line.text.length > 0 ? 1 : 0;
  } finally {
    done = true;
  }
  return { lines: count, ticks };
}


const NOW = '2026-03-01T15:00:00Z';

async function collect(lines: AsyncIterable<FhirNdjsonLine>): Promise<FhirNdjsonLine[]> {
  const out: FhirNdjsonLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** What the builders give: per `Type/id`, the first chart's JSON; the keys met again with other bytes (or from another chart, for patient-scoped types). */
function expectedOf(doc: ChartDocument, keep: (r: { resourceType: string; meta?: { lastUpdated?: string } }) => boolean = () => true): { lines: Map<string, string>; conflicts: string[] } {
  const shared = new Set(['Organization', 'Practitioner', 'Location', 'Questionnaire']);
  const lines = new Map<string, string>();
  const conflicts: string[] = [];
  for (const chart of doc.patients) {
    const bundle = buildFhirPatientBundle(chart, { directory: doc.directory, now: NOW });
    for (const entry of bundle.entry ?? []) {
      const resource = entry.resource as { resourceType: string; id: string; meta?: { lastUpdated?: string } };
      if (!keep(resource)) continue;
      const key = `${resource.resourceType}/${resource.id}`;
      const text = JSON.stringify(resource);
      const previous = lines.get(key);
      if (previous === undefined) lines.set(key, text);
      else if (!shared.has(resource.resourceType) || previous !== text) conflicts.push(key);
    }
  }
  return { lines, conflicts };
}

function checkLines(got: FhirNdjsonLine[], expected: { lines: Map<string, string>; conflicts: string[] }): void {
  const resources = got.filter((l) => l.resourceType !== 'OperationOutcome');
  const seen = new Map<string, string>();
  for (const line of resources) {
    const key = `${line.resourceType}/${line.id}`;
    expect(seen.has(key), `${key} twice`).toBe(false);
    expect(line.text.endsWith('\n')).toBe(true);
    expect(line.text.indexOf('\n')).toBe(line.text.length - 1);
    const parsed = JSON.parse(line.text) as { resourceType: string; id: string };
    expect(`${parsed.resourceType}/${parsed.id}`).toBe(key);
    seen.set(key, line.text.slice(0, -1));
  }
  expect(seen).toEqual(expected.lines);
  expect(got.filter((l) => l.resourceType === 'OperationOutcome').map((l) => l.id)).toEqual(expected.conflicts);
}

/** A document whose records carry a `lastUpdated` where `stamps` says (cycled), else none. */
function stamped(doc: ChartDocument, stamps: readonly (string | undefined)[]): ChartDocument {
  let i = 0;
  const next = <T extends object>(record: T): T => {
    const stamp = stamps.length === 0 ? undefined : stamps[i++ % stamps.length];
    return stamp === undefined ? record : { ...record, lastUpdated: stamp };
  };
  return {
    ...doc,
    patients: doc.patients.map((c): PatientChart => {
      const out: PatientChart = { ...c, patient: next(c.patient) };
      if (c.encounters !== undefined) out.encounters = c.encounters.map(next);
      if (c.notes !== undefined) out.notes = c.notes.map(next);
      if (c.assessments !== undefined) out.assessments = c.assessments.map(next);
      if (c.medicalHistory !== undefined) out.medicalHistory = c.medicalHistory.map(next);
      return out;
    }),
  };
}

const arbDoc = arbChartDocument({ mappable: true, maxPatients: 3 }).filter((doc) => checkChartDocument(doc).length === 0);
const arbStamp = fc.constantFrom(undefined, '2025-01-01T00:00:00Z', '2026-01-01T12:00:00+02:00', '2026-06-30T23:59:59.5-05:00');

describe('streamChartDocumentNdjson', () => {
  it('should give, per type, exactly the resources of the patient Bundles, each line their bytes, none twice', async () => {
    await fc.assert(
      fc.asyncProperty(arbDoc, fc.array(arbStamp, { maxLength: 5 }), async (plain, stamps) => {
        const doc = stamped(plain, stamps);
        checkLines(await collect(streamChartDocumentNdjson(doc, { yieldEvery: 0 })), expectedOf(doc));
      }),
      { numRuns: runs(40) },
    );
  });

  it('should give lines that each pass the R4 validator', async () => {
    await fc.assert(
      fc.asyncProperty(arbDoc, fc.array(arbStamp, { maxLength: 3 }), async (plain, stamps) => {
        for (const line of await collect(streamChartDocumentNdjson(stamped(plain, stamps), { yieldEvery: 0 }))) {
          const findings = validateFhir(JSON.parse(line.text) as object).map((f) => `${f.severity} ${f.rule} ${f.path}: ${f.message}`);
          expect(findings, line.resourceType).toEqual([]);
        }
      }),
      { numRuns: runs(15) },
    );
  });

  it('should keep, with since, exactly the resources updated later and those without meta.lastUpdated', async () => {
    await fc.assert(
      fc.asyncProperty(arbDoc, fc.array(arbStamp, { minLength: 1, maxLength: 5 }), async (plain, stamps) => {
        const doc = stamped(plain, stamps);
        const since = '2026-01-01T10:00:00Z';
        const keep = (r: { meta?: { lastUpdated?: string } }): boolean => r.meta?.lastUpdated === undefined || Date.parse(r.meta.lastUpdated) > Date.parse(since);
        checkLines(await collect(streamChartDocumentNdjson(doc, { since, yieldEvery: 0 })), expectedOf(doc, keep));
      }),
      { numRuns: runs(40) },
    );
  });

  it('should give only the asked types', async () => {
    await fc.assert(
      fc.asyncProperty(arbDoc, fc.subarray(['Patient', 'Encounter', 'Practitioner', 'Questionnaire'] as const), async (doc, types) => {
        const got = await collect(streamChartDocumentNdjson(doc, { types, yieldEvery: 3 }));
        const want = expectedOf(doc, (r) => (types as readonly string[]).includes(r.resourceType));
        checkLines(got, want);
      }),
      { numRuns: runs(30) },
    );
  });

  it('should add, with wholeDirectory, every directory record once, also those no chart refers to', async () => {
    await fc.assert(
      fc.asyncProperty(arbDoc, async (doc) => {
        const got = await collect(streamChartDocumentNdjson(doc, { wholeDirectory: true, yieldEvery: 0 }));
        const ids = (type: string): string[] => got.filter((l) => l.resourceType === type).map((l) => l.id).sort();
        const dir = doc.directory;
        expect(new Set(ids('Practitioner')).size).toBe(ids('Practitioner').length);
        expect(ids('Practitioner').length).toBe(dir?.practitioners?.length ?? 0);
        expect(ids('Location').length).toBe(dir?.locations?.length ?? 0);
        const payers = new Set(doc.patients.flatMap((c) => (c.patient.coverages ?? []).map((v) => v.payer.id)));
        expect(ids('Organization').length).toBeGreaterThanOrEqual(dir?.organizations?.length ?? 0);
        expect(ids('Organization').length).toBeLessThanOrEqual((dir?.organizations?.length ?? 0) + payers.size);
      }),
      { numRuns: runs(30) },
    );
  });
});

/** The directory with the records of the kinds `change` names changed (same ids): each conflicts with the original. */
function altered(directory: Directory | undefined, change: { practitioners: boolean; locations: boolean; organizations: boolean }): Directory {
  return {
    practitioners: directory?.practitioners?.map((p) => (change.practitioners ? { ...p, active: !(p.active ?? true) } : p)),
    locations: directory?.locations?.map((l) => (change.locations ? { ...l, description: `${l.description ?? 'Room'} (moved)` } : l)),
    organizations: directory?.organizations?.map((o) => (change.organizations ? { ...o, active: !(o.active ?? true) } : o)),
  };
}

describe('streamFhirNdjson over frozen directories', () => {
  // The writer maps a frozen directory's record once per export, not once per chart: the lines must not change.
  it('should give the same lines, in the same order, as over plain copies, also across conflicting directories', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbDoc,
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 6 }),
        fc.option(fc.subarray(['Patient', 'Organization', 'Practitioner', 'Location'] as const)),
        fc.boolean(),
        fc.record({ practitioners: fc.boolean(), locations: fc.boolean(), organizations: fc.boolean() }),
        async (doc, picks, types, whole, change) => {
          // A location the same in both directories and its organization not: the location is written once, its
          // organization refused (an error line) each time a chart of the other directory refers to it.
          const other = altered(doc.directory, change);
          const frozen = freezeChartDocument(doc);
          const frozenOther = freezeDirectory(other);
          const items = (useFrozen: boolean): { chart: PatientChart; directory: Directory | undefined }[] =>
            doc.patients.length === 0
              ? []
              : picks.map(([n, alt]) => {
                  const i = n % doc.patients.length;
                  const directory = alt ? (useFrozen ? frozenOther : other) : useFrozen ? frozen.directory : doc.directory;
                  return { chart: (useFrozen ? frozen.patients[i] : doc.patients[i]) as PatientChart, directory };
                });
          const options = (useFrozen: boolean): Parameters<typeof streamFhirNdjson>[1] => ({
            yieldEvery: 0,
            ...(types === null ? {} : { types }),
            ...(whole ? { wholeDirectory: useFrozen ? frozen.directory : doc.directory } : {}),
          });
          const want = await collect(streamFhirNdjson(items(false), options(false)));
          expect(await collect(streamFhirNdjson(items(true), options(true)))).toEqual(want);
        },
      ),
      { numRuns: runs(40) },
    );
  });

  it('should refuse a conflicting organization again for each chart that reaches it through a location written once', async () => {
    // Arrange: the same location in two directories, its organization different; charts over the second, the first, the first
    const location = { id: 'loc-1', name: 'Clinic', organizationId: 'org-1' };
    const first: Directory = { organizations: [{ id: 'org-1', name: 'First' }], locations: [location] };
    const second: Directory = { organizations: [{ id: 'org-1', name: 'Second' }], locations: [location] };
    const chart = (id: string): PatientChart => ({
      patient: { id, identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: id }], names: [{ family: 'Test' }] },
      encounters: [{ id: `${id}-e1`, status: 'finished', class: 'AMB', locationId: 'loc-1' }],
    });
    const items = (a: Directory, b: Directory): { chart: PatientChart; directory: Directory }[] => [
      { chart: chart('p1'), directory: b },
      { chart: chart('p2'), directory: a },
      { chart: chart('p3'), directory: a },
    ];
    // Act
    const plain = await collect(streamFhirNdjson(items(first, second), { yieldEvery: 0 }));
    const frozen = await collect(streamFhirNdjson(items(freezeDirectory(first), freezeDirectory(second)), { yieldEvery: 0 }));
    // Assert
    expect(plain.filter((l) => l.resourceType === 'OperationOutcome').map((l) => l.id)).toEqual(['Organization/org-1', 'Organization/org-1']);
    expect(frozen).toEqual(plain);
  });
});

describe('streamFhirNdjson', () => {
  const chart = (id: string, encounterId: string): PatientChart => ({
    patient: { id, identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: id }], names: [{ family: 'Test' }] },
    encounters: [{ id: encounterId, status: 'finished', class: 'AMB', period: { start: '2026-01-02T10:00:00Z' } }],
  });

  it('should leave out a different resource with an id already written, and say so in an OperationOutcome line', async () => {
    // Arrange: two patients whose encounters share a chart id (ids are unique per chart only)
    const charts = [chart('p1', 'enc-1'), chart('p2', 'enc-1')];
    // Act
    const got = await collect(streamFhirNdjson(charts));
    // Assert
    expect(got.filter((l) => l.resourceType === 'Encounter').map((l) => l.id)).toEqual(['enc-1']);
    const outcome = got.filter((l) => l.resourceType === 'OperationOutcome');
    expect(outcome.map((l) => l.id)).toEqual(['Encounter/enc-1']);
    expect(validateFhir(JSON.parse((outcome[0] as FhirNdjsonLine).text) as object)).toEqual([]);
  });

  it('should read an async iterable of charts one at a time, with a directory per chart', async () => {
    async function* charts(): AsyncGenerator<{ chart: PatientChart }> {
      yield { chart: chart('p1', 'e1') };
      yield { chart: chart('p2', 'e2') };
    }
    const got = await collect(streamFhirNdjson(charts()));
    expect(got.map((l) => `${l.resourceType}/${l.id}`)).toEqual(['Patient/p1', 'Encounter/e1', 'Patient/p2', 'Encounter/e2']);
  });

  it('should close the charts\' iterator when the export ends early or fails, as a for await over it would', async () => {
    const log: string[] = [];
    async function* charts(bad: boolean): AsyncGenerator<PatientChart> {
      try {
        yield chart('p1', 'e1');
        yield bad ? ({ patient: { id: '' } } as unknown as PatientChart) : chart('p2', 'e2');
        yield chart('p3', 'e3');
      } finally {
        log.push('closed');
      }
    }
    // The consumer stops after the first line.
    for await (const line of streamFhirNdjson(charts(false))) {
      expect(line.id).toBe('p1');
      break;
    }
    expect(log).toEqual(['closed']);
    // The second chart fails the chart check: the lines before it were given, then the error, the source closed.
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const line of streamFhirNdjson(charts(true))) seen.push(line.id);
      })(),
    ).rejects.toBeInstanceOf(ChartValidationError);
    expect(seen).toEqual(['p1', 'e1']);
    expect(log).toEqual(['closed', 'closed']);
    // Nothing is read before the first next(), and return() then closes nothing.
    const untouched = charts(false);
    expect(await streamFhirNdjson(untouched).return(undefined)).toEqual({ done: true, value: undefined });
    expect(log).toHaveLength(2);
  });

  it('should write lastUpdated as meta.lastUpdated right after id, and no meta without it', () => {
    const e = { id: 'e1', status: 'finished', class: 'AMB', lastUpdated: '2026-02-03T04:05:06+01:00' } as const;
    expect(JSON.stringify(toFhirEncounter(e, chart('p1', 'e1').patient)).startsWith('{"resourceType":"Encounter","id":"e1","meta":{"lastUpdated":"2026-02-03T04:05:06+01:00"},"status"')).toBe(true);
    const { lastUpdated: _unused, ...plain } = e;
    expect(JSON.stringify(toFhirEncounter(plain, chart('p1', 'e1').patient))).not.toContain('meta');
  });

  it('should refuse a malformed lastUpdated with its path, and malformed options', async () => {
    const bad = { ...chart('p1', 'e1'), patient: { ...chart('p1', 'e1').patient, lastUpdated: '2026-02-03' } };
    await expect(collect(streamFhirNdjson([bad]))).rejects.toSatisfy(
      (e) => e instanceof ChartValidationError && e.issues.some((i) => i.path.join('.') === 'patient.lastUpdated'),
    );
    await expect(collect(streamFhirNdjson([], { since: 'yesterday' }))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(collect(streamFhirNdjson([], { types: ['Bundle' as 'Patient'] }))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(collect(streamFhirNdjson([], { yieldEvery: -1 }))).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('should give the event loop back between resources (yieldEvery 1), and not with yieldEvery 0', async () => {
    const charts = Array.from({ length: 20 }, (_, i) => chart(`p${i}`, `e${i}`));
    const turns = (yieldEvery: number): Promise<{ lines: number; ticks: number }> => countTurns(streamFhirNdjson(charts, { yieldEvery }));
    const paced = await turns(1);
    expect(paced.lines).toBe(40);
    expect(paced.ticks).toBeGreaterThanOrEqual(39);
    expect((await turns(0)).ticks).toBe(0);
  });

  it('should give the event loop back by default once a millisecond of work has passed, and not before', async () => {
    const charts = Array.from({ length: 100 }, (_, i) => chart(`p${i}`, `e${i}`));
    const turns = async (step: number): Promise<{ lines: number; ticks: number }> => {
      // A clock that moves `step` ms per reading: the slice is what the writer reads, not what the machine does.
      let clock = 0;
      const spy = vi.spyOn(performance, 'now').mockImplementation(() => (clock += step));
      try {
        return await countTurns(streamFhirNdjson(charts));
      } finally {
        spy.mockRestore();
      }
    };
    const slow = await turns(0.6);
    expect(slow.lines).toBe(200);
    // Each resource is one reading (0.6 ms), so at least every second resource ends a slice.
    expect(slow.ticks).toBeGreaterThanOrEqual(90);
    expect((await turns(0)).ticks).toBe(0);
  });
});
