/**
 * Where the HTTP adapter reads chart data: the `ChartDataSource` interface a host implements over its own
 * store, an in-memory implementation built from a chart document, and the document loader.
 */
import {
  ChartValidationError,
  InvalidArgumentError,
  freezeChartDocument,
  type Assessment,
  type ChartDocument,
  type ClinicalNote,
  type DirectoryLocation,
  type DirectoryOrganization,
  type DirectoryPractitioner,
  type Encounter,
  type MedicalHistoryEntry,
  type Patient,
} from '../index.js';
import { markFrozenSource } from './internal/frozen-source.js';
import { newestFirst } from './internal/newest.js';

/** The methods of {@link ChartDataSource}: all required, so all checked when a handler is created. */
export const DATA_SOURCE_METHODS = [
  'getPatient',
  'getEncounter',
  'getNote',
  'getAssessment',
  'getMedicalHistoryEntry',
  'listEncounters',
  'listNotes',
  'listAssessments',
  'listMedicalHistory',
  'getOrganization',
  'getPractitioner',
  'getLocation',
  'listOrganizations',
  'listPractitioners',
  'listLocations',
] as const satisfies readonly (keyof ChartDataSource)[];

/** The optional keyset page methods of the directory (each takes a {@link KeysetPage}), passed on by the guards when a source has them. */
export const DIRECTORY_PAGE_METHODS = ['listOrganizationsPage', 'listPractitionersPage', 'listLocationsPage'] as const satisfies readonly (keyof ChartDataSource)[];

/** Where a keyset page starts and how long it is (see {@link ChartDataSource.listPatients}). */
export interface KeysetPage {
  /** Only records whose id sorts after this id, in code-point order; absent: from the first record. */
  readonly after?: string | undefined;
  /** At most this many records: a positive integer, already bounded by the caller. */
  readonly limit: number;
}

/**
 * Compare two ids in Unicode code-point order (the order of their UTF-8 bytes, PostgreSQL's `COLLATE "C"`),
 * the order of every keyset page. It differs from `<` on strings only where a character above U+FFFF meets
 * one in U+E000–U+FFFF.
 * @param a - an id
 * @param b - another id
 * @returns a negative number, zero or a positive number as `a` sorts before, with or after `b`
 * @throws {InvalidArgumentError} when `a` or `b` is not a string
 * @example ['b', 'a'].sort(compareIds) // ['a', 'b']
 */
export function compareIds(a: string, b: string): number {
  if (typeof a !== 'string') throw new InvalidArgumentError('a', 'must be a string');
  if (typeof b !== 'string') throw new InvalidArgumentError('b', 'must be a string');
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (D800–DFFF) stands for a code point above U+FFFF: it sorts after every other code unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** The records of `sorted` (ascending by id, {@link compareIds}) after `page.after`, at most `page.limit`. */
function keysetSlice<T extends { id: string }>(sorted: readonly T[], page: KeysetPage): Promise<readonly T[]> {
  const limit = page?.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    return Promise.reject(new InvalidArgumentError('page.limit', 'must be a positive integer'));
  }
  const after = page.after;
  if (after !== undefined && typeof after !== 'string') return Promise.reject(new InvalidArgumentError('page.after', 'must be a string'));
  let lo = 0;
  if (after !== undefined) {
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds((sorted[mid] as T).id, after) <= 0) lo = mid + 1;
      else hi = mid;
    }
  }
  return Promise.resolve(sorted.slice(lo, lo + limit));
}

function sortedById<T extends { id: string }>(records: readonly T[]): readonly T[] {
  return [...records].sort((a, b) => compareIds(a.id, b.id));
}

/**
 * Async reads of chart data for the HTTP adapter. Every method may be backed by a database; the handler
 * calls only what a route needs, in parallel where it can.
 *
 * Rules every implementation follows:
 * - Object lookups are scoped to the patient: an encounter, note, assessment or history entry of another
 *   patient is `undefined` (the handler answers 404, as for a missing one).
 * - `list…` methods return at most `limit` records, newest first (encounters by `period.start`, notes and
 *   assessments by `authored`, medical history by `recordedDate` then `onset`); `limit` is a non-negative
 *   integer already clamped by the handler.
 * - Return `undefined` (not a rejection) for "not found"; `null`, which database clients often give, is read the
 *   same way. Reject with `DataSourceUnavailableError` when the
 *   store is temporarily unavailable (the handler answers 503); any other rejection gives 500. Neither
 *   response carries the error's message.
 * - Return data in the chart model's shape; the builders check it and a record that fails the check gives 500.
 * - Every call gets an `AbortSignal` as its last argument (after the declared ones). It fires when the
 *   request's data reads exceed the handler's `dataSourceTimeoutMs` (reason: a `DataSourceTimeoutError`) or
 *   when the client goes away before the answer is written. Pass it on to the database query (most clients
 *   take a `signal`) so abandoned work stops; the handler has answered already and ignores what the call
 *   gives after that. A source may ignore it (the in-memory one does).
 *
 * @example see `createInMemoryDataSource` for a complete implementation, and `examples/` for one over a
 * host's own store
 */
