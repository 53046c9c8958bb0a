/**
 * Numbers as HL7 v2.5.1 sends them in an NM value (chapter 2A: at most 16 characters, the sign included,
 * plain decimal notation), so that the kit can generate charts whose numbers every HL7 builder sends and
 * reads back as they are.
 */

/** The most characters of an NM value (HL7 v2.5.1 chapter 2A, NM). */
const NM_MAX = 16;

/**
 * A number in plain decimal notation, as NM writes it (`1e-7` → `0.0000001`, `-0` → `0`).
 * @param n - a finite number
 * @returns its shortest exact decimal text without exponent
 * @example plainDecimal(1.5e-7) // '0.00000015'
 */
export function plainDecimal(n: number): string {
  if (Object.is(n, -0)) return '0';
  const s = String(n);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const sign = s.startsWith('-') ? '-' : '';
  const mantissa = s.slice(sign.length, e);
  const exp = Number(s.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const intLen = (dot < 0 ? mantissa.length : dot) + exp;
  if (intLen <= 0) return `${sign}0.${'0'.repeat(-intLen)}${digits}`;
  if (intLen >= digits.length) return sign + digits + '0'.repeat(intLen - digits.length);
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
}

/**
 * The number an NM value carries for `n`: `n` itself when its plain form fits 16 characters, else `n`
 * rounded to the most significant digits that fit (`9.5e-15` → `1e-14`); for a number NM cannot hold at
 * all, a stand-in that it can (0 for a tiny one, ±9e14 for a huge one, so integers stay integers).
 * @param n - a finite number
 * @returns a number whose plain form fits NM
 * @example numberForNm(0.1 + 0.2) // 0.3
 */
export function numberForNm(n: number): number {
  if (plainDecimal(n).length <= NM_MAX) return n === 0 ? 0 : n;
  for (let digits = 16; digits >= 1; digits--) {
    const rounded = Number(n.toPrecision(digits));
    // Rounding can reach 0 (nothing kept) or overflow to Infinity: neither is the value.
    if (rounded === 0 || !Number.isFinite(rounded)) continue;
    if (plainDecimal(rounded).length <= NM_MAX) return rounded;
  }
  return Math.abs(n) < 1 ? 0 : Math.sign(n) * 9e14;
}

/** The smallest non-zero magnitude of a number the chart check accepts where HL7 sends it as NM. */
export const NM_ABS_MIN = 1e-13;
/** The magnitude from which the chart check refuses a number HL7 sends as NM (16 characters hold less). */
export const NM_ABS_MAX = 1e15;

/**
 * A number the chart check accepts where HL7 sends it as NM (answers, scores): 0 for a non-zero one of magnitude
 * below {@link NM_ABS_MIN}, ±9e14 for one of magnitude {@link NM_ABS_MAX} or more, else the number itself.
 * @param x - a finite number
 * @returns a number within the check's NM range
 * @example clampToNm(1e-20) // 0
 */
export function clampToNm(x: number): number {
  if (x === 0) return x;
  if (Math.abs(x) < NM_ABS_MIN) return 0;
  return Math.abs(x) >= NM_ABS_MAX ? Math.sign(x) * 9e14 : x;
}
