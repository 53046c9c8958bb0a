import { requireIdArgument } from '../internal/args.js';
import type * as fhir from 'fhir/r4.js';
import { ChartNotFoundError } from '../errors.js';
import type { PatientChart } from '../model/chart.js';
import { validatePatientChart } from '../validation/chart-check.js';
import { assembleBundle, createBundleContext, indexDirectory } from './internal/bundle.js';
import { pushEncounterGroup, RESOURCE_MAKERS } from './internal/groups.js';
import { buildIdPlan } from './id-plan.js';
import { resolveOptions } from './internal/resolve-options.js';
import { mapComposition } from './composition.js';
import { mapDocumentReference } from './document-reference.js';
import { mapPatient } from './patient-resource.js';
import type { FhirExportOptions } from './export-options.js';

/**
 * Build the `exportFhirNote` response: a `collection` Bundle of the Patient (first), the note's
 * Composition and DocumentReference, and what they reference: the note's Encounter (with the Conditions
 * its `diagnosis` points at) and the directory records (author, the encounter's Location and
 * Practitioners).
 *
 * @param chart - the patient's chart (checked first; nothing invalid is emitted)
 * @param noteId - chart id of the note
 * @param options - see {@link FhirExportOptions}
 * @returns the Bundle; every reference resolves to an entry or is logical
 * @throws {ChartValidationError} when the chart (or `options.directory`) fails the chart check
 * @throws {ChartNotFoundError} (`recordType` `note`) when the chart has no such note
 * @throws {InvalidArgumentError} when an option is malformed or the id is not a string
 * @throws {MappingError} when two records of one FHIR type map to the same FHIR id (only a chart id crafted
 *   to equal another id's hashed form can do that)
 * @example buildFhirNoteExport(chart, 'note-0001', { now: '2026-03-01T15:00:00Z' }).entry?.map((e) => e.resource?.resourceType)
 * @see https://hl7.org/fhir/R4/composition.html
 */
export function buildFhirNoteExport(chart: PatientChart, noteId: string, options?: FhirExportOptions): fhir.Bundle {
  requireIdArgument('noteId', noteId);
  validatePatientChart(chart);
  const resolved = resolveOptions(options);
  const note = chart.notes?.find((n) => n.id === noteId);
  if (note === undefined) throw new ChartNotFoundError('note');
  const encounter = note.encounterId === undefined ? undefined : chart.encounters?.find((e) => e.id === note.encounterId);
  const included = new Set<string>(encounter !== undefined ? [encounter.id] : []);
  const ctx = createBundleContext(chart, buildIdPlan(chart, resolved.directory), indexDirectory(resolved.directory), included);
  const resources: fhir.FhirResource[] = [mapPatient(chart.patient, ctx), mapComposition(note, ctx), mapDocumentReference(note, ctx)];
  if (encounter !== undefined) pushEncounterGroup(resources, encounter, ctx, false, RESOURCE_MAKERS);
  for (const r of ctx.drainDirectory()) resources.push(r as fhir.FhirResource);
  return assembleBundle('collection', resources, resolved);
}
