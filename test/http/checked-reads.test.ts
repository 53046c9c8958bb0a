/**
 * A host's data source that hands out records that are not frozen: the handler checks each record on its own as
 * it is read (checked-reads.ts) and passes a deep-frozen checked copy on, so the builders do not walk it again and
 * the check gives the event loop back between records. The answers are byte for byte those of the in-memory
 * source; a record that fails its check is passed on as given, and the export fails exactly as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartValidationError, checkChartDocument, freezeChartRecord, type ChartDocument, type ClinicalNote } from '../../src/index.js';
import { createInMemoryDataSource, type ChartDataSource } from '../../src/http/index.js';
import { checkedReads } from '../../src/http/internal/checked-reads.js';
import { isCheckedFrozen } from '../../src/validation/memo.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { runs } from '../support/runs.js';
import { turnsDuring } from '../support/loop-turns.js';
import { CHART_DOCUMENT, KEYS, PATIENT_ID } from './support/fixture.js';
import { describeMatrix, fixtureOptions, serve, type Mode } from './support/harness.js';

const q = encodeURIComponent;
const key = { 'x-api-key': KEYS.both };

/** A host source over the same records that hands out fresh shallow copies (not frozen, never remembered). */
function hostSource(doc: ChartDocument, change: Partial<ChartDataSource> = {}): ChartDataSource {
  const memory = createInMemoryDataSource(doc);
  const copy = (r: unknown): unknown => (r !== null && typeof r === 'object' ? { ...r } : r);
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(memory)) {
    if (typeof fn !== 'function') continue;
    out[name] = async (...args: unknown[]) => {
      const r: unknown = await (fn as (...a: unknown[]) => Promise<unknown>).apply(memory, args);
      return Array.isArray(r) ? r.map(copy) : copy(r);
    };
  }
  return { ...(out as unknown as ChartDataSource), ...change };
}

/** A note of realistic words, `n` characters. */
const note = (i: number, n: number): ClinicalNote => ({
  id: `n-${i}`,
  type: 'progress-note',
  title: `Note ${i}`,
  status: 'final',
  authored: '2026-01-02T09:00:00Z',
  text: 'Subjective: sleeps better, mood stable. Plan: continue therapy. '.repeat(Math.ceil(n / 64)).slice(0, n),
});

describe('checkedReads', () => {
  const notes = Array.from({ length: 4000 }, (_, i) => note(i, 2000));
  const source = (stableRecords: boolean, list: readonly ClinicalNote[] = notes): ChartDataSource =>
    checkedReads({ ...hostSource(CHART_DOCUMENT), listNotes: () => Promise.resolve(list), getNote: () => Promise.resolve(list[0]) }, stableRecords);

  it('should pass on deep-frozen checked copies, equal to the records given', async () => {
    const read = await source(false).listNotes(PATIENT_ID, 10);
    expect(read).toEqual(notes);
    expect(read.every((n, i) => isCheckedFrozen(n) && Object.isFrozen(n) && n !== notes[i])).toBe(true);
  });

  it('should pass a record that fails its check on as given (the builder then reports it)', async () => {
    const broken = { ...note(0, 10), status: 'no-such-status' } as unknown as ClinicalNote;
    const read = await source(false, [broken, note(1, 10)]).listNotes(PATIENT_ID, 10);
    expect(read[0]).toBe(broken);
    expect(isCheckedFrozen(read[1])).toBe(true);
  });

  it('should keep one copy per record of a source with stable records (output reuse finds it), a new one otherwise', async () => {
    const stable = source(true, [Object.freeze(note(0, 10))]);
    expect(await stable.getNote(PATIENT_ID, 'n-0')).toBe(await stable.getNote(PATIENT_ID, 'n-0'));
    // A record of a stable source that is not frozen may change: a new copy on every read.
    const loose = source(true, [note(0, 10)]);
    expect(await loose.getNote(PATIENT_ID, 'n-0')).not.toBe(await loose.getNote(PATIENT_ID, 'n-0'));
    const fresh = source(false, [note(0, 10)]);
    expect(await fresh.getNote(PATIENT_ID, 'n-0')).not.toBe(await fresh.getNote(PATIENT_ID, 'n-0'));
  });

  it('should pass a record already checked and frozen (freezeChartRecord) on as it is, without a copy', async () => {
    const checked = freezeChartRecord('note', note(0, 10));
    expect(await source(false, [checked]).getNote(PATIENT_ID, 'n-0')).toBe(checked);
    expect(await source(true, [checked]).getNote(PATIENT_ID, 'n-0')).toBe(checked);
  });

  it('should answer a stable source’s records read before from their copies, without waiting behind other checks', async () => {
    const frozen = Object.freeze(note(0, 10));
    const stable = checkedReads({ ...hostSource(CHART_DOCUMENT), listNotes: () => Promise.resolve(notes), getNote: () => Promise.resolve(frozen) }, true);
    const first = await stable.getNote(PATIENT_ID, 'n-0');
    // 4 000 notes that are not frozen keep the queue of checks busy over several turns of the event loop.
    const order: string[] = [];
    const long = stable.listNotes(PATIENT_ID, 4000).then(() => order.push('list'));
    const again = stable.getNote(PATIENT_ID, 'n-0').then((n) => {
      order.push('note');
      return n;
    });
    expect(await again).toBe(first);
    await long;
    // Without the kept copy the note would have waited for the 4 000 checks queued before it.
    expect(order).toEqual(['note', 'list']);
  });

  it('should give the event loop back while it checks many records, and not for a few small ones', async () => {
    // 4 000 notes of 2 000 characters take well over the 10 ms budget to check; two small notes take none of it.
    expect((await turnsDuring(() => source(false).listNotes(PATIENT_ID, 4000))).turns).toBeGreaterThan(0);
    expect((await turnsDuring(() => source(false, [note(0, 10), note(1, 10)]).listNotes(PATIENT_ID, 2))).turns).toBe(0);
  });
});

