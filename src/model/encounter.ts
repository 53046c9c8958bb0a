import type { Coding, IsoDateTime, Period } from './common.js';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- for the {@link}s in doc comments
import type { DirectoryLocation, DirectoryPractitioner } from './directory.js';

/**
 * Encounter class, from the v3 `ActEncounterCode` codes FHIR R4 uses for `Encounter.class`:
 * `AMB` ambulatory, `EMER` emergency, `IMP` inpatient, `ACUTE` inpatient acute, `NONAC` inpatient
 * non-acute, `OBSENC` observation, `PRENC` pre-admission, `SS` short stay, `VR` virtual, `HH` home health,
 * `FLD` field.
 */
export const ENCOUNTER_CLASSES = ['AMB', 'EMER', 'IMP', 'ACUTE', 'NONAC', 'OBSENC', 'PRENC', 'SS', 'VR', 'HH', 'FLD'] as const;
/** One of {@link ENCOUNTER_CLASSES}. */
export type EncounterClass = (typeof ENCOUNTER_CLASSES)[number];

/** Encounter status (FHIR `EncounterStatus`). */
export const ENCOUNTER_STATUSES = [
  'planned',
  'arrived',
  'triaged',
  'in-progress',
  'onleave',
  'finished',
  'cancelled',
  'entered-in-error',
  'unknown',
] as const;
/** One of {@link ENCOUNTER_STATUSES}. */
export type EncounterStatus = (typeof ENCOUNTER_STATUSES)[number];

/**
 * A participant's role in the encounter (v3 `ParticipationType`): `ATND` attender, `ADM` admitter,
 * `CON` consultant, `REF` referrer, `PPRF` primary performer, `SPRF` secondary performer, `PART` participant.
 */
export const PARTICIPANT_ROLES = ['ATND', 'ADM', 'CON', 'REF', 'PPRF', 'SPRF', 'PART'] as const;
/** One of {@link PARTICIPANT_ROLES}. */
export type ParticipantRole = (typeof PARTICIPANT_ROLES)[number];

/**
 * Use of a diagnosis in the encounter (FHIR `diagnosis-role`): `AD` admission, `DD` discharge,
 * `CC` chief complaint, `CM` comorbidity, `pre-op`, `post-op`, `billing`.
 */
export const DIAGNOSIS_USES = ['AD', 'DD', 'CC', 'CM', 'pre-op', 'post-op', 'billing'] as const;
/** One of {@link DIAGNOSIS_USES}. */
export type DiagnosisUse = (typeof DIAGNOSIS_USES)[number];

/** Procedure status (FHIR `EventStatus`). */
export const PROCEDURE_STATUSES = [
  'preparation',
  'in-progress',
  'not-done',
  'on-hold',
  'stopped',
  'completed',
  'entered-in-error',
  'unknown',
] as const;
/** One of {@link PROCEDURE_STATUSES}. */
export type ProcedureStatus = (typeof PROCEDURE_STATUSES)[number];

/**
 * A practitioner taking part in the encounter, by directory id.
 * @example { role: 'ATND', practitionerId: 'prac-001' }
 */
export interface EncounterParticipant {
  /** The participant's role: a code of {@link PARTICIPANT_ROLES}. @example 'ATND' */
  role: ParticipantRole;
  /** Id of a {@link DirectoryPractitioner} in the chart's directory. @example 'prac-001' */
  practitionerId: string;
}

/**
 * A diagnosis made in the encounter. It becomes a FHIR Condition (category `encounter-diagnosis`) and
 * an HL7 DG1 segment.
 * @example { code: { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' }, rank: 1, use: 'billing' }
 */
export interface Diagnosis {
  /** Chart id, unique within the encounter. When absent, an id is derived from the encounter id and position. @example 'dx-1' */
  id?: string | undefined;
  /**
   * The diagnosis code; system `icd-10-cm` or `snomed-ct` only.
   * @example { system: 'icd-10-cm', code: 'F33.1', display: 'Major depressive disorder, recurrent, moderate' }
   */
  code: Coding;
  /** Rank in the encounter, 1 = principal. Positive integer. @example 1 */
  rank?: number | undefined;
  /** How the diagnosis is used in the encounter: a code of {@link DIAGNOSIS_USES}. @example 'billing' */
  use?: DiagnosisUse | undefined;
  /** When the condition began: a date or date-time (see {@link IsoDateTime}). @example '2023-09' */
  onset?: IsoDateTime | undefined;
  /** When it was recorded: a date or date-time (see {@link IsoDateTime}). @example '2023-10-06' */
  recordedDate?: IsoDateTime | undefined;
}

