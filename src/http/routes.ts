/**
 * The eleven routes of the export interface: path, format, the scope a key needs, and
 * the query parameters each takes.
 */
import type { ApiKeyScope } from './key-store.js';

/** The route names, which are also their paths below the base path (`/exportFhirPatient`). */
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
] as const;
/** One of {@link EXPORT_ROUTE_NAMES}. */
export type ExportRouteName = (typeof EXPORT_ROUTE_NAMES)[number];

/** How a query parameter is read: a chart id, a non-negative integer limit, or a directory resource type. */
export type ParameterKind = 'id' | 'limit' | 'resourceType';

/** One query parameter of a route. */
export interface ParameterDefinition {
  /** Its name in the query string. */
  readonly name: string;
  /** How its value is read. */
  readonly kind: ParameterKind;
  /** Whether the route answers 400 without it. */
  readonly required: boolean;
}

/** Which limit setting of `ExportHandlerOptions.limits` a limit parameter uses. */
export type LimitName = 'encounters' | 'notes' | 'assessments' | 'medicalHistory' | 'summary' | 'directory';

/** One route of the export interface. */
export interface RouteDefinition {
  /** The route name. */
  readonly name: ExportRouteName;
  /** The path below the base path. */
  readonly path: `/${ExportRouteName}`;
  /** `fhir`: FHIR JSON and OperationOutcome errors; `hl7`: HL7 v2 text and problem+json errors. */
  readonly format: 'fhir' | 'hl7';
  /** The scope a key needs; `undefined` for the public directory, which needs no key. */
  readonly scope: ApiKeyScope | undefined;
  /** The query parameters it reads; others are ignored. */
  readonly parameters: readonly ParameterDefinition[];
  /** For each limit parameter, the limit setting it uses. */
  readonly limits: Readonly<Record<string, LimitName>>;
}

const id = (name: string): ParameterDefinition => ({ name, kind: 'id', required: true });
const limit = (name: string): ParameterDefinition => ({ name, kind: 'limit', required: false });

function route(
  name: ExportRouteName,
  format: 'fhir' | 'hl7',
  scope: ApiKeyScope | undefined,
  parameters: ParameterDefinition[],
  limits: Record<string, LimitName> = {},
): RouteDefinition {
  return Object.freeze({ name, path: `/${name}` as const, format, scope, parameters: Object.freeze(parameters), limits: Object.freeze(limits) });
}

/**
 * The route table. Object ids (`encounterId`, `noteId`, `assessmentId`) are required on the FHIR object
 * routes as on the HL7 ones.
 */
export const EXPORT_ROUTES: readonly RouteDefinition[] = Object.freeze([
  route('exportFhirPatient', 'fhir', 'fhir:export', [id('patientId')]),
  route(
    'exportFhirPatientBundle',
    'fhir',
    'fhir:export',
    [id('patientId'), limit('encounterLimit'), limit('noteLimit'), limit('assessmentLimit'), limit('medicalHistoryLimit')],
    { encounterLimit: 'encounters', noteLimit: 'notes', assessmentLimit: 'assessments', medicalHistoryLimit: 'medicalHistory' },
  ),
  route('exportFhirEncounter', 'fhir', 'fhir:export', [id('patientId'), id('encounterId')]),
  route('exportFhirNote', 'fhir', 'fhir:export', [id('patientId'), id('noteId')]),
  route('exportFhirAssessment', 'fhir', 'fhir:export', [id('patientId'), id('assessmentId')]),
  route('publicFhirDirectory', 'fhir', undefined, [{ name: 'resourceType', kind: 'resourceType', required: true }, limit('limit')], {
    limit: 'directory',
  }),
  route('exportHl7PatientAdt', 'hl7', 'hl7:export', [id('patientId')]),
  route('exportHl7PatientSummary', 'hl7', 'hl7:export', [id('patientId'), limit('limit')], { limit: 'summary' }),
  route('exportHl7Encounter', 'hl7', 'hl7:export', [id('patientId'), id('encounterId')]),
  route('exportHl7Note', 'hl7', 'hl7:export', [id('patientId'), id('noteId')]),
  route('exportHl7Assessment', 'hl7', 'hl7:export', [id('patientId'), id('assessmentId')]),
]);

const BY_PATH = new Map<string, RouteDefinition>(EXPORT_ROUTES.map((r) => [r.path, r]));

/**
 * Find the route of a request path.
 * @param pathname - the URL path as the WHATWG URL parser gives it (percent-encoded, dot segments resolved)
 * @param basePath - the normalised base path (`''` or `/prefix` without a trailing slash)
 * @returns the route, or `undefined` (the handler answers 404). Matching is exact and case-sensitive: no
 *   trailing slash, no percent-encoded letters.
 */
export function matchRoute(pathname: string, basePath: string): RouteDefinition | undefined {
  if (basePath !== '') {
    if (!pathname.startsWith(basePath)) return undefined;
    pathname = pathname.slice(basePath.length);
  }
  return BY_PATH.get(pathname);
}
