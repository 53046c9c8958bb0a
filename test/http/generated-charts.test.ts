/**
 * End to end over generated chart documents (hostile ids and text included): every route, asked for
 * records that exist, answers 200 with a body that passes the R4 validator (FHIR) or the v2.5.1 structure
 * check (HL7). Ids travel percent-encoded in the query string, as a partner would send them.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { buildAdrA19, buildFhirPatientBundle, checkChartDocument, type ChartDocument } from '../../src/index.js';
import { createInMemoryDataSource } from '../../src/http/index.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { expectFhir, expectHl7 } from './support/bodies.js';
import { KEYS } from './support/fixture.js';
import { NOW_MS, describeMatrix, fixtureOptions, serve, type Mode } from './support/harness.js';
import { runs } from '../support/runs.js';

const q = encodeURIComponent;
const BOTH = { 'x-api-key': KEYS.both };

/** The requests of one document: every route once per patient, on the patient's first record of each kind. */
function requestsFor(doc: ChartDocument): { path: string; format: 'fhir' | 'hl7'; type?: string }[] {
  const out: { path: string; format: 'fhir' | 'hl7'; type?: string }[] = [];
  for (const t of ['Organization', 'Practitioner', 'Location']) out.push({ path: `/publicFhirDirectory?resourceType=${t}`, format: 'fhir' });
  for (const chart of doc.patients) {
    const p = `patientId=${q(chart.patient.id)}`;
    out.push({ path: `/exportFhirPatient?${p}`, format: 'fhir' }, { path: `/exportHl7PatientAdt?${p}`, format: 'hl7', type: 'ADT^A31^ADT_A05' });
    out.push({ path: `/exportFhirPatientBundle?${p}&noteLimit=2`, format: 'fhir' }, { path: `/exportHl7PatientSummary?${p}&limit=4`, format: 'hl7', type: 'ADR^A19^ADR_A19' });
    const enc = chart.encounters?.[0];
    if (enc !== undefined) {
      out.push({ path: `/exportFhirEncounter?${p}&encounterId=${q(enc.id)}`, format: 'fhir' });
      out.push({ path: `/exportHl7Encounter?${p}&encounterId=${q(enc.id)}`, format: 'hl7', type: 'ADT^A08^ADT_A01' });
    }
    const note = chart.notes?.[0];
    if (note !== undefined) {
      out.push({ path: `/exportFhirNote?${p}&noteId=${q(note.id)}`, format: 'fhir' });
      out.push({ path: `/exportHl7Note?${p}&noteId=${q(note.id)}`, format: 'hl7', type: 'MDM^T02^MDM_T02' });
    }
    const asmt = chart.assessments?.[0];
    if (asmt !== undefined) {
      out.push({ path: `/exportFhirAssessment?${p}&assessmentId=${q(asmt.id)}`, format: 'fhir' });
      out.push({ path: `/exportHl7Assessment?${p}&assessmentId=${q(asmt.id)}`, format: 'hl7', type: 'ORU^R01^ORU_R01' });
    }
  }
  return out;
}

describeMatrix('every route over generated chart documents', (mode: Mode) => {
  it('should answer 200 with a valid body for every record that exists', async () => {
    await fc.assert(
      // Only documents the chart check accepts: the adapter serves checked documents (the generators may run ahead of or behind the check).
      fc.asyncProperty(arbChartDocument({ mappable: true, maxPatients: 2 }).filter((doc) => checkChartDocument(doc).length === 0), async (doc) => {
        const call = await serve(mode, await fixtureOptions({ dataSource: createInMemoryDataSource(doc) }));
        for (const r of requestsFor(doc)) {
          const res = await call(r.path, { headers: BOTH });
          if (r.format === 'fhir') expectFhir(res);
          else expectHl7(res, r.type as string, true);
        }
      }),
      { numRuns: runs(mode === 'fetch' ? 30 : 10), endOnFailure: true },
    );
  });
});

/** Bundle limits, small enough to leave encounters that notes and assessments refer to out of the Bundle. */
const arbBundleLimits = fc.record({ encounters: fc.nat({ max: 3 }), notes: fc.nat({ max: 4 }), assessments: fc.nat({ max: 4 }), medicalHistory: fc.nat({ max: 3 }) });

