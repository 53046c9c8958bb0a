/**
 * The test-side oracle for the kit's `mappable` numbers: the number HL7 NM sends for a value, computed with the
 * builders' own `fitNm`. `arbPatientChart({ mappable: true })` fits numbers with the kit's copy of the NM rule
 * (it may use only the public API); the arbitraries test holds both equal. When the chart check and the HL7
 * builders agree on which numbers are valid, this step and the kit's fitting can go.
 */
import { fitNm } from '../../src/hl7/internal/fit.js';
import { HL7_NM_ABS_MAX, HL7_NM_ABS_MIN } from '../../src/model/limits.js';

/**
 * A number HL7 NM carries exactly (16 characters with the sign): the value itself when its shortest form fits;
 * else the value NM sends for it (rounded to the digits that fit, `9.5e-15` → `1e-14`); else, for a number NM
 * cannot hold at all, a stand-in that it can (0 for a tiny one, ±9e14 for a huge one; integers stay integers).
 */
function fitNumber(x: number): number {
  let sent: string;
  try {
    sent = fitNm(x, [], 'OBX-5');
  } catch {
    return Math.abs(x) < 1 ? 0 : Math.sign(x) * 9e14;
  }
  return clampToNm(Number(sent));
}

/** Within the chart check's NM range: 0 below {@link HL7_NM_ABS_MIN}, ±9e14 from {@link HL7_NM_ABS_MAX} on. */
function clampToNm(x: number): number {
  if (x === 0) return x;
  if (Math.abs(x) < HL7_NM_ABS_MIN) return 0;
  return Math.abs(x) >= HL7_NM_ABS_MAX ? Math.sign(x) * 9e14 : x;
}

/**
 * A copy of the chart that every HL7 builder can send and read back exactly: every number answer and score is
 * one NM carries as it is (see {@link fitNumber}). Objects keep their prototypes (`__proto__: null` records stay so).
 * @param value - a chart, or any part of one
 * @param key - the key `value` is under (for a score)
 * @returns the fitted copy
 */
export function fitForHl7<T>(value: T, key?: string): T {
  if (Array.isArray(value)) return value.map((v: unknown) => fitForHl7(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  const source = value as Record<string, unknown>;
  // A number answer value (`{ type: 'decimal' | 'integer', value }`) and an assessment's score (`score: { value }`).
  const isNumber = (source['type'] === 'decimal' || source['type'] === 'integer' || key === 'score') && typeof source['value'] === 'number';
  for (const k of Object.keys(source)) {
    const v = source[k];
    out[k] = isNumber && k === 'value' ? fitNumber(v as number) : fitForHl7(v, k);
  }
  return out as T;
}