/** Every export route of a document's first patient, on its first record of each kind. */
function paths(doc: ChartDocument): string[] {
  const chart = doc.patients[0];
  if (chart === undefined) return [];
  const p = `patientId=${q(chart.patient.id)}`;
  const out = [`/exportFhirPatient?${p}`, `/exportHl7PatientAdt?${p}`, `/exportFhirPatientBundle?${p}`, `/exportHl7PatientSummary?${p}&limit=6`];
  const e = chart.encounters?.[0];
  if (e !== undefined) out.push(`/exportFhirEncounter?${p}&encounterId=${q(e.id)}`, `/exportHl7Encounter?${p}&encounterId=${q(e.id)}`);
  const n = chart.notes?.[0];
  if (n !== undefined) out.push(`/exportFhirNote?${p}&noteId=${q(n.id)}`, `/exportHl7Note?${p}&noteId=${q(n.id)}`);
  const a = chart.assessments?.[0];
  if (a !== undefined) out.push(`/exportFhirAssessment?${p}&assessmentId=${q(a.id)}`, `/exportHl7Assessment?${p}&assessmentId=${q(a.id)}`);
  return out;
}

describeMatrix('a host source whose records are not frozen', (mode: Mode) => {
  it('should answer byte for byte as the in-memory source over generated documents', async () => {
    await fc.assert(
      fc.asyncProperty(arbChartDocument({ mappable: true, maxPatients: 2 }).filter((doc) => checkChartDocument(doc).length === 0), async (doc) => {
        const memory = await serve(mode, await fixtureOptions({ dataSource: createInMemoryDataSource(doc) }));
        const host = await serve(mode, await fixtureOptions({ dataSource: hostSource(doc) }));
        for (const path of paths(doc)) {
          const [a, b] = [await memory(path, { headers: key }), await host(path, { headers: key })];
          expect(b.status, path).toBe(a.status);
          expect(b.body, path).toBe(a.body);
        }
      }),
      { numRuns: runs(mode === 'fetch' ? 25 : 8), endOnFailure: true },
    );
  });

  it('should fail an export of a record that fails the check as before, with the builder’s ChartValidationError', async () => {
    const errors: unknown[] = [];
    const broken = { ...note(0, 10), status: 'no-such-status' } as unknown as ClinicalNote;
    const dataSource = hostSource(CHART_DOCUMENT, { getNote: () => Promise.resolve(broken) });
    const call = await serve(mode, await fixtureOptions({ dataSource, onError: (e) => errors.push(e) }));
    const res = await call(`/exportHl7Note?patientId=${PATIENT_ID}&noteId=n-0`, { headers: key });
    expect(res.status).toBe(500);
    expect(errors).toHaveLength(1);
    const error = errors[0] as ChartValidationError;
    expect(error).toBeInstanceOf(ChartValidationError);
    expect(error.issues.map((i) => i.path.join('.'))).toEqual(['notes.0.status']);
  });
});
