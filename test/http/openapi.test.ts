/**
 * createOpenApiDocument: a valid OpenAPI 3.1 document (Redocly's recommended-strict rules, with
 * @redocly/openapi-core), faithful to the route table and the limits in force, and a checker
 * (support/openapi-check.ts) that refuses what the description does not allow. Every answer of the HTTP
 * tests goes through that checker (support/harness.ts).
 */
import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { EXPORT_ROUTES } from '../../src/http/routes/route-table.js';
import { DEFAULT_LIMITS, createOpenApiDocument, type OpenApiDocument, type OpenApiDocumentOptions } from '../../src/http/index.js';
import { KEYS, PATIENT_ID } from './support/fixture.js';
import { fixtureOptions, serve } from './support/harness.js';
import { describedFor, findOpenApiProblems, type Exchange } from './support/openapi-check.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => value as Json;

/** Redocly's problems for a document, as `rule pointer: message` lines. */
async function lint(document: OpenApiDocument): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended-strict'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: '/openapi.json', config });
  return problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
}

describe('createOpenApiDocument', () => {
  it.each<[string, OpenApiDocumentOptions]>([
    ['the defaults', {}],
    ['a base path, a server URL, other limits and no operational routes', {
      basePath: '/api/export/',
      serverUrl: 'https://export.example.org',
      limits: { notes: { default: 1, max: 2 }, directory: { max: 10 } },
      operationalRoutes: false,
    }],
  ])('should pass the OpenAPI 3.1 lint with %s', async (_what, options) => {
    expect(await lint(createOpenApiDocument(options))).toEqual([]);
  });

  it('should fail the lint when the description breaks a rule (the lint is live)', async () => {
    const broken = structuredClone(createOpenApiDocument()) as unknown as Json;
    obj(obj(obj(broken['paths'])['/exportFhirPatient'])['get'])['security'] = [{ bearer: [] }];
    obj(obj(obj(broken['paths'])['/exportHl7Note'])['get'])['parameters'] = [{ name: 'patientId', in: 'body' }];
    const problems = await lint(broken as unknown as OpenApiDocument);
    expect(problems.join('\n')).toMatch(/^security-defined .*exportFhirPatient/m);
    expect(problems.join('\n')).toMatch(/^struct .*exportHl7Note/m);
  });

  it('should describe the eleven routes with GET, HEAD and the 405 of other methods, their parameters and scopes', () => {
    const document = createOpenApiDocument({ operationalRoutes: false, bulkRoutes: false });
    expect(Object.keys(document.paths)).toEqual(EXPORT_ROUTES.map((r) => r.path));
    for (const route of EXPORT_ROUTES) {
      const item = obj(document.paths[route.path]);
      expect(Object.keys(item)).toEqual(['get', 'head', 'x-other-methods']);
      for (const method of ['get', 'head']) {
        const operation = obj(item[method]);
        expect(operation['security'], route.name).toEqual(route.scope === undefined ? [] : [{ apiKey: [route.scope] }]);
        const parameters = (operation['parameters'] as Json[]).map((p) => obj(obj(document.components['parameters'])[String(p['$ref']).split('/').pop() as string]));
        expect(parameters.map((p) => [p['name'], p['in'], p['required']])).toEqual([
          ...route.parameters.map((p) => [p.name, 'query', p.required]),
          ['x-request-id', 'header', false],
        ]);
      }
      expect(Object.keys(obj(obj(item['x-other-methods'])['responses']))).toEqual(['405']);
    }
  });

  it('should list every status each route answers with', () => {
    const document = createOpenApiDocument();
    const statuses = (path: string, method: string): string[] => Object.keys(obj(obj(obj(document.paths[path])[method])['responses']));
    const keyed = ['200', '400', '401', '403', '404', '406', '429', '500', '503'];
    for (const route of EXPORT_ROUTES) {
      const expected = route.scope === undefined ? ['200', '400', '406', '429', '500', '503'] : keyed;
      expect(statuses(route.path, 'get'), route.name).toEqual(expected);
      expect(statuses(route.path, 'head'), route.name).toEqual(expected);
    }
    expect(Object.keys(obj(obj(document['x-unmatched-path'])['responses']))).toEqual(['404']);
  });

  it('should describe the limits in force: the documented defaults, or the handler options given', () => {
    const parameter = (document: OpenApiDocument, name: string): Json => obj(obj(document.components['parameters'])[name]);
    const defaults = createOpenApiDocument();
    for (const [component, limit] of [
      ['encounterLimit', 'encounters'],
      ['noteLimit', 'notes'],
      ['assessmentLimit', 'assessments'],
      ['medicalHistoryLimit', 'medicalHistory'],
      ['summaryLimit', 'summary'],
      ['directoryLimit', 'directory'],
    ] as const) {
      const schema = obj(parameter(defaults, component)['schema']);
      expect([schema['default'], schema['x-maximum-honoured'], schema['minimum']], component).toEqual([DEFAULT_LIMITS[limit].default, DEFAULT_LIMITS[limit].max, 0]);
    }
    const custom = createOpenApiDocument({ limits: { notes: { default: 1, max: 2 }, directory: { max: 10 } } });
    expect(obj(parameter(custom, 'noteLimit')['schema'])['default']).toBe(1);
    expect(String(parameter(custom, 'noteLimit')['description'])).toContain('a value above 2 is read as 2');
    // A lower maximum lowers the default, as in the handler.
    expect(obj(parameter(custom, 'directoryLimit')['schema'])).toMatchObject({ default: 10, 'x-maximum-honoured': 10 });
  });

  it('should refuse the base paths and limits the handler refuses', () => {
    for (const options of [
      { basePath: '/api?x=1' },
      { basePath: '/api#top' },
      { limits: { notes: { default: 5, max: 2 } } },
      { limits: { encounters: { max: -1 } } },
      { limits: { summary: { default: 1.5 } } },
      { serverUrl: '' },
    ]) {
      expect(() => createOpenApiDocument(options), JSON.stringify(options)).toThrow(InvalidArgumentError);
    }
  });

  it('should mount the export routes and the operational routes under the normalised base path, and name the server', () => {
    const document = createOpenApiDocument({ basePath: 'api/v1/', serverUrl: 'https://export.example.org' });
    expect(Object.keys(document.paths)).toEqual([
      ...EXPORT_ROUTES.map((r) => `/api/v1${r.path}`),
      '/api/v1/healthz',
      '/api/v1/readyz',
      '/api/v1/metrics',
      '/api/v1/openapi.json',
      '/api/v1/metadata',
      '/api/v1/$export',
      '/api/v1/Patient/$export',
      '/api/v1/Group/{groupId}/$export',
      '/api/v1/bulkstatus/{jobId}',
      '/api/v1/bulkfiles/{jobId}/{file}',
    ]);
    expect(document.servers).toEqual([{ url: 'https://export.example.org' }]);
    for (const path of ['/api/v1/healthz', '/api/v1/readyz', '/api/v1/metrics', '/api/v1/openapi.json']) {
      expect(obj(obj(document.paths[path])['get'])['x-served-when-enabled'], path).toBe(true);
      expect(obj(obj(document.paths[path])['get'])['security'], path).toEqual([]);
    }
  });

  it('should be plain JSON, a new object on each call, with the package version', () => {
    const document = createOpenApiDocument();
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    expect(createOpenApiDocument()).not.toBe(document);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(document.info.version).toBe(pkg.version);
    expect(createOpenApiDocument({ version: '2.0.0' }).info.version).toBe('2.0.0');
    expect(document.openapi).toBe('3.1.1');
  });
});

