/**
 * Property tests of the Bundle builders over generated charts (src/testing): references resolve,
 * limits hold, ids are valid, unique and stable, narratives are escaped XHTML whose text round-trips,
 * dates keep precision and offset, and the output is deterministic.
 */
import fc from 'fast-check';
import type * as fhir from 'fhir/r4';
import { describe, expect, it } from 'vitest';
import {
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  DIRECTORY_RESOURCE_TYPES,
  defaultBundleId,
  freezeDirectory,
  InvalidArgumentError,
  toFhirId,
  type Directory,
  type PatientChart,
} from '../../src/index.js';
import { isoOrderKey } from '../../src/internal/iso.js';
import { arbPatientChart } from '../../src/testing/charts.js';
import { parseXhtml } from '../support/fhir-validator.js';
import { runs } from '../support/runs.js';

const NOW = '2026-03-01T15:00:00Z';
const BASE = 'https://fhir.example.org/r4';
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

const arbCase = fc.oneof(
  arbPatientChart({ text: 'realistic', ids: 'realistic', mappable: true }),
  arbPatientChart({ text: 'mixed', mappable: true }),
  arbPatientChart({ text: 'hostile', danglingReferences: true, mappable: true }),
);

const arbLimits = fc.record(
  { encounters: fc.nat(4), notes: fc.nat(4), assessments: fc.nat(3), medicalHistory: fc.nat(4) },
  { requiredKeys: [] },
);

const arbBaseUrl = fc.constantFrom(undefined, BASE, `${BASE}/`);

type Options = { now: string; baseUrl?: string; directory?: Directory };

/** Every patient-scoped Bundle of a chart. */
function patientBundles(chart: PatientChart, options: Options): fhir.Bundle[] {
  const out = [buildFhirPatientExport(chart, options), buildFhirPatientBundle(chart, options)];
  for (const e of chart.encounters ?? []) out.push(buildFhirEncounterExport(chart, e.id, options));
  for (const n of chart.notes ?? []) out.push(buildFhirNoteExport(chart, n.id, options));
  for (const a of chart.assessments ?? []) out.push(buildFhirAssessmentExport(chart, a.id, options));
  return out;
}

function resources(bundle: fhir.Bundle): fhir.FhirResource[] {
  return (bundle.entry ?? []).map((e) => e.resource as fhir.FhirResource);
}

/** Every object with a `reference` or an `identifier`+`type` (a Reference) anywhere under `value`. */
function references(value: unknown, out: { ref: fhir.Reference; entryIndex: number }[] = [], entryIndex = -1): typeof out {
  if (Array.isArray(value)) for (const v of value) references(v, out, entryIndex);
  else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (typeof obj['reference'] === 'string' || (obj['type'] !== undefined && obj['identifier'] !== undefined && typeof obj['type'] === 'string')) {
      out.push({ ref: obj as fhir.Reference, entryIndex });
    }
    for (const v of Object.values(obj)) references(v, out, entryIndex);
  }
  return out;
}

/**
 * Resolve a literal reference the way FHIR does inside a Bundle: an absolute reference as is; a relative
 * `Type/id` against the RESTful base of the referring entry's fullUrl (or as is when fullUrls are relative).
 */
function resolve(reference: string, entryFullUrl: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(reference)) return reference;
  const m = /^(.*\/)?[A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/.exec(entryFullUrl);
  return `${m?.[1] ?? ''}${reference}`;
}

