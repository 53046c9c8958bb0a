/**
 * Every builder for every record of a chart document, with what went wrong: a builder that threw, an HL7
 * message that `checkHl7Message` faults, a FHIR Bundle the validator faults. The contract these helpers test:
 * whatever `checkChartDocument` accepts, every builder exports.
 */
import {
  buildAdrA19,
  buildAdtA08,
  buildAdtA31,
  buildFhirAssessmentExport,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  buildMdmT02,
  buildOruR01,
  checkHl7Message,
  isHl7LengthDeviation,
  type ChartDocument,
  type PatientChart,
} from '../../src/index.js';
import { validateFhir } from './fhir-validator.js';

/** One failed export: which builder, for which record, and what failed. */
export interface ExportFailure {
  readonly builder: string;
  readonly record: string;
  readonly problem: string;
}

const NOW = '2026-03-02T12:00:30Z';

/**
 * Run every builder for every record of `doc` and list the failures.
 * @param doc - a chart document the check accepts
 * @param fhirValidation - also validate the FHIR Bundles (slow on big charts)
 */
export function exportFailures(doc: ChartDocument, fhirValidation = true): ExportFailure[] {
  const failures: ExportFailure[] = [];
  const directory = doc.directory;
  const hl7 = (code: string) => ({ now: NOW, controlId: `${code}1`, directory });
  // Absolute fullUrls and no Bundle.total off searchsets: the options under which the FHIR output validates.
  const fhirOptions = { now: NOW, directory, baseUrl: 'https://example.org/fhir', strictBundleTotal: true };
  const run = (builder: string, record: string, kind: 'hl7' | 'fhir', make: () => unknown): void => {
    let out: unknown;
    try {
      out = make();
    } catch (e) {
      failures.push({ builder, record, problem: `threw ${(e as Error).name}: ${(e as Error).message}` });
      return;
    }
    if (kind === 'hl7') {
      const faults = checkHl7Message(out as string).filter((p) => !isHl7LengthDeviation(p));
      if (faults.length > 0) failures.push({ builder, record, problem: JSON.stringify(faults.slice(0, 3)) });
    } else if (fhirValidation) {
      const findings = validateFhir(out as object).filter((f) => f.severity === 'error');
      if (findings.length > 0) failures.push({ builder, record, problem: JSON.stringify(findings.slice(0, 3)) });
    }
  };
  for (const chart of doc.patients as PatientChart[]) {
    const id = chart.patient.id;
    run('buildAdtA31', id, 'hl7', () => buildAdtA31(chart, hl7('ADT')));
    run('buildAdrA19', id, 'hl7', () => buildAdrA19(chart, hl7('ADR')));
    run('buildFhirPatientExport', id, 'fhir', () => buildFhirPatientExport(chart, fhirOptions));
    run('buildFhirPatientBundle', id, 'fhir', () => buildFhirPatientBundle(chart, fhirOptions));
    for (const e of chart.encounters ?? []) {
      run('buildAdtA08', e.id, 'hl7', () => buildAdtA08(chart, e.id, hl7('ADT')));
      run('buildFhirEncounterExport', e.id, 'fhir', () => buildFhirEncounterExport(chart, e.id, fhirOptions));
    }
    for (const n of chart.notes ?? []) {
      run('buildMdmT02', n.id, 'hl7', () => buildMdmT02(chart, n.id, hl7('MDM')));
      run('buildFhirNoteExport', n.id, 'fhir', () => buildFhirNoteExport(chart, n.id, fhirOptions));
    }
    for (const a of chart.assessments ?? []) {
      run('buildOruR01', a.id, 'hl7', () => buildOruR01(chart, a.id, hl7('ORU')));
      run('buildFhirAssessmentExport', a.id, 'fhir', () => buildFhirAssessmentExport(chart, a.id, fhirOptions));
    }
  }
  return failures;
}
