/**
 * Property tests of the handler against hostile host interfaces: whatever the key store, the rate limiter,
 * the data source or the directory's clientAddress hook return or throw (values of the wrong type, header
 * injections, NaN, Proxies that throw on every trap, getters that throw or change after their first read,
 * synchronous throws), every answer is a valid response with the caller's request id, a documented status
 * and body, and headers that pass their rules; the fetch handler's promise never rejects.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import {
  createInMemoryDataSource,
  createInMemoryKeyStore,
  createFixedWindowRateLimiter,
  type ChartDataSource,
  type KeyStore,
  type RateLimiter,
} from '../../src/http/index.js';
import { expectError, expectNoLeak } from './support/bodies.js';
import { CHART_DOCUMENT, KEYS, PATIENT_ID } from './support/fixture.js';
import { describeMatrix, fixtureKeys, fixtureOptions, NOW_MS, serve, type Caller, type Mode } from './support/harness.js';
import { answer, arbHostAnswer, arbHostileLeaf, arbList, arbShaped, type HostAnswer, type Recipe } from './support/hostile.js';
import { runs } from '../support/runs.js';

const P = PATIENT_ID;
const DOCUMENTED_STATUSES = [200, 400, 401, 403, 404, 406, 429, 500, 503];

const REQUESTS: readonly { path: string; format: 'fhir' | 'hl7' }[] = [
  { path: `/exportFhirPatient?patientId=${P}`, format: 'fhir' },
  { path: `/exportFhirPatientBundle?patientId=${P}&encounterLimit=1`, format: 'fhir' },
  { path: `/exportFhirEncounter?patientId=${P}&encounterId=enc-0003`, format: 'fhir' },
  { path: `/exportFhirNote?patientId=${P}&noteId=note-0002`, format: 'fhir' },
  { path: `/exportFhirAssessment?patientId=${P}&assessmentId=asmt-0002`, format: 'fhir' },
  { path: '/publicFhirDirectory?resourceType=Location', format: 'fhir' },
  { path: `/exportHl7PatientAdt?patientId=${P}`, format: 'hl7' },
  { path: `/exportHl7PatientSummary?patientId=${P}&limit=3`, format: 'hl7' },
  { path: `/exportHl7Encounter?patientId=${P}&encounterId=enc-0003`, format: 'hl7' },
  { path: `/exportHl7Note?patientId=${P}&noteId=note-0002`, format: 'hl7' },
  { path: `/exportHl7Assessment?patientId=${P}&assessmentId=asmt-0002`, format: 'hl7' },
];

const VALID_RECORD = { keyId: 'k-1', partnerId: 'partner-1', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 100, windowSeconds: 60 }, revoked: false };
const VALID_DECISION = { allowed: true, limit: 100, remaining: 99, reset: 1_772_452_860, retryAfter: 0 };
const DENIED_DECISION = { allowed: false, limit: 100, remaining: 0, reset: 1_772_452_860, retryAfter: 30 };
const UNAVAILABLE = { code: 'data-source-unavailable', retryAfterSeconds: 5, message: 'pool exhausted' };

/** What a host method gives: a hostile leaf or special value, an object of a shape with hostile fields, a list of those. */
const arbHostValue = (...shapes: Record<string, unknown>[]): fc.Arbitrary<Recipe> => {
  const one = fc.oneof(arbHostileLeaf, ...shapes.map((shape) => arbShaped(shape)));
  return fc.oneof(one, arbList(one));
};

type Behaviour = { readonly how: HostAnswer; readonly value: Recipe } | undefined;

interface Scenario {
  readonly request: (typeof REQUESTS)[number];
  readonly keyStore: Behaviour;
  readonly rateLimiter: Behaviour;
  readonly clientAddress: Behaviour;
  /** Hostile data-source methods, by name. */
  readonly dataSource: Readonly<Record<string, Behaviour>>;
}

const DATA_SOURCE_METHODS = [
  'getPatient',
  'getEncounter',
  'getNote',
  'getAssessment',
  'listEncounters',
  'listNotes',
  'listAssessments',
  'listMedicalHistory',
  'getOrganization',
  'getPractitioner',
  'getLocation',
  'listLocations',
] as const;

