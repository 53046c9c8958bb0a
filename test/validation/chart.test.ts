import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartValidationError, formatIssuePath } from '../../src/errors.js';
import { isoKind, isoOrderKey } from '../../src/internal/iso.js';
import type { AnswerOption, Assessment, ChartDocument, Coding, PatientChart } from '../../src/model/index.js';
import { toFhirQuestionnaire } from '../../src/fhir/questionnaire.js';
import { toFhirQuestionnaireResponse } from '../../src/fhir/questionnaire-response.js';
import { arbAssessment } from '../../src/testing/assessments.js';
import { arbCoding } from '../../src/testing/codes.js';
import { arbIsoDateTimeFull } from '../../src/testing/dates.js';
import { INVALID_IDENTIFIER_SYSTEMS } from '../../src/testing/invalid-values.js';
import {
  checkChartDocument,
  checkDirectory,
  checkPatientChart,
  validateChartDocument,
  validatePatientChart,
} from '../../src/validation/chart-check.js';
import { runs } from '../support/runs.js';

const SECRET_NAME = 'Zyxwvutsrq-Secret';

function baseChart(): PatientChart {
  return {
    patient: {
      id: 'pat-1',
      identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1', type: 'MR' }],
      names: [{ use: 'official', family: SECRET_NAME, given: ['Ann'] }],
      birthDate: '1984-07-02',
      gender: 'female',
    },
    encounters: [
      {
        id: 'enc-1',
        status: 'finished',
        class: 'AMB',
        period: { start: '2026-03-01T09:30:00-05:00', end: '2026-03-01T10:10:00-05:00' },
        diagnoses: [{ code: { system: 'icd-10-cm', code: 'F32.1' }, rank: 1 }],
        procedures: [{ code: { system: 'cpt', code: '90834' }, status: 'completed' }],
      },
    ],
    notes: [
      {
        id: 'note-1',
        type: 'progress-note',
        title: 'Progress note',
        status: 'final',
        authored: '2026-03-01T10:15:00-05:00',
        encounterId: 'enc-1',
        text: 'Line 1\r\nLine 2\twith tab',
      },
    ],
    assessments: [
      {
        id: 'a-1',
        instrument: {
          id: 'phq-2',
          title: 'PHQ-2',
          items: [
            { linkId: 'q1', text: 'Interest', type: 'choice' },
            { linkId: 'q2', text: 'Score', type: 'decimal' },
          ],
        },
        status: 'completed',
        authored: '2026-03-01T10:20:00-05:00',
        answers: [
          { linkId: 'q1', value: { type: 'coding', value: { system: 'loinc', code: 'LA6569-3', score: 1 } } },
          { linkId: 'q2', value: { type: 'integer', value: 3 } },
        ],
      },
    ],
    medicalHistory: [
      { id: 'hx-1', code: { system: 'icd-10-cm', code: 'E11.9' }, clinicalStatus: 'resolved', onset: '2019', abatement: '2020-05' },
    ],
  };
}

