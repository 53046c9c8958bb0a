/**
 * The public arbitraries of single model records, each valid on its own (as the chart check sees it inside a
 * chart whose references may point anywhere).
 */
import type fc from 'fast-check';
import type { Assessment, ClinicalNote, Coverage, Directory, Encounter, MedicalHistoryEntry, Patient } from '../index.js';
import { arbAssessment } from './assessments.js';
import type { YearRange } from './dates.js';
import { arbDirectory } from './directories.js';
import { arbEncounter } from './encounters.js';
import type { TextMode } from './fragments.js';
import { arbMedicalHistoryEntry } from './history-entries.js';
import { arbNote } from './notes.js';
import { arbCoverage, arbPatient } from './people.js';

/**
 * Options of the single-record arbitraries ({@link patient}, {@link encounter}, …).
 * @example encounter({ text: 'hostile', ids: 'realistic' })
 */
export interface RecordKindOptions {
  /** Free text realistic, hostile, or mixed (default). */
  text?: TextMode | undefined;
  /** Ids realistic, hostile, or mixed (default: as `text`). */
  ids?: TextMode | undefined;
  /** Years of dates (default: realistic for realistic text, else mostly realistic with edge years). */
  years?: YearRange | undefined;
}

/**
 * A patient: identifiers, names (at least one usable part), and sometimes birth date, gender, death,
 * addresses, contact points, marital status, language and coverages.
 * @param options - text and id kind, years
 * @returns an arbitrary of patients
 * @example fc.sample(patient({ text: 'realistic' }), 1)[0]?.names[0]?.family // e.g. "O'Brien"
 */
export function patient(options: RecordKindOptions = {}): fc.Arbitrary<Patient> {
  return arbPatient(options);
}

/**
 * A coverage: payer, status, and sometimes member id, plan, group, subscriber relationship, period and order.
 * @param options - text and id kind, years
 * @returns an arbitrary of coverages
 * @example fc.sample(coverage(), 1)[0]?.payer.name
 */
export function coverage(options: RecordKindOptions = {}): fc.Arbitrary<Coverage> {
  return arbCoverage(options);
}

/**
 * An encounter: class, status, and sometimes type, period (start never after end), location,
 * participants, reason, diagnoses and procedures. References are free ids.
 * @param options - text and id kind, years
 * @returns an arbitrary of encounters
 * @example fc.sample(encounter({ text: 'hostile' }), 1)[0]?.reason
 */
export function encounter(options: RecordKindOptions = {}): fc.Arbitrary<Encounter> {
  return arbEncounter(options);
}

/**
 * A clinical note: type, title, status, text and a full date-time `authored`, sometimes author, encounter
 * and confidentiality. References are free ids.
 * @param options - text and id kind, years
 * @returns an arbitrary of notes
 * @example fc.sample(clinicalNote({ text: 'hostile' }), 1)[0]?.text // e.g. 'BP 128/82 | HR 72\\.br\\'
 */
export function clinicalNote(options: RecordKindOptions = {}): fc.Arbitrary<ClinicalNote> {
  return arbNote(options);
}

/**
 * An assessment: PHQ-9 or GAD-7 (totals that add up) or a generated instrument with or without item
 * definitions, answers that fit them, a full date-time `authored`. References are free ids.
 * @param options - text and id kind, years
 * @returns an arbitrary of assessments
 * @example fc.sample(assessment({ text: 'realistic' }), 1)[0]?.instrument.title
 */
export function assessment(options: RecordKindOptions = {}): fc.Arbitrary<Assessment> {
  return arbAssessment(options);
}

/**
 * A medical-history entry: code, clinical status, and onset before abatement when both are there.
 * @param options - text and id kind, years
 * @returns an arbitrary of history entries
 * @example fc.sample(medicalHistoryEntry(), 1)[0]?.clinicalStatus // e.g. 'resolved'
 */
export function medicalHistoryEntry(options: RecordKindOptions = {}): fc.Arbitrary<MedicalHistoryEntry> {
  return arbMedicalHistoryEntry(options);
}

/**
 * A directory that `checkDirectory` accepts: organizations (a `partOfId` always naming an earlier one),
 * practitioners, locations (an `organizationId` always naming one of its organizations), ids unique per kind.
 * @param options - text and id kind
 * @returns an arbitrary of directories
 * @example fc.sample(directory({ text: 'realistic' }), 1)[0]?.practitioners?.length
 */
export function directory(options: RecordKindOptions = {}): fc.Arbitrary<Directory> {
  return arbDirectory({ text: options.text, ids: options.ids });
}
