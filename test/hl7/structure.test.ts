import { describe, expect, it } from 'vitest';
import {
  buildAdrA19,
  buildAdtA08,
  buildAdtA31,
  buildMdmT02,
  buildOruR01,
  checkHl7Message,
  HL7_LENGTH_DEVIATIONS,
  isHl7LengthDeviation,
  parseHl7Message,
  type Hl7Problem,
} from '../../src/index.js';
import { CHART, DIRECTORY } from './fixtures.js';

const msh = (type: string, extra = ''): string => `MSH|^~\\&|APP|FAC|||20260301103000-0500||${type}|CTRL1|P|2.5.1${extra}`;
const text = (...segments: string[]): string => `${segments.join('\r')}\r`;
const codes = (problems: Hl7Problem[]): string[] => problems.map((p) => `${p.code} ${p.position ?? ''} @${p.segmentIndex}`);

const PID = 'PID|1||MRN-1^^^&1.2.3&ISO^MR||Smith^Ann';
const OBX = 'OBX|1|TX|11506-3^Progress note^LN||text||||||F';
const TXA = 'TXA|1|PR|TX|||||||||note-1|||||AU';
const PV1OK = 'PV1|1|N';

describe('checkHl7Message', () => {
  it('should accept every message the builders produce', () => {
    const o = { now: '2026-03-01T10:30:00-05:00', directory: DIRECTORY };
    for (const m of [
      buildAdtA31(CHART, o),
      buildAdtA08(CHART, 'enc-0001', o),
      buildMdmT02(CHART, 'note-0001', o),
      buildOruR01(CHART, 'asmt-0001', o),
      buildAdrA19(CHART, o),
      buildAdrA19(CHART, { ...o, limit: 1 }),
    ]) {
      expect(checkHl7Message(m)).toEqual([]);
      expect(checkHl7Message(parseHl7Message(m))).toEqual([]);
    }
  });

  it('should accept optional, repeating and grouped segments the builders never send', () => {
    // ADT_A01: ROL may appear in two places, PR1 groups with their own ROL, INSURANCE groups repeat.
    expect(
      checkHl7Message(text(msh('ADT^A08^ADT_A01'), 'EVN|A08|2026', PID, 'ROL|1', 'PV1|1|O', 'PV2', 'ROL|2', 'DG1|1||||| W', 'PR1|1||90834^x^C4||2026', 'ROL|3', 'PR1|2||90834^x^C4||2026', 'IN1|1|P|C', 'IN2', 'IN1|2|P|C', 'PDA')).filter(
        (p) => !['table-value', 'format'].includes(p.code),
      ),
    ).toEqual([]);
    // ORU_R01: several results, NTE after OBR and after OBX, a second patient result.
    expect(
      checkHl7Message(text(msh('ORU^R01^ORU_R01'), PID, 'PV1|1|N', 'OBR|1||x|A^B^L', 'NTE|1||n', OBX, 'NTE|1||n', OBX, 'OBR|2||y|A^B^L', 'PID|2||MRN-2^^^&1.2.3&ISO^MR||Doe', 'OBR|1||z|A^B^L')),
    ).toEqual([]);
  });

  it('should read the HL7 null "" as no value, not as a value too long for a 1-character field', () => {
    expect(codes(checkHl7Message(text(msh('MDM^T02^MDM_T02'), 'EVN|T02|2026', 'PID|1||MRN-1^^^&1.2.3&ISO^MR||Smith^Ann||""|""', 'PV1|1|""', TXA, OBX)))).toEqual([]);
    expect(codes(checkHl7Message(text(msh('MDM^T02^MDM_T02'), 'EVN|T02|2026', 'PID|1||MRN-1^^^&1.2.3&ISO^MR||Smith^Ann||""|FF', PV1OK, TXA, OBX)))).toEqual(['max-length PID-8 @2', 'table-value PID-8 @2']);
  });

  it('should report an NM OBX-5 longer than NM\'s 16 characters', () => {
    const obx = (value: string): string => `OBX|1|NM|x^y^L||${value}||||||F`;
    expect(codes(checkHl7Message(text(msh('MDM^T02^MDM_T02'), 'EVN|T02|2026', PID, PV1OK, TXA, obx('1234567890123456'))))).toEqual([]);
    expect(codes(checkHl7Message(text(msh('MDM^T02^MDM_T02'), 'EVN|T02|2026', PID, PV1OK, TXA, obx('12345678901234567'))))).toEqual(['max-length OBX-5 @5']);
  });

  it('should tell the builders\' documented length deviations apart from every other problem', () => {
    // A UUID medical record number and a 25-character local diagnosis code: sent whole, reported, and recognised.
    const chart = {
      ...CHART,
      patient: { ...CHART.patient, identifiers: [{ system: 'urn:oid:1.2.3', value: 'f47ac10b-58cc-4372-a567-0e02b2c3d479', type: 'MR' as const }] },
      encounters: [{ ...CHART.encounters![0]!, diagnoses: [{ code: { system: 'snomed-ct' as const, code: 'LOCAL-DX-0000000000000001' } }] }],
    };
    const problems = checkHl7Message(buildAdtA08(chart, 'enc-0001', { now: '2026-03-01T10:30:00-05:00', directory: DIRECTORY }));
    expect(codes(problems).sort()).toEqual(['max-length DG1-3.1 @4', 'max-length PID-3.1 @2']);
    expect(problems.filter((p) => !isHl7LengthDeviation(p))).toEqual([]);
    // The same lengths elsewhere, or other problems at those positions, are not deviations.
    const at = (code: string, position: string) => ({ code, position, segmentIndex: 0, message: '' }) as Hl7Problem;
    expect([at('max-length', 'PID-3(2).1'), at('max-length', 'IN1-9.10'), at('max-length', 'OBX-5(2).1')].every(isHl7LengthDeviation)).toBe(true);
    expect([at('max-length', 'PID-5.1.1'), at('max-length', 'PID-3.10'), at('max-length', 'IN1-9.1'), at('format', 'PID-3.1')].some(isHl7LengthDeviation)).toBe(false);
    expect(Object.isFrozen(HL7_LENGTH_DEVIATIONS) && HL7_LENGTH_DEVIATIONS.every(Object.isFrozen)).toBe(true);
  });

  it('should report a missing required segment before the segment that needs it', () => {
    // MDM_T02 without TXA: OBX cannot follow PV1.
    const problems = checkHl7Message(text(msh('MDM^T02^MDM_T02'), 'EVN|T02|2026', PID, 'PV1|1|N', OBX));
    expect(codes(problems)).toEqual(['missing-segment TXA @4']);
  });

  it('should report required segments missing at the end, with their group', () => {
    const problems = checkHl7Message(text(msh('MDM^T02^MDM_T02'), 'EVN|T02|2026', PID, 'PV1|1|N', TXA));
    expect(codes(problems)).toEqual(['missing-segment OBX @5']);
    expect(problems[0]?.message).toContain('OBSERVATION');
    expect(codes(checkHl7Message(text(msh('ORU^R01^ORU_R01'), PID)))).toEqual(['missing-segment OBR @2']);
  });

  it('should report segments in the wrong order', () => {
    // IN1 before PV1 in ADT_A05: PV1 is missing where IN1 appears, and the late PV1 is out of order.
    const problems = checkHl7Message(text(msh('ADT^A31^ADT_A05'), 'EVN|A31|2026', PID, 'IN1|1|P|C', 'PV1|1|N'));
    expect(codes(problems)).toEqual(['missing-segment PV1 @3', 'segment-order PV1 @4']);
    // OBX before OBR in ORU_R01: the OBX lacks its OBR (the later OBR may open a new ORDER_OBSERVATION).
    const oru = checkHl7Message(text(msh('ORU^R01^ORU_R01'), PID, 'PV1|1|N', OBX, 'OBR|1||x|A^B^L'));
    expect(codes(oru)).toEqual(['missing-segment OBR @3']);
    // EVN after PID in MDM_T02.
    expect(codes(checkHl7Message(text(msh('MDM^T02^MDM_T02'), PID, 'EVN|T02|2026', 'PV1|1|N', TXA, OBX)))).toEqual([
      'missing-segment EVN @1',
      'segment-order EVN @2',
    ]);
    // A repeated PID where ADT_A05 allows one.
    expect(codes(checkHl7Message(text(msh('ADT^A31^ADT_A05'), 'EVN|A31|2026', PID, PID, 'PV1|1|N')))).toEqual(['segment-order PID @3']);
  });

  it('should report segments foreign to the structure', () => {
    const problems = checkHl7Message(text(msh('ADT^A31^ADT_A05'), 'EVN|A31|2026', PID, 'PV1|1|N', 'ZPI|1', TXA));
    expect(codes(problems)).toEqual(['unexpected-segment ZPI @4', 'unexpected-segment TXA @5']);
    expect(problems[1]?.message).toContain('ADT_A05');
  });

  it('should report overlong fields, measured after escaping', () => {
    const problems = checkHl7Message(
      text(msh('ADT^A08^ADT_A01').replace('CTRL1', 'C'.repeat(21)), 'EVN|A08|2026', PID, 'PV1|1|O', `DG1|1||F32.1^x^I10|${'a'.repeat(38)}\\T\\|2026|W`),
    );
    expect(codes(problems)).toEqual(['max-length MSH-10 @0', 'max-length DG1-4 @4']);
    expect(problems[1]?.message).toContain('40');
    // 40 characters exactly is fine.
    expect(checkHl7Message(text(msh('ADT^A08^ADT_A01'), 'EVN|A08|2026', PID, 'PV1|1|O', `DG1|1||F32.1^x^I10|${'a'.repeat(40)}|2026|W`))).toEqual([]);
  });

  it('should check the length of each repetition of a repeating field', () => {
    const longName = `${'N'.repeat(251)}`;
    const problems = checkHl7Message(text(msh('ADT^A31^ADT_A05'), 'EVN|A31|2026', `PID|1||MRN-1||Smith~${longName}`, 'PV1|1|N'));
    // The one name component is too long for XPN.1 (FN, 194) and FN.1 (surname, ST 50) too.
    expect(codes(problems)).toEqual(['max-length PID-5(2) @2', 'max-length PID-5(2).1 @2', 'max-length PID-5(2).1.1 @2']);
  });

  it('should report missing required fields', () => {
    const problems = checkHl7Message(text(msh('MDM^T02^MDM_T02'), 'EVN|T02', 'PID|1', 'PV1|1', 'TXA|1|PR', 'OBX|1|TX|||x'));
    expect(codes(problems)).toEqual([
      'required-field EVN-2 @1',
      'required-field PID-3 @2',
      'required-field PID-5 @2',
      'required-field PV1-2 @3',
      'required-field TXA-12 @4',
      'required-field TXA-17 @4',
      'required-field OBX-3 @5',
      'required-field OBX-11 @5',
    ]);
  });

  it('should report repetitions of non-repeating fields, bad formats and codes outside closed tables, without values', () => {
    const problems = checkHl7Message(
      text(msh('ADT^A31^ADT_A05'), 'EVN|A31|2026-03-01', 'PID|x||MRN-1||Smith|||X', 'PV1|1|N~O', 'IN1|1|P|C|||||||||20261301'),
    );
    expect(codes(problems)).toEqual([
      'format EVN-2 @1',
      'format PID-1 @2',
      'table-value PID-8 @2',
      'repetition PV1-2 @3',
      'format IN1-12 @4',
    ]);
    for (const p of problems) expect(p.message).not.toContain('2026-03-01');
    expect(codes(checkHl7Message(text(msh('ORU^R01^ORU_R01'), PID, 'OBR|1||x|A^B^L', 'OBX|1|CWE|A^B^L||x||||||F')))).toEqual([
      'max-length OBX-2 @3',
      'table-value OBX-2 @3',
    ]);
  });

  it('should check OBX-5 against the value type in OBX-2 (NM, DT, TM, TS, SN), each repetition, without values', () => {
    // Arrange
    const oru = (...obx: string[]): string => text(msh('ORU^R01^ORU_R01'), PID, 'OBR|1||x|A^B^L', ...obx);
    const obx = (k: number, type: string, value: string): string => `OBX|${k}|${type}|x^y^L||${value}||||||F`;
    // Act
    const bad = checkHl7Message(
      oru(
        obx(1, 'NM', 'abc'),
        obx(2, 'DT', '20261301'),
        obx(3, 'TM', '2460'),
        obx(4, 'TS', '20260230093000'),
        obx(5, 'SN', '>>^12'),
        obx(6, 'NM', '12~1e5'),
        obx(7, 'SN', '^^-^'),
        obx(8, 'NM', '1^2'),
        obx(9, 'DT', '2026-03-01'),
      ),
    );
    const good = checkHl7Message(
      oru(
        obx(1, 'NM', '-12.50'),
        obx(2, 'DT', '202603'),
        obx(3, 'TM', '0930'),
        obx(4, 'TM', '235959.1234-0500'),
        obx(5, 'TS', '20260301093000-0500'),
        obx(6, 'SN', '>=^10'),
        obx(7, 'SN', '^1^:^2'),
        obx(8, 'SN', '^100^+'),
        obx(9, 'NM', '""'),
        obx(10, 'ST', 'abc'),
        obx(11, 'CE', 'abc^def^L'),
        obx(12, 'NM', ''),
      ),
    );
    // Assert
    expect(codes(bad)).toEqual([
      'format OBX-5 @3',
      'format OBX-5 @4',
      'format OBX-5 @5',
      'format OBX-5 @6',
      'format OBX-5 @7',
      'format OBX-5(2) @8',
      'format OBX-5 @9',
      'format OBX-5 @10',
      'format OBX-5 @11',
    ]);
    expect(bad[0]?.message).toBe('OBX-5 must be a number (NM), as OBX-2 (NM) says');
    for (const p of bad) expect(p.message).not.toMatch(/abc|20261301|2026-03-01/);
    expect(good).toEqual([]);
    // A value type that is the name of an Object.prototype member is an unknown code, not a crash.
    for (const type of ['constructor', '__proto__', 'toString']) {
      expect(codes(checkHl7Message(oru(obx(1, type, 'x'))))).toEqual(['max-length OBX-2 @3', 'table-value OBX-2 @3']);
    }
  });

  it('should check MSH-9 and MSH-12', () => {
    expect(codes(checkHl7Message(text(msh('ADT^A31^ADT_A01'), 'EVN|A31|2026', PID, 'PV1|1|N')))).toEqual(['message-type MSH-9.3 @0']);
    // Without MSH-9.3 the structure comes from the event map, and the missing component is reported.
    expect(codes(checkHl7Message(text(msh('ADT^A31'), 'EVN|A31|2026', PID)))).toEqual(['required-field MSH-9.3 @0', 'missing-segment PV1 @3']);
    expect(codes(checkHl7Message(text(msh('ADT^A31^ADT_A05').replace('2.5.1', '2.3'), 'EVN|A31|2026', PID, 'PV1|1|N')))).toEqual(['value MSH-12 @0']);
  });

  it('should say when it does not know a structure, and still check the fields it knows', () => {
    expect(codes(checkHl7Message(text(msh('SIU^S12^SIU_S12'), 'SCH|1', 'PID|1')))).toEqual([
      'unsupported-structure MSH-9 @0',
      'required-field PID-3 @2',
      'required-field PID-5 @2',
    ]);
  });

  it('should read a structure named like an Object.prototype member as unknown, not crash', () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      // MSH-9 (15 characters) is too long with some of these names: only the structure problems matter here.
      const problems = checkHl7Message(text(msh(`ORU^R01^${name}`), PID)).filter((p) => p.code !== 'max-length');
      expect(codes(problems)).toEqual(['message-type MSH-9.3 @0', 'unsupported-structure MSH-9 @0']);
    }
  });

  it('should report fields that do not exist in v2.5.1', () => {
    const txa = `${TXA}${'|'.repeat(8)}Title`; // TXA-25 (document title) is v2.7+
    expect(codes(checkHl7Message(text(msh('MDM^T02^MDM_T02'), 'EVN|T02|2026', PID, 'PV1|1|N', txa, OBX)))).toEqual(['unknown-field TXA-25 @4']);
  });

  it('should return a parse problem for text that cannot be parsed', () => {
    expect(checkHl7Message('PID|1')).toEqual([{ code: 'parse', segmentIndex: 0, position: 'MSH', message: expect.any(String) }]);
  });
});
