/**
 * Components and sub-components of a field as sent (escaped): each no longer than its v2.5.1 maximum, none
 * beyond what its data type has, and the composite types' required and conditional components.
 * @see HL7 v2.5.1 chapter 2A (data type component tables)
 */
import type { Hl7Message, Hl7Segment } from '../parser.js';
import { hl7Position } from '../parser.js';
import { checkComponentRules } from './component-rules.js';
import { dataTypeComponents, type ComponentDefinition } from './definitions.js';
import type { Hl7Problem } from './problems.js';

/** Where a component check is: the segment, field and repetition, for positions and problems. */
export interface ComponentContext {
  readonly segment: Hl7Segment;
  readonly index: number;
  readonly field: number;
  /** The repetition (1-based) being checked; set for each. */
  repetition: number;
  readonly delimiters: Hl7Message['delimiters'];
  readonly problems: Hl7Problem[];
  /** Whether to report components the type does not have (OBX-5 of a type whose format check covers them: no). */
  readonly countExtra: boolean;
}

function tooLong(ctx: ComponentContext, owner: string, k: number, def: ComponentDefinition, component: number, subcomponent?: number): void {
  const at = hl7Position(ctx.segment.id, ctx.field, ctx.repetition, component, subcomponent);
  ctx.problems.push({
    code: 'max-length',
    segmentIndex: ctx.index,
    position: at,
    message: `${at} (${owner}.${k}, ${def.type}) is longer than the ${def.maxLength} characters v2.5.1 allows (after escaping)`,
  });
}

function notInType(ctx: ComponentContext, owner: string, count: number, component: number, subcomponent?: number): void {
  if (!ctx.countExtra) return;
  const at = hl7Position(ctx.segment.id, ctx.field, ctx.repetition, component, subcomponent);
  const has = count === 0 ? 'is a primitive type without components' : `has ${count} component${count === 1 ? '' : 's'}`;
  ctx.problems.push({ code: 'unknown-field', segmentIndex: ctx.index, position: at, message: `${at} does not exist in v2.5.1: ${owner} ${has}` });
}


/** Whether a component, as sent, holds a value in any of its sub-components. */
function isValued(text: string, subcomponent: string): boolean {
  if (text === '') return false;
  if (!text.includes(subcomponent)) return true;
  return text.split(subcomponent).some((s) => s !== '');
}

/**
 * The sub-components of component `c` (1-based), of type `def.type`, as sent: each no longer than its
 * v2.5.1 maximum, none beyond the type's. A sub-component's own components cannot be told apart (HL7 has
 * no third separator), so only its whole length is checked.
 */
function checkSubcomponents(ctx: ComponentContext, text: string, def: ComponentDefinition, c: number): void {
  const subs = dataTypeComponents(def.type);
  if (subs === undefined) return;
  const separator = ctx.delimiters.subcomponent;
  if (subs.length === 0) {
    // A primitive component: any sub-component after the first does not exist.
    if (!text.includes(separator)) return;
    const parts = text.split(separator);
    for (let s = 1; s < parts.length; s++) if (parts[s] !== '') notInType(ctx, def.type, 0, c, s + 1);
    return;
  }
  const parts = text.includes(separator) ? text.split(separator) : [text];
  for (let s = 0; s < parts.length; s++) {
    const part = parts[s] as string;
    if (part === '') continue;
    const sub = subs[s];
    if (sub === undefined) notInType(ctx, def.type, subs.length, c, s + 1);
    else if (part.length > sub.maxLength && part !== '""') tooLong(ctx, def.type, s + 1, sub, c, s + 1);
  }
  if (ctx.countExtra) {
    checkComponentRules(ctx, def.type, parts.map((p) => p !== ''), (k) => hl7Position(ctx.segment.id, ctx.field, ctx.repetition, c, k));
  }
}

/**
 * One repetition of a field of data type `type`, as sent (escaped): each component and sub-component no
 * longer than its v2.5.1 maximum (the HL7 null `""` is no length), and no component or sub-component the
 * type does not have. A type the check does not know (`varies`, …) is not checked.
 * @param ctx - where the repetition is, and where problems are added
 * @param rep - the repetition as sent
 * @param type - its data type
 * @returns nothing
 * @example checkComponents(ctx, 'Okafor^Adaeze', 'XPN')
 */
export function checkComponents(ctx: ComponentContext, rep: string, type: string): void {
  const components = dataTypeComponents(type);
  if (components === undefined || rep === '' || rep === '""') return;
  const d = ctx.delimiters;
  if (components.length === 0) {
    // A primitive field: one component of one sub-component; its length is the field's, checked already.
    if (!rep.includes(d.component) && !rep.includes(d.subcomponent)) return;
    const parts = rep.split(d.component);
    for (let c = 1; c < parts.length; c++) if (parts[c] !== '') notInType(ctx, type, 0, c + 1);
    const first = parts[0] as string;
    if (first.includes(d.subcomponent)) {
      const subs = first.split(d.subcomponent);
      for (let s = 1; s < subs.length; s++) if (subs[s] !== '') notInType(ctx, type, 0, 1, s + 1);
    }
    return;
  }
  const parts = rep.includes(d.component) ? rep.split(d.component) : [rep];
  for (let c = 0; c < parts.length; c++) {
    const part = parts[c] as string;
    if (part === '') continue;
    const def = components[c];
    if (def === undefined) {
      notInType(ctx, type, components.length, c + 1);
      continue;
    }
    if (part === '""') continue;
    if (part.length > def.maxLength) tooLong(ctx, type, c + 1, def, c + 1);
    checkSubcomponents(ctx, part, def, c + 1);
  }
  if (ctx.countExtra) {
    checkComponentRules(ctx, type, parts.map((p) => isValued(p, d.subcomponent)), (k) => hl7Position(ctx.segment.id, ctx.field, ctx.repetition, k === 0 ? undefined : k));
  }
}
