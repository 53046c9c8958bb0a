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
import { keepShape } from '../../internal/kept-shapes.js';
import type { AssessmentInstrument } from '../../model/assessment.js';

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
  return new PatientBundleContext(chart, ids, directory, includedEncounters, memo);
}

/**
 * The context of {@link createBundleContext}: a class, not an object of closures, so that its methods are the same
 * functions for every chart (optimized code that inlines a closure made per chart is thrown away once the chart's
 * closures are collected; see ChartIdPlan in ../id-plan.ts).
 */
class PatientBundleContext implements BundleContext {
  /** Only a reference to an encounter that is not an entry needs it (for its display): made on first use. */
  private encountersById: Map<string, Encounter> | undefined = undefined;
  private readonly patientReference: string;
  /** Directory records to include, in order of first reference; a queue so that what they reference follows. */
  private readonly queue: DirectoryNeed[] = [];
  /** Per kind: chart id → its `Type/id` reference text, once the record is queued. */
  private readonly queued: Record<DirectoryKind, Map<string, string>> = { Practitioner: new Map(), Location: new Map(), Organization: new Map() };
  /** While a directory record is mapped for a memo: the references its mapping makes. */
  private needs: DirectoryNeed[] | undefined = undefined;
  private drained = 0;

  constructor(
    private readonly chart: PatientChart,
    readonly ids: IdPlan,
    private readonly directory: DirectoryIndex,
    private readonly includedEncounters: ReadonlySet<string>,
    private readonly memo: DirectoryMemo | undefined,
  ) {
    this.patientReference = `Patient/${ids.patient}`;
  }

  patientRef(): fhir.Reference {
    return { reference: this.patientReference };
  }

  localRef(resourceType: string, fhirId: string): fhir.Reference {
    return literalRef(resourceType, fhirId);
  }

  encounterRef(chartId: string): fhir.Reference {
    if (this.includedEncounters.has(chartId)) return { reference: `Encounter/${mapChartId(chartId)}` };
    const encounter = (this.encountersById ??= byId(this.chart.encounters)).get(chartId);
    return logicalRef('Encounter', chartId, encounter !== undefined ? encounterDisplay(encounter) : undefined);
  }

  practitionerRef(chartId: string): fhir.Reference {
    return this.directory.practitioners.has(chartId) ? this.need('Practitioner', chartId) : logicalRef('Practitioner', chartId, undefined);
  }

  locationRef(chartId: string): fhir.Reference {
    return this.directory.locations.has(chartId) ? this.need('Location', chartId) : logicalRef('Location', chartId, undefined);
  }

  organizationRef(chartId: string): fhir.Reference {
    return this.directory.organizations.has(chartId) ? this.need('Organization', chartId) : logicalRef('Organization', chartId, undefined);
  }

  questionnaireUrl(instrument: AssessmentInstrument): string | undefined {
    return responseQuestionnaireUrl(instrument);
  }

  drainDirectory(): fhir.Resource[] {
    const { directory, memo, queue } = this;
    const out: fhir.Resource[] = [];
    // The queue grows while it is drained: a Location adds its Organization, an Organization its parent.
    for (; this.drained < queue.length; this.drained++) {
      const { kind, id } = queue[this.drained] as DirectoryNeed;
      const record = (kind === 'Practitioner' ? directory.practitioners : kind === 'Location' ? directory.locations : directory.organizations).get(id) as object;
      const replay = memo?.replay(record);
      if (replay !== undefined) {
        for (const n of replay) this.need(n.kind, n.id);
        continue;
      }
      if (memo !== undefined) this.needs = [];
      let resource: fhir.Resource;
      if (kind === 'Practitioner') resource = mapPractitioner(record as DirectoryPractitioner);
      else if (kind === 'Location') resource = mapLocation(record as DirectoryLocation, this);
      else resource = mapOrganization(record as DirectoryOrganization, this);
      if (memo !== undefined) memo.mapped(record, resource, this.needs as DirectoryNeed[]);
      this.needs = undefined;
      out.push(resource);
    }
    return out;
  }

  /** A literal reference to a directory record, queued for inclusion on its first reference. */
  private need(kind: DirectoryKind, chartId: string): fhir.Reference {
    this.needs?.push({ kind, id: chartId });
    const seen = this.queued[kind];
    let reference = seen.get(chartId);
    if (reference === undefined) {
      reference = `${kind}/${mapChartId(chartId)}`;
      seen.set(chartId, reference);
      this.queue.push({ kind, id: chartId });
    }
    return { reference };
  }
}

// One context kept alive, so that the class's hidden class (and the code optimized for it) outlives full collections.
keepShape(new PatientBundleContext({ patient: { id: 'kept', identifiers: [], names: [] } }, { patient: 'kept' } as IdPlan, indexDirectory(undefined), new Set(), undefined));

/** The parsed keys of the records {@link newestFirst} is sorting (a module variable, so the comparator is no closure). */
const NO_KEYS: number[] = [];
let sorted = NO_KEYS;
let sortedWidth = 0;

/** Newest first by the keys in turn (a missing key last), then in chart order: a total order over record positions. */
function newerFirst(a: number, b: number): number {
  for (let k = 0; k < sortedWidth; k++) {
    const x = sorted[a * sortedWidth + k] as number;
    const y = sorted[b * sortedWidth + k] as number;
    if (x !== y) return x < y ? 1 : -1;
  }
  return a - b;
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
  sorted = parsed;
  sortedWidth = width;
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
  sorted = NO_KEYS;
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

// A Bundle of each shape the builders make (a collection with total, a strict collection without, a searchset with
// links), kept alive: the Bundle gets `total`, `link` and `entry` after its literal, and V8 holds the hidden classes
// those additions lead to only while some object has them (src/internal/kept-shapes.ts).
{
  const options: ResolvedOptions = { timestamp: '2026-01-01T00:00:00Z', bundleId: 'kept', baseUrl: undefined, strictBundleTotal: false, directory: undefined };
  const kept: fhir.FhirResource[] = [{ resourceType: 'Patient', id: 'kept' }];
  keepShape(assembleBundle('collection', kept, options));
  keepShape(assembleBundle('collection', kept, { ...options, strictBundleTotal: true }));
  keepShape(assembleBundle('searchset', kept, options, [{ relation: 'self', url: 'https://kept.invalid/' }]));
}
