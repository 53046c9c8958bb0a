// Mapping only: a typed chart object → a FHIR R4 Bundle and HL7 v2.5.1 messages. No server, no I/O.
//
//   npm run build && node examples/mapping.mjs
//
// The core is pure: the same chart and options give byte-identical output, because the clock (`now`) and
// the ids (`bundleId`, `controlId`) come from options. Leave them out in production to get the current time
// and generated ids.
import { buildAdtA31, buildFhirPatientExport, buildMdmT02, validatePatientChart } from 'chart-export';
import { fileURLToPath } from 'node:url';

/**
 * A small synthetic chart: one patient with coverage, an encounter, and a note whose text needs escaping in
 * HL7 (`|`, `^`, `&`, `~`, `\` and line breaks).
 * @type {import('chart-export').PatientChart}
 */
export const chart = {
  patient: {
    id: 'pat-0001',
    identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }],
    names: [{ use: 'official', family: "O'Brien", given: ['Mary', 'Anne'] }],
    birthDate: '1984-07-02',
    gender: 'female',
    addresses: [{ use: 'home', lines: ['12 Elm St', 'Apt 4'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
    telecoms: [{ system: 'phone', value: '+1 217 555 0142', use: 'mobile' }],
    coverages: [
      { id: 'cov-1', status: 'active', payer: { id: 'payer-acme', name: 'Acme Health Plan' }, memberId: 'XZ123456', relationship: 'self', order: 1 },
    ],
  },
  encounters: [
    {
      id: 'enc-0001',
      status: 'finished',
      class: 'AMB',
      period: { start: '2026-03-01T09:30:00-05:00', end: '2026-03-01T10:10:00-05:00' },
      reason: 'Follow-up for low mood',
      diagnoses: [{ code: { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' }, rank: 1 }],
    },
  ],
  notes: [
    {
      id: 'note-0001',
      type: 'progress-note',
      title: 'Progress note',
      status: 'final',
      authored: '2026-03-01T10:15:00-05:00',
      encounterId: 'enc-0001',
      text: 'Subjective: mood 4/10 | sleep ~5 h.\nPlan: CBT & recheck PHQ-9 ^ in 2 weeks.',
    },
  ],
};

/**
 * Map the chart to FHIR and HL7 with fixed clock and ids, so the output is reproducible.
 * @returns {{ bundle: import('fhir/r4.js').Bundle, adt: string, mdm: string }}
 */
export function mapChart() {
  // Charts often come from JSON or a database: check one once, up front, to get every problem with its path.
  // (Every builder checks its input too, so nothing invalid is ever emitted.)
  validatePatientChart(chart);
  const now = '2026-03-01T12:00:00-05:00';
  const bundle = buildFhirPatientExport(chart, { now, bundleId: 'example-bundle' });
  const hl7 = { now, sendingApplication: 'CHART-EXPORT', sendingFacility: 'EXAMPLE', processingId: /** @type {const} */ ('T') };
  const adt = buildAdtA31(chart, { ...hl7, controlId: 'ADT0001' });
  const mdm = buildMdmT02(chart, 'note-0001', { ...hl7, controlId: 'MDM0001' });
  return { bundle, adt, mdm };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { bundle, adt, mdm } = mapChart();
  console.log('FHIR R4 Bundle (exportFhirPatient):');
  console.log(JSON.stringify(bundle, null, 2));
  // HL7 v2 separates segments with CR; print them one per line for reading.
  console.log('\nHL7 v2.5.1 ADT^A31 (exportHl7PatientAdt):');
  console.log(adt.split('\r').filter(Boolean).join('\n'));
  console.log('\nHL7 v2.5.1 MDM^T02 (exportHl7Note):');
  console.log(mdm.split('\r').filter(Boolean).join('\n'));
}