/** Deep-clone, apply a mutation, and return the chart as unknown input. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests break the chart's shape on purpose
function mutate(fn: (c: any) => void): unknown {
  const c = structuredClone(baseChart());
  fn(c);
  return c;
}

function paths(value: unknown): string[] {
  return checkPatientChart(value).map((i) => formatIssuePath(i.path));
}

describe('checkPatientChart', () => {
  it('should accept a valid chart with no issues', () => {
    expect(checkPatientChart(baseChart())).toEqual([]);
  });

  it('should name the path of a bad diagnosis code system', () => {
    const issues = checkPatientChart(mutate((c) => (c.encounters[0].diagnoses[0].code.system = 'icd-9')));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: ['encounters', 0, 'diagnoses', 0, 'code', 'system'], code: 'enum' });
  });

  it.each([
    ['2026-02-30', 'calendar day'],
    ['2026-13-01', 'month'],
    ['2026-03-01T09:30:00', 'missing offset'],
    ['2026-03-01T09:30-05:00', 'missing seconds'],
    ['2026-03-01T24:00:00Z', 'hour 24'],
    ['2026-03-01T09:30:00.12345Z', 'five fraction digits'],
    ['2026-03-01T09:30:00+15:00', 'offset beyond +14:00'],
    ['0000-01-01', 'year 0'],
    ['2026-3-1', 'unpadded'],
  ])('should reject the date-time %s (%s) with the path and no value', (bad) => {
    const issues = checkPatientChart(mutate((c) => (c.encounters[0].period.start = bad)));
    expect(issues.map((i) => formatIssuePath(i.path))).toEqual(['encounters[0].period.start']);
    expect(issues[0]?.code).toBe('format');
    expect(issues[0]?.message).not.toContain(bad);
  });

  it('should accept leap days, Z, half-hour offsets and 1–4 fraction digits', () => {
    for (const good of ['2024-02-29T00:00:00Z', '2026-03-01T09:30:00.5+05:30', '2026-03-01T09:30:00.1234+14:00', '2026', '2026-03']) {
      expect(paths(mutate((c) => (c.encounters[0].period.start = good)))).toEqual([]);
    }
    expect(paths(mutate((c) => (c.encounters[0].period = { start: '2026-03-01T09:30:00.1234-12:00' })))).toEqual([]);
  });

  it('should reject a period whose end precedes its start, comparing instants across offsets', () => {
    // 10:00-05:00 is 15:00Z; 14:30Z is earlier.
    const issues = paths(mutate((c) => (c.encounters[0].period = { start: '2026-03-01T10:00:00-05:00', end: '2026-03-01T14:30:00Z' })));
    expect(issues).toEqual(['encounters[0].period.end']);
    expect(paths(mutate((c) => (c.encounters[0].period = { start: '2026-03-01T10:00:00-05:00', end: '2026-03-01T15:30:00Z' })))).toEqual([]);
  });

  it('should reject exactly the periods whose end is an earlier instant than the start (same offsets and leap seconds included)', () => {
    // Pairs often share a layout (same length and offset), which the check compares as text: hold that
    // shortcut equal to the instant comparison, leap seconds (folded into second 59) and mixed layouts too.
    const sameLayoutPair = fc
      .tuple(arbIsoDateTimeFull(), arbIsoDateTimeFull())
      .map(([a, b]) => [a, b.slice(0, 19) + a.slice(19)] as const)
      .filter(([, b]) => isoKind(b) === 'dateTime');
    fc.assert(
      fc.property(fc.oneof(sameLayoutPair, fc.tuple(arbIsoDateTimeFull(), arbIsoDateTimeFull())), ([start, end]) => {
        const issues = paths(mutate((c) => (c.encounters[0].period = { start, end })));
        expect(issues).toEqual(isoOrderKey(end) < isoOrderKey(start) ? ['encounters[0].period.end'] : []);
      }),
      { numRuns: runs(500) },
    );
    // A leap second comes after second 59 of its minute, in either layout.
    const period = (start: string, end: string): string[] => paths(mutate((c) => (c.encounters[0].period = { start, end })));
    expect(period('2016-12-31T23:59:60Z', '2016-12-31T23:59:59Z')).toEqual(['encounters[0].period.end']);
    expect(period('2016-12-31T23:59:60Z', '2016-12-31T23:59:59+00:00')).toEqual(['encounters[0].period.end']);
    expect(period('2016-12-31T23:59:60.5Z', '2016-12-31T23:59:59.1Z')).toEqual(['encounters[0].period.end']);
    expect(period('2016-12-31T23:59:59.9Z', '2016-12-31T23:59:60.1Z')).toEqual([]);
    expect(period('2016-12-31T23:59:59.9Z', '2016-12-31T18:59:60.1-05:00')).toEqual([]);
    // The fourth fraction digit counts, in either layout.
    expect(period('2026-01-01T10:00:00.1235Z', '2026-01-01T10:00:00.1234+00:00')).toEqual(['encounters[0].period.end']);
    expect(period('2026-01-01T10:00:00.1234Z', '2026-01-01T10:00:00.1235+00:00')).toEqual([]);
  });

  it('should compare a date with a date-time on the calendar parts only', () => {
    // The date has no zone, so a date-time on the same day is never "before" it.
    expect(paths(mutate((c) => (c.encounters[0].period = { start: '2026-03-01', end: '2026-03-01T00:30:00+05:00' })))).toEqual([]);
    expect(paths(mutate((c) => (c.encounters[0].period = { start: '2026-03-02', end: '2026-03-01T23:30:00-05:00' })))).toEqual([
      'encounters[0].period.end',
    ]);
  });

  it('should reject a date-time as birth date', () => {
    expect(paths(mutate((c) => (c.patient.birthDate = '1984-07-02T00:00:00Z')))).toEqual(['patient.birthDate']);
  });

  it('should reject forbidden control characters and lone surrogates but accept tab, CR, LF and astral characters', () => {
    expect(paths(mutate((c) => (c.notes[0].text = 'a\u0000b')))).toEqual(['notes[0].text']);
    expect(paths(mutate((c) => (c.notes[0].text = 'a\u001Bb')))).toEqual(['notes[0].text']);
    expect(paths(mutate((c) => (c.notes[0].text = 'a\uD800b')))).toEqual(['notes[0].text']);
    expect(paths(mutate((c) => (c.notes[0].text = 'a\uDC00')))).toEqual(['notes[0].text']);
    expect(paths(mutate((c) => (c.notes[0].text = 'tab\t cr\r lf\n 😀 עברית |^~\\&')))).toEqual([]);
  });

  it('should require non-empty required text and allow empty optional text', () => {
    expect(paths(mutate((c) => (c.notes[0].text = '')))).toEqual(['notes[0].text']);
    expect(paths(mutate((c) => (c.encounters[0].reason = '')))).toEqual([]);
  });

  it('should reject ids with surrounding white space or over 128 characters', () => {
    expect(paths(mutate((c) => (c.encounters[0].id = ' enc')))).toEqual(['encounters[0].id']);
    expect(paths(mutate((c) => (c.encounters[0].id = 'x'.repeat(129))))).toEqual(['encounters[0].id']);
    // Any other character is allowed in an id; a bare chart may refer to records it does not hold.
    expect(paths(mutate((c) => (c.encounters[0].id = 'enc|^~\\&😀 1')))).toEqual([]);
  });

  it('should reject tab, CR, LF, DEL and C1 controls inside ids (ids travel in URLs and HL7 fields)', () => {
    expect(paths(mutate((c) => (c.encounters[0].id = 'enc\t1')))).toEqual(['encounters[0].id']);
    expect(paths(mutate((c) => (c.notes[0].encounterId = 'enc\n1')))).toEqual(['notes[0].encounterId']);
    expect(paths(mutate((c) => (c.patient.id = 'pat\u007f1')))).toEqual(['patient.id']);
    expect(paths(mutate((c) => (c.notes[0].id = 'note\u00851')))).toEqual(['notes[0].id']);
    expect(paths(mutate((c) => (c.notes[0].id = 'note\u00a01')))).toEqual([]);
  });

  it('should reject any control character inside a code, so an escaped code always fits HL7 CE', () => {
    for (const control of ['\t', '\n', '\r', '\u007f', '\u0080', '\u009f']) {
      const issues = checkPatientChart(mutate((c) => (c.encounters[0].diagnoses[0].code.code = `F32${control}1`)));
      expect(issues.map((i) => [formatIssuePath(i.path), i.code]), JSON.stringify(control)).toEqual([['encounters[0].diagnoses[0].code.code', 'control-character']]);
    }
    // Text keeps DEL and C1 (HL7 sends them as hex escapes); a display is text.
    expect(paths(mutate((c) => (c.encounters[0].diagnoses[0].code.display = 'Major\u0085depressive\u007f')))).toEqual([]);
  });

  it('should keep rank and order within FHIR positiveInt (32-bit)', () => {
    expect(paths(mutate((c) => (c.encounters[0].diagnoses[0].rank = 2_147_483_647)))).toEqual([]);
    expect(paths(mutate((c) => (c.encounters[0].diagnoses[0].rank = 2_147_483_648)))).toEqual(['encounters[0].diagnoses[0].rank']);
    expect(paths(mutate((c) => (c.encounters[0].diagnoses[0].rank = 0)))).toEqual(['encounters[0].diagnoses[0].rank']);
  });

  it('should keep codes short enough for HL7 CE after escaping (64 characters)', () => {
    expect(paths(mutate((c) => (c.encounters[0].diagnoses[0].code.code = 'x'.repeat(64))))).toEqual([]);
    expect(paths(mutate((c) => (c.encounters[0].diagnoses[0].code.code = 'x'.repeat(65))))).toEqual([
      'encounters[0].diagnoses[0].code.code',
    ]);
    expect(paths(mutate((c) => (c.encounters[0].diagnoses[0].code.code = 'F32.1 ')))).toEqual(['encounters[0].diagnoses[0].code.code']);
  });

  it.each(INVALID_IDENTIFIER_SYSTEMS)('should reject the identifier system %j with its path and no value', (bad) => {
    const issues = checkPatientChart(mutate((c) => (c.patient.identifiers[0].system = bad)));
    expect(issues.map((i) => formatIssuePath(i.path))).toEqual(['patient.identifiers[0].system']);
    if (bad !== '') expect(issues[0]?.message).not.toContain(bad);
  });

  it('should take OIDs and UUIDs only in the FHIR forms urn:oid: and urn:uuid: (the FHIR validator refuses the others)', () => {
    for (const good of ['urn:oid:2.16.840.1.113883.19.5', 'urn:oid:1.3.6.1.4.1.0', 'urn:uuid:7b2a4f0c-3c1e-4d7a-9f15-2b8e6a1c0d42', 'urn:ietf:rfc:3986', 'http://x.example/oid:1']) {
      expect(paths(mutate((c) => (c.patient.identifiers[0].system = good))), good).toEqual([]);
    }
    // A bare prefix too (its message names the FHIR form, which here is the whole value): in HL7 it would be an
    // assigning authority with a type and no universal id (`&&ISO`), which v2.5.1 HD does not allow.
    for (const bare of ['urn:oid:', 'urn:uuid:']) {
      expect(paths(mutate((c) => (c.patient.identifiers[0].system = bare))), bare).toEqual(['patient.identifiers[0].system']);
    }
    // The same rule for the systems of payer and directory identifiers, and for an instrument's url.
    expect(paths(mutate((c) => (c.patient.coverages = [{ id: 'c', status: 'active', payer: { id: 'p', name: 'P', identifier: { system: 'urn:oid:x', value: '1' } } }])))).toEqual([
      'patient.coverages[0].payer.identifier.system',
    ]);
    expect(checkDirectory({ practitioners: [{ id: 'd', names: [{ text: 'D' }], identifiers: [{ system: 'uuid:7b2a4f0c-3c1e-4d7a-9f15-2b8e6a1c0d42', value: '1' }] }] }).map((i) => formatIssuePath(i.path))).toEqual([
      'practitioners[0].identifiers[0].system',
    ]);
    expect(paths(mutate((c) => (c.assessments[0].instrument.url = 'urn:uuid:0F3C8A8E-2B5C-4C1E-9A77-0B1D2E3F4A5B')))).toEqual(['assessments[0].instrument.url']);
  });

  it("should refuse | and # in an instrument's url: a response's canonical reference would read them as a version and a fragment", () => {
    expect(paths(mutate((c) => (c.assessments[0].instrument.url = 'https://example.org/q?a=1&b=2%7C3')))).toEqual([]);
    expect(paths(mutate((c) => (c.assessments[0].instrument.url = 'http://loinc.org/q/44249-1|2.68')))).toEqual(['assessments[0].instrument.url']);
    expect(paths(mutate((c) => (c.assessments[0].instrument.url = 'http://example.org/Questionnaire/q1#part')))).toEqual(['assessments[0].instrument.url']);
  });

  it("should keep text within FHIR's string limit of 1 048 576 characters, and note text within 786 432 UTF-8 bytes (its base64 within 1 MiB)", () => {
    const limit = 1_048_576;
    expect(paths(mutate((c) => (c.encounters[0].reason = 'r'.repeat(limit))))).toEqual([]);
    expect(paths(mutate((c) => (c.encounters[0].reason = 'r'.repeat(limit + 1))))).toEqual(['encounters[0].reason']);
    expect(paths(mutate((c) => (c.assessments[0].instrument.items[0].text = 'q'.repeat(limit + 1))))).toEqual(['assessments[0].instrument.items[0].text']);
    expect(paths(mutate((c) => (c.notes[0].text = 'n'.repeat(786_432))))).toEqual([]);
    expect(paths(mutate((c) => (c.notes[0].text = 'n'.repeat(786_433))))).toEqual(['notes[0].text']);
    expect(paths(mutate((c) => (c.notes[0].text = 'é'.repeat(393_216))))).toEqual([]);
    expect(paths(mutate((c) => (c.notes[0].text = `${'é'.repeat(393_216)}n`)))).toEqual(['notes[0].text']);
  });

  it('should report duplicate ids with the path of the later one', () => {
    const issues = checkPatientChart(mutate((c) => c.encounters.push({ ...c.encounters[0] })));
    expect(issues.map((i) => [formatIssuePath(i.path), i.code])).toEqual([['encounters[1].id', 'duplicate']]);
  });

  it('should check answers against item definitions', () => {
    expect(paths(mutate((c) => (c.assessments[0].answers[0].linkId = 'q9')))).toEqual(['assessments[0].answers[0].linkId']);
    expect(paths(mutate((c) => (c.assessments[0].answers[0].value = { type: 'string', value: 'x' })))).toEqual([
      'assessments[0].answers[0].value.type',
    ]);
    expect(paths(mutate((c) => (c.assessments[0].answers[1].value = { type: 'integer', value: 1.5 })))).toEqual([
      'assessments[0].answers[1].value.value',
    ]);
    expect(paths(mutate((c) => (c.assessments[0].answers[1].value = { type: 'decimal', value: Number.NaN })))).toEqual([
      'assessments[0].answers[1].value.value',
    ]);
  });

  it('should reject options on items that are not choices, integer answers beyond 32 bits to integer items, and answers out of item order', () => {
    // Answer options are codings: on a string item no answer could match them.
    expect(checkPatientChart(mutate((c) => (c.assessments[0].instrument.items[1].options = [{ system: 'loinc', code: 'LA6568-5' }]))).map((i) => [formatIssuePath(i.path), i.code])).toEqual([
      ['assessments[0].instrument.items[1].options', 'type'],
    ]);
    expect(paths(mutate((c) => (c.assessments[0].instrument.items[1].options = [])))).toEqual([]);
    // A decimal item takes any integer; an integer item only FHIR's 32-bit ones.
    expect(paths(mutate((c) => (c.assessments[0].answers[1].value = { type: 'integer', value: 2 ** 31 })))).toEqual([]);
    const integerItem = (value: number) =>
      paths(
        mutate((c) => {
          c.assessments[0].instrument.items[1].type = 'integer';
          c.assessments[0].answers[1].value = { type: 'integer', value };
        }),
      );
    expect(integerItem(2_147_483_647)).toEqual([]);
    expect(integerItem(-2_147_483_648)).toEqual([]);
    expect(integerItem(2_147_483_648)).toEqual(['assessments[0].answers[1].value.value']);
    expect(integerItem(-2_147_483_649)).toEqual(['assessments[0].answers[1].value.value']);
    // A QuestionnaireResponse keeps its Questionnaire's item order.
    expect(checkPatientChart(mutate((c) => c.assessments[0].answers.reverse())).map((i) => [formatIssuePath(i.path), i.code])).toEqual([
      ['assessments[0].answers[1].linkId', 'range'],
    ]);
    // An item type no answer fits (even one named like an Object.prototype member) is reported once, at the item.
    expect(paths(mutate((c) => (c.assessments[0].instrument.items[0].type = 'constructor')))).toEqual(['assessments[0].instrument.items[0].type']);
  });

  it('should hold one definition per instrument id across assessments: the same url, and the same items where both define them', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test breaks the chart's shape on purpose
    const second = (fn: (a: any) => void) =>
      checkPatientChart(
        mutate((c) => {
          const copy = structuredClone(c.assessments[0]);
          copy.id = 'a-2';
          fn(copy);
          c.assessments.push(copy);
        }),
      ).map((i) => [formatIssuePath(i.path), i.code]);
    // The same definition (in another key order) and one without items: consistent.
    expect(second(() => undefined)).toEqual([]);
    expect(second((a) => (a.instrument.items = a.instrument.items.map((it: Record<string, unknown>) => Object.fromEntries(Object.entries(it).reverse()))))).toEqual([]);
    expect(second((a) => delete a.instrument.items)).toEqual([]);
    expect(second((a) => (a.instrument.title = 'PHQ-2 (2024)'))).toEqual([]);
    // Another item definition under the same id, or another url: the Bundle's one Questionnaire could not fit both.
    expect(second((a) => (a.instrument.items[0].text = 'Little interest'))).toEqual([['assessments[1].instrument.items', 'duplicate']]);
    expect(second((a) => a.instrument.items.pop() && a.answers.pop())).toEqual([['assessments[1].instrument.items', 'duplicate']]);
    expect(second((a) => (a.instrument.url = 'http://example.org/q/phq-2'))).toEqual([['assessments[1].instrument.url', 'duplicate']]);
    // Another id is another instrument.
    expect(second((a) => ((a.instrument.id = 'phq-2b'), (a.instrument.items[0].text = 'Little interest')))).toEqual([]);
    // Unknown keys are ignored here as everywhere else; the item's code is part of the definition.
    expect(second((a) => (a.instrument.items[0].note = 'local'))).toEqual([]);
    expect(second((a) => (a.instrument.items[0].code = { system: 'loinc', code: '00000-0' }))).toEqual([['assessments[1].instrument.items', 'duplicate']]);
  });

  it('should compare item definitions without recursing into unknown deep nesting (typed issues, no RangeError)', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { x: deep };
    const chart = mutate((c) => {
      const copy = structuredClone(c.assessments[0]);
      copy.id = 'a-2';
      c.assessments[0].instrument.items[0].extra = deep;
      copy.instrument.items[0].extra = { x: deep };
      c.assessments.push(copy);
    });
    expect(checkPatientChart(chart)).toEqual([]);
  });

  it('should reject any change to the items of a second assessment of the same instrument, and nothing else', () => {
    const arbItemChange = fc.oneof(
      // eslint-disable-next-line no-control-regex -- keeps out the C0 control characters FHIR strings forbid
      fc.record({ field: fc.constant('text'), value: fc.string().filter((t) => !/[\u0000-\u001f\ud800-\udfff]/.test(t)).map((t) => `Zq-${t}`) }),
      fc.record({ field: fc.constant('linkId'), value: fc.constantFrom('Zq-3', 'Zq-1b') }),
    );
    fc.assert(
      fc.property(arbItemChange, fc.boolean(), ({ field, value }, changeIt) => {
        const chart = mutate((c) => {
          const copy = structuredClone(c.assessments[0]);
          copy.id = 'a-2';
          if (changeIt) {
            copy.instrument.items[0][field] = value;
            if (field === 'linkId') copy.answers[0].linkId = value;
          }
          c.assessments.push(copy);
        });
        const issues = checkPatientChart(chart).map((i) => [formatIssuePath(i.path), i.code]);
        expect(issues).toEqual(changeIt ? [['assessments[1].instrument.items', 'duplicate']] : []);
        for (const issue of checkPatientChart(chart)) expect(issue.message).not.toContain(value);
      }),
      { numRuns: runs(100) },
    );
  });

  it("should hold one payer per payer id across the patient's coverages: FHIR exports each payer id once", () => {
    const payer = { id: 'payer-acme', name: 'Acme Health Plan', identifier: { system: 'urn:oid:2.16.840.1.113883.6.300', value: '60054' } };
    const withPayers = (second: object): unknown =>
      mutate((c) => {
        c.patient.coverages = [
          { id: 'cov-1', status: 'active', payer: { ...payer } },
          { id: 'cov-2', status: 'active', payer: second },
        ];
      });
    // The same payer, as two equal objects (JSON) or one shared object: fine.
    expect(checkPatientChart(withPayers({ ...payer, identifier: { ...payer.identifier } }))).toEqual([]);
    // Another name or identifier under the same id: the FHIR export would drop it (one Organization per id).
    const issues = checkPatientChart(withPayers({ id: 'payer-acme', name: SECRET_NAME }));
    expect(issues.map((i) => [formatIssuePath(i.path), i.code])).toEqual([
      ['patient.coverages[1].payer.name', 'duplicate'],
      ['patient.coverages[1].payer.identifier', 'duplicate'],
    ]);
    for (const issue of issues) expect(issue.message).not.toContain(SECRET_NAME);
    expect(paths(withPayers({ ...payer, identifier: { ...payer.identifier, type: 'XX' } }))).toEqual(['patient.coverages[1].payer.identifier']);
    // Another id is another payer.
    expect(checkPatientChart(withPayers({ id: 'payer-other', name: SECRET_NAME }))).toEqual([]);
  });

  it('should report an instrument that is not an object once', () => {
    for (const instrument of [null, 5, [], 'phq-2']) {
      const issues = checkPatientChart(mutate((c) => (c.assessments[0].instrument = instrument)));
      expect(issues.map((i) => [formatIssuePath(i.path), i.code]), JSON.stringify(instrument)).toEqual([['assessments[0].instrument', 'type']]);
    }
  });

  it('should require at least one identifier and one usable name', () => {
    expect(paths(mutate((c) => (c.patient.identifiers = [])))).toEqual(['patient.identifiers']);
    expect(paths(mutate((c) => (c.patient.names = [{ family: '', given: [''] }])))).toEqual(['patient.names[0]']);
  });

  it('should tell a deceased value of the wrong type that it may be a boolean or a date-time', () => {
    for (const deceased of [null, 0, {}]) {
      const issues = checkPatientChart(mutate((c) => (c.patient.deceased = deceased)));
      expect(issues.map((i) => [formatIssuePath(i.path), i.code, i.message])).toEqual([['patient.deceased', 'type', 'must be a boolean or an ISO 8601 string']]);
    }
    expect(checkPatientChart(mutate((c) => (c.patient.deceased = true)))).toEqual([]);
  });

  it('should reject wrong JSON types without crashing', () => {
    for (const bad of [null, 42, 'x', [], { patient: null }, { patient: { id: 1 } }, { patient: baseChart().patient, encounters: {} }]) {
      const issues = checkPatientChart(bad);
      expect(issues.length).toBeGreaterThan(0);
    }
  });

  it('should never put a value into a message', () => {
    const issues = checkPatientChart(
      mutate((c) => {
        c.patient.names[0].family = `${SECRET_NAME}\u0000`;
        c.patient.birthDate = `${SECRET_NAME}`;
        c.patient.identifiers[0].system = SECRET_NAME;
        c.patient.gender = SECRET_NAME;
      }),
    );
    expect(issues).toHaveLength(4);
    for (const issue of issues) expect(issue.message).not.toContain(SECRET_NAME);
  });

  it('should never crash on arbitrary JSON input', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(Array.isArray(checkPatientChart(value))).toBe(true);
        expect(Array.isArray(checkChartDocument(value))).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('checkPatientChart: coded answers and their item options', () => {
  const NOT_AN_OPTION = 'LA-not-an-option';

  /** The audit's repro: a PHQ-2 item with one option, answered with a code outside it. */
  function phq2Chart(answer: Coding & { score?: number }): PatientChart {
    return {
      patient: baseChart().patient,
      assessments: [
        {
          id: 'a-1',
          instrument: {
            id: 'phq-2',
            title: 'PHQ-2',
            items: [{ linkId: 'phq2-1', text: 'Little interest or pleasure in doing things', type: 'choice', options: [{ system: 'loinc', code: 'LA6568-5', display: 'Not at all', score: 0 }] }],
          },
          status: 'completed',
          authored: '2026-03-01T10:20:00-05:00',
          answers: [{ linkId: 'phq2-1', value: { type: 'coding', value: answer } }],
        },
      ],
    };
  }

  it('should reject a coded answer outside its item options, by path and without the code (the audit repro)', () => {
    // Arrange
    const chart = phq2Chart({ system: 'loinc', code: NOT_AN_OPTION });
    // Act
    const issues = checkPatientChart(chart);
    // Assert
    expect(issues.map((i) => [formatIssuePath(i.path), i.code])).toEqual([['assessments[0].answers[0].value', 'enum']]);
    expect(issues[0]?.message).not.toContain(NOT_AN_OPTION);
    expect(() => validatePatientChart(chart)).toThrow(ChartValidationError);
    const assessment = chart.assessments?.[0] as Assessment;
    expect(() => toFhirQuestionnaireResponse(assessment, chart.patient)).toThrow(ChartValidationError);
    try {
      toFhirQuestionnaireResponse(assessment, chart.patient);
    } catch (error) {
      expect((error as ChartValidationError).issues.map((i) => formatIssuePath(i.path))).toEqual(['assessment.answers[0].value']);
      expect((error as ChartValidationError).message).not.toContain(NOT_AN_OPTION);
    }
  });

  it('should match an option by system and code, as FHIR does: the display and the score need not match', () => {
    expect(checkPatientChart(phq2Chart({ system: 'loinc', code: 'LA6568-5', display: 'Not at all', score: 0 }))).toEqual([]);
    expect(checkPatientChart(phq2Chart({ system: 'loinc', code: 'LA6568-5' }))).toEqual([]);
    expect(checkPatientChart(phq2Chart({ system: 'loinc', code: 'LA6568-5', display: 'Pas du tout' }))).toEqual([]);
    // Same code, other system: not the option.
    expect(paths(phq2Chart({ system: 'snomed-ct', code: 'LA6568-5' }))).toEqual(['assessments[0].answers[0].value']);
    // Codes are case-sensitive (FHIR code is).
    expect(paths(phq2Chart({ system: 'loinc', code: 'la6568-5' }))).toEqual(['assessments[0].answers[0].value']);
  });

  it('should let a choice item without options take any coding', () => {
    const chart = phq2Chart({ system: 'loinc', code: NOT_AN_OPTION });
    const item = chart.assessments?.[0]?.instrument.items?.[0];
    if (item === undefined) throw new Error('unreachable');
    delete item.options;
    expect(checkPatientChart(chart)).toEqual([]);
    item.options = [];
    expect(checkPatientChart(chart)).toEqual([]);
  });

  it('should report a malformed coded answer where it breaks, not also as outside the options', () => {
    expect(paths(phq2Chart({ system: 'loinc', code: '' }))).toEqual(['assessments[0].answers[0].value.value.code']);
  });

  /** A generated assessment with definitions, and the index of an answer to a choice item with options. */
  const arbOptionAnswer = arbAssessment({ withDefinitions: true, maxItems: 5 })
    .map((assessment) => {
      const byLinkId = new Map((assessment.instrument.items ?? []).map((item) => [item.linkId, item]));
      const index = assessment.answers.findIndex((a) => a.value.type === 'coding' && (byLinkId.get(a.linkId)?.options?.length ?? 0) > 0);
      return { assessment, index, options: index < 0 ? [] : (byLinkId.get(assessment.answers[index]?.linkId ?? '')?.options ?? []) };
    })
    .filter(({ index }) => index >= 0);

  function withAnswer(assessment: Assessment, index: number, value: AnswerOption): PatientChart {
    const answers = assessment.answers.map((a, i) => (i === index ? { ...a, value: { type: 'coding' as const, value } } : a));
    return { patient: baseChart().patient, assessments: [{ ...assessment, answers }] };
  }

  it('should reject any coded answer outside its item options with the path of the answer value', () => {
    fc.assert(
      fc.property(
        arbOptionAnswer.chain((c) => fc.record({ c: fc.constant(c), coding: arbCoding().filter((x) => !c.options.some((o) => o.system === x.system && o.code === x.code)) })),
        ({ c, coding }) => {
          const issues = checkPatientChart(withAnswer(c.assessment, c.index, coding));
          expect(issues.map((i) => [formatIssuePath(i.path), i.code])).toEqual([[`assessments[0].answers[${c.index}].value`, 'enum']]);
          // The message is the rule alone, the same for every code (a one-character code such as `'` may well
          // occur in it, so "does not contain the code" would not say anything).
          for (const issue of issues) expect(issue.message).toBe("must be one of the item's answer options (same system and code)");
        },
      ),
      { numRuns: runs(150) },
    );
  });

  it('should accept every option of the item, whatever display or score the answer carries', () => {
    fc.assert(
      fc.property(
        arbOptionAnswer.chain((c) => fc.record({ c: fc.constant(c), option: fc.constantFrom(...c.options), display: fc.option(fc.string(), { nil: undefined }), keepScore: fc.boolean() })),
        ({ c, option, display, keepScore }) => {
          const value: AnswerOption = { system: option.system, code: option.code };
          // eslint-disable-next-line no-control-regex -- removes the C0 control characters FHIR strings forbid
          if (display !== undefined) value.display = display.replace(/[\u0000-\u001F\uD800-\uDFFF]/g, '');
          if (keepScore && option.score !== undefined) value.score = option.score;
          const chart = withAnswer(c.assessment, c.index, value);
          expect(checkPatientChart(chart)).toEqual([]);
          // The FHIR answer is then one of the Questionnaire's answerOption codings (system + code).
          const response = toFhirQuestionnaireResponse(chart.assessments?.[0] as Assessment, chart.patient);
          const questionnaire = toFhirQuestionnaire(c.assessment.instrument);
          const linkId = c.assessment.answers[c.index]?.linkId;
          const answer = response.item?.find((i) => i.linkId === linkId)?.answer?.[0]?.valueCoding;
          const allowed = questionnaire.item?.find((i) => i.linkId === linkId)?.answerOption?.map((o) => `${o.valueCoding?.system}|${o.valueCoding?.code}`);
          expect(allowed).toContain(`${answer?.system}|${answer?.code}`);
        },
      ),
      { numRuns: runs(150) },
    );
  });
});

