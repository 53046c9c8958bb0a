/**
 * `checkHl7Message` on components: the hand-typed v2.5.1 component table (src/hl7/definitions.ts) against
 * hl7-dictionary's v2.5.1 data types, one test per rule (lengths of components and sub-components as sent,
 * the HL7 null, components a type does not have, OBX-5 by OBX-2, the message's own delimiters), a
 * differential property against the independent hl7-dictionary check, and messages built from generated
 * charts, which keep every component length but the documented deviations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPOSITE_DATA_TYPES, dataTypeComponents, segmentFields } from '../../src/hl7/conformance/definitions.js';
import {
  buildAdrA19,
  buildAdtA08,
  buildAdtA31,
  buildMdmT02,
  buildOruR01,
  ChartValidationError,
  checkHl7Message,
  MappingError,
  type Hl7Problem,
  type PatientChart,
  type Directory,
  isHl7LengthDeviation,
} from '../../src/index.js';
import { arbPatientChart } from '../../src/testing/charts.js';
import { checkWithHl7Dictionary, V251 } from '../support/hl7-dictionary.js';
import { conformanceProblems } from './support.js';
import { runs } from '../support/runs.js';

/** The segments the check knows. */
const SEGMENTS = ['MSH', 'EVN', 'PID', 'PV1', 'DG1', 'PR1', 'IN1', 'TXA', 'OBR', 'OBX', 'NTE', 'MSA', 'QRD'];
/** OBX-2 value types of table 0125 (v2.5.1). */
const VALUE_TYPES = ['AD', 'CE', 'CF', 'CK', 'CN', 'CP', 'CX', 'DT', 'ED', 'FT', 'MO', 'NM', 'PN', 'RP', 'SN', 'ST', 'TM', 'TN', 'TS', 'TX', 'XAD', 'XCN', 'XON', 'XPN', 'XTN'];
/** Types the table leaves out, as documented in definitions.ts: OBX-5's `varies`, MSA-5's withdrawn NULLDT, and the withdrawn value types. */
const UNCHECKED = ['varies', 'NULLDT', 'CK', 'CN', 'PN', 'TN'];

const msh = (type: string): string => `MSH|^~\\&|APP|FAC|||20260301103000-0500||${type}|CTRL1|P|2.5.1`;
const text = (...segments: string[]): string => `${segments.join('\r')}\r`;
/** An ADT^A31 with this PID (and optional segments after PV1). */
const adt = (pid: string, ...more: string[]): string => text(msh('ADT^A31^ADT_A05'), 'EVN|A31|2026', pid, 'PV1|1|N', ...more);
/** An ORU^R01 with this OBX. */
const oru = (obx: string): string => text(msh('ORU^R01^ORU_R01'), 'PID|1||MRN-1||Smith', 'OBR|1||x|A^B^L', obx);
const codes = (problems: Hl7Problem[]): string[] => problems.map((p) => `${p.code} ${p.position ?? ''} @${p.segmentIndex}`);
const x = (n: number): string => 'x'.repeat(n);
const NOW = '2026-03-01T10:30:00-05:00';

/** Every message the builders make of a chart; a chart or record they refuse (documented) gives none. */
function buildAll(chart: PatientChart, directory: Directory, sendingApplication: string | undefined): string[] {
  const o = { now: NOW, directory, sendingApplication };
  const attempts: (() => string)[] = [
    () => buildAdtA31(chart, o),
    () => buildAdrA19(chart, { ...o, queryId: 'Q1' }),
    ...(chart.encounters ?? []).map((e) => () => buildAdtA08(chart, e.id, o)),
    ...(chart.notes ?? []).map((n) => () => buildMdmT02(chart, n.id, o)),
    ...(chart.assessments ?? []).map((a) => () => buildOruR01(chart, a.id, o)),
  ];
  return attempts.flatMap((make) => {
    try {
      return [make()];
    } catch (e) {
      if (e instanceof MappingError || e instanceof ChartValidationError) return [];
      throw e;
    }
  });
}

