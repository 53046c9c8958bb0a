/**
 * Every output the golden test pins: each body (with status and headers) of every endpoint for every demo
 * patient and record, in both FHIR modes (`strictBundleTotal` off and on), with a fixed clock and fixed ids;
 * a set of error answers; every builder's and mapper's output for the demo chart; `checkHl7Message` of each
 * message; and the chart check's issues for a deterministically broken copy of the demo document.
 *
 * Outputs are produced in a fixed order, so the rate-limit headers of the HTTP answers are fixed too.
 */
import { readFileSync } from 'node:fs';
import {
  buildAdrA19,
  buildAdtA08,
  buildAdtA31,
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  buildMdmT02,
  buildOruR01,
  checkChartDocument,
  checkHl7Message,
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
  type ChartDocument,
  type DirectoryResourceType,
  type Hl7MessageOptions,
  type PatientChart,
} from '../../src/index.js';
import { createExportHandler, createInMemoryDataSource, createInMemoryKeyStore, hashApiKey } from '../../src/http/index.js';

/** The demo chart document the command serves. */
export const DEMO: ChartDocument = JSON.parse(
  readFileSync(new URL('../../examples/data/demo-chart.json', import.meta.url), 'utf8'),
) as ChartDocument;

const NOW_MS = Date.UTC(2026, 2, 2, 12, 0, 30);
const NOW = '2026-03-02T12:00:30Z';
const KEYS = { full: 'golden-key-full', fhir: 'golden-key-fhir', revoked: 'golden-key-revoked', tiny: 'golden-key-tiny' } as const;
const RESOURCE_TYPES: readonly DirectoryResourceType[] = ['Organization', 'Practitioner', 'Location'];

/** The message code each HL7 route's MSH-10 must begin with. */
const MESSAGE_CODES: Readonly<Record<string, string>> = {
  exportHl7PatientAdt: 'ADT',
  exportHl7PatientSummary: 'ADR',
  exportHl7Encounter: 'ADT',
  exportHl7Note: 'MDM',
  exportHl7Assessment: 'ORU',
};

/** One named output. */
export type Output = readonly [name: string, text: string];

async function handlerFor(strict: boolean) {
  const keyStore = createInMemoryKeyStore([
    { keyHash: await hashApiKey(KEYS.full), keyId: 'full', partnerId: 'p-full', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 1_000_000, windowSeconds: 60 } },
    { keyHash: await hashApiKey(KEYS.fhir), keyId: 'fhir', partnerId: 'p-fhir', scopes: ['fhir:export'], rateLimit: { limit: 1_000_000, windowSeconds: 60 } },
    { keyHash: await hashApiKey(KEYS.revoked), keyId: 'revoked', partnerId: 'p-rev', scopes: ['fhir:export', 'hl7:export'], revoked: true },
    { keyHash: await hashApiKey(KEYS.tiny), keyId: 'tiny', partnerId: 'p-tiny', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 1, windowSeconds: 60 } },
  ]);
  let n = 0;
  return createExportHandler({
    dataSource: createInMemoryDataSource(DEMO),
    keyStore,
    now: () => NOW_MS,
    requestId: () => `req-${(n += 1)}`,
    fhir: { strictBundleTotal: strict },
    hl7: { sendingApplication: 'CHART-EXPORT', sendingFacility: 'GOLDEN', controlId: ({ route, requestId }) => `${MESSAGE_CODES[route] ?? ''}${requestId.slice(4)}` },
    directoryRateLimit: { limit: 1_000_000, windowSeconds: 60 },
  });
}

