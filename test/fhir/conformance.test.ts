/**
 * Every resource any builder or mapper emits, over generated charts, passes the independent R4 validator
 * (test/support/fhir-validator.ts). With `baseUrl` and `strictBundleTotal` there is no finding at all;
 * without them the only findings are the two the interface mandates: bdl-1 (`total` on a non-searchset
 * Bundle) once per such Bundle, and a relative fullUrl once per entry.
 */
import fc from 'fast-check';
import type * as fhir from 'fhir/r4';
import { describe, expect, it } from 'vitest';
import {
  toFhirComposition,
  toFhirCoverage,
  toFhirDocumentReference,
  toFhirEncounter,
  toFhirEncounterCondition,
  toFhirHistoryCondition,
  toFhirLocation,
  toFhirOrganization,
  toFhirPatient,
  toFhirPayerOrganization,
  toFhirPractitioner,
  toFhirProcedure,
  toFhirQuestionnaire,
  toFhirQuestionnaireResponse,
} from '../../src/index.js';
import { arbPatientChart } from '../../src/testing/charts.js';
import { allBundles } from '../support/fhir-bundles.js';
import { validateFhir, type FhirFinding } from '../support/fhir-validator.js';
import { runs } from '../support/runs.js';

const NOW = '2026-03-01T15:00:00Z';
const STRICT = { now: NOW, baseUrl: 'https://fhir.example.org/r4', strictBundleTotal: true } as const;

function describeFindings(findings: readonly FhirFinding[]): string {
  return findings.map((f) => `${f.rule} at ${f.path}: ${f.message}`).join('\n');
}

const arbCase = fc.oneof(
  arbPatientChart({ text: 'realistic', ids: 'realistic', mappable: true }),
  arbPatientChart({ text: 'mixed', mappable: true }),
  arbPatientChart({ text: 'hostile', danglingReferences: true, mappable: true }),
);

describe('R4 conformance of every Bundle', () => {
  it('should have no finding with baseUrl and strictBundleTotal set', () => {
    fc.assert(
      fc.property(arbCase, ({ chart, directory }) => {
        for (const bundle of allBundles(chart, directory, STRICT)) {
          const findings = validateFhir(bundle);
          expect(findings, describeFindings(findings)).toEqual([]);
        }
      }),
      { numRuns: runs(60) },
    );
  });

  it('should report only bdl-1 and relative fullUrls without the options', () => {
    fc.assert(
      fc.property(arbCase, ({ chart, directory }) => {
        for (const bundle of allBundles(chart, directory, { now: NOW })) {
          const findings = validateFhir(bundle);
          const expected: string[] = [];
          if (bundle.type !== 'searchset') expected.push('bdl-1 at Bundle');
          (bundle.entry ?? []).forEach((_, i) => expected.push(`fullurl-absolute at Bundle.entry[${i}].fullUrl`));
          expect(findings.map((f) => `${f.rule} at ${f.path}`).sort(), describeFindings(findings)).toEqual(expected.sort());
        }
      }),
      { numRuns: runs(40) },
    );
  });
});

describe('R4 conformance of every mapper', () => {
  it('should emit valid resources from the standalone mappers', () => {
    fc.assert(
      fc.property(arbCase, ({ chart, directory }) => {
        const patient = chart.patient;
        const resources: fhir.FhirResource[] = [toFhirPatient(patient)];
        for (const c of patient.coverages ?? []) resources.push(toFhirCoverage(c, patient), toFhirPayerOrganization(c.payer));
        for (const e of chart.encounters ?? []) {
          resources.push(toFhirEncounter(e, patient));
          e.diagnoses?.forEach((_, i) => resources.push(toFhirEncounterCondition(e, i, patient)));
          e.procedures?.forEach((_, i) => resources.push(toFhirProcedure(e, i, patient)));
        }
        for (const n of chart.notes ?? []) resources.push(toFhirComposition(n, patient), toFhirDocumentReference(n, patient));
        for (const a of chart.assessments ?? []) {
          resources.push(toFhirQuestionnaireResponse(a, patient), toFhirQuestionnaire(a.instrument, a.score ? { ...(a.score.code ? { code: a.score.code } : {}) } : undefined));
        }
        for (const h of chart.medicalHistory ?? []) resources.push(toFhirHistoryCondition(h, patient));
        for (const o of directory.organizations ?? []) resources.push(toFhirOrganization(o));
        for (const p of directory.practitioners ?? []) resources.push(toFhirPractitioner(p));
        for (const l of directory.locations ?? []) resources.push(toFhirLocation(l));
        for (const r of resources) {
          const findings = validateFhir(r);
          expect(findings, `${r.resourceType}: ${describeFindings(findings)}`).toEqual([]);
        }
      }),
      { numRuns: runs(40) },
    );
  });
});

