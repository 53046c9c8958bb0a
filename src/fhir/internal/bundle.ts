/**
 * Bundle assembly shared by the builders: the Bundle context (literal references only to entries,
 * logical ones otherwise; referenced directory records collected as entries), newest-first selection,
 * and the Bundle itself (fullUrl, total, id, timestamp).
 */
import type * as fhir from 'fhir/r4.js';
import type { PatientChart } from '../../model/chart.js';
import type { Directory, DirectoryLocation, DirectoryOrganization, DirectoryPractitioner } from '../../model/directory.js';
import type { Encounter } from '../../model/encounter.js';
import { mapLocation } from '../location.js';
import { mapOrganization } from '../organization.js';
import { mapPractitioner } from '../practitioner.js';
import { ENCOUNTER_CLASS_DISPLAY } from './codings.js';
import type { MapContext } from './context.js';
import type { DirectoryKind, DirectoryMemo, DirectoryNeed } from './directory-memo.js';
import { literalRef, responseQuestionnaireUrl } from './context.js';
import { type BundleMember, contentBundleId, type IdPlan, mapChartId } from '../ids.js';
import type { ResolvedOptions } from './resolve-options.js';
import { sortKey } from './sort-key.js';
import { hasText } from '../../internal/text.js';
import { isCheckedFrozen } from '../../validation/memo.js';

/** A logical reference: the record's chart id as identifier value, and a display when one is known. */
export function logicalRef(resourceType: string, chartId: string, display: string | undefined): fhir.Reference {
  const ref: fhir.Reference = { type: resourceType, identifier: { value: chartId } };
  if (display !== undefined) ref.display = display;
  return ref;
}

/** The display of a logical reference to an encounter: its type (or class) and start. */
export function encounterDisplay(encounter: Encounter): string {
  const typeDisplay = encounter.type?.display;
  const label = typeDisplay !== undefined && hasText(typeDisplay) ? typeDisplay : `Encounter (${ENCOUNTER_CLASS_DISPLAY[encounter.class]})`;
  const start = encounter.period?.start;
  return start !== undefined ? `${label}, ${start}` : label;
}

/** Index of directory records by chart id. */
export interface DirectoryIndex {
  readonly practitioners: ReadonlyMap<string, DirectoryPractitioner>;
  readonly locations: ReadonlyMap<string, DirectoryLocation>;
  readonly organizations: ReadonlyMap<string, DirectoryOrganization>;
}

function byId<T extends { id: string }>(list: readonly T[] | undefined): Map<string, T> {
  const out = new Map<string, T>();
  if (list !== undefined) for (const item of list) out.set(item.id, item);
  return out;
}

/** Indexes of checked frozen directories (which cannot change): made once, not once per export or per chart. */
const INDEXES = new WeakMap<Directory, DirectoryIndex>();

/** Index a directory (empty when absent); a checked frozen directory's index is remembered. */
export function indexDirectory(directory: Directory | undefined): DirectoryIndex {
  if (directory !== undefined) {
    const known = INDEXES.get(directory);
    if (known !== undefined) return known;
  }
  const index: DirectoryIndex = {
    practitioners: byId(directory?.practitioners),
    locations: byId(directory?.locations),
    organizations: byId(directory?.organizations),
  };
  if (directory !== undefined && isCheckedFrozen(directory)) INDEXES.set(directory, index);
  return index;
}

/** A Bundle context plus the directory resources its references asked for. */
export interface BundleContext extends MapContext {
  /** Map every directory record referenced so far (and what those reference), in order of first reference. */
  drainDirectory(): fhir.Resource[];
}

/**
 * The mapping context of a patient-scoped Bundle.
 * @param chart - the (validated) chart
 * @param ids - its id plan
 * @param directory - the directory index
 * @param includedEncounters - chart ids of the encounters that are entries of the Bundle
 * @param memo - the NDJSON writer's memory of a frozen directory: records it handled are not mapped again (only
 *   the references their mapping made are queued again, so what follows them comes out as before)
 */
