/**
 * "Every chart the check accepts exports everywhere", over HTTP: a chart document `checkChartDocument` accepts,
 * served by `createExportHandler` over `createInMemoryDataSource`, answers 200 on every route for every record
 * of every patient (and the directory for each resource type), with FHIR that validates and HL7 that passes
 * `checkHl7Message` (the documented length deviations aside). The documents come from the testing kit with no
 * fitting step (`mappable` unset): whatever the generators make that the check accepts must serve. The builders'
 * half is test/validation/export-contract.test.ts; the hostile corpus is test/http/hostile-corpus.test.ts.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  buildAdrA19,
  buildFhirAssessmentExport,
  buildFhirEncounterExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  buildOruR01,
  checkChartDocument,
  type ChartDocument,
  type PatientChart,
} from '../../src/index.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { exportFailures } from '../support/export-all.js';
import { BASE_DOCUMENT, changed } from '../support/hostile-corpus.js';
import { runs } from '../support/runs.js';
import { KEYS } from './support/fixture.js';
import { describeMatrix, type Mode } from './support/harness.js';
import { routeFailures, routeRequests, serveDocument } from './support/every-route.js';

describeMatrix('every chart document the check accepts, served', (mode: Mode) => {
  for (const text of ['realistic', 'hostile'] as const) {
    it(`should answer 200 with a valid body on every route for every record (${text} text and ids, no fitting step)`, async () => {
      await fc.assert(
        fc.asyncProperty(arbChartDocument({ text, maxPatients: 2 }), async (doc) => {
          fc.pre(checkChartDocument(doc).length === 0);
          const call = await serveDocument(doc, mode);
          expect(await routeFailures(call, doc)).toEqual([]);
        }),
        { numRuns: runs(mode === 'fetch' ? 40 : 10), endOnFailure: true },
      );
    }, 600_000);
  }
});

/** A JSON number `-0` anywhere in a JSON text (a value, or an array element). */
const JSON_MINUS_ZERO = /[:[,]\s*-0(?![\d.eE])/;

/** The OBX-5 values of the NM OBX segments of an HL7 message, and whether any field or component is `-0`. */
function nmValues(message: string): { values: string[]; minusZero: boolean } {
  const segments = message.split('\r').filter((s) => s !== '');
  const values = segments.filter((s) => s.startsWith('OBX|') && s.split('|')[2] === 'NM').map((s) => s.split('|')[5] as string);
  return { values, minusZero: segments.some((s) => s.split(/[|^~&]/).includes('-0')) };
}

describeMatrix('a score or answer of -0', (mode: Mode) => {
  // The score, a decimal answer parsed from JSON text (`JSON.parse('-0')`), an integer answer and a coded answer's score.
  const doc: ChartDocument = changed(BASE_DOCUMENT, (d) => {
    const a = d.patients[0].assessments[0];
    a.score.value = -0;
    a.answers[1].value.value = JSON.parse('-0');
    a.answers[2].value.value = -0;
    a.answers[3].value.value.score = -0;
  });
  const chart = doc.patients[0] as PatientChart;
  const now = '2026-03-02T12:00:30Z';

  it('should be accepted and reach every builder as 0 (FHIR JSON 0, HL7 NM 0)', () => {
    expect(Object.is(chart.assessments![0]!.answers[1]!.value.value, -0)).toBe(true);
    expect(checkChartDocument(doc)).toEqual([]);
    expect(exportFailures(doc)).toEqual([]);
    const fhir = [
      buildFhirAssessmentExport(chart, 'asmt-1', { now }),
      buildFhirPatientBundle(chart, { now, directory: doc.directory }),
      buildFhirPatientExport(chart, { now }),
      buildFhirEncounterExport(chart, 'enc-1', { now }),
    ].map((b) => JSON.stringify(b));
    for (const json of fhir) expect(json).not.toMatch(JSON_MINUS_ZERO);
    for (const json of fhir.slice(0, 2)) {
      expect(json).toMatch(/"valueDecimal":0[,}]/);
      expect(json).toMatch(/"valueInteger":0[,}]/);
    }
    for (const message of [buildOruR01(chart, 'asmt-1', { now, controlId: 'ORU1' }), buildAdrA19(chart, { now, controlId: 'ADR1' })]) {
      const { values, minusZero } = nmValues(message);
      expect(minusZero).toBe(false);
      // Score, decimal answer and integer answer: 0; the coded answer is CE, the other decimal answer none here.
      expect(values.filter((v) => v === '0').length).toBeGreaterThanOrEqual(3);
    }
  });

  it('should reach every route as 0, also when the answer comes from a proven template (asked twice)', async () => {
    const call = await serveDocument(doc, mode);
    expect(await routeFailures(call, doc)).toEqual([]);
    for (let round = 0; round < 2; round++) {
      for (const r of routeRequests(doc)) {
        const res = await call(r.target, { headers: { 'x-api-key': KEYS.both } });
        if (r.format === 'fhir') expect(res.body, r.target).not.toMatch(JSON_MINUS_ZERO);
        else expect(nmValues(res.body).minusZero, r.target).toBe(false);
        if (r.target.startsWith('/exportFhirAssessment') || r.target.startsWith('/exportFhirPatientBundle')) {
          expect(res.body).toMatch(/"valueDecimal":0[,}]/);
          expect(res.body).toMatch(/"valueInteger":0[,}]/);
        }
        if (r.target.startsWith('/exportHl7Assessment') || r.target.startsWith('/exportHl7PatientSummary')) {
          expect(nmValues(res.body).values.filter((v) => v === '0').length, r.target).toBeGreaterThanOrEqual(3);
        }
      }
    }
  });
});
