/**
 * An independent check of HL7 v2.5.1 messages against the definitions in `hl7-dictionary` (segments with
 * each field's data type, optionality, repetition and length; data types with their components; HL7 tables;
 * abstract message structures with their groups), a data set generated from the standard's database and
 * kept apart from `src/hl7/definitions.ts`, which `checkHl7Message` uses. It reads the raw text itself
 * (split on the delimiters MSH declares), so it shares no code with the package's parser either.
 *
 * Lengths are compared with the encoded text (escape sequences counted as sent), the stricter reading.
 */
import { createRequire } from 'node:module';
import { HL7_LENGTH_DEVIATIONS } from '../../src/index.js';

/**
 * The package's documented length deviations (`HL7_LENGTH_DEVIATIONS`) as this check writes positions:
 * `PID-3.1`, `PID-3[2].1`, in any repetition.
 */
const DICTIONARY_DEVIATION_POSITIONS = new RegExp(`^(?:${HL7_LENGTH_DEVIATIONS.map((d) => `${d.field}(?:\\[\\d+\\])?\\.${d.component}`).join('|')})$`);

export interface FieldDefinition {
  readonly datatype: string;
  readonly desc: string;
  /** 1 optional, 2 required, 3 conditional. */
  readonly opt: number;
  /** 1 = not repeating; 0 = unbounded; n = at most n. */
  readonly rep: number;
  readonly len?: number;
  readonly table?: number;
}
export interface StructureNode {
  readonly name: string;
  readonly min: number;
  /** 0 = unbounded. */
  readonly max: number;
  readonly children?: readonly StructureNode[];
}
export interface VersionDefinitions {
  readonly segments: Record<string, { readonly fields: readonly FieldDefinition[] } | undefined>;
  readonly fields: Record<string, { readonly subfields: readonly FieldDefinition[] } | undefined>;
  readonly messages: Record<string, { readonly segments: { readonly segments: readonly StructureNode[] } } | undefined>;
}
interface Dictionary {
  readonly definitions: Record<string, VersionDefinitions>;
  readonly tables: Record<string, { readonly values?: Record<string, string> } | undefined>;
}

const dictionary = createRequire(import.meta.url)('hl7-dictionary') as Dictionary;
/** hl7-dictionary's v2.5.1 definitions: segments with their fields, data types with their components (`subfields`). */
export const V251 = dictionary.definitions['2.5.1'] as VersionDefinitions;

/** One departure from the v2.5.1 definitions, with where it is (`PID-5.1.1`, rep 2) and the rule. */
export interface DictionaryFinding {
  readonly segment: number;
  readonly position: string;
  readonly rule: 'unknown-segment' | 'structure' | 'extra-field' | 'required' | 'repetition' | 'length' | 'components' | 'table' | 'format';
  readonly detail: string;
}

/** v2.5.1 formats of the primitive types the builders send (chapter 2A). */
const FORMATS: Record<string, RegExp> = {
  // SS may be 60: v2.5.1 gives no range for it, and ISO 8601 and FHIR allow a leap second.
  DTM: /^\d{4}(?:(?:0[1-9]|1[0-2])(?:(?:0[1-9]|[12]\d|3[01])(?:(?:[01]\d|2[0-3])(?:[0-5]\d(?:(?:[0-5]\d|60)(?:\.\d{1,4})?)?)?)?)?)?(?:[+-](?:[01]\d|2[0-3])[0-5]\d)?$/,
  DT: /^\d{4}(?:(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])?)?$/,
  TM: /^(?:[01]\d|2[0-3])(?:[0-5]\d(?:[0-5]\d(?:\.\d{1,4})?)?)?(?:[+-](?:[01]\d|2[0-3])[0-5]\d)?$/,
  NM: /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/,
  SI: /^\d{1,4}$/,
};

/**
 * v2.5.1 values the dictionary's tables lack. Its tables are one set for every version, taken from a later one,
 * so they miss values v2.5.1 has; each exception below is v2.5.1's own table text.
 */
