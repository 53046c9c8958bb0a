import type * as fhir from 'fhir/r4.js';
import type { PatientChart } from '../model/chart.js';
import { validatePatientChart } from '../validation/chart-check.js';
import { keepShape } from '../internal/kept-shapes.js';
import { assembleBundle, createBundleContext, type DirectoryIndex, indexDirectory, newestFirst } from './internal/bundle.js';
import { instrumentScores, pushAssessmentGroup, pushEncounterGroup, pushPatientGroup, RESOURCE_MAKERS } from './internal/groups.js';
import { buildIdPlan } from './id-plan.js';
import type { IdPlan } from './ids.js';
import type { Assessment } from '../model/assessment.js';
import type { Encounter } from '../model/encounter.js';
import type { MedicalHistoryEntry } from '../model/history.js';
import type { ClinicalNote } from '../model/note.js';
import { limitsObject, resolveLimit, resolveOptions, type ResolvedOptions } from './internal/resolve-options.js';
import { mapComposition } from './composition.js';
import { mapDocumentReference } from './document-reference.js';
import { mapHistoryCondition } from './history-condition.js';
import type { FhirPatientBundleOptions } from './export-options.js';

/**
 * Build the `exportFhirPatientBundle` response: a `collection` Bundle of the Patient (first), its
 * Coverages and payer Organizations, the newest encounters (each with its Conditions and Procedures),
 * the newest notes (Composition + DocumentReference), the newest assessments (QuestionnaireResponse +
 * Questionnaire when the instrument has item definitions), the newest medical-history Conditions, and
 * the directory records all of these reference (Practitioners, Locations, Organizations).
 *
 * Each limit caps its own kind, newest first. A reference to a record the Bundle does not hold (a note's
 * encounter beyond the encounter limit, an id the directory lacks) is a logical reference
 * (`identifier.value` = chart id, `display` when known), never a dangling literal one.
 *
 * @param chart - the patient's chart (checked first; nothing invalid is emitted)
 * @param options - {@link FhirExportOptions} plus `limits`
 * @returns the Bundle
 * @throws {ChartValidationError} when the chart (or `options.directory`) fails the chart check
 * @throws {InvalidArgumentError} when an option or limit is malformed (a limit must be a non-negative integer)
 * @throws {MappingError} when two records of one FHIR type map to the same FHIR id (only a chart id crafted
 *   to equal another id's hashed form can do that)
 * @example buildFhirPatientBundle(chart, { limits: { encounters: 5, notes: 5 }, now: '2026-03-01T15:00:00Z' }).type // 'collection'
 * @see https://hl7.org/fhir/R4/bundle.html
 */
export function buildFhirPatientBundle(chart: PatientChart, options?: FhirPatientBundleOptions): fhir.Bundle {
  const plan = planFhirPatientBundle(chart, options);
  return assembleBundle('collection', [...plan.resources()], plan.resolved);
}

/** A checked patient Bundle request: its resolved options and its entries' resources, made on demand. */
export interface PatientBundlePlan {
  readonly resolved: ResolvedOptions;
  /** The entries' resources in entry order; each call maps them afresh and gives the same sequence. */
  resources(): Generator<fhir.FhirResource, void, undefined>;
}

/**
 * Check a patient Bundle request (chart, options, limits) and plan its entries, which {@link buildFhirPatientBundle}
 * gathers at once and `streamFhirPatientBundle` one at a time.
 * @throws {ChartValidationError} / {InvalidArgumentError} as {@link buildFhirPatientBundle}
 */
export function planFhirPatientBundle(chart: PatientChart, options?: FhirPatientBundleOptions): PatientBundlePlan {
  validatePatientChart(chart);
  const resolved = resolveOptions(options);
  const limits = limitsObject(options?.limits);
  const encounterLimit = resolveLimit(limits['encounters'], 'limits.encounters');
  const noteLimit = resolveLimit(limits['notes'], 'limits.notes');
  const assessmentLimit = resolveLimit(limits['assessments'], 'limits.assessments');
  const historyLimit = resolveLimit(limits['medicalHistory'], 'limits.medicalHistory');

  const encounters = newestFirst(chart.encounters, encounterLimit, (e) => [e.period?.start]);
  const notes = newestFirst(chart.notes, noteLimit, (n) => [n.authored]);
  const assessments = newestFirst(chart.assessments, assessmentLimit, (a) => [a.authored]);
  const history = newestFirst(chart.medicalHistory, historyLimit, (h) => [h.recordedDate, h.onset]);

  const included = new Set<string>();
  for (const e of encounters) included.add(e.id);
  return new PatientBundleResources(chart, resolved, encounters, notes, assessments, history, included);
}

/**
 * The plan of {@link planFhirPatientBundle}: a class, so that `resources` is one generator function for every
 * Bundle (as a closure made per Bundle, the optimized code that inlined it was thrown away with it, after every
 * Bundle; see ChartIdPlan in ./id-plan.ts).
 */
class PatientBundleResources implements PatientBundlePlan {
  private readonly ids: IdPlan;
  private readonly index: DirectoryIndex;

  constructor(
    private readonly chart: PatientChart,
    readonly resolved: ResolvedOptions,
    private readonly encounters: readonly Encounter[],
    private readonly notes: readonly ClinicalNote[],
    private readonly assessments: readonly Assessment[],
    private readonly history: readonly MedicalHistoryEntry[],
    private readonly included: ReadonlySet<string>,
  ) {
    this.ids = buildIdPlan(chart, resolved.directory);
    this.index = indexDirectory(resolved.directory);
  }

  *resources(): Generator<fhir.FhirResource, void, undefined> {
    const { chart, assessments } = this;
    // A fresh context per walk: the directory entries come out in order of first reference, every time.
    const ctx = createBundleContext(chart, this.ids, this.index, this.included);
    const group: fhir.FhirResource[] = [];
    pushPatientGroup(group, chart, ctx, RESOURCE_MAKERS);
    yield* group;
    for (const e of this.encounters) {
      group.length = 0;
      pushEncounterGroup(group, e, ctx, true, RESOURCE_MAKERS);
      yield* group;
    }
    for (const n of this.notes) {
      yield mapComposition(n, ctx);
      yield mapDocumentReference(n, ctx);
    }
    if (assessments.length > 0) {
      const scores = instrumentScores(chart);
      const questionnaires = new Set<string>();
      for (const a of assessments) {
        group.length = 0;
        pushAssessmentGroup(group, a, ctx, scores, questionnaires, RESOURCE_MAKERS);
        yield* group;
      }
    }
    for (const h of this.history) yield mapHistoryCondition(h, ctx);
    for (const r of ctx.drainDirectory()) yield r as fhir.FhirResource;
  }
}

// One plan kept alive, so that the class's hidden class (and the code optimized for it) outlives full collections.
keepShape(new PatientBundleResources({ patient: { id: 'kept', identifiers: [], names: [] } }, resolveOptions(undefined), [], [], [], [], new Set()));