export function createBundleContext(
  chart: PatientChart,
  ids: IdPlan,
  directory: DirectoryIndex,
  includedEncounters: ReadonlySet<string>,
  memo?: DirectoryMemo,
): BundleContext {
  // Only a reference to an encounter that is not an entry needs it (for its display): made on first use.
  let encountersById: Map<string, Encounter> | undefined;
  const patientReference = `Patient/${ids.patient}`;
  // Directory records to include, in order of first reference; a queue so that what they reference follows.
  const queue: { kind: DirectoryKind; id: string }[] = [];
  // Per kind: chart id → its `Type/id` reference text, once the record is queued.
  const queued: Record<DirectoryKind, Map<string, string>> = { Practitioner: new Map(), Location: new Map(), Organization: new Map() };
  // While a directory record is mapped for a memo: the references its mapping makes.
  let needs: DirectoryNeed[] | undefined;
  const need = (kind: DirectoryKind, chartId: string): fhir.Reference => {
    needs?.push({ kind, id: chartId });
    const seen = queued[kind];
    let reference = seen.get(chartId);
    if (reference === undefined) {
      reference = `${kind}/${mapChartId(chartId)}`;
      seen.set(chartId, reference);
      queue.push({ kind, id: chartId });
    }
    return { reference };
  };
  let drained = 0;
  const ctx: BundleContext = {
    ids,
    patientRef: () => ({ reference: patientReference }),
    localRef: literalRef,
    encounterRef: (chartId) => {
      if (includedEncounters.has(chartId)) return { reference: `Encounter/${mapChartId(chartId)}` };
      const encounter = (encountersById ??= byId(chart.encounters)).get(chartId);
      return logicalRef('Encounter', chartId, encounter !== undefined ? encounterDisplay(encounter) : undefined);
    },
    practitionerRef: (chartId) =>
      directory.practitioners.has(chartId) ? need('Practitioner', chartId) : logicalRef('Practitioner', chartId, undefined),
    locationRef: (chartId) => (directory.locations.has(chartId) ? need('Location', chartId) : logicalRef('Location', chartId, undefined)),
    organizationRef: (chartId) =>
      directory.organizations.has(chartId) ? need('Organization', chartId) : logicalRef('Organization', chartId, undefined),
    questionnaireUrl: responseQuestionnaireUrl,
    drainDirectory: () => {
      const out: fhir.Resource[] = [];
      // The queue grows while it is drained: a Location adds its Organization, an Organization its parent.
      for (; drained < queue.length; drained++) {
        const { kind, id } = queue[drained] as { kind: DirectoryKind; id: string };
        const record = (kind === 'Practitioner' ? directory.practitioners : kind === 'Location' ? directory.locations : directory.organizations).get(id) as object;
        const replay = memo?.replay(record);
        if (replay !== undefined) {
          for (const n of replay) need(n.kind, n.id);
          continue;
        }
        if (memo !== undefined) needs = [];
        let resource: fhir.Resource;
        if (kind === 'Practitioner') resource = mapPractitioner(record as DirectoryPractitioner);
        else if (kind === 'Location') resource = mapLocation(record as DirectoryLocation, ctx);
        else resource = mapOrganization(record as DirectoryOrganization, ctx);
        if (memo !== undefined) memo.mapped(record, resource, needs as DirectoryNeed[]);
        needs = undefined;
        out.push(resource);
      }
      return out;
    },
  };
  return ctx;
}

/** Up to this many records are sorted by insertion. */
const INSERTION_SORT_MAX = 12;

/**
 * The newest `limit` records, newest first by `key` (records without a key last; ties keep chart order).
 * @param records - the records
 * @param limit - how many to keep (Infinity for all)
 * @param keys - sort keys, most significant first (as many for every record)
 */
