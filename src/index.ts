/**
 * chart-export: typed patient-chart objects → FHIR R4 JSON resources and Bundles, and HL7 v2.5.1 messages.
 * No I/O and no Node-only API.
 *
 * Only these read the clock or draw random numbers, the builders only for options left unset (set them and
 * a builder's output is the same on every call):
 * - The FHIR Bundle builders (`buildFhirPatientExport`, `buildFhirPatientBundle`, `buildFhirEncounterExport`,
 *   `buildFhirNoteExport`, `buildFhirAssessmentExport`, `buildFhirDirectoryBundle`): `Bundle.timestamp`
 *   defaults to the current time (option `now`). `Bundle.id` (option `bundleId`) defaults to
 *   `defaultBundleId`, derived from the Bundle's type, timestamp and entries: no randomness, but it follows
 *   the clock through the timestamp.
 * - The HL7 message builders (`buildAdtA31`, `buildAdtA08`, `buildAdrA19`, `buildMdmT02`, `buildOruR01`, and
 *   `streamAdrA19`, which reads them once, at the call):
 *   MSH-7, and EVN-2 or QRD-1, default to the current time (option `now`); MSH-10 defaults to a
 *   `generateControlId` id (option `controlId`), and `buildAdrA19`'s query id in QRD-4 and MSA-2 (option
 *   `queryId`) to that control id.
 * - `generateControlId` itself reads the clock and draws random digits (`crypto.getRandomValues`, or
 *   `Math.random` where there is no Web Crypto) on every call.
 *
 * Everything else gives the same result for the same arguments: the `toFhir…` resource mappers, `toFhirId`,
 * `defaultBundleId`, the chart checks and `freeze…`, and the HL7 encoding, date-time, parse and check
 * functions.
 */

// Errors
export {
  ChartExportError,
  ChartValidationError,
  ChartNotFoundError,
  MappingError,
  InvalidArgumentError,
  DateTimeFormatError,
  Hl7ParseError,
  CHART_ISSUE_CODES,
  formatIssuePath,
} from './errors.js';
export type { ChartIssue, ChartIssueCode, ChartExportErrorCode, IssuePath } from './errors.js';

// Chart-domain model: code sets
export {
  CODE_SYSTEMS,
  IDENTIFIER_TYPES,
  NAME_USES,
  ADDRESS_USES,
  ADDRESS_TYPES,
  TELECOM_SYSTEMS,
  TELECOM_USES,
  GENDERS,
  MARITAL_STATUSES,
  COVERAGE_STATUSES,
  SUBSCRIBER_RELATIONSHIPS,
  ENCOUNTER_CLASSES,
  ENCOUNTER_STATUSES,
  PARTICIPANT_ROLES,
  DIAGNOSIS_USES,
  PROCEDURE_STATUSES,
  NOTE_TYPES,
  NOTE_STATUSES,
  CONFIDENTIALITY_CODES,
  ASSESSMENT_ITEM_TYPES,
  ASSESSMENT_STATUSES,
  CLINICAL_STATUSES,
  VERIFICATION_STATUSES,
  LOCATION_STATUSES,
  DIRECTORY_RESOURCE_TYPES,
} from './model/index.js';
// Chart-domain model: types
export type {
  IsoDate,
  IsoDateTime,
  Period,
  CodeSystem,
  Coding,
  Identifier,
  IdentifierType,
  NameUse,
  HumanName,
  AddressUse,
  AddressType,
  Address,
  TelecomSystem,
  TelecomUse,
  Telecom,
  Gender,
  MaritalStatus,
  CoverageStatus,
  SubscriberRelationship,
  Payer,
  Coverage,
  Patient,
  EncounterClass,
  EncounterStatus,
  ParticipantRole,
  DiagnosisUse,
  ProcedureStatus,
  EncounterParticipant,
  Diagnosis,
  Procedure,
  Encounter,
  NoteType,
  NoteStatus,
  Confidentiality,
  ClinicalNote,
  AssessmentItemType,
  AssessmentStatus,
  AnswerOption,
  AssessmentItemDefinition,
  AssessmentInstrument,
  AnswerValue,
  AssessmentAnswer,
  Assessment,
  ClinicalStatus,
  VerificationStatus,
  MedicalHistoryEntry,
  DirectoryOrganization,
  DirectoryPractitioner,
  LocationStatus,
  DirectoryLocation,
  Directory,
  DirectoryResourceType,
  PatientChart,
  ChartDocument,
} from './model/index.js';

