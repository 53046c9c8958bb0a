/** Resource groups that several builders emit: the patient with coverages, an encounter with its parts, an assessment. */
import type * as fhir from 'fhir/r4.js';
import type { Assessment } from '../../model/assessment.js';
import type { PatientChart } from '../../model/chart.js';
import type { Coding } from '../../model/common.js';
import type { Encounter } from '../../model/encounter.js';
import { mapCoverage } from '../coverage.js';
import { mapEncounter } from '../encounter-resource.js';
import { mapEncounterCondition } from '../encounter-condition.js';
import { mapPatient } from '../patient-resource.js';
import { mapPayerOrganization } from '../payer-organization.js';
import { mapProcedure } from '../procedure.js';
import { mapQuestionnaire, type QuestionnaireScore } from '../questionnaire.js';
import { mapQuestionnaireResponse } from '../questionnaire-response.js';
import type { MapContext } from './context.js';
import { mapChartId } from '../ids.js';

/** Where a group's resources go: an array of resources (or of resources and their JSON texts). */
export interface ResourceSink {
  push(resource: fhir.FhirResource): unknown;
}

/** Patient, its Coverages and their payer Organizations (each payer once). */
export function pushPatientGroup(out: ResourceSink, chart: PatientChart, ctx: MapContext): void {
  out.push(mapPatient(chart.patient, ctx));
  const coverages = chart.patient.coverages;
  if (coverages === undefined || coverages.length === 0) return;
  for (const c of coverages) out.push(mapCoverage(c, ctx));
  const payers = new Set<string>();
  for (const c of coverages) {
    if (payers.has(c.payer.id)) continue;
    payers.add(c.payer.id);
    out.push(mapPayerOrganization(c.payer, ctx));
  }
}

/** An Encounter, its Conditions and (optionally) its Procedures. */
export function pushEncounterGroup(out: ResourceSink, encounter: Encounter, ctx: MapContext, withProcedures: boolean): void {
  out.push(mapEncounter(encounter, ctx));
  encounter.diagnoses?.forEach((dx, i) => out.push(mapEncounterCondition(encounter, i, dx, ctx)));
  if (withProcedures) encounter.procedures?.forEach((p, i) => out.push(mapProcedure(encounter, i, p, ctx)));
}

/**
 * Per instrument id, the score descriptor of its Questionnaire: set when any assessment of the chart with
 * that instrument has a score, with the first score code in chart order. Chart-wide, so every export of
 * a chart gives an instrument's Questionnaire the same items.
 */
export function instrumentScores(chart: PatientChart): Map<string, QuestionnaireScore> {
  const out = new Map<string, QuestionnaireScore>();
  for (const a of chart.assessments ?? []) {
    if (a.score === undefined) continue;
    const code: Coding | undefined = a.score.code;
    const previous = out.get(a.instrument.id);
    if (previous === undefined || (previous.code === undefined && code !== undefined)) out.set(a.instrument.id, code !== undefined ? { code } : {});
  }
  return out;
}

/** A QuestionnaireResponse and, the first time its instrument (with item definitions) appears, its Questionnaire. */
export function pushAssessmentGroup(
  out: ResourceSink,
  assessment: Assessment,
  ctx: MapContext,
  scores: ReadonlyMap<string, QuestionnaireScore>,
  questionnaires: Set<string>,
): void {
  out.push(mapQuestionnaireResponse(assessment, ctx));
  const instrument = assessment.instrument;
  if (instrument.items === undefined) return;
  const id = mapChartId(instrument.id);
  if (questionnaires.has(id)) return;
  questionnaires.add(id);
  out.push(mapQuestionnaire(instrument, scores.get(instrument.id)));
}
