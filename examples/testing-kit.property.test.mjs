// Property tests a team would write for its own HL7 v2 / FHIR pipeline with chart-export/testing and Vitest:
// generated charts (hostile text, every record kind), invalid documents with the paths a check must report,
// and the kit's property helpers, whose failures name the path and value that broke.
//
//   npm run build && npx vitest run test/examples/testing-kit.test.ts
//
// (This repository's vitest config only collects test/, so test/examples/testing-kit.test.ts imports this
// file. In a project of your own, `npm install --save-dev fast-check`, put it with your tests and run it as
// you run them; under node:test, use `fc.assert` the same way inside `test(...)`.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartValidationError, buildAdtA31, buildFhirPatientBundle, formatIssuePath, validateChartDocument } from 'chart-export';
import {
  assertBundleReferencesResolve,
  assertEscapeRoundTrip,
  assertHl7ReadsBack,
  hl7Delimiters,
  hl7Text,
  invalidChartDocument,
  patientChart,
} from 'chart-export/testing';

const NOW = '2026-03-01T10:00:00-05:00';

/** "Your pipeline": a chart goes out as an HL7 ADT^A31 message and a FHIR patient Bundle. */
function sendPatient(chart, directory) {
  return {
    hl7: buildAdtA31(chart, { now: NOW, controlId: 'ADT1', directory }),
    bundle: buildFhirPatientBundle(chart, { now: NOW, directory }),
  };
}

/** "Your intake": a document is checked before anything is stored; the issue paths it reports. */
function intakeIssuePaths(document) {
  try {
    validateChartDocument(document);
    return [];
  } catch (error) {
    if (!(error instanceof ChartValidationError)) throw error;
    return [...new Set(error.issues.map((issue) => formatIssuePath(issue.path)))].sort();
  }
}

describe('HL7 escaping in the pipeline', () => {
  it('should round-trip hostile text under any delimiter set', () => {
    fc.assert(fc.property(hl7Text({ kind: 'hostile' }), hl7Delimiters(), (text, delimiters) => {
      assertEscapeRoundTrip(text, delimiters);
    }));
  });
});

describe('sendPatient', () => {
  it('should send every family and given name so that a receiver reads them back', () => {
    fc.assert(
      fc.property(patientChart({ text: 'realistic', mappable: true }), ({ chart, directory }) => {
        const expected = {};
        chart.patient.names.forEach((name, i) => {
          // A name without a family name is sent from its text instead; check the structured ones.
          if (name.family === undefined) return;
          expected[`PID-5[${i + 1}].1`] = name.family;
          expected[`PID-5[${i + 1}].2`] = name.given?.[0] ?? '';
        });
        assertHl7ReadsBack(sendPatient(chart, directory).hl7, expected);
      }),
    );
  });

  it('should send Bundles whose references all resolve, whatever the text', () => {
    fc.assert(
      fc.property(patientChart({ text: 'hostile', mappable: true }), ({ chart, directory }) => {
        assertBundleReferencesResolve(sendPatient(chart, directory).bundle);
      }),
    );
  });
});

describe('intake', () => {
  it('should refuse an invalid document at exactly the paths where it is broken', () => {
    fc.assert(
      fc.property(invalidChartDocument(), ({ document, expectedPaths, rule }) => {
        expect(intakeIssuePaths(document), rule).toEqual(expectedPaths);
      }),
    );
  });
});