describe('Bundle references', () => {
  it('should resolve every literal reference to an entry and make every other one logical', () => {
    fc.assert(
      fc.property(arbCase, arbBaseUrl, fc.boolean(), ({ chart, directory }, baseUrl, withDirectory) => {
        const options: Options = { now: NOW, ...(baseUrl ? { baseUrl } : {}), ...(withDirectory ? { directory } : {}) };
        const bundles = [...patientBundles(chart, options), ...DIRECTORY_RESOURCE_TYPES.map((t) => buildFhirDirectoryBundle(directory, t, { ...options, limit: 2 }))];
        for (const bundle of bundles) {
          const entries = bundle.entry ?? [];
          const fullUrls = new Set(entries.map((e) => e.fullUrl));
          entries.forEach((entry, i) => {
            for (const { ref } of references(entry.resource, [], i)) {
              if (ref.reference !== undefined) {
                expect(fullUrls.has(resolve(ref.reference, entry.fullUrl as string)), `${ref.reference} in ${entry.fullUrl}`).toBe(true);
                expect(ref.identifier).toBeUndefined();
              } else {
                // Logical: a type, the chart id as identifier value, never a dangling literal reference.
                expect(typeof ref.type).toBe('string');
                expect(typeof ref.identifier?.value).toBe('string');
              }
            }
            // A response's questionnaire is either a Questionnaire of this Bundle or the instrument's own URL.
            const r = entry.resource;
            if (r?.resourceType === 'QuestionnaireResponse' && r.questionnaire !== undefined) {
              const inBundle = entries.some((e) => e.resource?.resourceType === 'Questionnaire' && e.resource.url === r.questionnaire);
              const external = (chart.assessments ?? []).some((a) => a.instrument.url === r.questionnaire && a.instrument.items === undefined);
              expect(inBundle || external, r.questionnaire).toBe(true);
            }
          });
        }
      }),
      { numRuns: runs(60) },
    );
  });

  it('should put the Patient first in every patient-scoped Bundle', () => {
    fc.assert(
      fc.property(arbCase, ({ chart, directory }) => {
        for (const bundle of patientBundles(chart, { now: NOW, directory })) {
          expect(bundle.entry?.[0]?.resource?.resourceType).toBe('Patient');
          expect(bundle.entry?.[0]?.resource?.id).toBe(toFhirId(chart.patient.id));
          expect(resources(bundle).filter((r) => r.resourceType === 'Patient')).toHaveLength(1);
        }
      }),
      { numRuns: runs(40) },
    );
  });
});

