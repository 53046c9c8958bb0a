/**
 * The directory records chart records refer to, read from the data source: the practitioners and locations
 * of encounters, notes and assessments, the organizations managing those locations, and their `partOf`
 * parents. The builders then give each logical reference its display name.
 */
import type {
  Assessment,
  ClinicalNote,
  Directory,
  DirectoryLocation,
  DirectoryOrganization,
  DirectoryPractitioner,
  Encounter,
} from '../index.js';
import type { ChartDataSource } from './data-source.js';

/** How deep `partOfId` chains are followed when gathering referenced organizations. */
const MAX_PART_OF_DEPTH = 16;

/** The chart records whose references {@link gatherDirectory} follows. */
export interface DirectoryReferrers {
  readonly encounters?: readonly Encounter[] | undefined;
  readonly notes?: readonly ClinicalNote[] | undefined;
  readonly assessments?: readonly Assessment[] | undefined;
}

/**
 * Gather the directory records chart records refer to, following location → organization → partOf.
 * @param dataSource - where the directory records are read
 * @param records - the encounters, notes and assessments whose references are followed
 * @returns the records found (each kind only when some were found), or `undefined` when nothing is referenced
 */
export async function gatherDirectory(dataSource: ChartDataSource, records: DirectoryReferrers): Promise<Directory | undefined> {
  const practitionerIds = new Set<string>();
  const locationIds = new Set<string>();
  for (const e of records.encounters ?? []) {
    if (e.locationId !== undefined) locationIds.add(e.locationId);
    for (const p of e.participants ?? []) practitionerIds.add(p.practitionerId);
    for (const p of e.procedures ?? []) if (p.performerId !== undefined) practitionerIds.add(p.performerId);
  }
  for (const n of records.notes ?? []) if (n.authorId !== undefined) practitionerIds.add(n.authorId);
  for (const a of records.assessments ?? []) if (a.authorId !== undefined) practitionerIds.add(a.authorId);
  if (practitionerIds.size === 0 && locationIds.size === 0) return undefined;

  // One Promise.all over both kinds: the reads run in parallel, with one wait instead of three.
  const reads: Promise<DirectoryPractitioner | DirectoryLocation | null | undefined>[] = [];
  for (const id of practitionerIds) reads.push(dataSource.getPractitioner(id));
  for (const id of locationIds) reads.push(dataSource.getLocation(id));
  const read = await Promise.all(reads);
  const foundPractitioners: DirectoryPractitioner[] = [];
  const foundLocations: DirectoryLocation[] = [];
  for (let i = 0; i < read.length; i++) {
    const record = read[i];
    // `null` counts as not found too: hosts backed by a database often answer that way.
    if (record == null) continue;
    if (i < practitionerIds.size) foundPractitioners.push(record as DirectoryPractitioner);
    else foundLocations.push(record as DirectoryLocation);
  }

  const organizations: DirectoryOrganization[] = [];
  const seen = new Set<string>();
  let wanted = foundLocations.flatMap((l) => (l.organizationId === undefined ? [] : [l.organizationId]));
  for (let depth = 0; depth < MAX_PART_OF_DEPTH && wanted.length > 0; depth++) {
    const ids = [...new Set(wanted)].filter((id) => !seen.has(id));
    ids.forEach((id) => seen.add(id));
    const found = (await Promise.all(ids.map((id) => dataSource.getOrganization(id)))).filter(
      (o): o is DirectoryOrganization => o != null,
    );
    organizations.push(...found);
    wanted = found.flatMap((o) => (o.partOfId === undefined ? [] : [o.partOfId]));
  }

  const directory: Directory = {};
  if (foundPractitioners.length > 0) directory.practitioners = foundPractitioners;
  if (foundLocations.length > 0) directory.locations = foundLocations;
  if (organizations.length > 0) directory.organizations = organizations;
  return directory;
}