/** The answer element each item type takes (FHIR R4 item-type; an integer answer to a decimal item is a decimal). */
const ANSWER_ELEMENT: Record<string, string> = {
  string: 'valueString',
  text: 'valueString',
  integer: 'valueInteger',
  decimal: 'valueDecimal',
  boolean: 'valueBoolean',
  choice: 'valueCoding',
  date: 'valueDate',
  dateTime: 'valueDateTime',
};

/**
 * What a validator that reads the Questionnaire (the HL7 Java validator's QuestionnaireResponse rules)
 * would refuse: an item the Questionnaire does not define, items out of its order, an item text other than
 * the definition's, more than one answer to a non-repeating item, an answer of the wrong type, a coding that
 * is none of the answer options (by system and code), answer options on an item type that cannot have them
 * (que-5) or whose values are not of the item's type.
 */
function questionnaireFindings(response: fhir.QuestionnaireResponse, questionnaire: fhir.Questionnaire): string[] {
  const out: string[] = [];
  const items = questionnaire.item ?? [];
  for (const item of items) {
    if ((item.answerOption?.length ?? 0) === 0) continue;
    if (item.type !== 'choice') out.push(`${item.linkId}: answerOption on a ${item.type} item`);
    if (item.answerOption?.some((o) => o.valueCoding === undefined)) out.push(`${item.linkId}: answerOption that is not a coding`);
  }
  let last = -1;
  for (const answered of response.item ?? []) {
    const index = items.findIndex((i) => i.linkId === answered.linkId);
    const item = items[index];
    if (item === undefined) {
      out.push(`${answered.linkId}: not in the Questionnaire`);
      continue;
    }
    if (index < last) out.push(`${answered.linkId}: out of order`);
    last = index;
    if (answered.text !== undefined && answered.text !== item.text) out.push(`${answered.linkId}: text differs from the definition`);
    const answers = answered.answer ?? [];
    if (answers.length > 1 && item.repeats !== true) out.push(`${answered.linkId}: several answers`);
    for (const answer of answers) {
      const element = Object.keys(answer).find((k) => k.startsWith('value'));
      if (element !== ANSWER_ELEMENT[item.type]) out.push(`${answered.linkId}: ${element} for a ${item.type} item`);
      const coding = answer.valueCoding;
      if (coding !== undefined && (item.answerOption?.length ?? 0) > 0 && !item.answerOption?.some((o) => o.valueCoding?.system === coding.system && o.valueCoding?.code === coding.code)) {
        out.push(`${answered.linkId}: coding not among the answer options`);
      }
    }
  }
  return out;
}

describe('QuestionnaireResponse against its Questionnaire', () => {
  it('should give every response only items, texts, answer types and options its Questionnaire allows', () => {
    fc.assert(
      fc.property(arbCase, ({ chart }) => {
        for (const a of chart.assessments ?? []) {
          if (a.instrument.items === undefined) continue;
          const response = toFhirQuestionnaireResponse(a, chart.patient);
          const questionnaire = toFhirQuestionnaire(a.instrument, a.score ? { ...(a.score.code ? { code: a.score.code } : {}) } : undefined);
          expect(response.questionnaire).toBe(questionnaire.url);
          expect(questionnaireFindings(response, questionnaire)).toEqual([]);
        }
      }),
      { numRuns: runs(60) },
    );
  });

  it('should find what the chart check now keeps out, when the check is bypassed', () => {
    // The audit's repro as the mapping gave it before the chart check refused it: the finding the check now prevents.
    const instrument = { id: 'phq-2', title: 'PHQ-2', items: [{ linkId: 'phq2-1', text: 'Interest', type: 'choice' as const, options: [{ system: 'loinc' as const, code: 'LA6568-5', score: 0 }] }] };
    const questionnaire = toFhirQuestionnaire(instrument);
    const response: fhir.QuestionnaireResponse = {
      resourceType: 'QuestionnaireResponse',
      status: 'completed',
      item: [{ linkId: 'phq2-1', text: 'Interest', answer: [{ valueCoding: { system: 'http://loinc.org', code: 'LA-not-an-option' } }] }],
    };
    expect(questionnaireFindings(response, questionnaire)).toEqual(['phq2-1: coding not among the answer options']);
  });
});
