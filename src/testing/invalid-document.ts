/**
 * The public arbitrary of invalid chart documents: a valid document broken in exactly one place, with the
 * issue paths the chart check must report for it.
 */
import fc from 'fast-check';
import type { ChartDocument } from '../index.js';
import { CHART_BREAKERS } from './chart-breakers.js';
import { arbChartDocument } from './charts.js';
import { DOCUMENT_BREAKERS } from './document-breakers.js';
import type { ChartKitOptions } from './chart-document.js';
import { optionsForSize } from './sizes.js';

/**
 * An invalid chart document and what the chart check must say about it.
 * @example const { document, expectedPaths, rule }: InvalidChartDocument = fc.sample(invalidChartDocument(), 1)[0]!;
 */
export interface InvalidChartDocument {
  /** The document, valid but for one broken rule (typed as a document, though it no longer is one). */
  document: ChartDocument;
  /**
   * The issue paths `checkChartDocument(document)` must report, formatted as `formatIssuePath` does
   * (`patients[0].encounters[0].period.end`), sorted; no other path may be reported.
   */
  expectedPaths: string[];
  /** The rule broken, in words (`'period end before start'`). */
  rule: string;
}

/** Chart breakers whose break also leaves a document's references dangling (so they report more than one path there). */
const CASCADING_IN_A_DOCUMENT = new Set(['wrong type for encounters', 'encounter id with a tab']);

const DOCUMENT_CHART_BREAKERS = CHART_BREAKERS.filter((b) => !CASCADING_IN_A_DOCUMENT.has(b.name));

/**
 * A chart document broken in exactly one place, with the paths where the check must report it: dates
 * outside the ISO profile or out of order, forbidden control characters and lone surrogates in text,
 * control characters in ids, blank required text, duplicate ids, unknown codes and code systems, codes
 * longer than 64 characters, ranks beyond FHIR positiveInt, answers that contradict their item
 * definitions, references missing from the directory or the chart, organizations with `home` uses.
 * Shrinks towards a small document.
 * @param options - size, text and id kind, years of the valid document before it is broken
 * @returns an arbitrary of `{ document, expectedPaths, rule }`
 * @example
 * fc.assert(fc.property(invalidChartDocument(), ({ document, expectedPaths }) => {
 *   const paths = checkChartDocument(document).map((issue) => formatIssuePath(issue.path));
 *   expect([...new Set(paths)].sort()).toEqual(expectedPaths);
 * }));
 */
export function invalidChartDocument(options: ChartKitOptions = {}): fc.Arbitrary<InvalidChartDocument> {
  const { size, ...rest } = options;
  const valid = arbChartDocument({ ...optionsForSize(size), ...rest });
  const chartBroken = fc.tuple(valid, fc.constantFrom(...DOCUMENT_CHART_BREAKERS), fc.nat()).map(([doc, breaker, at]): InvalidChartDocument => {
    const index = at % doc.patients.length;
    const { value, path } = breaker.apply(doc.patients[index] as ChartDocument['patients'][number]);
    const patients = doc.patients.map((chart, i) => (i === index ? value : chart));
    return { document: { ...doc, patients }, expectedPaths: [`patients[${index}].${path}`], rule: breaker.name };
  });
  const documentBroken = fc.tuple(valid, fc.constantFrom(...DOCUMENT_BREAKERS)).map(([doc, breaker]): InvalidChartDocument => {
    const { value, path } = breaker.apply(doc);
    return { document: value, expectedPaths: [path], rule: breaker.name };
  });
  return fc.oneof({ arbitrary: chartBroken, weight: CHART_BREAKERS.length }, { arbitrary: documentBroken, weight: DOCUMENT_BREAKERS.length });
}
