/**
 * The NDJSON writer's direct JSON (src/fhir/internal/direct-json.ts) against its plain equivalents: for every
 * record of arbitrary checked charts (coverages and their payers, encounters with their diagnoses and procedures, notes,
 * assessments, medical history), under the three kinds of mapping context (a Bundle's with every encounter
 * an entry, a Bundle's with some encounters referred to logically, the standalone one), each function's text is
 * `JSON.stringify` of the mapper's resource, byte for byte; and the fused narrative escape equals the two-pass one
 * for any checked text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChartDocument, PatientChart } from '../../src/index.js';
import { checkChartDocument } from '../../src/index.js';
import { mapComposition, BLANK_NOTE_PLACEHOLDER } from '../../src/fhir/composition.js';
import { mapDocumentReference } from '../../src/fhir/document-reference.js';
import { mapEncounterCondition } from '../../src/fhir/encounter-condition.js';
import { mapEncounter } from '../../src/fhir/encounter-resource.js';
import { mapHistoryCondition } from '../../src/fhir/history-condition.js';
import { buildIdPlan } from '../../src/fhir/id-plan.js';
import { mapProcedure } from '../../src/fhir/procedure.js';
import { mapCoverage } from '../../src/fhir/coverage.js';
import { mapPayerOrganization } from '../../src/fhir/payer-organization.js';
import { mapQuestionnaireResponse } from '../../src/fhir/questionnaire-response.js';
import { createBundleContext, indexDirectory } from '../../src/fhir/internal/bundle.js';
import type { MapContext } from '../../src/fhir/internal/context.js';
import { standaloneContext } from '../../src/fhir/internal/context.js';
import {
  compositionJson,
  coverageJson,
  documentReferenceJson,
  encounterConditionJson,
  encounterJson,
  historyConditionJson,
  payerOrganizationJson,
  procedureJson,
  questionnaireResponseJson,
  type ResourceJson,
} from '../../src/fhir/internal/direct-json.js';
import { narrativeDivJson, textNarrative } from '../../src/fhir/internal/xhtml.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { runs } from '../support/runs.js';

/** The text, type, id and lastUpdated of a direct JSON against the resource its mapper gives. */
function same(direct: ResourceJson, resource: { resourceType: string; id?: string | undefined; meta?: { lastUpdated?: string | undefined } | undefined }): void {
  expect(direct.json).toBe(JSON.stringify(resource));
  expect(direct.resourceType).toBe(resource.resourceType);
  expect(direct.id).toBe(resource.id);
  expect(direct.lastUpdated).toBe(resource.meta?.lastUpdated);
}

/** Every record of the chart with a direct JSON, checked against its mapper under `ctx`. */
function checkChart(chart: PatientChart, ctx: MapContext): number {
  let checked = 0;
  for (const c of chart.patient.coverages ?? []) {
    same(coverageJson(c, ctx), mapCoverage(c, ctx));
    same(payerOrganizationJson(c.payer, ctx), mapPayerOrganization(c.payer, ctx));
    checked++;
  }
  for (const e of chart.encounters ?? []) {
    same(encounterJson(e, ctx), mapEncounter(e, ctx));
    e.diagnoses?.forEach((dx, i) => same(encounterConditionJson(e, i, dx, ctx), mapEncounterCondition(e, i, dx, ctx)));
    e.procedures?.forEach((p, i) => same(procedureJson(e, i, p, ctx), mapProcedure(e, i, p, ctx)));
    checked++;
  }
  for (const n of chart.notes ?? []) {
    same(compositionJson(n, ctx), mapComposition(n, ctx));
    same(documentReferenceJson(n, ctx), mapDocumentReference(n, ctx));
    checked++;
  }
  for (const a of chart.assessments ?? []) {
    same(questionnaireResponseJson(a, ctx), mapQuestionnaireResponse(a, ctx));
    checked++;
  }
  for (const h of chart.medicalHistory ?? []) {
    same(historyConditionJson(h, ctx), mapHistoryCondition(h, ctx));
    checked++;
  }
  return checked;
}

