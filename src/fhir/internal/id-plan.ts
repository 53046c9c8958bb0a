/**
 * The chart-wide id plan of the Bundle builders.
 *
 * Primary records (patient, encounters, notes, assessments, history entries, instruments, directory
 * records) get `toFhirId(chart id)`. Two records of one FHIR type mapping to the same id can only come
 * from a chart id crafted to equal another's hashed form; that is a MappingError.
 *
 * Derived records (encounter-diagnosis Conditions, Procedures, Coverages, payer Organizations) get their
 * derived id unless another resource of the same type in the chart already has it: then the hashed form
 * with a counter. A payer whose id is a directory organization's is a MappingError (the chart document check
 * refuses it too), so a payer's id never depends on the directory given. Collisions are resolved over the
 * whole chart in chart order, never over one Bundle's content, so every export of the same chart gives each
 * resource the same id.
 */
import { MappingError } from '../../errors.js';
import type { PatientChart } from '../../model/chart.js';
import type { Directory } from '../../model/directory.js';
import type { Encounter } from '../../model/encounter.js';
import type { Coverage, Payer } from '../../model/patient.js';
import type { IdPlan } from './context.js';
import { derivedId, derivedIdMaterial, positionalKey } from './context.js';
import { hashedFhirId, mapChartId } from './ids.js';

/** Claim `fhirId` for `chartId` among one type's primary ids. */
function claimPrimary(seen: Map<string, string>, chartId: string, path: readonly (string | number)[], target: string): string {
  const fhirId = mapChartId(chartId);
  const previous = seen.get(fhirId);
  if (previous !== undefined && previous !== chartId) {
    throw new MappingError(path, target, 'maps to the same FHIR id as another record of the same type');
  }
  seen.set(fhirId, chartId);
  return fhirId;
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
 * Build the id plan of a chart (and directory). Derived ids are computed on first use, type by type.
 * @throws {MappingError} when two primary records of one FHIR type map to the same id
 */
export function buildIdPlan(chart: PatientChart, directory: Directory | undefined): IdPlan {
  const patientChartId = chart.patient.id;
  const patient = mapChartId(patientChartId);
  const encounters = chart.encounters ?? [];

  // Primary ids of the types that can collide: checked once, up front.
  const seenEncounters = new Map<string, string>();
  encounters.forEach((e, i) => claimPrimary(seenEncounters, e.id, ['encounters', i, 'id'], 'Encounter.id'));
  const seenNotes = new Map<string, string>();
  chart.notes?.forEach((n, i) => claimPrimary(seenNotes, n.id, ['notes', i, 'id'], 'Composition.id'));
  const seenAssessments = new Map<string, string>();
  const seenInstruments = new Map<string, string>();
  chart.assessments?.forEach((a, i) => {
    claimPrimary(seenAssessments, a.id, ['assessments', i, 'id'], 'QuestionnaireResponse.id');
    claimPrimary(seenInstruments, a.instrument.id, ['assessments', i, 'instrument', 'id'], 'Questionnaire.id');
  });
  const seenConditions = new Map<string, string>();
  chart.medicalHistory?.forEach((h, i) => claimPrimary(seenConditions, h.id, ['medicalHistory', i, 'id'], 'Condition.id'));
  const seenOrganizations = new Map<string, string>();
  directory?.organizations?.forEach((o, i) => claimPrimary(seenOrganizations, o.id, ['directory', 'organizations', i, 'id'], 'Organization.id'));
  const seenPractitioners = new Map<string, string>();
  directory?.practitioners?.forEach((p, i) => claimPrimary(seenPractitioners, p.id, ['directory', 'practitioners', i, 'id'], 'Practitioner.id'));
  const seenLocations = new Map<string, string>();
  directory?.locations?.forEach((l, i) => claimPrimary(seenLocations, l.id, ['directory', 'locations', i, 'id'], 'Location.id'));

  let diagnosisIds: Map<Encounter, string[]> | undefined;
  let procedureIds: Map<Encounter, string[]> | undefined;
  let coverageIds: Map<Coverage, string> | undefined;
  let payerIds: Map<string, string> | undefined;

  const planDiagnoses = (): Map<Encounter, string[]> => {
    const taken = new Set(seenConditions.keys());
    const out = new Map<Encounter, string[]>();
    for (const e of encounters) {
      const encounterId = mapChartId(e.id);
      const ids: string[] = [];
      e.diagnoses?.forEach((dx, i) => {
        const positional = positionalKey('dx', i);
        const candidate = derivedId('diagnosis', e.id, encounterId, dx.id, positional);
        ids.push(claimDerived(taken, candidate, () => derivedIdMaterial('diagnosis', e.id, dx.id, positional)));
      });
      out.set(e, ids);
    }
    return out;
  };

  const planProcedures = (): Map<Encounter, string[]> => {
    const taken = new Set<string>();
    const out = new Map<Encounter, string[]>();
    for (const e of encounters) {
      const encounterId = mapChartId(e.id);
      const ids: string[] = [];
      e.procedures?.forEach((p, i) => {
        const positional = positionalKey('proc', i);
        const candidate = derivedId('procedure', e.id, encounterId, p.id, positional);
        ids.push(claimDerived(taken, candidate, () => derivedIdMaterial('procedure', e.id, p.id, positional)));
      });
      out.set(e, ids);
    }
    return out;
  };

  const planCoverages = (): Map<Coverage, string> => {
    const taken = new Set<string>();
    const out = new Map<Coverage, string>();
    for (const c of chart.patient.coverages ?? []) {
      const candidate = derivedId('coverage', patientChartId, patient, c.id, c.id);
      out.set(c, claimDerived(taken, candidate, () => derivedIdMaterial('coverage', patientChartId, c.id, c.id)));
    }
    return out;
  };

  const planPayers = (): Map<string, string> => {
    // A payer is identified by its chart id, whatever the directory holds: a payer whose FHIR id is a directory
    // organization's is refused (a MappingError), so that no export renames either one.
    const taken = new Set<string>();
    const out = new Map<string, string>();
    (chart.patient.coverages ?? []).forEach((c, i) => {
      const payerId = c.payer.id;
      if (out.has(payerId)) return;
      const candidate = mapChartId(payerId);
      if (seenOrganizations.has(candidate)) {
        throw new MappingError(['patient', 'coverages', i, 'payer', 'id'], 'Organization.id', "maps to the same FHIR id as a directory organization; give payers ids of their own");
      }
      out.set(payerId, claimDerived(taken, candidate, () => derivedIdMaterial('payer', '', payerId, '')));
    });
    return out;
  };

  const fail = (what: string): never => {
    // Only reachable when a mapper is handed a record that is not part of the planned chart.
    throw new MappingError([], what, 'the record is not part of the exported chart');
  };

  return {
    patient,
    encounter: (e) => mapChartId(e.id),
    diagnosis: (e, i) => (diagnosisIds ??= planDiagnoses()).get(e)?.[i] ?? fail('Condition.id'),
    procedure: (e, i) => (procedureIds ??= planProcedures()).get(e)?.[i] ?? fail('Procedure.id'),
    coverage: (c) => (coverageIds ??= planCoverages()).get(c) ?? fail('Coverage.id'),
    payer: (p: Payer) => (payerIds ??= planPayers()).get(p.id) ?? fail('Organization.id'),
  };
}
