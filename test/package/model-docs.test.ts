/**
 * The doc comments of the chart model (what editors show on hover, and what the published .d.ts carries) say
 * what the check does: every `{@link X}` names a model export, and the date-time rules of `IsoDateTime`,
 * `ClinicalNote.authored` and `Assessment.authored` hold for the chart check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPatientChart, type PatientChart } from '../../src/index.js';
import { CHART } from '../hl7/fixtures.js';

const MODEL = fileURLToPath(new URL('../../src/model/', import.meta.url));
const sources = readdirSync(MODEL).map((f) => ({ file: f, text: readFileSync(`${MODEL}${f}`, 'utf8') }));
/** Type and value names declared in src/model. */
const declared = new Set(sources.flatMap(({ text }) => [...text.matchAll(/^export (?:interface|type|const) (\w+)/gm)].map((m) => m[1] as string)));

function note(authored: string): PatientChart {
  return {
    patient: CHART.patient,
    notes: [{ id: 'n-1', type: 'progress-note', title: 'Progress note', status: 'final', authored, text: 'Text.' }],
  };
}
function assessment(authored: string): PatientChart {
  return {
    patient: CHART.patient,
    assessments: [{ id: 'a-1', instrument: { id: 'i-1', title: 'Instrument' }, status: 'completed', authored, answers: [] }],
  };
}
const issuesAt = (chart: PatientChart): string[] => checkPatientChart(chart).map((i) => i.path.join('.'));

describe('model doc comments', () => {
  it('should link only to types and code sets that the model exports', () => {
    for (const { file, text } of sources) {
      for (const [, name] of text.matchAll(/\{@link (\w+)/g)) {
        expect(declared.has(name as string), `${file}: {@link ${name}}`).toBe(true);
      }
    }
  });

  it("should accept IsoDateTime's examples and refuse a time without seconds or without an offset", () => {
    const doc = (sources.find((s) => s.file === 'common.ts') as { text: string }).text.split('export type IsoDateTime')[0] ?? '';
    const examples = [...doc.slice(doc.lastIndexOf('/**')).matchAll(/@example '([^']+)'/g)].map((m) => m[1] as string);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) expect(issuesAt(note(example)), example).toEqual([]);
    for (const refused of ['2026-03-01T09:30-05:00', '2026-03-01T09:30:00', '2026-03-01T09:30:00.12345Z', '2026-02-30']) {
      expect(issuesAt(note(refused)), refused).toEqual(['notes.0.authored']);
    }
  });

  it('should accept a date alone as ClinicalNote.authored and Assessment.authored, as their comments say', () => {
    for (const date of ['2026', '2026-03', '2026-03-01']) {
      expect(issuesAt(note(date)), date).toEqual([]);
      expect(issuesAt(assessment(date)), date).toEqual([]);
    }
  });
});
