/**
 * Shared building blocks of the chart-domain model. The model holds plain JSON-compatible data:
 * strings, numbers, booleans, arrays and objects. Dates are ISO 8601 strings that keep the precision and
 * offset they were given; `Date` objects are never used, because they lose both. An optional field is left
 * out or `undefined`: `null` (as JSON or a database may give it) is no absence, and the chart check reports
 * it like any other value of the wrong type.
 */

/**
 * A calendar date at year, month or day precision: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
 * @example '1984-07-02'
 */
export type IsoDate = string;

/**
 * A date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) or a date-time `YYYY-MM-DDThh:mm:ss`. A date-time needs hours,
 * minutes and seconds (`T09:30` alone is refused), may add a fraction of a second (1 to 4 digits, so that
 * HL7 v2.5.1 DTM keeps every digit), and needs a time-zone offset (`Z` or `±hh:mm`), as FHIR `dateTime`
 * requires once a time is given. Days must exist in the calendar.
 * @example '2026-03-01T09:30:00-05:00'
 * @example '2026-03-01T09:30:00.25Z'
 * @example '2026-03-01'
 */
export type IsoDateTime = string;

/** A period between two dates or date-times; either end may be open. `start` ≤ `end` when both are set. */
export interface Period {
  /** Start, inclusive. @example '2026-03-01T09:30:00-05:00' */
  start?: IsoDateTime | undefined;
  /** End, inclusive. @example '2026-03-01T10:10:00-05:00' */
  end?: IsoDateTime | undefined;
}

/**
 * The code systems the chart may use, by short key. Each maps to its canonical FHIR URI and its HL7 v2.5.1
 * coding-system name (table 0396).
 */
export const CODE_SYSTEMS = {
  /** ICD-10-CM diagnoses. FHIR `http://hl7.org/fhir/sid/icd-10-cm`, HL7 `I10`. */
  'icd-10-cm': {
    /** The FHIR `Coding.system` URI. */
    uri: 'http://hl7.org/fhir/sid/icd-10-cm',
    /** The HL7 v2 coding-system name (table 0396), in CE-3. */
    hl7: 'I10',
    /** The code system's usual name. */
    name: 'ICD-10-CM',
  },
  /** ICD-10-PCS procedures. FHIR `http://www.cms.gov/Medicare/Coding/ICD10`, HL7 `I10P`. */
  'icd-10-pcs': {
    /** The FHIR `Coding.system` URI. */
    uri: 'http://www.cms.gov/Medicare/Coding/ICD10',
    /** The HL7 v2 coding-system name (table 0396), in CE-3. */
    hl7: 'I10P',
    /** The code system's usual name. */
    name: 'ICD-10-PCS',
  },
  /** SNOMED CT. FHIR `http://snomed.info/sct`, HL7 `SCT`. */
  'snomed-ct': {
    /** The FHIR `Coding.system` URI. */
    uri: 'http://snomed.info/sct',
    /** The HL7 v2 coding-system name (table 0396), in CE-3. */
    hl7: 'SCT',
    /** The code system's usual name. */
    name: 'SNOMED CT',
  },
  /** CPT-4 procedures. FHIR `http://www.ama-assn.org/go/cpt`, HL7 `C4`. */
  cpt: {
    /** The FHIR `Coding.system` URI. */
    uri: 'http://www.ama-assn.org/go/cpt',
    /** The HL7 v2 coding-system name (table 0396), in CE-3. */
    hl7: 'C4',
    /** The code system's usual name. */
    name: 'CPT-4',
  },
  /** LOINC observations, documents, panels and answer lists. FHIR `http://loinc.org`, HL7 `LN`. */
  loinc: {
    /** The FHIR `Coding.system` URI. */
    uri: 'http://loinc.org',
    /** The HL7 v2 coding-system name (table 0396), in CE-3. */
    hl7: 'LN',
    /** The code system's usual name. */
    name: 'LOINC',
  },
} as const;

/** A key of {@link CODE_SYSTEMS}. */
export type CodeSystem = keyof typeof CODE_SYSTEMS;

/**
 * A code from one of the supported code systems.
 * @example { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' }
 */
export interface Coding {
  /** The code system, by short key: one of {@link CODE_SYSTEMS} (some fields allow fewer). @example 'icd-10-cm' */
  system: CodeSystem;
  /**
   * The code itself: 1–64 characters, no leading, trailing or repeated white space, no control characters
   * (tab, CR, LF, DEL and C1 included). @example 'F32.1'
   */
  code: string;
  /** Human-readable meaning of the code. @example 'Major depressive disorder, single episode, moderate' */
  display?: string | undefined;
}

/**
 * An identifier issued by some system (medical record number, member id, NPI).
 * @example { system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }
 */
