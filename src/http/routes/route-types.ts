/**
 * The shape of a route of the export interface: its name and path, output format, the scope a key needs,
 * the query parameters it reads, what it reads from the data source and how it renders the answer. The
 * route table (route-table.ts) lists one such entry per route.
 */
import type { Directory, FhirExportOptions, Hl7MessageOptions, buildFhirPatientExport } from '../../index.js';
import type { ChartDataSource } from '../data-source.js';
import type { DirectoryReferrers } from '../directory-lookup.js';
import type { RouteParameters } from '../internal/query.js';
import type { HttpError } from '../internal/responses.js';
import type { RenderedBody } from '../output/streamed-body.js';
import type { ApiKeyScope } from '../key-store.js';

/** One of the eleven routes of the export interface, which is also its path below the base path. */
export type ExportRouteName =
  | 'exportFhirPatient'
  | 'exportFhirPatientBundle'
  | 'exportFhirEncounter'
  | 'exportFhirNote'
  | 'exportFhirAssessment'
  | 'publicFhirDirectory'
  | 'exportHl7PatientAdt'
  | 'exportHl7PatientSummary'
  | 'exportHl7Encounter'
  | 'exportHl7Note'
  | 'exportHl7Assessment';

/** The route names, which are also their paths below the base path (`/exportFhirPatient`), each once. */
export const EXPORT_ROUTE_NAMES = [
  'exportFhirPatient',
  'exportFhirPatientBundle',
  'exportFhirEncounter',
  'exportFhirNote',
  'exportFhirAssessment',
  'publicFhirDirectory',
  'exportHl7PatientAdt',
  'exportHl7PatientSummary',
  'exportHl7Encounter',
  'exportHl7Note',
  'exportHl7Assessment',
] as const satisfies readonly ExportRouteName[];
// Every name of the union is in the list (the `satisfies` above checks the converse).
const EVERY_ROUTE_LISTED: ExportRouteName extends (typeof EXPORT_ROUTE_NAMES)[number] ? true : never = true;
void EVERY_ROUTE_LISTED;

/**
 * The Bulk Data routes (handler option `bulk`), as the `observer`, `onError` and the metrics name them:
 * `metadata` (the CapabilityStatement), `bulkKickOff` (`$export`, `Patient/$export`, `Group/…/$export`),
 * `bulkStatus` (poll or cancel) and `bulkFile` (an output file).
 */
export type BulkRouteName = 'metadata' | 'bulkKickOff' | 'bulkStatus' | 'bulkFile';

/** The Bulk Data route names, each once. */
export const BULK_ROUTE_NAMES = ['metadata', 'bulkKickOff', 'bulkStatus', 'bulkFile'] as const satisfies readonly BulkRouteName[];
const EVERY_BULK_ROUTE_LISTED: BulkRouteName extends (typeof BULK_ROUTE_NAMES)[number] ? true : never = true;
void EVERY_BULK_ROUTE_LISTED;

/** A route the handler reports to its hooks: one of the eleven export routes or a Bulk Data route. */
export type ObservedRouteName = ExportRouteName | BulkRouteName;

/**
 * How a query parameter is read: a chart id, a non-negative integer limit (defaulted when absent), a count (a
 * limit left absent when not given: the directory's `_count`), a page cursor, or a directory resource type.
 */
export type ParameterKind = 'id' | 'limit' | 'count' | 'cursor' | 'resourceType';

/** One query parameter of a route. */
export interface ParameterDefinition {
  /** Its name in the query string. */
  readonly name: string;
  /** How its value is read. */
  readonly kind: ParameterKind;
  /** Whether the route answers 400 without it. */
  readonly required: boolean;
}

/** A record-count limit setting of `ExportHandlerOptions.limits` (and of {@link DEFAULT_LIMITS}). */
export type LimitName = 'encounters' | 'notes' | 'assessments' | 'medicalHistory' | 'summary' | 'directory';

/** What a route's data step reads with. */
export interface RecordReader {
  /** The host's data source (guarded: every method returns a promise). */
  readonly dataSource: ChartDataSource;
  /** The checked query parameters. */
  readonly parameters: RouteParameters;
  /**
   * The directory records `records` refer to (practitioners, locations and their organizations). `record` and
   * `other` (e.g. a note and its encounter) are what the answer depends on: over the in-memory data source it
   * is looked up once per record and then reused, without a promise.
   */
  directoryFor(record: object, other: unknown, records: DirectoryReferrers): Directory | undefined | Promise<Directory | undefined>;
  /**
   * The service base URL of this request for absolute links (`fhir.baseUrl` when set, else the request's origin
   * and the base path, without a trailing slash), or `undefined` when the request gives no valid origin.
   */
  serviceBase(): string | undefined;
}

