import type { Address, HumanName, Identifier, IsoDate, IsoDateTime, Period, Telecom } from './common.js';

/** Administrative gender (FHIR `AdministrativeGender`). */
export const GENDERS = ['male', 'female', 'other', 'unknown'] as const;
/** One of {@link GENDERS}. */
export type Gender = (typeof GENDERS)[number];

/**
 * Marital status, from the FHIR R4 `MaritalStatus` value set (v3 MaritalStatus codes + `UNK`):
 * `A` annulled, `D` divorced, `I` interlocutory, `L` legally separated, `M` married, `P` polygamous,
 * `S` never married, `T` domestic partner, `U` unmarried, `W` widowed, `UNK` unknown.
 */
export const MARITAL_STATUSES = ['A', 'D', 'I', 'L', 'M', 'P', 'S', 'T', 'U', 'W', 'UNK'] as const;
/** One of {@link MARITAL_STATUSES}. */
export type MaritalStatus = (typeof MARITAL_STATUSES)[number];

/** Coverage status (FHIR `FinancialResourceStatusCodes`). */
export const COVERAGE_STATUSES = ['active', 'cancelled', 'draft', 'entered-in-error'] as const;
/** One of {@link COVERAGE_STATUSES}. */
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

/** Subscriber relationship (FHIR `subscriber-relationship` codes). */
export const SUBSCRIBER_RELATIONSHIPS = ['self', 'spouse', 'child', 'parent', 'common', 'other', 'injured'] as const;
/** One of {@link SUBSCRIBER_RELATIONSHIPS}. */
export type SubscriberRelationship = (typeof SUBSCRIBER_RELATIONSHIPS)[number];

/**
 * The organization that pays under a coverage. It becomes a FHIR `Organization` referenced by
 * `Coverage.payor`, and HL7 IN1-3 (company id) / IN1-4 (company name).
 * @example { id: 'payer-acme', name: 'Acme Health Plan', identifier: { system: 'urn:oid:2.16.840.1.113883.3.221.5', value: '60054' } }
 */
export interface Payer {
  /**
   * Chart id of the payer organization. Used for the FHIR Organization id, one per payer id: coverages of a
   * patient whose payers share an id must give the same `name` and `identifier`. @example 'payer-acme'
   */
  id: string;
  /** Payer name. @example 'Acme Health Plan' */
  name: string;
  /** Payer identifier (e.g. NAIC or payer id). Becomes IN1-3; without it IN1-3 carries `id`. */
  identifier?: Identifier | undefined;
}

/**
 * Insurance coverage of the patient.
 * @example { id: 'cov-1', status: 'active', payer: { id: 'payer-acme', name: 'Acme Health Plan' }, memberId: 'XZ123456', relationship: 'self', order: 1 }
 */
export interface Coverage {
  /** Chart id, unique within the patient. @example 'cov-1' */
  id: string;
  /** Status of the coverage record. */
  status: CoverageStatus;
  /** Who pays. */
  payer: Payer;
  /** Member / subscriber id on the insurance card. Becomes `Coverage.subscriberId` and IN1-36. @example 'XZ123456' */
  memberId?: string | undefined;
  /** Plan id and name. Becomes `Coverage.class` (plan) and IN1-2. */
  plan?: { id: string; name?: string | undefined } | undefined;
  /** Group number and name. Becomes `Coverage.class` (group) and IN1-8 / IN1-9. */
  group?: { id: string; name?: string | undefined } | undefined;
  /** Beneficiary's relationship to the subscriber. Default `self`. */
  relationship?: SubscriberRelationship | undefined;
  /** Validity period (dates). */
  period?: Period | undefined;
  /** Coordination-of-benefits order, 1 = primary. Positive integer. */
  order?: number | undefined;
}

/**
 * A patient's demographics and coverage.
 * @example see `examples/data/demo-chart.json`
 */
export interface Patient {
  /** Chart id of the patient, unique in the chart. Becomes the FHIR Patient id (mapped into the FHIR id alphabet if needed). @example 'pat-0001' */
  id: string;
  /** Business identifiers; the first with type `MR` (or else the first) is the primary one (HL7 PID-3, first repetition). At least one. */
  identifiers: Identifier[];
  /** Names, the official or first one first. At least one. */
  names: HumanName[];
  /** Date of birth. @example '1984-07-02' */
  birthDate?: IsoDate | undefined;
  /** Administrative gender. */
  gender?: Gender | undefined;
  /** Date or date-time of death; `true` when deceased at an unknown time. */
  deceased?: boolean | IsoDateTime | undefined;
  /** Postal addresses. */
  addresses?: Address[] | undefined;
  /** Phones, e-mail addresses and other contact points. */
  telecoms?: Telecom[] | undefined;
  /** Marital status. */
  maritalStatus?: MaritalStatus | undefined;
  /** Preferred language as a BCP 47 tag. @example 'en-US' */
  language?: string | undefined;
  /** Insurance coverages, primary first. */
  coverages?: Coverage[] | undefined;
}
