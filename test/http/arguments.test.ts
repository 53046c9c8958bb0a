/**
 * Regression tests for argument checks of chart-export/http found by test/package/api-robustness.test.ts:
 * garbage options fail at creation with InvalidArgumentError, never later inside a request.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import {
  createExportHandler,
  createFixedWindowRateLimiter,
  createInMemoryDataSource,
  createInMemoryKeyStore,
  hashApiKey,
  toNodeListener,
} from '../../src/http/index.js';
import { timingSafeEqual } from '../../src/http/key-store.js';
import { CHART_DOCUMENT, PATIENT_ID } from './support/fixture.js';

const dataSource = createInMemoryDataSource(CHART_DOCUMENT);
const keyStore = createInMemoryKeyStore();

describe('createExportHandler / toNodeListener options', () => {
  it.each([
    [undefined, 'options'],
    [{ dataSource: 5, keyStore }, 'dataSource'],
    [{ dataSource: { getPatient: () => Promise.resolve(undefined) }, keyStore }, 'dataSource.getEncounter'],
    [{ dataSource, keyStore: {} }, 'keyStore.lookup'],
    [{ dataSource, keyStore, rateLimiter: {} }, 'rateLimiter.consume'],
    [{ dataSource, keyStore, rateLimiter: { consume: () => Promise.reject(new Error('x')), failsOpen: 'yes' } }, 'rateLimiter.failsOpen'],
    [{ dataSource, keyStore, now: 'now' }, 'now'],
    [{ dataSource, keyStore, requestId: 1 }, 'requestId'],
    [{ dataSource, keyStore, observer: {} }, 'observer'],
    [{ dataSource, keyStore, onError: true }, 'onError'],
    [{ dataSource, keyStore, limits: 3 }, 'limits'],
    [{ dataSource, keyStore, limits: { encounters: 3 } }, 'limits.encounters'],
    [{ dataSource, keyStore, directoryRateLimit: null }, 'directoryRateLimit'],
    [{ dataSource, keyStore, fhir: 'x' }, 'fhir'],
    [{ dataSource, keyStore, hl7: { controlId: 'ADT1' } }, 'hl7.controlId'],
  ])('should throw InvalidArgumentError at creation for %o', (options, argument) => {
    expect(() => createExportHandler(options as never)).toThrow(expect.objectContaining({ argument }));
    expect(() => toNodeListener(options as never)).toThrow(InvalidArgumentError);
  });

  it('should name a FHIR or HL7 output option the builders refuse by its handler option, with the same reason', () => {
    let thrown: unknown;
    try {
      createExportHandler({ dataSource, keyStore, hl7: { sendingApplication: 'x'.repeat(21) } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    const error = thrown as InvalidArgumentError;
    expect(error.argument).toBe('hl7.sendingApplication');
    expect(error.cause).toBeInstanceOf(InvalidArgumentError);
    const cause = error.cause as InvalidArgumentError;
    expect(error.reason).toBe(cause.reason);
    expect(error.message).toBe(`Invalid hl7.sendingApplication: ${cause.reason}`);
    expect(cause.message).toBe(`Invalid ${cause.argument}: ${cause.reason}`);
  });

  it('should reject with InvalidArgumentError when the handler is called with something that is not a Request', async () => {
    const handler = createExportHandler({ dataSource, keyStore });
    await expect(handler(null as never)).rejects.toThrow(expect.objectContaining({ argument: 'request' }));
    await expect(handler({ url: 5 } as never)).rejects.toThrow(InvalidArgumentError);
    expect((await handler(new Request('http://localhost/nowhere'))).status).toBe(404);
    const throwingUrl = { get url(): never { throw new Error('url getter') }, method: 'GET', headers: new Headers() };
    await expect(handler(throwingUrl as never)).rejects.toThrow(expect.objectContaining({ argument: 'request' }));
  });

  it('should answer a Request look-alike whose header reads throw, or whose URL does not parse, never reject', async () => {
    const handler = createExportHandler({ dataSource, keyStore });
    const throwingHeaders = {
      url: 'http://localhost/exportFhirPatient?patientId=p',
      method: 'GET',
      headers: {
        get(): never {
          throw new Error('get failed');
        },
      },
    };
    const res = await handler(throwingHeaders as never);
    // Headers that cannot be read count as absent: no key, a 401.
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await handler({ url: 'not a url', method: 'GET', headers: new Headers() } as never);
    expect(odd.status).toBe(500);
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(odd.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(await odd.text())).toMatchObject({ code: 'internal-error', requestId: odd.headers.get('x-request-id') });
    const numbers = await handler({ url: 'http://localhost/exportFhirPatient', method: 'GET', headers: { get: () => 42 } } as never);
    expect(numbers.status).toBe(401);
  });
});

describe('createFixedWindowRateLimiter', () => {
  it('should throw InvalidArgumentError at creation for options or a clock of the wrong type', () => {
    expect(() => createFixedWindowRateLimiter(null as never)).toThrow(expect.objectContaining({ argument: 'options' }));
    expect(() => createFixedWindowRateLimiter({ now: 5 as never })).toThrow(expect.objectContaining({ argument: 'options.now' }));
  });

  it('should reject with InvalidArgumentError for a key that is not a string or a clock that gives no number', async () => {
    await expect(createFixedWindowRateLimiter().consume(Symbol('k') as never, 1, 1)).rejects.toThrow(expect.objectContaining({ argument: 'key' }));
    await expect(createFixedWindowRateLimiter({ now: () => Number.NaN }).consume('k', 1, 1)).rejects.toThrow(expect.objectContaining({ argument: 'options.now' }));
  });
});

describe('key store helpers', () => {
  it('should reject hashApiKey for a key that is not a string, without throwing synchronously', async () => {
    const pending = hashApiKey(Symbol('k') as never);
    await expect(pending).rejects.toThrow(expect.objectContaining({ argument: 'key' }));
    await expect(hashApiKey(42 as never)).rejects.toThrow(InvalidArgumentError);
  });

  it('should throw InvalidArgumentError from timingSafeEqual for arguments that are not byte arrays', () => {
    expect(() => timingSafeEqual(undefined as never, new Uint8Array())).toThrow(expect.objectContaining({ argument: 'a' }));
    expect(() => timingSafeEqual(new Uint8Array(), [1] as never)).toThrow(expect.objectContaining({ argument: 'b' }));
  });

  it('should throw InvalidArgumentError from createInMemoryKeyStore for entries, an entry or a digest of the wrong type', () => {
    expect(() => createInMemoryKeyStore({} as never)).toThrow(expect.objectContaining({ argument: 'entries' }));
    expect(() => createInMemoryKeyStore([null] as never)).toThrow(expect.objectContaining({ argument: 'entry' }));
    expect(() => createInMemoryKeyStore([], { digest: 'sha256' as never })).toThrow(expect.objectContaining({ argument: 'options.digest' }));
    expect(() => createInMemoryKeyStore([{ keyHash: 'a'.repeat(64), partnerId: 'p', scopes: [], rateLimit: null as never }])).toThrow(
      expect.objectContaining({ argument: 'rateLimit' }),
    );
  });

  it('should reject a lookup whose digest returns something other than bytes', async () => {
    const store = createInMemoryKeyStore([], { digest: () => 'not bytes' as never });
    await expect(store.lookup('key')).rejects.toThrow(expect.objectContaining({ argument: 'options.digest' }));
  });
});

describe('createInMemoryDataSource lists', () => {
  it('should reject with InvalidArgumentError for a limit that is not a number', async () => {
    await expect(dataSource.listNotes(PATIENT_ID, Symbol('n') as never)).rejects.toThrow(expect.objectContaining({ argument: 'limit' }));
    await expect(dataSource.listOrganizations({} as never)).rejects.toThrow(InvalidArgumentError);
  });
});
