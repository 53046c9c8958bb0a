// The one-patient chart of the HTTP benchmarks (http, postgres): demographics with coverage, one encounter with a
// diagnosis, one note, and the two directory records they refer to.

/**
 * One patient's chart.
 * @param {string} id - the patient id
 * @param {string} [mrn] - its medical record number (default `MRN-<id>`)
 */
export function onePatientChart(id, mrn = `MRN-${id}`) {
  return {
    patient: {
      id,
      identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: mrn, type: 'MR' }],
      names: [{ use: 'official', family: 'Quintero', given: ['Ana', 'María'] }],
      birthDate: '1984-07-02',
      gender: 'female',
      addresses: [{ use: 'home', lines: ['12 Elm St', 'Apt 4'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
      telecoms: [{ system: 'phone', value: '+1 217 555 0142', use: 'mobile' }],
      coverages: [{ id: 'cov-1', status: 'active', payer: { id: 'payer-aetna', name: 'Aetna' }, memberId: 'XZ123456', relationship: 'self', order: 1 }],
    },
    encounters: [
      {
        id: 'enc-0001',
        status: 'finished',
        class: 'AMB',
        period: { start: '2026-03-01T09:30:00-05:00', end: '2026-03-01T10:10:00-05:00' },
        locationId: 'loc-001',
        participants: [{ role: 'ATND', practitionerId: 'prac-001' }],
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
        authorId: 'prac-001',
        encounterId: 'enc-0001',
        text: 'S: sleeping ~5h | mood 4/10\nO: A&O x3, affect flat\nA: MDD, moderate\nP: continue sertraline 50 mg; follow-up in 2 weeks.',
      },
    ],
  };
}

/** The directory records the chart refers to. */
export const ONE_PATIENT_DIRECTORY = {
  practitioners: [{ id: 'prac-001', names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'] }], identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' }] }],
  locations: [{ id: 'loc-001', name: 'Riverside Clinic, Suite 200', status: 'active' }],
};
