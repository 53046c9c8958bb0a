/**
 * The HL7 v2.5.1 structure check: a message's segment sequence against its abstract message structure
 * (required, optional and repeating segments and groups, order), plus required fields, repetition, maximum
 * lengths of fields, components and sub-components, components a data type does not have, date-time and
 * number formats (OBX-5 by its value type in OBX-2 too), the conditional and required components of the
 * composite data types (HD, EI, XCN, CX, TS, FN) and closed-table codes of the segments this library emits.
 *
 * The structure is compiled into a Glushkov automaton (one state per segment position in the grammar), so
 * groups, optional parts and repeats are matched exactly, ambiguity included (the two `[{ROL}]` of ADT_A01,
 * the two OBX places of ORU_R01). On a segment that cannot follow, the check first tries to explain it by
 * missing required segments (reporting those), else reports it as out of order or foreign, skips it and goes
 * on, so one message yields every problem, not only the first.
 */
import { Hl7ParseError, InvalidArgumentError } from '../errors.js';
import { checkHl7Delimiters } from './encoding.js';
import { parseHl7DateTime } from './datetime.js';
import { dataTypeComponents, HL7_EVENT_STRUCTURES, HL7_MESSAGE_STRUCTURES, segmentFields, type ComponentDefinition, type FieldDefinition } from './definitions.js';
import { hl7Position, parseHl7Message, type Hl7Message, type Hl7Segment } from './parser.js';

/** The kinds of problems the check reports. */
export const HL7_PROBLEM_CODES = [
  'parse',
  'message-type',
  'unsupported-structure',
  'missing-segment',
  'unexpected-segment',
  'segment-order',
  'required-field',
  'max-length',
  'repetition',
  'unknown-field',
  'format',
  'table-value',
  'value',
  'conditional',
] as const;
/**
 * One of {@link HL7_PROBLEM_CODES}: `parse` (not readable as HL7), `message-type` (MSH-9.3 against the event
 * map), `unsupported-structure`, `missing-segment`, `unexpected-segment`, `segment-order`, `required-field` (a
 * required field, or a required component of a valued composite: CX-1, TS-1, FN-1), `max-length`,
 * `repetition`, `unknown-field` (a field, component or sub-component v2.5.1 does not define), `format`,
 * `table-value`, `value` (MSH-12), and `conditional`: a component that a v2.5.1 data type's conditional rule
 * requires given its siblings is empty (HD-2 / HD-3 valued one without the other, likewise EI-3 / EI-4; XCN-1
 * valued without XCN-8 or XCN-9), reported at the empty component.
 */
export type Hl7ProblemCode = (typeof HL7_PROBLEM_CODES)[number];

/** One problem found by {@link checkHl7Message}. Messages name positions and rules, never values. */
export interface Hl7Problem {
  /** What kind of problem it is. */
  readonly code: Hl7ProblemCode;
  /**
   * 0-based index of the segment concerned; for a missing segment, the index of the segment before which it
   * is missing (the number of segments when it is missing at the end); -1 for the message as a whole.
   */
  readonly segmentIndex: number;
  /** The field, component or sub-component position (`PID-5`, `PID-5(2)`, `MSH-9.3`, `PID-5.1.1`) or segment id (`TXA`) concerned, when there is one. */
  readonly position: string | undefined;
  /** A human-readable explanation. */
  readonly message: string;
}

// ---------------------------------------------------------------------------------------------------
// Grammar → Glushkov automaton
// ---------------------------------------------------------------------------------------------------

/** A segment position of a structure: one state of the automaton. */
interface Position {
  readonly id: string;
  /** Names of the enclosing groups, outermost first. */
  readonly groups: readonly string[];
}

interface Automaton {
  readonly name: string;
  readonly positions: readonly Position[];
  /** Positions that may come first. */
  readonly first: ReadonlySet<number>;
  /** follow[p]: positions that may come after p. */
  readonly follow: readonly ReadonlySet<number>[];
  /** Positions a message may end on. */
  readonly last: ReadonlySet<number>;
  /** Segment ids anywhere in the structure. */
  readonly alphabet: ReadonlySet<string>;
}

interface Fragment {
  nullable: boolean;
  first: Set<number>;
  last: Set<number>;
}