describe('the v2.5.1 component table', () => {
  it('should agree with hl7-dictionary on every type it encodes: component count, data types and lengths', () => {
    expect(COMPOSITE_DATA_TYPES.length).toBeGreaterThan(0);
    for (const type of COMPOSITE_DATA_TYPES) {
      const ours = dataTypeComponents(type)?.map((c) => `${c.type} ${c.maxLength}`);
      const theirs = V251.fields[type]?.subfields.map((c) => `${c.datatype} ${String(c.len)}`);
      expect(ours, type).toEqual(theirs);
    }
  });

  it('should know as primitive only types hl7-dictionary has no components for', () => {
    for (const type of ['ST', 'TX', 'FT', 'ID', 'IS', 'NM', 'SI', 'DT', 'DTM', 'TM']) {
      expect(dataTypeComponents(type), type).toEqual([]);
      expect(V251.fields[type]?.subfields, type).toEqual([]);
    }
  });

  it('should cover every data type of the known segments, their components and the OBX-2 value types, but the documented ones', () => {
    // Arrange: every type reachable from the fields of the known segments and from table 0125.
    const seen = new Set<string>();
    const queue = [...SEGMENTS.flatMap((id) => (segmentFields(id) ?? []).map((f) => f.type)), ...VALUE_TYPES];
    const missing = new Set<string>();
    // Act
    while (queue.length > 0) {
      const type = queue.pop() as string;
      if (seen.has(type)) continue;
      seen.add(type);
      const components = dataTypeComponents(type);
      if (components === undefined) missing.add(type);
      for (const c of components ?? []) queue.push(c.type);
    }
    // Assert: nothing is missing but the documented types, and nothing in the table is unreachable.
    expect([...missing].sort()).toEqual([...UNCHECKED].sort());
    for (const type of COMPOSITE_DATA_TYPES) expect(seen.has(type), type).toBe(true);
  });

  it('should not read Object.prototype members as types', () => {
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expect(dataTypeComponents(type)).toBeUndefined();
  });
});

