/** The chart check's rules of a clinical note. */
import { checkLastUpdated } from './last-updated-rules.js';
import { at, type Checker, type Path } from './checker.js';
import { NOTE_UTF8_MAX, utf8Length } from '../model/limits.js';
import { countUpTo } from './speed-ups.js';
import { CONFIDENTIALITY_CODES, NOTE_STATUSES, NOTE_TYPES } from '../model/note.js';

/** Check a note at `path`. */
export function checkNote(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  checkLastUpdated(c, value, path);
  c.enumValue(value['type'], NOTE_TYPES, at(path, 'type'), true);
  c.text(value['title'], at(path, 'title'), true);
  c.enumValue(value['status'], NOTE_STATUSES, at(path, 'status'), true);
  c.date(value['authored'], at(path, 'authored'), true, false);
  c.id(value['authorId'], at(path, 'authorId'), false);
  c.id(value['encounterId'], at(path, 'encounterId'), false);
  c.enumValue(value['confidentiality'], CONFIDENTIALITY_CODES, at(path, 'confidentiality'), false);
  // Note text is no FHIR string (base64 attachment data and narrative XHTML): its limit is in UTF-8 bytes.
  const text = value['text'];
  if (c.text(text, at(path, 'text'), true, Number.POSITIVE_INFINITY) && text.length * 3 > NOTE_UTF8_MAX && utf8Length(text, countUpTo(NOTE_UTF8_MAX)) > NOTE_UTF8_MAX) {
    c.add(at(path, 'text'), 'range', `must be at most ${NOTE_UTF8_MAX} bytes in UTF-8 (its base64 in DocumentReference.content.attachment.data stays within 1 MiB)`);
  }
}
