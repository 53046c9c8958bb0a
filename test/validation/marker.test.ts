/**
 * No issue message names a patient value: a marker is planted in every string the model lets it into, one
 * field at a time is broken in the ways JSON and databases break it, and every message (and the
 * `ChartValidationError` message) must lack the marker and some issue must name the broken field's path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartValidationError, formatIssuePath } from '../../src/errors.js';
import { checkChartDocument, validateChartDocument } from '../../src/validation/chart-check.js';
import { freezeChartDocument } from '../../src/validation/frozen.js';
import { loadChartDocument } from '../../src/http/data-source.js';
import { arbPatientChart } from '../../src/testing/charts.js';
import { runs } from '../support/runs.js';

const MARKER = 'Qz9Marker';

/** Keys whose strings are drawn from a code set or a format that a marker would break. */
const FIXED_KEYS = new Set([
  'system', 'status', 'class', 'role', 'use', 'gender', 'maritalStatus', 'relationship', 'confidentiality',
  'clinicalStatus', 'verificationStatus', 'language', 'url', 'type',
  'authored', 'start', 'end', 'onset', 'abatement', 'recordedDate', 'birthDate', 'deceased', 'performed',
]);
const ISO_RE = /^\d{4}(-\d\d(-\d\d(T.*)?)?)?$/;

type Leaf = { path: (string | number)[]; key: string | number; value: string };

/** Prefix the marker to every string that can hold it (codes only where they stay within 64 characters). */
function plant(value: unknown, key: string | number | undefined): unknown {
  if (typeof value === 'string') {
    if (typeof key === 'string' && FIXED_KEYS.has(key)) return value;
    if (ISO_RE.test(value)) return value;
    if (key === 'code' && value.length + MARKER.length > 64) return value;
    // Ids stay within 128 characters (the same value is always treated alike, so references still resolve).
    if (value.length <= 128 && value.length + MARKER.length > 128) return value;
    return MARKER + value;
  }
  if (Array.isArray(value)) return value.map((v) => plant(v, key));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plant(v, k);
    return out;
  }
  return value;
}

function leaves(value: unknown, path: (string | number)[] = [], out: Leaf[] = []): Leaf[] {
  if (typeof value === 'string') out.push({ path, key: path[path.length - 1] ?? '', value });
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, [...path, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
  return out;
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

/** Ways to break a string field, each of which every string field of the model refuses. */
const BREAKS: readonly [string, (s: string) => unknown][] = [
  ['number', () => 42],
  ['null', () => null],
  ['object', (s) => ({ value: s })],
  ['array', (s) => [s]],
  ['control character', (s) => `${s}\u0000${MARKER}`],
  ['boolean', () => false],
];

const arbDocument = arbPatientChart({ text: 'hostile', ids: 'hostile', minEncounters: 1, minNotes: 1, minAssessments: 1, minHistory: 1 }).map(({ chart, directory }) => plant({ patients: [chart], directory }, undefined));

describe('issue messages never carry a patient value', () => {
  it('should plant the marker into a valid document', () => {
    fc.assert(
      fc.property(arbDocument, (doc) => {
        expect(checkChartDocument(doc).map((i) => `${formatIssuePath(i.path)}: ${i.message}`)).toEqual([]);
        expect(leaves(doc).some((l) => l.value.includes(MARKER))).toBe(true);
      }),
      { numRuns: runs(50) },
    );
  });

  it('should name the broken field by path and never the marker, for every string field and every way to break it', () => {
    fc.assert(
      fc.property(arbDocument, fc.nat(), fc.constantFrom(...BREAKS), (doc, pick, [how, breakIt]) => {
        const all = leaves(doc);
        const leaf = all[pick % all.length] as Leaf;
        // `deceased` is a date-time or a boolean.
        fc.pre(!(how === 'boolean' && leaf.key === 'deceased'));
        // `performed` is a date-time or a period, which may be open at both ends (unknown keys are ignored).
        fc.pre(!(how === 'object' && leaf.key === 'performed'));
        const broken = setAt(doc, leaf.path, breakIt(leaf.value));
        const issues = checkChartDocument(broken);
        const expected = formatIssuePath(leaf.path);
        expect(issues.map((i) => formatIssuePath(i.path)), expected).toContain(expected);
        for (const issue of issues) expect(issue.message).not.toContain(MARKER);
        let error: unknown;
        try {
          validateChartDocument(broken);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ChartValidationError);
        expect((error as Error).message).not.toContain(MARKER);
        expect(() => freezeChartDocument(broken)).toThrow(ChartValidationError);
        expect(() => loadChartDocument(JSON.stringify(broken))).toThrow(ChartValidationError);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should report a reference to a missing record by path, whatever its id (prototype names included), without the id', () => {
    const REFERENCE_KEYS = new Set(['locationId', 'practitionerId', 'performerId', 'authorId', 'encounterId', 'organizationId', 'partOfId']);
    fc.assert(
      fc.property(arbDocument, fc.nat(), fc.constantFrom(`${MARKER}-missing`, '__proto__', 'constructor', 'toString', 'hasOwnProperty'), (doc, pick, id) => {
        const refs = leaves(doc).filter((l) => REFERENCE_KEYS.has(String(l.key)));
        fc.pre(refs.length > 0);
        const leaf = refs[pick % refs.length] as Leaf;
        const issues = checkChartDocument(setAt(doc, leaf.path, id));
        expect(issues.map((i) => `${formatIssuePath(i.path)} ${i.code}`)).toEqual([`${formatIssuePath(leaf.path)} reference`]);
        for (const issue of issues) expect(issue.message).not.toContain(MARKER);
      }),
      { numRuns: runs(200) },
    );
  });
});
