/** The words of the OpenAPI description: what each route returns, and each parameter means. */

/** MSH-9 of each HL7 route. */
export const MESSAGE_TYPES: Readonly<Record<string, string>> = {
  exportHl7PatientAdt: 'ADT^A31^ADT_A05',
  exportHl7PatientSummary: 'ADR^A19^ADR_A19',
  exportHl7Encounter: 'ADT^A08^ADT_A01',
  exportHl7Note: 'MDM^T02^MDM_T02',
  exportHl7Assessment: 'ORU^R01^ORU_R01',
};

/** What each route returns, in the words of the interface. */
export const ROUTE_TEXT: Readonly<Record<string, { readonly summary: string; readonly description: string }>> = {
  exportFhirPatient: {
    summary: 'Patient demographics and coverage (FHIR)',
    description: 'A `collection` Bundle: the Patient first, then its Coverage resources and the payer Organizations they name.',
  },
  exportFhirPatientBundle: {
    summary: 'Longitudinal patient Bundle (FHIR)',
    description:
      'A `collection` Bundle: the Patient and its Coverage, then the newest encounters (with their Condition and Procedure ' +
      'resources), notes (Composition + DocumentReference), assessments (QuestionnaireResponse, with the Questionnaire) and ' +
      'medical-history records (Condition), each kind capped by its own limit parameter, and the Practitioner, Location and ' +
      'Organization records they refer to.',
  },
  exportFhirEncounter: {
    summary: 'One encounter (FHIR)',
    description:
      'A `collection` Bundle: the Patient and the Encounter, with its diagnoses (Condition), procedures (Procedure) and visit ' +
      'context (Practitioner, Location, Organization) when available.',
  },
  exportFhirNote: {
    summary: 'One clinical note (FHIR)',
    description:
      'A `collection` Bundle: the Patient, the Composition and the DocumentReference of the note, with its encounter and the ' +
      'directory records they refer to when available.',
  },
  exportFhirAssessment: {
    summary: 'One assessment (FHIR)',
    description:
      'A `collection` Bundle: the Patient and the QuestionnaireResponse, with its Questionnaire, its encounter and the directory ' +
      'records they refer to when available.',
  },
  publicFhirDirectory: {
    summary: 'Public directory (FHIR)',
    description:
      'A `searchset` Bundle of Organization, Practitioner or Location records. Needs no API key. Rate-limited per client ' +
      'only when the host configures `directoryRateLimit`. Paged: `Bundle.link` has `self` and, when more records follow, `next` ' +
      '(absolute URLs); follow `next` until there is none. Over a data source with keyset pages the records come in id order ' +
      '(code-point) and a walk gives every record once, even while records are added or removed; over one without, the first ' +
      'page only, without `next`. `total` counts the entries of this page.',
  },
  exportHl7PatientAdt: { summary: 'Patient demographics (HL7 v2 ADT^A31)', description: 'An `ADT^A31^ADT_A05` message (HL7 v2.5.1).' },
  exportHl7PatientSummary: {
    summary: 'Longitudinal patient summary (HL7 v2 ADR^A19)',
    description: 'An `ADR^A19^ADR_A19` message (HL7 v2.5.1) holding the newest `limit` records overall, whatever their kind.',
  },
  exportHl7Encounter: { summary: 'One encounter (HL7 v2 ADT^A08)', description: 'An `ADT^A08^ADT_A01` message (HL7 v2.5.1).' },
  exportHl7Note: { summary: 'One clinical note (HL7 v2 MDM^T02)', description: 'An `MDM^T02^MDM_T02` message (HL7 v2.5.1).' },
  exportHl7Assessment: { summary: 'One assessment (HL7 v2 ORU^R01)', description: 'An `ORU^R01^ORU_R01` message (HL7 v2.5.1).' },
};


export const ID_TEXT: Readonly<Record<string, string>> = {
  patientId: 'The patient.',
  encounterId: 'The encounter, which must belong to the patient.',
  noteId: 'The note, which must belong to the patient.',
  assessmentId: 'The assessment, which must belong to the patient.',
};

export const LIMIT_TEXT: Readonly<Record<string, string>> = {
  encounterLimit: 'Caps the encounters in the Bundle (newest first).',
  noteLimit: 'Caps the notes in the Bundle (newest first).',
  assessmentLimit: 'Caps the assessments in the Bundle (newest first).',
  medicalHistoryLimit: 'Caps the medical-history records in the Bundle (newest first).',
  summaryLimit: 'Caps the number of records in the summary, all kinds together (newest first).',
  directoryLimit: 'Caps the number of directory records of a page (`_count` wins when both are given).',
  _count: 'The number of directory records of a page (FHIR search `_count`; wins over `limit`; default: `limit`\'s).',
};

