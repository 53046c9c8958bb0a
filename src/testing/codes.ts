/**
 * Code tables (real codes with their displays) and arbitraries for codings and identifiers.
 */
import fc from 'fast-check';
import { CODE_SYSTEMS, IDENTIFIER_TYPES, type CodeSystem, type Coding, type Identifier } from '../index.js';
import type { TextMode } from './fragments.js';
import { textFor } from './text-values.js';
import { compact, memo, opt } from './internal/util.js';

/** Real codes with their displays, by code system. */
export const CODE_TABLES: Readonly<Record<CodeSystem, readonly (readonly [string, string])[]>> = {
  'icd-10-cm': [
    ['F32.1', 'Major depressive disorder, single episode, moderate'],
    ['F32.9', 'Major depressive disorder, single episode, unspecified'],
    ['F33.1', 'Major depressive disorder, recurrent, moderate'],
    ['F41.1', 'Generalized anxiety disorder'],
    ['F41.9', 'Anxiety disorder, unspecified'],
    ['F43.10', 'Post-traumatic stress disorder, unspecified'],
    ['F90.0', 'Attention-deficit hyperactivity disorder, predominantly inattentive type'],
    ['F31.81', 'Bipolar II disorder'],
    ['F10.20', 'Alcohol dependence, uncomplicated'],
    ['F17.210', 'Nicotine dependence, cigarettes, uncomplicated'],
    ['G47.00', 'Insomnia, unspecified'],
    ['E11.9', 'Type 2 diabetes mellitus without complications'],
    ['E78.5', 'Hyperlipidemia, unspecified'],
    ['E03.9', 'Hypothyroidism, unspecified'],
    ['E66.9', 'Obesity, unspecified'],
    ['I10', 'Essential (primary) hypertension'],
    ['J45.909', 'Unspecified asthma, uncomplicated'],
    ['J06.9', 'Acute upper respiratory infection, unspecified'],
    ['K21.9', 'Gastro-esophageal reflux disease without esophagitis'],
    ['M54.50', 'Low back pain, unspecified'],
    ['R51.9', 'Headache, unspecified'],
    ['N39.0', 'Urinary tract infection, site not specified'],
    ['S93.401A', 'Sprain of unspecified ligament of right ankle, initial encounter'],
    ['Z00.00', 'Encounter for general adult medical examination without abnormal findings'],
  ],
  'snomed-ct': [
    ['35489007', 'Depressive disorder'],
    ['197480006', 'Anxiety disorder'],
    ['38341003', 'Hypertensive disorder, systemic arterial'],
    ['44054006', 'Diabetes mellitus type 2'],
    ['195967001', 'Asthma'],
    ['13645005', 'Chronic obstructive lung disease'],
    ['84114007', 'Heart failure'],
    ['25064002', 'Headache'],
    ['161891005', 'Backache'],
    ['396275006', 'Osteoarthritis'],
    ['228557008', 'Cognitive and behavioral therapy'],
    ['76168009', 'Group psychotherapy'],
    ['29303009', 'Electrocardiographic procedure'],
    ['171207006', 'Depression screening'],
    ['710081004', 'Smoking cessation therapy'],
    ['185349003', 'Encounter for check up'],
    ['390906007', 'Follow-up encounter'],
    ['4525004', 'Emergency department patient visit'],
    ['183452005', 'Emergency hospital admission'],
    ['448337001', 'Telemedicine consultation with patient'],
  ],
  cpt: [
    ['90791', 'Psychiatric diagnostic evaluation'],
    ['90832', 'Psychotherapy, 30 minutes with patient'],
    ['90834', 'Psychotherapy, 45 minutes with patient'],
    ['90837', 'Psychotherapy, 60 minutes with patient'],
    ['90853', 'Group psychotherapy'],
    ['96127', 'Brief emotional/behavioral assessment, with scoring and documentation, per standardized instrument'],
    ['99203', 'Office or other outpatient visit, new patient, low medical decision making'],
    ['99213', 'Office or other outpatient visit, established patient, low medical decision making'],
    ['99214', 'Office or other outpatient visit, established patient, moderate medical decision making'],
    ['99284', 'Emergency department visit, moderate medical decision making'],
    ['99223', 'Initial hospital inpatient or observation care, high medical decision making'],
    ['99238', 'Hospital inpatient or observation discharge day management, 30 minutes or less'],
    ['99349', 'Home or residence visit, established patient, moderate medical decision making'],
    ['93000', 'Electrocardiogram, routine, with at least 12 leads, with interpretation and report'],
    ['36415', 'Collection of venous blood by venipuncture'],
    ['83036', 'Hemoglobin; glycosylated (A1C)'],
  ],
  'icd-10-pcs': [
    ['GZ58ZZZ', 'Individual Psychotherapy, Cognitive-Behavioral'],
    ['GZHZZZZ', 'Group Psychotherapy'],
    ['GZ3ZZZZ', 'Medication Management'],
    ['0DTJ4ZZ', 'Resection of Appendix, Percutaneous Endoscopic Approach'],
  ],
  loinc: [
    ['44249-1', 'PHQ-9 quick depression assessment panel'],
    ['69737-5', 'Generalized anxiety disorder 7 item (GAD-7)'],
    ['44261-6', 'Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]'],
    ['70274-6', 'Generalized anxiety disorder 7 item (GAD-7) total score [Reported.PHQ]'],
    ['11506-3', 'Progress note'],
    ['18842-5', 'Discharge summary'],
    ['8480-6', 'Systolic blood pressure'],
    ['8462-4', 'Diastolic blood pressure'],
    ['8867-4', 'Heart rate'],
    ['29463-7', 'Body weight'],
    ['72166-2', 'Tobacco smoking status'],
  ],
};

