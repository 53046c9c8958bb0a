/**
 * Segment order: a message's segment sequence against its HL7 v2.5.1 abstract message structure (required,
 * optional and repeating segments and groups, order).
 *
 * The structure is compiled into a Glushkov automaton (one state per segment position in the grammar), so
 * groups, optional parts and repeats are matched exactly, ambiguity included (the two `[{ROL}]` of ADT_A01,
 * the two OBX places of ORU_R01). On a segment that cannot follow, the check first tries to explain it by
 * missing required segments (reporting those), else reports it as out of order or foreign, skips it and goes
 * on, so one message yields every problem, not only the first.
 * @see HL7 v2.5.1 chapter 2, 2.12 "Message construction rules"
 */
import type { Hl7Segment } from '../parser.js';
import { cachedDefinition } from '../internal/speed-ups.js';
import { HL7_MESSAGE_STRUCTURES } from './definitions.js';
import type { Hl7Problem } from './problems.js';


/** A segment position of a structure: one state of the automaton. */
interface Position {
  readonly id: string;
  /** Names of the enclosing groups, outermost first. */
  readonly groups: readonly string[];
}

/** A message structure compiled for matching: its segment positions and which may follow which. */
export interface Automaton {
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


/** Compiled structures by name, compiled on first use (the table is fixed, so they never change). */
const automata = new Map<string, Automaton>();

/**
 * The automaton of a message structure named in `HL7_MESSAGE_STRUCTURES`.
 * @param structure - the structure name, e.g. `MDM_T02` (from the message, so any text)
 * @returns the automaton, or undefined for a structure the check does not know
 * @example findStructureAutomaton('MDM_T02')?.name // 'MDM_T02'
 */
export function findStructureAutomaton(structure: string): Automaton | undefined {
  return cachedDefinition(automata, structure, () => {
    // Own keys only: the name comes from MSH-9.3 and may be `constructor` or `__proto__`.
    const spec = Object.hasOwn(HL7_MESSAGE_STRUCTURES, structure) ? HL7_MESSAGE_STRUCTURES[structure] : undefined;
    return spec === undefined ? undefined : compileStructure(structure, spec);
  });
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

/**
 * Check a segment sequence against a structure: missing required segments, segments out of order, segments
 * the structure does not have, and required segments missing at the end.
 * @param a - the structure's automaton
 * @param segments - the message's segments
 * @param problems - where problems are added
 * @returns nothing
 * @example checkSegmentSequence(findStructureAutomaton('MDM_T02'), parsed.segments, problems)
 */
export function checkSegmentSequence(a: Automaton, segments: readonly Hl7Segment[], problems: Hl7Problem[]): void {
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
