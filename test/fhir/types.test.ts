/** Type-level checks: the public FHIR API is typed with the R4 types of @types/fhir. */
import type * as fhir from 'fhir/r4';
import { describe, expectTypeOf, it } from 'vitest';
import {
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  toFhirComposition,
  toFhirCoverage,
  toFhirDocumentReference,
  toFhirEncounter,
  toFhirEncounterCondition,
  toFhirHistoryCondition,
  toFhirId,
  toFhirLocation,
  toFhirOrganization,
  toFhirPatient,
  toFhirPayerOrganization,
  toFhirPractitioner,
  toFhirProcedure,
  toFhirQuestionnaire,
  toFhirQuestionnaireResponse,
  type DirectoryResourceType,
  type FhirExportOptions,
  type PatientBundleLimits,
  type PatientChart,
} from '../../src/index.js';

describe('FHIR API types', () => {
  it('should return R4 Bundles from every builder', () => {
    expectTypeOf(buildFhirPatientExport).returns.toEqualTypeOf<fhir.Bundle>();
    expectTypeOf(buildFhirPatientBundle).returns.toEqualTypeOf<fhir.Bundle>();
    expectTypeOf(buildFhirEncounterExport).returns.toEqualTypeOf<fhir.Bundle>();
    expectTypeOf(buildFhirNoteExport).returns.toEqualTypeOf<fhir.Bundle>();
    expectTypeOf(buildFhirAssessmentExport).returns.toEqualTypeOf<fhir.Bundle>();
    expectTypeOf(buildFhirDirectoryBundle).returns.toEqualTypeOf<fhir.Bundle>();
    expectTypeOf(buildFhirPatientExport).parameters.toEqualTypeOf<[PatientChart, (FhirExportOptions | undefined)?]>();
    expectTypeOf(buildFhirEncounterExport).parameter(1).toEqualTypeOf<string>();
    expectTypeOf(buildFhirDirectoryBundle).parameter(1).toEqualTypeOf<DirectoryResourceType>();
  });

  it('should return the R4 resource type from every mapper', () => {
    expectTypeOf(toFhirPatient).returns.toEqualTypeOf<fhir.Patient>();
    expectTypeOf(toFhirCoverage).returns.toEqualTypeOf<fhir.Coverage>();
    expectTypeOf(toFhirPayerOrganization).returns.toEqualTypeOf<fhir.Organization>();
    expectTypeOf(toFhirEncounter).returns.toEqualTypeOf<fhir.Encounter>();
    expectTypeOf(toFhirEncounterCondition).returns.toEqualTypeOf<fhir.Condition>();
    expectTypeOf(toFhirHistoryCondition).returns.toEqualTypeOf<fhir.Condition>();
    expectTypeOf(toFhirProcedure).returns.toEqualTypeOf<fhir.Procedure>();
    expectTypeOf(toFhirComposition).returns.toEqualTypeOf<fhir.Composition>();
    expectTypeOf(toFhirDocumentReference).returns.toEqualTypeOf<fhir.DocumentReference>();
    expectTypeOf(toFhirQuestionnaire).returns.toEqualTypeOf<fhir.Questionnaire>();
    expectTypeOf(toFhirQuestionnaireResponse).returns.toEqualTypeOf<fhir.QuestionnaireResponse>();
    expectTypeOf(toFhirOrganization).returns.toEqualTypeOf<fhir.Organization>();
    expectTypeOf(toFhirPractitioner).returns.toEqualTypeOf<fhir.Practitioner>();
    expectTypeOf(toFhirLocation).returns.toEqualTypeOf<fhir.Location>();
    expectTypeOf(toFhirId).toEqualTypeOf<(chartId: string) => string>();
  });

  it('should type the options strictly', () => {
    expectTypeOf<FhirExportOptions['strictBundleTotal']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<PatientBundleLimits>().toEqualTypeOf<{ encounters?: number; notes?: number; assessments?: number; medicalHistory?: number }>();
    // Type-checked, never called.
    const misuse = (): unknown =>
      // @ts-expect-error limits belong to the patient Bundle only
      buildFhirPatientExport({} as PatientChart, { limits: {} });
    expectTypeOf(misuse).returns.toBeUnknown();
    // @ts-expect-error the directory holds only Organization, Practitioner and Location
    expectTypeOf(buildFhirDirectoryBundle).toBeCallableWith({}, 'Patient');
  });
});
