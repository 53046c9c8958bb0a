/**
 * The five messages for one realistic patient, with exact expected text. Each expected segment is written
 * field by field from the v2.5.1 positions (see `seg`), not pasted from output.
 */
import { describe, expect, it } from 'vitest';
import {
  buildAdrA19,
  buildAdtA08,
  buildAdtA31,
  buildFhirDirectoryBundle,
  buildFhirPatientBundle,
  buildMdmT02,
  buildOruR01,
  ChartNotFoundError,
  ChartValidationError,
  checkHl7Message,
  formatIssuePath,
  escapeHl7,
  generateControlId,
  InvalidArgumentError,
  parseHl7Message,
  type PatientChart,
} from '../../src/index.js';
import { CHART, DIRECTORY, seg } from './fixtures.js';
import { segmentsOf, val } from './support.js';

const NOW = '2026-03-01T10:30:00-05:00';
const TS_NOW = '20260301103000-0500';
const HEADER = { now: NOW, sendingApplication: 'CHART-EXPORT', sendingFacility: 'RIVERSIDE', receivingApplication: 'PARTNER', receivingFacility: 'PARTNER-HIE', directory: DIRECTORY };

const message = (...segments: string[]): string => `${segments.join('\r')}\r`;
const msh = (type: string, controlId: string): string => `MSH|^~\\&|CHART-EXPORT|RIVERSIDE|PARTNER|PARTNER-HIE|${TS_NOW}||${type}|${controlId}|P|2.5.1`;

/** Dr. Adaeze Okafor, MD, by NPI (XCN-1 id, -2 family, -3 given, -5 suffix, -6 prefix, -9 authority, -13 type). */
const OKAFOR = '1003000126^Okafor^Adaeze^^MD^Dr.^^^&http://hl7.org/fhir/sid/us-npi&URI^^^^NPI';

const PID = seg('PID', {
  1: '1',
  // The MR identifier leads, although the chart lists the SSN first.
  3: 'MRN-000123^^^&2.16.840.1.113883.19.5&ISO^MR~123-45-6789^^^&http://hl7.org/fhir/sid/us-ssn&URI^SS',
  // XPN: family ^ given ^ further given ^ suffix ^ prefix ^ degree ^ type (0200: L official, M maiden).
  5: "O'Brien^Mary^Anne^^Ms.^^L~Walsh^^^^^^M",
  7: '19840702',
  8: 'F',
  // XAD: street ^ other designation ^ city ^ state ^ zip ^ country ^ type (0190: H home).
  11: '12 Elm St^Apt 4^Springfield^IL^62701^US^H',
  // Mobile: no v2.5.1 use code, equipment CP; e-mail: use NET, equipment Internet, address in XTN-4.
  13: '+1 217 555 0142^^CP~^NET^Internet^mary.obrien@example.org',
  14: '+1 217 555 0100^WPN^PH',
  15: 'en-US',
  16: 'M^Married^HL70002',
});

const PV1 = seg('PV1', {
  1: '1',
  2: 'O', // AMB
  // PL-1 point of care (IS 20, a code: none), PL-4 HD-1 facility (IS 20: the organization's id), PL-9 description
  // (the location's name), PL-10 comprehensive location identifier (EI-1: the location's id).
  3: '^^^org-001^^^^^Riverside Clinic, Suite 200^loc-001',
  7: OKAFOR, // ATND
  // CX-4: the sending application (MSH-3) assigns the chart's encounter ids.
  19: 'enc-0001^^^CHART-EXPORT^VN',
  44: '20260301093000-0500',
  45: '20260301101000-0500',
});

const DG1 = seg('DG1', {
  1: '1',
  3: 'F32.1^Major depressive disorder, single episode, moderate^I10',
  4: 'Major depressive disorder, single episod', // ST(40)
  5: '202601',
  6: 'W', // use "billing" has no 0052 code: working
  15: '1',
  19: '20260301',
  20: 'dx-1',
});

const PR1 = seg('PR1', {
  1: '1',
  3: '90834^Psychotherapy, 45 minutes with patient^C4',
  4: 'Psychotherapy, 45 minutes with patient',
  5: '20260301093500-0500',
  7: '45', // 09:35 to 10:20
  12: OKAFOR,
  19: 'proc-1',
});

const IN1 = seg('IN1', {
  1: '1',
  2: 'GOLD-PPO^Gold PPO',
  3: '60054^^^&2.16.840.1.113883.3.221.5&ISO',
  4: 'Acme Health Plan',
  8: 'GRP-7781',
  9: 'Riverside Employees^^^^^^^^^GRP-7781', // XON-1 name, XON-10 organization identifier
  12: '20260101',
  13: '20261231',
  17: 'SEL^Self^HL70063',
  22: '1',
  36: 'XZ123456',
  49: 'XZ123456^^^^MB',
});

