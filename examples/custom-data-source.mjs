// A ChartDataSource over a host's own store. The store here is a Map-backed "repository" with async methods,
// standing in for a database; the adapter shows every method of the interface and the rules it must keep:
//
// - lookups are scoped to the patient: an encounter, note, assessment or history entry of another patient
//   is `undefined` (the handler answers 404, exactly as for a missing one, so ids cannot be probed);
// - `list…` methods return at most `limit` records, newest first;
// - "not found" is `undefined`, not a rejection; a store that is down rejects with DataSourceUnavailableError
//   (the handler answers 503 with Retry-After); any other rejection gives 500. Neither shows the message.
//
//   npm run build && node examples/custom-data-source.mjs
import { fileURLToPath } from 'node:url';
import { DataSourceUnavailableError, createExportHandler, createInMemoryKeyStore, hashApiKey } from 'chart-export/http';

// ---------------------------------------------------------------------------------------------------------
// The host's store: rows keyed by id, each row carrying its patient id, like tables with a foreign key.

/**
 * @typedef {import('chart-export').Patient} Patient
 * @typedef {import('chart-export').Encounter} Encounter
 * @typedef {import('chart-export').ClinicalNote} ClinicalNote
 * @typedef {import('chart-export').Assessment} Assessment
 * @typedef {import('chart-export').MedicalHistoryEntry} MedicalHistoryEntry
 * @typedef {import('chart-export').DirectoryOrganization} DirectoryOrganization
 * @typedef {import('chart-export').DirectoryPractitioner} DirectoryPractitioner
 * @typedef {import('chart-export').DirectoryLocation} DirectoryLocation
 */

