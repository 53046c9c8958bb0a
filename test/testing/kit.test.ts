/**
 * The public API of chart-export/testing: what each arbitrary generates (valid, covering what it promises,
 * honouring its options), what the property helpers report, that failing charts shrink small, and that the
 * kit's own ISO and HL7 NM arithmetic agrees with the core's internals (the kit may use only the public API).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HL7_DELIMITERS,
  buildAdtA31,
  buildFhirPatientBundle,
  checkChartDocument,
  checkDirectory,
  checkPatientChart,
  formatIssuePath,
  type PatientChart,
} from '../../src/index.js';
import { isoOrderKey, parseIsoDateTime } from '../../src/internal/iso.js';
import { roundTripMismatches } from '../../src/testing/escape-round-trip.js';
import { isValidChartText } from '../../src/testing/fragments.js';
import {
  HOSTILE_FRAGMENTS,
  PropertyAssertionError,
  assertBundleReferencesResolve,
  assertEscapeRoundTrip,
  assertHl7ReadsBack,
  assessment,
  chartDocument,
  clinicalNote,
  coverage,
  directory,
  encounter,
  hl7Delimiters,
  hl7Text,
  invalidChartDocument,
  isoDate,
  isoDateTime,
  medicalHistoryEntry,
  patient,
  patientChart,
} from '../../src/testing/index.js';
import { isoOrder } from '../../src/testing/internal/iso-reading.js';
import { HL7_NM_ABS_MAX, HL7_NM_ABS_MIN, HL7_NM_NEGATIVE_ABS_MAX } from '../../src/model/limits.js';
import { NM_ABS_MAX, NM_ABS_MIN, NM_NEGATIVE_ABS_MAX, clampToNm, numberForNm } from '../../src/testing/internal/nm.js';
import { fitForHl7 } from '../arbitraries/fit-for-hl7.js';
import { realisticPatientChart } from '../arbitraries/fixtures.js';
import { runs } from '../support/runs.js';

const NOW = '2026-03-01T10:00:00-05:00';
const issuePaths = (issues: readonly { path: readonly (string | number)[] }[]): string[] => [...new Set(issues.map((i) => formatIssuePath(i.path)))].sort();

describe('hl7Text', () => {
  it('should give valid chart text of every kind and size, never blank when required', () => {
    for (const kind of ['realistic', 'hostile', 'mixed'] as const) {
      for (const size of ['small', 'medium'] as const) {
        fc.assert(
          fc.property(hl7Text({ kind, size }), hl7Text({ kind, size, required: true }), (text, required) => {
            expect(isValidChartText(text)).toBe(true);
            expect(/\S/.test(required)).toBe(true);
          }),
          { numRuns: runs(200) },
        );
      }
    }
    fc.assert(
      fc.property(hl7Text({ size: 'large' }), (text) => {
        expect(isValidChartText(text)).toBe(true);
        expect(text.length).toBeLessThanOrEqual(100_000);
      }),
      { numRuns: runs(10) },
    );
  });

  it('should hold every kind of hostile material it documents (a count over a fixed sample, not a property)', () => {
    const sample = [...fc.sample(hl7Text(), { numRuns: runs(3000), seed: 1 }), ...fc.sample(hl7Text({ size: 'medium' }), { numRuns: runs(500), seed: 2 })];
    const some = (test: (s: string) => boolean): boolean => sample.some(test);
    for (const needle of ['|', '^', '~', '&', '\\\\', '\\F\\', '\\X0D\\', '\\.br\\', '\r\n', '\t', '\u007F', '\u200F', '\u202E']) {
      expect(some((s) => s.includes(needle)), JSON.stringify(needle)).toBe(true);
    }
    expect(some((s) => /(?<!\\)\\(?!\\)/.test(s))).toBe(true); // a lone backslash
    expect(some((s) => /\r(?!\n)/.test(s) && /(?<!\r)\n/.test(s))).toBe(true); // lone CR and lone LF
    expect(some((s) => /[\u0080-\u009F]/.test(s))).toBe(true); // C1 control
    expect(some((s) => /[\u{10000}-\u{10FFFF}]/u.test(s))).toBe(true); // astral
    expect(some((s) => /\p{M}/u.test(s))).toBe(true); // combining mark
    expect(some((s) => s === '')).toBe(true);
    expect(some((s) => s.length >= 1000 && !s.includes('\n'))).toBe(true); // a long line
  });
});

describe('hl7Delimiters', () => {
  it('should give delimiter sets of distinct characters that escaping accepts and round-trips', () => {
    fc.assert(
      fc.property(hl7Text(), hl7Delimiters({ truncation: true }), (text, d) => {
        const chars = [d.field, d.component, d.repetition, d.escape, d.subcomponent, ...(d.truncation === undefined ? [] : [d.truncation])];
        expect(new Set(chars).size).toBe(chars.length);
        assertEscapeRoundTrip(text, d);
      }),
      { numRuns: runs(500) },
    );
  });

  it('should give the standard set, other sets, and a truncation character only when asked', () => {
    const plain = fc.sample(hl7Delimiters(), { numRuns: runs(300), seed: 3 });
    expect(plain.some((d) => d === DEFAULT_HL7_DELIMITERS)).toBe(true);
    expect(plain.some((d) => d.field !== '|' && d.escape !== '\\')).toBe(true);
    expect(plain.every((d) => d.truncation === undefined)).toBe(true);
    expect(fc.sample(hl7Delimiters({ truncation: true }), { numRuns: runs(300), seed: 3 }).some((d) => d.truncation !== undefined)).toBe(true);
  });
});

describe('isoDate and isoDateTime', () => {
  it('should give values of the chart profile at the precision asked for', () => {
    for (const precision of ['year', 'month', 'day', 'second'] as const) {
      fc.assert(
        fc.property(isoDateTime({ precision }), (value) => {
          expect(parseIsoDateTime(value)?.precision, value).toBe(precision);
        }),
        { numRuns: runs(200) },
      );
    }
    fc.assert(
      fc.property(isoDate(), (value) => {
        expect(['year', 'month', 'day']).toContain(parseIsoDateTime(value)?.precision);
      }),
    );
  });

  it('should reach every precision, the notable offsets, fractions, leap days and leap seconds', () => {
    const sample = fc.sample(isoDateTime(), { numRuns: runs(3000), seed: 4 });
    expect(new Set(sample.map((s) => parseIsoDateTime(s)?.precision))).toEqual(new Set(['year', 'month', 'day', 'second']));
    for (const end of ['Z', '+00:00', '-00:00', '+05:30', '+05:45', '-12:00', '+14:00']) expect(sample.some((s) => s.endsWith(end)), end).toBe(true);
    expect(sample.some((s) => /:60(\.\d+)?(Z|[+-])/.test(s))).toBe(true);
    expect(sample.some((s) => s.includes('-02-29'))).toBe(true);
    expect(sample.some((s) => /\.\d{4}(Z|[+-])/.test(s))).toBe(true);
  });

  it("should order values as the core does (the kit's own arithmetic)", () => {
    fc.assert(
      fc.property(isoDateTime({ years: 'any' }), isoDateTime(), (a, b) => {
        expect(Math.sign(isoOrder(a) - isoOrder(b))).toBe(Math.sign(isoOrderKey(a) - isoOrderKey(b)));
      }),
      { numRuns: runs(2000) },
    );
  });
});

const BASE: PatientChart = { patient: { id: 'pat-1', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1' }], names: [{ family: 'Doe' }] } };

describe('model records', () => {
  it('should give records the chart check accepts, in every text kind', () => {
    for (const text of ['realistic', 'hostile', 'mixed'] as const) {
      const o = { text };
      fc.assert(
        fc.property(patient(o), coverage(o), encounter(o), clinicalNote(o), assessment(o), medicalHistoryEntry(o), (p, c, e, n, a, h) => {
          const chart: PatientChart = { patient: { ...p, coverages: [c] }, encounters: [e], notes: [n], assessments: [a], medicalHistory: [h] };
          expect(issuePaths(checkPatientChart(chart))).toEqual([]);
        }),
        { numRuns: runs(100) },
      );
      fc.assert(
        fc.property(directory(o), (d) => {
          expect(issuePaths(checkDirectory(d))).toEqual([]);
        }),
        { numRuns: runs(50) },
      );
    }
  });
});

describe('patientChart and chartDocument', () => {
  it('should give valid charts and documents of every size', () => {
    for (const size of ['small', 'medium'] as const) {
      fc.assert(
        fc.property(chartDocument({ size, text: 'hostile' }), patientChart({ size }), (doc, { chart, directory: dir }) => {
          expect(issuePaths(checkChartDocument(doc))).toEqual([]);
          expect(issuePaths(checkChartDocument({ patients: [chart], directory: dir }))).toEqual([]);
        }),
        { numRuns: runs(60) },
      );
    }
    fc.assert(
      fc.property(chartDocument({ size: 'large' }), (doc) => {
        expect(issuePaths(checkChartDocument(doc))).toEqual([]);
      }),
      { numRuns: runs(3) },
    );
  });

  it('should keep a small document small', () => {
    fc.assert(
      fc.property(chartDocument({ size: 'small' }), (doc) => {
        expect(doc.patients.length).toBeGreaterThanOrEqual(1);
        expect(doc.patients.length).toBeLessThanOrEqual(2);
        for (const c of doc.patients) for (const list of [c.encounters, c.notes, c.assessments, c.medicalHistory]) expect(list?.length ?? 0).toBeLessThanOrEqual(1);
      }),
      { numRuns: runs(100) },
    );
  });

  it('should make mappable numbers the ones HL7 NM carries, as the builders compute them', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(clampToNm(numberForNm(x))).toBe(fitForHl7({ type: 'decimal', value: x }).value);
      }),
      { numRuns: runs(2000) },
    );
    // The kit's copy of the check's NM range (it may use only the public API) is the core's.
    expect([NM_ABS_MIN, NM_ABS_MAX, NM_NEGATIVE_ABS_MAX]).toEqual([HL7_NM_ABS_MIN, HL7_NM_ABS_MAX, HL7_NM_NEGATIVE_ABS_MAX]);
    fc.assert(
      fc.property(patientChart({ mappable: true, size: 'medium' }), ({ chart }) => {
        expect(fitForHl7(chart)).toEqual(chart);
      }),
      { numRuns: runs(100) },
    );
  });

  it('should shrink a failing document to one patient with one note of short text', () => {
    // Arrange: a property that fails when any note text holds a field separator.
    const noBar = (doc: { patients: PatientChart[] }): boolean => !doc.patients.some((p) => (p.notes ?? []).some((n) => n.text.includes('|')));
    // Act
    const result = fc.check(fc.property(chartDocument({ text: 'hostile' }), noBar));
    // Assert
    expect(result.failed).toBe(true);
    const doc = result.counterexample?.[0];
    expect(doc?.patients).toHaveLength(1);
    expect(doc?.patients[0]?.notes).toHaveLength(1);
    expect(doc?.patients[0]?.notes?.[0]?.text.length).toBeLessThanOrEqual(40);
  });
});

describe('invalidChartDocument', () => {
  it('should give documents for which the check reports exactly the expected paths', () => {
    fc.assert(
      fc.property(invalidChartDocument(), ({ document, expectedPaths, rule }) => {
        expect(issuePaths(checkChartDocument(document)), rule).toEqual(expectedPaths);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should break many different rules (a count over a fixed sample, not a property)', () => {
    const rules = new Set(fc.sample(invalidChartDocument(), { numRuns: runs(600), seed: 6 }).map((b) => b.rule));
    expect(rules.size).toBeGreaterThan(40);
  });
});

describe('assertEscapeRoundTrip', () => {
  it('should hold for every fragment and return the escaped text', () => {
    for (const text of HOSTILE_FRAGMENTS) assertEscapeRoundTrip(text);
    expect(assertEscapeRoundTrip('O|Brien')).toBe('O\\F\\Brien');
  });

  it('should name what failed: a raw delimiter, an unpaired or unknown escape, text that does not come back', () => {
    const d = DEFAULT_HL7_DELIMITERS;
    expect(roundTripMismatches('a|b', 'a|b', 'a|b', d).map((m) => m.path)).toEqual(['escapeHl7(text)[1]']);
    expect(roundTripMismatches('a', 'a\\', 'a', d)[0]?.expected).toContain('only in pairs');
    expect(roundTripMismatches('a', '\\Q\\', 'a', d)[0]?.actual).toBe(JSON.stringify('\\Q\\'));
    const [lost] = roundTripMismatches('a\rb', 'a\\X0D\\b', 'ab', d);
    expect(lost).toEqual({ path: 'unescapeHl7(escapeHl7(text))', expected: '"a\\rb"', actual: '"ab"' });
    expect(roundTripMismatches('a\rb', 'a\\X0D\\b', 'a\rb', d)).toEqual([]);
  });
});

describe('assertHl7ReadsBack', () => {
  const chart: PatientChart = { patient: { ...BASE.patient, names: [{ family: 'O^Brien', given: ['Mary|Anne'] }] } };
  const message = buildAdtA31(chart, { now: NOW, controlId: 'ADT1' });

  it('should pass when every location reads back the value put in', () => {
    assertHl7ReadsBack(message, { 'MSH-9.1': 'ADT', 'MSH-9.2': 'A31', 'PID-5.1': 'O^Brien', 'PID-5.2': 'Mary|Anne', 'PID[1]-3[1].1': 'MRN-1', 'PID-3.4.2': '2.16.840.1.113883.19.5' });
  });

  it('should throw naming each location that differs, with both values', () => {
    let error: unknown;
    try {
      assertHl7ReadsBack(message, { 'PID-5.1': "O'Brien", 'PID-5.2': 'Mary|Anne', 'OBX-5': '12' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PropertyAssertionError);
    const e = error as PropertyAssertionError;
    expect(e.mismatches.map((m) => m.path)).toEqual(['PID-5.1', 'OBX-5']);
    expect(e.message).toContain('PID-5.1: expected "O\'Brien", got "O^Brien"');
    expect(e.message).toContain('OBX-5: expected "12", got no OBX segment number 1');
  });

  it('should refuse a key that is no HL7 location, and report a message that does not parse', () => {
    expect(() => assertHl7ReadsBack(message, { 'PID.5': 'x' })).toThrow(RangeError);
    expect(() => assertHl7ReadsBack('not HL7', { 'PID-5': 'x' })).toThrow(PropertyAssertionError);
  });
});

describe('assertBundleReferencesResolve', () => {
  it("should hold for the library's patient Bundles, with and without a base URL", () => {
    fc.assert(
      fc.property(patientChart({ mappable: true, size: 'medium' }), fc.boolean(), ({ chart, directory: dir }, withBase) => {
        const bundle = buildFhirPatientBundle(chart, { now: NOW, directory: dir, ...(withBase ? { baseUrl: 'https://fhir.example.org/r4' } : {}) });
        expect(assertBundleReferencesResolve(bundle)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: runs(60) },
    );
  });

  it('should name the path and value of a reference that resolves to no entry', () => {
    const { chart, directory: dir } = realisticPatientChart(0);
    const bundle = buildFhirPatientBundle(chart, { now: NOW, directory: dir });
    expect(assertBundleReferencesResolve(bundle)).toBeGreaterThan(5);
    const i = (bundle.entry ?? []).findIndex((e) => e.resource?.resourceType === 'Encounter');
    const encounter = bundle.entry?.[i]?.resource as { subject?: { reference?: string } };
    encounter.subject = { reference: 'Patient/nowhere' };
    expect(() => assertBundleReferencesResolve(bundle)).toThrow(`entry[${i}].resource.subject.reference: expected an entry's fullUrl or resourceType/id, got "Patient/nowhere"`);
  });
});
