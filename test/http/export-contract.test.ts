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
import { checkChartDocument } from '../../src/index.js';
import { arbChartDocument } from '../../src/testing/chart.js';
import { runs } from '../support/runs.js';
import { describeMatrix, type Mode } from './support/harness.js';
import { routeFailures, serveDocument } from './support/every-route.js';

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
