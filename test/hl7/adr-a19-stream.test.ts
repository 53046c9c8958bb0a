/**
 * The streamed patient summary (`streamAdrA19`): its chunks, joined, are byte for byte `buildAdrA19`'s message for
 * any chart the check accepts and any options; it fails as the builder fails (at the call for the chart and the
 * options); and it gives the event loop back between records, not only between QUERY_RESPONSE groups.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ChartValidationError,
  InvalidArgumentError,
  buildAdrA19,
  streamAdrA19,
  type ClinicalNote,
  type Hl7SummaryStreamOptions,
  type PatientChart,
} from '../../src/index.js';
import { patientChart, type ChartWithDirectory } from '../../src/testing/index.js';
import { runs } from '../support/runs.js';
import { turnsDuring } from '../support/loop-turns.js';

const NOW = '2026-03-01T10:30:00-05:00';

async function joined(chunks: AsyncIterable<string>): Promise<{ text: string; chunks: string[] }> {
  const list: string[] = [];
  for await (const chunk of chunks) list.push(chunk);
  return { text: list.join(''), chunks: list };
}

/** The buffered message, or the error's class name. */
function buffered(chart: PatientChart, options: Hl7SummaryStreamOptions): string | { error: string } {
  try {
    return buildAdrA19(chart, options);
  } catch (error) {
    return { error: (error as Error).name };
  }
}

/** The streamed message, or the error's class name (thrown at the call or rejecting the iteration). */
async function streamed(chart: PatientChart, options: Hl7SummaryStreamOptions): Promise<string | { error: string }> {
  try {
    return (await joined(streamAdrA19(chart, options))).text;
  } catch (error) {
    return { error: (error as Error).name };
  }
}

const arbOptions = fc.record(
  {
    limit: fc.nat({ max: 8 }),
    queryId: fc.constantFrom('Q1', 'Q|2^é', 'QUERY-0010'),
    lineEnding: fc.constantFrom('\r' as const, '\n' as const),
    sendingFacility: fc.constantFrom('RIVERSIDE', 'Hôpital'),
    chunkChars: fc.integer({ min: 1, max: 5000 }),
    maxHoldMs: fc.constantFrom(0, 1000),
  },
  { requiredKeys: ['chunkChars', 'maxHoldMs'] },
);

/** A note of `n` characters of realistic words, delimiters and non-ASCII text included. */
function longNote(i: number, n: number, encounterId?: string): ClinicalNote {
  const words = ['Subjective:', 'sleeps', 'better|', 'mood^', 'stable~', 'Plan:', 'café', '\\continue\\', 'therapy&', '😀', 'weekly.\n'];
  let text = '';
  for (let k = 0; text.length < n; k++) text += `${words[(k * 7 + i) % words.length]} `;
  // Cut at n characters, but never inside a surrogate pair.
  const cut = text.charCodeAt(n - 1) >= 0xd800 && text.charCodeAt(n - 1) <= 0xdbff ? n - 1 : n;
  return {
    id: `note-${i}`,
    type: 'progress-note',
    title: `Note ${i}`,
    status: 'final',
    authored: `2026-01-${String((i % 28) + 1).padStart(2, '0')}T09:00:00Z`,
    text: `${text.slice(0, cut).trimEnd()}.`,
    ...(encounterId === undefined ? {} : { encounterId }),
  };
}

