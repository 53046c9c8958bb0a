/**
 * The route table: the eleven routes of the export interface, each with its format, the scope a key needs,
 * the query parameters it reads, its data step and its renderer. Adding a route is adding one entry here (and
 * its name to `EXPORT_ROUTE_NAMES`).
 */
import { notFound } from '../internal/responses.js';
import * as load from './record-loaders.js';
import * as render from './renderers.js';
import type { LimitName, ParameterDefinition, RouteDefinition, RouteSpec } from './route-types.js';

const id = (name: string): ParameterDefinition => ({ name, kind: 'id', required: true });
const limit = (name: string): ParameterDefinition => ({ name, kind: 'limit', required: false });
const resourceType: ParameterDefinition = { name: 'resourceType', kind: 'resourceType', required: true };
const count = (name: string): ParameterDefinition => ({ name, kind: 'count', required: false });
const cursor = (name: string): ParameterDefinition => ({ name, kind: 'cursor', required: false });

/** A table entry: the route's declaration, with `serve` joining its data step and renderer. */
function route<TData>(spec: RouteSpec<TData>): RouteDefinition {
  const limits: Readonly<Record<string, LimitName>> = Object.freeze({ ...spec.limits });
  return Object.freeze({
    name: spec.name,
    path: `/${spec.name}` as const,
    format: spec.format,
    scope: spec.scope,
    parameters: Object.freeze([...spec.parameters]),
    limits,
    async serve(reader, writer, rendering) {
      const loaded = await spec.load(reader);
      if ('missing' in loaded) return notFound(loaded.missing);
      if ('refused' in loaded) return loaded.refused;
      rendering?.(loaded.data);
      return { body: spec.render(loaded.data, writer) };
    },
    renderAgain: (data, writer) => spec.render(data as TData, writer),
  } satisfies RouteDefinition);
}

/**
 * The route table. Object ids (`encounterId`, `noteId`, `assessmentId`) are required on the FHIR object
 * routes as on the HL7 ones.
 */
export const EXPORT_ROUTES: readonly RouteDefinition[] = Object.freeze([
  route({
    name: 'exportFhirPatient',
    format: 'fhir',
    scope: 'fhir:export',
    parameters: [id('patientId')],
    load: load.loadPatient,
    render: render.renderFhirPatient,
  }),
  route({
    name: 'exportFhirPatientBundle',
    format: 'fhir',
    scope: 'fhir:export',
    parameters: [id('patientId'), limit('encounterLimit'), limit('noteLimit'), limit('assessmentLimit'), limit('medicalHistoryLimit')],
    limits: { encounterLimit: 'encounters', noteLimit: 'notes', assessmentLimit: 'assessments', medicalHistoryLimit: 'medicalHistory' },
    load: load.loadPatientBundle,
    render: render.renderFhirPatientBundle,
  }),
  route({
    name: 'exportFhirEncounter',
    format: 'fhir',
    scope: 'fhir:export',
    parameters: [id('patientId'), id('encounterId')],
    load: load.loadEncounter,
    render: render.renderFhirEncounter,
  }),
  route({
    name: 'exportFhirNote',
    format: 'fhir',
    scope: 'fhir:export',
    parameters: [id('patientId'), id('noteId')],
    load: load.loadNote,
    render: render.renderFhirNote,
  }),
  route({
    name: 'exportFhirAssessment',
    format: 'fhir',
    scope: 'fhir:export',
    parameters: [id('patientId'), id('assessmentId')],
    load: load.loadAssessment,
    render: render.renderFhirAssessment,
  }),
  route({
    name: 'publicFhirDirectory',
    format: 'fhir',
    scope: undefined,
    // `_count` (FHIR's name) wins over `limit` when both are given; `_cursor` comes from a `next` link.
    parameters: [resourceType, limit('limit'), count('_count'), cursor('_cursor')],
    limits: { limit: 'directory', _count: 'directory' },
    load: load.loadDirectoryListing,
    render: render.renderDirectory,
  }),
  route({
    name: 'exportHl7PatientAdt',
    format: 'hl7',
    scope: 'hl7:export',
    parameters: [id('patientId')],
    load: load.loadPatient,
    render: render.renderHl7PatientAdt,
  }),
  route({
    name: 'exportHl7PatientSummary',
    format: 'hl7',
    scope: 'hl7:export',
    parameters: [id('patientId'), limit('limit')],
    limits: { limit: 'summary' },
    load: load.loadPatientSummary,
    render: render.renderHl7PatientSummary,
  }),
  route({
    name: 'exportHl7Encounter',
    format: 'hl7',
    scope: 'hl7:export',
    parameters: [id('patientId'), id('encounterId')],
    load: load.loadEncounter,
    render: render.renderHl7Encounter,
  }),
  route({
    name: 'exportHl7Note',
    format: 'hl7',
    scope: 'hl7:export',
    parameters: [id('patientId'), id('noteId')],
    load: load.loadNote,
    render: render.renderHl7Note,
  }),
  route({
    name: 'exportHl7Assessment',
    format: 'hl7',
    scope: 'hl7:export',
    parameters: [id('patientId'), id('assessmentId')],
    load: load.loadAssessment,
    render: render.renderHl7Assessment,
  }),
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
