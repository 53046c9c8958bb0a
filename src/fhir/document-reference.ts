import type * as fhir from 'fhir/r4.js';
import type { ClinicalNote } from '../model/note.js';
import type { Patient } from '../model/patient.js';
import { CONFIDENTIALITY_DISPLAY, NOTE_TYPE_LOINC, SYSTEM } from './internal/codings.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { utf8Base64 } from './internal/base64.js';
import { mapChartId } from './ids.js';
import { hasText } from '../internal/text.js';
import { assertValidChartParts } from './internal/validate.js';
import { withLastUpdated } from './internal/meta.js';

/** The attachment content type of note text (note text is plain text in UTF-8; FHIR R4 Attachment.contentType is a MIME type with its charset). */
export const NOTE_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** `DocumentReference.category`: US Core requires one, and every chart note is a clinical note (a new array each call). */
export function noteCategory(): fhir.CodeableConcept[] {
  return [{ coding: [{ system: SYSTEM.usCoreDocumentReferenceCategory, code: 'clinical-note', display: 'Clinical Note' }] }];
}

/** DocumentReference mapping with a given context. */
export function mapDocumentReference(note: ClinicalNote, ctx: MapContext): fhir.DocumentReference {
  const loinc = NOTE_TYPE_LOINC[note.type];
  const out: fhir.DocumentReference = {
    resourceType: 'DocumentReference',
    id: mapChartId(note.id),
    status: note.status === 'entered-in-error' ? 'entered-in-error' : 'current',
    docStatus: note.status,
    type: { coding: [{ system: SYSTEM.loinc, code: loinc.code, display: loinc.display }] },
    category: noteCategory(),
    subject: ctx.patientRef(),
  } as fhir.DocumentReference;
  // DocumentReference.date is an instant: only a full date-time fits (a checked date-time is the only
  // form longer than YYYY-MM-DD); the attachment's creation keeps any precision.
  if (note.authored.length > 10) out.date = note.authored;
  if (note.authorId !== undefined) out.author = [ctx.practitionerRef(note.authorId)];
  const titled = hasText(note.title);
  if (titled) out.description = note.title;
  const confidentiality = note.confidentiality ?? 'N';
  out.securityLabel = [
    { coding: [{ system: SYSTEM.v3Confidentiality, code: confidentiality, display: CONFIDENTIALITY_DISPLAY[confidentiality] }] },
  ];
  const { data, size } = utf8Base64(note.text);
  const attachment: fhir.Attachment = { contentType: NOTE_CONTENT_TYPE, data, size };
  if (titled) attachment.title = note.title;
  attachment.creation = note.authored;
  out.content = [{ attachment }];
  if (note.encounterId !== undefined) out.context = { encounter: [ctx.encounterRef(note.encounterId)] };
  return withLastUpdated(out, note.lastUpdated);
}

/**
 * Map a clinical note to a FHIR R4 DocumentReference carrying the exact note text.
 *
 * The text travels in `content[0].attachment.data` as base64 of its UTF-8 bytes, with `contentType`
 * `text/plain; charset=utf-8` and `size` in bytes; no character is changed. `docStatus` is the note
 * status, `status` is `current` (or `entered-in-error`); `date` (an instant) is set when the authored time
 * has a time of day, and `attachment.creation` always carries it as given. The confidentiality becomes a
 * v3 Confidentiality `securityLabel`.
 *
 * @param note - the chart note
 * @param patient - the patient (the DocumentReference's subject)
 * @returns the DocumentReference; its id is `toFhirId(note.id)`, the same as the note's Composition
 * @throws {ChartValidationError} when the input fails the chart check (paths start at `note` or `patient`)
 * @example toFhirDocumentReference(chart.notes[0], chart.patient).content[0].attachment.contentType // 'text/plain; charset=utf-8'
 * @see https://hl7.org/fhir/R4/documentreference.html
 */
export function toFhirDocumentReference(note: ClinicalNote, patient: Patient): fhir.DocumentReference {
  assertValidChartParts({ patient, notes: [note] }, [[['notes', 0], ['note']]]);
  return mapDocumentReference(note, standaloneContext(patient.id));
}
