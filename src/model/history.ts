import type { Coding, IsoDateTime } from './common.js';

/** Clinical status of a condition (FHIR `condition-clinical`). */
export const CLINICAL_STATUSES = ['active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved'] as const;
/** One of {@link CLINICAL_STATUSES}. */
export type ClinicalStatus = (typeof CLINICAL_STATUSES)[number];

/** Verification status of a condition (FHIR `condition-ver-status`). */
export const VERIFICATION_STATUSES = ['unconfirmed', 'provisional', 'differential', 'confirmed', 'refuted', 'entered-in-error'] as const;
/** One of {@link VERIFICATION_STATUSES}. */
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/**
 * A medical-history entry: a condition or problem. It becomes a FHIR Condition (category
 * `problem-list-item`) and, in the HL7 summary, a DG1 segment.
 * @example { id: 'hx-0001', code: { system: 'icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' }, clinicalStatus: 'active', onset: '2019', recordedDate: '2019-05-14' }
 */
export interface MedicalHistoryEntry {
  /** Chart id, unique in the patient's chart. @example 'hx-0001' */
  id: string;
  /** The condition code (ICD-10-CM or SNOMED CT). */
  code: Coding;
  /** Clinical status. A `resolved`, `inactive` or `remission` entry should have an `abatement`. */
  clinicalStatus: ClinicalStatus;
  /** Verification status. Default `confirmed`. */
  verificationStatus?: VerificationStatus | undefined;
  /** When it began (date or date-time). */
  onset?: IsoDateTime | undefined;
  /** When it ended (date or date-time). */
  abatement?: IsoDateTime | undefined;
  /** When it was recorded (date or date-time). Newest-first ordering uses it, then `onset`. */
  recordedDate?: IsoDateTime | undefined;
  /** Free-text comment. */
  note?: string | undefined;
}
