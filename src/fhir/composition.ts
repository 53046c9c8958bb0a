import type * as fhir from 'fhir/r4.js';
import type { ClinicalNote } from '../model/note.js';
import type { Patient } from '../model/patient.js';
import { EXTENSION, NOTE_TYPE_LOINC, SYSTEM } from './internal/codings.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { mapChartId } from './ids.js';
import { hasText } from '../internal/text.js';
import { textNarrative } from './internal/xhtml.js';
import { assertValidChartParts } from './internal/validate.js';
import { withLastUpdated } from './internal/meta.js';

/** Shown in a section narrative when the note text has no visible characters (a narrative must have content). */
export const BLANK_NOTE_PLACEHOLDER = '(blank note)';

/** Composition mapping with a given context. */
export function mapComposition(note: ClinicalNote, ctx: MapContext): fhir.Composition {
  const id = mapChartId(note.id);
  const loinc = NOTE_TYPE_LOINC[note.type];
  const out: fhir.Composition = {
    resourceType: 'Composition',
    id,
    status: note.status,
    type: { coding: [{ system: SYSTEM.loinc, code: loinc.code, display: loinc.display }] },
    subject: ctx.patientRef(),
  } as fhir.Composition;
  if (note.encounterId !== undefined) out.encounter = ctx.encounterRef(note.encounterId);
  out.date = note.authored;
  // Composition.author is required (1..*): an unknown author is stated with data-absent-reason.
  out.author = [
    note.authorId !== undefined
      ? ctx.practitionerRef(note.authorId)
      : { extension: [{ url: EXTENSION.dataAbsentReason, valueCode: 'unknown' }] },
  ];
  // Composition.title is required; a blank chart title falls back to the document type's name.
  const titled = hasText(note.title);
  out.title = titled ? note.title : loinc.display;
  out.confidentiality = note.confidentiality ?? 'N';
  const section: fhir.CompositionSection = {};
  if (titled) section.title = note.title;
  section.text = textNarrative(note.text, BLANK_NOTE_PLACEHOLDER);
  // The narrative is derived from the DocumentReference that carries the exact text.
  section.entry = [ctx.localRef('DocumentReference', id)];
  out.section = [section];
  return withLastUpdated(out, note.lastUpdated);
}

/**
 * Map a clinical note to a FHIR R4 Composition whose one section shows the note text as escaped XHTML.
 *
 * `type` is the note type's LOINC document code; `date` the authored time as given; `author` the
 * Practitioner (or a data-absent-reason `unknown` when the note has none, since FHIR requires an author);
 * `confidentiality` the note's (default `N`). The section narrative escapes every character of the text
 * (line breaks become `<br/>`) and its entry references the DocumentReference of the same id, which
 * carries the exact text.
 *
 * @param note - the chart note
 * @param patient - the patient (the Composition's subject)
 * @returns the Composition; its id is `toFhirId(note.id)`
 * @throws {ChartValidationError} when the input fails the chart check (paths start at `note` or `patient`)
 * @example toFhirComposition(chart.notes[0], chart.patient).type.coding?.[0]?.code // '11506-3'
 * @see https://hl7.org/fhir/R4/composition.html
 */
export function toFhirComposition(note: ClinicalNote, patient: Patient): fhir.Composition {
  assertValidChartParts({ patient, notes: [note] }, [[['notes', 0], ['note']]]);
  return mapComposition(note, standaloneContext(patient.id));
}