const V251_TABLE_VALUES: Record<number, ((value: string) => boolean) | undefined> = {
  // 0125 value type: v2.5.1 still has CE and TS (later versions replaced them with CWE and DTM).
  125: (v) => v === 'CE' || v === 'TS',
  // 0396 coding system: "HL7nnnn" names HL7 table nnnn, "99zzz or L" a local code system.
  396: (v) => /^HL7\d{4}$/.test(v) || v === 'L' || /^99[A-Za-z0-9]{3}$/.test(v),
  // 0359 diagnosis priority: "2 … and higher" for ranked secondary diagnoses.
  359: (v) => /^[1-9]\d?$/.test(v),
};

/** The components of a v2.5.1 data type (none for a primitive type). */
function componentsOf(datatype: string): readonly FieldDefinition[] {
  return V251.fields[datatype]?.subfields ?? [];
}

/**
 * Check one value against a data type: components (split by `sep[0]`, then sub-components by `sep[1]`),
 * lengths, required components of a valued composite, table values of ID fields and primitive formats.
 */
function checkValue(value: string, def: FieldDefinition, separators: readonly string[], position: string, segment: number, out: DictionaryFinding[]): void {
  if (def.len !== undefined && value.length > def.len) out.push({ segment, position, rule: 'length', detail: `${value.length} characters, at most ${def.len} (${def.datatype})` });
  const components = componentsOf(def.datatype);
  const [separator, ...inner] = separators;
  if (components.length === 0 || separator === undefined) {
    if (separator !== undefined && value.includes(separator)) out.push({ segment, position, rule: 'components', detail: `${def.datatype} has no components` });
    const format = FORMATS[def.datatype];
    if (format !== undefined && value !== '' && value !== '""' && !format.test(value)) out.push({ segment, position, rule: 'format', detail: `not a ${def.datatype}: ${JSON.stringify(value)}` });
    const table = def.table !== undefined && def.datatype === 'ID' ? dictionary.tables[String(def.table)]?.values : undefined;
    if (table !== undefined && value !== '' && value !== '""' && !(value in table) && !V251_TABLE_VALUES[def.table as number]?.(value)) {
      out.push({ segment, position, rule: 'table', detail: `${JSON.stringify(value)} is not in HL7 table ${String(def.table).padStart(4, '0')}` });
    }
    return;
  }
  const parts = value.split(separator);
  if (parts.length > components.length) out.push({ segment, position, rule: 'components', detail: `${parts.length} components, ${def.datatype} has ${components.length}` });
  const valued = value !== '' && value !== '""';
  components.forEach((component, i) => {
    const part = parts[i] ?? '';
    if (valued && part === '' && component.opt === 2) out.push({ segment, position: `${position}.${i + 1}`, rule: 'required', detail: `${component.desc} (${component.datatype}) is required in a valued ${def.datatype}` });
    if (part !== '') checkValue(part, component, inner, `${position}.${i + 1}`, segment, out);
  });
}

/** Segments the structure allows, matched against the message's segment ids; true when the whole list matches. */
function matchesStructure(nodes: readonly StructureNode[], ids: readonly string[]): boolean {
  // The set of positions reachable after each node: polynomial, and exact for ambiguous structures (ROL twice).
  const sequence = (list: readonly StructureNode[], starts: Set<number>): Set<number> => list.reduce((at, node) => repeat(node, at), starts);
  const once = (node: StructureNode, starts: Set<number>): Set<number> => {
    if (node.children !== undefined) return sequence(node.children, starts);
    const next = new Set<number>();
    for (const p of starts) if (ids[p] === node.name) next.add(p + 1);
    return next;
  };
  const repeat = (node: StructureNode, starts: Set<number>): Set<number> => {
    const reached = new Set<number>(node.min === 0 ? starts : []);
    let frontier = starts;
    for (let count = 1; frontier.size > 0 && (node.max === 0 || count <= node.max); count++) {
      const next = once(node, frontier);
      if (count < node.min) {
        frontier = next;
        continue;
      }
      // Go on only from positions not reached before: from those, fewer repetitions would remain.
      frontier = new Set([...next].filter((p) => !reached.has(p)));
      for (const p of frontier) reached.add(p);
    }
    return reached;
  };
  return sequence(nodes, new Set([0])).has(ids.length);
}

