/**
 * The adapter's speed-ups, behind one seam: everything the handler derives from a record and reuses on later
 * requests for it. Only over a data source whose records are deep-frozen checked copies fixed at creation (the
 * in-memory one), where the same record object always holds the same data and refers to the same directory
 * records; over any other data source every request reads and builds afresh, through the same calls.
 *
 * - HL7 templates (internal/hl7-template.ts): a message of the same records differs only in MSH-7, EVN-2 and
 *   MSH-10, which a request fills into the kept message.
 * - FHIR Bundle templates (internal/fhir-template.ts): a Bundle of the same records differs only in `id` and
 *   `timestamp`, which a request fills into the kept JSON text.
 * - Directory look-ups: the directory records a record refers to, read once per record.
 * - Request targets: what a route read for one query string (its checked parameters and records), so a later
 *   request for the same target skips the query reading and the data reads (up to {@link MAX_KEPT_TARGETS}
 *   targets of up to {@link MAX_KEPT_TARGET_LENGTH} characters; the access checks and the Accept check run
 *   on every request all the same).
 *
 * Each is proven against the builders before it is used and held in a `WeakMap` keyed by the record, so the
 * answers are byte for byte the builders' and nothing outlives the data source. docs/performance.md gives the
 * measured gain of each.
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
  /** The message `build(now, controlId)` gives. `records` lists everything it is built from, `key` first. */
  /** What an earlier request for `route` and `search` read, when kept. */
  keptTarget(route: string, search: string): KeptTarget | undefined;
  /** Keep what a request for `route` and `search` read, for later requests of the same target. */
  keepTarget(route: string, search: string, kept: KeptTarget): void;
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
 * Create the reuse of one handler.
 * @param frozenSource - whether the data source serves deep-frozen records fixed at creation; otherwise nothing is reused
 * @param switches - which reuses are on (default all)
 */
export function createOutputReuse(frozenSource: boolean, switches: OutputReuseSwitches = ALL_REUSE): OutputReuse {
  const on = frozenSource ? switches : NO_REUSE;
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
      return fhir === undefined ? JSON.stringify(build(now)) : fhir.render(route, key, records, now, build);
    },
    hl7Body(route, key, records, messageCode, now, controlId, build) {
      return hl7 === undefined ? build(now, controlId) : hl7.render(route, key, records, messageCode, now, controlId, build);
    },
  };
}