export interface ChartDataSource {
  /** The patient (demographics and coverages), or `undefined` (or `null`). */
  getPatient(patientId: string, signal?: AbortSignal): Promise<Patient | null | undefined>;
  /** One encounter of the patient, or `undefined` or `null` (also when it belongs to another patient). */
  getEncounter(patientId: string, encounterId: string, signal?: AbortSignal): Promise<Encounter | null | undefined>;
  /** One note of the patient, or `undefined` or `null` (also when it belongs to another patient). */
  getNote(patientId: string, noteId: string, signal?: AbortSignal): Promise<ClinicalNote | null | undefined>;
  /** One assessment of the patient, or `undefined` or `null` (also when it belongs to another patient). */
  getAssessment(patientId: string, assessmentId: string, signal?: AbortSignal): Promise<Assessment | null | undefined>;
  /** One medical-history entry of the patient, or `undefined` or `null` (also when it belongs to another patient). */
  getMedicalHistoryEntry(patientId: string, entryId: string, signal?: AbortSignal): Promise<MedicalHistoryEntry | null | undefined>;
  /** The patient's newest `limit` encounters, newest first by `period.start`. */
  listEncounters(patientId: string, limit: number, signal?: AbortSignal): Promise<readonly Encounter[]>;
  /** The patient's newest `limit` notes, newest first by `authored`. */
  listNotes(patientId: string, limit: number, signal?: AbortSignal): Promise<readonly ClinicalNote[]>;
  /** The patient's newest `limit` assessments, newest first by `authored`. */
  listAssessments(patientId: string, limit: number, signal?: AbortSignal): Promise<readonly Assessment[]>;
  /** The patient's newest `limit` medical-history entries, newest first by `recordedDate`, then `onset`. */
  listMedicalHistory(patientId: string, limit: number, signal?: AbortSignal): Promise<readonly MedicalHistoryEntry[]>;
  /** A directory organization by id, or `undefined` (or `null`). */
  getOrganization(organizationId: string, signal?: AbortSignal): Promise<DirectoryOrganization | null | undefined>;
  /** A directory practitioner by id, or `undefined` (or `null`). */
  getPractitioner(practitionerId: string, signal?: AbortSignal): Promise<DirectoryPractitioner | null | undefined>;
  /** A directory location by id, or `undefined` (or `null`). */
  getLocation(locationId: string, signal?: AbortSignal): Promise<DirectoryLocation | null | undefined>;
  /** At most `limit` directory organizations, in a stable order (the in-memory source: document order). */
  listOrganizations(limit: number, signal?: AbortSignal): Promise<readonly DirectoryOrganization[]>;
  /** At most `limit` directory practitioners, in a stable order. */
  listPractitioners(limit: number, signal?: AbortSignal): Promise<readonly DirectoryPractitioner[]>;
  /** At most `limit` directory locations, in a stable order. */
  listLocations(limit: number, signal?: AbortSignal): Promise<readonly DirectoryLocation[]>;
  /**
   * Optional keyset page of patients, for population exports (`$export`): at most `page.limit` patients whose
   * id sorts after `page.after` (absent: from the first), ascending by id in Unicode code-point order (the
   * order of the ids' UTF-8 bytes: PostgreSQL's `COLLATE "C"`; see `compareIds`). Walking pages with
   * `after` = the last id of the previous page gives every patient exactly once, even while patients are
   * added or removed. A source without it cannot feed a population export (the handler answers `$export`
   * with a documented error).
   */
  listPatients?(page: KeysetPage, signal?: AbortSignal): Promise<readonly Patient[]>;
  /** Optional keyset page of directory organizations, ascending by id as {@link ChartDataSource.listPatients}. */
  listOrganizationsPage?(page: KeysetPage, signal?: AbortSignal): Promise<readonly DirectoryOrganization[]>;
  /** Optional keyset page of directory practitioners, ascending by id as {@link ChartDataSource.listPatients}. */
  listPractitionersPage?(page: KeysetPage, signal?: AbortSignal): Promise<readonly DirectoryPractitioner[]>;
  /** Optional keyset page of directory locations, ascending by id as {@link ChartDataSource.listPatients}. */
  listLocationsPage?(page: KeysetPage, signal?: AbortSignal): Promise<readonly DirectoryLocation[]>;
  /**
   * Optional readiness check, asked by `GET /readyz` (handler option `healthRoutes`): resolve when the store
   * can answer now (e.g. a `SELECT 1` on a pooled connection), reject (any error; a
   * `DataSourceUnavailableError` with `retryAfterSeconds` sets `Retry-After`) when it cannot. Bounded by
   * `dataSourceTimeoutMs`, whose expiry fires `signal`. A source without `ping` is always ready, as the
   * in-memory one is.
   */
  ping?(signal: AbortSignal): Promise<void>;
  /**
   * Optional capability: `true` when the source hands out identity-stable records. Every record object it
   * gives is deep-frozen (never changed after it is handed out), and it gives the same object again only
   * while the stored record is unchanged: a record that changed, or was removed and written again, comes as a
   * new object. The handler then reuses output built from the same record objects (HL7 messages and FHIR
   * Bundles with only their time, id and control id filled in, proven byte for byte against the builders) and
   * keys that reuse on the identity of every record the output is built from, directory records included.
   * It still reads every request's records from the source, so a change shows in the very next answer. A
   * record that is not frozen is built afresh. Absent or `false`: every answer is built afresh. Read once,
   * when the handler is created; anything but a boolean is refused there. `createPostgresDataSource` sets
   * it while its record cache is on.
   * @example
   * // Reads that keep one deep-frozen record per stored row text, as the PostgreSQL source's record cache does:
   * const dataSource: ChartDataSource = { ...reads, stableRecords: true };
   */
  readonly stableRecords?: boolean | undefined;
}

