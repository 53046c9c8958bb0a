/** The chart check's rules of a clinical note. */
import { at, type Checker, type Path } from './checker.js';
import { CONFIDENTIALITY_CODES, NOTE_STATUSES, NOTE_TYPES } from '../model/note.js';

/** Check a note at `path`. */
export function checkNote(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  c.enumValue(value['type'], NOTE_TYPES, at(path, 'type'), true);
  c.text(value['title'], at(path, 'title'), true);
  c.enumValue(value['status'], NOTE_STATUSES, at(path, 'status'), true);
  c.date(value['authored'], at(path, 'authored'), true, false);
  c.id(value['authorId'], at(path, 'authorId'), false);
  c.id(value['encounterId'], at(path, 'encounterId'), false);
  c.enumValue(value['confidentiality'], CONFIDENTIALITY_CODES, at(path, 'confidentiality'), false);
  // Note text is no FHIR string (base64 attachment data and narrative XHTML): no length limit.
  c.text(value['text'], at(path, 'text'), true, Number.POSITIVE_INFINITY);
}
