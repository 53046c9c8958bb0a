/**
 * Every FHIR id this package makes, in one module: chart ids mapped to FHIR ids, ids of derived resources
 * (the Conditions of diagnoses, Procedures, Coverages, payer Organizations), the chart-wide id plan that keeps
 * them apart, the canonical URL of an instrument without one, and the default `Bundle.id`.
 *
 * Two hashes make ids, each for its own reason:
 * - SHA-256 (FIPS 180-4) of the UTF-8 text, first 128 bits: where distinct inputs must never share an id even
 *   when someone crafts them to (chart ids that are not FHIR ids, derived ids, instrument canonicals).
 * - A fast non-cryptographic 128-bit hash (`createContentHash`): only for the default `Bundle.id`, whose input
 *   grows with the Bundle (every entry's type and id) and where a crafted collision harms no record.
 *
 * FHIR R4 `id`: `[A-Za-z0-9\-\.]{1,64}` (https://hl7.org/fhir/R4/datatypes.html#id).
 */
import { InvalidArgumentError, MappingError } from '../errors.js';
import { createContentHash } from '../internal/fast-hash.js';
import { sha256 } from '../internal/sha256.js';
import type { AssessmentInstrument } from '../model/assessment.js';
import type { PatientChart } from '../model/chart.js';
import type { Directory } from '../model/directory.js';
import type { Encounter } from '../model/encounter.js';
import type { Coverage, Payer } from '../model/patient.js';
import { isCheckedFrozen } from '../validation/memo.js';
import { keepShape } from '../internal/kept-shapes.js';

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

/**
 * Claim `chartId`'s FHIR id among one type's primary ids (`seen`: FHIR id → chart id).
 * @throws {MappingError} at `path()` when another chart id of the type has that FHIR id
 */
function claimPrimary(seen: Map<string, string>, chartId: string, path: () => (string | number)[], target: string): void {
  const fhirId = mapChartId(chartId);
  const previous = seen.get(fhirId);
  if (previous !== undefined && previous !== chartId) {
    throw new MappingError(path(), target, 'maps to the same FHIR id as another record of the same type');
  }
  seen.set(fhirId, chartId);
}

