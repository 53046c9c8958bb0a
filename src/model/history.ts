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
  /**
   * When the record last changed in the host's store (optional): an ISO 8601 instant with seconds and an offset.
   * Becomes `meta.lastUpdated` of the Condition, and decides whether a Bulk `$export` with `_since` includes it
   * (a record without it is always included). Absent: no `meta` at all, the output of earlier versions.
   * @example '2026-03-01T15:00:00Z'
   */
  lastUpdated?: IsoDateTime | undefined;
  /**
   * The condition code; system `icd-10-cm` or `snomed-ct` only.
   * @example { system: 'icd-10-cm', code: 'F41.1', display: 'Generalized anxiety disorder' }
   */
  code: Coding;
  /**
   * Clinical status: a code of {@link CLINICAL_STATUSES}. A `resolved`, `inactive` or `remission` entry should
   * have an `abatement`. @example 'active'
   */
  clinicalStatus: ClinicalStatus;
  /** Verification status: a code of {@link VERIFICATION_STATUSES}. Default `confirmed`. @example 'confirmed' */
  verificationStatus?: VerificationStatus | undefined;
  /** When it began: a date or date-time (see {@link IsoDateTime}). @example '2018' */
  onset?: IsoDateTime | undefined;
  /** When it ended: a date or date-time (see {@link IsoDateTime}), not before `onset`. @example '2021-02-05' */
  abatement?: IsoDateTime | undefined;
  /**
   * When it was recorded: a date or date-time (see {@link IsoDateTime}). Newest-first ordering uses it, then
   * `onset`. @example '2018-09-22'
   */
  recordedDate?: IsoDateTime | undefined;
  /** Free-text comment. @example 'In remission on sertraline & CBT; PHQ-9 < 5 twice.' */
  note?: string | undefined;
}
