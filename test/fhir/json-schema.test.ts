/**
 * Every resource the Bundle builders emit against the official FHIR R4 JSON schema, a second
 * definition independent of the StructureDefinition-based validator of conformance.test.ts.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateChartDocument } from '../../src/index.js';
import { arbPatientChart } from '../../src/testing/charts.js';
import { allBundles } from '../support/fhir-bundles.js';
import { asciiSpacePattern, R4_RESOURCE_TYPE_COUNT, validateFhirJsonSchema } from '../support/fhir-json-schema.js';
import { runs } from '../support/runs.js';

const NOW = '2026-03-01T15:00:00.123-05:00';

describe('the R4 JSON schema check', () => {
  it('should keep the R4 resource types and refuse what R4 refuses', () => {
    expect(R4_RESOURCE_TYPE_COUNT()).toBeGreaterThan(140);
    expect(validateFhirJsonSchema({ resourceType: 'Patient', gender: 'female', birthDate: '1984-07-02' })).toEqual([]);
    // R4's string pattern is `[ \r\n\t\S]+` with ASCII `\s`: a no-break space is a valid string character.
    expect(asciiSpacePattern('^[ \\r\\n\\t\\S]+$')).toBe('^[ \\r\\n\\t\\u0000-\\u0008\\u000E-\\u001F\\u0021-\\u{10FFFF}]+$');
    expect(validateFhirJsonSchema({ resourceType: 'Patient', name: [{ family: 'Nuñez\u00a0García\u3000X' }] })).toEqual([]);
    expect(validateFhirJsonSchema({ resourceType: 'Patient', name: [{ family: 'a\u000bb' }] })).not.toEqual([]);
    for (const bad of [
      { resourceType: 'Patient', gender: 'f' },
      { resourceType: 'Patient', birthDate: '1984-13-02' },
      { resourceType: 'Patient', name: [{ family: 42 }] },
      { resourceType: 'Patient', unknownElement: true },
      { resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'Nope/1', resource: { resourceType: 'Nope' } }] },
      { resourceType: 'Bundle', type: 'collection', timestamp: '2026-03-01T15:00:00' },
    ]) {
      expect(validateFhirJsonSchema(bad), JSON.stringify(bad)).not.toEqual([]);
    }
  });
});

describe('FHIR output against the R4 JSON schema', () => {
  it('should validate every Bundle of generated charts, realistic and hostile, with and without the strict options', () => {
    const arbCase = fc.oneof(
      arbPatientChart({ text: 'realistic', ids: 'realistic', mappable: true }),
      arbPatientChart({ text: 'hostile', danglingReferences: true, mappable: true }),
    );
    fc.assert(
      fc.property(arbCase, fc.boolean(), ({ chart, directory }, strict) => {
        const base = strict ? { now: NOW, baseUrl: 'https://fhir.example.org/r4', strictBundleTotal: true } : { now: NOW };
        for (const bundle of allBundles(chart, directory, base)) {
          const errors = validateFhirJsonSchema(bundle);
          expect(errors, `${bundle.type} ${bundle.entry?.map((e) => e.resource?.resourceType).join(',')}`).toEqual([]);
        }
      }),
      { numRuns: runs(40) },
    );
  });

  it('should validate every Bundle of the demo chart', () => {
    const doc = validateChartDocument(JSON.parse(readFileSync(new URL('../../examples/data/demo-chart.json', import.meta.url), 'utf8')));
    let count = 0;
    for (const chart of doc.patients) {
      for (const bundle of allBundles(chart, doc.directory ?? {}, { now: NOW })) {
        expect(validateFhirJsonSchema(bundle)).toEqual([]);
        count += 1 + (bundle.entry?.length ?? 0);
      }
    }
    expect(count).toBeGreaterThan(1000);
  });
});