export function newestFirst<T>(records: readonly T[] | undefined, limit: number, keys: (record: T) => readonly (string | undefined)[]): T[] {
  if (records === undefined || records.length === 0 || limit <= 0) return [];
  // One record: nothing to sort, no key to read.
  if (records.length === 1) return [records[0] as T];
  // Every key parsed once, in one flat array (record i's k-th key at i * width + k), and the records' positions
  // sorted: parsing a date per comparison would repeat the work n log n times, and an object per record was a
  // third of the cost of sorting a population chart's few encounters.
  const n = records.length;
  const width = keys(records[0] as T).length;
  const parsed: number[] = new Array<number>(n * width);
  for (let i = 0; i < n; i++) {
    const own = keys(records[i] as T);
    for (let k = 0; k < width; k++) parsed[i * width + k] = sortKey(own[k]);
  }
  // Newest first by the keys in turn (a missing key last), then in chart order: a total order.
  const newerFirst = (a: number, b: number): number => {
    for (let k = 0; k < width; k++) {
      const x = parsed[a * width + k] as number;
      const y = parsed[b * width + k] as number;
      if (x !== y) return x < y ? 1 : -1;
    }
    return a - b;
  };
  const order: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n <= INSERTION_SORT_MAX) {
    // A few records (a chart of a population): insertion sort, without the work array `Array.prototype.sort` allocates.
    for (let i = 1; i < n; i++) {
      const item = order[i] as number;
      let j = i - 1;
      for (; j >= 0 && newerFirst(order[j] as number, item) > 0; j--) order[j + 1] = order[j] as number;
      order[j + 1] = item;
    }
  } else {
    order.sort(newerFirst);
  }
  const out: T[] = new Array<T>(Math.min(limit, n));
  for (let i = 0; i < out.length; i++) out[i] = records[order[i] as number] as T;
  return out;
}

/**
 * A Bundle without its entries: `resourceType`, `id`, `type`, `timestamp` and `total`, in this key order.
 * @param type - `collection` or `searchset`
 * @param members - the entries' resource types and ids, in entry order (the default id hashes them)
 * @param options - resolved options
 */
export function bundleHead(type: 'collection' | 'searchset', members: readonly BundleMember[], options: ResolvedOptions): fhir.Bundle {
  const bundle: fhir.Bundle = {
    resourceType: 'Bundle',
    id: options.bundleId ?? contentBundleId(type, options.timestamp, members),
    type,
    timestamp: options.timestamp,
  };
  // bdl-1 allows total only on searchset and history Bundles; by default it is on every Bundle (see strictBundleTotal).
  if (type === 'searchset' || !options.strictBundleTotal) bundle.total = members.length;
  return bundle;
}

/** What every entry's `fullUrl` starts with: `baseUrl/`, or nothing for relative `Type/id`. */
export function fullUrlPrefix(options: ResolvedOptions): string {
  return options.baseUrl !== undefined ? `${options.baseUrl}/` : '';
}

/** A Bundle entry of a resource: its `fullUrl` and, in a searchset, `search.mode` `match`. */
export function bundleEntry(type: 'collection' | 'searchset', resource: fhir.FhirResource, prefix: string): fhir.BundleEntry {
  const fullUrl = `${prefix}${resource.resourceType}/${resource.id as string}`;
  return type === 'searchset' ? { fullUrl, resource, search: { mode: 'match' } } : { fullUrl, resource };
}

/**
 * Assemble a Bundle from resources (in entry order).
 * @param type - `collection` or `searchset`
 * @param resources - the entries' resources, each with an id
 * @param options - resolved options
 * @param link - `Bundle.link` (between `total` and `entry`), when given and not empty
 */
export function assembleBundle(
  type: 'collection' | 'searchset',
  resources: readonly fhir.FhirResource[],
  options: ResolvedOptions,
  link?: readonly fhir.BundleLink[],
): fhir.Bundle {
  const prefix = fullUrlPrefix(options);
  const entries: fhir.BundleEntry[] = new Array<fhir.BundleEntry>(resources.length);
  for (let i = 0; i < resources.length; i++) entries[i] = bundleEntry(type, resources[i] as fhir.FhirResource, prefix);
  const bundle = bundleHead(type, resources as readonly BundleMember[], options);
  if (link !== undefined && link.length > 0) bundle.link = link.map((l) => ({ relation: l.relation, url: l.url }));
  if (entries.length > 0) bundle.entry = entries;
  return bundle;
}