/** Request targets (with the key to send, if any, and extra request init) of one handler run. */
function requests(): { target: string; key?: string; init?: RequestInit }[] {
  const list: { target: string; key?: string; init?: RequestInit }[] = [];
  const q = encodeURIComponent;
  for (const { patient, encounters = [], notes = [], assessments = [] } of DEMO.patients) {
    const p = `patientId=${q(patient.id)}`;
    list.push({ target: `/exportFhirPatient?${p}` }, { target: `/exportFhirPatientBundle?${p}` });
    list.push({ target: `/exportFhirPatientBundle?${p}&encounterLimit=1&noteLimit=2&assessmentLimit=0&medicalHistoryLimit=1` });
    list.push({ target: `/exportHl7PatientAdt?${p}` }, { target: `/exportHl7PatientSummary?${p}` }, { target: `/exportHl7PatientSummary?${p}&limit=3` });
    for (const e of encounters) list.push({ target: `/exportFhirEncounter?${p}&encounterId=${q(e.id)}` }, { target: `/exportHl7Encounter?${p}&encounterId=${q(e.id)}` });
    for (const n of notes) list.push({ target: `/exportFhirNote?${p}&noteId=${q(n.id)}` }, { target: `/exportHl7Note?${p}&noteId=${q(n.id)}` });
    for (const a of assessments) list.push({ target: `/exportFhirAssessment?${p}&assessmentId=${q(a.id)}` }, { target: `/exportHl7Assessment?${p}&assessmentId=${q(a.id)}` });
  }
  for (const t of RESOURCE_TYPES) list.push({ target: `/publicFhirDirectory?resourceType=${t}` }, { target: `/publicFhirDirectory?resourceType=${t}&limit=2` });
  // Error answers, one of each kind the pipeline can give, on both formats.
  const first = DEMO.patients[0]!;
  const second = DEMO.patients[1]!;
  const p = `patientId=${q(first.patient.id)}`;
  const foreignNote = q(second.notes![0]!.id);
  for (const route of ['exportFhirPatient', 'exportHl7PatientAdt']) {
    list.push(
      { target: `/${route}` },
      { target: `/${route}?patientId=` },
      { target: `/${route}?patientId=no-such-patient` },
      { target: `/${route}?${p}`, key: '' },
      { target: `/${route}?${p}`, key: 'not-a-known-key' },
      { target: `/${route}?${p}`, key: KEYS.revoked },
      { target: `/${route}?${p}`, init: { method: 'POST' } },
      { target: `/${route}?${p}`, init: { method: 'HEAD' } },
      { target: `/${route}?${p}`, init: { method: 'OPTIONS' } },
      { target: `/${route}?${p}`, init: { headers: { accept: 'text/html' } } },
      { target: `/${route}?${p}`, key: KEYS.tiny },
      { target: `/${route}?${p}`, key: KEYS.tiny },
    );
  }
  list.push(
    { target: `/exportHl7Note?${p}`, key: KEYS.fhir },
    { target: `/exportHl7Note?${p}&noteId=${foreignNote}` },
    { target: `/exportFhirNote?${p}&noteId=${foreignNote}` },
    { target: `/exportFhirPatientBundle?${p}&noteLimit=-1` },
    { target: `/exportFhirPatientBundle?${p}&noteLimit=99999999` },
    { target: `/exportHl7PatientSummary?${p}&limit=abc` },
    { target: `/publicFhirDirectory` },
    { target: `/publicFhirDirectory?resourceType=Patient` },
    { target: `/publicFhirDirectory?resourceType=Location&limit=1.5` },
    { target: `/nope` },
    { target: `/exportFhirPatient/?${p}` },
  );
  return list;
}

/** The HTTP answers, as `status`, sorted `name: value` header lines and the body. */
export async function httpOutputs(): Promise<Output[]> {
  const out: Output[] = [];
  for (const strict of [false, true]) {
    const handler = await handlerFor(strict);
    for (const [i, { target, key = KEYS.full, init = {} }] of requests().entries()) {
      const headers = new Headers(init.headers);
      if (key !== '') headers.set('x-api-key', key);
      const method = init.method ?? 'GET';
      const response = await handler(new Request(`http://golden.test${target}`, { ...init, method, headers }));
      const lines: string[] = [];
      response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
      lines.sort();
      out.push([`http strict=${strict} #${i} ${method} ${target} key=${key}`, `${response.status}\n${lines.join('\n')}\n\n${await response.text()}`]);
    }
  }
  return out;
}

const json = (value: unknown): string => JSON.stringify(value, null, 1);

function messageOptions(code: string, variant: number): Hl7MessageOptions {
  return variant === 0
    ? { now: NOW, controlId: `${code}0001` }
    : {
        now: '2026-03-02T07:00:30-05:00',
        controlId: `${code}^&~|0002`.replace(/[\^&~|]/g, 'X'),
        sendingApplication: 'CHART-EXPORT',
        sendingFacility: 'RIVERSIDE',
        receivingApplication: 'EHR',
        receivingFacility: 'LAKE',
        processingId: 'T',
        lineEnding: '\n',
        directory: DEMO.directory,
      };
}

