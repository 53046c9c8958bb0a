/**
 * The data step of each route: what it reads from the data source, in parallel where it can, and which
 * record is missing (a 404) when one is.
 */
import {
  checkPatientChart,
  type Assessment,
  type ClinicalNote,
  type Directory,
  type DirectoryLocation,
  type DirectoryOrganization,
  type DirectoryPractitioner,
  type FhirDirectoryLink,
  type DirectoryResourceType,
  type Encounter,
  type Patient,
  type PatientChart,
} from '../../index.js';
import { isoOrderKey } from '../../internal/adapter.js';
import { compareIds, type ChartDataSource, type KeysetPage } from '../data-source.js';
import { invalidParameters, type HttpError } from '../internal/responses.js';
import { decodeCursor, encodeCursor } from './directory-cursor.js';
import { gatherDirectory } from '../directory-lookup.js';
import type { Loaded, RecordReader } from './route-types.js';

/** How many referenced encounters the patient Bundle reads at once from the data source. */
const REFERENCE_READS_AT_ONCE = 8;

/** A chart id parameter of a checked request (the route table makes it required). */
function id(reader: RecordReader, name: string): string {
  return reader.parameters.ids[name] as string;
}

/** A limit parameter of a checked request (defaulted and clamped by the parameter check). */
function limit(reader: RecordReader, name: string): number {
  return reader.parameters.limits[name] as number;
}

/** A patient, for the patient routes. */
export interface PatientData {
  readonly patient: Patient;
  readonly chart: PatientChart;
}

/** Reads the patient of `patientId`. */
export async function loadPatient(reader: RecordReader): Promise<Loaded<PatientData>> {
  const patient = await reader.dataSource.getPatient(id(reader, 'patientId'));
  if (patient == null) return { missing: 'patient' };
  return { data: { patient, chart: { patient } } };
}

/** The newest records of a patient, and the directory records they refer to. */
export interface PatientRecordsData {
  /** The patient and the newest records of each kind, as listed by the data source. */
  readonly listed: PatientChart;
  readonly directory: Directory | undefined;
}

/** Read a patient and their newest records of each kind, `limitOf(kind)` of each; `undefined` without the patient. */
async function readListedChart(
  dataSource: ChartDataSource,
  patientId: string,
  limitOf: (parameter: 'encounterLimit' | 'noteLimit' | 'assessmentLimit' | 'medicalHistoryLimit') => number,
): Promise<PatientChart | undefined> {
  const [patient, encounters, notes, assessments, medicalHistory] = await Promise.all([
    dataSource.getPatient(patientId),
    dataSource.listEncounters(patientId, limitOf('encounterLimit')),
    dataSource.listNotes(patientId, limitOf('noteLimit')),
    dataSource.listAssessments(patientId, limitOf('assessmentLimit')),
    dataSource.listMedicalHistory(patientId, limitOf('medicalHistoryLimit')),
  ]);
  if (patient == null) return undefined;
  return { patient, encounters: [...encounters], notes: [...notes], assessments: [...assessments], medicalHistory: [...medicalHistory] };
}

/** The patient summary: the newest `limit` records of each kind hold the newest `limit` overall. */
export async function loadPatientSummary(reader: RecordReader): Promise<Loaded<PatientRecordsData & { readonly limit: number }>> {
  const n = limit(reader, 'limit');
  const listed = await readListedChart(reader.dataSource, id(reader, 'patientId'), () => n);
  if (listed === undefined) return { missing: 'patient' };
  return { data: { listed, directory: await gatherDirectory(reader.dataSource, listed), limit: n } };
}

/** The patient Bundle's data: its records, their directory, and the encounters its notes and assessments refer to. */
export interface PatientBundleData extends PatientRecordsData {
  /** Encounters referred to beyond the encounter limit: not entries, only displays of references. */
  readonly referenced: readonly Encounter[];
  readonly limits: { readonly encounters: number; readonly notes: number; readonly assessments: number; readonly medicalHistory: number };
}

