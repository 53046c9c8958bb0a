/**
 * Every resource any builder or mapper emits, over generated charts, passes the independent R4 validator
 * (test/support/fhir-validator.ts). With `baseUrl` and `strictBundleTotal` there is no finding at all;
 * without them the only findings are the two the interface mandates: bdl-1 (`total` on a non-searchset
 * Bundle) once per such Bundle, and a relative fullUrl once per entry.
 */
import fc from 'fast-check';
import type * as fhir from 'fhir/r4';
import { describe, expect, it } from 'vitest';
import {
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  DIRECTORY_RESOURCE_TYPES,
  toFhirComposition,
  toFhirCoverage,
  toFhirDocumentReference,
  toFhirEncounter,
  toFhirEncounterCondition,
  toFhirHistoryCondition,
  toFhirLocation,
  toFhirOrganization,
  toFhirPatient,
  toFhirPayerOrganization,
  toFhirPractitioner,
  toFhirProcedure,
  toFhirQuestionnaire,
  toFhirQuestionnaireResponse,
  type Directory,
  type PatientChart,
} from '../../src/index.js';
import { arbPatientChart } from '../arbitraries/index.js';
import { validateFhir, type FhirFinding } from '../support/fhir-validator.js';

const NOW = '2026-03-01T15:00:00Z';
const STRICT = { now: NOW, baseUrl: 'https://fhir.example.org/r4', strictBundleTotal: true } as const;

/** Every Bundle the builders make for one chart: each export, each record, each directory type. */
function allBundles(chart: PatientChart, directory: Directory, base: { now: string; baseUrl?: string; strictBundleTotal?: boolean }): fhir.Bundle[] {
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

function describeFindings(findings: readonly FhirFinding[]): string {
  return findings.map((f) => `${f.rule} at ${f.path}: ${f.message}`).join('\n');
}

const arbCase = fc.oneof(
  arbPatientChart({ text: 'realistic', ids: 'realistic', mappable: true }),
  arbPatientChart({ text: 'mixed', mappable: true }),
  arbPatientChart({ text: 'hostile', danglingReferences: true, mappable: true }),
);

describe('R4 conformance of every Bundle', () => {
  it('should have no finding with baseUrl and strictBundleTotal set', () => {
    fc.assert(
      fc.property(arbCase, ({ chart, directory }) => {
        for (const bundle of allBundles(chart, directory, STRICT)) {
          const findings = validateFhir(bundle);
          expect(findings, describeFindings(findings)).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('should report only bdl-1 and relative fullUrls without the options', () => {
    fc.assert(
      fc.property(arbCase, ({ chart, directory }) => {
        for (const bundle of allBundles(chart, directory, { now: NOW })) {
          const findings = validateFhir(bundle);
          const expected: string[] = [];
          if (bundle.type !== 'searchset') expected.push('bdl-1 at Bundle');
          (bundle.entry ?? []).forEach((_, i) => expected.push(`fullurl-absolute at Bundle.entry[${i}].fullUrl`));
          expect(findings.map((f) => `${f.rule} at ${f.path}`).sort(), describeFindings(findings)).toEqual(expected.sort());
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('R4 conformance of every mapper', () => {
  it('should emit valid resources from the standalone mappers', () => {
    fc.assert(
      fc.property(arbCase, ({ chart, directory }) => {
        const patient = chart.patient;
        const resources: fhir.FhirResource[] = [toFhirPatient(patient)];
        for (const c of patient.coverages ?? []) resources.push(toFhirCoverage(c, patient), toFhirPayerOrganization(c.payer));
        for (const e of chart.encounters ?? []) {
          resources.push(toFhirEncounter(e, patient));
          e.diagnoses?.forEach((_, i) => resources.push(toFhirEncounterCondition(e, i, patient)));
          e.procedures?.forEach((_, i) => resources.push(toFhirProcedure(e, i, patient)));
        }
        for (const n of chart.notes ?? []) resources.push(toFhirComposition(n, patient), toFhirDocumentReference(n, patient));
        for (const a of chart.assessments ?? []) {
          resources.push(toFhirQuestionnaireResponse(a, patient), toFhirQuestionnaire(a.instrument, a.score ? { ...(a.score.code ? { code: a.score.code } : {}) } : undefined));
        }
        for (const h of chart.medicalHistory ?? []) resources.push(toFhirHistoryCondition(h, patient));
        for (const o of directory.organizations ?? []) resources.push(toFhirOrganization(o));
        for (const p of directory.practitioners ?? []) resources.push(toFhirPractitioner(p));
        for (const l of directory.locations ?? []) resources.push(toFhirLocation(l));
        for (const r of resources) {
          const findings = validateFhir(r);
          expect(findings, `${r.resourceType}: ${describeFindings(findings)}`).toEqual([]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
