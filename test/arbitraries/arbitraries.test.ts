import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIssuePath, type ChartIssue } from '../../src/errors.js';
import { isoSortKey, parseIsoDateTime } from '../../src/internal/iso.js';
import { checkChartDocument, checkDirectory, checkPatientChart } from '../../src/validation/chart.js';
import {
  CHART_BREAKERS,
  DOCUMENT_BREAKERS,
  FORBIDDEN_CONTROL_CHARS,
  INVALID_ISO_DATE_TIMES,
  arbAssessment,
  arbBrokenChartDocument,
  arbBrokenPatientChart,
  arbChartDocument,
  arbCoding,
  arbDirectory,
  arbForbiddenControlChar,
  arbHostileText,
  arbId,
  arbIdentifier,
  arbInvalidId,
  arbInvalidText,
  arbIsoDate,
  arbIsoDateTime,
  arbIsoDateTimeFull,
  arbLongText,
  arbOrderedPair,
  arbPatientChart,
  arbPeriod,
  arbText,
  isValidChartText,
  realisticPatientChart,
} from './index.js';

const paths = (issues: readonly ChartIssue[]): string[] => issues.map((i) => `${formatIssuePath(i.path)}: ${i.message}`);

// eslint-disable-next-line no-control-regex
const CODE_RE = /^[^\s]+(\s[^\s]+)*$/;

