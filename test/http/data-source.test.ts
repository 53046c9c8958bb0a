import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartValidationError, checkChartDocument, type ChartDocument } from '../../src/index.js';
import { compareIds, createInMemoryDataSource, loadChartDocument } from '../../src/http/index.js';
import { newestFirst } from '../../src/http/internal/newest.js';
import { isoOrderKey as orderKeyOf } from '../../src/internal/adapter.js';
import { isoOrderKey } from '../../src/internal/iso.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { arbIsoDate, arbIsoDateTime } from '../../src/testing/dates.js';
import { CHART_DOCUMENT, OTHER_PATIENT_ID, PATIENT_ID } from './support/fixture.js';
import { runs } from '../support/runs.js';

function issuesOf(fn: () => unknown): ChartValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ChartValidationError);
    return error as ChartValidationError;
  }
  throw new Error('expected a ChartValidationError');
}

describe('loadChartDocument', () => {
  it('should accept a valid document as a value, as JSON text and as UTF-8 bytes', () => {
    const text = JSON.stringify(CHART_DOCUMENT);
    const loaded = loadChartDocument(CHART_DOCUMENT);
    expect(loaded).toEqual(CHART_DOCUMENT);
    expect(loaded).not.toBe(CHART_DOCUMENT);
    expect(loadChartDocument(loaded)).toBe(loaded);
    expect(loadChartDocument(text)).toEqual(CHART_DOCUMENT);
    expect(loadChartDocument(new TextEncoder().encode(text))).toEqual(CHART_DOCUMENT);
  });

  it('should report every problem with its path and no patient value', () => {
    // Arrange: three problems in two patients; the values are distinctive so a leak would show.
    const doc = structuredClone(CHART_DOCUMENT) as ChartDocument & { patients: { patient: { names: unknown[]; birthDate?: string } }[] };
    doc.patients[0]!.patient.birthDate = 'Quintero-1984';
    (doc.patients[0] as unknown as { encounters: { locationId: string }[] }).encounters[1]!.locationId = 'loc-Zyxwvut';
    doc.patients[1]!.patient.names = [];
    // Act
    const error = issuesOf(() => loadChartDocument(doc));
    // Assert
    expect(error.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        ['patients', 0, 'patient', 'birthDate'],
        ['patients', 0, 'encounters', 1, 'locationId'],
        ['patients', 1, 'patient', 'names'],
      ]),
    );
    expect(error.message).not.toMatch(/Quintero|Zyxwvut/);
  });

  it('should report nesting too deep together with every other problem, not only the first', () => {
    // Arrange: JSON text with two unknown properties nested 70 levels deep and one field error.
    const doc = structuredClone(CHART_DOCUMENT) as unknown as { patients: { patient: { gender: string }; extra?: unknown; more?: unknown }[] };
    let deep: unknown = 'Quintero-deep';
    for (let i = 0; i < 70; i++) deep = { a: deep };
    doc.patients[0]!.extra = deep;
    doc.patients[1]!.more = deep;
    doc.patients[0]!.patient.gender = 'Quintero-gender';
    // Act
    const error = issuesOf(() => loadChartDocument(JSON.stringify(doc)));
    // Assert
    expect(error.issues.map((i) => `${i.path.slice(0, 3).join('.')} ${i.code}`)).toEqual(['patients.0.extra type', 'patients.1.more type', 'patients.0.patient enum']);
    expect(error.issues[2]?.path).toEqual(['patients', 0, 'patient', 'gender']);
    expect(error.message).not.toContain('Quintero');
  });

  it('should refuse text that is not JSON or not UTF-8 without quoting it', () => {
    const json = issuesOf(() => loadChartDocument('{"patients": [ {"patient": Quintero-Secret } ]}'));
    expect(json.issues).toHaveLength(1);
    expect(json.issues[0]?.path).toEqual([]);
    expect(json.message).toMatch(/not valid JSON/);
    expect(json.message).not.toContain('Quintero');
    const bytes = issuesOf(() => loadChartDocument(new Uint8Array([0x7b, 0xff, 0x7d])));
    expect(bytes.message).toMatch(/not valid UTF-8/);
  });
});

