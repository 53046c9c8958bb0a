/**
 * The adapter's speed-ups, behind one seam: everything the handler derives from a record and reuses on later
 * requests for it. How much is reused depends on what the data source promises ({@link ReuseSource}):
 *
 * - `frozen` (the in-memory source): its records are deep-frozen checked copies fixed at creation, so the
 *   same record object always holds the same data and refers to the same directory records: everything below.
 * - `stable` (a source that declares `ChartDataSource.stableRecords`, such as the PostgreSQL one): its records
 *   are deep-frozen and the same object comes back only while the stored record is unchanged, but what a
 *   request reads may change at any time. Data is read on every request (no kept targets, no kept
 *   directories); only the templates are reused, keyed by the identity of every record an output is built
 *   from (directory records included), and only when those records are frozen. A changed row is a new
 *   object, so a template of the old one is never used for it.
 * - `none` (any other source): every request reads and builds afresh, through the same calls.
 *
 * The reuses:
 * - HL7 templates (internal/hl7-template.ts): a message of the same records differs only in MSH-7, EVN-2 and
 *   MSH-10, which a request fills into the kept message.
 * - FHIR Bundle templates (internal/fhir-template.ts): a Bundle of the same records differs only in `id` and
 *   `timestamp`, which a request fills into the kept JSON text.
 * - Directory look-ups (`frozen` only): the directory records a record refers to, read once per record.
 * - Request targets (`frozen` only): what a route read for one query string (its checked parameters and
 *   records), so a later request for the same target skips the query reading and the data reads (up to
 *   {@link MAX_KEPT_TARGETS} targets of up to {@link MAX_KEPT_TARGET_LENGTH} characters; the access checks
 *   and the Accept check run on every request all the same).
 *
 * Each is proven against the builders before it is used and held in a `WeakMap` keyed by the record, so the
 * answers are byte for byte the builders' and nothing outlives the data source's records. docs/performance.md
 * gives the measured gain of each.
 */
import type { Directory } from '../index.js';
import type { ChartDataSource } from './data-source.js';
import type { RouteParameters } from './internal/query.js';
import { gatherDirectory, type DirectoryReferrers } from './directory-lookup.js';
import { createFhirBundleCache, type BundleLike } from './internal/fhir-template.js';
import { createHl7TemplateCache } from './internal/hl7-template.js';

/** Which reuses are on; all of them by default. Tests and the benchmark switch them off one by one. */
export interface OutputReuseSwitches {
  readonly hl7Templates: boolean;
  readonly fhirTemplates: boolean;
  readonly directories: boolean;
  readonly targets: boolean;
}

/**
 * What the data source promises about its records: `frozen` (the in-memory source), `stable`
 * (`ChartDataSource.stableRecords`) or `none`.
 */
export type ReuseSource = 'frozen' | 'stable' | 'none';

/** Every reuse on: what a handler uses. */
export const ALL_REUSE: OutputReuseSwitches = Object.freeze({ hl7Templates: true, fhirTemplates: true, directories: true, targets: true });
const NO_REUSE: OutputReuseSwitches = Object.freeze({ hl7Templates: false, fhirTemplates: false, directories: false, targets: false });

/** How many request targets a handler keeps; past it, the oldest of the first route kept goes first. */
export const MAX_KEPT_TARGETS = 4096;
/** The longest query string kept (longer ones are read afresh on every request), so the kept ones stay small. */
export const MAX_KEPT_TARGET_LENGTH = 512;

/** What a route read for one request target: its checked parameters and its data (see `RouteDefinition.serve`). */
export interface KeptTarget {
  readonly parameters: RouteParameters;
  readonly data: unknown;
}

