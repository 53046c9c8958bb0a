import { requireIdArgument } from '../internal/args.js';
import type * as fhir from 'fhir/r4.js';
import { ChartNotFoundError } from '../errors.js';
import type { PatientChart } from '../model/chart.js';
import { validatePatientChart } from '../validation/chart-check.js';
import { assembleBundle, createBundleContext, indexDirectory } from './internal/bundle.js';
import { pushEncounterGroup, RESOURCE_MAKERS } from './internal/groups.js';
import { buildIdPlan } from './id-plan.js';
import { resolveOptions } from './internal/resolve-options.js';
import { mapPatient } from './patient-resource.js';
import type { FhirExportOptions } from './export-options.js';

/**
 * Build the `exportFhirEncounter` response: a `collection` Bundle of the Patient (first), the Encounter,
 * its Conditions and Procedures, and the directory records they reference (its Location and that
 * Location's Organization, the participating and performing Practitioners).
 *
 * @param chart - the patient's chart (checked first; nothing invalid is emitted)
 * @param encounterId - chart id of the encounter
 * @param options - see {@link FhirExportOptions}
 * @returns the Bundle; every reference resolves to an entry or is logical
 * @throws {ChartValidationError} when the chart (or `options.directory`) fails the chart check
 * @throws {ChartNotFoundError} (`recordType` `encounter`) when the chart has no such encounter
 * @throws {InvalidArgumentError} when an option is malformed or the id is not a string
 * @throws {MappingError} when two records of one FHIR type map to the same FHIR id (only a chart id crafted
 *   to equal another id's hashed form can do that)
 * @example buildFhirEncounterExport(chart, 'enc-0001', { now: '2026-03-01T15:00:00Z' }).entry?.[1]?.resource?.resourceType // 'Encounter'
 * @see https://hl7.org/fhir/R4/encounter.html
 */
export function buildFhirEncounterExport(chart: PatientChart, encounterId: string, options?: FhirExportOptions): fhir.Bundle {
  requireIdArgument('encounterId', encounterId);
  validatePatientChart(chart);
  const resolved = resolveOptions(options);
  const encounter = chart.encounters?.find((e) => e.id === encounterId);
  if (encounter === undefined) throw new ChartNotFoundError('encounter');
  const ctx = createBundleContext(chart, buildIdPlan(chart, resolved.directory), indexDirectory(resolved.directory), new Set([encounter.id]));
  const resources: fhir.FhirResource[] = [mapPatient(chart.patient, ctx)];
  pushEncounterGroup(resources, encounter, ctx, true, RESOURCE_MAKERS);
  for (const r of ctx.drainDirectory()) resources.push(r as fhir.FhirResource);
  return assembleBundle('collection', resources, resolved);
}
