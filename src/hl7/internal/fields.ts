/**
 * Builders of HL7 v2.5.1 composite data types (CE, CX, HD, XPN, XAD, XTN, XCN) from chart values. Every
 * text value is escaped with the standard delimiters; every result fits its field's maximum length and free
 * text its component's (shortened). Identifiers and codes are never cut: a chart id that does not fit is
 * derived, a business identifier or code longer than its component is sent whole (a documented deviation),
 * and one that cannot fit the field at all is a MappingError naming the field.
 */
import { HL7_COMPOSITE_MAX, HL7_CONTACT_MAX, HL7_UNIVERSAL_ID_MAX } from '../../model/limits.js';
import { MappingError, type IssuePath } from '../../errors.js';
import { CODE_SYSTEMS, type Address, type Coding, type HumanName, type Identifier, type Telecom } from '../../model/common.js';
import type { Directory, DirectoryPractitioner } from '../../model/directory.js';
import { hasText } from '../../internal/text.js';
import { esc, noteDropped } from './escape.js';
import { HL7_NAME_TYPE, hl7AddressType, hl7TelecomCodes } from '../tables.js';
import { fitCompositeOrThrow, fitId, joinTrimmed, truncateEscaped } from './fit.js';

/** The largest set id an SI field can hold: SI has at most 4 digits. */
export const SI_MAX = 9999;

/**
 * A set id (SI, at most 4 digits) as field text. The builders number segments from 1, so only an input with
 * more than 9 999 records of one kind in one place (answers of one assessment, diagnoses of one encounter,
 * lines… ) can reach it; that is a MappingError naming the record, never a wrapped or cut number.
 * @param setId - the set id, 1 or more
 * @param path - where the record that needs it is in the input
 * @param target - the field, e.g. `OBX-1`
 * @returns the set id as text
 * @throws MappingError when `setId` exceeds 9 999
 * @see HL7 v2.5.1 SI data type (2A.2.67): "a non-negative integer … 4 characters"
 * @example setIdField(12, [], 'DG1-1') // '12'
 */
export function setIdField(setId: number, path: IssuePath, target: string): string {
  if (setId > SI_MAX) {
    throw new MappingError(path, target, `${target} is an SI set id of at most 4 digits (${SI_MAX}); this segment would be number ${setId}`);
  }
  return String(setId);
}

/** v2.5.1 component lengths that chart ids and names can exceed: CX-1 and XCN-1 ID number (ST 15). */
export const ID_NUMBER_MAX = 15;
/** EI-1 entity identifier (ST 199). */
export const EI1_MAX = 199;
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

/**
 * Escape free text and shorten it to a component's maximum length (never splitting an escape sequence or a
 * surrogate pair); blank text (white space only) gives an empty component.
 * @param value - chart text
 * @param max - the component's maximum length after escaping
 * @returns the escaped, possibly shortened text
 * @example textComponent('Okafor & Sons', 50) // 'Okafor \\T\\ Sons'
 */
export function textComponent(value: string, max: number): string {
  // Blank text carries nothing and FHIR leaves it out: an empty component, not spaces.
  return hasText(value) ? truncateEscaped(esc(value), max) : '';
}

/**
 * A code for CE-1 (ST 20), escaped and never cut or replaced. Known deviation: a chart code longer than 20
 * characters after escaping is sent whole (the chart check keeps codes to 64 characters, so the CE still fits
 * its 250), as business identifiers are; `checkHl7Message` reports it as `max-length`. Real LOINC, SNOMED CT,
 * ICD-10 and CPT codes are all shorter.
 * @param code - the chart code
 * @returns the escaped code
 * @example codeComponent('F32.1') // 'F32.1'
 */
export function codeComponent(code: string): string {
  return esc(code);
}

/**
 * HD (hierarchic designator) for an identifier system, as the subcomponents of a component:
 * `urn:oid:X` → `&X&ISO`, `urn:uuid:X` → `&X&UUID`, any other URI → `&URI&URI` (HD-2 universal id, HD-3 type,
 * table 0301). The mapping is exact both ways.
 * @param system - the identifier system (an absolute URI)
 * @returns the encoded HD, HD-1 empty; undefined when the universal id is longer than HD-2's 199
 *   characters after escaping (callers refuse the identifier or leave the assigning authority out)
 * @see HL7 v2.5.1 HD data type; CX-4 assigning authority
 * @example hdForSystem('urn:oid:2.16.840.1.113883.19.5') // '&2.16.840.1.113883.19.5&ISO'
 */