describe('createInMemoryDataSource', () => {
  const ds = createInMemoryDataSource(CHART_DOCUMENT);

  it('should read patients and records, scoped to their patient', async () => {
    expect((await ds.getPatient(PATIENT_ID))?.names[0]?.family).toBe('Quintero');
    expect(await ds.getPatient('nobody')).toBeUndefined();
    expect((await ds.getEncounter(PATIENT_ID, 'enc-0003'))?.id).toBe('enc-0003');
    expect(await ds.getEncounter(PATIENT_ID, 'enc-9001')).toBeUndefined();
    expect((await ds.getEncounter(OTHER_PATIENT_ID, 'enc-9001'))?.id).toBe('enc-9001');
    expect(await ds.getNote(PATIENT_ID, 'note-9001')).toBeUndefined();
    expect(await ds.getAssessment(OTHER_PATIENT_ID, 'asmt-0001')).toBeUndefined();
    expect((await ds.getMedicalHistoryEntry(PATIENT_ID, 'hx-0002'))?.id).toBe('hx-0002');
    expect(await ds.getMedicalHistoryEntry(OTHER_PATIENT_ID, 'hx-0002')).toBeUndefined();
  });

  it('should list the newest N of each kind, newest first', async () => {
    expect((await ds.listEncounters(PATIENT_ID, 10)).map((e) => e.id)).toEqual(['enc-0003', 'enc-0002', 'enc-0001']);
    expect((await ds.listEncounters(PATIENT_ID, 2)).map((e) => e.id)).toEqual(['enc-0003', 'enc-0002']);
    expect((await ds.listNotes(PATIENT_ID, 2)).map((e) => e.id)).toEqual(['note-0002', 'note-0003']);
    expect((await ds.listAssessments(PATIENT_ID, 1)).map((e) => e.id)).toEqual(['asmt-0002']);
    expect((await ds.listMedicalHistory(PATIENT_ID, 5)).map((e) => e.id)).toEqual(['hx-0002', 'hx-0001']);
    expect(await ds.listNotes(PATIENT_ID, 0)).toEqual([]);
    expect(await ds.listNotes('nobody', 5)).toEqual([]);
  });

  it('should read the directory by id and list it in document order', async () => {
    expect((await ds.getLocation('loc-001'))?.organizationId).toBe('org-002');
    expect(await ds.getPractitioner('nobody')).toBeUndefined();
    expect((await ds.getOrganization('org-003'))?.name).toBe('Lakeside Family Practice');
    expect((await ds.listOrganizations(2)).map((o) => o.id)).toEqual(['org-001', 'org-002']);
    expect((await ds.listPractitioners(9)).map((o) => o.id)).toEqual(['prac-001', 'prac-002']);
    expect((await ds.listLocations(1)).map((o) => o.id)).toEqual(['loc-001']);
  });

  it('should copy and freeze the document, so later changes do not leak in or out', async () => {
    const doc = structuredClone(CHART_DOCUMENT);
    const source = createInMemoryDataSource(doc);
    doc.patients[0]!.patient.names[0]!.family = 'Changed';
    const patient = await source.getPatient(PATIENT_ID);
    expect(patient?.names[0]?.family).toBe('Quintero');
    expect(Object.isFrozen(patient?.names[0])).toBe(true);
  });

  it('should refuse an invalid document, and serve a loaded (frozen, checked) document without copying it again', async () => {
    expect(() => createInMemoryDataSource({ patients: [{ patient: { id: '' } }] })).toThrow(ChartValidationError);
    expect(() => createInMemoryDataSource('not json')).toThrow(ChartValidationError);
    const loaded = loadChartDocument({ patients: [{ patient: { id: 'p-1', identifiers: [{ system: 'urn:x', value: '1' }], names: [{ text: 'A' }] } }] });
    expect(Object.isFrozen(loaded.patients[0]?.patient.identifiers[0])).toBe(true);
    expect(await createInMemoryDataSource(loaded).getPatient('p-1')).toBe(loaded.patients[0]?.patient);
    // The source is frozen: the handler's reuse of output per record relies on its methods staying its own.
    expect(Object.isFrozen(createInMemoryDataSource(loaded))).toBe(true);
  });

  it('should serve every generated document: each record found under its patient only, lists newest first', async () => {
    await fc.assert(
      fc.asyncProperty(arbChartDocument({ maxPatients: 3 }).filter((doc) => checkChartDocument(doc).length === 0), async (doc) => {
        const source = createInMemoryDataSource(doc);
        for (const chart of doc.patients) {
          const pid = chart.patient.id;
          expect((await source.getPatient(pid))?.id).toBe(pid);
          for (const e of chart.encounters ?? []) expect((await source.getEncounter(pid, e.id))?.id).toBe(e.id);
          for (const n of chart.notes ?? []) expect((await source.getNote(pid, n.id))?.id).toBe(n.id);
          const notes = await source.listNotes(pid, 1000);
          expect(notes).toHaveLength(chart.notes?.length ?? 0);
          for (let i = 1; i < notes.length; i++) expect(orderKeyOf(notes[i - 1]!.authored)).toBeGreaterThanOrEqual(orderKeyOf(notes[i]!.authored));
          const encounters = await source.listEncounters(pid, 1000);
          for (let i = 1; i < encounters.length; i++) {
            expect(orderKeyOf(encounters[i - 1]!.period?.start)).toBeGreaterThanOrEqual(orderKeyOf(encounters[i]!.period?.start));
          }
        }
      }),
      { numRuns: runs(25) },
    );
  });
});

