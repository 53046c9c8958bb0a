/**
 * fast-check arbitraries for the whole chart-domain model. Everything generated satisfies the contract's
 * validation rules (see `src/validation/*-rules.ts`) in every text and id mode: ids without any control
 * character, `rank` / `order` within 1…2147483647, codes of at most 64 characters, organizations without
 * `home` uses. The `arbInvalid…` arbitraries, {@link INVALID_CODES}, {@link INVALID_POSITIVE_INTS},
 * {@link CHART_BREAKERS} and {@link DOCUMENT_BREAKERS} build deliberately invalid input for validator tests.
 *
 * `mappable` ({@link ChartOptions}, {@link RecordOptions}; default false) only leaves out the two kinds of
 * valid input a builder rejects by design: an undated procedure in an encounter without start (HL7 PR1-5) and
 * a number NM's 16 characters cannot hold (HL7 OBX-5).
 *
 * Import from `../arbitraries/index.js`.
 */
export {
  type TextMode,
  arbHostileText,
  arbHostileNonEmptyText,
  arbRealisticText,
  arbText,
  arbNonEmptyText,
  arbLongText,
  arbId,
  arbIdFor,
  textFor,
  toValidId,
  isValidChartText,
  sanitizeText,
  HOSTILE_FRAGMENTS,
  REALISTIC_PHRASES,
  FORBIDDEN_CONTROL_CHARS,
  arbForbiddenControlChar,
  arbLoneSurrogate,
  arbInvalidText,
  arbInvalidId,
} from './text.js';
export {
  type DateOptions,
  type DatePrecision,
  type PeriodOptions,
  type YearRange,
  arbIsoDate,
  arbIsoDateTime,
  arbIsoDateTimeFull,
  arbOffset,
  arbOrderedPair,
  arbPeriod,
  arbRecentDateTime,
  offsetMinutes,
} from './dates.js';
export { CODE_MAX_LENGTH, CODE_TABLES, IDENTIFIER_SYSTEMS, arbCoding, arbHostileCode, arbIdentifier, arbNpiIdentifier, npiFromBase } from './codes.js';
export {
  type PatientOptions,
  FAMILY_NAMES,
  GIVEN_NAMES,
  ORGANIZATION_ADDRESS_USES,
  ORGANIZATION_TELECOM_USES,
  PAYERS,
  arbAddress,
  arbCoverage,
  arbHumanName,
  arbPatient,
  arbPayer,
  arbTelecom,
} from './people.js';
export { type DirectoryOptions, arbDirectory, arbLocation, arbOrganization, arbPractitioner } from './directory.js';
export {
  type AssessmentOptions,
  type EncounterOptions,
  type NoteOptions,
  type RecordOptions,
  GAD7_INSTRUMENT_NO_ITEMS,
  PHQ9_INSTRUMENT_NO_ITEMS,
  POSITIVE_INT_MAX,
  arbAssessment,
  arbDiagnosis,
  arbEncounter,
  arbInstrument,
  arbMedicalHistoryEntry,
  arbNote,
  arbPositive,
  arbProcedure,
  arbRef,
} from './records.js';
export {
  FREQUENCY_OPTIONS,
  GAD7_INSTRUMENT,
  GAD7_ITEMS,
  GAD7_TOTAL,
  PHQ9_INSTRUMENT,
  PHQ9_ITEMS,
  PHQ9_TOTAL,
  gad7Severity,
  phq9Severity,
} from './instruments.js';
export { type ChartOptions, type ChartWithDirectory, arbChartDocument, arbChartFor, arbPatientChart, fitForHl7 } from './chart.js';
export {
  type Broken,
  type ChartBreaker,
  type DocumentBreaker,
  CHART_BREAKERS,
  DOCUMENT_BREAKERS,
  INVALID_CODES,
  INVALID_IDENTIFIER_SYSTEMS,
  INVALID_ISO_DATE_TIMES,
  INVALID_POSITIVE_INTS,
  arbBrokenChartDocument,
  arbBrokenPatientChart,
  arbInvalidIsoDateTime,
} from './invalid.js';
export { demoChartDocument, realisticPatientChart } from './fixtures.js';