export function hdForSystem(system: string): string | undefined {
  const [universalId, type] = system.startsWith('urn:oid:')
    ? [esc(system.slice(8)), 'ISO']
    : system.startsWith('urn:uuid:')
      ? [esc(system.slice(9)), 'UUID']
      : [esc(system), 'URI'];
  if (universalId.length <= COMPONENT_MAX.universalId) return `&${universalId}&${type}`;
  noteDropped(); // escaped text that is not sent: MSH-18 must not count it
  return undefined;
}

/**
 * CE from a coding: `code^display^system` with the HL7 coding-system name of table 0396 (`I10`, `SCT`, `LN`…).
 * A display longer than CE-2's 199 characters is shortened; the code is never cut (see {@link codeComponent}).
 * @param coding - the coding
 * @param path - where the coding is in the input, for MappingError
 * @param target - the field, e.g. `DG1-3`
 * @param text - CE-2 text to send instead of the coding's display
 * @returns the encoded CE, at most 250 characters
 * @throws MappingError never in practice (a checked code fits the CE); typed for uniformity
 * @example ceFromCoding({ system: 'icd-10-cm', code: 'F32.1' }, [], 'DG1-3') // 'F32.1^^I10'
 */
export function ceFromCoding(coding: Coding, path: IssuePath, target: string, text?: string): string {
  const display = text ?? coding.display ?? '';
  const code = codeComponent(coding.code);
  return fitCompositeOrThrow([code, textComponent(display, COMPONENT_MAX.ceText), CODE_SYSTEMS[coding.system].hl7], [1], COMPOSITE_MAX, path, target);
}

/**
 * CX from an identifier: `value^^^assigning authority^type` (CX-1, CX-4 HD, CX-5 table 0203).
 * @param identifier - the identifier
 * @param path - where it is in the input, for MappingError
 * @param target - the field, e.g. `PID-3`
 * @returns the encoded CX, at most 250 characters
 * @throws MappingError when it does not fit 250 characters, or its system HD-2's 199, after escaping (identifiers
 *   are never shortened). CX-1's own 15 characters are a known deviation: a longer business identifier is sent
 *   whole (README, "Conformance notes").
 * @see HL7 v2.5.1 CX data type
 * @example cxFromIdentifier({ system: 'urn:oid:1.2', value: '42', type: 'MR' }, [], 'PID-3') // '42^^^&1.2&ISO^MR'
 */
export function cxFromIdentifier(identifier: Identifier, path: IssuePath, target: string): string {
  const authority = hdForSystem(identifier.system);
  if (authority === undefined) {
    throw new MappingError([...path, 'system'], target, `the identifier system is longer than the ${COMPONENT_MAX.universalId} characters ${target} CX-4 (HD-2) allows after escaping`);
  }
  return fitCompositeOrThrow([esc(identifier.value), '', '', authority, identifier.type ?? ''], [], COMPOSITE_MAX, path, target);
}


/** The index of the first value with text, or the length when there is none. */
function firstNonEmpty(values: readonly string[] | undefined): number {
  if (values === undefined) return 0;
  let i = 0;
  while (i < values.length && !hasText(values[i])) i++;
  return i;
}

/** The values with text from index `from` on, joined by `sep` ('' when there are none). */
function joinNonEmpty(values: readonly string[] | undefined, from: number, sep: string): string {
  if (values === undefined) return '';
  let out = '';
  for (let i = from; i < values.length; i++) {
    const v = values[i] as string;
    if (hasText(v)) out = out === '' ? v : out + sep + v;
  }
  return out;
}

/**
 * The name parts of an XPN or XCN: family (FN-1), first given name, further given names joined by a space,
 * suffixes and prefixes joined by a space, and the name type (table 0200). A name with only `text` sends
 * that text as the family name (XPN has no free-text component, lossy). Empty given names, suffixes and
 * prefixes are skipped. Each part is shortened to its v2.5.1 component length (surname 50, given names 30,
 * suffix and prefix 20).
 */