/**
 * A procedure performed in the encounter. It becomes a FHIR Procedure and an HL7 PR1 segment.
 * @example { code: { system: 'cpt', code: '90834', display: 'Psychotherapy, 45 minutes' }, status: 'completed', performed: '2026-03-01T09:35:00-05:00' }
 */
export interface Procedure {
  /** Chart id, unique within the encounter. When absent, an id is derived from the encounter id and position. @example 'proc-1' */
  id?: string | undefined;
  /**
   * The procedure code; system `cpt`, `snomed-ct` or `icd-10-pcs` only.
   * @example { system: 'cpt', code: '90791', display: 'Psychiatric diagnostic evaluation' }
   */
  code: Coding;
  /** Procedure status: a code of {@link PROCEDURE_STATUSES}. @example 'completed' */
  status: ProcedureStatus;
  /**
   * When it was performed: a date or date-time (see {@link IsoDateTime}), or a period. HL7 PR1-5 (required)
   * falls back to the encounter's `period.start` when this is absent.
   * @example '2024-03-27T08:30:00-05:00'
   * @example { start: '2024-11-12T16:31:00-06:00', end: '2024-11-12T17:01:00-06:00' }
   */
  performed?: IsoDateTime | Period | undefined;
  /** Id of the performing {@link DirectoryPractitioner} in the directory. @example 'prac-001' */
  performerId?: string | undefined;
}

/**
 * A visit or stay.
 * @example see `examples/data/demo-chart.json`
 */
export interface Encounter {
  /** Chart id, unique in the patient's chart. @example 'enc-0001' */
  id: string;
  /**
   * When the record last changed in the host's store (optional): an ISO 8601 instant with seconds and an offset.
   * Becomes `meta.lastUpdated` of the Encounter (and of its diagnosis Conditions and Procedures), and decides whether a Bulk `$export` with `_since` includes it
   * (a record without it is always included). Absent: no `meta` at all, the output of earlier versions.
   * @example '2026-03-01T15:00:00Z'
   */
  lastUpdated?: IsoDateTime | undefined;
  /** Encounter status: a code of {@link ENCOUNTER_STATUSES}. @example 'finished' */
  status: EncounterStatus;
  /** Encounter class: a code of {@link ENCOUNTER_CLASSES}. @example 'AMB' */
  class: EncounterClass;
  /** Visit type as a code (SNOMED CT or CPT). @example { system: 'snomed-ct', code: '185349003', display: 'Encounter for check up' } */
  type?: Coding | undefined;
  /**
   * When the encounter started and ended: dates or date-times (see {@link IsoDateTime}). Newest-first ordering
   * uses `period.start`. @example { start: '2024-03-27T08:30:00-05:00', end: '2024-03-27T09:00:00-05:00' }
   */
  period?: Period | undefined;
  /** Id of the {@link DirectoryLocation} in the directory where the encounter took place. @example 'loc-001' */
  locationId?: string | undefined;
  /** Practitioners who took part. @example [{ role: 'ATND', practitionerId: 'prac-001' }] */
  participants?: EncounterParticipant[] | undefined;
  /** Reason for the visit, as free text. @example 'Follow-up for low mood' */
  reason?: string | undefined;
  /**
   * Diagnoses, principal first. Ids unique within the encounter.
   * @example [{ id: 'dx-1', code: { system: 'icd-10-cm', code: 'F33.1', display: 'Major depressive disorder, recurrent, moderate' }, rank: 1, use: 'billing' }]
   */
  diagnoses?: Diagnosis[] | undefined;
  /**
   * Procedures performed. Ids unique within the encounter.
   * @example [{ id: 'proc-1', code: { system: 'cpt', code: '90791', display: 'Psychiatric diagnostic evaluation' }, status: 'completed', performed: '2024-03-27T08:30:00-05:00', performerId: 'prac-001' }]
   */
  procedures?: Procedure[] | undefined;
}
