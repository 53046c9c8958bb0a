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
  /**
   * The patient.
   * @example { id: 'pat-0001', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-104200', type: 'MR' }], names: [{ use: 'official', family: "O'Brien", given: ['Mary', 'Anne'] }], birthDate: '1984-07-02', gender: 'female' }
   */
  patient: Patient;
  /**
   * Encounters, any order (builders sort newest first by `period.start`). Ids unique.
   * @example [{ id: 'enc-0001-01', status: 'finished', class: 'AMB', period: { start: '2024-03-27T08:30:00-05:00', end: '2024-03-27T09:00:00-05:00' }, reason: 'Depression follow-up' }]
   */
  encounters?: Encounter[] | undefined;
  /**
   * Clinical notes, any order (newest first by `authored`). Ids unique.
   * @example [{ id: 'note-0001-01', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2024-03-27T09:51:00-05:00', encounterId: 'enc-0001-01', text: 'Subjective: low mood most days since the last visit.' }]
   */
  notes?: ClinicalNote[] | undefined;
  /**
   * Assessments, any order (newest first by `authored`). Ids unique. Assessments sharing an instrument id give
   * it the same `url` (and the same item definitions where both define them).
   * @example [{ id: 'asmt-0001-01', instrument: { id: 'phq-9', title: 'PHQ-9 quick depression assessment panel' }, status: 'completed', authored: '2024-03-27T08:38:06-05:00', answers: [], score: { value: 18 } }]
   */
  assessments?: Assessment[] | undefined;
  /**
   * Medical-history entries, any order (newest first by `recordedDate`, then `onset`). Ids unique.
   * @example [{ id: 'hx-0001-02', code: { system: 'icd-10-cm', code: 'F41.1', display: 'Generalized anxiety disorder' }, clinicalStatus: 'active', onset: '2018' }]
   */
  medicalHistory?: MedicalHistoryEntry[] | undefined;
}

/**
 * A whole chart document: many patients' charts and the public directory they refer to. This is the JSON
 * file format read by the in-memory data source and by `npm start -- --data FILE`.
 * @example { "patients": [ { "patient": { … }, "encounters": [ … ] } ], "directory": { "practitioners": [ … ] } }
 */
export interface ChartDocument {
  /**
   * Patients' charts. Patient ids unique.
   * @example [{ patient: { id: 'pat-0001', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-104200', type: 'MR' }], names: [{ family: "O'Brien", given: ['Mary'] }] } }]
   */
  patients: PatientChart[];
  /**
   * The public directory; every id a chart refers to (`locationId`, `practitionerId`, `authorId`…) must be in it.
   * @example { practitioners: [{ id: 'prac-001', names: [{ family: 'Okafor', given: ['Adaeze'] }] }], locations: [{ id: 'loc-001', name: 'Riverside Behavioral Health, Suite 200' }] }
   */
  directory?: Directory | undefined;
}
