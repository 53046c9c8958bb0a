/**
 * Reuse of FHIR Bundles built from the same frozen records. A Bundle depends on the records it is built from,
 * the handler's fixed options (base URL, strict total) and the export time: its `timestamp`, and its default
 * `id`, which `defaultBundleId` derives from the type, the timestamp and the entries' resource types and ids.
 * Everything else, the entries above all, is the same on every request. A template keeps the Bundle's JSON
 * text without those two members, and a request only fills them in: no builder run, no serialization of the
 * entries.
 *
 * A template is kept only when it provably gives the builder's bytes: Bundles built at two other times must
 * equal the template filled for those times, and so must the request's own Bundle. The proof runs on the
 * second request for the same records in a row, so a client alternating between two sets of limits never
 * pays for it. Templates live in a `WeakMap` keyed by the frozen record the route exports (patient,
 * encounter, note or assessment), one per route, so they go away with the data source's records and are
 * bounded by one Bundle per record and route.
 */
import { defaultBundleId, type BundleIdInput } from '../../index.js';
import { PROOF_TIMES, sameRecords } from './frozen-source.js';

/** What this module reads of a Bundle. */
export interface BundleLike {
  readonly id?: string | undefined;
  readonly type: string;
  readonly timestamp?: string | undefined;
  readonly entry?: readonly unknown[] | undefined;
}

/** A Bundle's JSON cut at its `id` and `timestamp`: `before + id + between + timestamp + after`. */
interface Template {
  readonly before: string;
  readonly between: string;
  readonly after: string;
  /** `type` and the entries' resource types and ids, with the timestamp to be set per request. */
  readonly idInput: Omit<BundleIdInput, 'timestamp'>;
  /**
   * The last export time filled in and its text. The Bundle id hashes every entry's type and id, and a busy
   * server answers many requests within one millisecond of `timestamp`: those share the same bytes.
   */
  last?: { readonly now: string; readonly text: string };
}

interface Kept {
  /** The records the Bundle was built from, compared by identity (limits included as numbers). */
  readonly records: readonly unknown[];
  /** Whether the proof ran; until a second request for the same records, only those are remembered. */
  readonly proven: boolean;
  /** `undefined`: build every time. */
  readonly template: Template | undefined;
}

/** Builds the Bundle for an export time (an ISO 8601 instant). */
export type BundleBuild = (now: string) => BundleLike;

/** Markers no JSON text of a Bundle holds (a JSON string never holds a raw control character). */
const ID_MARK = '\u0001';
const TIME_MARK = '\u0002';

function fill(template: Template, now: string): string {
  const last = template.last;
  if (last !== undefined && last.now === now) return last.text;
  const id = defaultBundleId({ ...template.idInput, timestamp: now });
  const text = `${template.before}${id}${template.between}${now}${template.after}`;
  template.last = { now, text };
  return text;
}

/**
 * Cut `bundle` at its id and timestamp, or `undefined` when they are not plain strings a JSON text writes
 * as they are (a timestamp from `Date.prototype.toISOString` and a UUID always are).
 */
function cut(bundle: BundleLike): Template | undefined {
  const { id, timestamp } = bundle;
  if (typeof id !== 'string' || typeof timestamp !== 'string') return undefined;
  const json = JSON.stringify({ ...bundle, id: ID_MARK, timestamp: TIME_MARK });
  const i = json.indexOf(JSON.stringify(ID_MARK));
  const t = json.indexOf(JSON.stringify(TIME_MARK));
  if (i === -1 || t === -1 || t < i) return undefined;
  const idMark = JSON.stringify(ID_MARK).length;
  const timeMark = JSON.stringify(TIME_MARK).length;
  const entry: { resource: { resourceType: string; id: string } }[] = [];
  for (const e of bundle.entry ?? []) {
    const resource = (e as { resource?: { resourceType?: unknown; id?: unknown } }).resource;
    if (typeof resource?.resourceType !== 'string' || typeof resource.id !== 'string') return undefined;
    entry.push({ resource: { resourceType: resource.resourceType, id: resource.id } });
  }
  return {
    before: `${json.slice(0, i)}"`,
    between: `"${json.slice(i + idMark, t)}"`,
    after: `"${json.slice(t + timeMark)}`,
    idInput: { type: bundle.type, entry },
  };
}

/** The per-handler store of Bundle templates. */
export interface FhirBundleCache {
  /**
   * The Bundle's JSON text for this export time: from the template when there is a proven one, otherwise
   * `JSON.stringify` of the builder's Bundle.
   * @param route - the route
   * @param key - the frozen record the route exports
   * @param records - every frozen record (and limit) the Bundle is built from, in a fixed order
   * @param now - the export time, an ISO 8601 instant
   * @param build - the builder, for this or another export time
   */
  render(route: string, key: object, records: readonly unknown[], now: string, build: BundleBuild): string;
}

/**
 * Create an empty store. Use it only for records that cannot change: deep-frozen checked copies.
 * @returns the store
 */
export function createFhirBundleCache(): FhirBundleCache {
  const byKey = new WeakMap<object, Map<string, Kept>>();
  return {
    render(route, key, records, now, build) {
      let perRoute = byKey.get(key);
      const kept = perRoute?.get(route);
      const same = kept !== undefined && sameRecords(kept.records, records);
      if (kept !== undefined && same && kept.proven) {
        return kept.template === undefined ? JSON.stringify(build(now)) : fill(kept.template, now);
      }
      if (perRoute === undefined) {
        perRoute = new Map();
        byKey.set(key, perRoute);
      }
      const bundle = build(now);
      const full = JSON.stringify(bundle);
      if (!same) {
        // The first request for these records (or other limits than last time): remember them, and prove only
        // when they come again, so that alternating requests never pay the two extra builds of the proof.
        perRoute.set(route, { records, proven: false, template: undefined });
        return full;
      }
      let template = cut(bundle);
      if (template !== undefined) {
        try {
          if (fill(template, now) !== full) template = undefined;
          for (const at of PROOF_TIMES) if (template !== undefined && fill(template, at) !== JSON.stringify(build(at))) template = undefined;
        } catch {
          template = undefined;
        }
      }
      perRoute.set(route, { records, proven: true, template });
      return full;
    },
  };
}