describe('checkHl7Message on components', () => {
  it('should report a component one character over its limit at its position, and not one exactly at it', () => {
    // PID-5 XPN: XPN.3 (ST 30); PID-3 CX: CX.1 (ST 15).
    expect(checkHl7Message(adt(`PID|1||${x(15)}||Smith^Ann^${x(30)}`))).toEqual([]);
    const problems = checkHl7Message(adt(`PID|1||${x(16)}||Smith^Ann^${x(31)}`));
    expect(codes(problems)).toEqual(['max-length PID-3.1 @2', 'max-length PID-5.3 @2']);
    expect(problems[1]?.message).toBe('PID-5.3 (XPN.3, ST) is longer than the 30 characters v2.5.1 allows (after escaping)');
  });

  it('should report a sub-component over its limit at its position, in every repetition', () => {
    // PID-5.1 FN: FN.1 surname (ST 50); PID-3.4 HD: HD.1 (IS 20), HD.2 (ST 199).
    expect(checkHl7Message(adt(`PID|1||MRN-1^^^${x(20)}&${x(199)}&ISO||${x(50)}&x^Ann~${x(50)}`))).toEqual([]);
    const problems = checkHl7Message(adt(`PID|1||MRN-1^^^${x(21)}&${x(200)}&ISO||${x(50)}&x^Ann~${x(51)}^^${x(31)}`));
    expect(codes(problems)).toEqual(['max-length PID-3.4.1 @2', 'max-length PID-3.4.2 @2', 'max-length PID-5(2).1.1 @2', 'max-length PID-5(2).3 @2']);
    expect(problems[2]?.message).toBe('PID-5(2).1.1 (FN.1, ST) is longer than the 50 characters v2.5.1 allows (after escaping)');
    // A composite component is held to its own length too: XPN.1 (FN) is 194.
    // Its sub-components' lengths add up to it, so only a sub-component it does not have can take it over.
    expect(checkHl7Message(adt(`PID|1||MRN-1||${x(50)}&${x(20)}&${x(50)}&${x(20)}&${x(50)}`))).toEqual([]);
    expect(codes(checkHl7Message(adt(`PID|1||MRN-1||${x(50)}&${x(20)}&${x(50)}&${x(20)}&${x(50)}&x`)))).toEqual([
      'max-length PID-5.1 @2',
      'unknown-field PID-5.1.6 @2',
    ]);
  });

  it('should count escapes as sent', () => {
    // XPN.7 name type (ID 1): `&` is one character of text, three as sent (\T\).
    expect(codes(checkHl7Message(adt('PID|1||MRN-1||Smith^Ann^^^^^\\T\\')))).toEqual(['max-length PID-5.7 @2']);
    // CE.1 (ST 20) in DG1-3: 17 characters and \T\ are 20 as sent; 18 and \T\ are 21.
    const dg1 = (code: string): string => `DG1|1||${code}^x^I10||2026|W`;
    expect(checkHl7Message(text(msh('ADT^A08^ADT_A01'), 'EVN|A08|2026', 'PID|1||MRN-1||Smith', 'PV1|1|O', dg1(`${x(17)}\\T\\`)))).toEqual([]);
    expect(codes(checkHl7Message(text(msh('ADT^A08^ADT_A01'), 'EVN|A08|2026', 'PID|1||MRN-1||Smith', 'PV1|1|O', dg1(`${x(18)}\\T\\`))))).toEqual(['max-length DG1-3.1 @4']);
  });

  it('should read the HL7 null "" as no value in a component and in a sub-component', () => {
    // XPN.7 (ID 1), CX.2 (ST 1); OBR-27 TQ.10 OSD, OSD.1 (ID 1).
    expect(checkHl7Message(adt('PID|1||MRN-1^""||Smith^Ann^^^^^""'))).toEqual([]);
    const obr = (osd: string): string => text(msh('ORU^R01^ORU_R01'), 'PID|1||MRN-1||Smith', `OBR|1||x|A^B^L${'|'.repeat(23)}^^^^^^^^^${osd}`, 'OBX|1|ST|x^y^L||v||||||F');
    expect(checkHl7Message(obr('""&A'))).toEqual([]);
    expect(codes(checkHl7Message(obr('XY&A')))).toEqual(['max-length OBR-27.10.1 @2']);
  });

  it('should report components and sub-components a type does not have, only when valued', () => {
    // XPN has 14 components; PID-19 (ST) none; CE.1 (ST) no sub-components; HD (PID-3.4) three.
    expect(checkHl7Message(adt(`PID|1||MRN-1^^^A&1.2&ISO&&||Smith${'^'.repeat(20)}||||||||||||||1^`))).toEqual([]);
    const problems = checkHl7Message(adt(`PID|1||MRN-1^^^A&1.2&ISO&x||Smith${'^'.repeat(14)}x||||||||||||||1^2&3`));
    expect(codes(problems)).toEqual(['unknown-field PID-3.4.4 @2', 'unknown-field PID-5.15 @2', 'unknown-field PID-19.2 @2']);
    expect(problems[1]?.message).toBe('PID-5.15 does not exist in v2.5.1: XPN has 14 components');
    expect(problems[2]?.message).toBe('PID-19.2 does not exist in v2.5.1: ST is a primitive type without components');
    const dg1 = text(msh('ADT^A08^ADT_A01'), 'EVN|A08|2026', 'PID|1||MRN-1||Smith', 'PV1|1|O', 'DG1|1||F32.1&x^x^I10||2026|W');
    expect(codes(checkHl7Message(dg1))).toEqual(['unknown-field DG1-3.1.2 @4']);
  });

  it('should check OBX-5 by the type OBX-2 names', () => {
    // CE: CE.1 (ST 20); CX: CX.1 (ST 15), HD.1 (IS 20) in CX.4, 10 components; ST: the field's length only.
    expect(checkHl7Message(oru(`OBX|1|CE|x^y^L||${x(20)}^text^L||||||F`))).toEqual([]);
    expect(codes(checkHl7Message(oru(`OBX|1|CE|x^y^L||${x(21)}^text^L||||||F`)))).toEqual(['max-length OBX-5.1 @3']);
    expect(codes(checkHl7Message(oru(`OBX|1|CX|x^y^L||${x(16)}^^^${x(21)}&1.2&ISO~A${'^'.repeat(10)}x||||||F`)))).toEqual([
      'max-length OBX-5.1 @3',
      'max-length OBX-5.4.1 @3',
      'unknown-field OBX-5(2).11 @3',
    ]);
    expect(checkHl7Message(oru(`OBX|1|ST|x^y^L||${x(300)}||||||F`))).toEqual([]);
    expect(codes(checkHl7Message(oru('OBX|1|ST|x^y^L||a^b||||||F')))).toEqual(['unknown-field OBX-5.2 @3']);
    // A type whose format OBX-5 is checked against reports its extra components once, as a format problem.
    expect(codes(checkHl7Message(oru('OBX|1|NM|x^y^L||1^2||||||F')))).toEqual(['format OBX-5 @3']);
    // SN.2 (NM 15): well formed but too long.
    expect(codes(checkHl7Message(oru(`OBX|1|SN|x^y^L||>^1${'0'.repeat(15)}||||||F`)))).toEqual(['max-length OBX-5.2 @3']);
    // A type the check does not know (withdrawn CN) is not checked.
    expect(checkHl7Message(oru(`OBX|1|CN|x^y^L||${x(300)}^a^b||||||F`)).filter((p) => p.position?.startsWith('OBX-5'))).toEqual([]);
  });

  it('should split by the delimiters the message declares', () => {
    // Field #, component $, repetition *, escape !, sub-component %: `^`, `&` and `~` are text.
    const custom = (pid: string): string => `MSH#$*!%#APP#FAC###20260301103000-0500##ADT$A31$ADT_A05#CTRL1#P#2.5.1\rEVN#A31#2026\r${pid}\rPV1#1#N\r`;
    expect(checkHl7Message(custom(`PID#1##MRN-1$$$A%1.2%ISO##Sm^th&x~${x(42)}$Ann`))).toEqual([]);
    const problems = checkHl7Message(custom(`PID#1##MRN-1$$$${x(21)}%1.2%ISO##${x(51)}$Ann*Smith$${x(31)}`));
    expect(codes(problems)).toEqual(['max-length PID-3.4.1 @2', 'max-length PID-5.1.1 @2', 'max-length PID-5(2).2 @2']);
    expect(codes(checkHl7Message(custom('PID#1##MRN-1##Smith$$$$$$!S!')))).toEqual(['max-length PID-5.7 @2']);
  });

  it('should name positions and rules, never values', () => {
    const secret = 'Zq'.repeat(30);
    const problems = checkHl7Message(adt(`PID|1||${secret}||${secret}^${secret}^^^^^^^^^^^^^${secret}`));
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p.message).not.toContain('Zq');
  });
});

