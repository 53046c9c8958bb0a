/**
 * The mapping context: how a mapper names resources (ids) and points at other records (references).
 *
 * Two kinds exist. The standalone context (public `toFhir…` mappers) gives every resource its plain
 * mapped id and writes literal `Type/id` references, as a server holding every record would. The Bundle
 * context (the `buildFhir…` builders) uses the chart-wide id plan (which also resolves id collisions of
 * derived resources) and writes a literal reference only when the target is an entry of the Bundle;
 * otherwise a logical reference (identifier + display), never a dangling literal one.
 */
import type * as fhir from 'fhir/r4.js';
import type { AssessmentInstrument } from '../../model/assessment.js';
import { type IdPlan, instrumentCanonical, mapChartId, standaloneIds } from '../ids.js';

/** What a mapper needs besides its record. */
export interface MapContext {
  readonly ids: IdPlan;
  /** Reference to the patient (always an entry of a patient-scoped Bundle). */
  patientRef(): fhir.Reference;
  /** Reference to a resource created together with the referring one (its Conditions, its payer). */
  localRef(resourceType: string, fhirId: string): fhir.Reference;
  encounterRef(chartId: string): fhir.Reference;
  practitionerRef(chartId: string): fhir.Reference;
  locationRef(chartId: string): fhir.Reference;
  organizationRef(chartId: string): fhir.Reference;
  /** Canonical URL of the instrument's Questionnaire, when one is known. */
  questionnaireUrl(instrument: AssessmentInstrument): string | undefined;
}

/** The Questionnaire URL a response points at: only when the instrument has a url or item definitions. */
export function responseQuestionnaireUrl(instrument: AssessmentInstrument): string | undefined {
  if (instrument.url !== undefined && instrument.url !== '') return instrument.url;
  return instrument.items !== undefined ? instrumentCanonical(instrument) : undefined;
}

/** Literal reference `Type/id`. */
export function literalRef(resourceType: string, fhirId: string): fhir.Reference {
  return { reference: `${resourceType}/${fhirId}` };
}

/**
 * The standalone context: plain ids, literal references to every target.
 * @param patientChartId - chart id of the patient the records belong to
 */
export function standaloneContext(patientChartId: string): MapContext {
  const ids = standaloneIds(patientChartId);
  return {
    ids,
    patientRef: () => literalRef('Patient', ids.patient),
    localRef: literalRef,
    encounterRef: (id) => literalRef('Encounter', mapChartId(id)),
    practitionerRef: (id) => literalRef('Practitioner', mapChartId(id)),
    locationRef: (id) => literalRef('Location', mapChartId(id)),
    organizationRef: (id) => literalRef('Organization', mapChartId(id)),
    questionnaireUrl: responseQuestionnaireUrl,
  };
}