/**
 * Load and check a chart document (the model types as JSON: `{ patients: PatientChart[], directory? }`).
 * Every problem is reported with its path, by `ChartValidationError.issues`; no message carries a patient
 * value, not even for text that is not JSON.
 *
 * @param input - the document as a value, as JSON text, or as UTF-8 bytes (e.g. `readFileSync(path)`)
 * @returns the checked document as a deep-frozen copy (see `freezeChartDocument`): the builders and
 *   {@link createInMemoryDataSource} do not check it, or any record in it, again
 * @throws {ChartValidationError} for text that is not UTF-8 or not JSON (one issue at the root) and for every
 *   problem of the document (unique ids, references that do not resolve, field rules)
 * @example
 * const doc = loadChartDocument(await readFile('chart.json'));
 * const dataSource = createInMemoryDataSource(doc);
 */
export function loadChartDocument(input: unknown): ChartDocument {
  let value = input;
  if (value instanceof Uint8Array) {
    try {
      value = new TextDecoder('utf-8', { fatal: true }).decode(value);
    } catch {
      throw new ChartValidationError([{ path: [], code: 'format', message: 'is not valid UTF-8' }]);
    }
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch (error) {
      // The engine's message quotes the text around the error, which may be patient data: keep the position only.
      const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
      const where = position === undefined ? '' : ` (at character ${position})`;
      throw new ChartValidationError([{ path: [], code: 'format', message: `is not valid JSON${where}` }]);
    }
  }
  return freezeChartDocument(value);
}

interface PatientIndex {
  readonly patient: Patient;
  readonly encounters: Map<string, Encounter>;
  readonly notes: Map<string, ClinicalNote>;
  readonly assessments: Map<string, Assessment>;
  readonly history: Map<string, MedicalHistoryEntry>;
  readonly newestEncounters: readonly Encounter[];
  readonly newestNotes: readonly ClinicalNote[];
  readonly newestAssessments: readonly Assessment[];
  readonly newestHistory: readonly MedicalHistoryEntry[];
}

function byId<T extends { id: string }>(records: readonly T[] | undefined): Map<string, T> {
  return new Map((records ?? []).map((r) => [r.id, r]));
}

function take<T>(records: readonly T[], limit: number): Promise<readonly T[]> {
  // A limit that is not a number (a symbol, an object) is a caller's bug, not "no records".
  if (typeof limit !== 'number' || Number.isNaN(limit)) return Promise.reject(new InvalidArgumentError('limit', 'must be a non-negative integer'));
  return Promise.resolve(records.slice(0, Math.max(0, Math.floor(limit))));
}

