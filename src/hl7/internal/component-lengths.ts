/**
 * The v2.5.1 maximum lengths (chapter 2A data type tables) of the fields and components the builders fill,
 * measured after escaping. Free text is shortened to them; codes and identifiers never are.
 */
import { HL7_COMPOSITE_MAX, HL7_CONTACT_MAX, HL7_UNIVERSAL_ID_MAX } from '../../model/limits.js';

/** v2.5.1 component lengths that chart ids and names can exceed: CX-1 and XCN-1 ID number (ST 15). */
export const ID_NUMBER_MAX = 15;
/** HD-1 namespace id (IS 20). */
export const HD1_MAX = 20;

/** Maximum length of one repetition of a CE, CX, XPN, XAD, XTN or XCN field in the segments we emit. */
export const COMPOSITE_MAX = HL7_COMPOSITE_MAX;

/**
 * The v2.5.1 maximum lengths (chapter 2A data type tables) of the components the builders fill, after
 * escaping. Free text is shortened to them; codes and identifiers never are (see each builder).
 */
export const COMPONENT_MAX = {
  /** CE-1 / CE-4 identifier (ST 20). */
  ceIdentifier: 20,
  /** CE-2 / CE-5 text (ST 199). */
  ceText: 199,
  /** FN-1 surname (ST 50): XPN-1, XCN-2. */
  surname: 50,
  /** XPN-2 / XCN-3 given name, XPN-3 / XCN-4 further given names (ST 30). */
  givenName: 30,
  /** XPN-4 / XCN-5 suffix, XPN-5 / XCN-6 prefix (ST 20). */
  suffixOrPrefix: 20,
  /** SAD-1 street or mailing address (XAD-1) and XAD-2 other designation (ST 120). */
  street: 120,
  /** XAD-3 city, XAD-4 state or province, XAD-8 other geographic designation (ST 50). */
  place: 50,
  /** XAD-5 zip or postal code (ST 12). */
  postalCode: 12,
  /** XAD-6 country (ID 3, ISO 3166). */
  country: 3,
  /** XAD-9 county/parish code (IS 20). */
  county: 20,
  /** XTN-1 telephone number, XTN-4 communication address (ST 199). */
  telecom: HL7_CONTACT_MAX,
  /** XON-1 organization name (ST 50). */
  organizationName: 50,
  /** HD-2 universal id (ST 199). */
  universalId: HL7_UNIVERSAL_ID_MAX,
} as const;
