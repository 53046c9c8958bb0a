/**
 * Checks an HTTP answer against the OpenAPI description of `createOpenApiDocument`: the route and method are
 * described, the status is one the operation lists, the Content-Type is one of that response's media types,
 * every required header is there, no header is sent that the response does not describe, every header value
 * and the body pass their schemas (Ajv, JSON Schema 2020-12, as OpenAPI 3.1 uses). The harness runs it on
 * every answer the HTTP tests see, so the description cannot drift from what the handler sends.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { createOpenApiDocument, type OpenApiDocument } from '../../../src/http/index.js';

/** One request and the answer it got, as the harness reports it (lowercase header names). */
export interface Exchange {
  readonly method: string;
  /** The request target (`/exportFhirPatient?patientId=…`). */
  readonly target: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

type Json = Record<string, unknown>;

/** Headers that belong to the transport, not to the description (Content-Type is checked against the media types). */
const NOT_DESCRIBED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-type']);
const SCHEMA_ID = 'urn:chart-export:openapi';

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A description with its compiled validators. */
export interface Described {
  readonly document: OpenApiDocument;
  readonly ajv: Ajv2020;
  readonly validators: WeakMap<object, ValidateFunction>;
}

/** Rewrite `#/components/schemas/X` references to the `$defs` of the registered schema document. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', `${SCHEMA_ID}#/$defs/`) : rewriteRefs(v);
  }
  return out;
}

function compileDescription(document: OpenApiDocument): Described {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: SCHEMA_ID, $defs: rewriteRefs(document.components['schemas']) as Json });
  return { document, ajv, validators: new WeakMap() };
}

const byBasePath = new Map<string, Described>();

/**
 * The description of a handler mounted at `basePath`, with its validators (built once per base path).
 * @param basePath - the handler's `basePath` option
 */
export function describedFor(basePath: string | undefined): Described {
  const key = basePath ?? '';
  let found = byBasePath.get(key);
  if (found === undefined) {
    found = compileDescription(createOpenApiDocument({ basePath }));
    byBasePath.set(key, found);
  }
  return found;
}

/** Follow a local `$ref` (`#/components/headers/requestId`). */
function resolve(document: OpenApiDocument, value: unknown): Json {
  let current: unknown = value;
  for (let depth = 0; isObject(current) && typeof current['$ref'] === 'string' && depth < 8; depth++) {
    const pointer = (current['$ref'] as string).replace(/^#\//, '').split('/');
    let target: unknown = document;
    for (const part of pointer) target = isObject(target) ? target[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    current = target;
  }
  if (!isObject(current)) throw new Error(`unresolvable reference ${JSON.stringify(value)}`);
  return current;
}

function validate(described: Described, schema: Json, value: unknown): string[] {
  let validator = described.validators.get(schema);
  if (validator === undefined) {
    validator = described.ajv.compile(rewriteRefs(schema) as Json);
    described.validators.set(schema, validator);
  }
  if (validator(value)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}

/** Media types compared as written, case and white space around `;` aside. */
const normaliseMediaType = (type: string): string => type.trim().toLowerCase().replace(/\s*;\s*/g, '; ');

/** The responses object that applies to a method on a path, and a label naming it. */
function responsesFor(document: OpenApiDocument, method: string, pathname: string): { responses: Json; label: string } | string {
  let item = document.paths[pathname];
  // A templated path (`/bulkstatus/{jobId}`): each `{name}` stands for one segment.
  item ??= Object.entries(document.paths).find(([path]) => path.includes('{') && templateMatches(path, pathname))?.[1];
  if (item === undefined) {
    const unmatched = document['x-unmatched-path'];
    if (!isObject(unmatched) || !isObject(unmatched['responses'])) return 'the description has no path and no x-unmatched-path';
    return { responses: unmatched['responses'], label: `x-unmatched-path (${pathname} is no path of the description)` };
  }
  const operation = item[method.toLowerCase()];
  if (isObject(operation) && isObject(operation['responses'])) {
    return { responses: operation['responses'], label: `${method} ${pathname}` };
  }
  const others = item['x-other-methods'];
  if ((operation === undefined || (method !== 'GET' && method !== 'HEAD')) && isObject(others) && isObject(others['responses'])) {
    return { responses: others['responses'], label: `x-other-methods of ${pathname}` };
  }
  return `${method} ${pathname} is not described`;
}

/** Whether `pathname` is an instance of the templated `path` (each `{name}` one non-empty segment). */
function templateMatches(path: string, pathname: string): boolean {
  const pattern = path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${pattern}$`).test(pathname);
}

/**
 * Everything in an answer that the description does not allow.
 * @param described - the description (see {@link describedFor})
 * @param exchange - the request and its answer
 * @returns one sentence per problem; empty when the answer conforms
 */
export function findOpenApiProblems(described: Described, exchange: Exchange): string[] {
  const { document } = described;
  const check = (schema: Json, value: unknown): string[] => validate(described, schema, value);
  const method = exchange.method.toUpperCase();
  const pathname = new URL(exchange.target, 'http://127.0.0.1').pathname;
  const found = responsesFor(document, method, pathname);
  if (typeof found === 'string') return [found];
  const listed = found.responses[String(exchange.status)];
  const response = listed === undefined ? undefined : resolve(document, listed);
  if (!isObject(response)) {
    return [`${found.label} answered ${exchange.status}, which the description does not list (it lists ${Object.keys(found.responses).join(', ')})`];
  }
  const problems: string[] = [];
  const at = `${found.label} ${exchange.status}`;

  // Headers: each required one present, each present one described, each value valid.
  const declared = isObject(response['headers']) ? response['headers'] : {};
  for (const [name, value] of Object.entries(declared)) {
    const h = resolve(document, value);
    if (h['required'] === true && exchange.headers[name] === undefined) problems.push(`${at}: the required header ${name} is missing`);
  }
  for (const [name, value] of Object.entries(exchange.headers)) {
    if (NOT_DESCRIBED.has(name)) continue;
    const entry = declared[name];
    if (entry === undefined) {
      problems.push(`${at}: the header ${name} is sent but not described`);
      continue;
    }
    const schema = resolve(document, entry)['schema'];
    if (!isObject(schema)) continue;
    const typed = schema['type'] === 'integer' && /^-?[0-9]+$/.test(value) ? Number(value) : value;
    for (const p of check(schema, typed)) {
      problems.push(`${at}: the header ${name}: ${JSON.stringify(value)} ${p}`);
    }
  }

  // Content-Type and body.
  const content = isObject(response['content']) ? response['content'] : undefined;
  const contentType = exchange.headers['content-type'];
  if (content === undefined) {
    if (contentType !== undefined) problems.push(`${at}: Content-Type ${contentType} sent for a response described without content`);
    if (exchange.body !== '') problems.push(`${at}: a body sent for a response described without content`);
    return problems;
  }
  if (contentType === undefined) return [...problems, `${at}: no Content-Type (described: ${Object.keys(content).join(', ')})`];
  const mediaKey = Object.keys(content).find((k) => normaliseMediaType(k) === normaliseMediaType(contentType));
  if (mediaKey === undefined) return [...problems, `${at}: Content-Type ${contentType} is not described (described: ${Object.keys(content).join(', ')})`];
  if (method === 'HEAD') {
    if (exchange.body !== '') problems.push(`${at}: HEAD answered with a body`);
    return problems;
  }
  const media = content[mediaKey];
  const schema = isObject(media) ? media['schema'] : undefined;
  if (!isObject(schema)) return problems;
  let value: unknown = exchange.body;
  if (/[/+]json(;|$)/.test(normaliseMediaType(mediaKey))) {
    try {
      value = JSON.parse(exchange.body);
    } catch {
      return [...problems, `${at}: the ${mediaKey} body is not JSON`];
    }
  }
  for (const p of check(schema, value)) problems.push(`${at}: body ${p}`);
  return problems;
}

/**
 * Throw when an answer does not conform to the description, naming the request and every problem.
 * @param basePath - the handler's `basePath` option
 * @param exchange - the request and its answer
 */
export function expectConformingAnswer(basePath: string | undefined, exchange: Exchange): void {
  const problems = findOpenApiProblems(describedFor(basePath), exchange);
  if (problems.length > 0) {
    throw new Error(`The answer to ${exchange.method} ${exchange.target} does not conform to the OpenAPI description:\n- ${problems.join('\n- ')}`);
  }
}