describe('streamAdrA19', () => {
  it('should give, joined, the bytes of buildAdrA19 for any chart the check accepts and any options', async () => {
    await fc.assert(
      fc.asyncProperty(patientChart({ size: 'medium' }), arbOptions, fc.boolean(), async ({ chart, directory }, options, withDirectory) => {
        const o: Hl7SummaryStreamOptions = { ...options, now: NOW, controlId: 'ADR0001', ...(withDirectory ? { directory } : {}) };
        expect(await streamed(chart, o)).toEqual(buffered(chart, o));
      }),
      { numRuns: runs(80) },
    );
  });

  it('should give the same bytes without limit and query id, and for charts of long notes', async () => {
    await fc.assert(
      fc.asyncProperty(
        patientChart({ size: 'medium', mappable: true }),
        fc.array(fc.integer({ min: 1, max: 40_000 }), { maxLength: 6 }),
        fc.integer({ min: 1, max: 100_000 }),
        async ({ chart, directory }, lengths, chunkChars) => {
          const notes = [...(chart.notes ?? []), ...lengths.map((n, i) => longNote(i, n, chart.encounters?.[i % 2]?.id))];
          const big: PatientChart = { ...chart, notes };
          const o = { now: NOW, controlId: 'ADR0002', directory };
          const { text, chunks } = await joined(streamAdrA19(big, { ...o, chunkChars, maxHoldMs: 1000 }));
          expect(text).toBe(buildAdrA19(big, o));
          // Chunks of at least chunkChars characters, except the last.
          chunks.slice(0, -1).forEach((c) => expect(c.length).toBeGreaterThanOrEqual(chunkChars));
        },
      ),
      { numRuns: runs(25) },
    );
  });

  it('should throw at the call, before any chunk, for a chart or an option the builder refuses', () => {
    const chart = { patient: { id: '', names: [] } } as unknown as PatientChart;
    expect(() => streamAdrA19(chart)).toThrow(ChartValidationError);
    const valid = (fc.sample(patientChart({ mappable: true }), { numRuns: 1, seed: 1 })[0] as ChartWithDirectory).chart;
    expect(() => streamAdrA19(valid, { limit: -1 })).toThrow(InvalidArgumentError);
    expect(() => streamAdrA19(valid, { queryId: 'Q'.repeat(11) })).toThrow(InvalidArgumentError);
    expect(() => streamAdrA19(valid, { controlId: 'MDM1' })).toThrow(InvalidArgumentError);
    expect(() => streamAdrA19(valid, { chunkChars: 0 })).toThrow(InvalidArgumentError);
    expect(() => streamAdrA19(valid, { maxHoldMs: Number.NaN })).toThrow(InvalidArgumentError);
  });

  it('should give the event loop back between the notes of one group (maxHoldMs 0), not only between groups', async () => {
    // Arrange: 200 notes without encounter, all in the one group of records without encounter.
    const { chart } = fc.sample(patientChart({ mappable: true }), { numRuns: 1, seed: 3 })[0] as ChartWithDirectory;
    const notes = Array.from({ length: 200 }, (_, i) => longNote(i, 300));
    const one: PatientChart = { patient: chart.patient, notes };
    // Act: the turns the stream gave the event loop back while it ran.
    const { turns, value: text } = await turnsDuring(async () => (await joined(streamAdrA19(one, { now: NOW, controlId: 'ADR1', maxHoldMs: 0 }))).text);
    // Assert: at least one turn per note (a pause after each record), and the same message.
    expect(text).toBe(buildAdrA19(one, { now: NOW, controlId: 'ADR1' }));
    expect(turns).toBeGreaterThanOrEqual(notes.length);
  });

  it('should count the chart check at the call against the budget: a check that spent it is followed by a give-back', async () => {
    // Arrange: one small note, and a patient record whose first read (by the check, at the call) takes 250 ms.
    const { chart } = fc.sample(patientChart({ mappable: true }), { numRuns: 1, seed: 3 })[0] as ChartWithDirectory;
    const slowChart = (): PatientChart => {
      let read = false;
      return {
        get patient() {
          if (!read) {
            read = true;
            const until = performance.now() + 250;
            while (performance.now() < until);
          }
          return chart.patient;
        },
        notes: [longNote(0, 300)],
      } as PatientChart;
    };
    const options = { now: NOW, controlId: 'ADR1', maxHoldMs: 200 };
    // Act: the turns given back while the stream is made (check included) and read to its end.
    const slow = await turnsDuring(() => joined(streamAdrA19(slowChart(), options)));
    const quick = await turnsDuring(() => joined(streamAdrA19({ patient: chart.patient, notes: [longNote(0, 300)] }, options)));
    // Assert: the budget was spent by the check, so the stream paused after its first record; the control,
    // whose check is quick, writes its one record well within 200 ms and never pauses.
    expect(slow.value.text).toBe(quick.value.text);
    expect(slow.turns).toBeGreaterThanOrEqual(1);
    expect(quick.turns).toBe(0);
  });

  it('should not give the loop back per record when the budget is large', async () => {
    // The control of the test above: the same chart with maxHoldMs 10 s runs in a few turns.
    const { chart } = fc.sample(patientChart({ mappable: true }), { numRuns: 1, seed: 3 })[0] as ChartWithDirectory;
    const one: PatientChart = { patient: chart.patient, notes: Array.from({ length: 200 }, (_, i) => longNote(i, 300)) };
    const { turns } = await turnsDuring(() => joined(streamAdrA19(one, { now: NOW, controlId: 'ADR1', maxHoldMs: 10_000 })));
    expect(turns).toBeLessThan(20);
  });
});
