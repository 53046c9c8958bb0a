/**
 * chart-export/testing: fast-check arbitraries and property helpers to test your own HL7 v2 and FHIR
 * pipelines on the inputs that break them: hostile text, every delimiter set, dates at every precision and
 * offset, valid charts and documents of every record kind, and invalid documents with the issue paths the
 * chart check must report. Needs `fast-check` (a peer dependency) in your project.
 */

// Text and HL7 delimiters
export { hl7Text } from './text-values.js';
export type { Hl7TextOptions, KitSize } from './text-values.js';
export { HOSTILE_FRAGMENTS } from './fragments.js';
export type { TextMode } from './fragments.js';
export { hl7Delimiters } from './delimiters.js';
export type { Hl7DelimitersOptions } from './delimiters.js';

// Dates and date-times
export { isoDate, isoDateTime } from './dates.js';
export type { DateOptions, DatePrecision, IsoDateOptions, IsoDateTimeOptions, IsoPrecision, YearRange } from './dates.js';

// Model records
export { assessment, clinicalNote, coverage, directory, encounter, medicalHistoryEntry, patient } from './record-kinds.js';
export type { RecordKindOptions } from './record-kinds.js';

// Charts and documents, valid and invalid
export { chartDocument, patientChart } from './chart-document.js';
export type { ChartKitOptions } from './chart-document.js';
export type { ChartWithDirectory } from './charts.js';
export { invalidChartDocument } from './invalid-document.js';
export type { InvalidChartDocument } from './invalid-document.js';

// Property helpers
export { assertEscapeRoundTrip } from './escape-round-trip.js';
export { assertHl7ReadsBack } from './hl7-reads-back.js';
export { assertBundleReferencesResolve } from './bundle-references.js';
export { PropertyAssertionError } from './failure.js';
export type { PropertyMismatch } from './failure.js';
