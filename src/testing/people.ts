/**
 * Arbitraries for people and contact data: names, addresses, contact points, patients and coverages.
 */
import fc from 'fast-check';
import {
  ADDRESS_TYPES,
  ADDRESS_USES,
  COVERAGE_STATUSES,
  GENDERS,
  MARITAL_STATUSES,
  NAME_USES,
  SUBSCRIBER_RELATIONSHIPS,
  TELECOM_SYSTEMS,
  TELECOM_USES,
  type Address,
  type AddressUse,
  type Coverage,
  type HumanName,
  type Patient,
  type Payer,
  type Telecom,
  type TelecomUse,
  escapeHl7,
} from '../index.js';
import { arbIdentifier } from './codes.js';
import { arbIsoDate, arbIsoDateTime, type YearRange } from './dates.js';
import { arbPeriod } from './periods.js';
import type { TextMode } from './fragments.js';
import { arbIdFor } from './chart-ids.js';
import { textFor } from './text-values.js';
import { compact, memo, opt, optArray, rare } from './internal/util.js';

/** Family names with apostrophes, hyphens, accents, particles and non-Latin scripts. */
export const FAMILY_NAMES = [
  'Smith',
  "O'Brien",
  'García-López',
  'Nguyễn',
  'Müller',
  'Okafor',
  'van der Berg',
  'Øster',
  'Ñúñez',
  'Иванова',
  '李',
  'محمد',
  'כהן',
  'Kowalczyk',
  "D'Angelo",
  'St. John',
  'Mac Giolla Phádraig',
  'Tanaka',
  '김',
  'Smith-Jones',
] as const;

/** Given names. */
export const GIVEN_NAMES = ['Mary', 'Anne', 'José', 'Zoë', 'Chloé', 'Adaeze', 'Mateo', 'Aarav', 'Siobhán', 'Jean-Luc', 'Li', 'Yūki', 'Fatima', 'Oluwaseun', 'Björn', 'Renée', 'Noah', 'Ana María', 'Dmitri', 'Aisha'] as const;

const CITIES = [
  ['Springfield', 'IL', '62701'],
  ['Chicago', 'IL', '60614'],
  ['Peoria', 'IL', '61602'],
  ['Madison', 'WI', '53703'],
  ['St. Louis', 'MO', '63101'],
  ['Coeur d’Alene', 'ID', '83814'],
  ['San José', 'CA', '95112'],
] as const;

/**
 * A human name; at least one of family, given or text is non-empty, as the chart check requires.
 * @param mode - realistic, hostile, or mixed (default)
 */
export function arbHumanName(mode: TextMode = 'mixed'): fc.Arbitrary<HumanName> {
  return memo(`name|${mode}`, () => buildHumanName(mode));
}

function buildHumanName(mode: TextMode = 'mixed'): fc.Arbitrary<HumanName> {
  const family = mode === 'realistic' ? fc.constantFrom(...FAMILY_NAMES) : fc.oneof(fc.constantFrom(...FAMILY_NAMES), textFor(mode));
  const given = mode === 'realistic' ? fc.constantFrom(...GIVEN_NAMES) : fc.oneof(fc.constantFrom(...GIVEN_NAMES), textFor(mode));
  return fc
    .record({
      use: opt(fc.constantFrom(...NAME_USES)),
      family: opt(family, 6),
      given: optArray(given, 3),
      prefix: opt(fc.array(mode === 'realistic' ? fc.constantFrom('Dr.', 'Mr.', 'Ms.', 'Mx.') : fc.oneof(fc.constantFrom('Dr.', 'Ms.'), textFor(mode)), { maxLength: 2 }), 2),
      suffix: opt(fc.array(mode === 'realistic' ? fc.constantFrom('Jr.', 'III', 'MD', 'PhD') : fc.oneof(fc.constantFrom('Jr.', 'MD'), textFor(mode)), { maxLength: 2 }), 2),
      text: opt(textFor(mode), 2),
      fallback: fc.constantFrom(...FAMILY_NAMES),
    })
    .map(({ fallback, ...r }): HumanName => {
      const name: HumanName = compact(r);
      const nonEmpty = (s: string | undefined): boolean => s !== undefined && /\S/.test(s);
      if (!nonEmpty(name.family) && !nonEmpty(name.text) && !(name.given ?? []).some(nonEmpty)) name.family = fallback;
      return name;
    });
}

