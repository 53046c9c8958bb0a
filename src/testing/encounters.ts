/**
 * Encounters with their diagnoses and procedures.
 */
import fc from 'fast-check';
import {
  DIAGNOSIS_USES,
  ENCOUNTER_CLASSES,
  ENCOUNTER_STATUSES,
  PARTICIPANT_ROLES,
  PROCEDURE_STATUSES,
  type Diagnosis,
  type Encounter,
  type Procedure,
} from '../index.js';
import { arbCoding } from './codes.js';
import { arbIsoDateTime, arbIsoDateTimeFull } from './dates.js';
import { arbPeriod } from './periods.js';
import { arbIdFor } from './chart-ids.js';
import { textFor } from './text-values.js';
import { compact, memo, opt, optArray } from './internal/util.js';
import { arbPositive, arbRef, type RecordOptions } from './record-options.js';

/** A diagnosis (ICD-10-CM or SNOMED CT). The id is optional. */
export function arbDiagnosis(opts: RecordOptions = {}): fc.Arbitrary<Diagnosis> {
  return memo(`diagnosis|${opts.text}|${opts.ids}|${opts.years}`, () => buildDiagnosis(opts));
}

function buildDiagnosis(opts: RecordOptions = {}): fc.Arbitrary<Diagnosis> {
  const mode = opts.text ?? 'mixed';
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  return fc
    .record({
      id: opt(arbIdFor(opts.ids ?? mode), 4),
      code: arbCoding(['icd-10-cm', 'snomed-ct'], mode),
      rank: opt(arbPositive()),
      use: opt(fc.constantFrom(...DIAGNOSIS_USES)),
      onset: opt(arbIsoDateTime({ years }), 2),
      recordedDate: opt(arbIsoDateTime({ years }), 2),
    })
    .map((r): Diagnosis => compact(r));
}

/**
 * A procedure (CPT, SNOMED CT or ICD-10-PCS), performed at a date-time or over a period, or undated.
 * (`mappable` is applied by {@link arbEncounter}, which knows whether the encounter has a start.)
 */
export function arbProcedure(opts: RecordOptions = {}): fc.Arbitrary<Procedure> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  return fc
    .record({
      id: opt(arbIdFor(idMode), 4),
      code: arbCoding(['cpt', 'snomed-ct', 'icd-10-pcs'], mode),
      status: fc.constantFrom(...PROCEDURE_STATUSES),
      performed: opt(fc.oneof(arbIsoDateTime({ years, leapSecond: false }), arbPeriod({ years }))),
      performerId: opt(arbRef(opts.practitionerIds, opts.danglingReferences === true, idMode)),
    })
    .map((r): Procedure => compact(r));
}

/** Options of {@link arbEncounter}. */
export interface EncounterOptions extends RecordOptions {
  /** Maximum diagnoses (default 3). */
  maxDiagnoses?: number | undefined;
  /** Maximum procedures (default 2). */
  maxProcedures?: number | undefined;
}

/** Ids unique where present (optional ids may repeat as absent). */
const byIdIfAny = <T extends { id?: string | undefined }>(x: T): string | T => x.id ?? x;

/**
 * An encounter: class, status, optional type, period (start ≤ end), location and participants from the
 * given pools, reason, diagnoses and procedures whose ids are unique within the encounter. A procedure of an
 * encounter without a start always has its own date (the chart check requires one, for HL7 PR1-5).
 * @param opts - text/id mode, year range, reference pools, sizes, mappable
 * @returns encounters the chart check accepts
 */
export function arbEncounter(opts: EncounterOptions = {}): fc.Arbitrary<Encounter> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const dangling = opts.danglingReferences === true;
  const prac = arbRef(opts.practitionerIds, dangling, idMode);
  return fc
    .record({
      id: arbIdFor(idMode),
      status: fc.constantFrom(...ENCOUNTER_STATUSES),
      class: fc.constantFrom(...ENCOUNTER_CLASSES),
      type: opt(arbCoding(['snomed-ct', 'cpt'], mode)),
      period: opt(arbPeriod({ years: opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed') }), 6),
      locationId: opt(arbRef(opts.locationIds, dangling, idMode)),
      participants: prac === undefined ? fc.constant(undefined) : optArray(fc.record({ role: fc.constantFrom(...PARTICIPANT_ROLES), practitionerId: prac }), 3),
      reason: opt(textFor(mode)),
      diagnoses: opt(fc.uniqueArray(arbDiagnosis(opts), { maxLength: opts.maxDiagnoses ?? 3, selector: byIdIfAny })),
      procedures: opt(fc.uniqueArray(arbProcedure(opts), { maxLength: opts.maxProcedures ?? 2, selector: byIdIfAny })),
      fallbackDate: arbIsoDateTimeFull({ years: opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed'), leapSecond: false }),
    })
    .map(({ fallbackDate, ...r }): Encounter => {
      const encounter: Encounter = compact(r);
      // The check requires a procedure date (HL7 PR1-5): the procedure's own, else the encounter's start.
      if (encounter.period?.start === undefined && encounter.procedures !== undefined) {
        encounter.procedures = encounter.procedures.map((p) => {
          const start = typeof p.performed === 'object' ? p.performed.start : p.performed;
          return start === undefined ? { ...p, performed: fallbackDate } : p;
        });
      }
      return encounter;
    });
}