/**
 * Create a {@link ChartDataSource} over a chart document held in memory: for tests, demos and hosts whose
 * data fits in memory. The document is checked (every problem reported by path), copied and frozen, so later
 * changes to the caller's object do not leak in, and the builders do not check its records again on every
 * request (see `freezeChartDocument`); a document from {@link loadChartDocument} is used as it is, without a
 * second check. Lookups are map reads; newest-first lists are sorted once. Because its records never change,
 * the export handler reuses output built from them across requests (see `createExportHandler`).
 *
 * @param document - a chart document (value, JSON text or UTF-8 bytes; see {@link loadChartDocument})
 * @returns the data source
 * @throws {ChartValidationError} when the document fails the check
 * @example
 * const dataSource = createInMemoryDataSource({ patients: [{ patient }], directory: { practitioners: [] } });
 * await dataSource.getPatient('pat-0001');
 */
export function createInMemoryDataSource(document: unknown): ChartDataSource {
  const doc = loadChartDocument(document);

  const patients = new Map<string, PatientIndex>();
  for (const chart of doc.patients) {
    patients.set(chart.patient.id, {
      patient: chart.patient,
      encounters: byId(chart.encounters),
      notes: byId(chart.notes),
      assessments: byId(chart.assessments),
      history: byId(chart.medicalHistory),
      newestEncounters: newestFirst(chart.encounters ?? [], (e) => [e.period?.start]),
      newestNotes: newestFirst(chart.notes ?? [], (n) => [n.authored]),
      newestAssessments: newestFirst(chart.assessments ?? [], (a) => [a.authored]),
      newestHistory: newestFirst(chart.medicalHistory ?? [], (h) => [h.recordedDate, h.onset]),
    });
  }
  const organizations = doc.directory?.organizations ?? [];
  const practitioners = doc.directory?.practitioners ?? [];
  const locations = doc.directory?.locations ?? [];
  const organizationsById = byId(organizations);
  const practitionersById = byId(practitioners);
  const locationsById = byId(locations);
  const EMPTY: readonly never[] = [];
  const patientsById = sortedById(doc.patients.map((c) => c.patient));
  const organizationsSorted = sortedById(organizations);
  const practitionersSorted = sortedById(practitioners);
  const locationsSorted = sortedById(locations);

  const source: ChartDataSource = {
    getPatient: (patientId) => Promise.resolve(patients.get(patientId)?.patient),
    getEncounter: (patientId, id) => Promise.resolve(patients.get(patientId)?.encounters.get(id)),
    getNote: (patientId, id) => Promise.resolve(patients.get(patientId)?.notes.get(id)),
    getAssessment: (patientId, id) => Promise.resolve(patients.get(patientId)?.assessments.get(id)),
    getMedicalHistoryEntry: (patientId, id) => Promise.resolve(patients.get(patientId)?.history.get(id)),
    listEncounters: (patientId, limit) => take(patients.get(patientId)?.newestEncounters ?? EMPTY, limit),
    listNotes: (patientId, limit) => take(patients.get(patientId)?.newestNotes ?? EMPTY, limit),
    listAssessments: (patientId, limit) => take(patients.get(patientId)?.newestAssessments ?? EMPTY, limit),
    listMedicalHistory: (patientId, limit) => take(patients.get(patientId)?.newestHistory ?? EMPTY, limit),
    getOrganization: (id) => Promise.resolve(organizationsById.get(id)),
    getPractitioner: (id) => Promise.resolve(practitionersById.get(id)),
    getLocation: (id) => Promise.resolve(locationsById.get(id)),
    listOrganizations: (limit) => take(organizations, limit),
    listPractitioners: (limit) => take(practitioners, limit),
    listLocations: (limit) => take(locations, limit),
    listPatients: (page) => keysetSlice(patientsById, page),
    listOrganizationsPage: (page) => keysetSlice(organizationsSorted, page),
    listPractitionersPage: (page) => keysetSlice(practitionersSorted, page),
    listLocationsPage: (page) => keysetSlice(locationsSorted, page),
  };
  // Every record served is a deep-frozen checked copy: the handler may reuse output built from it. The source
  // itself is frozen too, so no method can be swapped for one that serves records that change.
  Object.freeze(source);
  markFrozenSource(source);
  return source;
}
