/**
 * Every FHIR id this package makes, in one module: chart ids mapped to FHIR ids, ids of derived resources
 * (the Conditions of diagnoses, Procedures, Coverages, payer Organizations), the canonical URL of an instrument
 * without one, and the default `Bundle.id`. The chart-wide id plan that keeps them apart is in ./id-plan.ts.
 *
 * Two hashes make ids, each for its own reason:
 * - SHA-256 (FIPS 180-4) of the UTF-8 text, first 128 bits: where distinct inputs must never share an id even
 *   when someone crafts them to (chart ids that are not FHIR ids, derived ids, instrument canonicals).
 * - A fast non-cryptographic 128-bit hash (`createContentHash`): only for the default `Bundle.id`, whose input
 *   grows with the Bundle (every entry's type and id) and where a crafted collision harms no record.
 *
 * FHIR R4 `id`: `[A-Za-z0-9\-\.]{1,64}` (https://hl7.org/fhir/R4/datatypes.html#id).
 */
import { InvalidArgumentError } from '../errors.js';
import { createContentHash } from '../internal/fast-hash.js';
import { sha256 } from '../internal/sha256.js';
import type { AssessmentInstrument } from '../model/assessment.js';
import type { Encounter } from '../model/encounter.js';
import type { Coverage, Payer } from '../model/patient.js';

/** The FHIR R4 `id` shape. */
export const FHIR_ID_RE = /^[A-Za-z0-9\-.]{1,64}$/;

const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HINT_MAX = 31;
const UNSAFE_RUN_RE = /[^A-Za-z0-9\-.]+/g;
const EDGE_DASH_RE = /^[-.]+|[-.]+$/g;
const ENCODER = new TextEncoder();

/** The first 128 bits of the SHA-256 digest of the UTF-8 encoding of `text`, as 32 lowercase hex digits. */
export function sha256Hex128(text: string): string {
  const bytes = sha256(ENCODER.encode(text));
  let out = '';
  for (let i = 0; i < 16; i++) out += (bytes[i] as number).toString(16).padStart(2, '0');
  return out;
}