export interface Identifier {
  /**
   * The namespace of the value: an absolute URI in FHIR form (`http…`, `urn:oid:` + an OID, `urn:uuid:` + a
   * lowercase UUID; not `oid:…`). @example 'urn:oid:2.16.840.1.113883.19.5'
   */
  system: string;
  /** The identifier value; not white space only. @example 'MRN-000123' */
  value: string;
  /**
   * The identifier type, from HL7 table 0203: `MR` medical record number, `SS` social security number,
   * `DL` driver's licence, `PI` patient internal, `AN` account number, `MB` member number, `NPI` national
   * provider identifier, `PRN` provider number, `TAX` tax id, `XX` organization identifier. @example 'MR'
   */
  type?: IdentifierType | undefined;
}

/** Identifier type codes (HL7 table 0203), usable both in FHIR (`v2-0203`) and in HL7 CX-5 / XCN-13. */
export const IDENTIFIER_TYPES = ['MR', 'SS', 'DL', 'PI', 'AN', 'MB', 'NPI', 'PRN', 'TAX', 'XX'] as const;
/** One of {@link IDENTIFIER_TYPES}. */
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

/** Name use (FHIR `NameUse`). */
export const NAME_USES = ['usual', 'official', 'temp', 'nickname', 'anonymous', 'old', 'maiden'] as const;
/** One of {@link NAME_USES}. */
export type NameUse = (typeof NAME_USES)[number];

/**
 * A person's name. At least one of `family`, `given` or `text` is set.
 * @example { use: 'official', family: "O'Brien", given: ['Mary', 'Anne'], prefix: ['Dr.'] }
 */
export interface HumanName {
  /** How the name is used: a code of {@link NAME_USES}. @example 'official' */
  use?: NameUse | undefined;
  /** Family name (surname). @example "O'Brien" */
  family?: string | undefined;
  /** Given names, first name first. @example ['Mary', 'Anne'] */
  given?: string[] | undefined;
  /** Prefixes such as titles. @example ['Dr.'] */
  prefix?: string[] | undefined;
  /** Suffixes such as `Jr.` or degrees. @example ['Jr.'] */
  suffix?: string[] | undefined;
  /** The full name as written, when the parts are unknown. @example "Mary Anne O'Brien" */
  text?: string | undefined;
}

/** Address use (FHIR `AddressUse`). */
export const ADDRESS_USES = ['home', 'work', 'temp', 'old', 'billing'] as const;
/** One of {@link ADDRESS_USES}. */
export type AddressUse = (typeof ADDRESS_USES)[number];

/** Address type (FHIR `AddressType`). */
export const ADDRESS_TYPES = ['postal', 'physical', 'both'] as const;
/** One of {@link ADDRESS_TYPES}. */
export type AddressType = (typeof ADDRESS_TYPES)[number];

/**
 * A postal address.
 * @example { use: 'home', lines: ['12 Elm St', 'Apt 4'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }
 */
export interface Address {
  /** How the address is used: a code of {@link ADDRESS_USES}. @example 'home' */
  use?: AddressUse | undefined;
  /** Postal, physical or both: a code of {@link ADDRESS_TYPES}. @example 'both' */
  type?: AddressType | undefined;
  /** Street lines, first line first. @example ['12 Elm St', 'Apt 4'] */
  lines?: string[] | undefined;
  /** City or town. @example 'Springfield' */
  city?: string | undefined;
  /** County or district. @example 'Sangamon' */
  district?: string | undefined;
  /** State or province (2-letter code in the US). @example 'IL' */
  state?: string | undefined;
  /** Postal code. @example '62701' */
  postalCode?: string | undefined;
  /** Country, ISO 3166 code preferred. @example 'US' */
  country?: string | undefined;
}

/** Contact point system (FHIR `ContactPointSystem`). */
export const TELECOM_SYSTEMS = ['phone', 'fax', 'email', 'pager', 'url', 'sms', 'other'] as const;
/** One of {@link TELECOM_SYSTEMS}. */
export type TelecomSystem = (typeof TELECOM_SYSTEMS)[number];

/** Contact point use (FHIR `ContactPointUse`). */
export const TELECOM_USES = ['home', 'work', 'temp', 'old', 'mobile'] as const;
/** One of {@link TELECOM_USES}. */
export type TelecomUse = (typeof TELECOM_USES)[number];

/**
 * A phone number, e-mail address or other contact point.
 * @example { system: 'phone', value: '+1 217 555 0142', use: 'mobile' }
 */
export interface Telecom {
  /** The kind of contact point: a code of {@link TELECOM_SYSTEMS}. @example 'phone' */
  system: TelecomSystem;
  /** The number or address as written; not white space only. @example '+1 217 555 0142' */
  value: string;
  /** How the contact point is used: a code of {@link TELECOM_USES}. @example 'mobile' */
  use?: TelecomUse | undefined;
}
