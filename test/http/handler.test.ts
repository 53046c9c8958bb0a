/**
 * The export handler's behaviour, written once and run twice: against the fetch handler and against the
 * Node listener on a real node:http server (test/http/support/harness.ts).
 */
import { get as httpGet } from 'node:http';
import util from 'node:util';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ChartNotFoundError, InvalidArgumentError } from '../../src/index.js';
import {
  DataSourceUnavailableError,
  createExportHandler,
  createFixedWindowRateLimiter,
  createInMemoryDataSource,
  createInMemoryKeyStore,
  type ChartDataSource,
  type ExportHandlerOptions,
  type ExportObservation,
  type ExportRouteName,
  toNodeListener,
} from '../../src/http/index.js';
import { expectError, expectFhir, expectHl7, expectNoLeak, hl7Segments, type OutcomeBody, type ProblemBody } from './support/bodies.js';
import { CHART_DOCUMENT, KEYS, ODD_PATIENT_ID, OTHER_PATIENT_ID, PATIENT_ID } from './support/fixture.js';
import { NOW_MS, describeMatrix, failingDataSource, fixtureKeys, fixtureOptions, listen, serve, type Caller, type Mode } from './support/harness.js';
import { flipping, revokedProxy, throwingProxy } from './support/hostile.js';

const P = PATIENT_ID;
const key = (k: string): Record<string, string> => ({ 'x-api-key': k });
const BOTH = key(KEYS.both);

interface RouteCase {
  readonly route: ExportRouteName;
  readonly path: string;
  readonly format: 'fhir' | 'hl7';
  readonly keyed: boolean;
  /** MSH-9 of HL7 routes. */
  readonly messageType?: string;
}

const ROUTES: readonly RouteCase[] = [
  { route: 'exportFhirPatient', path: `/exportFhirPatient?patientId=${P}`, format: 'fhir', keyed: true },
  { route: 'exportFhirPatientBundle', path: `/exportFhirPatientBundle?patientId=${P}`, format: 'fhir', keyed: true },
  { route: 'exportFhirEncounter', path: `/exportFhirEncounter?patientId=${P}&encounterId=enc-0003`, format: 'fhir', keyed: true },
  { route: 'exportFhirNote', path: `/exportFhirNote?patientId=${P}&noteId=note-0002`, format: 'fhir', keyed: true },
  { route: 'exportFhirAssessment', path: `/exportFhirAssessment?patientId=${P}&assessmentId=asmt-0002`, format: 'fhir', keyed: true },
  { route: 'publicFhirDirectory', path: '/publicFhirDirectory?resourceType=Organization', format: 'fhir', keyed: false },
  { route: 'exportHl7PatientAdt', path: `/exportHl7PatientAdt?patientId=${P}`, format: 'hl7', keyed: true, messageType: 'ADT^A31^ADT_A05' },
  { route: 'exportHl7PatientSummary', path: `/exportHl7PatientSummary?patientId=${P}`, format: 'hl7', keyed: true, messageType: 'ADR^A19^ADR_A19' },
  { route: 'exportHl7Encounter', path: `/exportHl7Encounter?patientId=${P}&encounterId=enc-0003`, format: 'hl7', keyed: true, messageType: 'ADT^A08^ADT_A01' },
  { route: 'exportHl7Note', path: `/exportHl7Note?patientId=${P}&noteId=note-0002`, format: 'hl7', keyed: true, messageType: 'MDM^T02^MDM_T02' },
  { route: 'exportHl7Assessment', path: `/exportHl7Assessment?patientId=${P}&assessmentId=asmt-0002`, format: 'hl7', keyed: true, messageType: 'ORU^R01^ORU_R01' },
];
const PATIENT_ROUTES = ROUTES.filter((r) => r.keyed);
const errorFormat = (r: RouteCase): 'fhir' | 'problem' => (r.format === 'fhir' ? 'fhir' : 'problem');

/** Replace one query parameter of a path (or drop it with `undefined`). */
function withParam(path: string, name: string, value: string | undefined): string {
  const [p, q = ''] = path.split('?') as [string, string?];
  const pieces = q.split('&').filter((x) => x !== '' && !x.startsWith(`${name}=`));
  if (value !== undefined) pieces.push(`${name}=${value}`);
  return `${p}?${pieces.join('&')}`;
}

function countByType(bundle: { entry?: { resource: { resourceType: string } }[] }, type: string): number {
  return (bundle.entry ?? []).filter((e) => e.resource.resourceType === type).length;
}

const EPOCH_WINDOW_END = Date.UTC(2026, 2, 2, 12, 1, 0) / 1000;

