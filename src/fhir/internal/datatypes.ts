/**
 * Chart datatypes → FHIR R4 datatypes (Identifier, HumanName, Address, ContactPoint, Period).
 * Empty or blank optional strings are omitted; dates are copied as given (precision and offset kept).
 */
import type * as fhir from 'fhir/r4.js';
import type { Address, HumanName, Identifier, Period, Telecom } from '../../model/common.js';
import { IDENTIFIER_TYPE_DISPLAY, SYSTEM } from './codings.js';
import { hasText, textList } from '../../internal/text.js';

/** Identifier: system and value, and the v2-0203 type when given. A blank value is omitted. */
export function toIdentifier(identifier: Identifier): fhir.Identifier {
  const out: fhir.Identifier = {};
  if (identifier.type !== undefined) {
    out.type = {
      coding: [{ system: SYSTEM.v2IdentifierType, code: identifier.type, display: IDENTIFIER_TYPE_DISPLAY[identifier.type] }],
    };
  }
  out.system = identifier.system;
  if (hasText(identifier.value)) out.value = identifier.value;
  return out;
}

/** Identifiers, or undefined when there are none. */
export function toIdentifiers(identifiers: readonly Identifier[] | undefined): fhir.Identifier[] | undefined {
  if (identifiers === undefined || identifiers.length === 0) return undefined;
  return identifiers.map(toIdentifier);
}

/** HumanName; undefined when no part has text. */
export function toHumanName(name: HumanName): fhir.HumanName | undefined {
  const out: fhir.HumanName = {};
  if (name.use !== undefined) out.use = name.use;
  if (name.text !== undefined && hasText(name.text)) out.text = name.text;
  if (name.family !== undefined && hasText(name.family)) out.family = name.family;
  const given = textList(name.given);
  if (given !== undefined) out.given = given;
  const prefix = textList(name.prefix);
  if (prefix !== undefined) out.prefix = prefix;
  const suffix = textList(name.suffix);
  if (suffix !== undefined) out.suffix = suffix;
  return out.text === undefined && out.family === undefined && out.given === undefined && out.prefix === undefined && out.suffix === undefined
    ? undefined
    : out;
}

/** HumanNames with content, or undefined. */
export function toHumanNames(names: readonly HumanName[] | undefined): fhir.HumanName[] | undefined {
  if (names === undefined) return undefined;
  const out: fhir.HumanName[] = [];
  for (const n of names) {
    const mapped = toHumanName(n);
    if (mapped !== undefined) out.push(mapped);
  }
  return out.length > 0 ? out : undefined;
}

/** Address; undefined when no part has text (use and type alone say nothing). */
export function toAddress(address: Address): fhir.Address | undefined {
  const out: fhir.Address = {};
  if (address.use !== undefined) out.use = address.use;
  if (address.type !== undefined) out.type = address.type;
  let content = false;
  const lines = textList(address.lines);
  if (lines !== undefined) {
    out.line = lines;
    content = true;
  }
  if (address.city !== undefined && hasText(address.city)) {
    out.city = address.city;
    content = true;
  }
  if (address.district !== undefined && hasText(address.district)) {
    out.district = address.district;
    content = true;
  }
  if (address.state !== undefined && hasText(address.state)) {
    out.state = address.state;
    content = true;
  }
  if (address.postalCode !== undefined && hasText(address.postalCode)) {
    out.postalCode = address.postalCode;
    content = true;
  }
  if (address.country !== undefined && hasText(address.country)) {
    out.country = address.country;
    content = true;
  }
  return content ? out : undefined;
}

/** Addresses with content, or undefined. */
export function toAddresses(addresses: readonly Address[] | undefined): fhir.Address[] | undefined {
  if (addresses === undefined) return undefined;
  const out: fhir.Address[] = [];
  for (const a of addresses) {
    const mapped = toAddress(a);
    if (mapped !== undefined) out.push(mapped);
  }
  return out.length > 0 ? out : undefined;
}

/** ContactPoints; a telecom with a blank value is dropped (cpt-2 needs a system with a value, and a bare system says nothing). */
export function toContactPoints(telecoms: readonly Telecom[] | undefined): fhir.ContactPoint[] | undefined {
  if (telecoms === undefined) return undefined;
  const out: fhir.ContactPoint[] = [];
  for (const t of telecoms) {
    if (!hasText(t.value)) continue;
    const cp: fhir.ContactPoint = { system: t.system, value: t.value };
    if (t.use !== undefined) cp.use = t.use;
    out.push(cp);
  }
  return out.length > 0 ? out : undefined;
}

/** Period with the given ends, or undefined when neither end is set. */
export function toPeriod(period: Period | undefined): fhir.Period | undefined {
  if (period === undefined) return undefined;
  const out: fhir.Period = {};
  if (period.start !== undefined) out.start = period.start;
  if (period.end !== undefined) out.end = period.end;
  return out.start === undefined && out.end === undefined ? undefined : out;
}

/** Largest value of FHIR `integer` / `positiveInt` (32-bit signed). */
export const FHIR_INTEGER_MAX = 2147483647;
/** Smallest value of FHIR `integer`. */
export const FHIR_INTEGER_MIN = -2147483648;

/** True when `n` fits FHIR `integer` (a 32-bit signed integer). */
export function isFhirInteger(n: number): boolean {
  return Number.isInteger(n) && n >= FHIR_INTEGER_MIN && n <= FHIR_INTEGER_MAX;
}
