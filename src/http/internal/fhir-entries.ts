/**
 * Reuse of the serialized entries of FHIR Bundles built from the same frozen records. A Bundle's `entry`
 * array depends only on the records and the handler's fixed options (base URL); its `id` and `timestamp`
 * depend on the export time. The builder still runs on every request (it gives the Bundle id), but the JSON
 * text of the entries, most of the serialization cost, is kept per record and spliced after the Bundle's own
 * fields.
 *
 * Entries are kept only when that provably gives the builder's bytes: the entries of Bundles built at two
 * other times serialize to the same text, and the spliced body equals `JSON.stringify` of the request's own
 * Bundle. The proof runs on the second request for the same records in a row, so a client alternating
 * between two sets of limits never pays for it. Kept texts live in a `WeakMap` keyed by the frozen record the route exports (patient, encounter,
 * note or assessment), one per route, so they go away with the data source's records and are bounded by one
 * Bundle's entries per record and route.
 */
import { PROOF_TIMES, sameRecords } from './frozen-source.js';

/** What this module reads of a Bundle: its members, the last being `entry`. */
export interface BundleLike {
  readonly entry?: readonly unknown[] | undefined;
}

interface Entry {
  /** The records the Bundle was built from, compared by identity (limits included as numbers). */
  readonly records: readonly unknown[];
  /** Whether the proof ran; until a second request for the same records, only those are remembered. */
  readonly proven: boolean;
  /** `JSON.stringify(bundle.entry)`, or `undefined` when these Bundles cannot be spliced. */
  readonly json: string | undefined;
  /** The Bundle's members before `entry`, in the builder's order (the same for the same records). */
  readonly head: readonly string[];
  readonly count: number;
}


/** The members of `bundle` before `entry`, or `undefined` unless `entry` is its last member. */
function headOf(bundle: BundleLike): string[] | undefined {
  const names = Object.keys(bundle);
  return names[names.length - 1] === 'entry' ? names.slice(0, -1) : undefined;
}

/**
 * The Bundle's JSON with the members `head` (primitives: resourceType, id, type, timestamp, total) and then
 * `entry` given as text. `JSON.stringify` with a list of names keeps those members in the list's order.
 */
function splice(bundle: BundleLike, head: readonly string[], entryJson: string): string {
  return `${JSON.stringify(bundle, head as string[]).slice(0, -1)},"entry":${entryJson}}`;
}

/** The per-handler store of serialized entries. */
export interface FhirEntryCache {
  /**
   * `JSON.stringify(bundle)`, with the entries' text reused when it fits.
   * @param route - the route
   * @param key - the frozen record the route exports
   * @param records - every frozen record (and limit) the Bundle is built from, in a fixed order
   * @param bundle - the Bundle the builder gave for this request
   * @param rebuild - the builder for another export time (used once per record, for the proof)
   */
  serialize(route: string, key: object, records: readonly unknown[], bundle: BundleLike, rebuild: (now: string) => BundleLike): string;
}

/**
 * Create an empty store. Use it only for records that cannot change: deep-frozen checked copies.
 * @returns the store
 */
export function createFhirEntryCache(): FhirEntryCache {
  const byKey = new WeakMap<object, Map<string, Entry>>();
  return {
    serialize(route, key, records, bundle, rebuild) {
      let perRoute = byKey.get(key);
      const kept = perRoute?.get(route);
      const same = kept !== undefined && sameRecords(kept.records, records);
      if (kept !== undefined && same && kept.proven) {
        // The same members as when the entries were proven (a member outside `head` would be dropped by splice).
        if (kept.json !== undefined && bundle.entry?.length === kept.count && Object.keys(bundle).length === kept.head.length + 1) {
          return splice(bundle, kept.head, kept.json);
        }
        return JSON.stringify(bundle);
      }
      if (perRoute === undefined) {
        perRoute = new Map();
        byKey.set(key, perRoute);
      }
      const full = JSON.stringify(bundle);
      if (!same) {
        // The first request for these records (or other limits than last time): remember them, and prove only
        // when they come again, so that alternating requests never pay the two extra builds of the proof.
        perRoute.set(route, { records, proven: false, json: undefined, head: [], count: 0 });
        return full;
      }
      let json: string | undefined;
      const head = headOf(bundle);
      if (head !== undefined && bundle.entry !== undefined && bundle.entry.length > 0) {
        json = JSON.stringify(bundle.entry);
        try {
          for (const at of PROOF_TIMES) if (JSON.stringify(rebuild(at).entry) !== json) json = undefined;
        } catch {
          json = undefined;
        }
        if (json !== undefined && splice(bundle, head, json) !== full) json = undefined;
      }
      perRoute.set(route, { records, proven: true, json, head: head ?? [], count: bundle.entry?.length ?? 0 });
      return full;
    },
  };
}