const NOTE_OBX3 = '11506-3^Progress note^LN';
const NOTE_TEXT = 'Subjective: mood better \\T\\ sleeping 7 h.~Objective: BP 128/82 \\F\\ HR 72~Plan: CBT weekly; notes in C:\\E\\notes';
const PHQ2 = '55757-9^PHQ-2 depression screen^LN';
const AUTHORED_NOTE = '20260301101500-0500';
const AUTHORED_ASMT = '20260301100000-0500';

describe('buildAdtA31', () => {
  it('should build MSH EVN PID PV1(N) IN1 for the patient', () => {
    expect(buildAdtA31(CHART, { ...HEADER, controlId: 'ADT0001' })).toBe(
      message(msh('ADT^A31^ADT_A05', 'ADT0001'), `EVN|A31|${TS_NOW}`, PID, 'PV1|1|N', IN1),
    );
  });
});

describe('buildAdtA08', () => {
  it('should build MSH EVN PID PV1 DG1 PR1 IN1 for the encounter', () => {
    expect(buildAdtA08(CHART, 'enc-0001', { ...HEADER, controlId: 'ADT0002' })).toBe(
      message(msh('ADT^A08^ADT_A01', 'ADT0002'), `EVN|A08|${TS_NOW}`, PID, PV1, DG1, PR1, IN1),
    );
  });

  it('should refuse a record id that is not a string by its name, in every builder that takes one', async () => {
    const fhir = await import('../../src/index.js');
    const calls: [string, (id: unknown) => unknown][] = [
      ['encounterId', (id) => buildAdtA08(CHART, id as string, HEADER)],
      ['noteId', (id) => buildMdmT02(CHART, id as string, HEADER)],
      ['assessmentId', (id) => buildOruR01(CHART, id as string, HEADER)],
      ['encounterId', (id) => fhir.buildFhirEncounterExport(CHART, id as string, { now: '2026-03-01T15:00:00Z' })],
      ['noteId', (id) => fhir.buildFhirNoteExport(CHART, id as string, { now: '2026-03-01T15:00:00Z' })],
      ['assessmentId', (id) => fhir.buildFhirAssessmentExport(CHART, id as string, { now: '2026-03-01T15:00:00Z' })],
    ];
    for (const [argument, call] of calls) {
      for (const bad of [5, undefined, null, ['note-0001']]) {
        let thrown: unknown;
        try {
          call(bad);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${argument} ${JSON.stringify(bad)}`).toBeInstanceOf(InvalidArgumentError);
        expect((thrown as InvalidArgumentError).argument).toBe(argument);
      }
    }
  });

  it('should throw ChartNotFoundError for an encounter not in the chart', () => {
    expect(() => buildAdtA08(CHART, 'enc-9999', HEADER)).toThrow(ChartNotFoundError);
  });

  it('should number up to 9 999 diagnoses; the chart check refuses the 10 000th (never a 5-digit DG1-1)', () => {
    // Arrange
    const encounter = CHART.encounters![0]!;
    const withDiagnoses = (n: number): PatientChart => ({
      ...CHART,
      encounters: [{ ...encounter, diagnoses: Array.from({ length: n }, (_, i) => ({ ...encounter.diagnoses![0]!, id: `dx-${i}` })) }],
    });
    // Act
    const ok = buildAdtA08(withDiagnoses(9_999), encounter.id, HEADER);
    let error: unknown;
    try {
      buildAdtA08(withDiagnoses(10_000), encounter.id, HEADER);
    } catch (e) {
      error = e;
    }
    // Assert
    expect(segmentsOf(parseHl7Message(ok), 'DG1').at(-1)!.raw).toMatch(/^DG1\|9999\|/);
    expect(checkHl7Message(ok)).toEqual([]);
    expect(error).toBeInstanceOf(ChartValidationError);
    expect((error as ChartValidationError).issues.map((i) => i.path)).toEqual([['encounters', 0, 'diagnoses']]);
  });

  it('should keep ids and names out of components too short for them (PL-1, PL-4 HD-1, XCN-1, CX-1), deterministically', () => {
    // Arrange: a long organization id, a location id and an encounter id longer than CX-1's 15, a practitioner
    // whose first identifier does not fit XCN-1's 15, another without identifiers and a long chart id.
    const encounterId = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
    const directory = {
      organizations: [{ id: 'org-riverside-behavioral-health', name: 'Riverside Behavioral Health' }],
      practitioners: [
        { id: 'prac-001', names: [{ family: 'Okafor' }], identifiers: [{ system: 'urn:oid:1.2.3', value: 'LICENSE-0000000000000001' }, { system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' as const }] },
        { id: 'practitioner-without-identifiers-0002', names: [{ family: 'Chen' }] },
      ],
      locations: [{ id: 'loc-001', name: 'Riverside Clinic, Suite 200', status: 'active' as const, organizationId: 'org-riverside-behavioral-health' }],
    };
    const encounter = {
      ...CHART.encounters![0]!,
      id: encounterId,
      participants: [
        { role: 'ATND' as const, practitionerId: 'prac-001' },
        { role: 'CON' as const, practitionerId: 'practitioner-without-identifiers-0002' },
        { role: 'REF' as const, practitionerId: 'not-in-the-directory-0000000003' },
      ],
    };
    const chart: PatientChart = { ...CHART, encounters: [encounter] };
    // Act
    const text = buildAdtA08(chart, encounterId, { ...HEADER, directory, controlId: 'ADT0009' });
    const pv1 = segmentsOf(parseHl7Message(text), 'PV1')[0]!;
    // Assert
    // PV1-3: no PL-1, no PL-4 (the organization id does not fit HD-1's 20), the name in PL-9, the id in PL-10.
    expect(pv1.raw.split('|')[3]).toBe('^^^^^^^^Riverside Clinic, Suite 200^loc-001');
    // XCN-1: the first identifier that fits 15 (the NPI), with its authority and type.
    expect(pv1.raw.split('|')[7]).toBe('1003000126^Okafor^^^^^^^&http://hl7.org/fhir/sid/us-npi&URI^^^^NPI');
    // No identifier: the chart id, derived (15 hex digits of its hash) when longer than 15; the same in every run.
    expect(val(pv1, 9)).toMatch(/^[0-9a-f]{15}$/);
    expect(val(pv1, 9, 2)).toBe('Chen');
    expect(val(pv1, 8)).toMatch(/^[0-9a-f]{15}$/);
    expect(val(pv1, 8)).not.toBe(val(pv1, 9));
    // A chart id in XCN-1 is the sending application's: XCN-9 assigning authority is MSH-3 (v2.5.1: a valued
    // XCN-1 needs a source table or an assigning authority); an NPI keeps its own authority.
    expect([val(pv1, 8, 9), val(pv1, 9, 9)]).toEqual(['CHART-EXPORT', 'CHART-EXPORT']);
    // PV1-19 CX-1: the encounter id, derived, assigned by the sending application (CX-4).
    expect(val(pv1, 19)).toMatch(/^[0-9a-f]{15}$/);
    expect(val(pv1, 19, 4)).toBe('CHART-EXPORT');
    // Without MSH-3 the chart ids still name an assigning authority (v2.5.1: a valued XCN-1 needs XCN-8 or XCN-9):
    // the default, CHART-EXPORT.
    const bareText = buildAdtA08(chart, encounterId, { now: NOW, directory });
    const bareMessage = parseHl7Message(bareText);
    expect(val(segmentsOf(bareMessage, 'MSH')[0]!, 3)).toBe('');
    const bare = segmentsOf(bareMessage, 'PV1')[0]!;
    expect([val(bare, 8, 9), val(bare, 9, 9), val(bare, 19, 4)]).toEqual(['CHART-EXPORT', 'CHART-EXPORT', 'CHART-EXPORT']);
    expect(checkHl7Message(bareText)).toEqual([]);
    expect(buildAdtA08(chart, encounterId, { ...HEADER, directory, controlId: 'ADT0009' })).toBe(text);
    expect(checkHl7Message(text)).toEqual([]);
  });

  it('should fall back to the encounter start for PR1-5; without one the chart check refuses the procedure', () => {
    const undated: PatientChart = {
      ...CHART,
      encounters: [{ id: 'e', status: 'finished', class: 'AMB', period: { start: '2026-02-01' }, procedures: [{ code: { system: 'cpt', code: '90834' }, status: 'completed' }] }],
    };
    const text = buildAdtA08(undated, 'e', HEADER);
    expect(val(segmentsOf(parseHl7Message(text), 'PR1')[0]!, 5)).toBe('20260201');
    const noStart: PatientChart = { ...undated, encounters: [{ ...undated.encounters![0]!, period: { end: '2026-02-01' } }] };
    let error: unknown;
    try {
      buildAdtA08(noStart, 'e', HEADER);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChartValidationError);
    expect((error as ChartValidationError).issues.map((i) => i.path)).toEqual([['encounters', 0, 'procedures', 0, 'performed']]);
  });
});

describe('buildMdmT02', () => {
  it('should build MSH EVN PID PV1 TXA OBX with the note text one line per repetition', () => {
    const txa = seg('TXA', { 1: '1', 2: 'PR', 3: 'TX', 6: AUTHORED_NOTE, 9: OKAFOR, 12: 'note-0001', 17: 'AU', 18: 'R', 19: 'AV' });
    const obx = seg('OBX', { 1: '1', 2: 'TX', 3: NOTE_OBX3, 5: NOTE_TEXT, 11: 'F', 14: AUTHORED_NOTE, 16: OKAFOR });
    expect(buildMdmT02(CHART, 'note-0001', { ...HEADER, controlId: 'MDM0001' })).toBe(
      message(msh('MDM^T02^MDM_T02', 'MDM0001'), `EVN|T02|${TS_NOW}`, PID, PV1, txa, obx),
    );
  });

  it('should throw ChartNotFoundError for a note not in the chart', () => {
    expect(() => buildMdmT02(CHART, 'nope', HEADER)).toThrow(ChartNotFoundError);
  });

  it('should continue text longer than OBX-5 allows in further OBX segments', () => {
    const line = 'x'.repeat(60_000);
    const chart: PatientChart = { ...CHART, notes: [{ ...CHART.notes![0]!, encounterId: undefined!, text: `${line}\n${line}\n&` }] };
    delete (chart.notes![0] as { encounterId?: string }).encounterId;
    const text = buildMdmT02(chart, 'note-0001', HEADER);
    const obx = segmentsOf(parseHl7Message(text), 'OBX');
    expect(obx.map((s) => val(s, 1))).toEqual(['1', '2']);
    expect(obx.flatMap((s) => (s.fields[5] ?? []).map((r) => r[0]?.[0]))).toEqual([line, line, '&']);
    expect(segmentsOf(parseHl7Message(text), 'PV1')[0]?.raw).toBe('PV1|1|N');
    expect(checkHl7Message(text)).toEqual([]);
  });

  it('should split note text into repetitions at LF and CRLF only, short or long, a final lone CR included', () => {
    const obx5 = (text: string): string => {
      const out = buildMdmT02({ ...CHART, notes: [{ ...CHART.notes![0]!, text }] }, 'note-0001', HEADER);
      return out.split('\r').find((s) => s.startsWith('OBX|'))!.split('|')[5]!;
    };
    const expected = (text: string): string => text.split(/\r\n|\n/).map((line) => escapeHl7(line)).join('~');
    const body = 'Plan: CBT weekly & review | PHQ-9 ~ 12 ^ C:\\notes\r\nNext line\nAnother\rsame line; ';
    for (const text of [body, body.repeat(4), `${body.repeat(4)}\r`, `${body.repeat(4)}\r\n`, `${body.repeat(4)}\n\n`, `\r\n${'x'.repeat(200)}\r`]) {
      expect(obx5(text)).toBe(expected(text));
    }
  });

  it('should declare UNICODE UTF-8 for non-ASCII text in a long note only', () => {
    const msh18 = (text: string): string => {
      const out = buildMdmT02({ ...CHART, notes: [{ ...CHART.notes![0]!, text }] }, 'note-0001', HEADER);
      return val(parseHl7Message(out).segments[0]!, 18);
    };
    expect(msh18('plain line\n'.repeat(40))).toBe('');
    expect(msh18(`${'plain line\n'.repeat(40)}café`)).toBe('UNICODE UTF-8');
  });

  it('should send tab, DEL and C1 controls in note text and names as hex escapes, not raw, and read them back', () => {
    // Arrange: the chart check allows tab, DEL and C1 in text; v2.5.1 text types hold printable characters.
    const long = 'x'.repeat(200);
    const patient = { ...CHART.patient, names: [{ use: 'official' as const, family: 'O\tBrien\u0085', given: ['Ma\u007fry'] }] };
    for (const text of ['a\tb\u007fc\u0085d', `${long}\ta\u009b${long}`]) {
      const chart: PatientChart = { ...CHART, patient, notes: [{ ...CHART.notes![0]!, text }] };
      // Act
      const out = buildMdmT02(chart, 'note-0001', HEADER);
      // Assert
      // eslint-disable-next-line no-control-regex -- the message holds no control character but its segment terminators
      expect(out.replace(/\r/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      const obx = out.split('\r').find((x) => x.startsWith('OBX|'))!;
      expect(obx.split('|')[5]).toBe(escapeHl7(text));
      expect(obx.split('|')[5]).toContain('\\X09\\');
      expect(out.split('\r').find((x) => x.startsWith('PID|'))!.split('|')[5]).toBe('O\\X09\\Brien\\XC285\\^Ma\\X7F\\ry^^^^^L');
      const parsed = parseHl7Message(out);
      expect(val(segmentsOf(parsed, 'OBX')[0]!, 5)).toBe(text);
      expect(val(segmentsOf(parsed, 'PID')[0]!, 5)).toBe('O\tBrien\u0085');
      // Escaped C1 characters are ASCII on the wire: no MSH-18.
      expect(val(parsed.segments[0]!, 18)).toBe('');
      expect(checkHl7Message(out)).toEqual([]);
    }
  });

  it('should send a note id longer than TXA-12 in a deterministic derived form', () => {
    const id = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
    const chart: PatientChart = { ...CHART, notes: [{ ...CHART.notes![0]!, id }] };
    const a = val(segmentsOf(parseHl7Message(buildMdmT02(chart, id, HEADER)), 'TXA')[0]!, 12);
    const b = val(segmentsOf(parseHl7Message(buildMdmT02(chart, id, HEADER)), 'TXA')[0]!, 12);
    expect(a).toMatch(/^f47ac10b-58cc-[0-9a-f]{16}$/);
    expect(a).toHaveLength(30);
    expect(b).toBe(a);
  });
});

describe('buildOruR01', () => {
  it('should build MSH PID PV1 OBR OBX… NTE for the assessment', () => {
    const obx = (n: number, type: string, obx3: string, value: string): string =>
      seg('OBX', { 1: String(n), 2: type, 3: obx3, 5: value, 11: 'F', 14: AUTHORED_ASMT, 16: OKAFOR });
    expect(buildOruR01(CHART, 'asmt-0001', { ...HEADER, controlId: 'ORU0001' })).toBe(
      message(
        msh('ORU^R01^ORU_R01', 'ORU0001'),
        PID,
        PV1,
        seg('OBR', { 1: '1', 3: 'asmt-0001', 4: PHQ2, 7: AUTHORED_ASMT, 25: 'F' }),
        // OBX-3: item code ^ question ^ LN ^ linkId ^ ^ L (alternate local code).
        obx(1, 'CE', '44250-9^Little interest or pleasure in doing things^LN^phq2-1^^L', 'LA6569-3^Several days^LN'),
        obx(2, 'CE', '44255-8^Feeling down, depressed, or hopeless^LN^phq2-2^^L', 'LA6570-1^More than half the days^LN'),
        obx(3, 'ST', 'comment^Clinician comment^L', 'Sleep improving; weekends harder'),
        obx(4, 'NM', '55758-7^PHQ-2 total score^LN^total-score^^L', '3'),
        seg('NTE', { 1: '1', 3: 'Positive screen' }),
      ),
    );
  });

  it('should refuse, in the chart check, an assessment whose answers OBX-1 could not number (never OBX|10000)', () => {
    // Arrange: 10 001 answers; the answer at index 9 999 would be OBX 10 000.
    const assessment = CHART.assessments![0]!;
    const answers = Array.from({ length: 10_001 }, (_, i) => ({ ...assessment.answers[0]!, linkId: `q-${i}` }));
    // Without item definitions, so that any linkId is allowed.
    const { items: _items, ...instrument } = assessment.instrument;
    const chart: PatientChart = { ...CHART, assessments: [{ ...assessment, instrument, answers }] };
    // Act
    let error: unknown;
    try {
      buildOruR01(chart, assessment.id, HEADER);
    } catch (e) {
      error = e;
    }
    // Assert
    expect(error).toBeInstanceOf(ChartValidationError);
    // The assessment's own answers limit, and its ADR^A19 group's OBX numbering (reported at the chart's notes).
    expect((error as ChartValidationError).issues.map((i) => i.path)).toEqual([['assessments', 0, 'answers'], ['notes']]);
    expect((error as ChartValidationError).message).not.toContain(CHART.patient.names![0]!.family!);
    // The summary refuses it the same way.
    expect(() => buildAdrA19(chart, HEADER)).toThrow(ChartValidationError);
  });

  it('should throw ChartNotFoundError for an assessment not in the chart', () => {
    expect(() => buildOruR01(CHART, 'nope', HEADER)).toThrow(ChartNotFoundError);
  });
});

describe('buildAdrA19', () => {
  /** The OBX of the note, then of the assessment (value-less instrument OBX first), as ADR^A19 sends them. */
  const observations = (first: number): string[] => {
    const tail = { 11: 'F', 14: AUTHORED_ASMT, 16: OKAFOR, 17: PHQ2 };
    return [
      seg('OBX', { 1: String(first), 2: 'TX', 3: NOTE_OBX3, 4: 'note-0001', 5: NOTE_TEXT, 11: 'F', 14: AUTHORED_NOTE, 16: OKAFOR }),
      // The instrument administered (OBX-2 must be valued unless OBX-11 is X, v2.5.1 7.4.2.2).
      seg('OBX', { 1: String(first + 1), 2: 'CE', 3: PHQ2, 4: 'asmt-0001', 5: PHQ2, 11: 'F', 14: AUTHORED_ASMT, 16: OKAFOR }),
      seg('OBX', { 1: String(first + 2), 2: 'CE', 3: '44250-9^Little interest or pleasure in doing things^LN^phq2-1^^L', 4: 'asmt-0001', 5: 'LA6569-3^Several days^LN', ...tail }),
      seg('OBX', { 1: String(first + 3), 2: 'CE', 3: '44255-8^Feeling down, depressed, or hopeless^LN^phq2-2^^L', 4: 'asmt-0001', 5: 'LA6570-1^More than half the days^LN', ...tail }),
      seg('OBX', { 1: String(first + 4), 2: 'ST', 3: 'comment^Clinician comment^L', 4: 'asmt-0001', 5: 'Sleep improving; weekends harder', ...tail }),
      seg('OBX', { 1: String(first + 5), 2: 'NM', 3: '55758-7^PHQ-2 total score^LN^total-score^^L', 4: 'asmt-0001', 5: '3', ...tail }),
      seg('OBX', { 1: String(first + 6), 2: 'ST', 3: 'total-score-interp^Score interpretation^L', 4: 'asmt-0001', 5: 'Positive screen', ...tail }),
    ];
  };
  const qrd = (queryId: string, quantity: string): string =>
    seg('QRD', {
      1: TS_NOW,
      2: 'R',
      3: 'I',
      4: queryId,
      7: quantity,
      8: "MRN-000123^O'Brien^Mary^Anne^^Ms.^^^&2.16.840.1.113883.19.5&ISO^^^^MR",
      9: 'DEM^Demographics^HL70048',
      10: '^Patient summary',
    });

  it('should group every record under its encounter, newest first, and the rest under PV1 N', () => {
    const history = seg('DG1', {
      1: '1',
      3: 'E11.9^Type 2 diabetes mellitus without complications^I10',
      4: 'Type 2 diabetes mellitus without complic',
      5: '2019',
      6: 'F',
      19: '20190514',
      20: 'hx-0001',
    });
    expect(buildAdrA19(CHART, { ...HEADER, controlId: 'ADR0001', queryId: 'Q0001' })).toBe(
      message(
        msh('ADR^A19^ADR_A19', 'ADR0001'),
        'MSA|AA|Q0001',
        qrd('Q0001', '4^RD'),
        // Group 1: the encounter with the note and the assessment written during it, then its DG1, PR1; IN1.
        PID,
        PV1,
        ...observations(1),
        DG1,
        PR1,
        IN1,
        // Group 2: records without an encounter.
        PID.replace('PID|1|', 'PID|2|'),
        'PV1|2|N',
        history,
      ),
    );
  });

  it('should cap records with the limit and keep the encounter reference by id', () => {
    // The two newest records are the note (10:15) and the assessment (10:00); their encounter (09:30) is
    // beyond the limit, so its group names it by visit number only (PV1-2 U).
    expect(buildAdrA19(CHART, { ...HEADER, controlId: 'ADR0002', limit: 2 })).toBe(
      message(
        msh('ADR^A19^ADR_A19', 'ADR0002'),
        'MSA|AA|ADR0002',
        qrd('ADR0002', '2^RD'),
        PID,
        seg('PV1', { 1: '1', 2: 'U', 19: 'enc-0001^^^CHART-EXPORT^VN' }),
        ...observations(1),
        IN1,
      ),
    );
  });

  it('should take the newest records by exact instant: the fourth fraction digit and a leap second count', () => {
    const notes = (authored: readonly string[]): PatientChart => ({
      ...CHART,
      notes: authored.map((a, i) => ({ ...CHART.notes![0]!, id: `note-${i}`, authored: a, encounterId: undefined })),
      assessments: [],
      encounters: [],
      medicalHistory: [],
    });
    const sent = (authored: readonly string[]): string[] =>
      parseHl7Message(buildAdrA19(notes(authored), { ...HEADER, limit: 1 }))
        .segments.filter((s) => s.id === 'OBX')
        .map((s) => val(s, 4));
    expect(sent(['2026-01-01T10:00:00.1234Z', '2026-01-01T10:00:00.1235+00:00'])).toEqual(['note-1']);
    expect(sent(['2016-12-31T23:59:59.9Z', '2016-12-31T23:59:60.1Z'])).toEqual(['note-1']);
    expect(sent(['2016-12-31T23:59:59Z', '2016-12-31T18:59:60-05:00'])).toEqual(['note-1']);
  });

  it('should send one group with PID and PV1 N when no record is included', () => {
    const text = buildAdrA19(CHART, { ...HEADER, limit: 0 });
    expect(parseHl7Message(text).segments.map((s) => s.id)).toEqual(['MSH', 'MSA', 'QRD', 'PID', 'PV1', 'IN1']);
    expect(checkHl7Message(text)).toEqual([]);
  });

  it('should reject a negative or fractional limit and a long query id', () => {
    expect(() => buildAdrA19(CHART, { ...HEADER, limit: -1 })).toThrow(InvalidArgumentError);
    expect(() => buildAdrA19(CHART, { ...HEADER, limit: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => buildAdrA19(CHART, { ...HEADER, queryId: 'Q'.repeat(11) })).toThrow(InvalidArgumentError);
    expect(() => buildAdrA19(CHART, { ...HEADER, queryId: 'Q||||' })).toThrow(InvalidArgumentError); // 13 after escaping
  });

  it('should take QRD-4 from the end of the control id without cutting an escape sequence or a surrogate pair', () => {
    const qrd4 = (controlId: string): string => val(parseHl7Message(buildAdrA19(CHART, { ...HEADER, controlId })).segments.find((s) => s.id === 'QRD')!, 4);
    // The 10 last characters would start with the low half of the emoji: it is dropped, not sent alone.
    expect(qrd4('ADR\u{1F600}123456789')).toBe('123456789');
    expect(qrd4('ADR\u{1F600}12345678')).toBe('\u{1F600}12345678');
    // `|` escapes to `\F\`: the tail never starts inside it.
    expect(qrd4('ADR|123456789')).toBe('123456789');
  });
});

describe('message options', () => {
  it('should produce the same text for the same chart and options', () => {
    const o = { ...HEADER, controlId: 'MDM1' };
    expect(buildMdmT02(CHART, 'note-0001', o)).toBe(buildMdmT02(CHART, 'note-0001', o));
  });

  it('should declare UNICODE UTF-8 in MSH-18 exactly when some text is not ASCII', () => {
    const ascii = parseHl7Message(buildAdtA31(CHART, HEADER));
    expect(val(ascii.segments[0]!, 18)).toBe('');
    const zoe: PatientChart = { ...CHART, patient: { ...CHART.patient, names: [{ family: 'Zoë' }] } };
    const text = buildAdtA31(zoe, HEADER);
    expect(val(parseHl7Message(text).segments[0]!, 18)).toBe('UNICODE UTF-8');
    expect(text.split('\r')[0]).toMatch(/\|2\.5\.1\|{6}UNICODE UTF-8$/);
    expect(val(parseHl7Message(buildAdtA31(CHART, { ...HEADER, sendingFacility: 'Clínica' })).segments[0]!, 18)).toBe('UNICODE UTF-8');
    // Non-ASCII that a derived id leaves out of the message does not count.
    const id = `${'9'.repeat(126)}😀`;
    const derived = buildOruR01({ ...CHART, assessments: [{ ...CHART.assessments![0]!, id }] }, id, HEADER);
    expect(val(parseHl7Message(derived).segments.find((s) => s.id === 'OBR')!, 3)).toMatch(/^99999-[0-9a-f]{16}$/);
    expect(val(parseHl7Message(derived).segments[0]!, 18)).toBe('');
    // Nor does a practitioner identifier, an identifier system or an organization id that is skipped for not fitting.
    const directory = {
      organizations: [{ id: `Org-${'é'.repeat(20)}`, name: 'Riverside' }],
      practitioners: [{ id: 'prac-001', names: [{ family: 'Okafor' }], identifiers: [{ system: 'urn:oid:1.2', value: 'Ärztekammer-Nr-0001' }] }],
      locations: [{ id: 'loc-001', name: 'Suite 200', status: 'active' as const, organizationId: `Org-${'é'.repeat(20)}` }],
    };
    const skipped = buildAdtA08(CHART, 'enc-0001', { ...HEADER, directory, controlId: 'ADT0001' });
    // eslint-disable-next-line no-control-regex -- ASCII starts at U+0000
    expect(/[^\u0000-\u007f]/.test(skipped)).toBe(false);
    expect(val(parseHl7Message(skipped).segments[0]!, 18)).toBe('');
  });

  it('should skip blank name, address and member id parts as FHIR does: a blank family leaves the name to its text', () => {
    const chart: PatientChart = {
      ...CHART,
      patient: {
        ...CHART.patient,
        names: [{ family: ' ', text: "Mary O'Brien" }, { family: 'Doe', given: [' ', 'Ann'] }],
        addresses: [{ use: 'home', lines: ['  ', '12 Elm St'], city: ' ', postalCode: '62701' }],
        coverages: [{ ...CHART.patient.coverages![0]!, memberId: '   ' }],
      },
    };
    const m = parseHl7Message(buildAdtA31(chart, HEADER));
    const pid = m.segments.find((s) => s.id === 'PID')!;
    expect([val(pid, 5, 1, 1, 1), val(pid, 5, 1, 1, 2), val(pid, 5, 2, 1, 2), val(pid, 5, 3, 1, 2)]).toEqual(["Mary O'Brien", 'Doe', 'Ann', '']);
    expect([val(pid, 11, 1), val(pid, 11, 2), val(pid, 11, 3), val(pid, 11, 5)]).toEqual(['12 Elm St', '', '', '62701']);
    const in1 = m.segments.find((s) => s.id === 'IN1')!;
    expect([val(in1, 36), val(in1, 49)]).toEqual(['', '']);
  });

  it('should refuse in the chart check, naming the field, a contact value or an identifier system longer than its 199 characters once escaped (never cut)', () => {
    const mappingError = (chart: PatientChart): unknown => {
      try {
        buildAdtA31(chart, HEADER);
      } catch (e) {
        return e instanceof ChartValidationError ? { path: e.issues[0]?.path, count: e.issues.length } : e;
      }
      return undefined;
    };
    const long = `${'x'.repeat(196)}|||`; // 199 characters, 205 once each `|` is escaped as three
    expect(buildAdtA31({ ...CHART, patient: { ...CHART.patient, telecoms: [{ system: 'email', value: 'x'.repeat(199) }] } }, HEADER)).toContain('x'.repeat(199));
    expect(mappingError({ ...CHART, patient: { ...CHART.patient, telecoms: [{ system: 'email', value: long }] } })).toEqual({ path: ['patient', 'telecoms', 0, 'value'], count: 1 });
    const system = `urn:${'y'.repeat(200)}`;
    expect(mappingError({ ...CHART, patient: { ...CHART.patient, identifiers: [{ system, value: 'MRN-1', type: 'MR' }] } })).toEqual({
      path: ['patient', 'identifiers', 0, 'system'],
      count: 1,
    });
    expect(mappingError({ ...CHART, patient: { ...CHART.patient, identifiers: [{ system: `urn:${'y'.repeat(195)}`, value: 'MRN-1', type: 'MR' }] } })).toBeUndefined();
  });

  it('should put a name given only as text in QRD-8 as PID-5 does', () => {
    const chart: PatientChart = { ...CHART, patient: { ...CHART.patient, names: [{ text: "Mary O'Brien" }] } };
    const m = parseHl7Message(buildAdrA19(chart, { ...HEADER, controlId: 'ADR0001' }));
    expect(val(m.segments.find((s) => s.id === 'QRD')!, 8, 2)).toBe("Mary O'Brien");
    expect(val(m.segments.find((s) => s.id === 'PID')!, 5, 1)).toBe("Mary O'Brien");
  });

  it('should default MSH-7 to the current time in UTC, with seconds and +0000', () => {
    const before = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
    const ts = val(parseHl7Message(buildAdtA31(CHART)).segments[0]!, 7);
    expect(ts).toMatch(/^\d{14}\+0000$/);
    expect(ts >= before).toBe(true);
  });

  it('should send the given clock with its own offset and without fraction', () => {
    const ts = val(parseHl7Message(buildAdtA31(CHART, { now: '2026-07-04T12:00:01.250+05:45' })).segments[0]!, 7);
    expect(ts).toBe('20260704120001+0545');
  });

  it('should generate a 20-character control id beginning with the message code', () => {
    for (const [build, code] of [
      [() => buildAdtA31(CHART), 'ADT'],
      [() => buildAdrA19(CHART), 'ADR'],
      [() => buildAdtA08(CHART, 'enc-0001'), 'ADT'],
      [() => buildMdmT02(CHART, 'note-0001'), 'MDM'],
      [() => buildOruR01(CHART, 'asmt-0001'), 'ORU'],
    ] as const) {
      const id = val(parseHl7Message(build()).segments[0]!, 10);
      expect(id).toMatch(new RegExp(`^${code}[0-9A-Z]{17}$`));
    }
  });

  it('should never repeat a generated control id in 100 000 calls', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(generateControlId('MDM'));
    expect(seen.size).toBe(100_000);
  });

  it('should use processing id and line ending options', () => {
    const text = buildAdtA31(CHART, { ...HEADER, processingId: 'T', lineEnding: '\n' });
    expect(text).not.toContain('\r');
    expect(text.endsWith('IN1' + text.split('\nIN1')[1])).toBe(true);
    expect(text.endsWith('\n')).toBe(true);
    expect(val(parseHl7Message(text).segments[0]!, 11)).toBe('T');
  });

  it('should reject invalid options with InvalidArgumentError', () => {
    const bad: Record<string, unknown>[] = [
      { controlId: 'MDM' + 'x'.repeat(18) },
      { controlId: 'XYZ1' },
      { controlId: 'ADT|||||||' }, // 24 characters after escaping
      { processingId: 'X' },
      { lineEnding: '\r\n' },
      { now: '2026-03-01' },
      { now: '2026-03-01T10:30:00' },
      { sendingApplication: 'x'.repeat(21) },
      { receivingApplication: 'x'.repeat(18) + '|' }, // 22 characters once escaped
      { sendingFacility: 42 },
    ];
    for (const o of bad) expect(() => buildAdtA31(CHART, o as never), JSON.stringify(o)).toThrow(InvalidArgumentError);
    expect(() => buildMdmT02(CHART, 'note-0001', { controlId: 'ADT1' })).toThrow(InvalidArgumentError);
  });

  it("should escape header values, and take up to HD-1's 20 characters", () => {
    expect(buildAdtA31(CHART, { sendingFacility: 'F'.repeat(20), now: NOW }).split('|')[3]).toBe('F'.repeat(20));
    const first = buildAdtA31(CHART, { sendingApplication: 'A|B^C', now: NOW }).split('\r')[0];
    expect(first?.startsWith('MSH|^~\\&|A\\F\\B\\S\\C|')).toBe(true);
  });

  it('should check the chart and the directory first', () => {
    const broken = { ...CHART, patient: { ...CHART.patient, names: [{ family: 'A\u0000B' }] } };
    expect(() => buildAdtA31(broken)).toThrow(ChartValidationError);
    expect(() => buildAdtA31(CHART, { directory: { practitioners: [{ id: '', names: [] }] } as never })).toThrow(ChartValidationError);
  });

  it('should name a bad directory option by paths that start with directory, in HL7 and FHIR builders alike', () => {
    const directory = { practitioners: [{ id: 'p1', names: [] }] } as never;
    const pathsOf = (build: () => unknown): string[] => {
      try {
        build();
        return [];
      } catch (e) {
        return e instanceof ChartValidationError ? e.issues.map((i) => formatIssuePath(i.path)) : ['not a ChartValidationError'];
      }
    };
    expect(pathsOf(() => buildAdtA31(CHART, { directory }))).toEqual(['directory.practitioners[0].names']);
    expect(pathsOf(() => buildFhirPatientBundle(CHART, { directory }))).toEqual(['directory.practitioners[0].names']);
    // Given on its own (the directory Bundle's argument), the directory is the root.
    expect(pathsOf(() => buildFhirDirectoryBundle(directory, 'Practitioner'))).toEqual(['practitioners[0].names']);
  });
});