const ALL_SYSTEMS = Object.keys(CODE_SYSTEMS) as CodeSystem[];

/** Characters for hostile codes: never white space (`\s`) and never a control character. */
const CODE_CHARS = ['A', 'z', '0', '9', '.', '-', '_', '|', '^', '~', '\\', '&', '<', '>', '"', "'", '#', '%', '/', ':', '😀', 'é', 'e\u0301', '李', 'ש', '\u200F'];

/** The longest Coding.code the chart check accepts (it must fit HL7 CE after escaping). */
export const CODE_MAX_LENGTH = 64;

/**
 * Codes of exactly {@link CODE_MAX_LENGTH} UTF-16 code units: plain, made of HL7 delimiters and backslashes
 * (each escapes to three characters, the worst case for HL7 CE), and ending in an astral character.
 */
const LONGEST_CODES: readonly string[] = ['x'.repeat(CODE_MAX_LENGTH), '|^~\\&'.repeat(13).slice(0, CODE_MAX_LENGTH), '\\'.repeat(CODE_MAX_LENGTH), `${'9'.repeat(CODE_MAX_LENGTH - 2)}😀`];

/** Shorten a code to `max` UTF-16 units on a code-point boundary, keeping the FHIR code shape. */
function shortenCode(code: string, max: number): string {
  if (code.length <= max) return code;
  let out = '';
  for (const cp of code) {
    if (out.length + cp.length > max) break;
    out += cp;
  }
  return out.trimEnd() || 'X';
}

/**
 * A hostile code in the FHIR `code` shape: tokens without white space joined by single spaces, at most
 * {@link CODE_MAX_LENGTH} UTF-16 code units, sometimes exactly that many.
 */
export const arbHostileCode: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc
      .array(fc.string({ unit: fc.constantFrom(...CODE_CHARS), minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 })
      .map((tokens) => shortenCode(tokens.join(' '), CODE_MAX_LENGTH)),
    weight: 8,
  },
  { arbitrary: fc.constantFrom('|', '^', '\\F\\', '\\X0D\\', 'a b', 'F32.1'), weight: 1 },
  { arbitrary: fc.constantFrom(...LONGEST_CODES), weight: 1 },
);

/** A real code of one system with its display, or a hostile code of at most `maxCodeLength` units. */
function arbCodeOf(system: CodeSystem, mode: TextMode, maxCodeLength: number): fc.Arbitrary<Coding> {
  const table = CODE_TABLES[system];
  const real = fc.constantFrom(...table).map(([code, display]): Coding => ({ system, code, display }));
  const realNoDisplay = fc.constantFrom(...table).map(([code]): Coding => ({ system, code }));
  if (mode === 'realistic') return fc.oneof({ arbitrary: real, weight: 5 }, { arbitrary: realNoDisplay, weight: 1 });
  const hostile = fc
    .record({ code: maxCodeLength >= CODE_MAX_LENGTH ? arbHostileCode : arbHostileCode.map((c) => shortenCode(c, maxCodeLength)), display: opt(textFor(mode)) })
    .map((r): Coding => compact({ system, code: r.code, display: r.display }));
  if (mode === 'hostile') return fc.oneof({ arbitrary: hostile, weight: 3 }, { arbitrary: real, weight: 1 });
  return fc.oneof({ arbitrary: real, weight: 4 }, { arbitrary: realNoDisplay, weight: 1 }, { arbitrary: hostile, weight: 2 });
}

/**
 * A coding from the given systems (default all five): a real code with its display most of the time, or a
 * hostile code (delimiters, emoji, single inner spaces, up to 64 characters) with hostile or missing display.
 * @param systems - allowed code-system keys
 * @param mode - realistic, hostile, or mixed (default)
 * @param maxCodeLength - longest hostile code, 1–64 (default 64, the chart check's limit)
 * @returns codings the chart check accepts
 * @throws {RangeError} when `maxCodeLength` is outside 1–64 (longer codes are invalid input)
 */