export function nameParts(name: HumanName): { family: string; given: string; middle: string; suffix: string; prefix: string; type: string } {
  const first = firstNonEmpty(name.given);
  const given = name.given?.[first] ?? '';
  const surname = hasText(name.family) ? name.family : '';
  const family = surname !== '' || given !== '' ? surname : hasText(name.text) ? name.text : '';
  return {
    family: textComponent(family, COMPONENT_MAX.surname),
    given: textComponent(given, COMPONENT_MAX.givenName),
    middle: textComponent(joinNonEmpty(name.given, first + 1, ' '), COMPONENT_MAX.givenName),
    suffix: textComponent(joinNonEmpty(name.suffix, 0, ' '), COMPONENT_MAX.suffixOrPrefix),
    prefix: textComponent(joinNonEmpty(name.prefix, 0, ' '), COMPONENT_MAX.suffixOrPrefix),
    type: name.use === undefined ? '' : HL7_NAME_TYPE[name.use],
  };
}

/**
 * XPN from a name: `family^given^further given^suffix^prefix^^type`. Each part is shortened to its component's
 * length (FN-1 surname 50, given names 30, suffix and prefix 20), and to 250 for the whole (see `fitComposite`).
 * @param name - the name
 * @param path - where it is in the input, for MappingError
 * @param target - the field, e.g. `PID-5`
 * @returns the encoded XPN
 * @throws MappingError never in practice (every part is free text); typed for uniformity
 * @see HL7 v2.5.1 XPN data type; PID-5
 * @example xpnFromName({ use: 'official', family: 'Okafor', given: ['Adaeze'] }, [], 'PID-5') // 'Okafor^Adaeze^^^^^L'
 */
export function xpnFromName(name: HumanName, path: IssuePath, target: string): string {
  const p = nameParts(name);
  return fitCompositeOrThrow([p.family, p.given, p.middle, p.suffix, p.prefix, '', p.type], [0, 1, 2, 3, 4], COMPOSITE_MAX, path, target);
}

/** The index of XAD-7, the address type (a code, not text), in the parts of an XAD. */
const XAD_TYPE = 6;

/**
 * XAD from an address: `street^other lines^city^state^postal code^country^type^other^district` (XAD-1 SAD-1 the
 * first line, XAD-2 the further lines joined by `, `, XAD-9 county). Text parts are shortened to their v2.5.1
 * component lengths (street and other lines 120, city and state 50, county 20). A postal code longer than
 * XAD-5's 12 characters or a country longer than XAD-6's 3 (a name rather than an ISO 3166 code) is sent in
 * XAD-8, other geographic designation, instead: free text of 50 characters, shortened there like other text.
 * @param address - the address
 * @param path - where it is in the input, for MappingError
 * @param target - the field, e.g. `PID-11`
 * @returns the encoded XAD ('' for an empty address)
 * @throws MappingError never in practice (every part is free text); typed for uniformity
 * @see HL7 v2.5.1 XAD data type; PID-11
 * @example xadFromAddress({ use: 'home', lines: ['12 Elm St'], city: 'Springfield' }, [], 'PID-11') // '12 Elm St^^Springfield^^^^H'
 */
export function xadFromAddress(address: Address, path: IssuePath, target: string): string {
  const first = firstNonEmpty(address.lines);
  // A postal code or country too long for XAD-5 (12) / XAD-6 (3) is not cut to fit there: it goes to XAD-8,
  // other geographic designation (ST 50, free text), so it still reaches the receiver. Blank parts are left
  // out, as FHIR leaves them out.
  const part = (value: string | undefined): string => (hasText(value) ? value : '');
  const postalCode = esc(part(address.postalCode));
  const country = esc(part(address.country));
  const postalFits = postalCode.length <= COMPONENT_MAX.postalCode;
  const countryFits = country.length <= COMPONENT_MAX.country;
  const other = [postalFits ? '' : postalCode, countryFits ? '' : country].filter((v) => v !== '').join(', ');
  const parts = [
    textComponent(address.lines?.[first] ?? '', COMPONENT_MAX.street),
    textComponent(joinNonEmpty(address.lines, first + 1, ', '), COMPONENT_MAX.street),
    textComponent(part(address.city), COMPONENT_MAX.place),
    textComponent(part(address.state), COMPONENT_MAX.place),
    postalFits ? postalCode : '',
    countryFits ? country : '',
    hl7AddressType(address.use, address.type),
    truncateEscaped(other, COMPONENT_MAX.place),
    textComponent(part(address.district), COMPONENT_MAX.county),
  ];
  // An address with no text at all (only a use or type) carries nothing: left out, as FHIR leaves it out.
  if (parts.every((p, k) => k === XAD_TYPE || p === '')) return '';
  return fitCompositeOrThrow(parts, [0, 1, 2, 3, 7, 8], COMPOSITE_MAX, path, target);
}

