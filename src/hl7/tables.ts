/**
 * Reverse code maps, chart (FHIR) codes → HL7 v2.5.1 table values. Every target value exists in the
 * v2.5.1 table named; where the chart has a code that v2.5.1 lacks, the map says what is sent instead and
 * what is lost. Sources: the HL7 V2-to-FHIR IG concept maps read in reverse, filtered by the v2.5.1 tables
 * (HL7 v2.5.1 chapter 2A, and the tables of chapters 2, 3, 6, 7 and 9 each map names).
 */
import type { AddressType, AddressUse, NameUse, TelecomSystem, TelecomUse } from '../model/common.js';
import type { DiagnosisUse, EncounterClass } from '../model/encounter.js';
import type { VerificationStatus } from '../model/history.js';
import type { Confidentiality, NoteStatus, NoteType } from '../model/note.js';
import type { Gender, MaritalStatus, SubscriberRelationship } from '../model/patient.js';
import type { AssessmentStatus } from '../model/assessment.js';

/**
 * Administrative sex, PID-8 (table 0001: A F M N O U). `other` → `O`: v2.5.1 also has `A` (ambiguous) and
 * `N` (not applicable), which FHIR folds into `other`, so a reader cannot tell those apart (lossy).
 */
export const HL7_SEX: Readonly<Record<Gender, string>> = { male: 'M', female: 'F', other: 'O', unknown: 'U' };

/**
 * Patient class, PV1-2 (table 0004: B C E I N O P R U). `EMER` → E, `IMP`/`ACUTE`/`NONAC` → I (the
 * acute / non-acute distinction is lost), `AMB` → O, `PRENC` → P. `OBSENC`, `SS`, `VR`, `HH` and `FLD` have no
 * v2.5.1 code and are sent as `O` (outpatient): observation stays, short stays, virtual, home-health and
 * field visits are not told apart (lossy). A PV1 without an encounter uses `N` (not applicable).
 */
export const HL7_PATIENT_CLASS: Readonly<Record<EncounterClass, string>> = {
  EMER: 'E',
  IMP: 'I',
  ACUTE: 'I',
  NONAC: 'I',
  AMB: 'O',
  PRENC: 'P',
  OBSENC: 'O',
  SS: 'O',
  VR: 'O',
  HH: 'O',
  FLD: 'O',
};

/**
 * Marital status, PID-16 CE (table 0002). `M D S W I` keep their code; `A` (annulled) → `N`; `L` (legally
 * separated) → `E`; `T` (domestic partner) → `P`; `U` (unmarried) → `B`; `UNK` → `U`; `P` (polygamous) has
 * no v2.5.1 code and is sent as `O` (other, lossy). The table's display text rides in CE.2.
 */
export const HL7_MARITAL_STATUS: Readonly<Record<MaritalStatus, readonly [string, string]>> = {
  A: ['N', 'Annulled'],
  D: ['D', 'Divorced'],
  I: ['I', 'Interlocutory'],
  L: ['E', 'Legally Separated'],
  M: ['M', 'Married'],
  P: ['O', 'Other'],
  S: ['S', 'Single'],
  T: ['P', 'Domestic partner'],
  U: ['B', 'Unmarried'],
  W: ['W', 'Widowed'],
  UNK: ['U', 'Unknown'],
};

/**
 * Name type, XPN-7 / XCN-10 (table 0200: A B C D I L M N P R S T U). `official` → L, `usual` → D,
 * `maiden` → M, `nickname` → N, `anonymous` → S (coded pseudo-name). `temp` and `old` have no v2.5.1 code:
 * XPN-7 stays empty (lossy).
 */
export const HL7_NAME_TYPE: Readonly<Record<NameUse, string>> = {
  official: 'L',
  usual: 'D',
  maiden: 'M',
  nickname: 'N',
  anonymous: 'S',
  temp: '',
  old: '',
};

/**
 * Address type, XAD-7 (table 0190). Use first: `home` → H, `work` → B, `temp` → C, `old` → BA (the IG's
 * reverse of "bad address"; "old" and "bad" are not told apart); `billing` has no v2.5.1 code. Without a
 * mappable use, type `postal` → M (mailing); `physical` and `both` have no code. XAD-7 holds one code, so
 * when both use and type are set the type is lost.
 * @param use - the address use
 * @param type - the address type
 * @returns the table 0190 code, or '' when none applies
 * @example hl7AddressType(undefined, 'postal') // 'M'
 */
export function hl7AddressType(use: AddressUse | undefined, type: AddressType | undefined): string {
  const byUse: Readonly<Record<AddressUse, string>> = { home: 'H', work: 'B', temp: 'C', old: 'BA', billing: '' };
  const fromUse = use === undefined ? '' : byUse[use];
  if (fromUse !== '') return fromUse;
  return type === 'postal' ? 'M' : '';
}

/**
 * Telecom use (XTN-2, table 0201) and equipment (XTN-3, table 0202). Use: `home` → PRN, `work` → WPN;
 * `mobile` has no v2.5.1 use code (PRS is v2.6+) and shows as equipment `CP` instead; `temp` and `old`
 * have none (lossy). Equipment: `phone` → PH (CP when mobile), `fax` → FX, `pager` → BP, `sms` → CP,
 * `email` and `url` → `Internet` with use `NET` (the address goes to XTN-4; email and url are not told
 * apart, and their use is lost); `other` → no code.
 * @param system - the contact point system
 * @param use - the contact point use
 * @returns XTN-2 and XTN-3 codes ('' when none applies)
 * @example hl7TelecomCodes('phone', 'mobile') // { use: '', equipment: 'CP' }
 */