/** Reads the patient Bundle's records, each kind up to its own limit. */
export async function loadPatientBundle(reader: RecordReader): Promise<Loaded<PatientBundleData>> {
  const patientId = id(reader, 'patientId');
  const listed = await readListedChart(reader.dataSource, patientId, (name) => limit(reader, name));
  if (listed === undefined) return { missing: 'patient' };
  const directory = await gatherDirectory(reader.dataSource, listed);
  const limits = {
    encounters: limit(reader, 'encounterLimit'),
    notes: limit(reader, 'noteLimit'),
    assessments: limit(reader, 'assessmentLimit'),
    medicalHistory: limit(reader, 'medicalHistoryLimit'),
  };
  const referenced = await readReferencedEncounters(reader.dataSource, patientId, listed, limits.encounters);
  return { data: { listed, directory, referenced, limits } };
}

/**
 * `fn` over `items`, at most `size` calls in flight: batch by batch, results in item order.
 * @param items - the inputs
 * @param size - the batch size
 * @param fn - the asynchronous call
 * @returns every result, in the order of `items`
 */
async function mapInBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/**
 * The encounters a patient Bundle's notes and assessments refer to that are not among the listed newest
 * `limit` (read with `getEncounter`, scoped to the patient), so that the builder can give their logical
 * references a display. Only encounters the builder would not take as entries in place of a listed one are
 * kept: the list must be full (else the source says there is no other encounter) and each must be no newer
 * than the oldest listed (equals keep the listed first, as the builder's sort is stable). What a source gives
 * otherwise is left out, and that reference has no display.
 */
async function readReferencedEncounters(dataSource: ChartDataSource, patientId: string, listed: PatientChart, max: number): Promise<Encounter[]> {
  const encounters = listed.encounters ?? [];
  if (encounters.length < max) return [];
  const have = new Set(encounters.map((e) => e.id));
  const wanted = new Set<string>();
  for (const record of [...(listed.notes ?? []), ...(listed.assessments ?? [])]) {
    const encounterId = record.encounterId;
    if (encounterId !== undefined && !have.has(encounterId)) wanted.add(encounterId);
  }
  if (wanted.size === 0) return [];
  let oldest = Number.POSITIVE_INFINITY;
  for (const e of encounters) oldest = Math.min(oldest, isoOrderKey(e.period?.start));
  // A few reads at a time: a Bundle may refer to up to noteLimit + assessmentLimit encounters, and a
  // database-backed source should not get them all at once.
  const ids = [...wanted];
  const found = await mapInBatches(ids, REFERENCE_READS_AT_ONCE, (encounterId) => dataSource.getEncounter(patientId, encounterId));
  return found.filter(
    (e, i): e is Encounter =>
      e != null &&
      typeof e === 'object' &&
      // The encounter asked for, and each once: a source that answers another id is not trusted with it.
      e.id === ids[i] &&
      isoOrderKey(e.period?.start) <= oldest &&
      // Only for a display: an encounter that fails the chart check is left out (its references keep no
      // display) rather than failing the whole Bundle.
      checkPatientChart({ patient: listed.patient, encounters: [e] }).every((issue) => issue.path[0] !== 'encounters'),
  );
}

/** One record of a patient (encounter, note or assessment), the chart it is exported from, and its directory. */
export interface RecordData<TRecord> {
  readonly record: TRecord;
  readonly recordId: string;
  readonly patient: Patient;
  /** The encounter a note or assessment refers to, when it has one and the source has it. */
  readonly encounter: Encounter | undefined;
  readonly chart: PatientChart;
  readonly directory: Directory | undefined;
}

/** Reads an encounter of a patient. */
export async function loadEncounter(reader: RecordReader): Promise<Loaded<RecordData<Encounter>>> {
  const patientId = id(reader, 'patientId');
  const encounterId = id(reader, 'encounterId');
  const [patient, encounter] = await Promise.all([reader.dataSource.getPatient(patientId), reader.dataSource.getEncounter(patientId, encounterId)]);
  if (patient == null) return { missing: 'patient' };
  if (encounter == null) return { missing: 'encounter' };
  const chart: PatientChart = { patient, encounters: [encounter] };
  const found = reader.directoryFor(encounter, undefined, chart);
  // A directory kept by output reuse comes without a promise: no wait then.
  const directory = found instanceof Promise ? await found : found;
  return { data: { record: encounter, recordId: encounterId, patient, encounter: undefined, chart, directory } };
}