describe('validatePatientChart', () => {
  it('should return the chart when valid', () => {
    const chart = baseChart();
    expect(validatePatientChart(chart)).toBe(chart);
  });

  it('should throw a ChartValidationError listing every issue without patient values', () => {
    const bad = mutate((c) => {
      c.patient.gender = 'x';
      c.encounters[0].class = 'XYZ';
    });
    let error: unknown;
    try {
      validatePatientChart(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChartValidationError);
    const err = error as ChartValidationError;
    expect(err.code).toBe('invalid-chart');
    expect(err.issues.map((i) => formatIssuePath(i.path))).toEqual(['patient.gender', 'encounters[0].class']);
    expect(err.message).toContain('encounters[0].class');
    expect(err.message).not.toContain(SECRET_NAME);
  });
});

describe('checkChartDocument', () => {
  function doc(): ChartDocument {
    const chart = baseChart();
    chart.encounters![0]!.locationId = 'loc-1';
    chart.encounters![0]!.participants = [{ role: 'ATND', practitionerId: 'prac-1' }];
    chart.notes![0]!.authorId = 'prac-1';
    return {
      patients: [chart],
      directory: {
        organizations: [{ id: 'org-1', name: 'Clinic' }],
        practitioners: [{ id: 'prac-1', names: [{ family: 'Okafor' }] }],
        locations: [{ id: 'loc-1', name: 'Suite 200', organizationId: 'org-1' }],
      },
    };
  }

  it('should accept a consistent document', () => {
    expect(checkChartDocument(doc())).toEqual([]);
    expect(validateChartDocument(doc()).patients).toHaveLength(1);
  });

  it('should report every unresolved reference by path', () => {
    const d = doc();
    d.patients[0]!.encounters![0]!.locationId = 'loc-x';
    d.patients[0]!.notes![0]!.authorId = 'prac-x';
    d.patients[0]!.notes![0]!.encounterId = 'enc-x';
    d.directory!.locations![0]!.organizationId = 'org-x';
    const issues = checkChartDocument(d);
    expect(issues.map((i) => [formatIssuePath(i.path), i.code])).toEqual([
      ['directory.locations[0].organizationId', 'reference'],
      ['patients[0].encounters[0].locationId', 'reference'],
      ['patients[0].notes[0].authorId', 'reference'],
      ['patients[0].notes[0].encounterId', 'reference'],
    ]);
  });

  it("should not resolve a note's encounter in another patient's chart", () => {
    const d = doc();
    const other = baseChart();
    other.patient.id = 'pat-2';
    other.encounters![0]!.id = 'enc-2';
    other.notes![0]!.encounterId = 'enc-1';
    d.patients.push(other);
    expect(checkChartDocument(d).map((i) => formatIssuePath(i.path))).toEqual(['patients[1].notes[0].encounterId']);
  });

  it('should report duplicate patient ids and a missing patients array', () => {
    const d = doc();
    d.patients.push(structuredClone(d.patients[0]!));
    expect(checkChartDocument(d).map((i) => formatIssuePath(i.path))).toEqual(['patients[1].patient.id']);
    expect(checkChartDocument({}).map((i) => formatIssuePath(i.path))).toEqual(['patients']);
  });
});

describe('checkDirectory', () => {
  it('should check directory records and duplicate ids', () => {
    const issues = checkDirectory({
      practitioners: [{ id: 'p', names: [] }, { id: 'p', names: [{ family: 'X' }] }],
      locations: [{ id: 'l', name: 'L', status: 'closed' }],
      organizations: [{ id: 'o', name: 'O', addresses: [{ use: 'home', city: 'X' }], telecoms: [{ system: 'phone', value: '1', use: 'work' }] }],
    });
    expect(issues.map((i) => [formatIssuePath(i.path), i.code])).toEqual([
      ['organizations[0].addresses[0].use', 'enum'],
      ['practitioners[0].names', 'required'],
      ['practitioners[1].id', 'duplicate'],
      ['locations[0].status', 'enum'],
    ]);
  });
});