describe('orderKeyOf', () => {
  it('should order by the instant, honouring offsets, with dates at their first UTC instant and unknowns last', () => {
    expect(orderKeyOf('2026-03-01T09:30:00-05:00')).toBe(orderKeyOf('2026-03-01T14:30:00Z'));
    expect(orderKeyOf('2026-03-01T09:30:00.5+01:00')).toBe(orderKeyOf('2026-03-01T08:30:00.5000Z'));
    expect(orderKeyOf('2026')).toBe(orderKeyOf('2026-01-01T00:00:00Z'));
    expect(orderKeyOf('2026-02')).toBe(orderKeyOf('2026-02-01'));
    expect(orderKeyOf('0050-01-01')).toBeLessThan(orderKeyOf('1950-01-01'));
    expect(orderKeyOf(undefined)).toBe(Number.NEGATIVE_INFINITY);
    expect(orderKeyOf('yesterday')).toBe(Number.NEGATIVE_INFINITY);
    const sorted = newestFirst(['2020', undefined, '2026-01-01T00:00:00+14:00', '2025-12-31T23:00:00Z'], (x) => [x]);
    expect(sorted).toEqual(['2025-12-31T23:00:00Z', '2026-01-01T00:00:00+14:00', '2020', undefined]);
  });

  it('should tell apart the fourth fraction digit and a leap second, as the core does', () => {
    expect(newestFirst(['2026-01-01T10:00:00.1234Z', '2026-01-01T10:00:00.1235+00:00'], (x) => [x])[0]).toBe('2026-01-01T10:00:00.1235+00:00');
    expect(newestFirst(['2016-12-31T23:59:59.9Z', '2016-12-31T23:59:60.1Z'], (x) => [x])[0]).toBe('2016-12-31T23:59:60.1Z');
    expect(orderKeyOf('2016-12-31T23:59:60.9999Z')).toBeLessThan(orderKeyOf('2017-01-01T00:00:00Z'));
    fc.assert(
      fc.property(fc.oneof(arbIsoDate(), arbIsoDateTime()), fc.oneof(arbIsoDate(), arbIsoDateTime()), (a, b) => {
        expect(orderKeyOf(a)).toBe(isoOrderKey(a));
        expect(Math.sign(orderKeyOf(a) - orderKeyOf(b))).toBe(Math.sign(isoOrderKey(a) - isoOrderKey(b)));
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('compareIds', () => {
  it('should order ids as their UTF-8 bytes do (code-point order)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const bytes = Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
        expect(Math.sign(compareIds(a, b))).toBe(bytes);
      }),
      { numRuns: runs(300) },
    );
    // The one place where `<` on strings disagrees: U+FFFD is below U+1F600 by code point, above it by code unit.
    expect(compareIds('\uFFFD', '\u{1F600}')).toBeLessThan(0);
    expect('\uFFFD' < '\u{1F600}').toBe(false);
  });
});

describe('createInMemoryDataSource keyset pages', () => {
  it('should give every patient exactly once, ascending by id, whatever the page size', async () => {
    await fc.assert(
      fc.asyncProperty(arbChartDocument(), fc.integer({ min: 1, max: 7 }), async (doc, limit) => {
        const source = createInMemoryDataSource(doc);
        const seen: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await source.listPatients!({ after, limit });
          expect(page.length).toBeLessThanOrEqual(limit);
          if (page.length === 0) break;
          seen.push(...page.map((p) => p.id));
          after = page[page.length - 1]!.id;
        }
        const expected = doc.patients.map((c) => c.patient.id).sort(compareIds);
        expect(seen).toEqual(expected);
      }),
      { numRuns: runs(40) },
    );
  });

  it('should start after an id that is not in the source, and refuse a page size that is not a positive integer', async () => {
    const source = createInMemoryDataSource(CHART_DOCUMENT);
    const ids = CHART_DOCUMENT.patients.map((c) => c.patient.id).sort(compareIds);
    const page = await source.listPatients!({ after: `${ids[0]}\u0000`, limit: 100 });
    expect(page.map((p) => p.id)).toEqual(ids.slice(1));
    await expect(source.listPatients!({ limit: 0 })).rejects.toThrow(/positive integer/);
    await expect(source.listPractitionersPage!({ limit: 1.5 })).rejects.toThrow(/positive integer/);
  });
});