export function arbCoding(systems: readonly CodeSystem[] = ALL_SYSTEMS, mode: TextMode = 'mixed', maxCodeLength = CODE_MAX_LENGTH): fc.Arbitrary<Coding> {
  if (!Number.isInteger(maxCodeLength) || maxCodeLength < 1 || maxCodeLength > CODE_MAX_LENGTH) {
    throw new RangeError(`maxCodeLength must be an integer from 1 to ${CODE_MAX_LENGTH}`);
  }
  return memo(`coding|${systems.join(',')}|${mode}|${maxCodeLength}`, () => buildCoding(systems, mode, maxCodeLength));
}

function buildCoding(systems: readonly CodeSystem[], mode: TextMode, maxCodeLength: number): fc.Arbitrary<Coding> {
  return fc.constantFrom(...systems).chain((system) => arbCodeOf(system, mode, maxCodeLength));
}

/** Realistic identifier systems. */
export const IDENTIFIER_SYSTEMS = [
  'urn:oid:2.16.840.1.113883.19.5',
  'http://hospital.example.org/mrn',
  'http://hl7.org/fhir/sid/us-ssn',
  'http://hl7.org/fhir/sid/us-npi',
  'urn:oid:2.16.840.1.113883.4.3.17',
  'https://payer.example.com/member',
  'urn:uuid:7b2a4f0c-3c1e-4d7a-9f15-2b8e6a1c0d42',
] as const;

/** A hostile but valid identifier system: `scheme:` then no white space, delimiters allowed. */
const arbHostileSystem: fc.Arbitrary<string> = fc
  .tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9+.-]{0,8}$/), fc.string({ unit: fc.constantFrom(...CODE_CHARS), minLength: 1, maxLength: 20 }))
  .map(([scheme, rest]) => `${scheme}:${rest}`)
  // `oid:` and `uuid:` are no schemes, and `urn:oid:` / `urn:uuid:` must hold a real OID / UUID: not hostile, invalid.
  .filter((system) => !/^(?:urn:)?(?:oid|uuid):/i.test(system));

/**
 * An identifier: realistic (MRN, SSN-shaped, member id, NPI) or hostile (delimiters in system and value).
 * @param mode - realistic, hostile, or mixed (default)
 */
export function arbIdentifier(mode: TextMode = 'mixed'): fc.Arbitrary<Identifier> {
  return memo(`identifier|${mode}`, () => buildIdentifier(mode));
}

function buildIdentifier(mode: TextMode = 'mixed'): fc.Arbitrary<Identifier> {
  const realistic = fc
    .record({
      system: fc.constantFrom(...IDENTIFIER_SYSTEMS),
      value: fc.oneof(
        fc.integer({ min: 1, max: 999999 }).map((n) => `MRN-${String(n).padStart(6, '0')}`),
        fc.stringMatching(/^[A-Z]{2,3}[0-9]{6,9}$/),
        fc.integer({ min: 1000000000, max: 1999999999 }).map(String),
      ),
      type: opt(fc.constantFrom(...IDENTIFIER_TYPES)),
    })
    .map((r): Identifier => compact(r));
  if (mode === 'realistic') return realistic;
  const hostile = fc
    .record({
      system: fc.oneof(fc.constantFrom(...IDENTIFIER_SYSTEMS), arbHostileSystem),
      value: textFor('hostile', true),
      type: opt(fc.constantFrom(...IDENTIFIER_TYPES)),
    })
    .map((r): Identifier => compact(r));
  return mode === 'hostile' ? hostile : fc.oneof({ arbitrary: realistic, weight: 2 }, { arbitrary: hostile, weight: 1 });
}

/**
 * A 10-digit NPI-shaped number with a valid Luhn check digit (prefix 80840), as real NPIs have.
 * @param base9 - the first nine digits
 * @returns the ten-digit NPI
 */
export function npiFromBase(base9: number): string {
  const digits = String(base9).padStart(9, '0').slice(0, 9);
  const full = `80840${digits}`;
  let sum = 0;
  for (let i = 0; i < full.length; i++) {
    let d = Number(full[full.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/** An NPI identifier (system `http://hl7.org/fhir/sid/us-npi`, type `NPI`). */
export const arbNpiIdentifier: fc.Arbitrary<Identifier> = fc
  .integer({ min: 100000000, max: 299999999 })
  .map((n) => ({ system: 'http://hl7.org/fhir/sid/us-npi', value: npiFromBase(n), type: 'NPI' as const }));