describe('buildFhirPatientBundle limits', () => {
  it('should keep the newest records of each kind, each limit capping only its own kind', () => {
    fc.assert(
      fc.property(arbPatientChart({ maxEncounters: 6, maxNotes: 6, maxAssessments: 4, maxHistory: 6, mappable: true }), arbLimits, ({ chart, directory }, limits) => {
        const bundle = buildFhirPatientBundle(chart, { now: NOW, directory, limits });
        const all = resources(bundle);
        const expectNewest = <T extends { id: string }>(records: T[] | undefined, limit: number | undefined, keys: (r: T) => (string | undefined)[], got: string[]): void => {
          const list = records ?? [];
          const sorted = list
            .map((r, i) => ({ r, i, k: keys(r).map(isoOrderKey) }))
            .sort((a, b) => {
              for (let j = 0; j < a.k.length; j++) if (a.k[j] !== b.k[j]) return (b.k[j] as number) > (a.k[j] as number) ? 1 : -1;
              return a.i - b.i;
            })
            .map((x) => toFhirId(x.r.id));
          expect(got).toEqual(sorted.slice(0, limit ?? sorted.length));
        };
        expectNewest(chart.encounters, limits.encounters, (e) => [e.period?.start], all.filter((r) => r.resourceType === 'Encounter').map((r) => r.id as string));
        expectNewest(chart.notes, limits.notes, (n) => [n.authored], all.filter((r) => r.resourceType === 'Composition').map((r) => r.id as string));
        expectNewest(chart.notes, limits.notes, (n) => [n.authored], all.filter((r) => r.resourceType === 'DocumentReference').map((r) => r.id as string));
        expectNewest(chart.assessments, limits.assessments, (a) => [a.authored], all.filter((r) => r.resourceType === 'QuestionnaireResponse').map((r) => r.id as string));
        const problems = all.filter((r) => r.resourceType === 'Condition' && r.category?.[0]?.coding?.[0]?.code === 'problem-list-item');
        expectNewest(chart.medicalHistory, limits.medicalHistory, (h) => [h.recordedDate, h.onset], problems.map((r) => r.id as string));
        // Encounter diagnoses come with their encounters and only with them.
        const included = new Set((chart.encounters ?? []).filter((e) => all.some((r) => r.resourceType === 'Encounter' && r.id === toFhirId(e.id))));
        const diagnoses = all.filter((r) => r.resourceType === 'Condition' && r.category?.[0]?.coding?.[0]?.code === 'encounter-diagnosis');
        expect(diagnoses).toHaveLength([...included].reduce((n, e) => n + (e.diagnoses?.length ?? 0), 0));
        expect(all.filter((r) => r.resourceType === 'Procedure')).toHaveLength([...included].reduce((n, e) => n + (e.procedures?.length ?? 0), 0));
        expect(bundle.total).toBe(bundle.entry?.length);
      }),
      { numRuns: runs(80) },
    );
  });

  it('should keep the newest note when instants differ only in the fourth fraction digit or by a leap second', () => {
    const note = (id: string, authored: string): NonNullable<PatientChart['notes']>[number] => ({ id, type: 'progress-note', title: 'T', status: 'final', authored, text: 'x' });
    const newest = (authored: readonly string[]): string[] => {
      const chart: PatientChart = {
        patient: { id: 'p', identifiers: [{ system: 'urn:oid:1.2', value: '1' }], names: [{ family: 'A' }] },
        notes: authored.map((a, i) => note(`n${i}`, a)),
      };
      return resources(buildFhirPatientBundle(chart, { now: NOW, limits: { notes: 1 } })).filter((r) => r.resourceType === 'Composition').map((r) => r.id as string);
    };
    expect(newest(['2026-01-01T10:00:00.1234Z', '2026-01-01T10:00:00.1235+00:00'])).toEqual(['n1']);
    expect(newest(['2016-12-31T23:59:59.9Z', '2016-12-31T23:59:60.1Z'])).toEqual(['n1']);
    expect(newest(['2016-12-31T23:59:59Z', '2016-12-31T18:59:60-05:00'])).toEqual(['n1']);
  });

  it('should cap the directory searchset at the limit and mark every entry a match', () => {
    fc.assert(
      fc.property(arbCase, fc.option(fc.nat(4), { nil: undefined }), fc.constantFrom(...DIRECTORY_RESOURCE_TYPES), ({ directory }, limit, type) => {
        const bundle = buildFhirDirectoryBundle(directory, type, { now: NOW, ...(limit !== undefined ? { limit } : {}) });
        const source = type === 'Organization' ? directory.organizations : type === 'Practitioner' ? directory.practitioners : directory.locations;
        const expected = (source ?? []).slice(0, limit ?? Infinity).map((r) => toFhirId(r.id));
        expect(bundle.type).toBe('searchset');
        expect(resources(bundle).map((r) => r.id)).toEqual(expected);
        expect(resources(bundle).every((r) => r.resourceType === type)).toBe(true);
        expect((bundle.entry ?? []).every((e) => e.search?.mode === 'match')).toBe(true);
        expect(bundle.total).toBe(expected.length);
      }),
      { numRuns: runs(60) },
    );
  });
});