describeMatrix('createExportHandler', (mode: Mode) => {
  let call: Caller;
  beforeAll(async () => {
    call = await serve(mode, await fixtureOptions());
  });

  describe('routes', () => {
    it.each(ROUTES)('should serve $route with GET and a valid body', async (r) => {
      // Act
      const res = await call(r.path, { headers: BOTH });
      // Assert
      if (r.format === 'fhir') {
        const bundle = expectFhir(res);
        expect(bundle['resourceType']).toBe('Bundle');
        if (r.keyed) {
          expect(bundle['type']).toBe('collection');
          expect(bundle.entry?.[0]?.resource.resourceType).toBe('Patient');
        } else {
          expect(bundle['type']).toBe('searchset');
        }
      } else {
        const segments = expectHl7(res, r.messageType as string);
        const pid = segments.find((s) => s[0] === 'PID');
        expect(pid?.[3]).toContain('MRN-000123');
      }
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expectNoLeak(res);
    });

    it.each(ROUTES)('should answer HEAD on $route with the GET headers and no body', async (r) => {
      // Arrange
      const headers = { ...BOTH, 'x-request-id': 'head-check-1' };
      // Act
      const get = await call(r.path, { headers });
      const head = await call(r.path, { method: 'HEAD', headers });
      // Assert
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      const { 'x-ratelimit-remaining': getRemaining, ...getRest } = get.headers;
      const { 'x-ratelimit-remaining': headRemaining, ...headRest } = head.headers;
      expect(headRest).toEqual(getRest);
      if (r.keyed) expect(Number(headRemaining)).toBe(Number(getRemaining) - 1);
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    });

    it.each(ROUTES.flatMap((r) => ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].map((method) => ({ ...r, method }))))(
      'should answer $method on $route with 405 and Allow',
      async (r) => {
        const res = await call(r.path, { method: r.method, headers: BOTH });
        expect(expectError(res, 405, errorFormat(r))).toBe('method-not-allowed');
        expect(res.headers['allow']).toBe('GET, HEAD');
      },
    );

    it.each([
      '/',
      '/exportFhirPatient/',
      '/exportfhirpatient',
      '/exportFhirPatient/extra',
      '/export%46hirPatient',
      '/api/exportFhirPatient',
      '/exportFhirPatients',
      '/favicon.ico',
    ])('should answer the unknown path %s with 404 problem+json', async (path) => {
      const res = await call(`${path}?patientId=${P}`, { headers: BOTH });
      expect(expectError(res, 404, 'problem')).toBe('route-not-found');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('should mount the routes under a base path', async () => {
      // Arrange
      const mounted = await serve(mode, await fixtureOptions({ basePath: '/api/v1/' }));
      // Act
      const under = await mounted(`/api/v1/exportFhirPatient?patientId=${P}`, { headers: BOTH });
      const directory = await mounted('/api/v1/publicFhirDirectory?resourceType=Location');
      const root = await mounted(`/exportFhirPatient?patientId=${P}`, { headers: BOTH });
      const glued = await mounted(`/api/v1exportFhirPatient?patientId=${P}`, { headers: BOTH });
      // Assert
      expectFhir(under);
      expectFhir(directory);
      expectError(root, 404, 'problem');
      expectError(glued, 404, 'problem');
    });

    it('should keep a base path that starts with two slashes as a path, not read its first segment as a host', async () => {
      // Arrange: targets sent as they are (the harness would resolve `//api` as an authority)
      const handler = createExportHandler(await fixtureOptions({ basePath: '//api/export' }));
      const raw = async (target: string): Promise<number> => {
        if (mode === 'fetch') return (await handler(new Request(`http://127.0.0.1${target}`))).status;
        const port = await listen(toNodeListener(handler));
        return new Promise<number>((resolve, reject) => {
          httpGet({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          }).on('error', reject);
        });
      };
      // Act
      const mounted = await raw('//api/export/publicFhirDirectory?resourceType=Location');
      const elsewhere = await raw('/export/publicFhirDirectory?resourceType=Location');
      // Assert
      expect(mounted).toBe(200);
      expect(elsewhere).toBe(404);
    });
  });

  describe('order of checks', () => {
    it('should check the route before the method', async () => {
      expect(expectError(await call('/nowhere', { method: 'POST' }), 404, 'problem')).toBe('route-not-found');
    });

    it('should check the method before the key', async () => {
      expect((await call(`/exportHl7PatientAdt?patientId=${P}`, { method: 'DELETE' })).status).toBe(405);
    });

    it.each(PATIENT_ROUTES)('should answer $route without a key with 401, before checking parameters', async (r) => {
      const res = await call(r.path.split('?')[0] as string);
      expect(expectError(res, 401, errorFormat(r))).toBe('api-key-missing');
      expect(res.headers['www-authenticate']).toBe('ApiKey header="x-api-key"');
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it.each([
      ['an empty key', ''],
      ['an unknown key', 'not-a-key-of-this-store'],
      ['a revoked key', KEYS.revoked],
      ['a key with white space around a valid one', `${KEYS.both}x`],
      ['a huge key', 'k'.repeat(4000)],
    ])('should answer %s with 401', async (_label, k) => {
      const fhir = await call(`/exportFhirPatient?patientId=${P}`, { headers: key(k) });
      const hl7 = await call(`/exportHl7PatientAdt?patientId=${P}`, { headers: key(k) });
      expect(expectError(fhir, 401, 'fhir')).toBe(k === '' ? 'api-key-missing' : 'api-key-invalid');
      expect(expectError(hl7, 401, 'problem')).toBe(k === '' ? 'api-key-missing' : 'api-key-invalid');
      expect(fhir.body.includes(k) && k !== '').toBe(false);
    });

    it('should answer a key without the route scope with 403, before parameters and data', async () => {
      // Arrange: the HL7-only key on FHIR routes and the reverse, with a missing parameter and an unknown patient.
      const fhir = await call('/exportFhirPatient', { headers: key(KEYS.hl7Only) });
      const hl7 = await call('/exportHl7Note?patientId=nobody', { headers: key(KEYS.fhirOnly) });
      // Assert
      expect(expectError(fhir, 403, 'fhir')).toBe('scope-missing');
      expect(expectError(hl7, 403, 'problem')).toBe('scope-missing');
      expect(hl7.body).toContain('hl7:export');
      // Every request with a valid key counts, so the 403 carries the rate-limit headers.
      expect(fhir.headers['x-ratelimit-limit']).toBe('1000');
    });

    it('should answer 429 with Retry-After once the key is over its limit, before parameters', async () => {
      // Arrange: the tiny key allows 2 requests per 60-second window; a fresh handler so the window is ours.
      const fresh = await serve(mode, await fixtureOptions());
      await fresh(`/exportFhirPatient?patientId=${P}`, { headers: key(KEYS.tiny) });
      await fresh(`/exportHl7PatientAdt?patientId=${P}`, { headers: key(KEYS.tiny) });
      // Act: a third request, with a missing parameter.
      const res = await fresh('/exportFhirPatient', { headers: key(KEYS.tiny) });
      const hl7 = await fresh(`/exportHl7PatientAdt?patientId=${P}`, { headers: key(KEYS.tiny) });
      // Assert: the clock stands at 12:00:30, the window ends at 12:01:00.
      expect(expectError(res, 429, 'fhir')).toBe('rate-limited');
      expect(expectError(hl7, 429, 'problem')).toBe('rate-limited');
      expect(res.headers['retry-after']).toBe('30');
      expect(res.headers['x-ratelimit-limit']).toBe('2');
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(res.headers['x-ratelimit-reset']).toBe(String(EPOCH_WINDOW_END));
    });

    it('should answer bad parameters with 400 before looking up an unknown patient', async () => {
      const res = await call('/exportFhirPatientBundle?patientId=nobody&noteLimit=-1', { headers: BOTH });
      expect(expectError(res, 400, 'fhir')).toBe('invalid-parameters');
    });

    it('should answer an unacceptable Accept with 406 after parameters and before data', async () => {
      const unknownPatient = await call('/exportHl7PatientAdt?patientId=nobody', { headers: { ...BOTH, accept: 'text/html' } });
      const badParams = await call('/exportHl7PatientAdt?patientId=', { headers: { ...BOTH, accept: 'text/html' } });
      expect(expectError(unknownPatient, 406, 'problem')).toBe('not-acceptable');
      expect(badParams.status).toBe(400);
    });

    it('should not need a key for the public directory, and ignore one', async () => {
      expectFhir(await call('/publicFhirDirectory?resourceType=Practitioner'));
      expectFhir(await call('/publicFhirDirectory?resourceType=Practitioner', { headers: key('garbage') }));
    });
  });

  describe('parameters', () => {
    it.each(PATIENT_ROUTES)('should answer $route without patientId with 400 naming it', async (r) => {
      const res = await call(withParam(r.path, 'patientId', undefined), { headers: BOTH });
      expect(expectError(res, 400, errorFormat(r))).toBe('invalid-parameters');
      expect(res.body).toContain('patientId');
    });

    it.each([
      ['empty', ''],
      ['129 characters long', 'p'.repeat(129)],
      ['led by white space', '%20pat-0001'],
      ['ended by white space', 'pat-0001%09'],
      ['holding a control character', 'pat%01-0001'],
      ['holding a tab', 'pat%09-0001'],
      ['holding a line feed', 'pat%0A-0001'],
      ['holding DEL', 'pat%7F-0001'],
      ['holding a C1 control (U+0085)', 'pat%C2%85-0001'],
      ['holding a lone surrogate', '%ED%A0%80'],
      ['a malformed percent-escape', '%zz'],
      ['truncated UTF-8', '%E2%82'],
    ])('should answer a patientId %s with 400', async (_label, value) => {
      const fhir = await call(`/exportFhirPatient?patientId=${value}`, { headers: BOTH });
      const hl7 = await call(`/exportHl7PatientAdt?patientId=${value}`, { headers: BOTH });
      expect(expectError(fhir, 400, 'fhir')).toBe('invalid-parameters');
      expect(expectError(hl7, 400, 'problem')).toBe('invalid-parameters');
    });

    it('should answer a duplicated parameter with 400 without echoing its values', async () => {
      const res = await call('/exportHl7PatientAdt?patientId=SECRET-VALUE-1&patientId=SECRET-VALUE-2', { headers: BOTH });
      expectError(res, 400, 'problem');
      const body = JSON.parse(res.body) as ProblemBody;
      expect(body.invalidParams).toEqual([{ name: 'patientId', reason: 'duplicated', detail: expect.any(String) }]);
      expect(res.body).not.toContain('SECRET-VALUE');
    });

    it.each([
      ['exportFhirEncounter', 'encounterId'],
      ['exportFhirNote', 'noteId'],
      ['exportFhirAssessment', 'assessmentId'],
      ['exportHl7Encounter', 'encounterId'],
      ['exportHl7Note', 'noteId'],
      ['exportHl7Assessment', 'assessmentId'],
    ])('should require %s.%s', async (route, param) => {
      const r = ROUTES.find((x) => x.route === route) as RouteCase;
      const res = await call(withParam(r.path, param, undefined), { headers: BOTH });
      expect(expectError(res, 400, errorFormat(r))).toBe('invalid-parameters');
      expect(res.body).toContain(param);
    });

    it.each([
      ['a word', 'abc', 'not-an-integer'],
      ['a decimal', '1.5', 'not-an-integer'],
      ['an exponent', '1e3', 'not-an-integer'],
      ['a plus sign', '%2B1', 'not-an-integer'],
      ['hexadecimal', '0x10', 'not-an-integer'],
      ['negative', '-1', 'negative'],
      ['minus zero', '-0', 'not-an-integer'],
      ['empty', '', 'empty'],
    ])('should answer a limit that is %s with 400', async (_label, value, reason) => {
      for (const [path, name] of [
        [`/exportFhirPatientBundle?patientId=${P}`, 'encounterLimit'],
        [`/exportFhirPatientBundle?patientId=${P}`, 'medicalHistoryLimit'],
        [`/exportHl7PatientSummary?patientId=${P}`, 'limit'],
        ['/publicFhirDirectory?resourceType=Location', 'limit'],
      ] as const) {
        const res = await call(`${path}&${name}=${value}`, { headers: BOTH });
        expect(res.status, `${path} ${name}`).toBe(400);
        if (path.startsWith('/exportHl7')) {
          expect((JSON.parse(res.body) as ProblemBody).invalidParams?.[0]).toMatchObject({ name, reason });
        } else {
          expect((JSON.parse(res.body) as OutcomeBody).issue[0]?.details?.text).toContain(name);
        }
      }
    });

    it('should answer a duplicated limit with 400', async () => {
      const res = await call(`/exportFhirPatientBundle?patientId=${P}&noteLimit=1&noteLimit=1`, { headers: BOTH });
      expectError(res, 400, 'fhir');
      expect(res.body).toContain('noteLimit');
    });

    it('should report every refused parameter at once', async () => {
      const res = await call('/exportHl7Note?noteLimit=1&noteId=a&noteId=b', { headers: BOTH });
      expectError(res, 400, 'problem');
      const body = JSON.parse(res.body) as ProblemBody;
      expect(body.invalidParams?.map((p) => [p.name, p.reason])).toEqual([
        ['patientId', 'missing'],
        ['noteId', 'duplicated'],
      ]);
      const fhir = await call('/exportFhirEncounter?encounterId=', { headers: BOTH });
      expect((JSON.parse(fhir.body) as OutcomeBody).issue.map((i) => i.code)).toEqual(['required', 'required']);
    });

    it.each([['Patient'], ['organization'], ['Organization,Location'], ['']])(
      'should answer the directory resourceType %j with 400',
      async (value) => {
        const res = await call(`/publicFhirDirectory?resourceType=${value}`);
        expect(expectError(res, 400, 'fhir')).toBe('invalid-parameters');
        expect(res.body).toContain('resourceType');
      },
    );

    it('should require the directory resourceType', async () => {
      expectError(await call('/publicFhirDirectory?limit=2'), 400, 'fhir');
    });

    it('should ignore unknown parameters and empty pieces, and read + as a space', async () => {
      expectFhir(await call(`/exportFhirPatient?patientId=${P}&_format=xml&unknown=1&unknown=2&&`, { headers: BOTH }));
      const plus = encodeURIComponent(ODD_PATIENT_ID).replace('%20', '+');
      expectFhir(await call(`/exportFhirPatient?&patientId=${plus}`, { headers: BOTH }));
    });

    it('should refuse a malformed percent-escape anywhere in the query string', async () => {
      const res = await call(`/exportHl7PatientAdt?patientId=${P}&unknown=%zz`, { headers: BOTH });
      expect(expectError(res, 400, 'problem')).toBe('invalid-parameters');
      expect(res.body).toContain('percent-escape');
    });
  });

  describe('not found', () => {
    it.each(PATIENT_ROUTES)('should answer $route for an unknown patient with 404', async (r) => {
      const res = await call(withParam(r.path, 'patientId', 'pat-9999'), { headers: BOTH });
      expect(expectError(res, 404, errorFormat(r))).toBe('not-found');
      expect(res.body).toContain('patient');
    });

    it.each([
      ['exportFhirEncounter', 'encounterId', 'enc-9001', 'encounter'],
      ['exportHl7Encounter', 'encounterId', 'enc-9001', 'encounter'],
      ['exportFhirNote', 'noteId', 'note-9001', 'note'],
      ['exportHl7Note', 'noteId', 'note-9001', 'note'],
      ['exportFhirAssessment', 'assessmentId', 'asmt-9001', 'assessment'],
      ['exportHl7Assessment', 'assessmentId', 'asmt-9001', 'assessment'],
    ])('should answer %s for a record of another patient with 404', async (route, param, value, kind) => {
      const r = ROUTES.find((x) => x.route === route) as RouteCase;
      const res = await call(withParam(r.path, param, value), { headers: BOTH });
      expect(expectError(res, 404, errorFormat(r))).toBe('not-found');
      expect(res.body).toContain(kind);
      // The owner gets it.
      const owner = await call(withParam(withParam(r.path, param, value), 'patientId', OTHER_PATIENT_ID), { headers: BOTH });
      expect(owner.status).toBe(200);
    });

    it.each([
      ['exportFhirEncounter', 'encounterId'],
      ['exportHl7Note', 'noteId'],
      ['exportFhirAssessment', 'assessmentId'],
    ])('should answer %s for a missing %s with 404', async (route, param) => {
      const r = ROUTES.find((x) => x.route === route) as RouteCase;
      expectError(await call(withParam(r.path, param, 'no-such-record'), { headers: BOTH }), 404, errorFormat(r));
    });

    it('should read null from the data source as not found, exactly as undefined', async () => {
      // Arrange: the in-memory source with every "not found" answered as null, as database clients often do.
      const source = createInMemoryDataSource(CHART_DOCUMENT);
      const nulls: ChartDataSource = { ...source };
      for (const name of ['getPatient', 'getEncounter', 'getNote', 'getAssessment', 'getMedicalHistoryEntry', 'getOrganization', 'getPractitioner', 'getLocation'] as const) {
        const read = source[name] as (...args: unknown[]) => Promise<unknown>;
        (nulls as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => read(...args).then((found) => found ?? null);
      }
      const withNulls = await serve(mode, await fixtureOptions({ dataSource: nulls }));
      const plain = await serve(mode, await fixtureOptions({ dataSource: { ...source } }));
      const paths = [
        ...ROUTES.map((r) => r.path),
        ...PATIENT_ROUTES.map((r) => withParam(r.path, 'patientId', 'pat-9999')),
        withParam(ROUTES.find((r) => r.route === 'exportFhirNote')?.path as string, 'noteId', 'no-such-note'),
        withParam(ROUTES.find((r) => r.route === 'exportHl7Encounter')?.path as string, 'encounterId', 'no-such-encounter'),
      ];
      const headers = { ...BOTH, 'x-request-id': 'null-test' };
      for (const path of paths) {
        // Act
        const got = await withNulls(path, { headers });
        const expected = await plain(path, { headers });
        // Assert
        expect(got.status, path).toBe(expected.status);
        expect(got.body, path).toBe(expected.body);
      }
      expect((await withNulls(withParam(ROUTES[0]?.path as string, 'patientId', 'pat-9999'), { headers })).status).toBe(404);
    });

    it('should read null from the key store as an unknown key (401), exactly as undefined', async () => {
      const base = await fixtureOptions();
      const nulls = await serve(mode, { ...base, keyStore: { lookup: (key: string) => base.keyStore.lookup(key).then((found) => found ?? null) } });
      const unknown = await nulls(`/exportFhirPatient?patientId=${P}`, { headers: key('no-such-key') });
      expect(expectError(unknown, 401, 'fhir')).toBe('api-key-invalid');
      expectFhir(await nulls(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }));
    });

    it('should find a patient whose id needs percent-encoding', async () => {
      const encoded = encodeURIComponent(ODD_PATIENT_ID);
      expectFhir(await call(`/exportFhirPatient?patientId=${encoded}`, { headers: BOTH }));
      expectHl7(await call(`/exportHl7PatientAdt?patientId=${encoded.replace('%20', '+')}`, { headers: BOTH }), 'ADT^A31^ADT_A05');
    });
  });

  describe('Accept', () => {
    it.each([
      [undefined],
      [''],
      ['*/*'],
      ['application/*'],
      ['application/json'],
      ['application/fhir+json'],
      ['application/fhir+json; fhirVersion=4.0'],
      ['application/json+fhir'],
      ['text/html, application/fhir+json;q=0.5'],
      ['APPLICATION/FHIR+JSON'],
      ['application/json, */*;q=0'],
      ['application/fhir+json;q=0, application/fhir+json;fhirVersion=4.0'],
      ['application/fhir+json;foo="a,b"'],
    ])('should serve FHIR for Accept %j', async (accept) => {
      const headers = accept === undefined ? BOTH : { ...BOTH, accept };
      expect((await call(`/exportFhirPatient?patientId=${P}`, { headers })).status).toBe(200);
      expect((await call('/publicFhirDirectory?resourceType=Location', { headers })).status).toBe(200);
    });

    it.each([['text/html'], ['application/xml'], ['application/hl7-v2'], ['application/fhir+json;q=0'], ['*/*;q=0'], ['*/*, application/fhir+json;q=0'], ['nonsense'], ['application/fhir+json; fhirVersion=3.0'],
      ['application/fhir+json;q=0, application/json'], ['application/json, application/fhir+json;q=0'], ['application/fhir+json;foo="a,b";q=0'],
      ['application/json;q=0, application/*'], ['application/fhir+json;charset=iso-8859-1']])(
      'should answer FHIR routes with 406 for Accept %j',
      async (accept) => {
        const res = await call(`/exportFhirPatient?patientId=${P}`, { headers: { ...BOTH, accept } });
        expect(expectError(res, 406, 'fhir')).toBe('not-acceptable');
        expect(expectError(await call('/publicFhirDirectory?resourceType=Location', { headers: { accept } }), 406, 'fhir')).toBe('not-acceptable');
      },
    );

    it.each([[undefined], ['*/*'], ['application/*'], ['application/hl7-v2'], ['application/hl7-v2; charset=utf-8'], ['text/plain;q=0.9, application/hl7-v2']])(
      'should serve HL7 for Accept %j',
      async (accept) => {
        const headers = accept === undefined ? BOTH : { ...BOTH, accept };
        expect((await call(`/exportHl7PatientAdt?patientId=${P}`, { headers })).status).toBe(200);
      },
    );

    it.each([
      ['application/json'],
      ['application/fhir+json'],
      ['text/plain'],
      ['application/hl7-v2;q=0'],
      ['application/hl7-v2+er7'],
      ['x-application/hl7-v2+er7'],
      ['application/hl7-v2;foo="x, */*";q=0'],
      ['application/hl7-v2; charset=iso-8859-1'],
    ])(
      'should answer HL7 routes with 406 for Accept %j',
      async (accept) => {
        const res = await call(`/exportHl7PatientAdt?patientId=${P}`, { headers: { ...BOTH, accept } });
        expect(expectError(res, 406, 'problem')).toBe('not-acceptable');
      },
    );
  });

  describe('headers', () => {
    it('should send Vary: Accept on every answer that depended on Accept, and only there', async () => {
      for (const r of ROUTES) {
        const headers = r.keyed ? BOTH : {};
        const served = await call(r.path, { headers });
        const refused = await call(r.path, { headers: { ...headers, accept: 'text/html' } });
        expect([served.status, served.headers['vary']], r.route).toEqual([200, 'Accept']);
        expect([refused.status, refused.headers['vary']], r.route).toEqual([406, 'Accept']);
      }
      // Refused before Accept is read: no key, a bad parameter.
      expect((await call(`/exportFhirPatient?patientId=${P}`)).headers['vary']).toBeUndefined();
      expect((await call('/exportHl7PatientAdt', { headers: BOTH })).headers['vary']).toBeUndefined();
    });

    it.each([['abc-123'], ['A.b_c:d-e'], ['x'.repeat(128)], ['550e8400-e29b-41d4-a716-446655440000']])(
      'should echo the valid x-request-id %s',
      async (id) => {
        const res = await call(`/exportHl7PatientAdt?patientId=${P}`, { headers: { ...BOTH, 'x-request-id': id } });
        expect(res.headers['x-request-id']).toBe(id);
        const err = await call('/exportHl7PatientAdt', { headers: { ...BOTH, 'x-request-id': id } });
        expect(err.headers['x-request-id']).toBe(id);
        expect((JSON.parse(err.body) as ProblemBody).requestId).toBe(id);
      },
    );

    it.each([['x'.repeat(129)], ['has space'], ['semi;colon'], ['slash/'], ['Zoë'], ['a,b']])(
      'should replace the invalid x-request-id %j with a new UUID',
      async (id) => {
        const res = await call(`/exportFhirPatient?patientId=${P}`, { headers: { ...BOTH, 'x-request-id': id } });
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      },
    );

    it('should use the injected request-id generator, and a UUID when it returns an invalid id', async () => {
      let n = 0;
      const generated = await serve(mode, await fixtureOptions({ requestId: () => `req-${++n}` }));
      expect((await generated('/nowhere')).headers['x-request-id']).toBe('req-1');
      expect((await generated('/nowhere', { headers: { 'x-request-id': 'mine' } })).headers['x-request-id']).toBe('mine');
      const bad = await serve(mode, await fixtureOptions({ requestId: () => 'bad\r\nid' }));
      expect((await bad('/nowhere')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('should send x-ratelimit-* on every keyed response, counting down, with the reset in epoch seconds', async () => {
      // Arrange: a fresh handler, so the counts start at the limit.
      const fresh = await serve(mode, await fixtureOptions());
      // Act
      const first = await fresh(`/exportFhirPatient?patientId=${P}`, { headers: BOTH });
      const second = await fresh('/exportHl7PatientAdt?patientId=nobody', { headers: BOTH });
      const third = await fresh('/exportHl7PatientAdt?patientId=', { headers: BOTH });
      const unkeyed = await fresh(`/exportFhirPatient?patientId=${P}`);
      const directory = await fresh('/publicFhirDirectory?resourceType=Location');
      // Assert
      expect([first, second, third].map((r) => [r.status, r.headers['x-ratelimit-remaining']])).toEqual([
        [200, '999'],
        [404, '998'],
        [400, '997'],
      ]);
      for (const r of [first, second, third]) {
        expect(r.headers['x-ratelimit-limit']).toBe('1000');
        expect(r.headers['x-ratelimit-reset']).toBe(String(EPOCH_WINDOW_END));
      }
      expect(unkeyed.headers['x-ratelimit-limit']).toBeUndefined();
      expect(directory.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('should count each key separately', async () => {
      const fresh = await serve(mode, await fixtureOptions());
      await fresh(`/exportFhirPatient?patientId=${P}`, { headers: BOTH });
      const other = await fresh(`/exportFhirPatient?patientId=${P}`, { headers: key(KEYS.fhirOnly) });
      expect(other.headers['x-ratelimit-remaining']).toBe('999');
    });

    it('should send Cache-Control: no-store and nosniff on every response', async () => {
      const responses = await Promise.all([
        call(`/exportFhirNote?patientId=${P}&noteId=note-0002`, { headers: BOTH }),
        call('/publicFhirDirectory?resourceType=Location'),
        call('/exportHl7Note', { headers: BOTH }),
        call('/nowhere'),
        call(`/exportFhirPatient?patientId=${P}`),
      ]);
      for (const r of responses) {
        expect(r.headers['cache-control']).toBe('no-store');
        expect(r.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  });

  describe('limits', () => {
    let limited: Caller;
    beforeAll(async () => {
      limited = await serve(
        mode,
        await fixtureOptions({
          limits: {
            encounters: { default: 2, max: 3 },
            notes: { default: 1, max: 2 },
            assessments: { max: 1 },
            medicalHistory: { default: 0 },
            summary: { default: 2, max: 3 },
            directory: { default: 1, max: 2 },
          },
        }),
      );
    });

    it('should apply each Bundle default to its own kind', async () => {
      const bundle = expectFhir(await limited(`/exportFhirPatientBundle?patientId=${P}`, { headers: BOTH }));
      expect(countByType(bundle, 'Encounter')).toBe(2);
      expect(countByType(bundle, 'Composition')).toBe(1);
      expect(countByType(bundle, 'QuestionnaireResponse')).toBe(1);
      // The newest note and encounter are the ones kept.
      const ids = (bundle.entry ?? []).map((e) => `${e.resource.resourceType}/${e.resource.id}`);
      expect(ids).toContain('Encounter/enc-0003');
      expect(ids).toContain('Encounter/enc-0002');
      expect(ids).not.toContain('Encounter/enc-0001');
      expect(ids).toContain('Composition/note-0002');
    });

    it('should clamp a Bundle limit above its maximum and honour 0', async () => {
      const bundle = expectFhir(
        await limited(`/exportFhirPatientBundle?patientId=${P}&encounterLimit=99999999999999999999&noteLimit=5&assessmentLimit=0`, { headers: BOTH }),
      );
      expect(countByType(bundle, 'Encounter')).toBe(3);
      expect(countByType(bundle, 'Composition')).toBe(2);
      expect(countByType(bundle, 'QuestionnaireResponse')).toBe(0);
    });

    it('should read a limit with leading zeros by its value, not clamp it for its length', async () => {
      // Default limits (maximum 100, 200, 500): the fixture has 3 notes, 3 organizations.
      const none = expectFhir(await call(`/exportFhirPatientBundle?patientId=${P}&noteLimit=0000000000000000`, { headers: BOTH }));
      expect(countByType(none, 'Composition')).toBe(0);
      const two = expectFhir(await call('/publicFhirDirectory?resourceType=Organization&limit=00000000000000000002'));
      expect(countByType(two, 'Organization')).toBe(2);
      const summary = expectHl7(await call(`/exportHl7PatientSummary?patientId=${P}&limit=00000000000000000003`, { headers: BOTH }), 'ADR^A19^ADR_A19');
      expect(summary.find((s) => s[0] === 'QRD')?.[7]).toMatch(/^3(\^|$)/);
    });

    it('should give references to encounters beyond the encounter limit their display, as the builder does given the whole chart', async () => {
      // enc-0003 (2026-03-01) is the encounter of note-0002 and asmt-0002; encounterLimit=0 leaves it out.
      const path = `/exportFhirPatientBundle?patientId=${P}&encounterLimit=0&noteLimit=1&assessmentLimit=1`;
      const opaque = await serve(mode, await fixtureOptions({ dataSource: { ...createInMemoryDataSource(CHART_DOCUMENT) } }));
      for (const res of [await call(path, { headers: BOTH }), await call(path, { headers: BOTH }), await opaque(path, { headers: BOTH })]) {
        const bundle = expectFhir(res);
        expect(countByType(bundle, 'Encounter')).toBe(0);
        const composition = bundle.entry?.find((e) => e.resource.resourceType === 'Composition')?.resource as { encounter?: unknown };
        const response = bundle.entry?.find((e) => e.resource.resourceType === 'QuestionnaireResponse')?.resource as { encounter?: unknown };
        const logical = { type: 'Encounter', identifier: { value: 'enc-0003' }, display: 'Encounter (ambulatory), 2026-03-01T09:30:00-05:00' };
        expect(composition.encounter).toEqual(logical);
        expect(response.encounter).toEqual(logical);
      }
    });

    it('should never let a referenced encounter take the place of a listed one when a source lists out of order', async () => {
      // Arrange: a source whose newest encounter, as it lists them, is the oldest one (enc-0001, 2026-01-05).
      const base = createInMemoryDataSource(CHART_DOCUMENT);
      const enc0001 = await base.getEncounter(P, 'enc-0001');
      const misordered = await serve(mode, await fixtureOptions({ dataSource: { ...base, listEncounters: () => Promise.resolve([enc0001!]) } }));
      // Act
      const bundle = expectFhir(await misordered(`/exportFhirPatientBundle?patientId=${P}&encounterLimit=1&noteLimit=1`, { headers: BOTH }));
      // Assert: the listed encounter stays the entry; the newer enc-0003 is referenced without a display.
      expect((bundle.entry ?? []).filter((e) => e.resource.resourceType === 'Encounter').map((e) => e.resource.id)).toEqual(['enc-0001']);
      const composition = bundle.entry?.find((e) => e.resource.resourceType === 'Composition')?.resource as { encounter?: unknown };
      expect(composition.encounter).toEqual({ type: 'Encounter', identifier: { value: 'enc-0003' } });
    });

    it('should cap the HL7 summary with its limit, clamped to the maximum, in QRD-7', async () => {
      const byDefault = expectHl7(await limited(`/exportHl7PatientSummary?patientId=${P}`, { headers: BOTH }), 'ADR^A19^ADR_A19');
      const clamped = expectHl7(await limited(`/exportHl7PatientSummary?patientId=${P}&limit=1000`, { headers: BOTH }), 'ADR^A19^ADR_A19');
      const qrd7 = (segments: string[][]): string => segments.find((s) => s[0] === 'QRD')?.[7] ?? '';
      expect(qrd7(byDefault)).toMatch(/^2(\^|$)/);
      expect(qrd7(clamped)).toMatch(/^3(\^|$)/);
    });

    it('should keep the newest records overall in the HL7 summary, whatever their kind', async () => {
      // Newest first: note-0002, asmt-0002, enc-0003, note-0003, enc-0002, … — the 4th is a second note.
      const res = await call(`/exportHl7PatientSummary?patientId=${P}&limit=4`, { headers: BOTH });
      expectHl7(res, 'ADR^A19^ADR_A19');
      for (const id of ['note-0002', 'asmt-0002', 'enc-0003', 'note-0003']) expect(res.body, id).toContain(id);
      for (const id of ['enc-0002', 'enc-0001', 'note-0001', 'asmt-0001', 'hx-0001']) expect(res.body, id).not.toContain(id);
    });

    it('should cap and clamp the directory limit', async () => {
      const byDefault = expectFhir(await limited('/publicFhirDirectory?resourceType=Organization'));
      const clamped = expectFhir(await limited('/publicFhirDirectory?resourceType=Organization&limit=50'));
      const zero = expectFhir(await limited('/publicFhirDirectory?resourceType=Organization&limit=0'));
      expect(countByType(byDefault, 'Organization')).toBe(1);
      expect(countByType(clamped, 'Organization')).toBe(2);
      expect(countByType(zero, 'Organization')).toBe(0);
    });

    it('should name the managing organization of each directory Location', async () => {
      const bundle = expectFhir(await call('/publicFhirDirectory?resourceType=Location'));
      const refs = (bundle.entry ?? []).map((e) => (e.resource as { managingOrganization?: { display?: string } }).managingOrganization?.display);
      expect(refs).toEqual(['Riverside Behavioral Health', 'Lakeside Family Practice']);
      expect(countByType(bundle, 'Organization')).toBe(0);
    });

    it('should use the documented defaults without a limits option', async () => {
      const all = expectFhir(await call('/publicFhirDirectory?resourceType=Organization'));
      expect(countByType(all, 'Organization')).toBe(3);
      const bundle = expectFhir(await call(`/exportFhirPatientBundle?patientId=${P}`, { headers: BOTH }));
      expect(countByType(bundle, 'Encounter')).toBe(3);
      expect(countByType(bundle, 'Composition')).toBe(3);
    });
  });

  describe('failures', () => {
    it.each([['fhir'], ['hl7']] as const)('should answer a failing data source with 500 and nothing internal (%s)', async (format) => {
      // Arrange: the error message holds what a careless data source might put there.
      const onError = vi.fn();
      const failing = await serve(
        mode,
        await fixtureOptions({ dataSource: failingDataSource(new Error('connection to db://admin:hunter2@host failed for Quintero')), onError }),
      );
      // Act
      const res = await failing(format === 'fhir' ? `/exportFhirPatient?patientId=${P}` : `/exportHl7PatientAdt?patientId=${P}`, { headers: BOTH });
      // Assert
      expect(expectError(res, 500, format === 'fhir' ? 'fhir' : 'problem')).toBe('internal-error');
      expect(res.body).not.toMatch(/hunter2|Quintero|db:|connection/);
      expect(onError).toHaveBeenCalledOnce();
      expect(onError.mock.calls[0]?.[1]).toMatchObject({ route: format === 'fhir' ? 'exportFhirPatient' : 'exportHl7PatientAdt' });
    });

    it('should answer 503 with Retry-After when the data source says it is unavailable', async () => {
      const failing = await serve(mode, await fixtureOptions({ dataSource: failingDataSource(new DataSourceUnavailableError('pool exhausted', { retryAfterSeconds: 7 })) }));
      const fhir = await failing(`/exportFhirNote?patientId=${P}&noteId=note-0001`, { headers: BOTH });
      const hl7 = await failing(`/exportHl7PatientSummary?patientId=${P}`, { headers: BOTH });
      const directory = await failing('/publicFhirDirectory?resourceType=Location');
      expect(expectError(fhir, 503, 'fhir')).toBe('unavailable');
      expect(expectError(hl7, 503, 'problem')).toBe('unavailable');
      expect(expectError(directory, 503, 'fhir')).toBe('unavailable');
      expect(fhir.headers['retry-after']).toBe('7');
      expect(fhir.body).not.toContain('pool exhausted');
    });

    it('should answer 503 for a foreign error carrying the unavailable code, without Retry-After', async () => {
      const failing = await serve(mode, await fixtureOptions({ dataSource: failingDataSource({ code: 'data-source-unavailable' }) }));
      const res = await failing(`/exportHl7PatientAdt?patientId=${P}`, { headers: BOTH });
      expectError(res, 503, 'problem');
      expect(res.headers['retry-after']).toBeUndefined();
    });

    it('should answer a failing key store or rate limiter with 500 or 503', async () => {
      const keyStore = { lookup: () => Promise.reject(new Error('key db down')) };
      const rateLimiter = { consume: () => Promise.reject(new DataSourceUnavailableError()) };
      const a = await serve(mode, await fixtureOptions({ keyStore }));
      const b = await serve(mode, await fixtureOptions({ rateLimiter }));
      expectError(await a(`/exportHl7PatientAdt?patientId=${P}`, { headers: BOTH }), 500, 'problem');
      expectError(await b(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }), 503, 'fhir');
    });

    it.each([
      ['an object whose code getter throws', { get code(): never { throw new Error('getter failed') } }],
      ['an unavailable-looking error whose retryAfterSeconds getter throws', { code: 'data-source-unavailable', get retryAfterSeconds(): never { throw new Error('getter failed') } }],
      ['a Proxy that throws on every trap', throwingProxy()],
      ['a revoked Proxy', revokedProxy()],
      ['an object posing as ChartNotFoundError with a foreign record type', Object.assign(Object.create(ChartNotFoundError.prototype) as object, { recordType: 'Quintero' })],
    ])('should answer a data source that throws %s with a 500 that keeps the common headers and calls onError', async (_what, thrown) => {
      const onError = vi.fn();
      const failing = await serve(mode, await fixtureOptions({ dataSource: failingDataSource(thrown), onError }));
      for (const [path, format] of [[`/exportFhirPatient?patientId=${P}`, 'fhir'], [`/exportHl7Note?patientId=${P}&noteId=note-0002`, 'problem']] as const) {
        const res = await failing(path, { headers: { ...BOTH, 'x-request-id': 'hostile-error' } });
        expect(expectError(res, 500, format)).toBe('internal-error');
        expect(res.headers['x-request-id']).toBe('hostile-error');
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['retry-after']).toBeUndefined();
        expect(res.body).not.toContain('Quintero');
      }
      expect(onError).toHaveBeenCalledTimes(2);
      expect(onError.mock.calls[0]?.[0]).toBe(thrown);
    });

    it('should leave no unhandled rejection when one read rejects and a parallel one throws synchronously', async () => {
      // Arrange: the patient read rejects; the note read, started next to it, throws before returning a promise.
      const rejections = vi.fn();
      process.on('unhandledRejection', rejections);
      try {
        const base = createInMemoryDataSource(CHART_DOCUMENT);
        const dataSource: ChartDataSource = {
          ...base,
          getPatient: () => Promise.reject(new Error('patient read failed')),
          getNote: () => {
            throw new Error('note read threw');
          },
        };
        const onError = vi.fn();
        const throwing = await serve(mode, await fixtureOptions({ dataSource, onError }));
        // Act
        const res = await throwing(`/exportHl7Note?patientId=${P}&noteId=note-0002`, { headers: BOTH });
        await new Promise((resolve) => setTimeout(resolve, 20));
        // Assert
        expect(expectError(res, 500, 'problem')).toBe('internal-error');
        expect(onError).toHaveBeenCalledOnce();
        expect(rejections).not.toHaveBeenCalled();
      } finally {
        process.off('unhandledRejection', rejections);
      }
    });

    /** A valid decision with the fields of `override` laid over it as they are (getters stay getters). */
    const decisionWith = (override: object): object =>
      Object.defineProperties({ allowed: true, limit: 10, remaining: 9, reset: EPOCH_WINDOW_END, retryAfter: 0 }, Object.getOwnPropertyDescriptors(override));

    it.each([
      ['reset with a line break', () => ({ reset: 'a\nb' })],
      ['reset as text', () => ({ reset: '1767225600' })],
      ['remaining NaN', () => ({ remaining: Number.NaN })],
      ['limit negative', () => ({ limit: -1 })],
      ['limit fractional', () => ({ limit: 1.5 })],
      ['allowed as a string', () => ({ allowed: 'yes' })],
      ['retryAfter NaN on a denial', () => ({ allowed: false, retryAfter: Number.NaN })],
      ['retryAfter negative on a denial', () => ({ allowed: false, retryAfter: -3 })],
      ['retryAfter Infinity on a denial', () => ({ allowed: false, retryAfter: Number.POSITIVE_INFINITY })],
      ['retryAfter as text on a denial', () => ({ allowed: false, retryAfter: '5' })],
      ['retryAfter 1e21 on a denial (String() gives an exponent)', () => ({ allowed: false, retryAfter: 1e21 })],
      ['a getter that throws', () => ({ get remaining(): never { throw new Error('getter failed') } })],
      ['a throwing Proxy', () => throwingProxy()],
      ['a revoked Proxy', () => revokedProxy()],
      ['no object at all', () => 'a\nb'],
    ])('should answer a rate limiter that returns %s with a documented 500, never a rejection or an invalid header', async (_what, override) => {
      const onError = vi.fn();
      const consume = (): Promise<never> => {
        const o = override();
        return Promise.resolve((typeof o === 'object' && !util.types.isProxy(o) ? decisionWith(o) : o) as never);
      };
      const bad = await serve(mode, await fixtureOptions({ rateLimiter: { consume }, onError, directoryRateLimit: { limit: 5, windowSeconds: 60 } }));
      for (const [path, init, format] of [
        [`/exportFhirPatient?patientId=${P}`, { headers: BOTH }, 'fhir'],
        [`/exportHl7PatientAdt?patientId=${P}`, { headers: BOTH }, 'problem'],
        ['/publicFhirDirectory?resourceType=Location', {}, 'fhir'],
      ] as const) {
        const res = await bad(path, init);
        expect(expectError(res, 500, format), path).toBe('internal-error');
        expect(res.headers['retry-after']).toBeUndefined();
        expect(res.headers['x-ratelimit-reset']).toBeUndefined();
      }
      expect(onError).toHaveBeenCalledTimes(3);
    });

    it('should read each field of a rate-limit decision once: a getter that changes after its first read cannot reach a header', async () => {
      const consume = (): Promise<never> => Promise.resolve(flipping(decisionWith({}) as Record<string, unknown>, 'remaining', 'a\r\nSet-Cookie: x=1') as never);
      const flippingLimiter = await serve(mode, await fixtureOptions({ rateLimiter: { consume } }));
      const res = await flippingLimiter(`/exportFhirPatient?patientId=${P}`, { headers: BOTH });
      expectFhir(res);
      expect(res.headers['x-ratelimit-remaining']).toBe('9');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('should send Retry-After in whole seconds, at least 1, for a denial with a valid fractional or zero retryAfter', async () => {
      for (const [retryAfter, expected] of [[0, '1'], [2.2, '3'], [59, '59']] as const) {
        const rateLimiter = { consume: () => Promise.resolve({ allowed: false, limit: 1, remaining: 0, reset: EPOCH_WINDOW_END, retryAfter }) };
        const limited = await serve(mode, await fixtureOptions({ rateLimiter }));
        const res = await limited(`/exportFhirPatient?patientId=${P}`, { headers: BOTH });
        expect(expectError(res, 429, 'fhir')).toBe('rate-limited');
        expect(res.headers['retry-after']).toBe(expected);
      }
    });

    it('should answer 500 when the data source returns records that fail the chart check', async () => {
      // Arrange: a patient without names or identifiers (the chart check refuses it; its message names paths).
      const broken = createInMemoryDataSource(CHART_DOCUMENT);
      const dataSource = { ...broken, getPatient: () => Promise.resolve({ id: 'pat-0001', identifiers: [], names: [] }) };
      const onError = vi.fn();
      const bad = await serve(mode, await fixtureOptions({ dataSource, onError }));
      // Act
      const res = await bad(`/exportFhirPatient?patientId=${P}`, { headers: BOTH });
      // Assert
      expectError(res, 500, 'fhir');
      expect(res.body).not.toContain('identifiers');
      expect((onError.mock.calls[0]?.[0] as Error).name).toBe('ChartValidationError');
    });
  });

  describe("a custom key store's records", () => {
    const VALID = { keyId: 'custom-1', partnerId: 'partner-custom', scopes: ['fhir:export'], rateLimit: { limit: 50, windowSeconds: 60 }, revoked: false };
    /** A rate limiter that allows anything it is given, so only the handler's own check can refuse a record. */
    const permissive = { consume: (_key: string, limit: number) => Promise.resolve({ allowed: true, limit, remaining: 1, reset: EPOCH_WINDOW_END, retryAfter: 0 }) };
    const serveRecord = async (record: unknown, extra: Partial<ExportHandlerOptions> = {}): Promise<Caller> =>
      serve(mode, await fixtureOptions({ keyStore: { lookup: () => Promise.resolve(record as never) }, rateLimiter: permissive as never, ...extra }));

    it.each([
      ['scopes as an OAuth-style string containing the scope', { scopes: 'nofhir:exports' }],
      ['scopes as the scope itself, as a string', { scopes: 'fhir:export' }],
      ['a scope that is not a string', { scopes: ['fhir:export', 5] }],
      ['scopes missing', { scopes: undefined }],
      ['revoked as a string', { revoked: 'false' }],
      ['revoked missing', { revoked: undefined }],
      ['revoked as a number', { revoked: 0 }],
      ['rateLimit missing', { rateLimit: undefined }],
      ['rateLimit.limit as text', { rateLimit: { limit: '50', windowSeconds: 60 } }],
      ['rateLimit.windowSeconds NaN', { rateLimit: { limit: 50, windowSeconds: Number.NaN } }],
      ['rateLimit.limit zero', { rateLimit: { limit: 0, windowSeconds: 60 } }],
      ['partnerId as a number', { partnerId: 7 }],
      ['keyId as an object', { keyId: { id: 'custom-1' } }],
      ['keyId empty', { keyId: '' }],
      ['a getter that throws', { get scopes(): never { throw new Error('scopes getter') } }],
      ['scopes claiming 2^32 - 1 entries', { scopes: new Proxy([], { get: (_t, k) => (k === 'length' ? 2 ** 32 - 1 : 'fhir:export') }) }],
    ])('should answer a record with %s with a documented 500, never access', async (_what, override) => {
      const record = Object.defineProperties({ ...VALID }, Object.getOwnPropertyDescriptors(override));
      const onError = vi.fn();
      const broken = await serveRecord(record, { onError });
      const res = await broken(`/exportFhirPatient?patientId=${P}`, { headers: BOTH });
      expect(expectError(res, 500, 'fhir')).toBe('internal-error');
      expect(res.body).not.toContain('Quintero');
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      expect(onError).toHaveBeenCalledOnce();
    });

    it('should compare scopes exactly and grant only the scopes listed', async () => {
      const lookalikes = await serveRecord({ ...VALID, scopes: ['fhir:exports', 'FHIR:EXPORT', ' fhir:export', 'hl7:export-all'] });
      expect(expectError(await lookalikes(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }), 403, 'fhir')).toBe('scope-missing');
      const fhirOnly = await serveRecord({ ...VALID, scopes: ['unknown:scope', 'fhir:export'] });
      expectFhir(await fhirOnly(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }));
      expect(expectError(await fhirOnly(`/exportHl7PatientAdt?patientId=${P}`, { headers: BOTH }), 403, 'problem')).toBe('scope-missing');
    });

    it('should refuse a revoked record (401) and read each field once', async () => {
      const revoked = await serveRecord({ ...VALID, revoked: true });
      expect(expectError(await revoked(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }), 401, 'fhir')).toBe('api-key-invalid');
      // A revoked record needs nothing else: it is refused whatever its other fields hold.
      const bare = await serveRecord({ revoked: true, scopes: 'fhir:export' });
      expect(expectError(await bare(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }), 401, 'fhir')).toBe('api-key-invalid');
      // Scopes valid on the first read only: the first read decides.
      const events: ExportObservation[] = [];
      const changing = await serveRecord(flipping({ ...VALID }, 'scopes', 'nofhir:exports'), { observer: (e) => events.push(e) });
      expectFhir(await changing(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }));
      const sneaky = await serveRecord(flipping({ ...VALID, scopes: [] }, 'scopes', ['fhir:export']));
      expect(expectError(await sneaky(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }), 403, 'fhir')).toBe('scope-missing');
      expect(events[0]?.partnerId).toBe('partner-custom');
    });
  });

  describe('observer', () => {
    it('should report request id, route, method, status, duration and partner, and nothing else', async () => {
      // Arrange
      const events: ExportObservation[] = [];
      const observed = await serve(mode, await fixtureOptions({ observer: (e) => events.push(e) }));
      // Act
      await observed(`/exportHl7Note?patientId=${P}&noteId=note-0002`, { headers: { ...BOTH, 'x-request-id': 'obs-1' } });
      await observed('/publicFhirDirectory?resourceType=Location', { headers: { 'x-request-id': 'obs-2' } });
      await observed('/nowhere', { method: 'HEAD', headers: { 'x-request-id': 'obs-3' } });
      await observed(`/exportFhirPatient?patientId=${P}`, { headers: { ...key(KEYS.revoked), 'x-request-id': 'obs-4' } });
      // Assert
      expect(events.map(({ durationMs: _d, ...rest }) => rest)).toEqual([
        { requestId: 'obs-1', route: 'exportHl7Note', method: 'GET', status: 200, partnerId: 'partner-both' },
        { requestId: 'obs-2', route: 'publicFhirDirectory', method: 'GET', status: 200, partnerId: undefined },
        { requestId: 'obs-3', route: undefined, method: 'HEAD', status: 404, partnerId: undefined },
        { requestId: 'obs-4', route: 'exportFhirPatient', method: 'GET', status: 401, partnerId: undefined },
      ]);
      for (const e of events) {
        expect(e.durationMs).toBeGreaterThanOrEqual(0);
        expect(Object.keys(e).sort()).toEqual(['durationMs', 'method', 'partnerId', 'requestId', 'route', 'status']);
        expect(JSON.stringify(e)).not.toMatch(new RegExp(`${P}|${KEYS.both}|${KEYS.revoked}|note-0002`));
      }
    });

    it('should not let a throwing observer or onError change the response', async () => {
      const throwing = await serve(
        mode,
        await fixtureOptions({
          observer: () => {
            throw new Error('observer failed');
          },
        }),
      );
      expectFhir(await throwing(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }));
    });
  });

  describe('directory rate limit', () => {
    it('should limit the directory per client when configured', async () => {
      // Arrange: on the fetch path there is no peer address, on the Node path it is 127.0.0.1: one counter either way.
      const limitedDirectory = await serve(mode, await fixtureOptions({ directoryRateLimit: { limit: 2, windowSeconds: 10 } }));
      // Act
      const results = [];
      for (let i = 0; i < 3; i++) results.push(await limitedDirectory('/publicFhirDirectory?resourceType=Location'));
      // Assert
      expect(results.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(results.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['1', '0', '0']);
      expect(expectError(results[2] as never, 429, 'fhir')).toBe('rate-limited');
      expect(results[2]?.headers['retry-after']).toBe('10');
    });

    it('should tell clients apart with the clientAddress option', async () => {
      const perForwarded = await serve(
        mode,
        await fixtureOptions({ directoryRateLimit: { limit: 1, windowSeconds: 60, clientAddress: (c) => c.header('x-forwarded-for') } }),
      );
      const a1 = await perForwarded('/publicFhirDirectory?resourceType=Location', { headers: { 'x-forwarded-for': '203.0.113.1' } });
      const b1 = await perForwarded('/publicFhirDirectory?resourceType=Location', { headers: { 'x-forwarded-for': '203.0.113.2' } });
      const a2 = await perForwarded('/publicFhirDirectory?resourceType=Location', { headers: { 'x-forwarded-for': '203.0.113.1' } });
      expect([a1.status, b1.status, a2.status]).toEqual([200, 200, 429]);
    });
  });

  describe('rate limit changed at run time', () => {
    it('should report the real reset when a key\'s window length changes mid-window', async () => {
      // Arrange: a store whose record's rate limit changes from 2 per minute to 2 per hour at 12:01:01.
      const noon = Date.UTC(2026, 2, 2, 12, 0, 0);
      let now = noon + 59_000;
      const record = { keyId: 'changing', partnerId: 'p', scopes: ['fhir:export'], rateLimit: { limit: 2, windowSeconds: 60 }, revoked: false };
      const changing = await serve(
        mode,
        await fixtureOptions({ keyStore: { lookup: () => Promise.resolve(record as never) }, now: () => now, rateLimiter: createFixedWindowRateLimiter({ now: () => now }) }),
      );
      const get = (): ReturnType<Caller> => changing(`/exportFhirPatient?patientId=${P}`, { headers: key('any') });
      expectFhir(await get());
      now = noon + 61_000;
      record.rateLimit = { limit: 2, windowSeconds: 3600 };
      // Act
      const results = [await get(), await get(), await get()];
      // Assert: the hour's window ends at 13:00; before the fix the reset named 12:01:00 (past) with Retry-After 1.
      // The request of 12:00:59 lies in the hour and still counts.
      expect(results.map((r) => [r.status, r.headers['x-ratelimit-remaining'], r.headers['x-ratelimit-reset']])).toEqual([
        [200, '0', String(noon / 1000 + 3600)],
        [429, '0', String(noon / 1000 + 3600)],
        [429, '0', String(noon / 1000 + 3600)],
      ]);
      expect(results[2]?.headers['retry-after']).toBe('3539');
    });
  });

  describe('concurrency', () => {
    it('should let exactly L of N simultaneous requests through a limit of L', async () => {
      // Arrange: 40 requests at once against a key allowed 7 per window.
      const keyStore = createInMemoryKeyStore([
        ...(await fixtureKeys()).filter((k) => k.keyId !== 'tiny'),
        { ...(await fixtureKeys()).find((k) => k.keyId === 'tiny')!, rateLimit: { limit: 7, windowSeconds: 60 } },
      ]);
      const concurrent = await serve(mode, await fixtureOptions({ keyStore, rateLimiter: createFixedWindowRateLimiter({ now: () => NOW_MS }) }));
      // Act
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          concurrent(i % 2 === 0 ? `/exportHl7Note?patientId=${P}&noteId=note-0002` : `/exportFhirPatient?patientId=${P}`, { headers: key(KEYS.tiny) }),
        ),
      );
      // Assert
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(7);
      expect(statuses.filter((s) => s === 429)).toHaveLength(33);
      const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers['x-ratelimit-remaining']));
      expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    });
  });
});

describe('createExportHandler options', () => {
  it('should refuse invalid limits, base paths and directory rate limits at creation', async () => {
    const base = await fixtureOptions();
    const bad = [
      { limits: { notes: { default: 5, max: 2 } } },
      { limits: { encounters: { max: -1 } } },
      { limits: { summary: { default: 1.5 } } },
      { basePath: '/api?x=1' },
      { directoryRateLimit: { limit: 0, windowSeconds: 60 } },
    ];
    for (const o of bad) expect(() => createExportHandler({ ...base, ...o }), JSON.stringify(o)).toThrow(InvalidArgumentError);
  });

  it('should refuse FHIR and HL7 options the builders refuse at creation, named as handler options', async () => {
    const base = await fixtureOptions();
    const bad: [Partial<ExportHandlerOptions>, string][] = [
      [{ fhir: { baseUrl: 'not a url' } }, 'fhir.baseUrl'],
      [{ fhir: { baseUrl: 'https://example.org/fhir?x=1' } }, 'fhir.baseUrl'],
      [{ hl7: { sendingApplication: 'A'.repeat(21) } }, 'hl7.sendingApplication'],
      [{ hl7: { receivingFacility: 'A|B|C|D|E|F|G' } }, 'hl7.receivingFacility'], // 25 characters once escaped
      [{ hl7: { processingId: 'X' as 'P' } }, 'hl7.processingId'],
    ];
    for (const [o, argument] of bad) {
      let thrown: unknown;
      try {
        createExportHandler({ ...base, ...o });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(o)).toBeInstanceOf(InvalidArgumentError);
      expect((thrown as InvalidArgumentError).argument).toBe(argument);
    }
    // At the limits, the handler is created and serves.
    const call = await serve('fetch', { ...base, fhir: { baseUrl: 'https://example.org/fhir' }, hl7: { sendingApplication: 'A'.repeat(20), processingId: 'T' } });
    expect((await call(`/exportHl7PatientAdt?patientId=${P}`, { headers: BOTH })).body).toContain(`MSH|^~\\&|${'A'.repeat(20)}|`);
  });

  it('should never echo a request id with CR/LF, other characters or beyond 128 characters, whatever delivers it', async () => {
    // Neither fetch's Headers nor node:http lets CR/LF through, so ask the shared core directly.
    const handler = createExportHandler(await fixtureOptions());
    const core = (handler as unknown as Record<symbol, { handle: (call: unknown) => Promise<{ headers: Record<string, string>; body: string }> }>)[
      Symbol.for('chart-export.http.core')
    ]!;
    for (const hostile of ['a\r\nSet-Cookie: x=1', 'a\nb', 'a\rb', 'x'.repeat(129), 'a b', '\u0000', 'é']) {
      const res = await core.handle({ method: 'GET', pathname: '/nowhere', search: '', header: (n: string) => (n === 'x-request-id' ? hostile : undefined), remoteAddress: undefined });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body).not.toContain(hostile);
    }
  });

  it('should default a limit to the documented default clamped by a lower maximum', async () => {
    const call = await serve('fetch', await fixtureOptions({ limits: { directory: { max: 2 } } }));
    const bundle = expectFhir(await call('/publicFhirDirectory?resourceType=Organization'));
    expect(countByType(bundle, 'Organization')).toBe(2);
  });

  it('should serve HL7 with the configured MSH fields and the handler clock', async () => {
    const call = await serve('fetch', await fixtureOptions());
    const [msh] = hl7Segments((await call(`/exportHl7PatientAdt?patientId=${P}`, { headers: BOTH })).body);
    expect(msh?.slice(2, 6)).toEqual(['CHART-EXPORT', 'RIVERSIDE', 'PARTNER', 'PARTNER-FAC']);
    expect(msh?.[6]).toMatch(/^20260302120030/);
    expect(msh?.[9]).toMatch(/^ADT\d{6}$/);
    expect(msh?.[10]).toBe('T');
  });

  it('should serve FHIR with the configured base URL and clock', async () => {
    const call = await serve('fetch', await fixtureOptions({ fhir: { baseUrl: 'https://example.org/fhir', strictBundleTotal: true } }));
    const bundle = expectFhir(await call(`/exportFhirPatient?patientId=${P}`, { headers: BOTH }), true);
    expect(bundle['timestamp']).toBe('2026-03-02T12:00:30.000Z');
    expect(bundle['total']).toBeUndefined();
    expect((bundle['entry'] as unknown as { fullUrl: string }[])[0]?.fullUrl).toBe('https://example.org/fhir/Patient/pat-0001');
  });
});
