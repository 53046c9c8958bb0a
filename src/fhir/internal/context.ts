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
import type { Coverage, Payer } from '../../model/patient.js';
import type { Encounter } from '../../model/encounter.js';
import type { AssessmentInstrument } from '../../model/assessment.js';
import { derivedMaterial, FHIR_ID_RE, hashedFhirId, mapChartId } from './ids.js';
import { hexToUuidV8, sha256Hex128 } from './hash.js';

/** Ids of the resources a mapper creates. */
export interface IdPlan {
  readonly patient: string;
  encounter(encounter: Encounter): string;
  diagnosis(encounter: Encounter, index: number): string;
  procedure(encounter: Encounter, index: number): string;
  coverage(coverage: Coverage): string;
  payer(payer: Payer): string;
}

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

/** Position-derived key of the `index`-th diagnosis or procedure without an id: `dx1`, `proc2`. */
export function positionalKey(prefix: 'dx' | 'proc', index: number): string {
  return `${prefix}${index + 1}`;
}

/** Candidate id of a derived record (before chart-wide collision resolution). */
export function derivedId(kind: string, parentChartId: string, parentFhirId: string, childId: string | undefined, positional: string): string {
  const candidate = `${parentFhirId}-${childId ?? positional}`;
  // A child id that is not FHIR-safe (or a long one) makes the candidate invalid: then the hashed form.
  return FHIR_ID_RE.test(candidate) ? candidate : hashedFhirId(candidate, derivedIdMaterial(kind, parentChartId, childId, positional));
}

/** The hash material of a derived record: `=` marks a chart id and `#` a positional key, so they never meet. */
export function derivedIdMaterial(kind: string, parentChartId: string, childId: string | undefined, positional: string): string {
  return derivedMaterial(kind, parentChartId, childId === undefined ? `#${positional}` : `=${childId}`);
}

/** Derived canonical URLs by instrument id: every response of an instrument needs the same one. */
const CANONICALS = new Map<string, string>();

/**
 * The canonical URL of an instrument's Questionnaire: the instrument's own `url` when given, otherwise
 * a name-based `urn:uuid:` (UUID version 8 from SHA-256 of the instrument id), stable across exports.
 * @param instrument - the instrument
 */
export function instrumentCanonical(instrument: AssessmentInstrument): string {
  if (instrument.url !== undefined && instrument.url !== '') return instrument.url;
  let url = CANONICALS.get(instrument.id);
  if (url === undefined) {
    url = `urn:uuid:${hexToUuidV8(sha256Hex128(`chart-export:instrument\u001f${instrument.id}`))}`;
    if (CANONICALS.size >= 1000) CANONICALS.clear();
    CANONICALS.set(instrument.id, url);
  }
  return url;
}

/** The Questionnaire URL a response points at: only when the instrument has a url or item definitions. */
export function responseQuestionnaireUrl(instrument: AssessmentInstrument): string | undefined {
  if (instrument.url !== undefined && instrument.url !== '') return instrument.url;
  return instrument.items !== undefined ? instrumentCanonical(instrument) : undefined;
}

/** The plain id plan: every id computed on its own, without chart-wide collision resolution. */
export function standaloneIds(patientChartId: string): IdPlan {
  const patient = mapChartId(patientChartId);
  return {
    patient,
    encounter: (e) => mapChartId(e.id),
    diagnosis: (e, i) => derivedId('diagnosis', e.id, mapChartId(e.id), e.diagnoses?.[i]?.id, positionalKey('dx', i)),
    procedure: (e, i) => derivedId('procedure', e.id, mapChartId(e.id), e.procedures?.[i]?.id, positionalKey('proc', i)),
    coverage: (c) => derivedId('coverage', patientChartId, patient, c.id, c.id),
    payer: (p) => mapChartId(p.id),
  };
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