describe('checkHl7Message and hl7-dictionary on component lengths', () => {
  /** The fields both definitions type alike (HAPI's and hl7-dictionary's), MSH-1/2 and OBX-5 aside. */
  const FIELDS: [string, number][] = SEGMENTS.filter((id) => id !== 'MSH').flatMap((id) =>
    (segmentFields(id) ?? []).flatMap((f, i): [string, number][] => {
      const theirs = V251.segments[id]?.fields[i]?.datatype;
      return theirs === f.type && dataTypeComponents(f.type) !== undefined ? [[id, i + 1]] : [];
    }),
  );
  /** Lengths around the limits of the table, and any length. */
  const LENGTHS = [...new Set(COMPOSITE_DATA_TYPES.flatMap((t) => (dataTypeComponents(t) ?? []).flatMap((c) => [c.maxLength, c.maxLength + 1])))].filter((n) => n <= 250);
  const arbText = fc.oneof(fc.constantFrom(...LENGTHS), fc.integer({ min: 0, max: 30 })).map((n) => 'x'.repeat(n));
  const arbSub = fc.array(arbText, { minLength: 1, maxLength: 4 }).map((s) => s.join('&'));
  const arbRep = fc.array(arbSub, { minLength: 1, maxLength: 16 }).map((c) => c.join('^'));
  const arbField = fc.array(arbRep, { minLength: 1, maxLength: 2 }).map((r) => r.join('~'));
  const arbSegment = fc.oneof(
    fc.record({ at: fc.constantFrom(...FIELDS), value: arbField }).map(({ at: [id, n], value }) => `${id}${'|'.repeat(n)}${value}`),
    // OBX-5 by the type in OBX-2: composites, primitives and a withdrawn type.
    fc.record({ type: fc.constantFrom('CE', 'CX', 'XPN', 'XAD', 'XCN', 'XON', 'XTN', 'TS', 'SN', 'CP', 'ED', 'RP', 'MO', 'CF', 'AD', 'ST', 'TX', 'FT', 'CN'), value: arbField }).map(
      ({ type, value }) => `OBX|1|${type}|x^y^L||${value}`,
    ),
  );
  /** Component and sub-component length findings of either check, as `segment position` in checkHl7Message's notation. */
  const ours = (message: string): string[] =>
    checkHl7Message(message)
      .filter((p) => p.code === 'max-length' && p.position?.includes('.') === true)
      .map((p) => `${p.segmentIndex} ${p.position ?? ''}`)
      .sort();
  const theirs = (message: string): string[] =>
    checkWithHl7Dictionary(message)
      .filter((f) => f.rule === 'length' && f.position.includes('.'))
      .map((f) => `${f.segment} ${f.position.replace('[1]', '').replace(/\[(\d+)\]/, '($1)')}`)
      .sort();

  it('should find the same component and sub-component lengths over limit as the independent check', () => {
    expect(FIELDS.length).toBeGreaterThan(100);
    fc.assert(
      fc.property(fc.array(arbSegment, { minLength: 1, maxLength: 4 }), (segments) => {
        const message = text(msh('ADT^A31^ADT_A05'), ...segments);
        expect(ours(message)).toEqual(theirs(message));
      }),
      { numRuns: runs(500) },
    );
  });

  it('should find in messages built from generated charts no component problem but the documented deviations', () => {
    let deviations = 0;
    fc.assert(
      fc.property(arbPatientChart({ text: 'hostile', danglingReferences: true, maxEncounters: 2, maxNotes: 2 }), ({ chart, directory }) => {
        for (const message of buildAll(chart, directory, 'CHART')) {
          const problems = checkHl7Message(message);
          // Only the documented deviations, each also found by the independent check; nothing else at all.
          const component = problems.filter((p) => p.position?.includes('.') === true && (p.code === 'max-length' || p.code === 'unknown-field'));
          for (const p of component) expect(isHl7LengthDeviation(p), `${p.code} ${p.position ?? ''}`).toBe(true);
          expect(ours(message)).toEqual(theirs(message));
          expect(conformanceProblems(message)).toEqual([]);
          deviations += component.length;
        }
      }),
      { numRuns: runs(60) },
    );
    // The generated ids do reach the deviations, so the filter is exercised.
    expect(deviations).toBeGreaterThan(0);
  });
});

