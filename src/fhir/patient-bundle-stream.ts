import type { PatientChart } from '../model/chart.js';
import { resolveStreamSettings } from '../internal/pacing.js';
import { streamBundle } from './internal/bundle-stream.js';
import type { FhirPatientBundleOptions } from './export-options.js';
import { planFhirPatientBundle } from './patient-bundle.js';

/** How a streamed Bundle is cut into chunks and paced. */
export interface FhirStreamOptions {
  /**
   * A chunk is given once it holds at least this many characters; a resource larger than that ends its chunk.
   * Default 65 536.
   */
  chunkChars?: number | undefined;
  /**
   * The longest (in milliseconds) the stream keeps the event loop before it waits for a macrotask
   * (`setTimeout`), so other work runs in between. Never inside one resource's mapping. Default 10.
   */
  maxHoldMs?: number | undefined;
}

/** Options of {@link streamFhirPatientBundle}: those of `buildFhirPatientBundle` and {@link FhirStreamOptions}. */
export type FhirPatientBundleStreamOptions = FhirPatientBundleOptions & FhirStreamOptions;

/**
 * Stream the patient Bundle of {@link buildFhirPatientBundle} as JSON text: the chunks, joined, are byte for
 * byte `JSON.stringify(buildFhirPatientBundle(chart, options))` (at the same `now`; without `now` it is read
 * once, at the call). Memory holds one resource and one chunk at a time, plus each entry's type and id (the
 * head's default `id` and `total` depend on every entry, so the resources are mapped twice: once for their ids,
 * once to write them). Between resources the stream gives the event loop back at least every `maxHoldMs`.
 * Framework-free: pipe it to a file, a socket, S3, or `ReadableStream.from(…)` where the runtime has it.
 *
 * The chart and the options are checked at the call, so a bad chart throws before any chunk exists; a failure
 * while mapping (only a crafted id that maps to another record's FHIR id) rejects the iteration.
 *
 * @param chart - the patient's chart (checked first; nothing invalid is emitted)
 * @param options - the options of `buildFhirPatientBundle`, plus `chunkChars` and `maxHoldMs`
 * @returns an async iterable of JSON text chunks (iterate it once)
 * @throws {ChartValidationError} when the chart (or `options.directory`) fails the chart check
 * @throws {InvalidArgumentError} when an option or limit is malformed, or `chunkChars` / `maxHoldMs` is
 * @throws {MappingError} (rejecting the iteration) when two records of one FHIR type map to the same FHIR id
 * @example
 * let json = '';
 * for await (const chunk of streamFhirPatientBundle(chart, { now: '2026-03-01T15:00:00Z' })) json += chunk;
 * json === JSON.stringify(buildFhirPatientBundle(chart, { now: '2026-03-01T15:00:00Z' })); // true
 * @see https://hl7.org/fhir/R4/bundle.html
 */
export function streamFhirPatientBundle(chart: PatientChart, options?: FhirPatientBundleStreamOptions): AsyncIterable<string> {
  const settings = resolveStreamSettings(options);
  const plan = planFhirPatientBundle(chart, options);
  return streamBundle('collection', () => plan.resources(), plan.resolved, settings);
}