/**
 * XTN from a telecom: a phone, fax, pager or SMS number goes to XTN-1 as written (`[NNN] …` free form; the
 * structured XTN-5…8 need parsed digits the chart does not have); an e-mail address or URL goes to XTN-4.
 * XTN-2 use and XTN-3 equipment come from tables 0201 / 0202.
 * @param telecom - the contact point
 * @param path - where it is in the input, for MappingError
 * @param target - the field, `PID-13` or `PID-14`
 * @returns the encoded XTN
 * @throws MappingError when the value is longer than XTN-1 / XTN-4's 199 characters after escaping (never shortened)
 * @see HL7 v2.5.1 XTN data type; PID-13, PID-14
 * @example xtnFromTelecom({ system: 'email', value: 'a@example.org' }, [], 'PID-13') // '^NET^Internet^a@example.org'
 */
export function xtnFromTelecom(telecom: Telecom, path: IssuePath, target: string): string {
  const { use, equipment } = hl7TelecomCodes(telecom.system, telecom.use);
  const value = esc(telecom.value);
  if (value.length > COMPONENT_MAX.telecom) {
    throw new MappingError(path, target, `the contact value is longer than the ${COMPONENT_MAX.telecom} characters ${target} allows after escaping`);
  }
  const internet = equipment === 'Internet';
  return joinTrimmed([internet ? '' : value, use, equipment, internet ? value : ''], '^');
}

/** A look-up by id (see {@link lookupById}). */
export interface IdLookup<T> {
  /** The entry with this id, or undefined. */
  get(id: string): T | undefined;
}

/**
 * Look-up by id in a list: a search from the end for a short list, a map built on first use for a longer one.
 * Either way the last entry with an id wins (a checked directory has no repeated ids).
 * @param list - the entries
 * @returns the look-up
 * @example lookupById([{ id: 'a' }]).get('a') // { id: 'a' }
 */
export function lookupById<T extends { readonly id: string }>(list: readonly T[]): IdLookup<T> {
  let map: Map<string, T> | undefined;
  return {
    get(id) {
      if (list.length <= 8) {
        // A message looks up a few ids: for a short list a search costs less than building a map.
        for (let i = list.length - 1; i >= 0; i--) if ((list[i] as T).id === id) return list[i];
        return undefined;
      }
      map ??= new Map(list.map((x) => [x.id, x]));
      return map.get(id);
    },
  };
}

/** Directory look-ups by id, and the assigning authority of chart ids. */
export interface DirectoryIndex {
  /**
   * The assigning authority (HD, encoded: HD-1 only) of chart ids sent as identifiers — a practitioner's chart id
   * in XCN-1, an encounter's in PV1-19 CX-1: the sending application (MSH-3), whose ids they are; `CHART-EXPORT`
   * when MSH-3 is empty (a valued XCN-1 needs an assigning authority or a source table).
   */
  readonly localAuthority: string;
  readonly practitioners: IdLookup<DirectoryPractitioner>;
  /** XCN values already built in this message, by practitioner id (the same author appears in TXA and OBX). */
  readonly xcn: Map<string, string>;
  readonly locations: IdLookup<NonNullable<Directory['locations']>[number]>;
  readonly organizations: IdLookup<NonNullable<Directory['organizations']>[number]>;
}

/**
 * Index a directory (or nothing) for look-ups by id.
 * @param directory - the directory, already checked, or undefined
 * @param localAuthority - the encoded HD-1 of chart ids' assigning authority (MSH-3, else `CHART-EXPORT`)
 * @returns look-ups of practitioners, locations and organizations by id
 * @example indexDirectory(undefined, 'APP').practitioners.get('prac-001') // undefined
 */
export function indexDirectory(directory: Directory | undefined, localAuthority: string): DirectoryIndex {
  return {
    localAuthority,
    practitioners: lookupById(directory?.practitioners ?? []),
    xcn: new Map(),
    locations: lookupById(directory?.locations ?? []),
    organizations: lookupById(directory?.organizations ?? []),
  };
}

