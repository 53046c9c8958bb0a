/**
 * The ADR^A19 OBX numbering rule of the chart check: the notes and assessments of one summary group share one
 * OBX-1 numbering (4 digits), so the check refuses a group needing more than 9 999 OBX, and whatever it accepts
 * buildAdrA19 numbers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAdrA19, checkChartDocument, formatIssuePath, type ClinicalNote, type PatientChart } from '../../src/index.js';
import { textValues } from '../../src/hl7/segments/obx.js';
import { noteObxBound } from '../../src/validation/summary-rules.js';
import { runs } from '../support/runs.js';

const PATIENT: PatientChart['patient'] = {
  id: 'pat-1',
  identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1', type: 'MR' }],
  names: [{ family: 'Rivera', given: ['Ana'] }],
};

const note = (i: number, encounterId?: string): ClinicalNote => ({
  id: `note-${i}`,
  type: 'progress-note',
  title: 'Progress note',
  status: 'final',
  authored: '2026-03-01T10:15:00-05:00',
  text: `Note ${i}`,
  ...(encounterId === undefined ? {} : { encounterId }),
});

const chartWith = (notes: ClinicalNote[]): PatientChart => ({ patient: PATIENT, notes });

describe('ADR^A19 OBX numbering in the chart check', () => {
  it('should accept a group of 9 999 one-OBX notes, which buildAdrA19 numbers to OBX-1 9999', () => {
    const chart = chartWith(Array.from({ length: 9_999 }, (_, i) => note(i)));
    expect(checkChartDocument({ patients: [chart] })).toEqual([]);
    const obx = buildAdrA19(chart, { now: '2026-03-02T12:00:00Z', controlId: 'ADR1' }).split('\r').filter((s) => s.startsWith('OBX|'));
    expect(obx).toHaveLength(9_999);
    expect(obx.at(-1)?.startsWith('OBX|9999|')).toBe(true);
  });

  it('should refuse a group of 10 000 notes with the path of the notes, and count groups per encounter', () => {
    const tooMany = chartWith(Array.from({ length: 10_000 }, (_, i) => note(i)));
    expect(checkChartDocument({ patients: [tooMany] }).map((i) => `${formatIssuePath(i.path)} ${i.code}`)).toEqual(['patients[0].notes range']);
    // The same notes in two groups (5 000 of them in an encounter) fit.
    const split: PatientChart = {
      ...chartWith(Array.from({ length: 10_000 }, (_, i) => note(i, i % 2 === 0 ? 'enc-1' : undefined))),
      encounters: [{ id: 'enc-1', status: 'finished', class: 'AMB', period: { start: '2026-03-01T09:00:00-05:00' } }],
    };
    expect(checkChartDocument({ patients: [split] })).toEqual([]);
    expect(buildAdrA19(split, { now: '2026-03-02T12:00:00Z', controlId: 'ADR1' }).split('\r').filter((s) => s.startsWith('OBX|'))).toHaveLength(10_000);
  });

  it('should bound the OBX of any note text from above (never accept what the builder cannot number)', () => {
    expect(noteObxBound('x'.repeat(14_285))).toBe(1);
    expect(noteObxBound('x'.repeat(14_286))).toBeGreaterThan(1);
    const line = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 20_000, maxLength: 60_000 }), fc.constant('|'.repeat(40_000)), fc.constant('\u0085'.repeat(20_000)));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const text = lines.join('\n');
        expect(textValues(text).length).toBeLessThanOrEqual(noteObxBound(text));
      }),
      { numRuns: runs(40) },
    );
  });
});