// Chart validation
export {
  checkPatientChart,
  validatePatientChart,
  checkChartDocument,
  validateChartDocument,
  checkDirectory,
  validateDirectory,
} from './validation/chart-check.js';
export { freezeChartDocument, freezePatientChart, freezeDirectory } from './validation/frozen.js';
export { freezeChartRecord } from './validation/record-freeze.js';
export type { ChartRecordKind } from './validation/record-freeze.js';

// FHIR R4
export {
  buildFhirPatientExport,
  buildFhirPatientBundle,
  streamFhirPatientBundle,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  toFhirPatient,
  toFhirCoverage,
  toFhirPayerOrganization,
  toFhirEncounter,
  toFhirEncounterCondition,
  toFhirHistoryCondition,
  toFhirProcedure,
  toFhirComposition,
  toFhirDocumentReference,
  toFhirQuestionnaire,
  toFhirQuestionnaireResponse,
  toFhirOrganization,
  toFhirPractitioner,
  toFhirLocation,
  toFhirId,
  defaultBundleId,
  FHIR_NDJSON_RESOURCE_TYPES,
  streamFhirNdjson,
  streamChartDocumentNdjson,
} from './fhir/index.js';
export type {
  FhirExportOptions,
  PatientBundleLimits,
  FhirPatientBundleOptions,
  FhirDirectoryBundleOptions,
  FhirDirectoryLink,
  FhirStreamOptions,
  FhirPatientBundleStreamOptions,
  QuestionnaireScore,
  BundleIdInput,
  FhirNdjsonLine,
  FhirNdjsonChart,
  FhirNdjsonOptions,
  FhirNdjsonResourceType,
} from './fhir/index.js';

// HL7 v2.5.1
export { DEFAULT_HL7_DELIMITERS, escapeHl7, unescapeHl7 } from './hl7/encoding.js';
export type { Hl7Delimiters } from './hl7/encoding.js';
export { formatHl7DateTime, parseHl7DateTime } from './hl7/datetime.js';
export { generateControlId } from './hl7/messages/control-id.js';
export type { Hl7MessageOptions } from './hl7/messages/prepare-message.js';
export { buildAdtA31 } from './hl7/messages/adt-a31.js';
export { buildAdrA19 } from './hl7/messages/adr-a19.js';
export type { Hl7SummaryOptions } from './hl7/messages/adr-a19.js';
export { streamAdrA19 } from './hl7/messages/adr-a19-stream.js';
export type { Hl7StreamOptions, Hl7SummaryStreamOptions } from './hl7/messages/adr-a19-stream.js';
export { buildAdtA08 } from './hl7/messages/adt-a08.js';
export { buildMdmT02 } from './hl7/messages/mdm-t02.js';
export { buildOruR01 } from './hl7/messages/oru-r01.js';
export { parseHl7Message, getHl7Value } from './hl7/parser.js';
export type { Hl7Message, Hl7Segment, Hl7Field, Hl7Repetition, Hl7Component } from './hl7/parser.js';
export { checkHl7Message } from './hl7/conformance/check-message.js';
export { HL7_LENGTH_DEVIATIONS, isHl7LengthDeviation } from './hl7/conformance/length-deviations.js';
export { HL7_PROBLEM_CODES } from './hl7/conformance/problems.js';
export type { Hl7LengthDeviation } from './hl7/conformance/length-deviations.js';
export type { Hl7Problem, Hl7ProblemCode } from './hl7/conformance/problems.js';