/** Format 32 hex digits as an RFC 9562 UUID of version 8 (custom), variant 10. */
export function hexToUuidV8(hex: string): string {
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The hashed id form: a readable slug of `hint` (its FHIR-safe characters, other runs replaced by `-`, at most
 * 31 characters, omitted when nothing is left) and the 128-bit SHA-256 of `material` in 32 hex digits.
 * @param hint - text whose FHIR-safe characters make the readable prefix
 * @param material - the exact text hashed; distinct material gives distinct ids
 */
export function hashedFhirId(hint: string, material: string): string {
  const hash = sha256Hex128(material);
  let slug = hint.replace(UNSAFE_RUN_RE, '-').replace(EDGE_DASH_RE, '');
  if (slug.length > HINT_MAX) slug = slug.slice(0, HINT_MAX).replace(EDGE_DASH_RE, '');
  return slug === '' ? hash : `${slug}-${hash}`;
}

/**
 * Map a chart id to a FHIR id: kept when it is one (except `.` and `..`, which are path steps in a URL), else
 * the hashed form over the id itself. Assumes a non-empty string.
 * @param chartId - a chart id (1–128 characters, no control characters)
 */
export function mapChartId(chartId: string): string {
  if (FHIR_ID_RE.test(chartId) && chartId !== '.' && chartId !== '..') return chartId;
  return cachedHashedId(chartId);
}

/**
 * The speed-up of {@link mapChartId}: hashed chart ids remembered (a chart id is mapped once per record and
 * again per reference to it, and each mapping is a SHA-256). Bounded: cleared when full. Measured gain: see
 * docs/performance.md.
 */
const HASHED_IDS = new Map<string, string>();
const HASHED_IDS_MAX = 10_000;

function cachedHashedId(chartId: string): string {
  let mapped = HASHED_IDS.get(chartId);
  if (mapped === undefined) {
    mapped = hashedFhirId(chartId, chartId);
    if (HASHED_IDS.size >= HASHED_IDS_MAX) HASHED_IDS.clear();
    HASHED_IDS.set(chartId, mapped);
  }
  return mapped;
}

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

/** Position-derived key of the `index`-th diagnosis or procedure without an id: `dx1`, `proc2`. */
export function positionalKey(prefix: 'dx' | 'proc', index: number): string {
  return `${prefix}${index + 1}`;
}

/**
 * The hash material of a derived record. The unit separator cannot occur in chart ids (a control character);
 * `=` marks a chart id and `#` a positional key, so the two never meet.
 */
export function derivedIdMaterial(kind: string, parentChartId: string, childId: string | undefined, positional: string): string {
  return `${kind}\u001f${parentChartId}\u001f${childId === undefined ? `#${positional}` : `=${childId}`}`;
}

/** Candidate id of a derived record, `<parent id>-<child key>`, before chart-wide collision resolution. */
export function derivedId(kind: string, parentChartId: string, parentFhirId: string, childId: string | undefined, positional: string): string {
  const candidate = `${parentFhirId}-${childId ?? positional}`;
  // A child id that is not FHIR-safe (or a long one) makes the candidate invalid: then the hashed form.
  return FHIR_ID_RE.test(candidate) ? candidate : hashedFhirId(candidate, derivedIdMaterial(kind, parentChartId, childId, positional));
}

/**
 * The canonical URL of an instrument's Questionnaire: the instrument's own `url` when given, otherwise
 * a name-based `urn:uuid:` (UUID version 8 from SHA-256 of the instrument id), stable across exports.
 * @param instrument - the instrument
 */
export function instrumentCanonical(instrument: AssessmentInstrument): string {
  if (instrument.url !== undefined && instrument.url !== '') return instrument.url;
  return `urn:uuid:${hexToUuidV8(sha256Hex128(`chart-export:instrument\u001f${instrument.id}`))}`;
}

/** Ids of the resources a mapper creates. */
export interface IdPlan {
  readonly patient: string;
  encounter(encounter: Encounter): string;
  diagnosis(encounter: Encounter, index: number): string;
  procedure(encounter: Encounter, index: number): string;
  coverage(coverage: Coverage): string;
  payer(payer: Payer): string;
}

/** The plain id plan of the standalone mappers: every id computed on its own, without collision resolution. */
export function standaloneIds(patientChartId: string): IdPlan {
  const patient = mapChartId(patientChartId);
  return {
    patient,
    encounter: (e) => mapChartId(e.id),
    diagnosis: (e, i) => derivedId('diagnosis', e.id, mapChartId(e.id), e.diagnoses?.[i]?.id, positionalKey('dx', i)),
    procedure: (e, i) => derivedId('procedure', e.id, mapChartId(e.id), e.procedures?.[i]?.id, positionalKey('proc', i)),
    coverage: (c) => derivedId('coverage', patientChartId, patient, c.id, c.id),
    payer: (p) => mapChartId(p.id),
  };
}

/** What the default Bundle.id is computed from: each entry's resource type and id. */
export interface BundleMember {
  readonly resourceType: string;
  readonly id: string;
}

/**
 * The default `Bundle.id`: a UUID (version 8) from the fast 128-bit hash of the Bundle's type, timestamp and
 * each entry's resource type and id, in entry order.
 * @param type - the Bundle type
 * @param timestamp - `Bundle.timestamp`
 * @param members - the entries' resources, in entry order
 */
export function contentBundleId(type: string, timestamp: string, members: readonly BundleMember[]): string {
  const hash = createContentHash();
  hash.update(type);
  hash.update(timestamp);
  for (let i = 0; i < members.length; i++) {
    const member = members[i] as BundleMember;
    // Type and id fed apart: both are flat strings, while their concatenation would be a rope to flatten.
    hash.update(member.resourceType);
    hash.update(member.id);
  }
  return hexToUuidV8(hash.digestHex());
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
