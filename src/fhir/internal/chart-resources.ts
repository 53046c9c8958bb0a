/**
 * The resources of a whole chart, one at a time, in the entry order of `buildFhirPatientBundle` without limits,
 * with the same Bundle context: the Patient, Questionnaires and directory records as the very objects that Bundle
 * holds, every other resource as its JSON text written directly (./direct-json.ts), byte for byte `JSON.stringify`
 * of that object. Generators, so a caller holds one record's resources at a time, never the chart's.
 */
import type * as fhir from 'fhir/r4.js';
import type { PatientChart } from '../../model/chart.js';
import type { Directory } from '../../model/directory.js';
import { buildIdPlan } from '../id-plan.js';
import { createBundleContext, indexDirectory, newestFirst } from './bundle.js';
import type { DirectoryMemo } from './directory-memo.js';
import { instrumentScores, pushAssessmentGroup, pushEncounterGroup, pushPatientGroup } from './groups.js';
import { compositionJson, documentReferenceJson, historyConditionJson, JSON_MAKERS } from './direct-json.js';
import type { ResourceJson } from './json-text.js';

/** A resource of a chart: the object, or its JSON text written directly. */
export type ChartResource = fhir.FhirResource | ResourceJson;

/**
 * Every resource of a (checked) chart, as `buildFhirPatientBundle(chart, { directory })` gives them, in its order,
 * a record's resources at a time (the patient with its coverages and payers, an encounter with its conditions and
 * procedures, a note's Composition and DocumentReference…): one generator step per group rather than per
 * resource. Each group is the same array, emptied and filled again for the next step: read it before the next.
 * @param chart - a chart that passed the chart check
 * @param directory - a directory that passed the directory check, or undefined
 * @param memo - the writer's memory of `directory` when it is a frozen one: directory records it handled for an
 *   earlier chart are not given again
 * @throws {MappingError} as the Bundle builder does (two records of one type with one FHIR id)
 */
export function* chartResources(chart: PatientChart, directory: Directory | undefined, memo?: DirectoryMemo): Generator<readonly ChartResource[]> {
  const all = Number.POSITIVE_INFINITY;
  const encounters = newestFirst(chart.encounters, all, (e) => [e.period?.start]);
  const included = new Set<string>();
  for (const e of encounters) included.add(e.id);
  const ctx = createBundleContext(chart, buildIdPlan(chart, directory), indexDirectory(directory), included, memo);
  const group: ChartResource[] = [];
  pushPatientGroup(group, chart, ctx, JSON_MAKERS);
  yield group;
  for (const e of encounters) {
    group.length = 0;
    pushEncounterGroup(group, e, ctx, true, JSON_MAKERS);
    yield group;
  }
  for (const n of newestFirst(chart.notes, all, (x) => [x.authored])) {
    group.length = 0;
    group.push(compositionJson(n, ctx), documentReferenceJson(n, ctx));
    yield group;
  }
  const assessments = newestFirst(chart.assessments, all, (a) => [a.authored]);
  if (assessments.length > 0) {
    const scores = instrumentScores(chart);
    const questionnaires = new Set<string>();
    for (const a of assessments) {
      group.length = 0;
      pushAssessmentGroup(group, a, ctx, scores, questionnaires, JSON_MAKERS);
      yield group;
    }
  }
  for (const h of newestFirst(chart.medicalHistory, all, (x) => [x.recordedDate, x.onset])) {
    group.length = 0;
    group.push(historyConditionJson(h, ctx));
    yield group;
  }
  yield ctx.drainDirectory() as fhir.FhirResource[];
}

/** A chart no directory record refers to: the id plan of a directory alone. */
const DIRECTORY_ONLY: PatientChart = Object.freeze({ patient: Object.freeze({ id: 'directory', identifiers: [], names: [] }) }) as unknown as PatientChart;

/**
 * Every record of a (checked) directory, mapped as a patient Bundle maps the directory records it refers to
 * (literal references to the directory's own records): practitioners, then locations (each followed by the
 * organizations it brings in first), then the remaining organizations; a record's resources at a time.
 * @param directory - a directory that passed the directory check
 * @param memo - as for {@link chartResources}
 * @throws {MappingError} when two records of one kind map to one FHIR id
 */
export function* directoryResources(directory: Directory, memo?: DirectoryMemo): Generator<readonly fhir.FhirResource[]> {
  const ctx = createBundleContext(DIRECTORY_ONLY, buildIdPlan(DIRECTORY_ONLY, directory), indexDirectory(directory), new Set(), memo);
  for (const p of directory.practitioners ?? []) {
    ctx.practitionerRef(p.id);
    yield ctx.drainDirectory() as fhir.FhirResource[];
  }
  for (const l of directory.locations ?? []) {
    ctx.locationRef(l.id);
    yield ctx.drainDirectory() as fhir.FhirResource[];
  }
  for (const o of directory.organizations ?? []) {
    ctx.organizationRef(o.id);
    yield ctx.drainDirectory() as fhir.FhirResource[];
  }
}