/** The builders' and mappers' outputs for every demo patient and record, and the HL7 checker's answers. */
export function builderOutputs(): Output[] {
  const out: Output[] = [];
  const directory = DEMO.directory;
  const fhirVariants = [
    { now: NOW, directory },
    { now: NOW, directory, baseUrl: 'https://golden.test/fhir', strictBundleTotal: true, bundleId: 'golden-bundle' },
    { now: NOW },
  ];
  const hl7 = (name: string, message: string) => {
    out.push([name, message], [`${name} check`, json(checkHl7Message(message))]);
  };
  for (const chart of DEMO.patients as PatientChart[]) {
    const id = chart.patient.id;
    out.push([`toFhirPatient ${id}`, json(toFhirPatient(chart.patient))]);
    for (const c of chart.patient.coverages ?? []) {
      out.push([`toFhirCoverage ${id} ${c.id}`, json(toFhirCoverage(c, chart.patient))], [`toFhirPayerOrganization ${id} ${c.id}`, json(toFhirPayerOrganization(c.payer))]);
    }
    for (const e of chart.encounters ?? []) {
      out.push([`toFhirEncounter ${id} ${e.id}`, json(toFhirEncounter(e, chart.patient))]);
      (e.diagnoses ?? []).forEach((_, i) => out.push([`toFhirEncounterCondition ${id} ${e.id} ${i}`, json(toFhirEncounterCondition(e, i, chart.patient))]));
      (e.procedures ?? []).forEach((_, i) => out.push([`toFhirProcedure ${id} ${e.id} ${i}`, json(toFhirProcedure(e, i, chart.patient))]));
    }
    for (const n of chart.notes ?? []) {
      out.push([`toFhirComposition ${id} ${n.id}`, json(toFhirComposition(n, chart.patient))], [`toFhirDocumentReference ${id} ${n.id}`, json(toFhirDocumentReference(n, chart.patient))]);
    }
    for (const a of chart.assessments ?? []) {
      out.push([`toFhirQuestionnaireResponse ${id} ${a.id}`, json(toFhirQuestionnaireResponse(a, chart.patient))], [`toFhirQuestionnaire ${id} ${a.id}`, json(toFhirQuestionnaire(a.instrument))]);
    }
    for (const h of chart.medicalHistory ?? []) out.push([`toFhirHistoryCondition ${id} ${h.id}`, json(toFhirHistoryCondition(h, chart.patient))]);
    fhirVariants.forEach((options, v) => {
      out.push([`buildFhirPatientExport ${id} v${v}`, json(buildFhirPatientExport(chart, options))]);
      out.push([`buildFhirPatientBundle ${id} v${v}`, json(buildFhirPatientBundle(chart, options))]);
      out.push([`buildFhirPatientBundle ${id} v${v} limits`, json(buildFhirPatientBundle(chart, { ...options, limits: { encounters: 2, notes: 1, assessments: 0, medicalHistory: 1 } }))]);
      for (const e of chart.encounters ?? []) out.push([`buildFhirEncounterExport ${id} ${e.id} v${v}`, json(buildFhirEncounterExport(chart, e.id, options))]);
      for (const n of chart.notes ?? []) out.push([`buildFhirNoteExport ${id} ${n.id} v${v}`, json(buildFhirNoteExport(chart, n.id, options))]);
      for (const a of chart.assessments ?? []) out.push([`buildFhirAssessmentExport ${id} ${a.id} v${v}`, json(buildFhirAssessmentExport(chart, a.id, options))]);
    });
    for (const v of [0, 1]) {
      hl7(`buildAdtA31 ${id} v${v}`, buildAdtA31(chart, messageOptions('ADT', v)));
      hl7(`buildAdrA19 ${id} v${v}`, buildAdrA19(chart, messageOptions('ADR', v)));
      hl7(`buildAdrA19 ${id} v${v} limit`, buildAdrA19(chart, { ...messageOptions('ADR', v), limit: 4, queryId: 'Q1' }));
      for (const e of chart.encounters ?? []) hl7(`buildAdtA08 ${id} ${e.id} v${v}`, buildAdtA08(chart, e.id, messageOptions('ADT', v)));
      for (const n of chart.notes ?? []) hl7(`buildMdmT02 ${id} ${n.id} v${v}`, buildMdmT02(chart, n.id, messageOptions('MDM', v)));
      for (const a of chart.assessments ?? []) hl7(`buildOruR01 ${id} ${a.id} v${v}`, buildOruR01(chart, a.id, messageOptions('ORU', v)));
    }
  }
  if (directory !== undefined) {
    for (const o of directory.organizations ?? []) out.push([`toFhirOrganization ${o.id}`, json(toFhirOrganization(o))]);
    for (const p of directory.practitioners ?? []) out.push([`toFhirPractitioner ${p.id}`, json(toFhirPractitioner(p))]);
    for (const l of directory.locations ?? []) out.push([`toFhirLocation ${l.id}`, json(toFhirLocation(l))]);
    for (const t of RESOURCE_TYPES) {
      out.push([`buildFhirDirectoryBundle ${t}`, json(buildFhirDirectoryBundle(directory, t, { now: NOW }))]);
      out.push([`buildFhirDirectoryBundle ${t} limit`, json(buildFhirDirectoryBundle(directory, t, { now: NOW, limit: 2, baseUrl: 'https://golden.test/fhir' }))]);
    }
  }
  out.push(['checkChartDocument demo', json(checkChartDocument(DEMO))]);
  out.push(['checkChartDocument broken', json(checkChartDocument(breakDocument(DEMO)))]);
  return out;
}

/**
 * A copy of the document with every 5th string emptied, every 7th string given a `|` and a control
 * character, every 6th number negated and every 9th array truncated to nothing: a fixed, varied set of
 * chart-check issues across every record kind.
 */
export function breakDocument(doc: ChartDocument): unknown {
  let strings = 0;
  let numbers = 0;
  let arrays = 0;
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') {
      strings += 1;
      if (strings % 5 === 0) return '';
      if (strings % 7 === 0) return `${value}|\u0001`;
      return value;
    }
    if (typeof value === 'number') {
      numbers += 1;
      return numbers % 6 === 0 ? -value - 1 : value;
    }
    if (Array.isArray(value)) {
      arrays += 1;
      return arrays % 9 === 0 ? [] : value.map(visit);
    }
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v)]));
    }
    return value;
  };
  return visit(doc);
}
