import type { Address, Coding, HumanName, Identifier, Telecom } from './common.js';

/**
 * An organization of the public directory (clinic, hospital, practice).
 * @example { id: 'org-001', name: 'Riverside Behavioral Health', active: true, identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893', type: 'NPI' }] }
 */
export interface DirectoryOrganization {
  /** Chart id, unique among organizations. @example 'org-001' */
  id: string;
  /** Name. @example 'Riverside Behavioral Health' */
  name: string;
  /** Whether the record is in active use. Default true. @example true */
  active?: boolean | undefined;
  /**
   * Identifiers (NPI, tax id).
   * @example [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1540000019', type: 'NPI' }, { system: 'urn:oid:2.16.840.1.113883.4.4', value: '36-4000001', type: 'TAX' }]
   */
  identifiers?: Identifier[] | undefined;
  /**
   * Phones, e-mail addresses, web sites; `use` never `home`.
   * @example [{ system: 'phone', value: '+1 312 555 0100', use: 'work' }, { system: 'url', value: 'https://riverside-health.example.org', use: 'work' }]
   */
  telecoms?: Telecom[] | undefined;
  /**
   * Addresses; `use` never `home`.
   * @example [{ use: 'work', type: 'both', lines: ['1200 W Harrison St'], city: 'Chicago', state: 'IL', postalCode: '60607', country: 'US' }]
   */
  addresses?: Address[] | undefined;
  /** Id of the parent {@link DirectoryOrganization} in the directory, when this one is part of another. @example 'org-001' */
  partOfId?: string | undefined;
}

/**
 * A practitioner of the public directory.
 * @example { id: 'prac-001', names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'] }], identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' }] }
 */
export interface DirectoryPractitioner {
  /** Chart id, unique among practitioners. @example 'prac-001' */
  id: string;
  /** Names; at least one. @example [{ use: 'official', family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'], suffix: ['MD'] }] */
  names: HumanName[];
  /** Whether the record is in active use. Default true. @example true */
  active?: boolean | undefined;
  /**
   * Identifiers (NPI). In HL7, XCN-1 carries the first one that fits its 15 characters (else the chart id).
   * @example [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1200079196', type: 'NPI' }]
   */
  identifiers?: Identifier[] | undefined;
  /**
   * Work contact points.
   * @example [{ system: 'phone', value: '+1 312 555 0150', use: 'work' }, { system: 'email', value: 'adaeze.okafor@riverside-health.example.org', use: 'work' }]
   */
  telecoms?: Telecom[] | undefined;
  /**
   * Qualifications, as codes (e.g. SNOMED CT or a degree).
   * @example [{ code: { system: 'snomed-ct', code: '80546007', display: 'Psychiatrist' }, display: 'MD, Psychiatry' }]
   */
  qualifications?:
    | {
        /** The qualification as a code (any supported system). @example { system: 'snomed-ct', code: '80546007', display: 'Psychiatrist' } */
        code: Coding;
        /** The qualification as written, free text. @example 'MD, Psychiatry' */
        display?: string | undefined;
      }[]
    | undefined;
}

/** Location status (FHIR `LocationStatus`). */
export const LOCATION_STATUSES = ['active', 'suspended', 'inactive'] as const;
/** One of {@link LOCATION_STATUSES}. */
export type LocationStatus = (typeof LOCATION_STATUSES)[number];

/**
 * A location of the public directory (a clinic site, a ward, a room).
 * @example { id: 'loc-001', name: 'Riverside Clinic, Suite 200', status: 'active', organizationId: 'org-001' }
 */
export interface DirectoryLocation {
  /** Chart id, unique among locations. @example 'loc-001' */
  id: string;
  /** Name, free text; not empty. Becomes HL7 PL-9 (location description) in PV1-3. @example 'Riverside Clinic, Suite 200' */
  name: string;
  /** Status: a code of {@link LOCATION_STATUSES}. @example 'active' */
  status?: LocationStatus | undefined;
  /** Free-text description. @example 'Outpatient psychiatry & psychotherapy' */
  description?: string | undefined;
  /**
   * Address.
   * @example { use: 'work', lines: ['2150 N Lincoln Ave', 'Suite 200'], city: 'Chicago', state: 'IL', postalCode: '60614', country: 'US' }
   */
  address?: Address | undefined;
  /** Contact points. @example [{ system: 'phone', value: '+1 312 555 0110', use: 'work' }] */
  telecoms?: Telecom[] | undefined;
  /** Id of the managing {@link DirectoryOrganization} in the directory. @example 'org-002' */
  organizationId?: string | undefined;
}

/** The public directory: organizations, practitioners and locations that chart records refer to by id. */
export interface Directory {
  /** Organizations. Ids unique. @example [{ id: 'org-001', name: 'Riverside Health System', active: true }] */
  organizations?: DirectoryOrganization[] | undefined;
  /** Practitioners. Ids unique. @example [{ id: 'prac-001', names: [{ use: 'official', family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'], suffix: ['MD'] }] }] */
  practitioners?: DirectoryPractitioner[] | undefined;
  /** Locations. Ids unique. @example [{ id: 'loc-001', name: 'Riverside Behavioral Health, Suite 200', status: 'active', organizationId: 'org-002' }] */
  locations?: DirectoryLocation[] | undefined;
}

/** The resource types of the public directory. */
export const DIRECTORY_RESOURCE_TYPES = ['Organization', 'Practitioner', 'Location'] as const;
/** One of {@link DIRECTORY_RESOURCE_TYPES}. */
export type DirectoryResourceType = (typeof DIRECTORY_RESOURCE_TYPES)[number];