/** The contexts a chart's records are mapped with: a Bundle's (all or every other encounter an entry), the standalone one. */
function contexts(chart: PatientChart, doc: ChartDocument): MapContext[] {
  const ids = buildIdPlan(chart, doc.directory);
  const index = indexDirectory(doc.directory);
  const all = new Set((chart.encounters ?? []).map((e) => e.id));
  const some = new Set((chart.encounters ?? []).filter((_, i) => i % 2 === 0).map((e) => e.id));
  return [createBundleContext(chart, ids, index, all), createBundleContext(chart, ids, index, some), standaloneContext(chart.patient.id)];
}

/** `lastUpdated` on every other record, so `meta` comes out too. */
function stamped(chart: PatientChart): PatientChart {
  let i = 0;
  const stamp = <T extends object>(record: T): T => (i++ % 2 === 0 ? { ...record, lastUpdated: '2026-01-01T12:00:00.25+02:00' } : record);
  return { ...chart, encounters: chart.encounters?.map(stamp), notes: chart.notes?.map(stamp), medicalHistory: chart.medicalHistory?.map(stamp) };
}

const arbDoc = arbChartDocument({ mappable: true, maxPatients: 2 }).filter((doc) => checkChartDocument(doc).length === 0);

describe('direct JSON of the NDJSON writer', () => {
  it('should give exactly JSON.stringify of the mapper’s resource, for every record and every context', () => {
    let records = 0;
    fc.assert(
      fc.property(arbDoc, fc.boolean(), (doc, withStamps) => {
        for (const plain of doc.patients) {
          const chart = withStamps ? stamped(plain) : plain;
          for (const ctx of contexts(chart, doc)) records += checkChart(chart, ctx);
        }
      }),
      { numRuns: runs(150) },
    );
    // The generator reaches records (a property over empty charts would prove nothing).
    expect(records).toBeGreaterThan(runs(150));
  });

  it('should give the same text for the rare shapes: blank note text or title, a date-only note, a payer without name', () => {
    // Shapes the chart generator seldom makes, made from its records: each branch of a direct writer is compared.
    const noteVariants = [{ text: '' }, { text: ' \t\r\n ' }, { title: '' }, { title: '  ' }, { authored: '2024-03' }, { authored: '2024-03-27' }, { confidentiality: 'R' as const }];
    let compared = 0;
    fc.assert(
      fc.property(arbDoc, (doc) => {
        for (const chart of doc.patients) {
          const ctx = standaloneContext(chart.patient.id);
          for (const note of chart.notes ?? []) {
            for (const variant of noteVariants) {
              const n = { ...note, ...variant };
              same(compositionJson(n, ctx), mapComposition(n, ctx));
              same(documentReferenceJson(n, ctx), mapDocumentReference(n, ctx));
              compared++;
            }
          }
          for (const c of chart.patient.coverages ?? []) {
            for (const payer of [{ id: c.payer.id, name: '' }, { id: c.payer.id, name: ' ' }, { ...c.payer, name: 'A "quoted" \\ payer' }]) {
              same(payerOrganizationJson(payer, ctx), mapPayerOrganization(payer, ctx));
              compared++;
            }
          }
        }
      }),
      { numRuns: runs(60) },
    );
    expect(compared).toBeGreaterThan(runs(60));
  });

  it('should write the narrative div as JSON.stringify writes it, for any checked text', () => {
    // eslint-disable-next-line no-control-regex -- the control characters the chart check refuses
    const refused = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const specials = fc.constantFrom('"', '\\', '\t', '\r', '\n', '\r\n', '&', '<', '>', '\uFFFE', '\uFFFF', '\u2028', '😀', ' ', 'é');
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }).filter((s) => !lone.test(s)).map((s) => s.replace(refused, '')),
      fc.array(specials, { maxLength: 30 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(narrativeDivJson(t, BLANK_NOTE_PLACEHOLDER)).toBe(JSON.stringify(textNarrative(t, BLANK_NOTE_PLACEHOLDER).div));
      }),
      { numRuns: runs(500) },
    );
  });

  it('should escape each special character of a note in the narrative as JSON.stringify does', () => {
    const text = 'say "hi" \\ tab\there\r\nline & <b> \uFFFE';
    const json = narrativeDivJson(text, BLANK_NOTE_PLACEHOLDER);
    expect(JSON.parse(json)).toBe(textNarrative(text, BLANK_NOTE_PLACEHOLDER).div);
    expect(json).toContain('say \\"hi\\" \\\\ tab\\there<br/>line &amp; &lt;b&gt; \uFFFD');
  });
});
