/**
 * Options shared by the record arbitraries, references into a pool of ids, and FHIR positiveInt values.
 */
import fc from 'fast-check';
import { type YearRange } from './dates.js';
import type { TextMode } from './fragments.js';
import { arbIdFor } from './chart-ids.js';
import { freshId } from './internal/util.js';

/** Options shared by the record arbitraries. */
export interface RecordOptions {
  /** Text mode of free-text fields (default mixed). */
  text?: TextMode | undefined;
  /** Id mode (default: the text mode). */
  ids?: TextMode | undefined;
  /** Year range of dates (default: realistic for realistic text, else mixed). */
  years?: YearRange | undefined;
  /**
   * Practitioner ids references may use. Absent: references are arbitrary ids (a bare chart may point
   * anywhere). Empty: no practitioner references (unless `danglingReferences`).
   */
  practitionerIds?: readonly string[] | undefined;
  /** Location ids references may use; same rules as `practitionerIds`. */
  locationIds?: readonly string[] | undefined;
  /** Encounter ids notes and assessments may use; same rules as `practitionerIds`. */
  encounterIds?: readonly string[] | undefined;
  /** Also produce references to ids that are not in the given pools. Default false. */
  danglingReferences?: boolean | undefined;
  /**
   * Kept for the chart generators' options; it changes nothing here. A procedure of an encounter without
   * `period.start` always gets a date of its own, since the chart check requires one (HL7 PR1-5).
   */
  mappable?: boolean | undefined;
}

/**
 * An arbitrary reference into `pool`, or `undefined` when no reference can be made.
 * @param pool - the ids that exist; undefined means "any id"
 * @param dangling - also produce ids missing from the pool
 * @param idMode - id mode for free and dangling ids
 */
export function arbRef(pool: readonly string[] | undefined, dangling: boolean, idMode: TextMode): fc.Arbitrary<string> | undefined {
  if (pool === undefined) return arbIdFor(idMode);
  const taken = new Set(pool);
  const missing = arbIdFor(idMode).map((id) => freshId(`missing-${id}`.trim(), taken));
  if (pool.length === 0) return dangling ? missing : undefined;
  const present = fc.constantFrom(...pool);
  return dangling ? fc.oneof({ arbitrary: present, weight: 2 }, { arbitrary: missing, weight: 1 }) : present;
}

/** The largest `rank` / `order` the chart check accepts (FHIR positiveInt is a 32-bit signed integer). */
export const POSITIVE_INT_MAX = 2_147_483_647;

const arbPositiveInt: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 20 },
  { arbitrary: fc.constantFrom(65536, POSITIVE_INT_MAX - 1, POSITIVE_INT_MAX), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: POSITIVE_INT_MAX }), weight: 1 },
);

/**
 * A `rank` / `order`: 1…2147483647 (FHIR positiveInt), small mostly, sometimes large or exactly the maximum.
 * @returns integers the chart check accepts
 * @example fc.sample(arbPositive(), 3) // e.g. [1, 2, 2147483647]
 */
export function arbPositive(): fc.Arbitrary<number> {
  return arbPositiveInt;
}