describe('Bundle ids', () => {
  // The same record has the same id in every export: each resource is keyed by its content sans id. Two records
  // may have the same content (two payers of one name without identifier are two Organizations): such content
  // names no one record and is left out of the comparison (found by test:deep, seed -1353461776).
  const sameIdsProperty = fc.property(arbCase, ({ chart, directory }) => {
    const first = patientBundles(chart, { now: NOW, directory });
    const second = patientBundles(structuredClone(chart), { now: NOW, directory: structuredClone(directory) });
    const contentOf = (r: fhir.FhirResource): string => {
      const { id: _id, ...rest } = r;
      return `${r.resourceType}|${JSON.stringify(rest)}`;
    };
    const ambiguous = new Set<string>();
    for (const bundle of first) {
      const seen = new Set<string>();
      for (const r of resources(bundle)) {
        const content = contentOf(r);
        if (seen.has(content)) ambiguous.add(content);
        seen.add(content);
      }
    }
    const idsByKey = new Map<string, string>();
    first.forEach((bundle, b) => {
      expect(bundle.id).toMatch(FHIR_ID);
      const keys = resources(bundle).map((r) => `${r.resourceType}/${r.id}`);
      for (const r of resources(bundle)) expect(r.id).toMatch(FHIR_ID);
      expect(new Set(keys).size).toBe(keys.length);
      expect(JSON.stringify(second[b])).toBe(JSON.stringify(bundle));
      for (const r of resources(bundle)) {
        const content = contentOf(r);
        if (ambiguous.has(content)) continue;
        const previous = idsByKey.get(content);
        if (previous !== undefined) expect(r.id).toBe(previous);
        idsByKey.set(content, r.id as string);
      }
    });
  });

  it('should give valid FHIR ids, unique per type within a Bundle, equal across runs and exports', () => {
    fc.assert(sameIdsProperty, { numRuns: runs(40) });
  });

  it('should not take two records of the same content for one (regression: two payers named alike)', () => {
    fc.assert(sameIdsProperty, {
      seed: -1353461776,
      path: '781:1344:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:3:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:2:3:3:3:3:3:3:3:3:3:3:3:3:3:0:0',
      endOnFailure: true,
    });
  });

  it('should keep valid chart ids and map others deterministically and injectively', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 130 }), fc.stringMatching(/^[A-Za-z0-9\-.]{1,70}$/)), { maxLength: 30 }), (ids) => {
        const mapped = ids.map(toFhirId);
        mapped.forEach((m, i) => {
          expect(m).toMatch(FHIR_ID);
          if (FHIR_ID.test(ids[i] as string) && !/^\.\.?$/.test(ids[i] as string)) expect(m).toBe(ids[i]);
          expect(toFhirId(ids[i] as string)).toBe(m);
        });
        expect(new Set(mapped).size).toBe(ids.length);
      }),
      { numRuns: runs(200) },
    );
  });

  it('should not keep the URL path steps . and .. as ids', () => {
    expect(toFhirId('.')).toMatch(/^[0-9a-f]{32}$/);
    expect(toFhirId('..')).toMatch(/^[0-9a-f]{32}$/);
    expect(toFhirId('...')).toBe('...');
  });

  it('should derive the default Bundle id from the content and the timestamp', () => {
    fc.assert(
      fc.property(arbCase, ({ chart }) => {
        const a = buildFhirPatientBundle(chart, { now: NOW });
        expect(buildFhirPatientBundle(chart, { now: NOW }).id).toBe(a.id);
        expect(buildFhirPatientBundle(chart, { now: '2026-03-01T15:00:01Z' }).id).not.toBe(a.id);
        expect(buildFhirPatientBundle(chart, { now: NOW, limits: { encounters: 0, notes: 0, assessments: 0, medicalHistory: 0 } }).id === a.id).toBe(
          (a.entry ?? []).every((e) => ['Patient', 'Coverage', 'Organization'].includes(e.resource?.resourceType as string)),
        );
        expect(buildFhirPatientBundle(chart, { now: NOW, bundleId: 'my.bundle-1' }).id).toBe('my.bundle-1');
      }),
      { numRuns: runs(40) },
    );
  });
});