/** Address uses an organization may have: all but `home` (FHIR org-2; the chart check rejects it). */
export const ORGANIZATION_ADDRESS_USES: readonly AddressUse[] = ADDRESS_USES.filter((u) => u !== 'home');
/** Contact-point uses an organization may have: all but `home` (FHIR org-3; the chart check rejects it). */
export const ORGANIZATION_TELECOM_USES: readonly TelecomUse[] = TELECOM_USES.filter((u) => u !== 'home');

/**
 * A postal address (all parts optional).
 * @param mode - realistic, hostile, or mixed (default)
 * @param uses - the uses it may have (default all; {@link ORGANIZATION_ADDRESS_USES} for organizations)
 * @returns addresses the chart check accepts
 */
export function arbAddress(mode: TextMode = 'mixed', uses: readonly AddressUse[] = ADDRESS_USES): fc.Arbitrary<Address> {
  return memo(`address|${mode}|${uses.join(',')}`, () => buildAddress(mode, uses));
}

function buildAddress(mode: TextMode, uses: readonly AddressUse[]): fc.Arbitrary<Address> {
  const realLine = fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.constantFrom('Elm St', 'N Main St', 'Oak Ave, Apt 4B', 'Lake Shore Dr', 'Rue de l’Église', 'Calle 5 #12-34')).map(([n, s]) => `${n} ${s}`);
  const line = mode === 'realistic' ? realLine : fc.oneof(realLine, textFor(mode));
  return fc
    .record({
      use: opt(fc.constantFrom(...uses)),
      type: opt(fc.constantFrom(...ADDRESS_TYPES)),
      lines: optArray(line, 3),
      place: fc.constantFrom(...CITIES),
      hostile: mode === 'realistic' ? fc.constant(undefined) : opt(textFor(mode), 2),
      parts: fc.record({ city: fc.boolean(), district: fc.boolean(), state: fc.boolean(), postalCode: fc.boolean(), country: fc.boolean() }),
    })
    .map(({ use, type, lines, place, hostile, parts }): Address =>
      compact({
        use,
        type,
        lines,
        city: parts.city ? (hostile ?? place[0]) : undefined,
        district: parts.district ? 'Sangamon' : undefined,
        state: parts.state ? place[1] : undefined,
        postalCode: parts.postalCode ? place[2] : undefined,
        country: parts.country ? 'US' : undefined,
      }),
    );
}

/**
 * A contact point: phones (home, work, mobile), e-mail, fax, URL…
 * @param mode - realistic, hostile, or mixed (default)
 * @param uses - the uses it may have (default all; {@link ORGANIZATION_TELECOM_USES} for organizations)
 * @returns contact points the chart check accepts
 */
export function arbTelecom(mode: TextMode = 'mixed', uses: readonly TelecomUse[] = TELECOM_USES): fc.Arbitrary<Telecom> {
  return memo(`telecom|${mode}|${uses.join(',')}`, () => buildTelecom(mode, uses));
}