const behaviour = (value: fc.Arbitrary<Recipe>): fc.Arbitrary<Behaviour> =>
  fc.option(fc.record({ how: arbHostAnswer, value }), { nil: undefined, freq: 2 });

const arbScenario: fc.Arbitrary<Scenario> = fc.record({
  request: fc.constantFrom(...REQUESTS),
  keyStore: behaviour(arbHostValue(VALID_RECORD)),
  rateLimiter: behaviour(arbHostValue(VALID_DECISION, DENIED_DECISION)),
  // A synchronous hook: it returns or throws.
  clientAddress: fc.option(fc.record({ how: fc.constantFrom<HostAnswer>('return', 'throw'), value: arbHostValue() }), { nil: undefined, freq: 2 }),
  dataSource: fc.dictionary(
    fc.constantFrom(...DATA_SOURCE_METHODS),
    behaviour(arbHostValue(UNAVAILABLE, { id: 'enc-0003', status: 'finished', class: 'AMB', period: { start: '2026-03-01T09:30:00-05:00' } })),
    { maxKeys: 3 },
  ),
});

describeMatrix('createExportHandler over hostile host interfaces', (mode: Mode) => {
  let call: Caller;
  let current: Scenario;

  beforeAll(async () => {
    // One handler whose host interfaces follow the scenario of the current run.
    const base = createInMemoryDataSource(CHART_DOCUMENT);
    const keys = createInMemoryKeyStore(await fixtureKeys());
    const limiter = createFixedWindowRateLimiter({ now: () => NOW_MS });
    const dataSource = Object.fromEntries(
      Object.entries(base).map(([name, method]) => [
        name,
        (...args: unknown[]) => {
          const b = current.dataSource[name];
          return b === undefined ? (method as (...a: unknown[]) => unknown).apply(base, args) : answer(b.how, b.value)();
        },
      ]),
    ) as unknown as ChartDataSource;
    const keyStore: KeyStore = {
      lookup: (key) => (current.keyStore === undefined ? keys.lookup(key) : (answer(current.keyStore.how, current.keyStore.value)() as never)),
    };
    const rateLimiter: RateLimiter = {
      consume: (key, limit, windowSeconds) =>
        current.rateLimiter === undefined ? limiter.consume(`${key}:${Math.random()}`, limit, windowSeconds) : (answer(current.rateLimiter.how, current.rateLimiter.value)() as never),
    };
    const clientAddress = (): string | undefined =>
      current.clientAddress === undefined ? undefined : (answer(current.clientAddress.how, current.clientAddress.value)() as never);
    call = await serve(mode, await fixtureOptions({ dataSource, keyStore, rateLimiter, directoryRateLimit: { limit: 1000, windowSeconds: 60, clientAddress } }));
  });

  it('should answer every request with a documented status, the request id and valid headers, and never reject', async () => {
    await fc.assert(
      fc.asyncProperty(arbScenario, fc.constantFrom('GET', 'HEAD'), async (scenario, method) => {
        current = scenario;
        const res = await call(scenario.request.path, { method, headers: { 'x-api-key': KEYS.both, 'x-request-id': 'hostile-1' } });
        expect(DOCUMENTED_STATUSES, `${res.status} ${res.body}`).toContain(res.status);
        expect(res.headers['x-request-id']).toBe('hostile-1');
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['set-cookie']).toBeUndefined();
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          if (res.headers[name] !== undefined) expect(res.headers[name], name).toMatch(/^[0-9]+$/);
        }
        if (res.headers['retry-after'] !== undefined) {
          expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
          expect([429, 503]).toContain(res.status);
        }
        expectNoLeak(res, ['pool exhausted', 'hostile proxy trap', 'hostile getter']);
        if (method === 'HEAD') {
          expect(res.body).toBe('');
        } else if (res.status === 200) {
          expect(res.headers['content-type']).toBe(scenario.request.format === 'fhir' ? 'application/fhir+json; charset=utf-8' : 'application/hl7-v2; charset=utf-8');
        } else {
          expectError(res, res.status, scenario.request.format === 'fhir' ? 'fhir' : 'problem');
        }
      }),
      { numRuns: runs(mode === 'fetch' ? 600 : 150) },
    );
  });
});
