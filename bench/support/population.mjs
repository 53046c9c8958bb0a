/**
 * The generated population of the Bulk benchmarks (bench/bulk.bench.mjs, bench/speed-ups.bench.mjs): a small
 * shared directory and patients each with a few records of every kind (deterministic).
 */
export const DIRECTORY = {
  practitioners: Array.from({ length: 20 }, (_, i) => ({ id: `prac-${i}`, names: [{ family: `Doctor${i}`, given: ['A'] }] })),
  locations: Array.from({ length: 5 }, (_, i) => ({ id: `loc-${i}`, name: `Clinic ${i}`, status: 'active' })),
};
export function generatedChart(i) {
  const id = `p${String(i).padStart(6, '0')}`;
  const day = (k) => `2025-${String((k % 12) + 1).padStart(2, '0')}-${String((k % 27) + 1).padStart(2, '0')}T09:30:00-05:00`;
  return {
    patient: {
      id,
      identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: `MRN-${i}`, type: 'MR' }],
      names: [{ use: 'official', family: `Family${i}`, given: ['Given'] }],
      birthDate: '1980-01-01',
      gender: 'female',
      coverages: [{ id: 'cov-1', status: 'active', payer: { id: 'payer-1', name: 'Payer' }, memberId: `M${i}`, relationship: 'self' }],
    },
    encounters: Array.from({ length: 3 }, (_, k) => ({
      id: `${id}-enc-${k}`,
      status: 'finished',
      class: 'AMB',
      period: { start: day(i + k), end: day(i + k).replace('T09:', 'T10:') },
      locationId: `loc-${(i + k) % 5}`,
      participants: [{ role: 'ATND', practitionerId: `prac-${(i + k) % 20}` }],
      diagnoses: [{ code: { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' } }],
    })),
    notes: Array.from({ length: 2 }, (_, k) => ({
      id: `${id}-note-${k}`,
      type: 'progress-note',
      title: 'Progress note',
      status: 'final',
      authored: day(i + k),
      authorId: `prac-${(i + k) % 20}`,
      encounterId: `${id}-enc-${k}`,
      text: 'Subjective: feels better. Objective: calm, oriented. '.repeat(8),
    })),
    medicalHistory: [{ id: `${id}-hx-1`, code: { system: 'icd-10-cm', code: 'F41.1', display: 'Generalized anxiety disorder' }, clinicalStatus: 'active', recordedDate: '2020-05-14' }],
  };
}

