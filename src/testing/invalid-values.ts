/**
 * Invalid primitive values for validator tests: ISO strings outside the profile, codes, ranks and identifier
 * systems the chart check refuses.
 */
import fc from 'fast-check';

/** Strings outside the ISO profile of chart input (each for its own reason). */
export const INVALID_ISO_DATE_TIMES: readonly string[] = [
  '2023-02-29', // not a leap year
  '1900-02-29', // century, not a leap year
  '2024-04-31',
  '2024-13-01',
  '2024-00-10',
  '2024-1-01',
  '24-01-01',
  '20240101',
  '+2024-01-01',
  '0000',
  '',
  ' 2024',
  '2024-01-01T10:00Z', // no seconds
  '2024-01-01T10:00:00', // no offset
  '2024-01-01T24:00:00Z',
  '2024-01-01T10:60:00Z',
  '2024-01-01T10:00:61Z',
  '2024-01-01T10:00:00.12345Z', // 5 fraction digits
  '2024-01-01T10:00:00.Z',
  '2024-01-01T10:00:00+15:00',
  '2024-01-01T10:00:00-13:00',
  '2024-01-01T10:00:00+05:60',
  '2024-01-01T10:00:00+0530',
  '2024-01-01 10:00:00Z',
  '2024-01-01t10:00:00z',
  '2024-01-01T10:00:00ZZ',
];

/**
 * Codes that break the FHIR `code` shape `[^\s]+(\s[^\s]+)*` (so a single inner tab or LF is valid, two white
 * space characters in a row are not) or the 64-character limit (65 is the first length too long).
 */
export const INVALID_CODES: readonly string[] = ['', ' F32.1', 'F32.1 ', 'F32  1', 'F32 \t1', '\tF32.1', 'F32.1\n', 'x'.repeat(65), `${'9'.repeat(63)}😀`, 'x'.repeat(257)];

/** Values a `rank` / `order` may not have: below 1, beyond 2147483647 (FHIR positiveInt), not integers. */
export const INVALID_POSITIVE_INTS: readonly number[] = [0, -1, 2_147_483_648, 4_294_967_296, Number.MAX_SAFE_INTEGER, 1.5, Number.NaN, Number.POSITIVE_INFINITY];

/** Identifier systems that are not absolute URIs. */
export const INVALID_IDENTIFIER_SYSTEMS: readonly string[] = [
  '',
  'mrn',
  '1urn:x',
  'urn:',
  'urn: x',
  'http ://x',
  ':x',
  // OIDs and UUIDs in the FHIR forms only (the FHIR validator refuses the others).
  'oid:2.16.840.1.113883.19.5',
  'uuid:7b2a4f0c-3c1e-4d7a-9f15-2b8e6a1c0d42',
  'urn:oid:MRN',
  'urn:oid:2.16.840.1.113883.19.05',
  'urn:oid:2.16.',
  'urn:uuid:not-a-uuid',
  'urn:uuid:7B2A4F0C-3C1E-4D7A-9F15-2B8E6A1C0D42',
];

/** An invalid ISO date / date-time string. */
export const arbInvalidIsoDateTime: fc.Arbitrary<string> = fc.constantFrom(...INVALID_ISO_DATE_TIMES);
