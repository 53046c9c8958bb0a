/** The Bundles the conformance tests validate: every export of a chart, with and without options. */
import type * as fhir from 'fhir/r4';
import {
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  DIRECTORY_RESOURCE_TYPES,
  type Directory,
  type PatientChart,
} from '../../src/index.js';

/** Every Bundle the builders make for one chart: each export, each record, each directory type. */
export function allBundles(chart: PatientChart, directory: Directory, base: { now: string; baseUrl?: string; strictBundleTotal?: boolean }): fhir.Bundle[] {
  const options = { ...base, directory };
  const out: fhir.Bundle[] = [
    buildFhirPatientExport(chart, options),
    buildFhirPatientBundle(chart, options),
    buildFhirPatientBundle(chart, { ...options, limits: { encounters: 1, notes: 1, assessments: 1, medicalHistory: 1 } }),
    // Without the directory every directory reference is logical.
    buildFhirPatientBundle(chart, base),
  ];
  for (const e of chart.encounters ?? []) out.push(buildFhirEncounterExport(chart, e.id, options));
  for (const n of chart.notes ?? []) out.push(buildFhirNoteExport(chart, n.id, options));
  for (const a of chart.assessments ?? []) out.push(buildFhirAssessmentExport(chart, a.id, options));
  for (const type of DIRECTORY_RESOURCE_TYPES) {
    out.push(buildFhirDirectoryBundle(directory, type, base));
    out.push(buildFhirDirectoryBundle(directory, type, { ...base, limit: 1 }));
  }
  return out;
}