function compileStructure(name: string, spec: string): Automaton {
  const tokens = spec.match(/\[|\]|\{|\}|[A-Z][A-Z0-9_]*:|[A-Z][A-Z0-9]{2}/g) ?? [];
  let t = 0;
  const positions: Position[] = [];
  const follow: Set<number>[] = [];
  const link = (from: Iterable<number>, to: Iterable<number>): void => {
    const targets = [...to];
    for (const p of from) for (const q of targets) (follow[p] as Set<number>).add(q);
  };

  // item := ID | '[' content ']' | '{' content '}' ; content := [NAME:] item+
  const parseSequence = (end: string | undefined, groups: readonly string[]): Fragment => {
    const seq: Fragment = { nullable: true, first: new Set(), last: new Set() };
    while (t < tokens.length && tokens[t] !== end) {
      const item = parseItem(groups);
      // Concatenation: the last positions so far are followed by the item's first positions.
      link(seq.last, item.first);
      if (seq.nullable) for (const p of item.first) seq.first.add(p);
      if (item.nullable) for (const p of item.last) seq.last.add(p);
      else seq.last = new Set(item.last);
      seq.nullable &&= item.nullable;
    }
    return seq;
  };
  const parseItem = (groups: readonly string[]): Fragment => {
    const tok = tokens[t++] as string;
    if (tok === '[' || tok === '{') {
      const close = tok === '[' ? ']' : '}';
      let inner: Fragment;
      const label = tokens[t];
      if (label !== undefined && label.endsWith(':')) {
        t++;
        inner = parseSequence(close, [...groups, label.slice(0, -1)]);
      } else if (tokens[t + 1] === close && tokens[t] !== '[' && tokens[t] !== '{') {
        inner = parseItem(groups);
      } else {
        inner = parseSequence(close, groups);
      }
      t++; // the closing bracket
      if (tok === '{') link(inner.last, inner.first);
      return tok === '[' ? { ...inner, nullable: true } : inner;
    }
    const p = positions.length;
    positions.push({ id: tok, groups });
    follow.push(new Set());
    return { nullable: false, first: new Set([p]), last: new Set([p]) };
  };
  const root = parseSequence(undefined, []);
  return {
    name,
    positions,
    first: root.first,
    follow,
    last: root.last,
    alphabet: new Set(positions.map((p) => p.id)),
  };
}

const automata = new Map<string, Automaton>();

function automaton(structure: string): Automaton | undefined {
  const cached = automata.get(structure);
  if (cached !== undefined) return cached;
  // Own keys only: the name comes from MSH-9.3 and may be `constructor` or `__proto__`.
  const spec = Object.hasOwn(HL7_MESSAGE_STRUCTURES, structure) ? HL7_MESSAGE_STRUCTURES[structure] : undefined;
  if (spec === undefined) return undefined;
  const a = compileStructure(structure, spec);
  automata.set(structure, a);
  return a;
}

const START = -1;

function successors(a: Automaton, state: number): ReadonlySet<number> {
  return state === START ? a.first : (a.follow[state] as ReadonlySet<number>);
}

function describe(p: Position): string {
  const group = p.groups.length === 0 ? '' : ` (group ${p.groups.join(' > ')})`;
  return `${p.id}${group}`;
}

/**
 * Shortest sequence of segment positions to insert after one of `states` so that a segment with id
 * `target` can follow (target undefined: so that the message can end). At most `maxInsert` insertions.
 */
function repair(a: Automaton, states: ReadonlySet<number>, target: string | undefined, maxInsert: number): { path: number[]; next: Set<number> } | undefined {
  const done = (s: number): Set<number> | undefined => {
    if (target === undefined) return s !== START && a.last.has(s) ? new Set([s]) : undefined;
    const next = new Set<number>();
    for (const q of successors(a, s)) if (a.positions[q]?.id === target) next.add(q);
    return next.size > 0 ? next : undefined;
  };
  let frontier: { state: number; path: number[] }[] = [...states].map((state) => ({ state, path: [] }));
  const seen = new Set<number>(states);
  for (let depth = 0; depth <= maxInsert; depth++) {
    for (const f of frontier) {
      const next = done(f.state);
      if (next !== undefined) return { path: f.path, next };
    }
    const nextFrontier: { state: number; path: number[] }[] = [];
    for (const f of frontier) {
      for (const q of successors(a, f.state)) {
        if (seen.has(q)) continue;
        seen.add(q);
        nextFrontier.push({ state: q, path: [...f.path, q] });
      }
    }
    frontier = nextFrontier;
  }
  return undefined;
}