/** A FHIR builder's result as far as the output step needs it. */
type FhirBundle = ReturnType<typeof buildFhirPatientExport>;

/** What a route's renderer writes with: the handler's fixed options, the clock, and output reuse. */
export interface OutputWriter {
  /** Builder options for a FHIR export at this request's time. */
  fhirOptions(directory: Directory | undefined): FhirExportOptions;
  /** Builder options for an HL7 message at this request's time, with its control id. */
  hl7Options(directory: Directory | undefined): Hl7MessageOptions;
  /**
   * A FHIR export as JSON text. `records` lists everything the Bundle is built from (records, limits,
   * directory records), `key` first: over the in-memory data source the same records give a reused Bundle text
   * with only `id` and `timestamp` filled in (the same bytes as `build`).
   */
  fhir<TOptions extends FhirExportOptions>(key: object, records: readonly unknown[], options: TOptions, build: (options: TOptions) => FhirBundle): string;
  /**
   * An HL7 message of one record (`messageCode`: MSH-9.1 and the start of MSH-10). Over the in-memory data
   * source the same records give a reused message with MSH-7, EVN-2 and MSH-10 filled in (the same bytes).
   */
  hl7(messageCode: 'ADT' | 'MDM' | 'ORU', key: object, records: readonly unknown[], directory: Directory | undefined, build: (options: Hl7MessageOptions) => string): string;
}

/** One route of the export interface. */
export interface RouteDefinition {
  /** The route name. */
  readonly name: ExportRouteName;
  /** The path below the base path. */
  readonly path: `/${ExportRouteName}`;
  /** `fhir`: FHIR JSON and OperationOutcome errors; `hl7`: HL7 v2 text and problem+json errors. */
  readonly format: 'fhir' | 'hl7';
  /**
   * The scope a key needs; `undefined` for a public route (the directory), which needs no key and is counted
   * per client only when `directoryRateLimit` is set. (A route that needs no key and is never counted, such as
   * a health check, would be a third kind here and a third branch of the access step, access.ts.)
   */
  readonly scope: ApiKeyScope | undefined;
  /** The query parameters it reads; others are ignored. */
  readonly parameters: readonly ParameterDefinition[];
  /** For each limit parameter, the limit setting it uses. */
  readonly limits: Readonly<Record<string, LimitName>>;
  /**
   * Read the records the route needs (a 404 when one is missing), then render the body; `rendering` is
   * called between the two with what was read (the pipeline tells the builder's failures from the data
   * source's by it, and may keep the data for {@link RouteDefinition.renderAgain}).
   */
  serve(reader: RecordReader, writer: OutputWriter, rendering?: (data: unknown) => void): Promise<{ readonly body: RenderedBody } | HttpError>;
  /** Render the body again from data an earlier `serve` handed to its `rendering` (records that never change). */
  renderAgain(data: unknown, writer: OutputWriter): RenderedBody;
}

/** The record kinds a 404 names. */
export type RecordKind = 'patient' | 'encounter' | 'note' | 'assessment';

/** What a route's data step gives: the data its renderer needs, the kind of the record that is missing, or a refusal (a 400). */
export type Loaded<TData> = { readonly data: TData } | { readonly missing: RecordKind } | { readonly refused: HttpError };

/** What a route declares in the table: its data step and its renderer, typed by the data they pass. */
export interface RouteSpec<TData> {
  readonly name: ExportRouteName;
  readonly format: 'fhir' | 'hl7';
  readonly scope: ApiKeyScope | undefined;
  readonly parameters: readonly ParameterDefinition[];
  readonly limits?: Readonly<Record<string, LimitName>>;
  /** Read from the data source what the answer needs, or which record is missing (a 404). */
  readonly load: (reader: RecordReader) => Promise<Loaded<TData>>;
  /** Render the body from what `load` read: the whole text, or its chunks (a large Bundle; output/streamed-body.ts). */
  readonly render: (data: TData, writer: OutputWriter) => RenderedBody;
}