/**
 * Check an HL7 v2.5.1 message (as text) against hl7-dictionary's v2.5.1 definitions.
 * @returns every finding; an empty list for a message that conforms
 */
export function checkWithHl7Dictionary(text: string): DictionaryFinding[] {
  const out: DictionaryFinding[] = [];
  const lines = text.split(/\r\n|\r|\n/).filter((line, i, all) => !(line === '' && i === all.length - 1));
  const fieldSeparator = lines[0]?.charAt(3) ?? '|';
  const encoding = lines[0]?.split(fieldSeparator)[1] ?? '^~\\&';
  const [component = '^', repetition = '~', , subcomponent = '&'] = encoding;
  const ids: string[] = [];
  lines.forEach((line, index) => {
    const id = line.slice(0, 3);
    ids.push(id);
    const definition = V251.segments[id];
    if (definition === undefined) {
      out.push({ segment: index, position: id, rule: 'unknown-segment', detail: `${id} is not a v2.5.1 segment` });
      return;
    }
    // fields[n] = field n; MSH-1 is the field separator itself, MSH-2 the encoding characters.
    const fields = id === 'MSH' ? ['MSH', fieldSeparator, ...line.slice(4).split(fieldSeparator)] : line.split(fieldSeparator);
    for (let n = 1; n < Math.max(fields.length, definition.fields.length + 1); n++) {
      const value = fields[n] ?? '';
      const def = definition.fields[n - 1];
      const position = `${id}-${n}`;
      if (def === undefined) {
        if (value !== '') out.push({ segment: index, position, rule: 'extra-field', detail: `${id} has ${definition.fields.length} fields` });
        continue;
      }
      if (value === '') {
        if (def.opt === 2) out.push({ segment: index, position, rule: 'required', detail: `${def.desc} is required` });
        continue;
      }
      if (id === 'MSH' && n <= 2) {
        if (def.len !== undefined && value.length > def.len) out.push({ segment: index, position, rule: 'length', detail: `${value.length} characters, at most ${def.len}` });
        continue;
      }
      const reps = value.split(repetition);
      if (def.rep === 1 && reps.length > 1) out.push({ segment: index, position, rule: 'repetition', detail: `${def.desc} does not repeat (${reps.length} repetitions)` });
      // OBX-5 (VARIES) takes the type OBX-2 names.
      const effective = def.datatype === 'VARIES' && id === 'OBX' ? { ...def, datatype: fields[2] ?? 'ST' } : def;
      reps.forEach((rep, r) => checkValue(rep, effective, [component, subcomponent], reps.length > 1 ? `${position}[${r + 1}]` : position, index, out));
    }
  });
  const structure = lines[0]?.split(fieldSeparator)[8]?.split(component)[2];
  const message = structure !== undefined ? V251.messages[structure] : undefined;
  if (message === undefined) out.push({ segment: 0, position: 'MSH-9.3', rule: 'structure', detail: `no v2.5.1 message structure ${JSON.stringify(structure)}` });
  else if (!matchesStructure(message.segments.segments, ids)) out.push({ segment: 0, position: 'message', rule: 'structure', detail: `${ids.join(' ')} does not match ${structure}` });
  return out;
}

/**
 * The findings of {@link checkWithHl7Dictionary} that are not documented deviations (identifiers sent whole,
 * see `hl7-deviations.ts`).
 * @param text - the message
 * @returns findings a conforming message must not have
 */
export function unexpectedDictionaryFindings(text: string): DictionaryFinding[] {
  return checkWithHl7Dictionary(text).filter((f) => !(f.rule === 'length' && DICTIONARY_DEVIATION_POSITIONS.test(f.position)));
}