function checkSequence(a: Automaton, segments: readonly Hl7Segment[], problems: Hl7Problem[]): void {
  let states: ReadonlySet<number> = new Set([START]);
  segments.forEach((segment, index) => {
    const id = segment.id;
    const next = new Set<number>();
    for (const s of states) for (const q of successors(a, s)) if (a.positions[q]?.id === id) next.add(q);
    if (next.size > 0) {
      states = next;
      return;
    }
    const fix = a.alphabet.has(id) ? repair(a, states, id, 4) : undefined;
    if (fix !== undefined) {
      for (const q of fix.path) {
        const p = a.positions[q] as Position;
        problems.push({
          code: 'missing-segment',
          segmentIndex: index,
          position: p.id,
          message: `Segment ${describe(p)}, required by ${a.name}, is missing before segment ${index} (${id})`,
        });
      }
      states = fix.next;
      return;
    }
    problems.push(
      a.alphabet.has(id)
        ? {
            code: 'segment-order',
            segmentIndex: index,
            position: id,
            message: `Segment ${id} is out of order or repeats where ${a.name} does not allow it`,
          }
        : { code: 'unexpected-segment', segmentIndex: index, position: id, message: `Segment ${id} is not part of ${a.name}` },
    );
  });
  const canEnd = [...states].some((s) => s !== START && a.last.has(s));
  if (!canEnd) {
    const fix = repair(a, states, undefined, 8);
    for (const q of fix?.path ?? []) {
      const p = a.positions[q] as Position;
      problems.push({
        code: 'missing-segment',
        segmentIndex: segments.length,
        position: p.id,
        message: `Segment ${describe(p)}, required by ${a.name}, is missing at the end of the message`,
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Fields
// ---------------------------------------------------------------------------------------------------

const SI_RE = /^[1-9][0-9]*$/;
const NM_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const DT_RE = /^\d{4}(?:\d{2}(?:\d{2})?)?$/;
/** TM: HH[MM[SS[.S[S[S[S]]]]]][+/-ZZZZ], hours 00–23, minutes and seconds 00–59. */
const TM_RE = /^(?:[01]\d|2[0-3])(?:[0-5]\d(?:[0-5]\d(?:\.\d{1,4})?)?)?(?:[+-](?:[01]\d|2[0-3])[0-5]\d)?$/;
/** SN-1 comparator (v2.5.1 2A.2.69). */
const SN_COMPARATORS: readonly string[] = ['', '>', '<', '>=', '<=', '=', '<>'];
/** SN-3 separator/suffix (v2.5.1 2A.2.69). */
const SN_SEPARATORS: readonly string[] = ['', '-', '+', '/', '.', ':'];

/** Whether a value is an HL7 DTM (parseable, with a valid calendar date and time). */
function isDtm(value: string): boolean {
  try {
    parseHl7DateTime(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether a value is an HL7 DT: YYYY[MM[DD]] and a real date. */
function isDt(value: string): boolean {
  return DT_RE.test(value) && isDtm(value);
}

/**
 * The format OBX-5 must have for the value types of OBX-2 whose format v2.5.1 defines as a primitive or a
 * numeric structure: [rule, test of one repetition's components]. Other value types (ST, TX, FT, CE, …) hold
 * text or composites whose content is not checked.
 */
const OBX5_FORMATS: Readonly<Record<string, readonly [string, (rep: readonly (readonly string[])[]) => boolean]>> = {
  NM: ['a number (NM)', (rep) => rep.length === 1 && NM_RE.test(rep[0]?.[0] ?? '')],
  DT: ['an HL7 DT date (YYYY[MM[DD]])', (rep) => rep.length === 1 && isDt(rep[0]?.[0] ?? '')],
  TM: ['an HL7 TM time (HH[MM[SS[.S…]]][+/-ZZZZ])', (rep) => rep.length === 1 && TM_RE.test(rep[0]?.[0] ?? '')],
  // TS: TS-1 a DTM, TS-2 the (deprecated) degree of precision.
  TS: ['an HL7 TS date-time (DTM)', (rep) => rep.length <= 2 && isDtm(rep[0]?.[0] ?? '')],
  DTM: ['an HL7 DTM date-time', (rep) => rep.length === 1 && isDtm(rep[0]?.[0] ?? '')],
  // SN: comparator ^ number ^ separator/suffix ^ number, at least one number.
  SN: [
    'an HL7 SN structured numeric (comparator^number^separator^number)',
    (rep) => {
      const c = (k: number): string => rep[k]?.[0] ?? '';
      const num1 = c(1);
      const num2 = c(3);
      return (
        rep.length <= 4 &&
        SN_COMPARATORS.includes(c(0)) &&
        SN_SEPARATORS.includes(c(2)) &&
        (num1 === '' || NM_RE.test(num1)) &&
        (num2 === '' || NM_RE.test(num2)) &&
        (num1 !== '' || num2 !== '')
      );
    },
  ],
};

/** OBX-5 against the value type in OBX-2 (each repetition). */
function checkObx5(segment: Hl7Segment, index: number, problems: Hl7Problem[]): void {
  const type = segment.fields[2]?.[0]?.[0]?.[0] ?? '';
  // Own keys only: OBX-2 comes from the message and may be `constructor` or `__proto__`.
  const format = Object.hasOwn(OBX5_FORMATS, type) ? OBX5_FORMATS[type] : undefined;
  if (format === undefined) return;
  const [rule, test] = format;
  (segment.fields[5] ?? []).forEach((rep, r) => {
    // An empty repetition holds no value; `""` is the explicit null.
    if (rep.every((comp) => comp.every((sub) => sub === '')) || (rep.length === 1 && rep[0]?.length === 1 && rep[0][0] === '""')) return;
    if (!test(rep)) {
      const position = hl7Position(segment.id, 5, r + 1);
      problems.push({ code: 'format', segmentIndex: index, position, message: `${position} must be ${rule}, as OBX-2 (${type}) says` });
    } else if (type === 'NM' && (rep[0]?.[0] ?? '').length > NM_MAX_LENGTH) {
      // NM is a primitive of 16 characters (v2.5.1 chapter 2A), whatever room OBX-5 has.
      const position = hl7Position(segment.id, 5, r + 1);
      problems.push({ code: 'max-length', segmentIndex: index, position, message: `${position} is longer than the ${NM_MAX_LENGTH} characters of an NM value` });
    }
  });
}

/** The length of an NM value (HL7 v2.5.1 chapter 2A). */
const NM_MAX_LENGTH = 16;

/** The raw (escaped) text of each field of a segment, indexed by field number (MSH-1 is the separator). */
function rawFields(segment: Hl7Segment, fieldSeparator: string): string[] {
  const raw = segment.raw;
  if (raw.length <= 3) return [segment.id];
  const parts = raw.slice(4).split(fieldSeparator);
  return segment.id === 'MSH' ? [segment.id, fieldSeparator, ...parts] : [segment.id, ...parts];
}

function checkFieldValue(segment: Hl7Segment, index: number, n: number, def: FieldDefinition, problems: Hl7Problem[]): void {
  const field = segment.fields[n] ?? [];
  field.forEach((rep, r) => {
    const value = rep[0]?.[0] ?? '';
    if (value === '' || value === '""') return;
    const position = hl7Position(segment.id, n, r + 1);
    let ok = true;
    let rule = '';
    if (def.type === 'TS') {
      rule = 'an HL7 DTM date-time';
      ok = isDtm(value);
    } else if (def.type === 'DT') {
      rule = 'an HL7 DT date (YYYY[MM[DD]])';
      ok = isDt(value);
    } else if (def.type === 'SI') {
      rule = 'a positive integer (SI)';
      ok = SI_RE.test(value);
    } else if (def.type === 'NM') {
      rule = 'a number (NM)';
      ok = NM_RE.test(value);
    }
    if (!ok) problems.push({ code: 'format', segmentIndex: index, position, message: `${position} must be ${rule}` });
    if (def.table !== undefined && !def.table.includes(value)) {
      problems.push({ code: 'table-value', segmentIndex: index, position, message: `${position} holds a code outside its v2.5.1 table` });
    }
  });
}

/** Where a component check is: the segment, field and repetition, for positions and problems. */
interface ComponentContext {
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
 */
function checkComponentRules(ctx: ComponentContext, type: string, valued: readonly boolean[], at: (k: number) => string): void {
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
 */
function checkComponents(ctx: ComponentContext, rep: string, type: string): void {
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

function checkFields(segment: Hl7Segment, index: number, message: Hl7Message, problems: Hl7Problem[]): void {
  const defs = segmentFields(segment.id);
  if (defs === undefined) return;
  const d = message.delimiters;
  const raw = rawFields(segment, d.field);
  for (let n = 1; n < raw.length || n <= defs.length; n++) {
    const def = defs[n - 1];
    const text = raw[n] ?? '';
    if (def === undefined) {
      if (text !== '') {
        const position = hl7Position(segment.id, n);
        problems.push({ code: 'unknown-field', segmentIndex: index, position, message: `${position} does not exist in v2.5.1` });
      }
      continue;
    }
    const position = hl7Position(segment.id, n);
    if (text === '') {
      if (def.required) problems.push({ code: 'required-field', segmentIndex: index, position, message: `${position} is required` });
      continue;
    }
    // MSH-1 and MSH-2 are the delimiters themselves: not split, not escaped.
    const reps = segment.id === 'MSH' && n <= 2 ? [text] : text.split(d.repetition);
    if (!def.repeating && reps.length > 1) {
      problems.push({ code: 'repetition', segmentIndex: index, position, message: `${position} does not repeat` });
    }
    // OBX-5 takes the type OBX-2 names; where OBX-5's format check applies, it covers the number of components.
    const obx5 = segment.id === 'OBX' && n === 5;
    const type = obx5 ? (segment.fields[2]?.[0]?.[0]?.[0] ?? '') : def.type;
    const countExtra = !(obx5 && Object.hasOwn(OBX5_FORMATS, type));
    const ctx: ComponentContext = { segment, index, field: n, repetition: 1, delimiters: d, problems, countExtra };
    const checkParts = !(segment.id === 'MSH' && n <= 2);
    reps.forEach((rep, r) => {
      // `""` is the explicit HL7 null, not a value of two characters.
      if (def.maxLength > 0 && rep.length > def.maxLength && rep !== '""') {
        const at = hl7Position(segment.id, n, r + 1);
        problems.push({
          code: 'max-length',
          segmentIndex: index,
          position: at,
          message: `${at} is longer than the ${def.maxLength} characters v2.5.1 allows (after escaping)`,
        });
      }
      if (checkParts) {
        ctx.repetition = r + 1;
        checkComponents(ctx, rep, type);
      }
    });
    if (!(segment.id === 'MSH' && n <= 2)) checkFieldValue(segment, index, n, def, problems);
    if (segment.id === 'OBX' && n === 5) checkObx5(segment, index, problems);
  }
  if (segment.id === 'OBX') checkObx2(segment, index, problems);
}

/**
 * OBX-2's condition (v2.5.1 7.4.2.2): "It must be valued if OBX-11-Observation Result Status is not valued
 * with an 'X'."
 */
function checkObx2(segment: Hl7Segment, index: number, problems: Hl7Problem[]): void {
  const valued = (n: number): string => segment.fields[n]?.[0]?.[0]?.[0] ?? '';
  if (valued(2) === '' && valued(11) !== 'X') {
    problems.push({ code: 'conditional', segmentIndex: index, position: 'OBX-2', message: "OBX-2 (value type) must be valued when OBX-11 (result status) is not 'X' (v2.5.1 7.4.2.2)" });
  }
}

// ---------------------------------------------------------------------------------------------------
// The check
// ---------------------------------------------------------------------------------------------------

/** `true` when `value` is an array whose every element passes `each` (with its index). */
function everyIn(value: unknown, each: (item: unknown, index: number) => boolean): value is readonly unknown[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!each(value[i], i)) return false;
  return true;
}

const isString = (v: unknown): boolean => typeof v === 'string';

/**
 * A parsed message handed in by the caller is checked for the shape {@link parseHl7Message} gives, so an
 * altered or hand-made one is an argument error rather than a crash inside the checks.
 */
function assertMessageShape(message: unknown): Hl7Message {
  if (typeof message !== 'object' || message === null) throw new InvalidArgumentError('message', 'must be HL7 text or a parsed message');
  const m = message as { delimiters?: unknown; segments?: unknown };
  if (typeof m.delimiters !== 'object' || m.delimiters === null) throw new InvalidArgumentError('message.delimiters', 'must be a delimiter set');
  try {
    checkHl7Delimiters(m.delimiters as Hl7Message['delimiters']);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new InvalidArgumentError(`message.${error.argument}`, 'must be a valid delimiter set', { cause: error });
    throw error;
  }
  if (!Array.isArray(m.segments)) throw new InvalidArgumentError('message.segments', 'must be an array');
  m.segments.forEach((segment: unknown, i: number) => {
    const at = `message.segments[${i}]`;
    if (typeof segment !== 'object' || segment === null) throw new InvalidArgumentError(at, 'must be a segment');
    const s = segment as { id?: unknown; raw?: unknown; fields?: unknown };
    if (typeof s.id !== 'string') throw new InvalidArgumentError(`${at}.id`, 'must be a string');
    if (typeof s.raw !== 'string') throw new InvalidArgumentError(`${at}.raw`, 'must be a string');
    if (!Array.isArray(s.fields)) throw new InvalidArgumentError(`${at}.fields`, 'must be an array');
    for (let f = 0; f < s.fields.length; f++) {
      const ok = everyIn(s.fields[f], (repetition) => everyIn(repetition, (component) => everyIn(component, isString)));
      if (!ok) throw new InvalidArgumentError(`${at}.fields[${f}]`, 'must be repetitions of components of subcomponent strings');
    }
  });
  return message as Hl7Message;
}

/**
 * Check a message against HL7 v2.5.1: its segment sequence against the abstract message structure named by
 * MSH-9.3 (or, without it, by MSH-9.1/9.2 through the v2.5.1 event map) — ADT_A05, ADT_A01, ADR_A19, MDM_T02
 * and ORU_R01 are known; and, for the segments this library emits (MSH EVN PID PV1 DG1 PR1 IN1 TXA OBR OBX
 * NTE MSA QRD), required fields, non-repeating fields, maximum lengths of fields, components and
 * sub-components (measured as sent, escaped; positions such as `PID-5.1.1`, `PID-5(2).3`; the null `""` is
 * no length), components and sub-components a data type does not have (`unknown-field`), the formats of TS /
 * DT / SI / NM fields, OBX-5 against its value type in OBX-2 (components and lengths by that type; formats of
 * NM, DT, TM, TS, DTM, SN), closed-table codes, and the conditional rules of the composite types wherever
 * they occur (`conditional` at the empty component: HD-2 / HD-3 and EI-3 / EI-4 both valued or both empty, a
 * valued XCN-1 with XCN-8 or XCN-9; `required-field`: CX-1, TS-1, FN-1 of a valued CX, TS, FN). Also MSH-9 (three components, consistent with the event
 * map) and MSH-12 (`2.5.1`). Other segments are checked for position only; so are the components of `varies`
 * fields other than OBX-5 and of the withdrawn value types CK, CN, PN and TN.
 *
 * @param message - message text, or a message parsed by {@link parseHl7Message}
 * @returns every problem found, in segment order; empty when the message conforms
 * @throws {InvalidArgumentError} when `message` is neither a string nor a message of {@link parseHl7Message}'s
 *   shape (the argument names the first node that is not, e.g. `message.segments[2].fields[5]`)
 * @see HL7 v2.5.1 chapter 2, 2.12 "Message construction rules"; the abstract message syntax of chapters 3, 7, 9
 * @example checkHl7Message('MSH|^~\\&|||||20260301||MDM^T02^MDM_T02|MDM1|P|2.5.1\rEVN|T02|20260301\r')
 *   // [{ code: 'missing-segment', position: 'PID', … }, { code: 'missing-segment', position: 'PV1', … }, …]
 */
export function checkHl7Message(message: string | Hl7Message): Hl7Problem[] {
  let parsed: Hl7Message;
  if (typeof message === 'string') {
    try {
      parsed = parseHl7Message(message);
    } catch (e) {
      if (e instanceof Hl7ParseError) return [{ code: 'parse', segmentIndex: e.segmentIndex, position: e.position, message: e.message }];
      throw e;
    }
  } else {
    parsed = assertMessageShape(message);
  }
  const problems: Hl7Problem[] = [];
  const msh = parsed.segments[0];
  if (msh === undefined || msh.id !== 'MSH') {
    return [{ code: 'missing-segment', segmentIndex: 0, position: 'MSH', message: 'The message must begin with an MSH segment' }];
  }
  const type = msh.fields[9]?.[0] ?? [];
  const code = type[0]?.[0] ?? '';
  const event = type[1]?.[0] ?? '';
  const declared = type[2]?.[0] ?? '';
  if (code !== '' && event === '') problems.push({ code: 'required-field', segmentIndex: 0, position: 'MSH-9.2', message: 'MSH-9.2 (trigger event) is required' });
  if (code !== '' && declared === '') {
    problems.push({ code: 'required-field', segmentIndex: 0, position: 'MSH-9.3', message: 'MSH-9.3 (message structure) is required' });
  }
  const eventKey = `${code}^${event}`;
  const mapped = Object.hasOwn(HL7_EVENT_STRUCTURES, eventKey) ? HL7_EVENT_STRUCTURES[eventKey] : undefined;
  if (declared !== '' && mapped !== undefined && declared !== mapped) {
    problems.push({ code: 'message-type', segmentIndex: 0, position: 'MSH-9.3', message: `MSH-9.3 does not match the v2.5.1 structure of ${code}^${event} (${mapped})` });
  }
  const version = msh.fields[12]?.[0]?.[0]?.[0] ?? '';
  if (version !== '' && version !== '2.5.1') {
    problems.push({ code: 'value', segmentIndex: 0, position: 'MSH-12', message: 'MSH-12 is not 2.5.1; the check applies v2.5.1 rules' });
  }
  const structure = declared !== '' ? declared : mapped;
  const a = structure === undefined ? undefined : automaton(structure);
  if (a === undefined) {
    if (code !== '') {
      problems.push({
        code: 'unsupported-structure',
        segmentIndex: 0,
        position: 'MSH-9',
        message: 'The message structure is not one the check knows (ADT_A01, ADT_A05, ADR_A19, MDM_T02, ORU_R01); segment order was not checked',
      });
    }
  } else {
    checkSequence(a, parsed.segments, problems);
  }
  parsed.segments.forEach((segment, index) => checkFields(segment, index, parsed, problems));
  // Stable: structure problems of a segment come before its field problems.
  return problems.sort((x, y) => x.segmentIndex - y.segmentIndex);
}

/** A component the builders send longer than v2.5.1 allows, on purpose: `field` component `component`. */
export interface Hl7LengthDeviation {
  /** The field, e.g. `PID-3`. */
  readonly field: string;
  /** The component (1-based). */
  readonly component: number;
}

/**
 * The documented length deviations of the builders (README, "Conformance notes and decisions"): identifiers and
 * codes are never cut or replaced, so one longer than its component is sent whole. Business identifiers in
 * CX-1 / XCN-1 (15: PID-3, IN1-3, IN1-49, the patient in QRD-8), the group id in XON-10 (20: IN1-9), chart
 * codes in CE-1 (20: DG1-3, PR1-3, OBX-3, a coded OBX-5, OBX-17, OBR-4) and the language tag (PID-15).
 */
export const HL7_LENGTH_DEVIATIONS: readonly Hl7LengthDeviation[] = Object.freeze(
  (
    [
      ['PID-3', 1],
      ['IN1-3', 1],
      ['IN1-49', 1],
      ['QRD-8', 1],
      ['IN1-9', 10],
      ['DG1-3', 1],
      ['PR1-3', 1],
      ['OBX-3', 1],
      ['OBX-5', 1],
      ['OBX-17', 1],
      ['OBR-4', 1],
      ['PID-15', 1],
    ] as const
  ).map(([field, component]) => Object.freeze({ field, component })),
);

/** `PID-3.1`, `PID-3(2).1`, `IN1-9.10`: the positions `checkHl7Message` gives the deviations, any repetition. */
const DEVIATION_POSITION_RE = new RegExp(`^(?:${HL7_LENGTH_DEVIATIONS.map((d) => `${d.field}(?:\\(\\d+\\))?\\.${d.component}`).join('|')})$`);

/**
 * Whether a problem from {@link checkHl7Message} is one of the builders' documented length deviations
 * ({@link HL7_LENGTH_DEVIATIONS}): a `max-length` at one of those components. Filter them out to check the
 * builders' output for everything else.
 * @param problem - a problem from `checkHl7Message` (anything else gives false)
 * @returns whether it is a documented deviation
 * @example checkHl7Message(text).filter((p) => !isHl7LengthDeviation(p)) // [] for any message the builders emit
 */
export function isHl7LengthDeviation(problem: Hl7Problem): boolean {
  if (typeof problem !== 'object' || problem === null) return false;
  const { code, position } = problem as { code?: unknown; position?: unknown };
  return code === 'max-length' && typeof position === 'string' && DEVIATION_POSITION_RE.test(position);
}