describe('defaultBundleId', () => {
  it('should give the id every builder gives by default, for any chart, time, limits and base URL', () => {
    fc.assert(
      fc.property(arbCase, arbBaseUrl, fc.constantFrom(NOW, '2026-03-01T15:00:00.123+05:30', '1999-12-31T23:59:59Z'), ({ chart, directory }, baseUrl, now) => {
        const options: Options = baseUrl === undefined ? { now, directory } : { now, baseUrl, directory };
        for (const bundle of patientBundles(chart, options)) expect(defaultBundleId(bundle)).toBe(bundle.id);
        for (const type of DIRECTORY_RESOURCE_TYPES) {
          const bundle = buildFhirDirectoryBundle(directory, type, options);
          expect(defaultBundleId(bundle)).toBe(bundle.id);
        }
        // Derived from the content: another order of the entries gives another id.
        const bundle = buildFhirPatientBundle(chart, options);
        const entries = bundle.entry ?? [];
        if (entries.length > 1) expect(defaultBundleId({ ...bundle, entry: [...entries].reverse() })).not.toBe(bundle.id);
      }),
      { numRuns: runs(30) },
    );
  });

  it('should refuse what is not a Bundle with a typed error naming the member', () => {
    const cases: [unknown, string][] = [
      [null, 'bundle'],
      [{ timestamp: NOW }, 'bundle.type'],
      [{ type: 'collection', timestamp: 5 }, 'bundle.timestamp'],
      [{ type: 'collection', timestamp: NOW, entry: {} }, 'bundle.entry'],
      [{ type: 'collection', timestamp: NOW, entry: [{ fullUrl: 'Patient/p' }] }, 'bundle.entry[0].resource'],
      [{ type: 'collection', timestamp: NOW, entry: [{ resource: { resourceType: 'Patient', id: 'p' } }, { resource: { resourceType: 'Patient' } }] }, 'bundle.entry[1].resource'],
    ];
    for (const [input, argument] of cases) {
      let thrown: unknown;
      try {
        defaultBundleId(input as Parameters<typeof defaultBundleId>[0]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidArgumentError);
      expect((thrown as InvalidArgumentError).argument).toBe(argument);
    }
  });
});

describe('Bundle content', () => {
  it('should escape every narrative and round-trip the note text through it', () => {
    fc.assert(
      fc.property(arbPatientChart({ text: 'hostile', minNotes: 1, maxNotes: 4, mappable: true }), ({ chart }) => {
        const bundle = buildFhirPatientBundle(chart, { now: NOW });
        for (const note of chart.notes ?? []) {
          const composition = resources(bundle).find((r) => r.resourceType === 'Composition' && r.id === toFhirId(note.id)) as fhir.Composition;
          const div = composition.section?.[0]?.text?.div as string;
          expect(composition.section?.[0]?.text?.status).toBe('generated');
          const parsed = parseXhtml(div);
          expect(parsed.errors).toEqual([]);
          expect(parsed.elements[0]).toEqual({ name: 'div', uri: 'http://www.w3.org/1999/xhtml', attributes: ['xmlns'] });
          // Only <br/> (and <p> for the blank-text placeholder) ever appear: chart text makes no markup.
          expect(parsed.elements.slice(1).every((e) => e.name === 'br' || e.name === 'p')).toBe(true);
          const expected = note.text.replace(/\r\n?/g, '\n').replace(/[\uFFFE\uFFFF]/g, '\uFFFD');
          if (/^[ \t\r\n]*$/.test(note.text)) expect(parsed.text).toBe('(blank note)');
          else expect(parsed.text).toBe(expected);
        }
      }),
      { numRuns: runs(80) },
    );
  });

  it('should carry the exact note text as base64 UTF-8 with its byte size', () => {
    fc.assert(
      fc.property(arbPatientChart({ text: 'hostile', minNotes: 1, maxNotes: 4, mappable: true }), ({ chart }) => {
        const bundle = buildFhirPatientBundle(chart, { now: NOW });
        for (const note of chart.notes ?? []) {
          const doc = resources(bundle).find((r) => r.resourceType === 'DocumentReference' && r.id === toFhirId(note.id)) as fhir.DocumentReference;
          const attachment = doc.content[0]?.attachment;
          expect(attachment?.contentType).toBe('text/plain; charset=utf-8');
          expect(Buffer.from(attachment?.data as string, 'base64').toString('utf8')).toBe(note.text);
          expect(attachment?.data).toBe(Buffer.from(note.text, 'utf8').toString('base64'));
          expect(attachment?.size).toBe(Buffer.byteLength(note.text, 'utf8'));
        }
      }),
      { numRuns: runs(80) },
    );
  });

  it('should copy dates with their precision and offset', () => {
    fc.assert(
      fc.property(arbCase, ({ chart }) => {
        const all = resources(buildFhirPatientBundle(chart, { now: NOW }));
        const find = <T extends fhir.FhirResource>(type: T['resourceType'], id: string): T => all.find((r) => r.resourceType === type && r.id === toFhirId(id)) as T;
        expect((all[0] as fhir.Patient).birthDate).toBe(chart.patient.birthDate);
        for (const e of chart.encounters ?? []) {
          const enc = find<fhir.Encounter>('Encounter', e.id);
          expect(enc.period?.start).toBe(e.period?.start);
          expect(enc.period?.end).toBe(e.period?.end);
        }
        for (const n of chart.notes ?? []) {
          expect(find<fhir.Composition>('Composition', n.id).date).toBe(n.authored);
          const doc = find<fhir.DocumentReference>('DocumentReference', n.id);
          expect(doc.content[0]?.attachment.creation).toBe(n.authored);
          expect(doc.date).toBe(n.authored.includes('T') ? n.authored : undefined);
        }
        for (const a of chart.assessments ?? []) expect(find<fhir.QuestionnaireResponse>('QuestionnaireResponse', a.id).authored).toBe(a.authored);
        for (const h of chart.medicalHistory ?? []) {
          const c = find<fhir.Condition>('Condition', h.id);
          expect(c.onsetDateTime).toBe(h.onset);
          expect(c.recordedDate).toBe(h.recordedDate);
        }
      }),
      { numRuns: runs(60) },
    );
  });

  it('should be deterministic: the same input and options give the same JSON', () => {
    fc.assert(
      fc.property(arbCase, arbBaseUrl, fc.boolean(), ({ chart, directory }, baseUrl, strictBundleTotal) => {
        const options = { now: NOW, directory, strictBundleTotal, ...(baseUrl ? { baseUrl } : {}) };
        const a = patientBundles(chart, options).map((b) => JSON.stringify(b));
        const b = patientBundles(chart, options).map((x) => JSON.stringify(x));
        expect(b).toEqual(a);
        for (const json of a) {
          const bundle = JSON.parse(json) as fhir.Bundle;
          expect(bundle.timestamp).toBe(NOW);
          expect(bundle.total).toBe(strictBundleTotal ? undefined : bundle.entry?.length);
          for (const e of bundle.entry ?? []) expect(e.fullUrl).toBe(`${baseUrl ? BASE + '/' : ''}${e.resource?.resourceType}/${e.resource?.id}`);
        }
      }),
      { numRuns: runs(40) },
    );
  });
});

describe('Bundles over a frozen directory', () => {
  // A frozen directory's index and id claims are made once and reused by every export: the output must not change.
  it('should give the same JSON as over the plain directory, export after export, chart after chart', () => {
    fc.assert(
      fc.property(arbCase, arbCase, ({ chart, directory }, other) => {
        const frozen = freezeDirectory(directory);
        const plain = { now: NOW, directory };
        const reused = { now: NOW, directory: frozen };
        for (let round = 0; round < 2; round++) {
          expect(patientBundles(chart, reused).map((b) => JSON.stringify(b))).toEqual(patientBundles(chart, plain).map((b) => JSON.stringify(b)));
        }
        // Another chart over the same frozen directory (its references may dangle): the plain directory's output or error.
        const outcome = (options: Options): string => {
          try {
            return JSON.stringify(buildFhirPatientBundle(other.chart, options));
          } catch (error) {
            return `${(error as Error).name}: ${(error as Error).message}`;
          }
        };
        expect(outcome(reused)).toBe(outcome(plain));
      }),
      { numRuns: runs(30) },
    );
  });
});
