import type { IsoDateTime } from './common.js';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- for the {@link} in a doc comment
import type { DirectoryPractitioner } from './directory.js';

/**
 * Note types. Each maps to a LOINC document type (FHIR `Composition.type`, HL7 OBX-3) and to an HL7
 * table 0270 document type (TXA-2):
 * `progress-note` LOINC 11506-3 / `PR`; `discharge-summary` 18842-5 / `DS`; `consultation-note` 11488-4 / `CN`;
 * `history-and-physical` 34117-2 / `HP`; `procedure-note` 28570-0 / `PN`.
 */
export const NOTE_TYPES = [
  'progress-note',
  'discharge-summary',
  'consultation-note',
  'history-and-physical',
  'procedure-note',
] as const;
/** One of {@link NOTE_TYPES}. */
export type NoteType = (typeof NOTE_TYPES)[number];

/** Note status (FHIR `CompositionStatus`). */
export const NOTE_STATUSES = ['preliminary', 'final', 'amended', 'entered-in-error'] as const;
/** One of {@link NOTE_STATUSES}. */
export type NoteStatus = (typeof NOTE_STATUSES)[number];

/** Confidentiality (v3 `Confidentiality`, also HL7 table 0272 for TXA-18): `N` normal, `R` restricted, `V` very restricted. */
export const CONFIDENTIALITY_CODES = ['N', 'R', 'V'] as const;
/** One of {@link CONFIDENTIALITY_CODES}. */
export type Confidentiality = (typeof CONFIDENTIALITY_CODES)[number];

/**
 * A clinical note (progress note, discharge summary…). It becomes a FHIR Composition plus
 * DocumentReference, and an HL7 MDM^T02 (TXA + OBX of type TX).
 * @example { id: 'note-0001', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2026-03-01T10:15:00-05:00', authorId: 'prac-001', encounterId: 'enc-0001', text: 'Subjective: …' }
 */
export interface ClinicalNote {
  /** Chart id, unique in the patient's chart. @example 'note-0001' */
  id: string;
  /**
   * When the record last changed in the host's store (optional): an ISO 8601 instant with seconds and an offset.
   * Becomes `meta.lastUpdated` of the Composition and DocumentReference, and decides whether a Bulk `$export` with `_since` includes it
   * (a record without it is always included). Absent: no `meta` at all, the output of earlier versions.
   * @example '2026-03-01T15:00:00Z'
   */
  lastUpdated?: IsoDateTime | undefined;
  /** The note type: a code of {@link NOTE_TYPES}. @example 'progress-note' */
  type: NoteType;
  /** Title as shown to readers. @example 'Progress note' */
  title: string;
  /** Note status: a code of {@link NOTE_STATUSES}. @example 'final' */
  status: NoteStatus;
  /**
   * When the note was written: a date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) or a date-time with seconds and
   * offset (see {@link IsoDateTime}). Newest-first ordering uses it. @example '2024-03-27T09:51:00-05:00'
   */
  authored: IsoDateTime;
  /** Id of the authoring {@link DirectoryPractitioner} in the directory. @example 'prac-001' */
  authorId?: string | undefined;
  /** Id of the encounter the note belongs to, in the same patient's chart. @example 'enc-0001-01' */
  encounterId?: string | undefined;
  /** Confidentiality: a code of {@link CONFIDENTIALITY_CODES}, default `N`. @example 'R' */
  confidentiality?: Confidentiality | undefined;
  /**
   * The note text: any Unicode, lines separated by LF or CRLF; tab allowed. The C0 control characters other
   * than tab, CR and LF and lone surrogates are refused (DEL and the C1 controls are allowed, as in all text).
   * Not empty; no length limit.
   * @example "Subjective: Mary O'Brien reports low mood most days since the last visit.\nPlan: Sertraline 50 mg to 100 mg daily."
   */
  text: string;
}