export function hl7TelecomCodes(system: TelecomSystem, use: TelecomUse | undefined): { use: string; equipment: string } {
  if (system === 'email' || system === 'url') return { use: 'NET', equipment: 'Internet' };
  const u = use === 'home' ? 'PRN' : use === 'work' ? 'WPN' : '';
  const equipment =
    system === 'phone' ? (use === 'mobile' ? 'CP' : 'PH') : system === 'fax' ? 'FX' : system === 'pager' ? 'BP' : system === 'sms' ? 'CP' : '';
  return { use: u, equipment };
}

/**
 * Diagnosis type, DG1-6 (table 0052: A admitting, F final, W working). `AD` → A, `DD` (discharge) → F, every
 * other use and no use → W. The FHIR role (chief complaint, comorbidity, pre-/post-op, billing) is lost.
 * @param use - the diagnosis use
 * @returns the table 0052 code
 * @example hl7DiagnosisType('billing') // 'W'
 */
export function hl7DiagnosisType(use: DiagnosisUse | undefined): string {
  return use === 'AD' ? 'A' : use === 'DD' ? 'F' : 'W';
}

/**
 * Diagnosis type of a medical-history entry, DG1-6: confirmed (the default) → F, unconfirmed / provisional /
 * differential / refuted → W, entered-in-error → W (and DG1-21 `D`). The exact verification status and the
 * clinical status are lost.
 * @param status - the verification status
 * @returns the table 0052 code
 * @example hl7HistoryDiagnosisType(undefined) // 'F'
 */
export function hl7HistoryDiagnosisType(status: VerificationStatus | undefined): string {
  return status === undefined || status === 'confirmed' ? 'F' : 'W';
}

/** Document type, TXA-2 (table 0270), from the note type. */
export const HL7_DOCUMENT_TYPE: Readonly<Record<NoteType, string>> = {
  'progress-note': 'PR',
  'discharge-summary': 'DS',
  'consultation-note': 'CN',
  'history-and-physical': 'HP',
  'procedure-note': 'PN',
};

/** LOINC document type (OBX-3) and its display, from the note type. */
export const LOINC_NOTE_TYPE: Readonly<Record<NoteType, readonly [string, string]>> = {
  'progress-note': ['11506-3', 'Progress note'],
  'discharge-summary': ['18842-5', 'Discharge summary'],
  'consultation-note': ['11488-4', 'Consult note'],
  'history-and-physical': ['34117-2', 'History and physical note'],
  'procedure-note': ['28570-0', 'Procedure note'],
};

/**
 * Document completion status, TXA-17 (table 0271). `final` and `amended` → AU (authenticated: v2.5.1 has
 * no "amended" completion status; the amendment is visible only as OBX-11 `C`), `preliminary` → IP (in
 * progress), `entered-in-error` → AU with availability CA (TXA-19).
 */
export const HL7_COMPLETION_STATUS: Readonly<Record<NoteStatus, string>> = {
  preliminary: 'IP',
  final: 'AU',
  amended: 'AU',
  'entered-in-error': 'AU',
};

/**
 * Document availability status, TXA-19 (table 0273): entered-in-error → CA (canceled), otherwise AV.
 * @param status - the note status
 * @returns the table 0273 code
 * @example hl7AvailabilityStatus('final') // 'AV'
 */
export function hl7AvailabilityStatus(status: NoteStatus): string {
  return status === 'entered-in-error' ? 'CA' : 'AV';
}

/** Confidentiality, TXA-18 (table 0272): `N` normal → U (usual control), `R` → R, `V` → V. */
export const HL7_CONFIDENTIALITY: Readonly<Record<Confidentiality, string>> = { N: 'U', R: 'R', V: 'V' };

/**
 * Observation result status of a note's OBX, OBX-11 (table 0085): final → F, preliminary → P, amended → C
 * (corrected), entered-in-error → W (wrong, should not have been sent).
 */
export const HL7_NOTE_RESULT_STATUS: Readonly<Record<NoteStatus, string>> = {
  preliminary: 'P',
  final: 'F',
  amended: 'C',
  'entered-in-error': 'W',
};

/**
 * Observation result status of an assessment's OBX, OBX-11 (table 0085): completed and stopped → F (the
 * answers given are final; that the assessment stopped early shows in OBR-25), amended → C, in-progress → P,
 * entered-in-error → W.
 */
export const HL7_ANSWER_RESULT_STATUS: Readonly<Record<AssessmentStatus, string>> = {
  completed: 'F',
  stopped: 'F',
  amended: 'C',
  'in-progress': 'P',
  'entered-in-error': 'W',
};

/**
 * Result status of an assessment's OBR, OBR-25 (table 0123): completed → F, amended → C, in-progress and
 * stopped → P (preliminary: not all results), entered-in-error → X (no results available; canceled).
 * "stopped" and "in progress" are not told apart (lossy).
 */
export const HL7_ORDER_RESULT_STATUS: Readonly<Record<AssessmentStatus, string>> = {
  completed: 'F',
  amended: 'C',
  'in-progress': 'P',
  stopped: 'P',
  'entered-in-error': 'X',
};

/**
 * Insured's relationship to patient, IN1-17 CE (table 0063). self → SEL, spouse → SPO, child → CHD,
 * parent → PAR, common (common-law spouse) → DOM (life partner, lossy), other and injured (injured plaintiff)
 * → OTH (lossy). No relationship means self (the model's default).
 */
export const HL7_RELATIONSHIP: Readonly<Record<SubscriberRelationship, readonly [string, string]>> = {
  self: ['SEL', 'Self'],
  spouse: ['SPO', 'Spouse'],
  child: ['CHD', 'Child'],
  parent: ['PAR', 'Parent'],
  common: ['DOM', 'Life partner'],
  other: ['OTH', 'Other'],
  injured: ['OTH', 'Other'],
};