/** The encounter a note or assessment refers to, or `undefined` (none, or not found); no wait without one. */
function readRecordEncounter(reader: RecordReader, patientId: string, encounterId: string | undefined): Promise<Encounter | undefined> | undefined {
  return encounterId === undefined ? undefined : Promise.resolve(reader.dataSource.getEncounter(patientId, encounterId)).then((e) => e ?? undefined);
}

/** Reads a note of a patient, with the encounter it refers to. */
export async function loadNote(reader: RecordReader): Promise<Loaded<RecordData<ClinicalNote>>> {
  const patientId = id(reader, 'patientId');
  const noteId = id(reader, 'noteId');
  const [patient, note] = await Promise.all([reader.dataSource.getPatient(patientId), reader.dataSource.getNote(patientId, noteId)]);
  if (patient == null) return { missing: 'patient' };
  if (note == null) return { missing: 'note' };
  const reading = readRecordEncounter(reader, patientId, note.encounterId);
  const encounter = reading === undefined ? undefined : await reading;
  const chart: PatientChart = { patient, notes: [note], encounters: encounter === undefined ? [] : [encounter] };
  const found = reader.directoryFor(note, encounter, chart);
  // A directory kept by output reuse comes without a promise: no wait then.
  const directory = found instanceof Promise ? await found : found;
  return { data: { record: note, recordId: noteId, patient, encounter, chart, directory } };
}

/** Reads an assessment of a patient, with the encounter it refers to. */
export async function loadAssessment(reader: RecordReader): Promise<Loaded<RecordData<Assessment>>> {
  const patientId = id(reader, 'patientId');
  const assessmentId = id(reader, 'assessmentId');
  const [patient, assessment] = await Promise.all([reader.dataSource.getPatient(patientId), reader.dataSource.getAssessment(patientId, assessmentId)]);
  if (patient == null) return { missing: 'patient' };
  if (assessment == null) return { missing: 'assessment' };
  const reading = readRecordEncounter(reader, patientId, assessment.encounterId);
  const encounter = reading === undefined ? undefined : await reading;
  const chart: PatientChart = { patient, assessments: [assessment], encounters: encounter === undefined ? [] : [encounter] };
  const found = reader.directoryFor(assessment, encounter, chart);
  // A directory kept by output reuse comes without a promise: no wait then.
  const directory = found instanceof Promise ? await found : found;
  return { data: { record: assessment, recordId: assessmentId, patient, encounter, chart, directory } };
}

/** One page of the public directory. */
export interface DirectoryListingData {
  readonly directory: Directory;
  readonly resourceType: DirectoryResourceType;
  readonly limit: number;
  /** `Bundle.link`: `self` and, when more records follow, `next` (none without a valid request origin). */
  readonly link: readonly FhirDirectoryLink[];
}

/** A directory record as a keyset page gives it. */
type Keyed = { readonly id: string };

/** The keyset page lister of a resource type, when the source has one. */
function keysetLister(dataSource: ChartDataSource, resourceType: DirectoryResourceType): ((page: KeysetPage) => Promise<readonly Keyed[]>) | undefined {
  // Read once: a guarded source answers every method, so test the host's own object through the guard's view.
  const method = resourceType === 'Organization' ? 'listOrganizationsPage' : resourceType === 'Practitioner' ? 'listPractitionersPage' : 'listLocationsPage';
  const lister = dataSource[method] as ((page: KeysetPage) => Promise<readonly Keyed[]>) | undefined;
  return typeof lister === 'function' ? (page) => lister.call(dataSource, page) : undefined;
}

/**
 * A keyset page of `limit` records after `after`, and whether more follow (asked as `limit + 1`). A source's
 * answer must be ascending by id and after `after`, else the walk could repeat or loop: such an answer is a
 * data-source failure (500), never a page.
 */
