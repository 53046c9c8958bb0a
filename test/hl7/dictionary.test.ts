/**
 * Every message the builders emit, checked against an independent encoding of the HL7 v2.5.1 definitions
 * (`hl7-dictionary`: segments, data types with component lengths, tables, message structures), next to the
 * package's own `checkHl7Message`. The generated charts of `roundtrip.test.ts` go through the same check.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildAdrA19, buildAdtA08, buildAdtA31, buildMdmT02, buildOruR01, type ChartDocument } from '../../src/index.js';
import { checkWithHl7Dictionary, unexpectedDictionaryFindings } from '../support/hl7-dictionary.js';
import { CHART, DIRECTORY } from './fixtures.js';

const NOW = '2026-03-01T10:30:00-05:00';
const text = (...segments: string[]): string => `${segments.join('\r')}\r`;
const rules = (message: string): string[] => checkWithHl7Dictionary(message).map((f) => `${f.rule} ${f.position}`);

const MSH = 'MSH|^~\\&|APP|FAC|||20260301103000-0500||MDM^T02^MDM_T02|MDM1|P|2.5.1';
const EVN = 'EVN|T02|20260301103000-0500';
const PID = 'PID|1||MRN-1^^^&1.2.3&ISO^MR||Smith^Ann';
const PV1 = 'PV1|1|N';
const TXA = 'TXA|1|PR|TX|||||||||note-1|||||AU';
const OBX = 'OBX|1|TX|11506-3^Progress note^LN||text||||||F';

describe('the dictionary check itself', () => {
  it('should accept a conforming MDM^T02', () => {
    expect(rules(text(MSH, EVN, PID, PV1, TXA, OBX))).toEqual([]);
  });

  it('should report a segment out of its place in the structure, and one the structure lacks', () => {
    expect(rules(text(MSH, EVN, PID, TXA, PV1, OBX))).toEqual(['structure message']);
    expect(rules(text(MSH, EVN, PID, PV1, TXA))).toEqual(['structure message']);
  });

  it('should report component lengths, repetitions, required fields, tables and formats', () => {
    const long = 'x'.repeat(21);
    expect(rules(text(MSH, EVN, PID, PV1, TXA, `OBX|1|TX|${long}^Progress note^LN||text||||||F`))).toEqual(['length OBX-3.1']);
    expect(rules(text(MSH, EVN, PID, PV1, TXA, 'OBX|1|TX|11506-3^Progress note^LN~X^Y^LN||text||||||F'))).toEqual(['repetition OBX-3']);
    expect(rules(text(MSH, EVN, PID, PV1, TXA, 'OBX|1|TX|11506-3^Progress note^LN||text'))).toEqual(['required OBX-11']);
    expect(rules(text(MSH, EVN, PID, PV1, TXA, 'OBX|1|TX|11506-3^Progress note^LN||text||||||Q'))).toEqual(['table OBX-11']);
    expect(rules(text(MSH, 'EVN|T02|2026-03-01', PID, PV1, TXA, OBX))).toEqual(['format EVN-2.1']);
    expect(rules(text(MSH, EVN, `PID|1||MRN-1^^^&1.2.3&ISO^MR||${'y'.repeat(51)}^Ann`, PV1, TXA, OBX))).toEqual(['length PID-5.1.1']);
  });

  it('should take v2.5.1 values the dictionary tables (from a later version) lack', () => {
    expect(rules(text(MSH, EVN, PID, PV1, TXA, 'OBX|1|CE|11506-3^Progress note^LN||Y^Yes^HL70136||||||F'))).toEqual([]);
    expect(rules(text(MSH, EVN, PID, PV1, TXA, 'OBX|1|CE|11506-3^Progress note^LN||Y^Yes^99ABC||||||F'))).toEqual([]);
    expect(rules(text(MSH, EVN, PID, PV1, TXA, 'OBX|1|CE|11506-3^Progress note^LN||Y^Yes^XYZ||||||F'))).toEqual(['table OBX-5.3']);
  });
});

describe('the builders against hl7-dictionary v2.5.1', () => {
  it('should emit conforming messages for the example chart', () => {
    const o = { now: NOW, directory: DIRECTORY };
    for (const m of [
      buildAdtA31(CHART, o),
      buildAdtA08(CHART, 'enc-0001', o),
      buildMdmT02(CHART, 'note-0001', o),
      buildOruR01(CHART, 'asmt-0001', o),
      buildAdrA19(CHART, o),
      buildAdrA19(CHART, { ...o, limit: 2 }),
    ]) {
      expect(checkWithHl7Dictionary(m)).toEqual([]);
    }
  });

  it('should emit conforming messages for every record of the demo chart', () => {
    const doc = JSON.parse(readFileSync(new URL('../../examples/data/demo-chart.json', import.meta.url), 'utf8')) as ChartDocument;
    const o = { now: NOW, ...(doc.directory === undefined ? {} : { directory: doc.directory }) };
    let messages = 0;
    for (const chart of doc.patients) {
      const all = [buildAdtA31(chart, o), buildAdrA19(chart, o)];
      for (const e of chart.encounters ?? []) all.push(buildAdtA08(chart, e.id, o));
      for (const n of chart.notes ?? []) all.push(buildMdmT02(chart, n.id, o));
      for (const a of chart.assessments ?? []) all.push(buildOruR01(chart, a.id, o));
      for (const m of all) expect(unexpectedDictionaryFindings(m)).toEqual([]);
      messages += all.length;
    }
    expect(messages).toBeGreaterThan(300);
  });
});