describe('arbHostileText', () => {
  it('should never contain a forbidden control character or a lone surrogate', () => {
    fc.assert(
      fc.property(fc.oneof(arbHostileText, arbText), (s) => {
        expect(isValidChartText(s)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('should produce HL7 delimiters, escape look-alikes, line breaks, astral and bidi characters, and empty strings', () => {
    const sample = fc.sample(arbHostileText, { numRuns: 3000, seed: 42 });
    const some = (pred: (s: string) => boolean): boolean => sample.some(pred);
    expect(some((s) => s === '')).toBe(true);
    for (const needle of ['|', '^', '~', '&', '\\\\', '\\F\\', '\\X0D\\', '\\.br\\', '\\\\server\\share', '\r\n', '\t', '<script>', '&amp;', '"', '\u200F']) {
      expect(some((s) => s.includes(needle)), needle).toBe(true);
    }
    expect(some((s) => /\r(?!\n)/.test(s))).toBe(true); // a lone CR
    expect(some((s) => /(?<!\r)\n/.test(s))).toBe(true); // a lone LF
    expect(some((s) => /[\u{10000}-\u{10FFFF}]/u.test(s))).toBe(true); // astral
    expect(some((s) => /[\u0590-\u05FF\u0600-\u06FF]/.test(s))).toBe(true); // right-to-left script
    expect(some((s) => /\p{M}/u.test(s))).toBe(true); // combining mark
  });
});

describe('arbLongText', () => {
  it('should stay within 100 KB and be valid text', () => {
    fc.assert(
      fc.property(arbLongText, (s) => {
        expect(Buffer.byteLength(s, 'utf8')).toBeLessThanOrEqual(100 * 1024);
        expect(s.length).toBeGreaterThan(0);
        expect(isValidChartText(s)).toBe(true);
      }),
      { numRuns: 20 },
    );
  });
});

describe('arbId', () => {
  it('should produce ids of 1–128 code units without controls or surrounding white space', () => {
    fc.assert(
      fc.property(arbId, (id) => {
        expect(id.length).toBeGreaterThanOrEqual(1);
        expect(id.length).toBeLessThanOrEqual(128);
        expect(id.trim()).toBe(id);
        // eslint-disable-next-line no-control-regex
        expect(/[\u0000-\u001F]/.test(id)).toBe(false);
        expect(isValidChartText(id)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('invalid material', () => {
  it('should give forbidden control characters and invalid text that the text rule rejects', () => {
    expect(FORBIDDEN_CONTROL_CHARS).toHaveLength(29);
    fc.assert(
      fc.property(arbForbiddenControlChar, (c) => {
        expect(isValidChartText(c)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(arbInvalidText, (s) => {
        expect(isValidChartText(s)).toBe(false);
      }),
    );
  });

  it('should give ids the chart check rejects at the id path', () => {
    fc.assert(
      fc.property(arbPatientChart({ text: 'realistic', maxEncounters: 0, maxNotes: 0, maxAssessments: 0, maxHistory: 0 }), arbInvalidId, ({ chart }, id) => {
        const broken = { ...chart, patient: { ...chart.patient, id } };
        expect(checkPatientChart(broken).map((i) => formatIssuePath(i.path))).toEqual(['patient.id']);
      }),
      { numRuns: 50 },
    );
  });

  it('should list ISO strings that the profile rejects', () => {
    for (const s of INVALID_ISO_DATE_TIMES) expect(parseIsoDateTime(s), s).toBeUndefined();
  });
});

describe('arbIsoDateTime', () => {
  it('should produce values in the ISO profile, covering every precision, offsets, fractions and leap days', () => {
    const sample = fc.sample(arbIsoDateTime(), { numRuns: 3000, seed: 7 });
    for (const s of sample) expect(parseIsoDateTime(s), s).toBeDefined();
    const precisions = new Set(sample.map((s) => parseIsoDateTime(s)?.precision));
    expect([...precisions].sort()).toEqual(['day', 'month', 'second', 'year']);
    for (const suffix of ['Z', '+05:45', '-12:00', '+14:00']) expect(sample.some((s) => s.endsWith(suffix)), suffix).toBe(true);
    expect(sample.some((s) => /\.5(Z|[+-])/.test(s))).toBe(true);
    expect(sample.some((s) => /\.\d{4}(Z|[+-])/.test(s))).toBe(true);
    expect(sample.some((s) => s.includes('-02-29'))).toBe(true);
  });

  it('should give dates only from arbIsoDate and full date-times from arbIsoDateTimeFull', () => {
    fc.assert(
      fc.property(arbIsoDate(), (s) => {
        expect(parseIsoDateTime(s)?.precision).not.toBe('second');
      }),
    );
    fc.assert(
      fc.property(arbIsoDateTimeFull(), (s) => {
        expect(parseIsoDateTime(s)?.precision).toBe('second');
      }),
    );
  });
});

describe('arbPeriod', () => {
  it('should never put the end before the start', () => {
    fc.assert(
      fc.property(fc.oneof(arbPeriod(), arbPeriod({ dateOnly: true })), (p) => {
        if (p.start !== undefined) expect(parseIsoDateTime(p.start)).toBeDefined();
        if (p.end !== undefined) expect(parseIsoDateTime(p.end)).toBeDefined();
        if (p.start !== undefined && p.end !== undefined) expect(isoSortKey(p.end)).toBeGreaterThanOrEqual(isoSortKey(p.start));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(arbOrderedPair(), ([a, b]) => {
        expect(isoSortKey(b)).toBeGreaterThanOrEqual(isoSortKey(a));
      }),
      { numRuns: 500 },
    );
  });
});

describe('arbCoding', () => {
  it('should keep to the systems asked for and the FHIR code shape', () => {
    fc.assert(
      fc.property(arbCoding(['icd-10-cm', 'snomed-ct']), (c) => {
        expect(['icd-10-cm', 'snomed-ct']).toContain(c.system);
        expect(c.code.length).toBeLessThanOrEqual(256);
        expect(CODE_RE.test(c.code)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('should produce identifiers with absolute-URI systems', () => {
    fc.assert(
      fc.property(arbIdentifier(), (i) => {
        expect(/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(i.system)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('arbAssessment', () => {
  it('should give PHQ-9 / GAD-7 totals equal to the sum of the chosen options', () => {
    fc.assert(
      fc.property(arbAssessment({ text: 'realistic' }), (a) => {
        if (a.instrument.code?.code !== '44249-1' && a.instrument.code?.code !== '69737-5') return;
        if (a.instrument.id !== 'phq-9' && a.instrument.id !== 'gad-7' && !a.instrument.id.endsWith('-nodef')) return;
        if (a.score === undefined) return;
        const sum = a.answers.reduce((s, x) => s + (x.value.type === 'coding' ? (x.value.value.score ?? 0) : 0), 0);
        expect(a.score.value).toBe(sum);
      }),
      { numRuns: 300 },
    );
  });

  it('should produce instruments both with and without item definitions', () => {
    const sample = fc.sample(arbAssessment(), { numRuns: 300, seed: 3 });
    expect(sample.some((a) => a.instrument.items !== undefined)).toBe(true);
    expect(sample.some((a) => a.instrument.items === undefined)).toBe(true);
  });
});

describe('arbDirectory', () => {
  it('should pass checkDirectory', () => {
    fc.assert(
      fc.property(arbDirectory(), (d) => {
        expect(paths(checkDirectory(d))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('arbPatientChart', () => {
  it('should generate charts that pass checkPatientChart, and as a document with their directory', () => {
    fc.assert(
      fc.property(arbPatientChart(), ({ chart, directory }) => {
        expect(paths(checkPatientChart(chart))).toEqual([]);
        expect(paths(checkChartDocument({ patients: [chart], directory }))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('should pass in realistic and hostile modes, with long notes', () => {
    for (const text of ['realistic', 'hostile'] as const) {
      fc.assert(
        fc.property(arbPatientChart({ text }), ({ chart, directory }) => {
          expect(paths(checkChartDocument({ patients: [chart], directory }))).toEqual([]);
        }),
        { numRuns: 100 },
      );
    }
    fc.assert(
      fc.property(arbPatientChart({ longNotes: true, minNotes: 1 }), ({ chart }) => {
        expect(paths(checkPatientChart(chart))).toEqual([]);
      }),
      { numRuns: 10 },
    );
  });

  it('should honour the size options', () => {
    fc.assert(
      fc.property(arbPatientChart({ minEncounters: 1, maxEncounters: 2, maxNotes: 1, minAssessments: 1, maxAssessments: 1, maxHistory: 0 }), ({ chart }) => {
        expect(chart.encounters?.length).toBeGreaterThanOrEqual(1);
        expect(chart.encounters?.length).toBeLessThanOrEqual(2);
        expect(chart.notes?.length ?? 0).toBeLessThanOrEqual(1);
        expect(chart.assessments).toHaveLength(1);
        expect(chart.medicalHistory?.length ?? 0).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it('should point references outside the directory when asked, still valid as a bare chart', () => {
    let outside = 0;
    fc.assert(
      fc.property(arbPatientChart({ danglingReferences: true, minEncounters: 1, minNotes: 1 }), ({ chart, directory }) => {
        expect(paths(checkPatientChart(chart))).toEqual([]);
        if (checkChartDocument({ patients: [chart], directory }).some((i) => i.code === 'reference')) outside++;
      }),
      { numRuns: 100 },
    );
    expect(outside).toBeGreaterThan(10);
  });
});

describe('arbPatientChart({ mappable: true })', () => {
  it('should keep ranks and orders in 32 bits, codes short, procedures dated and organizations without home uses', () => {
    fc.assert(
      fc.property(arbPatientChart({ mappable: true }), ({ chart, directory }) => {
        expect(paths(checkPatientChart(chart))).toEqual([]);
        for (const c of chart.patient.coverages ?? []) expect(c.order ?? 1).toBeLessThanOrEqual(2147483647);
        for (const e of chart.encounters ?? []) {
          for (const d of e.diagnoses ?? []) {
            expect(d.rank ?? 1).toBeLessThanOrEqual(2147483647);
            expect(d.code.code.length).toBeLessThanOrEqual(80);
          }
          for (const p of e.procedures ?? []) {
            expect(p.code.code.length).toBeLessThanOrEqual(80);
            const start = typeof p.performed === 'object' ? p.performed.start : p.performed;
            expect(start ?? e.period?.start).toBeDefined();
          }
        }
        for (const o of directory.organizations ?? []) {
          expect((o.addresses ?? []).some((a) => a.use === 'home')).toBe(false);
          expect((o.telecoms ?? []).some((t) => t.use === 'home')).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('realisticPatientChart', () => {
  it('should give a demo patient with the directory it refers to', () => {
    const { chart, directory } = realisticPatientChart(0);
    expect(chart.patient.id).toBe('pat-0001');
    expect(paths(checkChartDocument({ patients: [chart], directory }))).toEqual([]);
    expect(() => realisticPatientChart(99)).toThrow(RangeError);
  });
});

describe('arbChartDocument', () => {
  it('should generate documents that pass checkChartDocument', () => {
    fc.assert(
      fc.property(arbChartDocument(), (doc) => {
        expect(paths(checkChartDocument(doc))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('should reference only the directory it carries', () => {
    fc.assert(
      fc.property(arbChartDocument({ omitDirectory: true }), (doc) => {
        expect(doc.directory).toBeUndefined();
        expect(paths(checkChartDocument(doc))).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });
});

describe('chart breakers', () => {
  it.each(CHART_BREAKERS.map((b) => [b.name, b] as const))('should be caught at the right path: %s', (_name, breaker) => {
    fc.assert(
      fc.property(arbPatientChart({ maxEncounters: 2, maxNotes: 2, maxAssessments: 2 }), ({ chart }) => {
        const { value, path } = breaker.apply(chart);
        const found = [...new Set(checkPatientChart(value).map((i) => formatIssuePath(i.path)))];
        expect(found).toEqual([path]);
      }),
      { numRuns: 15 },
    );
  });

  it('should report the breaker path for charts from arbBrokenPatientChart', () => {
    fc.assert(
      fc.property(arbBrokenPatientChart(), (b) => {
        expect(checkPatientChart(b.value).map((i) => formatIssuePath(i.path))).toContain(b.path);
      }),
      { numRuns: 100 },
    );
  });

  it.each(DOCUMENT_BREAKERS.map((b) => [b.name, b] as const))('should be caught in a document at the right path: %s', (_name, breaker) => {
    fc.assert(
      fc.property(arbChartDocument({ maxPatients: 2 }), (doc) => {
        const { value, path } = breaker.apply(doc);
        const found = [...new Set(checkChartDocument(value).map((i) => formatIssuePath(i.path)))];
        expect(found).toEqual([path]);
      }),
      { numRuns: 15 },
    );
  });

  it('should break documents through arbBrokenChartDocument', () => {
    fc.assert(
      fc.property(arbBrokenChartDocument(), (b) => {
        expect(checkChartDocument(b.value).map((i) => formatIssuePath(i.path))).toContain(b.path);
      }),
      { numRuns: 50 },
    );
  });
});
