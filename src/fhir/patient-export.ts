import type * as fhir from 'fhir/r4.js';
import type { PatientChart } from '../model/chart.js';
import { validatePatientChart } from '../validation/chart-check.js';
import { assembleBundle, createBundleContext, indexDirectory } from './internal/bundle.js';
import { pushPatientGroup, RESOURCE_MAKERS } from './internal/groups.js';
import { buildIdPlan } from './id-plan.js';
import { resolveOptions } from './internal/resolve-options.js';
import type { FhirExportOptions } from './export-options.js';

/**
 * Build the `exportFhirPatient` response: a `collection` Bundle of the Patient, its Coverages and their
 * payer Organizations.
 *
 * @param chart - the patient's chart (checked first; nothing invalid is emitted)
 * @param options - timestamp, Bundle id, base URL, strict total (see {@link FhirExportOptions})
 * @returns the Bundle; the Patient is the first entry and every reference resolves to an entry
 * @throws {ChartValidationError} when the chart (or `options.directory`) fails the chart check
 * @throws {InvalidArgumentError} when an option is malformed
 * @throws {MappingError} when two records of one FHIR type map to the same FHIR id (only a chart id crafted
 *   to equal another id's hashed form can do that)
 * @example buildFhirPatientExport(chart, { now: '2026-03-01T15:00:00Z' }).entry?.[0]?.resource?.resourceType // 'Patient'
 * @see https://hl7.org/fhir/R4/bundle.html
 */
export function buildFhirPatientExport(chart: PatientChart, options?: FhirExportOptions): fhir.Bundle {
  validatePatientChart(chart);
  const resolved = resolveOptions(options);
  const ctx = createBundleContext(chart, buildIdPlan(chart, resolved.directory), indexDirectory(resolved.directory), new Set());
  const resources: fhir.FhirResource[] = [];
  pushPatientGroup(resources, chart, ctx, RESOURCE_MAKERS);
  return assembleBundle('collection', resources, resolved);
}