/** Create the repository: async reads over Maps, and a switch to simulate an outage. */
export function createRepository() {
  /** @type {Map<string, Patient>} */ const patients = new Map();
  /** @type {Map<string, { patientId: string, record: Encounter }>} */ const encounters = new Map();
  /** @type {Map<string, { patientId: string, record: ClinicalNote }>} */ const notes = new Map();
  /** @type {Map<string, { patientId: string, record: Assessment }>} */ const assessments = new Map();
  /** @type {Map<string, { patientId: string, record: MedicalHistoryEntry }>} */ const history = new Map();
  /** @type {Map<string, DirectoryOrganization>} */ const organizations = new Map();
  /** @type {Map<string, DirectoryPractitioner>} */ const practitioners = new Map();
  /** @type {Map<string, DirectoryLocation>} */ const locations = new Map();
  let down = false;

  /** Simulate a round trip; reject like a driver does when the database is unreachable. */
  const query = async (/** @type {() => any} */ read) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (down) throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    // structuredClone: callers get copies, as from a real database.
    return structuredClone(read());
  };
  /** @template T @param {Map<string, { patientId: string, record: T }>} table @param {string} patientId */
  const rowsOf = (table, patientId) => [...table.values()].filter((row) => row.patientId === patientId).map((row) => row.record);

  return {
    setDown(/** @type {boolean} */ value) {
      down = value;
    },
    /** Insert a patient and their records (ids are unique per table in this store). @param {import('chart-export').PatientChart} chart */
    insertChart(chart) {
      const patientId = chart.patient.id;
      patients.set(patientId, chart.patient);
      for (const record of chart.encounters ?? []) encounters.set(record.id, { patientId, record });
      for (const record of chart.notes ?? []) notes.set(record.id, { patientId, record });
      for (const record of chart.assessments ?? []) assessments.set(record.id, { patientId, record });
      for (const record of chart.medicalHistory ?? []) history.set(record.id, { patientId, record });
    },
    /** @param {import('chart-export').Directory} directory */
    insertDirectory(directory) {
      for (const o of directory.organizations ?? []) organizations.set(o.id, o);
      for (const p of directory.practitioners ?? []) practitioners.set(p.id, p);
      for (const l of directory.locations ?? []) locations.set(l.id, l);
    },
    findPatient: (/** @type {string} */ id) => query(() => patients.get(id)),
    /** A row by id, with the patient it belongs to. */
    findEncounter: (/** @type {string} */ id) => query(() => encounters.get(id)),
    findNote: (/** @type {string} */ id) => query(() => notes.get(id)),
    findAssessment: (/** @type {string} */ id) => query(() => assessments.get(id)),
    findHistoryEntry: (/** @type {string} */ id) => query(() => history.get(id)),
    encountersOf: (/** @type {string} */ patientId) => query(() => rowsOf(encounters, patientId)),
    notesOf: (/** @type {string} */ patientId) => query(() => rowsOf(notes, patientId)),
    assessmentsOf: (/** @type {string} */ patientId) => query(() => rowsOf(assessments, patientId)),
    historyOf: (/** @type {string} */ patientId) => query(() => rowsOf(history, patientId)),
    findOrganization: (/** @type {string} */ id) => query(() => organizations.get(id)),
    findPractitioner: (/** @type {string} */ id) => query(() => practitioners.get(id)),
    findLocation: (/** @type {string} */ id) => query(() => locations.get(id)),
    allOrganizations: () => query(() => [...organizations.values()]),
    allPractitioners: () => query(() => [...practitioners.values()]),
    allLocations: () => query(() => [...locations.values()]),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The adapter: ChartDataSource over the repository.

/** Newest first by ISO date-time: a database would `ORDER BY … DESC LIMIT n`. Unknown dates sort last. */
const newestFirst = (/** @type {(r: any) => string | undefined} */ dateOf) => (/** @type {any} */ a, /** @type {any} */ b) =>
  (Date.parse(dateOf(b) ?? '') || -Infinity) - (Date.parse(dateOf(a) ?? '') || -Infinity) || 0;

/**
 * Wrap store calls: an outage becomes DataSourceUnavailableError (503 with Retry-After), anything else stays
 * an error (500). Neither message reaches the client.
 * @template T @param {() => Promise<T>} call @returns {Promise<T>}
 */
async function guarded(call) {
  try {
    return await call();
  } catch (error) {
    if (/** @type {{ code?: unknown }} */ (error).code === 'ECONNREFUSED') {
      throw new DataSourceUnavailableError('chart database unreachable', { cause: error, retryAfterSeconds: 5 });
    }
    throw error;
  }
}

/**
 * The ChartDataSource over the repository.
 * @param {ReturnType<typeof createRepository>} repo
 * @returns {import('chart-export/http').ChartDataSource}
 */
export function createRepositoryDataSource(repo) {
  /** A record of the patient, or undefined when missing or another patient's (never tell the two apart). */
  const ofPatient = async (/** @type {Promise<{ patientId: string, record: any } | undefined>} */ row, /** @type {string} */ patientId) => {
    const found = await row;
    return found !== undefined && found.patientId === patientId ? found.record : undefined;
  };
  return {
    getPatient: (patientId) => guarded(() => repo.findPatient(patientId)),
    getEncounter: (patientId, id) => guarded(() => ofPatient(repo.findEncounter(id), patientId)),
    getNote: (patientId, id) => guarded(() => ofPatient(repo.findNote(id), patientId)),
    getAssessment: (patientId, id) => guarded(() => ofPatient(repo.findAssessment(id), patientId)),
    getMedicalHistoryEntry: (patientId, id) => guarded(() => ofPatient(repo.findHistoryEntry(id), patientId)),
    listEncounters: (patientId, limit) =>
      guarded(async () => (await repo.encountersOf(patientId)).sort(newestFirst((e) => e.period?.start)).slice(0, limit)),
    listNotes: (patientId, limit) => guarded(async () => (await repo.notesOf(patientId)).sort(newestFirst((n) => n.authored)).slice(0, limit)),
    listAssessments: (patientId, limit) =>
      guarded(async () => (await repo.assessmentsOf(patientId)).sort(newestFirst((a) => a.authored)).slice(0, limit)),
    listMedicalHistory: (patientId, limit) =>
      guarded(async () => (await repo.historyOf(patientId)).sort(newestFirst((h) => h.recordedDate ?? h.onset)).slice(0, limit)),
    getOrganization: (id) => guarded(() => repo.findOrganization(id)),
    getPractitioner: (id) => guarded(() => repo.findPractitioner(id)),
    getLocation: (id) => guarded(() => repo.findLocation(id)),
    listOrganizations: (limit) => guarded(async () => (await repo.allOrganizations()).slice(0, limit)),
    listPractitioners: (limit) => guarded(async () => (await repo.allPractitioners()).slice(0, limit)),
    listLocations: (limit) => guarded(async () => (await repo.allLocations()).slice(0, limit)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// End to end: seed the store, build the handler, send requests.

/** A tiny seed: two patients, so "another patient's encounter" can be asked. Synthetic. */
export const SEED = {
  /** @type {import('chart-export').PatientChart[]} */
  charts: [
    {
      patient: {
        id: 'p-1',
        identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1001', type: 'MR' }],
        names: [{ family: 'Nakamura', given: ['Hana'] }],
        birthDate: '1979-02-14',
        gender: 'female',
      },
      encounters: [
        { id: 'e-1', status: 'finished', class: 'AMB', period: { start: '2026-01-05T09:00:00Z' } },
        { id: 'e-2', status: 'finished', class: 'VR', period: { start: '2026-02-09T15:00:00Z' }, participants: [{ role: 'ATND', practitionerId: 'dr-1' }] },
      ],
      notes: [
        { id: 'n-1', type: 'progress-note', title: 'Telehealth follow-up', status: 'final', authored: '2026-02-09T15:40:00Z', authorId: 'dr-1', encounterId: 'e-2', text: 'Mood improving.\nContinue plan.' },
      ],
    },
    {
      patient: { id: 'p-2', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1002' }], names: [{ text: 'Sam Rivera' }] },
      encounters: [{ id: 'e-3', status: 'finished', class: 'EMER', period: { start: '2026-03-01T02:10:00Z' } }],
    },
  ],
  /** @type {import('chart-export').Directory} */
  directory: { practitioners: [{ id: 'dr-1', names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'] }] }] },
};

/**
 * Build the repository, the data source and the handler.
 * @returns {Promise<{ repo: ReturnType<typeof createRepository>, handler: import('chart-export/http').ExportHandler }>}
 */
export async function createExample() {
  const repo = createRepository();
  for (const chart of SEED.charts) repo.insertChart(chart);
  repo.insertDirectory(SEED.directory);
  const handler = createExportHandler({
    dataSource: createRepositoryDataSource(repo),
    keyStore: createInMemoryKeyStore([{ keyHash: await hashApiKey('example-key'), partnerId: 'example-partner', scopes: ['fhir:export', 'hl7:export'] }]),
  });
  return { repo, handler };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { repo, handler } = await createExample();
  const get = async (/** @type {string} */ path, /** @type {string} */ accept) => {
    const response = await handler(new Request(`http://localhost${path}`, { headers: { 'x-api-key': 'example-key', accept } }));
    const body = await response.text();
    console.log(`GET ${path} → ${response.status}${response.headers.has('retry-after') ? ` (Retry-After: ${response.headers.get('retry-after')})` : ''}`);
    console.log(`  ${body.slice(0, 160).replaceAll('\r', '\n  ')}…`);
  };
  await get('/exportFhirEncounter?patientId=p-1&encounterId=e-2', 'application/fhir+json');
  await get('/exportHl7Note?patientId=p-1&noteId=n-1', 'application/hl7-v2');
  await get('/exportFhirPatientBundle?patientId=p-1&encounterLimit=1', 'application/fhir+json');
  // e-3 exists, but belongs to p-2: 404, the same answer as for an id that does not exist.
  await get('/exportFhirEncounter?patientId=p-1&encounterId=e-3', 'application/fhir+json');
  repo.setDown(true);
  await get('/exportFhirPatient?patientId=p-1', 'application/fhir+json');
}
