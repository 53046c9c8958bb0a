/**
 * TXA, transcription document header (HL7 v2.5.1 chapter 9, 9.6.1), from a clinical note.
 */
import type { IssuePath } from '../../errors.js';
import type { ClinicalNote } from '../../model/note.js';
import { formatHl7DateTime } from '../datetime.js';
import { fitId } from '../internal/fit.js';
import { HL7_COMPLETION_STATUS, HL7_CONFIDENTIALITY, HL7_DOCUMENT_TYPE, hl7AvailabilityStatus } from '../tables.js';
import { xcnForPractitioner } from '../data-types/xcn.js';
import { emptyFields, segment } from '../internal/segment-text.js';
import type { MessageContext } from '../internal/message-context.js';

/** TXA-12 maximum length (EI, 30). */
export const TXA_DOCUMENT_NUMBER_MAX = 30;

/**
 * Build the TXA segment.
 *
 * - TXA-1 set id `1`; TXA-2 document type (required, table 0270) from the note type; TXA-3 content
 *   presentation `TX`; TXA-6 origination date/time = authored; TXA-9 originator = the author (XCN).
 * - TXA-12 unique document number (EI, required, 30): the note id when it fits 30 characters after
 *   escaping; a longer id (a UUID is 36) is sent as its first 13 characters, `-` and a 16-hex-digit hash of
 *   the whole id: deterministic and distinct per id.
 * - TXA-17 completion status (required, table 0271): final / amended / entered-in-error → AU, preliminary →
 *   IP. TXA-18 confidentiality (table 0272): N → U, R → R, V → V (N when absent). TXA-19 availability
 *   (table 0273): CA for entered-in-error, else AV.
 * - Not carried in TXA: the title (v2.5.1 has no title field; it rides in OBX-3.2) and the encounter (PV1).
 *
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param note - the note (already validated)
 * @param path - path of the note in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when the author's identifier does not fit 250 characters after escaping
 * @see HL7 v2.5.1 TXA-1 … TXA-19
 * @example buildTxa(ctx, note) // 'TXA|1|PR|TX|||20260301101500-0500|||prac-001^Okafor^Adaeze|||note-0001|||||AU|U|AV'
 */
export function buildTxa(ctx: MessageContext, note: ClinicalNote, path: IssuePath = []): string {
  const fields = emptyFields(19);
  fields[0] = '1';
  fields[1] = HL7_DOCUMENT_TYPE[note.type];
  fields[2] = 'TX';
  fields[5] = formatHl7DateTime(note.authored);
  if (note.authorId !== undefined) fields[8] = xcnForPractitioner(ctx, note.authorId, [...path, 'authorId'], 'TXA-9');
  fields[11] = fitId(note.id, TXA_DOCUMENT_NUMBER_MAX);
  fields[16] = HL7_COMPLETION_STATUS[note.status];
  fields[17] = HL7_CONFIDENTIALITY[note.confidentiality ?? 'N'];
  fields[18] = hl7AvailabilityStatus(note.status);
  return segment('TXA', fields);
}