function buildTelecom(mode: TextMode, uses: readonly TelecomUse[]): fc.Arbitrary<Telecom> {
  const use = opt(fc.constantFrom(...uses));
  const emailUses = uses.filter((u) => u === 'home' || u === 'work');
  const realistic = fc.oneof(
    fc.record({ system: fc.constant('phone' as const), value: fc.integer({ min: 0, max: 9999 }).map((n) => `+1 217 555 ${String(n).padStart(4, '0')}`), use }),
    fc.record({ system: fc.constant('email' as const), value: fc.constantFrom('mary.obrien@example.com', "o'brien+chart@example.org", 'jose.garcia@example.net'), use: emailUses.length > 0 ? opt(fc.constantFrom(...emailUses)) : fc.constant(undefined) }),
    fc.record({ system: fc.constantFrom(...TELECOM_SYSTEMS), value: fc.constantFrom('(217) 555-0100 ext. 12', 'https://clinic.example.org', '555-0199'), use }),
  ).map((r): Telecom => compact(r));
  if (mode === 'realistic') return realistic;
  const hostile = fc
    .record({ system: fc.constantFrom(...TELECOM_SYSTEMS), value: textFor(mode, true).map(fitContact), use })
    .map((r): Telecom => compact(r));
  return mode === 'hostile' ? hostile : fc.oneof({ arbitrary: realistic, weight: 2 }, { arbitrary: hostile, weight: 1 });
}

/** HL7 XTN's length for a contact value once escaped (XTN-1 / XTN-4): the chart check refuses longer values. */
const CONTACT_ESCAPED_MAX = 199;

/**
 * `value` cut, at a code point, to what fits {@link CONTACT_ESCAPED_MAX} characters once escaped for HL7 (line
 * breaks and delimiters grow when escaped), still holding a character that is not white space.
 */
function fitContact(value: string): string {
  const fitted = escapedPrefix(value, CONTACT_ESCAPED_MAX);
  return /\S/.test(fitted) ? fitted : `\\${escapedPrefix(value, CONTACT_ESCAPED_MAX - 3)}`;
}

function escapedPrefix(value: string, max: number): string {
  let length = 0;
  let end = 0;
  for (const c of value) {
    length += escapeHl7(c).length;
    if (length > max) break;
    end += c.length;
  }
  return value.slice(0, end);
}

/** Realistic payers. */
export const PAYERS: readonly Payer[] = [
  { id: 'payer-bcbsil', name: 'Blue Cross and Blue Shield of Illinois', identifier: { system: 'urn:oid:2.16.840.1.113883.6.300', value: '00621' } },
  { id: 'payer-aetna', name: 'Aetna', identifier: { system: 'urn:oid:2.16.840.1.113883.6.300', value: '60054' } },
  { id: 'payer-medicare', name: 'Medicare Part B' },
  { id: 'payer-medicaid-il', name: 'Illinois Medicaid & HFS', identifier: { system: 'urn:oid:2.16.840.1.113883.6.300', value: 'IL-MCD' } },
  { id: 'payer-uhc', name: 'UnitedHealthcare | Choice Plus', identifier: { system: 'urn:oid:2.16.840.1.113883.6.300', value: '87726' } },
];

/** A payer: realistic (from {@link PAYERS}) or generated with hostile text. */
export function arbPayer(mode: TextMode = 'mixed'): fc.Arbitrary<Payer> {
  return memo(`payer|${mode}`, () => buildPayer(mode));
}

function buildPayer(mode: TextMode = 'mixed'): fc.Arbitrary<Payer> {
  const realistic = fc.constantFrom(...PAYERS);
  if (mode === 'realistic') return realistic;
  const generated = fc
    .record({ id: arbIdFor(mode), name: textFor(mode, true), identifier: opt(arbIdentifier(mode)) })
    .map((r): Payer => compact(r));
  return fc.oneof({ arbitrary: realistic, weight: 2 }, { arbitrary: generated, weight: 1 });
}

/** Options of {@link arbCoverage} and {@link arbPatient}. */
export interface PatientOptions {
  /** Text mode of free-text fields (default mixed). */
  text?: TextMode | undefined;
  /** Id mode (default: the text mode). */
  ids?: TextMode | undefined;
  /** Year range of dates (default: realistic for realistic text, else mixed). */
  years?: YearRange | undefined;
  /** Maximum number of coverages (default 3). */
  maxCoverages?: number | undefined;
}