describeMatrix('the patient Bundle over HTTP and the core builder', (mode: Mode) => {
  // The one documented difference (docs/hosting.md, "Your own data"): a Questionnaire's score items come from the
  // assessments the handler reads (the newest `assessmentLimit`), not from every assessment of the chart. So the
  // expected Bundle is the builder's over the whole chart with its assessments cut to those the source lists:
  // encounters, notes and medical history stay whole, and references to encounters beyond the limit keep their
  // display.
  it("should send byte for byte the core builder's Bundle of the whole chart, whatever the limits leave out", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbChartDocument({ mappable: true, maxPatients: 2 }).filter((doc) => checkChartDocument(doc).length === 0),
        fc.array(arbBundleLimits, { minLength: 1, maxLength: 3 }),
        async (doc, limitsList) => {
          const dataSource = createInMemoryDataSource(doc);
          const call = await serve(mode, await fixtureOptions({ dataSource }));
          for (const whole of doc.patients) {
            for (const limits of limitsList) {
              const chart = { ...whole, assessments: [...(await dataSource.listAssessments(whole.patient.id, limits.assessments))] };
              const query = `encounterLimit=${limits.encounters}&noteLimit=${limits.notes}&assessmentLimit=${limits.assessments}&medicalHistoryLimit=${limits.medicalHistory}`;
              // Twice: the second request in a row is the one answered from a proven template.
              for (let round = 0; round < 2; round++) {
                const res = await call(`/exportFhirPatientBundle?patientId=${q(chart.patient.id)}&${query}`, { headers: BOTH });
                const expected = buildFhirPatientBundle(chart, { limits, now: new Date(NOW_MS).toISOString(), ...(doc.directory === undefined ? {} : { directory: doc.directory }) });
                expect(res.body, query).toBe(JSON.stringify(expected));
              }
            }
          }
        },
      ),
      { numRuns: runs(mode === 'fetch' ? 40 : 10), endOnFailure: true },
    );
  });
});

/** The fixture's HL7 options, as `fixtureOptions` sets them (its control ids count the HL7 requests: ADR000001, …). */
const SUMMARY_OPTIONS = {
  sendingApplication: 'CHART-EXPORT',
  sendingFacility: 'RIVERSIDE',
  receivingApplication: 'PARTNER',
  receivingFacility: 'PARTNER-FAC',
  processingId: 'T',
} as const;

describeMatrix('the HL7 summary over HTTP and the core builder', (mode: Mode) => {
  // The handler reads the newest `limit` of each kind (listMedicalHistory: by recordedDate, then onset) and the
  // builder keeps the newest `limit` in total: the builder must order history the same way, or an entry it
  // ranks higher (an onset newer than another entry's recordedDate) is never read.
  it('should keep the medical-history entries the builder keeps from the whole chart', async () => {
    const doc: ChartDocument = {
      patients: [
        {
          patient: { id: 'p1', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1' }], names: [{ family: 'Doe' }] },
          medicalHistory: [
            { id: 'hx-recorded', code: { system: 'icd-10-cm', code: 'I10' }, clinicalStatus: 'active', recordedDate: '2020-01-01', onset: '2001-01-01' },
            { id: 'hx-onset-only', code: { system: 'icd-10-cm', code: 'E11.9' }, clinicalStatus: 'active', onset: '2024-06-01' },
            { id: 'hx-same-day', code: { system: 'icd-10-cm', code: 'J45.909' }, clinicalStatus: 'active', recordedDate: '2020-01-01', onset: '2015-01-01' },
          ],
        },
      ],
    };
    const call = await serve(mode, await fixtureOptions({ dataSource: createInMemoryDataSource(doc) }));
    for (const limit of [0, 1, 2, 3]) {
      const res = await call(`/exportHl7PatientSummary?patientId=p1&limit=${limit}`, { headers: BOTH });
      const options = { ...SUMMARY_OPTIONS, controlId: `ADR00000${limit + 1}`, now: new Date(NOW_MS).toISOString(), limit };
      expect(res.body, `limit ${limit}`).toBe(buildAdrA19(doc.patients[0]!, options));
    }
  });

  it("should send byte for byte the core builder's summary of the whole chart, whatever the limit leaves out", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbChartDocument({ mappable: true, maxPatients: 2 }).filter((doc) => checkChartDocument(doc).length === 0),
        fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 3 }),
        async (doc, limits) => {
          const call = await serve(mode, await fixtureOptions({ dataSource: createInMemoryDataSource(doc) }));
          let sequence = 0;
          for (const chart of doc.patients) {
            for (const limit of limits) {
              const res = await call(`/exportHl7PatientSummary?patientId=${q(chart.patient.id)}&limit=${limit}`, { headers: BOTH });
              const options = { ...SUMMARY_OPTIONS, controlId: `ADR${String(++sequence).padStart(6, '0')}`, now: new Date(NOW_MS).toISOString(), limit };
              const expected = buildAdrA19(chart, doc.directory === undefined ? options : { ...options, directory: doc.directory });
              expect(res.body, `limit ${limit}`).toBe(expected);
            }
          }
        },
      ),
      { numRuns: runs(mode === 'fetch' ? 40 : 10), endOnFailure: true },
    );
  });
});
