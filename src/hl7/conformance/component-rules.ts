/**
 * The required and conditional components of the composite data types (OPT `R` and `C` in the v2.5.1
 * chapter 2A tables): CX-1, TS-1, FN-1 required; HD-2 / HD-3 and EI-3 / EI-4 both valued or both empty; a
 * valued XCN-1 needs XCN-8 or XCN-9.
 */
import type { ComponentContext } from './data-type-components.js';

/** Short names of the components the rules below name, by `TYPE-n`. */
const COMPONENT_NAMES: Readonly<Record<string, string>> = {
  'CX-1': 'ID number',
  'TS-1': 'time',
  'FN-1': 'surname',
  'HD-2': 'universal ID',
  'HD-3': 'universal ID type',
  'EI-3': 'universal ID',
  'EI-4': 'universal ID type',
  'XCN-1': 'ID number',
  'XCN-8': 'source table',
  'XCN-9': 'assigning authority',
};

/**
 * Required components of composite types (OPT `R` in the v2.5.1 chapter 2A tables): required whenever the
 * composite is valued. CX-1 ID number (CX), TS-1 time (TS), FN-1 surname (FN).
 */
const REQUIRED_COMPONENTS: Readonly<Record<string, readonly number[]>> = { CX: [1], TS: [1], FN: [1] };

/**
 * Components that are both valued or both empty (OPT `C` in chapter 2A). HD (2.A.33): "The second and third
 * components must either both be valued (both non-null), or both be not valued (both null)". EI: components
 * 2 to 4 are the assigning authority, an HD (EI-1: "defined by a hierarchic designator, represented by
 * components 2 through 4"), so EI-3 / EI-4 follow the same rule.
 */
const PAIRED_COMPONENTS: Readonly<Record<string, readonly (readonly [number, number])[]>> = { HD: [[2, 3]], EI: [[3, 4]] };

/**
 * A valued component that needs one of others valued (chapter 2A). XCN-1 ID number: "If the first component
 * is present, either the source table or the assigning authority must be valued" (XCN-8 / XCN-9).
 */
const COMPONENT_NEEDS_ONE_OF: Readonly<Record<string, readonly (readonly [number, readonly number[]])[]>> = { XCN: [[1, [8, 9]]] };

/** `HD-2, universal ID`: a component named by type and number, for messages. */
function componentName(type: string, k: number): string {
  const name = COMPONENT_NAMES[`${type}-${k}`];
  return name === undefined ? `${type}-${k}` : `${type}-${k}, ${name}`;
}

/**
 * The conditional and required components of one value of composite type `type` (a field repetition, or a
 * component whose sub-components are its components): `valued[k - 1]` tells whether its component `k` has a
 * value, `at(k)` gives that component's position. Only valued composites are checked.
 * @param ctx - where the value is, and where problems are added
 * @param type - the composite type
 * @param valued - per component, whether it holds a value
 * @param at - the position of component `k` (`k` 0: the value itself)
 * @returns nothing
 * @example checkComponentRules(ctx, 'HD', [false, true, false], at) // conditional at HD-3
 */
export function checkComponentRules(ctx: ComponentContext, type: string, valued: readonly boolean[], at: (k: number) => string): void {
  if (!valued.some(Boolean)) return;
  const has = (k: number): boolean => valued[k - 1] === true;
  const whole = at(0).replace(/\.0$/, '');
  for (const k of Object.hasOwn(REQUIRED_COMPONENTS, type) ? (REQUIRED_COMPONENTS[type] ?? []) : []) {
    if (has(k)) continue;
    const position = at(k);
    ctx.problems.push({ code: 'required-field', segmentIndex: ctx.index, position, message: `${position} (${componentName(type, k)}) is required when ${whole} (${type}) is valued` });
  }
  for (const [a, b] of Object.hasOwn(PAIRED_COMPONENTS, type) ? (PAIRED_COMPONENTS[type] ?? []) : []) {
    if (has(a) === has(b)) continue;
    const [missing, present] = has(a) ? [b, a] : [a, b];
    const position = at(missing);
    ctx.problems.push({
      code: 'conditional',
      segmentIndex: ctx.index,
      position,
      message: `${position} (${componentName(type, missing)}) must be valued when ${at(present)} (${componentName(type, present)}) is: v2.5.1 ${type}-${a} and ${type}-${b} are both valued or both empty`,
    });
  }
  for (const [k, others] of Object.hasOwn(COMPONENT_NEEDS_ONE_OF, type) ? (COMPONENT_NEEDS_ONE_OF[type] ?? []) : []) {
    if (!has(k) || others.some(has)) continue;
    const last = others[others.length - 1] as number;
    const position = at(last);
    const names = others.map((o) => `${at(o)} (${componentName(type, o)})`).join(' or ');
    ctx.problems.push({ code: 'conditional', segmentIndex: ctx.index, position, message: `${names} must be valued when ${at(k)} (${componentName(type, k)}) is (v2.5.1 ${type})` });
  }
}