/** A coverage; `order` is 1…2147483647 (FHIR positiveInt), renumbered by {@link arbPatient} when in a list. */
export function arbCoverage(opts: PatientOptions = {}): fc.Arbitrary<Coverage> {
  return memo(`coverage|${JSON.stringify(opts)}`, () => buildCoverage(opts));
}

function buildCoverage(opts: PatientOptions = {}): fc.Arbitrary<Coverage> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const planName = mode === 'realistic' ? fc.constantFrom('PPO Gold', 'HMO Select', 'Part B') : fc.oneof(fc.constantFrom('PPO Gold', 'HMO Select'), textFor(mode));
  return fc
    .record({
      id: arbIdFor(idMode),
      status: fc.constantFrom(...COVERAGE_STATUSES),
      payer: arbPayer(mode),
      memberId: opt(mode === 'realistic' ? fc.stringMatching(/^[A-Z]{3}[0-9]{9}$/) : fc.oneof(fc.stringMatching(/^[A-Z]{3}[0-9]{9}$/), textFor(mode))),
      plan: opt(fc.record({ id: arbIdFor(idMode), name: opt(planName) }).map((r) => compact(r))),
      group: opt(fc.record({ id: arbIdFor(idMode), name: opt(planName) }).map((r) => compact(r))),
      relationship: opt(fc.constantFrom(...SUBSCRIBER_RELATIONSHIPS)),
      period: opt(arbPeriod({ dateOnly: true, years: opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed') })),
      order: opt(fc.oneof({ arbitrary: fc.integer({ min: 1, max: 3 }), weight: 10 }, { arbitrary: fc.constantFrom(2147483646, 2147483647), weight: 1 })),
    })
    .map((r): Coverage => compact(r));
}

/**
 * A patient: 1–3 identifiers, 1–3 names with at least one usable part,
 * optional birth date, gender, death, addresses, contact points, marital status, language and coverages
 * with unique ids. Payers that share an id within one patient are the same payer object.
 * @param opts - text/id mode, year range, maximum coverages
 */
export function arbPatient(opts: PatientOptions = {}): fc.Arbitrary<Patient> {
  return memo(`patient|${JSON.stringify(opts)}`, () => buildPatient(opts));
}

function buildPatient(opts: PatientOptions = {}): fc.Arbitrary<Patient> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  return fc
    .record({
      id: arbIdFor(idMode),
      identifiers: fc.array(arbIdentifier(mode), { minLength: 1, maxLength: 3 }),
      names: fc.array(arbHumanName(mode), { minLength: 1, maxLength: 3 }),
      birthDate: opt(arbIsoDate({ years }), 6),
      gender: opt(fc.constantFrom(...GENDERS), 6),
      deceased: rare(fc.oneof(fc.boolean(), arbIsoDateTime({ years }))),
      addresses: optArray(arbAddress(mode), 3),
      telecoms: optArray(arbTelecom(mode), 4),
      maritalStatus: opt(fc.constantFrom(...MARITAL_STATUSES)),
      language: opt(fc.constantFrom('en-US', 'en', 'es', 'es-MX', 'vi', 'zh-Hans-CN', 'ar', 'he', 'fr-CA', 'yue', 'de-CH-1901', 'tl', 'ru')),
      coverages: opt(fc.uniqueArray(arbCoverage(opts), { maxLength: opts.maxCoverages ?? 3, selector: (c) => c.id })),
    })
    .map((r): Patient => {
      const patient: Patient = compact(r);
      if (patient.coverages !== undefined) {
        // One payer object per payer id within a patient, as a real chart has.
        const payers = new Map<string, Payer>();
        patient.coverages = patient.coverages.map((c, i) => {
          const payer = payers.get(c.payer.id) ?? c.payer;
          payers.set(payer.id, payer);
          const cov: Coverage = { ...c, payer };
          // Lists are primary first: when set, order follows the position (large orders are kept as they come).
          if (cov.order !== undefined && cov.order <= 3) cov.order = i + 1;
          return cov;
        });
      }
      return patient;
    });
}
