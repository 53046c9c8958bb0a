import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIssuePath } from '../../src/errors.js';
import { checkChartDocument, checkDirectory, checkPatientChart } from '../../src/validation/chart.js';
import { arbChartDocument, arbDirectory, arbPatientChart } from './index.js';

const show = (issues: readonly { path: readonly (string | number)[]; message: string }[]): string[] => issues.map((i) => `${formatIssuePath(i.path)}: ${i.message}`);

describe('arbPatientChart', () => {
  it('should generate charts that pass checkPatientChart', () => {
    fc.assert(
      fc.property(arbPatientChart(), ({ chart, directory }) => {
        expect(show(checkPatientChart(chart))).toEqual([]);
        expect(show(checkDirectory(directory))).toEqual([]);
        expect(show(checkChartDocument({ patients: [chart], directory }))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('arbChartDocument', () => {
  it('should generate documents that pass checkChartDocument', () => {
    fc.assert(
      fc.property(arbChartDocument(), (doc) => {
        expect(show(checkChartDocument(doc))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
  it('dir', () => {
    fc.assert(fc.property(arbDirectory(), (d) => { expect(show(checkDirectory(d))).toEqual([]); }), { numRuns: 200 });
  });
});
