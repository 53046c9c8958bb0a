/**
 * The limits of chart values: one table, read by the chart check (which refuses a value beyond its limit, with
 * the value's path) and by the builders (which rely on it), so that the two cannot drift apart.
 */

/** The longest chart id, in UTF-16 code units. */
export const ID_MAX = 128;

/**
 * The longest code of a coding, in UTF-16 code units: HL7 CE carries a code in a 250-character field
 * after escaping (HL7 v2.5.1 2.A.8), which 64 characters fit whatever they hold.
 */
export const CODE_MAX = 64;

/** The longest language tag (BCP 47), as for codes: it fits HL7 CE (PID-15) whole. */
export const LANGUAGE_MAX = 64;

/**
 * The longest FHIR `string`: "SHALL NOT exceed 1MB (1024*1024 characters)" (FHIR R4 2.24.0.1, string), which
 * the FHIR validator enforces. Note text travels as base64 and XHTML instead and has its own limit.
 */
export const FHIR_STRING_MAX = 1_048_576;

/** The smallest FHIR `integer` (a 32-bit signed integer, FHIR R4 2.24.0.1). */
export const INT32_MIN = -2_147_483_648;

/** The largest FHIR `integer` and `positiveInt` (a 32-bit signed integer, FHIR R4 2.24.0.1). */
export const INT32_MAX = 2_147_483_647;