/** What the pipeline calls to read directories and produce bodies, with or without reuse. */
export interface OutputReuse {
  /**
   * The directory records `records` refer to; `record` and `other` (e.g. a note and its encounter) are what
   * the answer depends on. A kept answer comes without a promise.
   */
  directoryFor(dataSource: ChartDataSource, record: object, other: unknown, records: DirectoryReferrers): Directory | undefined | Promise<Directory | undefined>;
  /** The JSON text of the Bundle `build(now)` gives. `records` lists everything it is built from, `key` first. */
  fhirBody(route: string, key: object, records: readonly unknown[], now: string, build: (now: string) => BundleLike): string;
  /** What an earlier request for `route` and `search` read, when kept. */
  keptTarget(route: string, search: string): KeptTarget | undefined;
  /** Keep what a request for `route` and `search` read, for later requests of the same target. */
  keepTarget(route: string, search: string, kept: KeptTarget): void;
  /** The message `build(now, controlId)` gives. `records` lists everything it is built from, `key` first. */
  hl7Body(
    route: string,
    key: object,
    records: readonly unknown[],
    messageCode: string,
    now: string,
    controlId: string,
    build: (now: string, controlId: string) => string,
  ): string;
}

/**
 * Whether every object among `records` is frozen: over a `stable` source, only such records are what their
 * identity says (one that is not frozen could be changed after it was handed out, and is built afresh).
 */
function allFrozen(records: readonly unknown[]): boolean {
  for (const record of records) if (typeof record === 'object' && record !== null && !Object.isFrozen(record)) return false;
  return true;
}

/**
 * The reuses a source allows: all of them over the in-memory source; over an identity-stable one the
 * templates only, as its data must be read on every request; none over any other.
 */
function allowed(source: ReuseSource, switches: OutputReuseSwitches): OutputReuseSwitches {
  if (source === 'frozen') return switches;
  if (source === 'none') return NO_REUSE;
  return { hl7Templates: switches.hl7Templates, fhirTemplates: switches.fhirTemplates, directories: false, targets: false };
}

/**
 * Create the reuse of one handler.
 * @param source - what the data source promises about its records ({@link ReuseSource})
 * @param switches - which reuses are on (default all), as far as `source` allows them
 * @returns the reuse; with nothing allowed, every call builds or reads afresh
 */
export function createOutputReuse(source: ReuseSource, switches: OutputReuseSwitches = ALL_REUSE): OutputReuse {
  const on = allowed(source, switches);
  // Over a stable source a record may come unfrozen (e.g. one its cache does not hold): that one is built afresh.
  const fits = source === 'stable' ? allFrozen : (): boolean => true;
  const hl7 = on.hl7Templates ? createHl7TemplateCache() : undefined;
  const fhir = on.fhirTemplates ? createFhirBundleCache() : undefined;
  const directories = on.directories ? new WeakMap<object, { readonly other: unknown; readonly directory: Directory | undefined }>() : undefined;
  // Per route, by query string; a Map keeps insertion order, so the oldest kept is the first of the oldest route's.
  const targets = on.targets ? new Map<string, Map<string, KeptTarget>>() : undefined;
  let keptCount = 0;
  return {
    keptTarget(route, search) {
      return targets?.get(route)?.get(search);
    },
    keepTarget(route, search, kept) {
      if (targets === undefined || search.length > MAX_KEPT_TARGET_LENGTH) return;
      let ofRoute = targets.get(route);
      if (ofRoute === undefined) targets.set(route, (ofRoute = new Map()));
      if (ofRoute.has(search)) return;
      if (keptCount >= MAX_KEPT_TARGETS) {
        // The oldest route's oldest target goes (routes are few; each keeps its targets in arrival order).
        for (const [name, list] of targets) {
          const oldest = list.keys().next();
          if (oldest.done === true) continue;
          list.delete(oldest.value);
          if (list.size === 0 && name !== route) targets.delete(name);
          keptCount -= 1;
          break;
        }
      }
      ofRoute.set(search, kept);
      keptCount += 1;
    },
    directoryFor(dataSource, record, other, records) {
      if (directories === undefined) return gatherDirectory(dataSource, records);
      const kept = directories.get(record);
      if (kept !== undefined && kept.other === other) return kept.directory;
      return gatherDirectory(dataSource, records).then((directory) => {
        directories.set(record, { other, directory });
        return directory;
      });
    },
    fhirBody(route, key, records, now, build) {
      return fhir === undefined || !fits(records) ? JSON.stringify(build(now)) : fhir.render(route, key, records, now, build);
    },
    hl7Body(route, key, records, messageCode, now, controlId, build) {
      return hl7 === undefined || !fits(records) ? build(now, controlId) : hl7.render(route, key, records, messageCode, now, controlId, build);
    },
  };
}