/**
 * XCN for a practitioner referenced by id. When the directory has the practitioner: XCN-1 (ST, 15 characters)
 * the value of its first identifier that fits 15 characters after escaping and whose system fits HD-2's 199
 * (with XCN-9 assigning authority and XCN-13 identifier type) or, when none does, its chart id (without
 * XCN-13); XCN-2…6 and XCN-10 from its first name, each part shortened to its component length (surname 50,
 * given names 30, suffix and prefix 20). When the directory lacks the practitioner: only the chart id, in XCN-1
 * (the reference stays resolvable by id, as the contract says for references to records not present). A chart
 * id in XCN-1 has the sending application (MSH-3) as XCN-9 assigning authority, as v2.5.1 requires a valued
 * XCN-1 to have one (`CHART-EXPORT` when MSH-3 is empty, see `DirectoryIndex.localAuthority`). A chart id longer than 15 characters after escaping is sent
 * in its derived form (the first 15 hex digits of its FNV-1a 64-bit hash, see `fitId`): an identifier is
 * never cut.
 * @param practitionerId - the chart id of the practitioner
 * @param dir - the directory index
 * @param path - where the reference is in the input, for MappingError
 * @param target - the field, e.g. `PV1-7`
 * @returns the encoded XCN
 * @throws MappingError when the practitioner's identifier does not fit 250 characters after escaping
 * @see HL7 v2.5.1 XCN data type
 * @example xcnForPractitioner('prac-404', indexDirectory(undefined, 'APP'), [], 'PV1-7') // 'prac-404^^^^^^^^APP'
 */
export function xcnForPractitioner(practitionerId: string, dir: DirectoryIndex, path: IssuePath, target: string): string {
  const built = dir.xcn.get(practitionerId);
  if (built !== undefined) return built;
  const value = buildXcn(practitionerId, dir, path, target);
  dir.xcn.set(practitionerId, value);
  return value;
}

function buildXcn(practitionerId: string, dir: DirectoryIndex, path: IssuePath, target: string): string {
  const practitioner = dir.practitioners.get(practitionerId);
  // v2.5.1 XCN-1: "either the source table or the assigning authority must be valued"; a chart id is the
  // sending application's.
  if (practitioner === undefined) return joinTrimmed([fitId(practitionerId, ID_NUMBER_MAX), '', '', '', '', '', '', '', dir.localAuthority], '^');
  // XCN-1 is ST 15: the first identifier whose value fits it (never a cut identifier), else the chart id.
  let identifier: Identifier | undefined;
  let idNumber = '';
  let authority = '';
  for (const candidate of practitioner.identifiers ?? []) {
    const value = esc(candidate.value);
    const hd = hdForSystem(candidate.system);
    if (value.length <= ID_NUMBER_MAX && hd !== undefined) {
      identifier = candidate;
      idNumber = value;
      authority = hd;
      break;
    }
    noteDropped(); // a skipped identifier was escaped but is not sent
  }
  if (identifier === undefined) {
    idNumber = fitId(practitioner.id, ID_NUMBER_MAX);
    authority = dir.localAuthority;
  }
  const name = practitioner.names[0];
  const n = name === undefined ? undefined : nameParts(name);
  const parts = [
    idNumber,
    n?.family ?? '',
    n?.given ?? '',
    n?.middle ?? '',
    n?.suffix ?? '',
    n?.prefix ?? '',
    '',
    '',
    authority,
    n?.type ?? '',
    '',
    '',
    identifier?.type ?? '',
  ];
  return fitCompositeOrThrow(parts, [1, 2, 3, 4, 5], COMPOSITE_MAX, path, target);
}

/**
 * Join repetitions with `~`.
 * @param values - encoded repetitions
 * @returns the field value
 * @example repeat(['a', 'b']) // 'a~b'
 */
export function repeat(values: readonly string[]): string {
  return values.length === 1 ? (values[0] as string) : values.join('~');
}

/** Arrays of empty fields by length, copied by {@link emptyFields}. */
const EMPTY_FIELDS: string[][] = [];

/**
 * A new array of `count` empty fields, to be filled by position (copied from a cached template, which is
 * cheaper than creating and filling a new array).
 * @param count - the number of fields
 * @returns a new array of `count` empty strings
 * @example emptyFields(3) // ['', '', '']
 */
export function emptyFields(count: number): string[] {
  let template = EMPTY_FIELDS[count];
  if (template === undefined) {
    template = new Array<string>(count).fill('');
    EMPTY_FIELDS[count] = template;
  }
  return template.slice();
}

/**
 * A segment: id and fields joined by `|`, trailing empty fields dropped.
 * @param id - segment id
 * @param fields - encoded fields, field 1 first (for MSH, MSH-2 first)
 * @returns the segment text without terminator
 * @example segment('PV1', ['1', 'N', '', '']) // 'PV1|1|N'
 */
export function segment(id: string, fields: readonly string[]): string {
  const body = joinTrimmed(fields, '|');
  return body === '' ? id : `${id}|${body}`;
}
