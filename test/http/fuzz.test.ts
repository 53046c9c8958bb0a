/**
 * Property tests of the handler against hostile input: random paths, query strings (duplicates, huge
 * values, bad percent-escapes, unicode) and headers (hostile x-request-id and x-api-key). Whatever comes in,
 * the answer is never a 5xx, never a stack trace, never slow, and never echoes key material.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { EXPORT_ROUTE_NAMES } from '../../src/http/routes/route-types.js';
import { expectNoLeak } from './support/bodies.js';
import { KEYS, PATIENT_ID } from './support/fixture.js';
import { describeMatrix, fixtureOptions, serve, type Caller, type Mode } from './support/harness.js';
import { runs } from '../support/runs.js';

/** A request must be answered within this time. */
const DEADLINE_MS = 5_000;

const PARAM_NAMES = ['patientId', 'encounterId', 'noteId', 'assessmentId', 'encounterLimit', 'noteLimit', 'assessmentLimit', 'medicalHistoryLimit', 'limit', 'resourceType'];

/** Raw query-string text: mostly well-formed, sometimes broken on purpose. */
const arbQueryText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(PATIENT_ID, 'enc-0003', 'note-0002', 'asmt-0002', 'Organization', 'Location', '0', '1', '-1', '1.5', '1e9'),
  fc.bigInt({ min: 0n, max: 10n ** 60n }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 20 }).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, ''))),
  fc.constantFrom('%', '%z', '%zz', '%C3', '%ED%A0%80', '%FF%FE', '%00', '%0D%0A', '+', '%2B', '=', '==', '&', 'é', '😀', '..', '%252F'),
  fc.string({ maxLength: 3000 }).map(encodeURIComponent),
);

const arbQuery: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...PARAM_NAMES), arbQueryText), arbQueryText, fc.boolean()), { maxLength: 8 })
  .map((pairs) => pairs.map(([k, v, withEq]) => (withEq ? `${k}=${v}` : k)).join('&'));

const arbSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...EXPORT_ROUTE_NAMES),
  fc.constantFrom('', '.', '..', '%2e%2e', 'api', 'v1', 'exportfhirpatient', '%00', '%zz', 'é', '😀', 'exportHl7Note%00'),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => encodeURIComponent(s)),
);

const arbPath: fc.Arbitrary<string> = fc
  .tuple(fc.array(arbSegment, { minLength: 1, maxLength: 4 }), fc.option(arbQuery, { nil: undefined }))
  // A first segment is never empty, so the target cannot read as `//host`.
  .map(([segments, query]) => `/${segments[0] === '' ? 'x' : segments[0]}${segments.slice(1).map((s) => `/${s}`).join('')}${query === undefined ? '' : `?${query}`}`)
  // node:http refuses request heads above 16 KiB itself (431) before any listener runs; stay below.
  .filter((path) => path.length < 12_000);

/** Header values both transports can carry: visible ASCII and Latin-1, no leading/trailing white space. */
const arbHeaderValue = (maxLength: number): fc.Arbitrary<string> =>
  fc
    .string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)), maxLength })
    .map((s) => s.trim());

const arbRequestId: fc.Arbitrary<string | undefined> = fc.option(
  fc.oneof(arbHeaderValue(40), arbHeaderValue(400), fc.stringMatching(/^[A-Za-z0-9._:-]{1,140}$/)),
  { nil: undefined },
);

/** Presented keys: real ones, real ones altered, long and odd garbage. Each is distinctive enough to spot an echo. */
const arbKey: fc.Arbitrary<string | undefined> = fc.option(
  fc.oneof(
    fc.constantFrom(...Object.values(KEYS)),
    fc.constantFrom(...Object.values(KEYS)).chain((k) => fc.nat({ max: k.length - 1 }).map((i) => `${k.slice(0, i)}${k.slice(i + 1)}Q`)),
    arbHeaderValue(60).map((s) => `KEYX-${s}-KEYX`),
    fc.string({ minLength: 600, maxLength: 2000, unit: fc.constantFrom('a', 'b', 'Z', '9') }).map((s) => `KEYX${s}`),
  ),
  { nil: undefined },
);

const arbAccept: fc.Arbitrary<string | undefined> = fc.option(
  fc.oneof(
    fc.constantFrom('*/*', 'application/fhir+json', 'application/hl7-v2', 'text/html', 'application/*;q=0', ';;;', ',', 'q=1', '*/*;q=abc'),
    arbHeaderValue(100),
  ),
  { nil: undefined },
);

const arbMethod = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');

describeMatrix('createExportHandler under hostile input', (mode: Mode) => {
  let call: Caller;
  beforeAll(async () => {
    call = await serve(mode, await fixtureOptions());
  });

  it('should never answer 5xx, leak, or hang', async () => {
    await fc.assert(
      fc.asyncProperty(arbPath, arbMethod, arbRequestId, arbKey, arbAccept, async (path, method, requestId, apiKey, accept) => {
        // Arrange
        const headers: Record<string, string> = {};
        if (requestId !== undefined) headers['x-request-id'] = requestId;
        if (apiKey !== undefined) headers['x-api-key'] = apiKey;
        if (accept !== undefined) headers['accept'] = accept;
        // Act
        const started = performance.now();
        const res = await Promise.race([
          call(path, { method, headers }),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in time')), DEADLINE_MS)),
        ]);
        // Assert
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        expect(performance.now() - started).toBeLessThan(DEADLINE_MS);
        expectNoLeak(res, apiKey !== undefined && apiKey.length >= 8 ? [apiKey] : []);
        if (requestId !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(requestId)) {
          expect(res.headers['x-request-id']).toBe(requestId);
        } else {
          expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        }
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        if (method === 'HEAD') expect(res.body).toBe('');
        else expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
      }),
      { numRuns: runs(mode === 'fetch' ? 400 : 150) },
    );
  });
});