async function readKeysetPage(lister: (page: KeysetPage) => Promise<readonly Keyed[]>, after: string | undefined, limit: number): Promise<{ records: Keyed[]; more: boolean }> {
  if (limit === 0) return { records: [], more: false };
  const got = await lister(after === undefined ? { limit: limit + 1 } : { after, limit: limit + 1 });
  if (!Array.isArray(got)) throw new TypeError('A keyset page must be an array.');
  let previous = after;
  for (const record of got as readonly unknown[]) {
    const id = (record as Keyed | null)?.id;
    if (typeof id !== 'string' || (previous !== undefined && compareIds(id, previous) <= 0)) {
      throw new TypeError('A keyset page must hold records ascending by id, after the cursor.');
    }
    previous = id;
  }
  return { records: got.slice(0, limit), more: got.length > limit };
}

/** The `self` and `next` links of a page, absolute under the service base. */
function pageLinks(base: string | undefined, resourceType: string, count: number, cursor: string | undefined, next: string | undefined): FhirDirectoryLink[] {
  if (base === undefined) return [];
  const url = (c: string | undefined): string =>
    `${base}/publicFhirDirectory?resourceType=${resourceType}&_count=${count}${c === undefined ? '' : `&_cursor=${c}`}`;
  const link: FhirDirectoryLink[] = [{ relation: 'self', url: url(cursor) }];
  if (next !== undefined) link.push({ relation: 'next', url: url(next) });
  return link;
}

const INVALID_CURSOR: HttpError = invalidParameters([
  { name: '_cursor', reason: 'invalid-cursor', message: 'The query parameter _cursor must be a cursor from a next link of this listing, unchanged.' },
]);

/**
 * Reads a page of directory records of the requested type: `_count` (else `limit`) records. Over a source
 * with keyset pages, ascending by id, after the `_cursor` when given, with a `next` link when more follow;
 * over one without, the first records in the source's order and no `next` (a `_cursor` is then refused).
 */
export async function loadDirectoryListing(reader: RecordReader): Promise<Loaded<DirectoryListingData>> {
  const n = reader.parameters.limits['_count'] ?? limit(reader, 'limit');
  const resourceType = reader.parameters.resourceType ?? 'Organization';
  const { dataSource } = reader;
  const lister = keysetLister(dataSource, resourceType);
  const cursor = reader.parameters.cursor;
  const after = cursor === undefined ? undefined : decodeCursor(cursor, resourceType);
  if (cursor !== undefined && (after === undefined || lister === undefined)) return { refused: INVALID_CURSOR };
  let records: readonly Keyed[];
  let next: string | undefined;
  if (lister === undefined) {
    records = resourceType === 'Organization' ? await dataSource.listOrganizations(n) : resourceType === 'Practitioner' ? await dataSource.listPractitioners(n) : await dataSource.listLocations(n);
  } else {
    const page = await readKeysetPage(lister, after, n);
    records = page.records;
    if (page.more) next = encodeCursor(resourceType, (records[records.length - 1] as Keyed).id);
  }
  const directory: Directory = {};
  if (resourceType === 'Organization') directory.organizations = [...(records as readonly DirectoryOrganization[])];
  else if (resourceType === 'Practitioner') directory.practitioners = [...(records as readonly DirectoryPractitioner[])];
  else {
    directory.locations = [...(records as readonly DirectoryLocation[])];
    // The managing organizations are not entries of a Location searchset, but with them at hand the
    // builder gives each logical reference its display name.
    const ids = [...new Set(directory.locations.flatMap((l) => (l.organizationId === undefined ? [] : [l.organizationId])))];
    const organizations = (await Promise.all(ids.map((organizationId) => dataSource.getOrganization(organizationId)))).filter(
      (o): o is DirectoryOrganization => o != null,
    );
    if (organizations.length > 0) directory.organizations = organizations;
  }
  return { data: { directory, resourceType, limit: n, link: pageLinks(reader.serviceBase(), resourceType, n, cursor, next) } };
}
