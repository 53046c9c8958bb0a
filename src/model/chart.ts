import type { Assessment } from './assessment.js';
import type { Directory } from './directory.js';
import type { Encounter } from './encounter.js';
import type { MedicalHistoryEntry } from './history.js';
import type { ClinicalNote } from './note.js';
import type { Patient } from './patient.js';

/**
 * One patient's chart: the patient and every record of theirs. This is what every FHIR and HL7 builder
 * takes. Records refer to each other by id (`note.encounterId`) and to the directory by id
 * (`encounter.locationId`, `note.authorId`).
 * @example { patient: { id: 'pat-0001', identifiers: […], names: […] }, encounters: […], notes: […] }
 */
export interface PatientChart {
  /** The patient. */
  patient: Patient;
  /** Encounters, any order (builders sort newest first by `period.start`). Ids unique. */
  encounters?: Encounter[] | undefined;
  /** Clinical notes, any order (newest first by `authored`). Ids unique. */
  notes?: ClinicalNote[] | undefined;
  /** Assessments, any order (newest first by `authored`). Ids unique. */
  assessments?: Assessment[] | undefined;
  /** Medical-history entries, any order (newest first by `recordedDate`, then `onset`). Ids unique. */
  medicalHistory?: MedicalHistoryEntry[] | undefined;
}

/**
 * A whole chart document: many patients' charts and the public directory they refer to. This is the JSON
 * file format read by the in-memory data source and by `npm start -- --data FILE`.
 * @example { "patients": [ { "patient": { … }, "encounters": [ … ] } ], "directory": { "practitioners": [ … ] } }
 */
export interface ChartDocument {
  /** Patients' charts. Patient ids unique. */
  patients: PatientChart[];
  /** The public directory. */
  directory?: Directory | undefined;
}
