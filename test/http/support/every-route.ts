/**
 * Every route of the export interface for every record of a chart document, with what went wrong: a status
 * other than 200, a FHIR body the R4 validator faults (strictly: the handler is given an absolute base URL and
 * the strict Bundle total), an HL7 body `checkHl7Message` faults (the documented length deviations aside). The
 * HTTP half of "whatever `checkChartDocument` accepts exports everywhere" (test/support/export-all.ts is the
 * builders' half).
 */
import { checkHl7Message, isHl7LengthDeviation, type ChartDocument } from '../../../src/index.js';
import { createInMemoryDataSource, type ExportHandlerOptions } from '../../../src/http/index.js';
import { validateFhir } from '../../support/fhir-validator.js';
import { KEYS } from './fixture.js';
import { fixtureOptions, serve, type Caller, type Mode } from './harness.js';

/** One failed request: the request target and what failed. */
export interface RouteFailure {
  readonly target: string;
  readonly problem: string;
}

/** One request of {@link routeRequests}: its target, its format and (HL7) the message type MSH-9 must give. */
export interface RouteRequest {
  readonly target: string;
  readonly format: 'fhir' | 'hl7';
  readonly messageType?: string;
}

const q = encodeURIComponent;
/** Large enough limits that the Bundle and the summary carry every record (the handler clamps them to its maxima). */
const ALL = 'encounterLimit=100&noteLimit=100&assessmentLimit=100&medicalHistoryLimit=200';

/**
 * The requests of one document: the directory for each resource type, and every route for every record of
 * every patient (patient routes once per patient, record routes once per record).
 * @param doc - a chart document
 */
export function routeRequests(doc: ChartDocument): RouteRequest[] {
  const out: RouteRequest[] = [];
  for (const t of ['Organization', 'Practitioner', 'Location']) out.push({ target: `/publicFhirDirectory?resourceType=${t}&limit=500`, format: 'fhir' });
  for (const chart of doc.patients) {
    const p = `patientId=${q(chart.patient.id)}`;
    out.push({ target: `/exportFhirPatient?${p}`, format: 'fhir' });
    out.push({ target: `/exportFhirPatientBundle?${p}&${ALL}`, format: 'fhir' });
    out.push({ target: `/exportHl7PatientAdt?${p}`, format: 'hl7', messageType: 'ADT^A31^ADT_A05' });
    out.push({ target: `/exportHl7PatientSummary?${p}&limit=200`, format: 'hl7', messageType: 'ADR^A19^ADR_A19' });
    for (const e of chart.encounters ?? []) {
      out.push({ target: `/exportFhirEncounter?${p}&encounterId=${q(e.id)}`, format: 'fhir' });
      out.push({ target: `/exportHl7Encounter?${p}&encounterId=${q(e.id)}`, format: 'hl7', messageType: 'ADT^A08^ADT_A01' });
    }
    for (const n of chart.notes ?? []) {
      out.push({ target: `/exportFhirNote?${p}&noteId=${q(n.id)}`, format: 'fhir' });
      out.push({ target: `/exportHl7Note?${p}&noteId=${q(n.id)}`, format: 'hl7', messageType: 'MDM^T02^MDM_T02' });
    }
    for (const a of chart.assessments ?? []) {
      out.push({ target: `/exportFhirAssessment?${p}&assessmentId=${q(a.id)}`, format: 'fhir' });
      out.push({ target: `/exportHl7Assessment?${p}&assessmentId=${q(a.id)}`, format: 'hl7', messageType: 'ORU^R01^ORU_R01' });
    }
  }
  return out;
}

/**
 * Serve `doc` in `mode` (the fixture's keys and HL7 settings, an absolute FHIR base URL, the strict Bundle total).
 * @param doc - the chart document to serve
 * @param mode - fetch handler or Node listener
 * @param overrides - handler options that win
 */
export async function serveDocument(doc: ChartDocument, mode: Mode, overrides: Partial<ExportHandlerOptions> = {}): Promise<Caller> {
  const fhir = { baseUrl: 'https://example.org/fhir', strictBundleTotal: true };
  return serve(mode, await fixtureOptions({ dataSource: createInMemoryDataSource(doc), fhir, ...overrides }));
}

/**
 * Ask every route of {@link routeRequests} and list the failures.
 * @param call - a caller serving the document (see {@link serveDocument})
 * @param doc - the document it serves
 * @param fhirValidation - also validate the FHIR bodies (slow on big bodies)
 */
export async function routeFailures(call: Caller, doc: ChartDocument, fhirValidation = true): Promise<RouteFailure[]> {
  const failures: RouteFailure[] = [];
  for (const r of routeRequests(doc)) {
    const res = await call(r.target, { headers: { 'x-api-key': KEYS.both } });
    if (res.status !== 200) {
      failures.push({ target: r.target, problem: `status ${res.status}: ${res.body.slice(0, 300)}` });
      continue;
    }
    if (r.format === 'fhir') {
      const body = JSON.parse(res.body) as object;
      const findings = fhirValidation ? validateFhir(body).filter((f) => f.severity === 'error') : [];
      if (findings.length > 0) failures.push({ target: r.target, problem: JSON.stringify(findings.slice(0, 3)) });
    } else {
      const faults = checkHl7Message(res.body).filter((p) => !isHl7LengthDeviation(p));
      if (faults.length > 0) failures.push({ target: r.target, problem: JSON.stringify(faults.slice(0, 3)) });
      const msh9 = res.body.split('\r')[0]?.split('|')[8];
      if (msh9 !== r.messageType) failures.push({ target: r.target, problem: `MSH-9 ${String(msh9)}, not ${String(r.messageType)}` });
    }
  }
  return failures;
}
