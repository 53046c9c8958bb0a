/** FHIR R4 core: one mapper per resource, one builder per FHIR export, and the id mapping. */

// Builders (one per FHIR endpoint response)
export { buildFhirPatientExport } from './patient-export.js';
export { buildFhirPatientBundle } from './patient-bundle.js';
export { streamFhirPatientBundle } from './patient-bundle-stream.js';
export type { FhirStreamOptions, FhirPatientBundleStreamOptions } from './patient-bundle-stream.js';
export { buildFhirEncounterExport } from './encounter-export.js';
export { buildFhirNoteExport } from './note-export.js';
export { buildFhirAssessmentExport } from './assessment-export.js';
export { buildFhirDirectoryBundle } from './directory-bundle.js';
export type { FhirExportOptions, PatientBundleLimits, FhirPatientBundleOptions, FhirDirectoryBundleOptions, FhirDirectoryLink } from './export-options.js';

// NDJSON writers (Bulk Data files)
export { FHIR_NDJSON_RESOURCE_TYPES, streamFhirNdjson, streamChartDocumentNdjson } from './ndjson.js';
export type { FhirNdjsonLine, FhirNdjsonChart, FhirNdjsonOptions, FhirNdjsonResourceType } from './ndjson.js';

// Mappers (one per resource)
export { toFhirPatient } from './patient-resource.js';
export { toFhirCoverage } from './coverage.js';
export { toFhirPayerOrganization } from './payer-organization.js';
export { toFhirEncounter } from './encounter-resource.js';
export { toFhirEncounterCondition } from './encounter-condition.js';
export { toFhirHistoryCondition } from './history-condition.js';
export { toFhirProcedure } from './procedure.js';
export { toFhirComposition } from './composition.js';
export { toFhirDocumentReference } from './document-reference.js';
export { toFhirQuestionnaire } from './questionnaire.js';
export type { QuestionnaireScore } from './questionnaire.js';
export { toFhirQuestionnaireResponse } from './questionnaire-response.js';
export { toFhirOrganization } from './organization.js';
export { toFhirPractitioner } from './practitioner.js';
export { toFhirLocation } from './location.js';

// Ids
export { defaultBundleId, toFhirId } from './ids.js';
export type { BundleIdInput } from './ids.js';
