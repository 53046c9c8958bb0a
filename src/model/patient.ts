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
  /**
   * Payer identifier (e.g. NAIC or payer id). Becomes IN1-3; without it IN1-3 carries `id`.
   * @example { system: 'https://clearinghouse.example.com/payer-id', value: '00621' }
   */
  identifier?: Identifier | undefined;
}

/**
 * Insurance coverage of the patient.
 * @example { id: 'cov-1', status: 'active', payer: { id: 'payer-acme', name: 'Acme Health Plan' }, memberId: 'XZ123456', relationship: 'self', order: 1 }
 */
export interface Coverage {
  /** Chart id, unique within the patient. @example 'cov-1' */
  id: string;
  /** Status of the coverage record: a code of {@link COVERAGE_STATUSES}. @example 'active' */
  status: CoverageStatus;
  /** Who pays. @example { id: 'payer-bcbsil', name: 'Blue Cross and Blue Shield of Illinois' } */
  payer: Payer;
  /** Member / subscriber id on the insurance card. Becomes `Coverage.subscriberId` and IN1-36. @example 'XZ123456' */
  memberId?: string | undefined;
  /** Plan id and name. Becomes `Coverage.class` (plan) and IN1-2. @example { id: 'BCBS-HMO-IL', name: 'Blue Precision HMO' } */
  plan?:
    | {
        /** Plan id: 1–128 characters, no control characters, no leading or trailing white space. @example 'BCBS-HMO-IL' */
        id: string;
        /** Plan name, free text. @example 'Blue Precision HMO' */
        name?: string | undefined;
      }
    | undefined;
  /** Group number and name. Becomes `Coverage.class` (group) and IN1-8 / IN1-9. @example { id: 'GRP-118877', name: 'City Colleges | Staff' } */
  group?:
    | {
        /** Group number: 1–128 characters, no control characters, no leading or trailing white space. @example 'GRP-118877' */
        id: string;
        /** Group name, free text. @example 'City Colleges | Staff' */
        name?: string | undefined;
      }
    | undefined;
  /** Beneficiary's relationship to the subscriber: a code of {@link SUBSCRIBER_RELATIONSHIPS}. Default `self`. @example 'self' */
  relationship?: SubscriberRelationship | undefined;
  /** Validity period: dates (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), no times. @example { start: '2022-01-01' } */
  period?: Period | undefined;
  /** Coordination-of-benefits order, 1 = primary. Positive integer. @example 1 */
  order?: number | undefined;
}

/**
 * A patient's demographics and coverage.
 * @example see `examples/data/demo-chart.json`
 */
export interface Patient {
  /** Chart id of the patient, unique in the chart. Becomes the FHIR Patient id (mapped into the FHIR id alphabet if needed). @example 'pat-0001' */
  id: string;
  /**
   * When the record last changed in the host's store (optional): an ISO 8601 instant with seconds and an offset.
   * Becomes `meta.lastUpdated` of the Patient, and decides whether a Bulk `$export` with `_since` includes it
   * (a record without it is always included). Absent: no `meta` at all, the output of earlier versions.
   * @example '2026-03-01T15:00:00Z'
   */
  lastUpdated?: IsoDateTime | undefined;
  /**
   * Business identifiers; the first with type `MR` (or else the first) is the primary one (HL7 PID-3, first
   * repetition). At least one. @example [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-104200', type: 'MR' }]
   */
  identifiers: Identifier[];
  /**
   * Names, the official or first one first. At least one.
   * @example [{ use: 'official', family: "O'Brien", given: ['Mary', 'Anne'], prefix: ['Ms.'] }, { use: 'maiden', family: 'Kowalski', given: ['Mary'] }]
   */
  names: HumanName[];
  /** Date of birth. @example '1984-07-02' */
  birthDate?: IsoDate | undefined;
  /** Administrative gender: a code of {@link GENDERS}. @example 'female' */
  gender?: Gender | undefined;
  /**
   * Date or date-time of death (see {@link IsoDateTime}); `true` when deceased at an unknown time.
   * @example '2025-05-02T12:15:00-05:00'
   * @example true
   */
  deceased?: boolean | IsoDateTime | undefined;
  /**
   * Postal addresses.
   * @example [{ use: 'home', type: 'both', lines: ['2500 S Halsted St', 'Fl 3 (rear)'], city: 'Gary', district: 'Lake', state: 'IN', postalCode: '46402', country: 'US' }]
   */
  addresses?: Address[] | undefined;
  /**
   * Phones, e-mail addresses and other contact points.
   * @example [{ system: 'phone', value: '+1 312 555 0110', use: 'mobile' }, { system: 'email', value: 'mary.obrien@example.com', use: 'work' }]
   */
  telecoms?: Telecom[] | undefined;
  /** Marital status: a code of {@link MARITAL_STATUSES}. @example 'M' */
  maritalStatus?: MaritalStatus | undefined;
  /** Preferred language as a BCP 47 tag. @example 'en-US' */
  language?: string | undefined;
  /**
   * Insurance coverages, primary first. Ids unique within the patient.
   * @example [{ id: 'cov-0001-1', status: 'active', payer: { id: 'payer-bcbsil', name: 'Blue Cross and Blue Shield of Illinois' }, memberId: 'XOF296200036', relationship: 'self', order: 1 }]
   */
  coverages?: Coverage[] | undefined;
}