/** Take `candidate` if free, else the first free hashed form; records the id as taken. */
function claimDerived(taken: Set<string>, candidate: string, material: () => string): string {
  if (!taken.has(candidate)) {
    taken.add(candidate);
    return candidate;
  }
  const base = material();
  for (let n = 1; ; n++) {
    const id = hashedFhirId(candidate, `${base}\u001f${n}`);
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/**
 * Claim the primary ids of every FHIR type that can collide, up front: two records of one type mapping to one
 * id can only come from a chart id crafted to equal another's hashed form, which is a MappingError.
 * @returns the taken Condition ids (medical-history entries) and Organization ids (directory organizations)
 */
function claimPrimaryIds(chart: PatientChart, directory: Directory | undefined): { conditions: Map<string, string>; organizations: Map<string, string> } {
  if (!keptAsTheyAre(chart.encounters)) claimList(new Map(), chart.encounters, ['encounters'], 'Encounter.id');
  if (!keptAsTheyAre(chart.notes)) claimList(new Map(), chart.notes, ['notes'], 'Composition.id');
  const instruments = new Map<string, string>();
  const responses = new Map<string, string>();
  const assessments = chart.assessments ?? [];
  for (let i = 0; i < assessments.length; i++) {
    const a = assessments[i] as (typeof assessments)[number];
    claimPrimary(responses, a.id, () => ['assessments', i, 'id'], 'QuestionnaireResponse.id');
    claimPrimary(instruments, a.instrument.id, () => ['assessments', i, 'instrument', 'id'], 'Questionnaire.id');
  }
  const conditions = claimList(new Map(), chart.medicalHistory, ['medicalHistory'], 'Condition.id');
  return { conditions, organizations: claimDirectoryIds(directory) };
}

/** Claim the primary id of every record of `list` (at `path` in the chart or directory) into `seen`. */
function claimList(seen: Map<string, string>, list: readonly { readonly id: string }[] | undefined, path: readonly string[], target: string): Map<string, string> {
  if (list !== undefined) for (let i = 0; i < list.length; i++) claimPrimary(seen, (list[i] as { readonly id: string }).id, () => [...path, i, 'id'], target);
  return seen;
}

/**
 * Whether every record of `list` keeps its chart id as its FHIR id: then two records share a FHIR id only if they
 * share a chart id, which is no collision, and no map needs to be built (a chart of a population has a few
 * encounters and notes each).
 */
function keptAsTheyAre(list: readonly { readonly id: string }[] | undefined): boolean {
  if (list !== undefined) for (const r of list) if (mapChartId(r.id) !== r.id) return false;
  return true;
}

/**
 * The directory's claims, remembered per checked frozen directory (they depend on the directory alone, and an
 * export of many charts over one directory would otherwise claim every directory record once per chart).
 */
const DIRECTORY_CLAIMS = new WeakMap<Directory, Map<string, string>>();

/**
 * Claim the primary ids of a directory's records (each kind apart); a collision is a MappingError.
 * @returns the taken Organization ids
 */
function claimDirectoryIds(directory: Directory | undefined): Map<string, string> {
  if (directory === undefined) return new Map();
  const known = DIRECTORY_CLAIMS.get(directory);
  if (known !== undefined) return known;
  const organizations = claimList(new Map(), directory.organizations, ['directory', 'organizations'], 'Organization.id');
  claimList(new Map(), directory.practitioners, ['directory', 'practitioners'], 'Practitioner.id');
  claimList(new Map(), directory.locations, ['directory', 'locations'], 'Location.id');
  // Only a frozen directory cannot change afterwards; the map is only read (planPayers), never written.
  if (isCheckedFrozen(directory)) DIRECTORY_CLAIMS.set(directory, organizations);
  return organizations;
}

/** Plan the ids of every encounter's diagnoses (`kind` diagnosis) or procedures, resolving collisions in chart order. */
function planEncounterChildren(encounters: readonly Encounter[], kind: 'diagnosis' | 'procedure', taken: Set<string>): Map<Encounter, string[]> {
  const out = new Map<Encounter, string[]>();
  for (const e of encounters) {
    const encounterId = mapChartId(e.id);
    const children: readonly { readonly id?: string | undefined }[] = (kind === 'diagnosis' ? e.diagnoses : e.procedures) ?? [];
    const ids: string[] = new Array<string>(children.length);
    for (let i = 0; i < children.length; i++) {
      const childId = (children[i] as { readonly id?: string | undefined }).id;
      const positional = positionalKey(kind === 'diagnosis' ? 'dx' : 'proc', i);
      const candidate = derivedId(kind, e.id, encounterId, childId, positional);
      ids[i] = claimDerived(taken, candidate, () => derivedIdMaterial(kind, e.id, childId, positional));
    }
    out.set(e, ids);
  }
  return out;
}

/** Plan the Coverage ids of a patient's coverages, resolving collisions in chart order. */
function planCoverages(patientChartId: string, patient: string, coverages: readonly Coverage[]): Map<Coverage, string> {
  const taken = new Set<string>();
  const out = new Map<Coverage, string>();
  for (const c of coverages) {
    const candidate = derivedId('coverage', patientChartId, patient, c.id, c.id);
    out.set(c, claimDerived(taken, candidate, () => derivedIdMaterial('coverage', patientChartId, c.id, c.id)));
  }
  return out;
}

/** Only reachable when a mapper is handed a record that is not part of the planned chart. */
function notPlanned(what: string): never {
  throw new MappingError([], what, 'the record is not part of the exported chart');
}

/**
 * Plan the payers' Organization ids. A payer is identified by its chart id, whatever the directory holds: a
 * payer whose FHIR id is a directory organization's is refused (the chart document check refuses it too), so
 * that no export renames either one.
 */
function planPayers(coverages: readonly Coverage[], organizations: Map<string, string>): Map<string, string> {
  const taken = new Set<string>();
  const out = new Map<string, string>();
  coverages.forEach((c, i) => {
    const payerId = c.payer.id;
    if (out.has(payerId)) return;
    const candidate = mapChartId(payerId);
    if (organizations.has(candidate)) {
      throw new MappingError(['patient', 'coverages', i, 'payer', 'id'], 'Organization.id', "maps to the same FHIR id as a directory organization; give payers ids of their own");
    }
    out.set(payerId, claimDerived(taken, candidate, () => derivedIdMaterial('payer', '', payerId, '')));
  });
  return out;
}

/**
 * The chart-wide id plan of the Bundle builders. Primary records (patient, encounters, notes, assessments,
 * history entries, instruments, directory records) get their mapped chart id. Derived records (diagnosis
 * Conditions, Procedures, Coverages, payer Organizations) get their derived id unless another resource of the
 * same type in the chart already has it: then the hashed form with a counter. Collisions are resolved over the
 * whole chart in chart order, never over one Bundle's content, so every export of the same chart gives each
 * resource the same id. Derived ids are planned on first use, kind by kind.
 * @throws {MappingError} when two primary records of one FHIR type map to the same id
 */
export function buildIdPlan(chart: PatientChart, directory: Directory | undefined): IdPlan {
  return new ChartIdPlan(chart, directory);
}

/**
 * The plan of {@link buildIdPlan}: a class, not an object of closures, so that its methods are the same functions
 * for every chart. Optimized code that inlines a closure made per chart is thrown away when that chart's closures
 * are collected, and was optimized again at every export (docs/performance.md, "Bulk NDJSON").
 */
class ChartIdPlan implements IdPlan {
  readonly patient: string;
  private readonly encounters: readonly Encounter[];
  private readonly coverages: readonly Coverage[];
  private readonly conditions: Map<string, string>;
  private readonly organizations: Map<string, string>;
  private diagnosisIds: Map<Encounter, string[]> | undefined = undefined;
  private procedureIds: Map<Encounter, string[]> | undefined = undefined;
  private coverageIds: Map<Coverage, string> | undefined = undefined;
  private payerIds: Map<string, string> | undefined = undefined;

  constructor(
    private readonly chart: PatientChart,
    directory: Directory | undefined,
  ) {
    this.patient = mapChartId(chart.patient.id);
    this.encounters = chart.encounters ?? [];
    this.coverages = chart.patient.coverages ?? [];
    const { conditions, organizations } = claimPrimaryIds(chart, directory);
    this.conditions = conditions;
    this.organizations = organizations;
  }

  encounter(e: Encounter): string {
    return mapChartId(e.id);
  }

  diagnosis(e: Encounter, i: number): string {
    this.diagnosisIds ??= planEncounterChildren(this.encounters, 'diagnosis', new Set(this.conditions.keys()));
    return this.diagnosisIds.get(e)?.[i] ?? notPlanned('Condition.id');
  }

  procedure(e: Encounter, i: number): string {
    this.procedureIds ??= planEncounterChildren(this.encounters, 'procedure', new Set());
    return this.procedureIds.get(e)?.[i] ?? notPlanned('Procedure.id');
  }

  coverage(c: Coverage): string {
    this.coverageIds ??= planCoverages(this.chart.patient.id, this.patient, this.coverages);
    return this.coverageIds.get(c) ?? notPlanned('Coverage.id');
  }

  payer(p: Payer): string {
    this.payerIds ??= planPayers(this.coverages, this.organizations);
    return this.payerIds.get(p.id) ?? notPlanned('Organization.id');
  }
}

// One plan kept alive, so that the class's hidden class (and the code optimized for it) outlives full collections.
keepShape(new ChartIdPlan({ patient: { id: 'kept', identifiers: [], names: [] } }, undefined));
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
