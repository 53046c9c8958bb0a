import { InvalidArgumentError } from '../errors.js';
import { type BundleMember, contentBundleId } from './internal/bundle.js';
import { mapChartId } from './internal/ids.js';

const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Map a chart id to the FHIR id every builder and mapper uses for it, deterministically.
 *
 * A chart id that is a valid FHIR id (`[A-Za-z0-9\-\.]{1,64}`) is kept as is, except `.` and `..`
 * (path steps in a URL). Any other becomes
 * `<slug>-<hash>`: `<slug>` keeps the id's FHIR-safe characters (other runs become `-`, at most 31
 * characters, omitted when empty) for readability, and `<hash>` is the first 128 bits of SHA-256 over
 * the id's UTF-8 bytes in 32 hex digits, so distinct ids do not collide. The result has at most 64
 * characters.
 *
 * @param chartId - a chart id: a non-empty string without lone surrogates
 * @returns a valid FHIR id
 * @throws {InvalidArgumentError} when `chartId` is not a non-empty string or holds a lone surrogate
 * @example toFhirId('enc-0001') // 'enc-0001'
 * @example toFhirId('MRN|00042') // 'MRN-00042-' followed by 32 hex digits
 * @see https://hl7.org/fhir/R4/datatypes.html#id
 */
export function toFhirId(chartId: string): string {
  if (typeof chartId !== 'string' || chartId.length === 0) throw new InvalidArgumentError('chartId', 'must be a non-empty string');
  if (LONE_SURROGATE_RE.test(chartId)) throw new InvalidArgumentError('chartId', 'must not contain a lone surrogate');
  return mapChartId(chartId);
}

/** The members of a Bundle that its default id is computed from. */
export interface BundleIdInput {
  /** Required at run time; optional here so that any `fhir.Bundle` type-checks. */
  readonly type?: string | undefined;
  /** Required at run time; optional here so that any `fhir.Bundle` type-checks. */
  readonly timestamp?: string | undefined;
  /** The entries, in order; each needs a resource with a string `resourceType` and `id` at run time. */
  readonly entry?:
    | readonly {
        /** The entry's resource. */
        readonly resource?:
          | {
              /** The resource type, e.g. `Patient`. */
              readonly resourceType: string;
              /** The resource id. */
              readonly id?: string | undefined;
            }
          | undefined;
      }[]
    | undefined;
}

/**
 * The `Bundle.id` every builder gives a Bundle when the `bundleId` option is not set: a UUID (version 8)
 * from a fast 128-bit hash of the Bundle's `type`, `timestamp` and each entry's resource type and id, in
 * entry order (not the resources' other content). Use it to tell whether a Bundle's id is still the one a
 * builder gives for that type, timestamp and list of entries; the hash is not cryptographic, so it is no
 * defence against deliberate tampering.
 *
 * @param bundle - a Bundle (or its `type`, `timestamp` and `entry`); every entry needs a resource with an id
 * @returns the default id, e.g. `'3f1c9a2e-41d0-8b7a-9c55-0e6f2d8a1b34'`
 * @throws {InvalidArgumentError} when `type` or `timestamp` is not a string, or an entry has no resource
 *   with a string `resourceType` and `id`
 * @example defaultBundleId(buildFhirPatientExport(chart, { now })) === buildFhirPatientExport(chart, { now }).id // true
 */
export function defaultBundleId(bundle: BundleIdInput): string {
  if (typeof bundle !== 'object' || bundle === null) throw new InvalidArgumentError('bundle', 'must be an object');
  const { type, timestamp, entry } = bundle;
  if (typeof type !== 'string') throw new InvalidArgumentError('bundle.type', 'must be a string');
  if (typeof timestamp !== 'string') throw new InvalidArgumentError('bundle.timestamp', 'must be a string');
  if (entry !== undefined && !Array.isArray(entry)) throw new InvalidArgumentError('bundle.entry', 'must be an array');
  const members: BundleMember[] = new Array<BundleMember>(entry?.length ?? 0);
  for (let i = 0; i < members.length; i++) {
    const resource = (entry as NonNullable<typeof entry>)[i]?.resource;
    if (typeof resource?.resourceType !== 'string' || typeof resource.id !== 'string') {
      throw new InvalidArgumentError(`bundle.entry[${i}].resource`, 'must have a string resourceType and id');
    }
    members[i] = resource as BundleMember;
  }
  return contentBundleId(type, timestamp, members);
}
