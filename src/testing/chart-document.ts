/**
 * The public chart arbitraries: one patient's chart with its directory, and a whole chart document.
 */
import type fc from 'fast-check';
import type { ChartDocument } from '../index.js';
import { arbChartDocument, arbPatientChart, type ChartWithDirectory } from './charts.js';
import type { YearRange } from './dates.js';
import type { TextMode } from './fragments.js';
import { optionsForSize } from './sizes.js';
import type { KitSize } from './text-values.js';

/**
 * Options of {@link patientChart} and {@link chartDocument}.
 * @example chartDocument({ size: 'small', text: 'hostile', mappable: true })
 */
export interface ChartKitOptions {
  /**
   * `'small'` (default): at most one record of each kind (encounter, note, assessment, history entry,
   * diagnosis, procedure, coverage) and two patients; `'medium'`: up to three; `'large'`: up to eight, with
   * notes of up to 100 KB (use with few runs).
   */
  size?: KitSize | undefined;
  /** Free text realistic, hostile, or mixed (default). */
  text?: TextMode | undefined;
  /** Chart ids realistic, hostile, or mixed (default: as `text`). Realistic ids suit tests that put ids in URLs. */
  ids?: TextMode | undefined;
  /** Years of dates (default: realistic for realistic text, else mostly realistic with edge years). */
  years?: YearRange | undefined;
  /**
   * Round every number answer and score to the value an HL7 NM value sends for it (at most 16 characters),
   * so that FHIR and HL7 carry the same number and a read-back comparison holds. Every generated chart passes
   * the chart check and exports with every builder with or without it. Default false.
   */
  mappable?: boolean | undefined;
}

function toOptions(options: ChartKitOptions): ReturnType<typeof optionsForSize> {
  const { size, ...rest } = options;
  return { ...optionsForSize(size), ...rest };
}

/**
 * One patient's chart and the directory it refers to, both valid (`checkChartDocument({ patients: [chart],
 * directory })` finds nothing): unique record ids, periods whose start is never after their end, every
 * reference resolving, PHQ-9 and GAD-7 totals that add up, and text and ids as hostile as `text` and
 * `ids` ask. Shrinks towards a chart with fewer records and shorter text.
 * @param options - size, text and id kind, years, mappable
 * @returns an arbitrary of `{ chart, directory }`
 * @example
 * fc.assert(fc.property(patientChart({ text: 'hostile', mappable: true }), ({ chart, directory }) => {
 *   assertBundleReferencesResolve(buildFhirPatientBundle(chart, { directory }));
 * }));
 */
export function patientChart(options: ChartKitOptions = {}): fc.Arbitrary<ChartWithDirectory> {
  return arbPatientChart(toOptions(options));
}

/**
 * A valid chart document (`checkChartDocument` finds nothing): one or more patients' charts with unique
 * patient ids and the shared directory they all refer to. See {@link patientChart} for what each chart holds.
 * @param options - size, text and id kind, years, mappable
 * @returns an arbitrary of chart documents
 * @example
 * fc.assert(fc.property(chartDocument({ size: 'small', text: 'hostile' }), (doc) => {
 *   expect(checkChartDocument(doc)).toEqual([]);
 * }));
 */
export function chartDocument(options: ChartKitOptions = {}): fc.Arbitrary<ChartDocument> {
  return arbChartDocument(toOptions(options));
}
