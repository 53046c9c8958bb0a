/**
 * The streamed patient Bundle (`streamFhirPatientBundle`): its chunks, joined, are byte for byte the buffered
 * Bundle's JSON, for any chart the check accepts, any limits, options and chunk size; it fails where and as
 * the buffered builder fails; and it gives the event loop back while it works.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ChartValidationError,
  InvalidArgumentError,
  buildFhirPatientBundle,
  streamFhirPatientBundle,
  type FhirPatientBundleStreamOptions,
  type PatientChart,
} from '../../src/index.js';
import { patientChart, type ChartWithDirectory } from '../../src/testing/index.js';
import { runs } from '../support/runs.js';

const NOW = '2026-03-01T15:00:00Z';

async function joined(chunks: AsyncIterable<string>): Promise<{ text: string; count: number }> {
  let text = '';
  let count = 0;
  for await (const chunk of chunks) {
    text += chunk;
    count++;
  }
  return { text, count };
}

/** The buffered JSON, or the error's class name. */
function buffered(chart: PatientChart, options: FhirPatientBundleStreamOptions): string | { error: string } {
  try {
    return JSON.stringify(buildFhirPatientBundle(chart, options));
  } catch (error) {
    return { error: (error as Error).name };
  }
}

/** The streamed JSON, or the error's class name (thrown at the call or rejecting the iteration). */
async function streamed(chart: PatientChart, options: FhirPatientBundleStreamOptions): Promise<string | { error: string }> {
  try {
    return (await joined(streamFhirPatientBundle(chart, options))).text;
  } catch (error) {
    return { error: (error as Error).name };
  }
}

const arbLimit = fc.option(fc.nat({ max: 4 }), { nil: undefined });
const arbOptions = fc.record(
  {
    baseUrl: fc.constantFrom('https://fhir.example.org/r4', 'http://localhost:8080'),
    strictBundleTotal: fc.boolean(),
    bundleId: fc.constantFrom('b-1', 'streamed.bundle'),
    limits: fc.record({ encounters: arbLimit, notes: arbLimit, assessments: arbLimit, medicalHistory: arbLimit }, { requiredKeys: [] }),
    chunkChars: fc.integer({ min: 1, max: 5000 }),
    maxHoldMs: fc.constantFrom(0, 1000),
  },
  { requiredKeys: ['chunkChars', 'maxHoldMs'] },
);

describe('streamFhirPatientBundle', () => {
  it('should give, joined, the bytes of JSON.stringify(buildFhirPatientBundle) for any chart the check accepts', async () => {
    await fc.assert(
      fc.asyncProperty(patientChart({ size: 'medium' }), arbOptions, fc.boolean(), async ({ chart, directory }, options, withDirectory) => {
        const o: FhirPatientBundleStreamOptions = { ...options, now: NOW, ...(withDirectory ? { directory } : {}) };
        expect(await streamed(chart, o)).toEqual(buffered(chart, o));
      }),
      { numRuns: runs(80) },
    );
  });

  it('should cut chunks of at least chunkChars characters, except the last, each ending on a resource', async () => {
    await fc.assert(
      fc.asyncProperty(patientChart({ size: 'medium', mappable: true }), fc.integer({ min: 1, max: 3000 }), async ({ chart, directory }, chunkChars) => {
        const chunks: string[] = [];
        for await (const chunk of streamFhirPatientBundle(chart, { now: NOW, directory, chunkChars, maxHoldMs: 1000 })) chunks.push(chunk);
        chunks.slice(0, -1).forEach((c) => expect(c.length).toBeGreaterThanOrEqual(chunkChars));
        expect(chunks.join('')).toBe(JSON.stringify(buildFhirPatientBundle(chart, { now: NOW, directory })));
      }),
      { numRuns: runs(30) },
    );
  });

  it('should throw at the call, before any chunk, for a chart or an option the builder refuses', () => {
    const chart = { patient: { id: '', name: [] } } as unknown as PatientChart;
    expect(() => streamFhirPatientBundle(chart)).toThrow(ChartValidationError);
    const valid = (fc.sample(patientChart({ mappable: true }), { numRuns: 1, seed: 1 })[0] as { chart: PatientChart }).chart;
    expect(() => streamFhirPatientBundle(valid, { limits: { notes: -1 } })).toThrow(InvalidArgumentError);
    expect(() => streamFhirPatientBundle(valid, { chunkChars: 0 })).toThrow(InvalidArgumentError);
    expect(() => streamFhirPatientBundle(valid, { maxHoldMs: Number.NaN })).toThrow(InvalidArgumentError);
  });

  it('should let timers run while it works on a large chart (maxHoldMs 0: a macrotask between resources)', async () => {
    // Arrange: a chart of many records, so the walk takes many resources.
    const { chart, directory } = fc.sample(patientChart({ size: 'large', mappable: true, text: 'realistic' }), { numRuns: 1, seed: 19 })[0] as ChartWithDirectory;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    // Act
    const { text, count } = await joined(streamFhirPatientBundle(chart, { now: NOW, directory, maxHoldMs: 0, chunkChars: 1 }));
    clearInterval(timer);
    // Assert: the timer ran during the walk, and the output is still the Bundle.
    expect(text).toBe(JSON.stringify(buildFhirPatientBundle(chart, { now: NOW, directory })));
    expect(count).toBeGreaterThan(1);
    expect(ticks).toBeGreaterThan(0);
  });
});
