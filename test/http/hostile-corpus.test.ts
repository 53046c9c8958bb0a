/**
 * The hostile corpus (test/support/hostile-corpus.ts) against the export contract: every document the chart
 * check accepts exports with every builder and on every route (200, FHIR that validates, HL7 that passes the
 * structure check); every document it refuses is refused with the path of the changed value.
 */
import { describe, expect, it } from 'vitest';
import { checkChartDocument, toFhirId, type ChartDocument } from '../../src/index.js';
import { formatIssuePath } from '../../src/errors.js';
import { exportFailures } from '../support/export-all.js';
import { BASE_DOCUMENT, COLLIDING_ID_CANDIDATES, HOSTILE_TEXTS, LIMIT_CASES, changed, setAt, textGroups, type LeafPath, type Loose } from '../support/hostile-corpus.js';
import { routeFailures, serveDocument } from './support/every-route.js';

const issuePaths = (doc: ChartDocument): string[] => [...new Set(checkChartDocument(doc).map((i) => formatIssuePath(i.path)))].sort();
const pathText = (path: LeafPath): string => formatIssuePath(path);

/** Builders and routes: what failed, for a document the check accepts. */
async function everywhereFailures(doc: ChartDocument, fhirValidation = true): Promise<unknown[]> {
  const call = await serveDocument(doc, 'fetch');
  return [...exportFailures(doc, fhirValidation), ...(await routeFailures(call, doc, fhirValidation))];
}

it('should start from a base document the check accepts and that exports everywhere', async () => {
  expect(issuePaths(BASE_DOCUMENT)).toEqual([]);
  expect(await everywhereFailures(BASE_DOCUMENT)).toEqual([]);
});

/**
 * Write `value` into each text group alone (ids: `k:value`, the same wherever the id is referred to): each
 * change is accepted or refused with the changed paths only. Then all accepted changes at once (a change that
 * is accepted alone but refused with the others, for a limit two values share, is exported alone).
 */
async function checkEverywhere(name: string, groups: ReturnType<typeof textGroups>, valueFor: (k: number) => string | undefined): Promise<void> {
  const accepted: number[] = [];
  groups.forEach((group, k) => {
    const doc = changed(BASE_DOCUMENT, (d) => group.paths.forEach((p) => setAt(d, p, valueFor(k))));
    const paths = issuePaths(doc);
    if (paths.length === 0) accepted.push(k);
    else expect(paths.filter((p) => !group.paths.map(pathText).includes(p)), `${name} in ${group.paths.map(pathText).join(', ')}: refused elsewhere`).toEqual([]);
  });
  const combined = structuredClone(BASE_DOCUMENT) as Loose;
  const alone: ChartDocument[] = [];
  for (const k of accepted) {
    const next = changed(combined as ChartDocument, (d) => groups[k]!.paths.forEach((p) => setAt(d, p, valueFor(k))));
    if (issuePaths(next).length === 0) groups[k]!.paths.forEach((p) => setAt(combined, p, valueFor(k)));
    else alone.push(changed(BASE_DOCUMENT, (d) => groups[k]!.paths.forEach((p) => setAt(d, p, valueFor(k)))));
  }
  expect(accepted.length, `${name}: some text field accepts it`).toBeGreaterThan(0);
  expect(issuePaths(combined as ChartDocument)).toEqual([]);
  expect(await everywhereFailures(combined as ChartDocument), `${name}, in every field that accepts it`).toEqual([]);
  for (const doc of alone) expect(await everywhereFailures(doc), `${name}, alone`).toEqual([]);
}

describe('hostile text in every text field', () => {
  const groups = textGroups();
  for (const { name, value } of HOSTILE_TEXTS) {
    it(`should export ${name} everywhere it is accepted, and refuse it elsewhere with its path`, async () => {
      await checkEverywhere(name, groups, (k) => (groups[k]!.isId ? `${k}:${value}` : value));
    }, 120_000);
  }
  it('should export a 100 000-character value in every field that accepts one, and refuse it with its path in the others (ids, codes, contacts)', async () => {
    const long = 'y'.repeat(100_000);
    const accepted = groups.filter((g) => issuePaths(changed(BASE_DOCUMENT, (d) => g.paths.forEach((p) => setAt(d, p, long)))).length === 0);
    const refusedPaths = groups.filter((g) => !accepted.includes(g)).flatMap((g) => g.paths.map(pathText));
    // What the model allows to be long: free text (names, addresses, titles, displays, reasons, note text, answers).
    expect(refusedPaths).toEqual(expect.arrayContaining([`patients[0].patient.id`, `patients[0].encounters[0].diagnoses[0].code.code`, `patients[0].patient.telecoms[0].value`, `patients[0].patient.coverages[0].memberId`, `patients[0].assessments[0].score.interpretation`, `patients[0].assessments[0].answers[0].value.value`]));
    expect(accepted.flatMap((g) => g.paths.map(pathText))).toEqual(expect.arrayContaining([`patients[0].notes[0].text`, `patients[0].encounters[0].reason`, `patients[0].patient.names[0].family`]));
  });
});

describe('optional dates left out', () => {
  it('should export every document without an optional date, and refuse a required one missing with its path', async () => {
    const dates = textGroups().filter((g) => g.isDate);
    expect(dates.length).toBeGreaterThan(8);
    await checkEverywhere('no date', dates, () => undefined);
  }, 120_000);
  it('should refuse a procedure without date in an encounter without start, at the procedure', () => {
    const doc = changed(BASE_DOCUMENT, (d) => (delete d.patients[0].encounters[0].procedures[0].performed, delete d.patients[0].encounters[0].period.start));
    expect(issuePaths(doc)).toEqual(['patients[0].encounters[0].procedures[0].performed']);
  });
});

describe('ids that differ only by characters toFhirId maps alike', () => {
  const kinds: [string, (d: Loose) => Loose[]][] = [
    ['encounters', (d) => d.patients[0].encounters],
    ['notes', (d) => d.patients[0].notes],
    ['assessments', (d) => d.patients[0].assessments],
    ['medicalHistory', (d) => d.patients[0].medicalHistory],
    ['directory.organizations', (d) => d.directory.organizations],
    ['directory.practitioners', (d) => d.directory.practitioners],
  ];
  for (const [kind, list] of kinds) {
    it(`should export ${kind} with such ids everywhere, and refuse one crafted to equal another's FHIR id`, async () => {
      const doc = changed(BASE_DOCUMENT, (d) => {
        const records = list(d);
        records.push(...COLLIDING_ID_CANDIDATES.map((id) => ({ ...structuredClone(records[0]), id })));
      });
      expect(issuePaths(doc)).toEqual([]);
      expect(await everywhereFailures(doc)).toEqual([]);
      const crafted = changed(doc, (d) => {
        const records = list(d);
        records.push({ ...structuredClone(records[0]), id: toFhirId('a|b') });
      });
      const n = list(structuredClone(doc) as Loose).length;
      expect(issuePaths(crafted)).toEqual([`${kind === 'directory.organizations' || kind === 'directory.practitioners' ? kind : `patients[0].${kind}`}[${n}].id`]);
    }, 120_000);
  }
});

describe('values at each limit of src/model/limits.ts, and one over', () => {
  for (const c of LIMIT_CASES) {
    it(`${c.name}: should export the value at the limit everywhere and refuse the one over with its path`, async () => {
      expect(issuePaths(c.over)).toEqual(c.paths);
      expect(issuePaths(c.at)).toEqual([]);
      expect(await everywhereFailures(c.at)).toEqual([]);
    }, 120_000);
  }
});
