/** Resource groups that several builders emit: the patient with coverages, an encounter with its parts, an assessment. */
import type * as fhir from 'fhir/r4.js';
import type { Assessment } from '../../model/assessment.js';
import type { PatientChart } from '../../model/chart.js';
import type { Coding } from '../../model/common.js';
import type { Diagnosis, Encounter, Procedure } from '../../model/encounter.js';
import type { Coverage, Patient, Payer } from '../../model/patient.js';
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

/**
 * How a group's resources are made: by the mappers ({@link RESOURCE_MAKERS}), or, for the NDJSON writer, as their
 * JSON text written directly (./direct-json.ts). One definition of what a group holds and in which order, for both.
 */
export interface GroupMakers<R> {
  patient(patient: Patient, ctx: MapContext): R;
  coverage(coverage: Coverage, ctx: MapContext): R;
  payer(payer: Payer, ctx: MapContext): R;
  encounter(encounter: Encounter, ctx: MapContext): R;
  condition(encounter: Encounter, index: number, diagnosis: Diagnosis, ctx: MapContext): R;
  procedure(encounter: Encounter, index: number, procedure: Procedure, ctx: MapContext): R;
  response(assessment: Assessment, ctx: MapContext): R;
}

/** The mappers: every group member as its resource object. */
export const RESOURCE_MAKERS: GroupMakers<fhir.FhirResource> = {
  patient: mapPatient,
  coverage: mapCoverage,
  payer: mapPayerOrganization,
  encounter: mapEncounter,
  condition: mapEncounterCondition,
  procedure: mapProcedure,
  response: mapQuestionnaireResponse,
};

/** Where a group's resources go (an array of them, or of them and their JSON texts). */
export interface ResourceSink<R> {
  push(resource: R | fhir.FhirResource): unknown;
}

/** Patient, its Coverages and their payer Organizations (each payer once). */
export function pushPatientGroup<R>(out: ResourceSink<R>, chart: PatientChart, ctx: MapContext, make: GroupMakers<R>): void {
  out.push(make.patient(chart.patient, ctx));
  const coverages = chart.patient.coverages;
  if (coverages === undefined || coverages.length === 0) return;
  for (const c of coverages) out.push(make.coverage(c, ctx));
  const payers = new Set<string>();
  for (const c of coverages) {
    if (payers.has(c.payer.id)) continue;
    payers.add(c.payer.id);
    out.push(make.payer(c.payer, ctx));
  }
}

/** An Encounter, its Conditions and (optionally) its Procedures. */
export function pushEncounterGroup<R>(out: ResourceSink<R>, encounter: Encounter, ctx: MapContext, withProcedures: boolean, make: GroupMakers<R>): void {
  out.push(make.encounter(encounter, ctx));
  const diagnoses = encounter.diagnoses;
  if (diagnoses !== undefined) for (let i = 0; i < diagnoses.length; i++) out.push(make.condition(encounter, i, diagnoses[i] as Diagnosis, ctx));
  const procedures = encounter.procedures;
  if (withProcedures && procedures !== undefined) for (let i = 0; i < procedures.length; i++) out.push(make.procedure(encounter, i, procedures[i] as Procedure, ctx));
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
export function pushAssessmentGroup<R>(
  out: ResourceSink<R>,
  assessment: Assessment,
  ctx: MapContext,
  scores: ReadonlyMap<string, QuestionnaireScore>,
  questionnaires: Set<string>,
  make: GroupMakers<R>,
): void {
  out.push(make.response(assessment, ctx));
  const instrument = assessment.instrument;
  if (instrument.items === undefined) return;
  const id = mapChartId(instrument.id);
  if (questionnaires.has(id)) return;
  questionnaires.add(id);
  out.push(mapQuestionnaire(instrument, scores.get(instrument.id)));
}