describe('checkHl7Message on the conditional rules of composite types', () => {
  it('should want OBX-2 valued unless OBX-11 is X (v2.5.1 7.4.2.2)', () => {
    const conditional = (obx: string): string[] => codes(checkHl7Message(oru(obx))).filter((c) => c.startsWith('conditional'));
    expect(conditional('OBX|1||A^Instrument^L|a1|||||||F')).toEqual(['conditional OBX-2 @3']);
    expect(conditional('OBX|1||A^Instrument^L|a1|||||||X')).toEqual([]);
    expect(conditional('OBX|1|CE|A^Instrument^L|a1|A^Instrument^L||||||F')).toEqual([]);
  });

  /** Segment text with the given fields (1-based) valued. */
  const seg = (id: string, fields: Record<number, string>): string => {
    const n = Math.max(...Object.keys(fields).map(Number));
    return [id, ...Array.from({ length: n }, (_, i) => fields[i + 1] ?? '')].join('|');
  };
  const pv1 = (fields: Record<number, string>): string => text(msh('ADT^A31^ADT_A05'), 'EVN|A31|2026', 'PID|1||MRN-1||Smith', seg('PV1', { 1: '1', 2: 'N', ...fields }));
  const rules = (problems: Hl7Problem[]): string[] => codes(problems.filter((p) => p.code === 'conditional' || (p.code === 'required-field' && p.position?.includes('.') === true)));

  it('should report an HD with HD-2 or HD-3 alone, as a component (sub-components) and as a field, at the empty one', () => {
    expect(checkHl7Message(adt('PID|1||MRN-1^^^&&ISO^MR||Smith'))).toEqual([expect.objectContaining({ code: 'conditional', position: 'PID-3.4.2', segmentIndex: 2 })]);
    expect(codes(checkHl7Message(adt('PID|1||MRN-1^^^&1.2.3^MR~MRN-2^^^APP&&URI^MR||Smith')))).toEqual(['conditional PID-3.4.3 @2', 'conditional PID-3(2).4.2 @2']);
    // MSH-4 is an HD field: its components are HD-1…3.
    expect(codes(checkHl7Message(text('MSH|^~\\&|APP|FAC^^ISO|||20260301103000-0500||ADT^A31^ADT_A05|C1|P|2.5.1', 'EVN|A31|2026', 'PID|1||MRN-1||Smith', 'PV1|1|N')))).toEqual([
      'conditional MSH-4.2 @0',
    ]);
    expect(codes(checkHl7Message(adt('PID|1||MRN-1||Smith').replace('EVN|A31|2026', 'EVN|A31|2026|||||^1.2.3')))).toEqual(['conditional EVN-7.3 @1']);
    // HD in other composites: PL-4 facility, XCN-9 assigning authority, CX-6 assigning facility.
    expect(rules(checkHl7Message(pv1({ 3: '^^^&1.2.3', 7: '123^Smith^^^^^^^&&ISO', 19: 'V1^^^APP^VN^&&UUID' })))).toEqual([
      'conditional PV1-3.4.3 @3',
      'conditional PV1-7.9.2 @3',
      'conditional PV1-19.6.2 @3',
    ]);
  });

  it('should accept an HD with HD-1 only, HD-2 and HD-3 only, or all three', () => {
    expect(checkHl7Message(adt('PID|1||MRN-1^^^APP^MR~MRN-2^^^&1.2.3&ISO^MR~MRN-3^^^APP&1.2.3&ISO^MR||Smith'))).toEqual([]);
    expect(checkHl7Message(text('MSH|^~\\&|APP^1.2.3^ISO|^1.2.4^ISO|||20260301103000-0500||ADT^A31^ADT_A05|C1|P|2.5.1', 'EVN|A31|2026', 'PID|1||MRN-1||Smith', 'PV1|1|N'))).toEqual([]);
  });

  it('should report an EI with EI-3 or EI-4 alone (its assigning authority is an HD), as a field and as a component', () => {
    const dg1 = (ei: string): string => adt('PID|1||MRN-1||Smith', seg('DG1', { 1: '1', 3: 'F32.1^^I10', 6: 'A', 20: ei }));
    expect(checkHl7Message(dg1('D1^APP^1.2.3^ISO'))).toEqual([]);
    expect(codes(checkHl7Message(dg1('D1^^^ISO')))).toEqual(['conditional DG1-20.3 @4']);
    expect(codes(checkHl7Message(dg1('D1^^1.2.3')))).toEqual(['conditional DG1-20.4 @4']);
    // PL-10 comprehensive location identifier: an EI in sub-components.
    expect(rules(checkHl7Message(pv1({ 3: '^^^^^^^^Ward 4B^LOC-1&&&ISO' })))).toEqual(['conditional PV1-3.10.3 @3']);
  });

  it('should report a valued XCN-1 without XCN-8 source table or XCN-9 assigning authority', () => {
    expect(rules(checkHl7Message(pv1({ 7: '123^Smith', 8: '124^^^^^^^SRC', 9: '125^^^^^^^^APP', 17: '^Jones' })))).toEqual(['conditional PV1-7.9 @3']);
    expect(rules(checkHl7Message(pv1({ 52: '^Jones~126^Lee' })))).toEqual(['conditional PV1-52(2).9 @3']);
  });

  it('should report a valued CX without CX-1, a TS without TS-1 and an FN without FN-1 as required', () => {
    expect(codes(checkHl7Message(adt('PID|1||MRN-1^^^APP^MR~^^^APP^MR||Smith')))).toEqual(['required-field PID-3(2).1 @2']);
    expect(codes(checkHl7Message(adt('PID|1||MRN-1||&van^Ann')))).toEqual(['required-field PID-5.1.1 @2']);
    expect(codes(checkHl7Message(adt('PID|1||MRN-1||Smith').replace('EVN|A31|2026', 'EVN|A31|^S')))).toEqual(['required-field EVN-2.1 @1']);
    // A composite with no value at all (only separators) has no component to require.
    expect(codes(checkHl7Message(adt('PID|1||MRN-1||Smith').replace('EVN|A31|2026', 'EVN|A31|2026|^')))).toEqual([]);
  });

  it('should apply the rules to OBX-5 by the type OBX-2 names', () => {
    // A component's own rules are reported as it is read, before those of the value it is part of.
    expect(codes(checkHl7Message(oru('OBX|1|CX|x^y^L||^^^&&ISO||||||F')))).toEqual(['conditional OBX-5.4.2 @3', 'required-field OBX-5.1 @3']);
    // (OBX-2 is ID 2 in v2.5.1: `XCN` is also over its length.)
    expect(rules(checkHl7Message(oru('OBX|1|XCN|x^y^L||42^Smith||||||F')))).toEqual(['conditional OBX-5.9 @3']);
  });

  it('should name positions and rules, never values', () => {
    const problems = checkHl7Message(pv1({ 3: '^^^&SECRET-OID', 7: 'SECRET-ID^Smith', 19: '^^^SECRET-APP^VN' }));
    expect(problems.map((p) => p.code)).toEqual(['conditional', 'conditional', 'required-field']);
    for (const p of problems) expect(p.message).not.toContain('SECRET');
  });

  it('should find none of these problems in messages built from generated charts, with or without MSH-3', () => {
    fc.assert(
      fc.property(
        arbPatientChart({ text: 'hostile', danglingReferences: true, maxEncounters: 2, maxNotes: 2 }),
        fc.constantFrom(undefined, 'CHART', 'A&B'),
        ({ chart, directory }, app) => {
          for (const message of buildAll(chart, directory, app)) expect(rules(checkHl7Message(message))).toEqual([]);
        },
      ),
      { numRuns: runs(60) },
    );
  });
});
