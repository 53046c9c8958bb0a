/**
 * QRD, original-style query definition (HL7 v2.5.1 chapter 5, 5.10.5.3), echoed in the ADR^A19 summary.
 */
import type { IssuePath } from '../../errors.js';
import type { Patient } from '../../model/patient.js';
import { fitCompositeOrThrow } from '../internal/fit.js';
import { orderedIdentifiers } from './pid.js';
import { hdForSystem } from '../data-types/hd.js';
import { nameParts } from '../data-types/xpn.js';
import { COMPOSITE_MAX } from '../internal/component-lengths.js';
import { emptyFields, segment } from '../internal/segment-text.js';
import { esc } from '../internal/standard-escape.js';

/** QRD-4 maximum length (ST, 10). */
export const QRD_QUERY_ID_MAX = 10;
/** QRD-7 maximum length (CQ, 10). */
const QRD_QUANTITY_MAX = 10;

/**
 * Build the QRD segment of the summary.
 *
 * - QRD-1 query date/time = the export time; QRD-2 `R` (record-oriented, table 0106); QRD-3 `I` (immediate,
 *   table 0091); QRD-4 the query id (ST, 10).
 * - QRD-7 quantity limited request (CQ, 10): `<limit>^RD` (records); without a limit, or with one too long
 *   for the field, the number of records sent.
 * - QRD-8 who subject filter (XCN): the patient's primary identifier (XCN-1, XCN-9 assigning authority,
 *   XCN-13 type) and first name, in the same parts as PID-5 (surname, given, further given names, suffix,
 *   prefix; a name given only as text in the surname).
 * - QRD-9 what subject filter `DEM^Demographics^HL70048`; QRD-10 what department data code `^Patient summary`.
 *
 * @param now - QRD-1, DTM with seconds and offset
 * @param queryId - QRD-4, already encoded, at most 10 characters
 * @param quantity - the limit asked for, or undefined
 * @param sent - the number of records in the message
 * @param patient - the patient
 * @param path - path of the patient in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when the primary identifier does not fit 250 characters after escaping
 * @see HL7 v2.5.1 QRD-1 … QRD-10
 * @example buildQrd('20260301093000-0500', 'Q1', 10, 4, patient) // 'QRD|20260301093000-0500|R|I|Q1|||10^RD|MRN-000123^Okafor^Adaeze^^^^^^&2.16.840.1.113883.19.5&ISO^^^^MR|DEM^Demographics^HL70048|^Patient summary'
 */
export function buildQrd(now: string, queryId: string, quantity: number | undefined, sent: number, patient: Patient, path: IssuePath = ['patient']): string {
  const limited = quantity === undefined || `${quantity}^RD`.length > QRD_QUANTITY_MAX ? sent : quantity;
  const primary = orderedIdentifiers(patient)[0];
  const name = patient.names[0];
  const parts = emptyFields(13);
  if (primary !== undefined) {
    parts[0] = esc(primary.identifier.value);
    // PID-3 refuses an identifier whose system does not fit HD-2, before QRD is built.
    parts[8] = hdForSystem(primary.identifier.system) ?? '';
    parts[12] = primary.identifier.type ?? '';
  }
  if (name !== undefined) {
    // The same name parts as PID-5 (a name given only as text in the surname, as there).
    const n = nameParts(name);
    parts[1] = n.family;
    parts[2] = n.given;
    parts[3] = n.middle;
    parts[4] = n.suffix;
    parts[5] = n.prefix;
  }
  const who = fitCompositeOrThrow(parts, [1, 2, 3, 4, 5], COMPOSITE_MAX, [...path, 'identifiers', primary?.index ?? 0, 'value'], 'QRD-8');
  return segment('QRD', [now, 'R', 'I', queryId, '', '', `${limited}^RD`, who, 'DEM^Demographics^HL70048', '^Patient summary']);
}
