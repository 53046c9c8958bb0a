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
  /** Whether the record is in active use. Default true. */
  active?: boolean | undefined;
  /** Identifiers (NPI, tax id). */
  identifiers?: Identifier[] | undefined;
  /** Phones, e-mail addresses, web sites. */
  telecoms?: Telecom[] | undefined;
  /** Addresses. */
  addresses?: Address[] | undefined;
  /** Id of the parent organization, when this one is part of another. */
  partOfId?: string | undefined;
}

/**
 * A practitioner of the public directory.
 * @example { id: 'prac-001', names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'] }], identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' }] }
 */
export interface DirectoryPractitioner {
  /** Chart id, unique among practitioners. @example 'prac-001' */
  id: string;
  /** Names; at least one. */
  names: HumanName[];
  /** Whether the record is in active use. Default true. */
  active?: boolean | undefined;
  /** Identifiers (NPI). The first becomes XCN-1 in HL7. */
  identifiers?: Identifier[] | undefined;
  /** Work contact points. */
  telecoms?: Telecom[] | undefined;
  /** Qualifications, as codes (e.g. SNOMED CT or a degree). */
  qualifications?: { code: Coding; display?: string | undefined }[] | undefined;
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
  /** Name. Becomes HL7 PL-1 (point of care) in PV1-3. @example 'Riverside Clinic, Suite 200' */
  name: string;
  /** Status. */
  status?: LocationStatus | undefined;
  /** Free-text description. */
  description?: string | undefined;
  /** Address. */
  address?: Address | undefined;
  /** Contact points. */
  telecoms?: Telecom[] | undefined;
  /** Id of the managing {@link DirectoryOrganization}. */
  organizationId?: string | undefined;
}

/** The public directory: organizations, practitioners and locations that chart records refer to by id. */
export interface Directory {
  /** Organizations. */
  organizations?: DirectoryOrganization[] | undefined;
  /** Practitioners. */
  practitioners?: DirectoryPractitioner[] | undefined;
  /** Locations. */
  locations?: DirectoryLocation[] | undefined;
}

/** The resource types of the public directory. */
export const DIRECTORY_RESOURCE_TYPES = ['Organization', 'Practitioner', 'Location'] as const;
/** One of {@link DIRECTORY_RESOURCE_TYPES}. */
export type DirectoryResourceType = (typeof DIRECTORY_RESOURCE_TYPES)[number];