describe('the OpenAPI answer check', () => {
  const described = describedFor(undefined);
  const HL7_NOTE: Exchange = {
    method: 'GET',
    target: '/exportHl7Note?patientId=p&noteId=n',
    status: 200,
    headers: {
      'x-request-id': 'a',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-length': '30',
      vary: 'Accept',
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '9',
      'x-ratelimit-reset': '1767225600',
      'content-type': 'application/hl7-v2; charset=utf-8',
    },
    body: 'MSH|^~\\&|||||20260101||MDM^T02^MDM_T02|MDM1|P|2.5.1',
  };
  const without = (headers: Record<string, string>, name: string): Record<string, string> =>
    Object.fromEntries(Object.entries(headers).filter(([n]) => n !== name));

  it('should accept a conforming answer', () => {
    expect(findOpenApiProblems(described, HL7_NOTE)).toEqual([]);
    expect(findOpenApiProblems(described, { ...HL7_NOTE, method: 'HEAD', body: '' })).toEqual([]);
  });

  it.each<[string, Partial<Exchange>, RegExp]>([
    ['a status the route does not list', { status: 418 }, /answered 418, which the description does not list/],
    ['a 401 on the public directory', { target: '/publicFhirDirectory?resourceType=Location', status: 401 }, /does not list/],
    ['another media type', { headers: { ...HL7_NOTE.headers, 'content-type': 'x-application/hl7-v2+er7' } }, /Content-Type x-application\/hl7-v2\+er7 is not described/],
    ['a missing required header', { headers: without(HL7_NOTE.headers, 'x-ratelimit-remaining') }, /required header x-ratelimit-remaining is missing/],
    ['an undescribed header', { headers: { ...HL7_NOTE.headers, 'set-cookie': 'a=1' } }, /header set-cookie is sent but not described/],
    ['a header value its schema refuses', { headers: { ...HL7_NOTE.headers, 'x-ratelimit-reset': 'soon' } }, /x-ratelimit-reset: "soon"/],
    ['another message type', { body: HL7_NOTE.body.replace('MDM^T02^MDM_T02', 'ADT^A31^ADT_A05') }, /body .*must match pattern/],
    ['a HEAD answer with a body', { method: 'HEAD' }, /HEAD answered with a body/],
    ['a 200 to another method', { method: 'POST' }, /x-other-methods of \/exportHl7Note answered 200/],
    ['a 200 on an unknown path', { target: '/nowhere' }, /x-unmatched-path .* answered 200/],
    ['an error body with another code', {
      status: 403,
      headers: { ...without(HL7_NOTE.headers, 'vary'), 'content-type': 'application/problem+json' },
      body: JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, detail: 'd', code: 'rate-limited', requestId: 'a' }),
    }, /body \/code must be equal to one of the allowed values/],
    ['a FHIR error body that is not an OperationOutcome', {
      target: '/exportFhirNote?patientId=p&noteId=n',
      status: 404,
      headers: { ...HL7_NOTE.headers, 'content-type': 'application/fhir+json; charset=utf-8' },
      body: '{"resourceType":"Bundle"}',
    }, /body \/resourceType must be equal to constant/],
  ])('should refuse %s', (_what, change, message) => {
    expect(findOpenApiProblems(described, { ...HL7_NOTE, ...change }).join('\n')).toMatch(message);
  });

  describe('on the answers of a handler without the operational routes', () => {
    let call: Awaited<ReturnType<typeof serve>>;
    beforeAll(async () => {
      call = await serve('fetch', await fixtureOptions());
    });

    it('should find the 404 of each operational route described as "not enabled"', async () => {
      for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json']) expect((await call(path)).status).toBe(404);
    });

    it('should find a keyed answer and a HEAD answer conforming', async () => {
      expect((await call(`/exportHl7PatientSummary?patientId=${PATIENT_ID}`, { headers: { 'x-api-key': KEYS.both } })).status).toBe(200);
      expect((await call(`/exportFhirPatientBundle?patientId=${PATIENT_ID}`, { method: 'HEAD', headers: { 'x-api-key': KEYS.both } })).status).toBe(200);
    });
  });
});
