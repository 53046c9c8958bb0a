/**
 * Code systems by canonical URI, and the codes with their official displays (taken from the FHIR R4
 * terminology: v2 tables 4.0.1 / THO, v3 code systems 2018-08-12, FHIR-defined code systems 4.0.1).
 */
import type * as fhir from 'fhir/r4.js';
import { CODE_SYSTEMS, type Coding } from '../../model/common.js';
import { hasText } from '../../internal/text.js';

/** Canonical URIs of the HL7 terminology code systems the mappers use. */
export const SYSTEM = {
  /** US Core DocumentReference category (`clinical-note`): the category US Core requires of a clinical note. */
  usCoreDocumentReferenceCategory: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category',
  v2IdentifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  v3MaritalStatus: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus',
  v3NullFlavor: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor',
  v3ActCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  v3ParticipationType: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType',
  v3Confidentiality: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality',
  conditionClinical: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
  conditionVerStatus: 'http://terminology.hl7.org/CodeSystem/condition-ver-status',
  conditionCategory: 'http://terminology.hl7.org/CodeSystem/condition-category',
  diagnosisRole: 'http://terminology.hl7.org/CodeSystem/diagnosis-role',
  subscriberRelationship: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
  coverageClass: 'http://terminology.hl7.org/CodeSystem/coverage-class',
  organizationType: 'http://terminology.hl7.org/CodeSystem/organization-type',
  loinc: 'http://loinc.org',
  bcp47: 'urn:ietf:bcp:47',
} as const;

/** Extensions used by the mappers. */
export const EXTENSION = {
  dataAbsentReason: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason',
  ordinalValue: 'http://hl7.org/fhir/StructureDefinition/ordinalValue',
} as const;

/** v2 table 0203 identifier types. */
export const IDENTIFIER_TYPE_DISPLAY = {
  MR: 'Medical record number',
  SS: 'Social Security number',
  DL: "Driver's license number",
  PI: 'Patient internal identifier',
  AN: 'Account number',
  MB: 'Member Number',
  NPI: 'National provider identifier',
  PRN: 'Provider number',
  TAX: 'Tax ID number',
  XX: 'Organization identifier',
} as const;

/** v3 MaritalStatus (and v3 NullFlavor `UNK`), the FHIR R4 `marital-status` value set. */
export const MARITAL_STATUS_DISPLAY = {
  A: 'Annulled',
  D: 'Divorced',
  I: 'Interlocutory',
  L: 'Legally Separated',
  M: 'Married',
  P: 'Polygamous',
  S: 'Never Married',
  T: 'Domestic partner',
  U: 'unmarried',
  W: 'Widowed',
  UNK: 'unknown',
} as const;

/** v3 ActCode encounter classes (value set v3-ActEncounterCode). */
export const ENCOUNTER_CLASS_DISPLAY = {
  AMB: 'ambulatory',
  EMER: 'emergency',
  IMP: 'inpatient encounter',
  ACUTE: 'inpatient acute',
  NONAC: 'inpatient non-acute',
  OBSENC: 'observation encounter',
  PRENC: 'pre-admission',
  SS: 'short stay',
  VR: 'virtual',
  HH: 'home health',
  FLD: 'field',
} as const;

/** v3 ParticipationType codes of the `encounter-participant-type` value set. */
export const PARTICIPANT_ROLE_DISPLAY = {
  ATND: 'attender',
  ADM: 'admitter',
  CON: 'consultant',
  REF: 'referrer',
  PPRF: 'primary performer',
  SPRF: 'secondary performer',
  PART: 'Participation',
} as const;

/** v3 Confidentiality. */
export const CONFIDENTIALITY_DISPLAY = { N: 'normal', R: 'restricted', V: 'very restricted' } as const;

/** `condition-clinical`. */
export const CLINICAL_STATUS_DISPLAY = {
  active: 'Active',
  recurrence: 'Recurrence',
  relapse: 'Relapse',
  inactive: 'Inactive',
  remission: 'Remission',
  resolved: 'Resolved',
} as const;

/** `condition-ver-status`. */
export const VERIFICATION_STATUS_DISPLAY = {
  unconfirmed: 'Unconfirmed',
  provisional: 'Provisional',
  differential: 'Differential',
  confirmed: 'Confirmed',
  refuted: 'Refuted',
  'entered-in-error': 'Entered in Error',
} as const;

/** `diagnosis-role`. */
export const DIAGNOSIS_ROLE_DISPLAY = {
  AD: 'Admission diagnosis',
  DD: 'Discharge diagnosis',
  CC: 'Chief complaint',
  CM: 'Comorbidity diagnosis',
  'pre-op': 'pre-op diagnosis',
  'post-op': 'post-op diagnosis',
  billing: 'Billing',
} as const;

/** `subscriber-relationship`. */
export const SUBSCRIBER_RELATIONSHIP_DISPLAY = {
  self: 'Self',
  spouse: 'Spouse',
  child: 'Child',
  parent: 'Parent',
  common: 'Common Law Spouse',
  other: 'Other',
  injured: 'Injured Party',
} as const;

/** LOINC document types of the note types (LOINC long common names). */
export const NOTE_TYPE_LOINC = {
  'progress-note': { code: '11506-3', display: 'Progress note' },
  'discharge-summary': { code: '18842-5', display: 'Discharge summary' },
  'consultation-note': { code: '11488-4', display: 'Consult note' },
  'history-and-physical': { code: '34117-2', display: 'History and physical note' },
  'procedure-note': { code: '28570-0', display: 'Procedure note' },
} as const;

/**
 * A FHIR Coding from a fixed table entry.
 * @param system - canonical URI
 * @param code - the code
 * @param display - its official display
 */
export function fixedCoding(system: string, code: string, display: string): fhir.Coding {
  return { system, code, display };
}

/** A CodeableConcept of one fixed Coding. */
export function fixedConcept(system: string, code: string, display: string): fhir.CodeableConcept {
  return { coding: [{ system, code, display }] };
}

/**
 * A chart Coding as a FHIR Coding: the system key becomes its canonical URI; a blank display is omitted.
 * @param coding - chart coding
 */
export function toCoding(coding: Coding): fhir.Coding {
  const out: fhir.Coding = { system: CODE_SYSTEMS[coding.system].uri, code: coding.code };
  if (coding.display !== undefined && hasText(coding.display)) out.display = coding.display;
  return out;
}

/** A chart Coding as a FHIR CodeableConcept of that one coding. */
export function toConcept(coding: Coding): fhir.CodeableConcept {
  return { coding: [toCoding(coding)] };
}
