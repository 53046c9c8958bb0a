import { requireIdArgument } from '../internal/args.js';
import type * as fhir from 'fhir/r4.js';
import { ChartNotFoundError } from '../errors.js';
import type { PatientChart } from '../model/chart.js';
import { validatePatientChart } from '../validation/chart-check.js';
import { assembleBundle, createBundleContext, indexDirectory } from './internal/bundle.js';
import { instrumentScores, pushAssessmentGroup, pushEncounterGroup, RESOURCE_MAKERS } from './internal/groups.js';
import { buildIdPlan } from './id-plan.js';
import { resolveOptions } from './internal/resolve-options.js';
import { mapPatient } from './patient-resource.js';
import type { FhirExportOptions } from './export-options.js';

/**
 * Build the `exportFhirAssessment` response: a `collection` Bundle of the Patient (first), the
 * QuestionnaireResponse, its Questionnaire when the instrument has item definitions, and what the
 * response references: its Encounter (with the Conditions the encounter points at) and the directory
 * records (author, the encounter's Location and Practitioners).
 *
 * @param chart - the patient's chart (checked first; nothing invalid is emitted)
 * @param assessmentId - chart id of the assessment
 * @param options - see {@link FhirExportOptions}
 * @returns the Bundle; every reference resolves to an entry or is logical
 * @throws {ChartValidationError} when the chart (or `options.directory`) fails the chart check
 * @throws {ChartNotFoundError} (`recordType` `assessment`) when the chart has no such assessment
 * @throws {InvalidArgumentError} when an option is malformed or the id is not a string
 * @throws {MappingError} when two records of one FHIR type map to the same FHIR id (only a chart id crafted
 *   to equal another id's hashed form can do that)
 * @example buildFhirAssessmentExport(chart, 'asmt-0001', { now: '2026-03-01T15:00:00Z' }).entry?.[1]?.resource?.resourceType // 'QuestionnaireResponse'
 * @see https://hl7.org/fhir/R4/questionnaireresponse.html
 */
export function buildFhirAssessmentExport(chart: PatientChart, assessmentId: string, options?: FhirExportOptions): fhir.Bundle {
  requireIdArgument('assessmentId', assessmentId);
  validatePatientChart(chart);
  const resolved = resolveOptions(options);
  const assessment = chart.assessments?.find((a) => a.id === assessmentId);
  if (assessment === undefined) throw new ChartNotFoundError('assessment');
  const encounter = assessment.encounterId === undefined ? undefined : chart.encounters?.find((e) => e.id === assessment.encounterId);
  const included = new Set<string>(encounter !== undefined ? [encounter.id] : []);
  const ctx = createBundleContext(chart, buildIdPlan(chart, resolved.directory), indexDirectory(resolved.directory), included);
  const resources: fhir.FhirResource[] = [mapPatient(chart.patient, ctx)];
  pushAssessmentGroup(resources, assessment, ctx, instrumentScores(chart), new Set(), RESOURCE_MAKERS);
  if (encounter !== undefined) pushEncounterGroup(resources, encounter, ctx, false, RESOURCE_MAKERS);
  for (const r of ctx.drainDirectory()) resources.push(r as fhir.FhirResource);
  return assembleBundle('collection', resources, resolved);
}
