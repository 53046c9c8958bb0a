/**
 * The chart-wide id plan of the Bundle builders and the NDJSON writer: every primary record's FHIR id claimed (two
 * records of one type with one FHIR id are a MappingError), and the ids of derived resources (the Conditions of
 * diagnoses, Procedures, Coverages, payer Organizations) resolved against each other in chart order.
 */
import { MappingError } from '../errors.js';
import { keepShape } from '../internal/kept-shapes.js';
import type { PatientChart } from '../model/chart.js';
import type { Directory } from '../model/directory.js';
import type { Encounter } from '../model/encounter.js';
import type { Coverage, Payer } from '../model/patient.js';
import { isCheckedFrozen } from '../validation/memo.js';
import { derivedId, derivedIdMaterial, hashedFhirId, type IdPlan, mapChartId, positionalKey } from './ids.js';

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
 * are collected, and was optimized again at every export (src/internal/kept-shapes.ts; docs/performance-history.md,
 * "FHIR, NDJSON and chart-check speed-ups").
 */
class ChartIdPlan implements IdPlan {
  readonly patient: string;
  private readonly patientChartId: string;
  private readonly encounters: readonly Encounter[];
  private readonly coverages: readonly Coverage[];
  private readonly conditions: Map<string, string>;
  private readonly organizations: Map<string, string>;
  private diagnosisIds: Map<Encounter, string[]> | undefined = undefined;
  private procedureIds: Map<Encounter, string[]> | undefined = undefined;
  private coverageIds: Map<Coverage, string> | undefined = undefined;
  private payerIds: Map<string, string> | undefined = undefined;

  constructor(chart: PatientChart, directory: Directory | undefined) {
    this.patientChartId = chart.patient.id;
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
    this.coverageIds ??= planCoverages(this.patientChartId, this.patient, this.coverages);
    return this.coverageIds.get(c) ?? notPlanned('Coverage.id');
  }

  payer(p: Payer): string {
    this.payerIds ??= planPayers(this.coverages, this.organizations);
    return this.payerIds.get(p.id) ?? notPlanned('Organization.id');
  }
}

// One plan kept alive, so that the class's hidden class (and the code optimized for it) outlives full collections.
keepShape(new ChartIdPlan({ patient: { id: 'kept', identifiers: [], names: [] } }, undefined));
