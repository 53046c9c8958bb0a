/**
 * Streamed bodies and compression on the existing routes, in both modes (the fetch handler and the Node
 * listener on a real server): a large patient Bundle is sent chunked as it is produced, byte for byte the
 * builder's; small bodies stay one write with Content-Length; HEAD gives GET's headers; Accept-Encoding is read
 * per RFC 9110 (q-values, `identity;q=0`, `*`); decompressed bodies equal uncompressed ones byte for byte.
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFhirPatientBundle, type ChartDocument, type ClinicalNote } from '../../src/index.js';
import { createExportHandler, createInMemoryDataSource, toNodeListener, type ExportHandler } from '../../src/http/index.js';
import { readAcceptEncoding } from '../../src/http/output/content-coding.js';
import { fetchCodings } from '../../src/http/output/fetch-body.js';
import { settleBody } from '../../src/http/output/streamed-body.js';
import { writeNodeBody } from '../../src/http/output/node-body.js';
import { runs } from '../support/runs.js';
import { describeMatrix, fixtureOptions, listen, NOW_MS, serve, type Mode } from './support/harness.js';
import { CHART_DOCUMENT, KEYS, PATIENT_ID } from './support/fixture.js';

const BIG_ID = 'pat-big';
const NOW = new Date(NOW_MS).toISOString();

/** A long note text of realistic words (no patient value), `n` characters. */
function longText(seed: number, n: number): string {
  const words = ['Subjective:', 'feels', 'better', 'today;', 'sleep', 'improved.', 'Plan:', 'continue', 'therapy', '&', '<weekly>', 'visits.\n'];
  let out = '';
  for (let i = 0; out.length < n; i++) out += `${words[(i * 7 + seed) % words.length]} `;
  return out.slice(0, n);
}

const bigNote = (i: number): ClinicalNote => ({
  id: `big-note-${i}`,
  type: 'progress-note',
  title: `Long note ${i}`,
  status: 'final',
  authored: `2026-01-0${i + 1}T09:00:00Z`,
  text: longText(i, 180_000),
});

/** The fixture plus a patient whose Bundle is about 1.7 MB (streamed). */
const DOCUMENT: ChartDocument = {
  ...CHART_DOCUMENT,
  patients: [
    ...CHART_DOCUMENT.patients,
    { patient: { ...(CHART_DOCUMENT.patients[0] as ChartDocument['patients'][number]).patient, id: BIG_ID }, notes: [0, 1, 2, 3].map(bigNote) },
  ],
};

/** The buffered Bundle of the big patient, as the builder gives it. */
function expectedBig(): string {
  const chart = DOCUMENT.patients.find((c) => c.patient.id === BIG_ID) as ChartDocument['patients'][number];
  return JSON.stringify(buildFhirPatientBundle(chart, { now: NOW, directory: DOCUMENT.directory }));
}

interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: Buffer;
}

type RawCaller = (path: string, headers?: Record<string, string>, method?: string) => Promise<RawResponse>;

/** A caller that gives the body's raw bytes (no decoding, no decompression). */
async function rawCaller(mode: Mode, handler: ExportHandler): Promise<RawCaller> {
  if (mode === 'fetch') {
    return async (path, headers = {}, method = 'GET') => {
      const response = await handler(new Request(`http://127.0.0.1${path}`, { method, headers }));
      const out: Record<string, string> = {};
      response.headers.forEach((v, k) => (out[k] = v));
      return { status: response.status, headers: out, bytes: Buffer.from(await response.arrayBuffer()) };
    };
  }
  const port = await listen(toNodeListener(handler));
  return (path, headers = {}, method = 'GET') =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers: out, bytes: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
}

function decode(res: RawResponse): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'gzip') return gunzipSync(res.bytes).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(res.bytes).toString('utf8');
  expect(coding).toBeUndefined();
  return res.bytes.toString('utf8');
}

const key = { 'x-api-key': KEYS.both };
const bigPath = `/exportFhirPatientBundle?patientId=${BIG_ID}`;
const smallPath = `/exportFhirPatient?patientId=${PATIENT_ID}`;
const mediumPath = `/exportFhirPatientBundle?patientId=${PATIENT_ID}`;

describeMatrix('streamed Bundles', (mode) => {
  async function caller(): Promise<RawCaller> {
    return rawCaller(mode, createExportHandler(await fixtureOptions({ dataSource: createInMemoryDataSource(DOCUMENT) })));
  }

  it('should stream a large patient Bundle without Content-Length, byte for byte the builder’s', async () => {
    const call = await caller();
    const res = await call(bigPath, key);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    if (mode === 'node') expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.bytes.toString('utf8')).toBe(expectedBig());
  });

  it('should give a streamed answer the OpenAPI description allows (the checked caller)', async () => {
    const call = await serve(mode, await fixtureOptions({ dataSource: createInMemoryDataSource(DOCUMENT) }));
    const res = await call(bigPath, { headers: key });
    expect(res.status).toBe(200);
    expect(res.body).toBe(expectedBig());
    expect((await call(bigPath, { method: 'HEAD', headers: key })).status).toBe(200);
  });

  it('should answer today’s 500 OperationOutcome when a large Bundle fails before its first byte', async () => {
    // A host's source whose note breaks the chart check: the builder refuses it when the stream is made.
    const source = createInMemoryDataSource(DOCUMENT);
    const errors: unknown[] = [];
    const broken = { ...source, listNotes: () => Promise.resolve([{ ...bigNote(0), status: 'no-such-status' } as unknown as ClinicalNote]) };
    const call = await rawCaller(mode, createExportHandler(await fixtureOptions({ dataSource: broken, onError: (e) => errors.push(e) })));
    const res = await call(bigPath, key);
    expect(res.status).toBe(500);
    expect(res.headers['content-length']).toBe(String(res.bytes.byteLength));
    expect((JSON.parse(res.bytes.toString('utf8')) as { resourceType: string }).resourceType).toBe('OperationOutcome');
    expect(errors).toHaveLength(1);
  });

  it('should keep small bodies one write with their Content-Length', async () => {
    const call = await caller();
    for (const path of [smallPath, mediumPath]) {
      const res = await call(path, key);
      expect(res.status).toBe(200);
      expect(res.headers['content-length']).toBe(String(res.bytes.byteLength));
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['vary']).toBe('Accept');
    }
  });

  it('should answer HEAD of a streamed Bundle with GET’s headers and no body', async () => {
    const call = await caller();
    const get = await call(bigPath, key);
    const head = await call(bigPath, key, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);
    const strip = (h: Readonly<Record<string, string>>): Record<string, string> => {
      const { date: _d, 'x-request-id': _r, 'x-ratelimit-remaining': _x, 'transfer-encoding': _t, ...rest } = h;
      return rest;
    };
    expect(strip(head.headers)).toEqual(strip(get.headers));
  });

  it('should compress large and medium FHIR bodies on request, the decompressed bytes equal to the uncompressed ones', async () => {
    const call = await caller();
    const codings = mode === 'node' ? ['gzip', 'br'] : fetchCodings();
    for (const path of [bigPath, mediumPath]) {
      const plain = (await call(path, key)).bytes.toString('utf8');
      for (const coding of codings) {
        const res = await call(path, { ...key, 'accept-encoding': coding });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(coding);
        expect(res.headers['vary']).toBe('Accept, Accept-Encoding');
        expect(res.bytes.byteLength).toBeLessThan(Buffer.byteLength(plain) / 2);
        if (path === mediumPath) expect(res.headers['content-length']).toBe(String(res.bytes.byteLength));
        expect(decode(res)).toBe(plain);
      }
    }
  });

  it('should not compress small bodies, unless identity is refused', async () => {
    const call = await caller();
    const plain = (await call(smallPath, key)).bytes.toString('utf8');
    expect(plain.length).toBeLessThan(8 * 1024);
    const res = await call(smallPath, { ...key, 'accept-encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toBe('Accept, Accept-Encoding');
    expect(decode(res)).toBe(plain);
    const refused = await call(smallPath, { ...key, 'accept-encoding': 'identity;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(decode(refused)).toBe(plain);
  });

  it('should follow the q-values of Accept-Encoding', async () => {
    const call = await caller();
    const plain = (await call(mediumPath, key)).bytes.toString('utf8');
    const cases: [string, string | undefined][] = [
      ['gzip;q=0', undefined],
      ['gzip;q=0.5, identity', undefined],
      ['GZIP;q=1.0, identity;q=0.5', 'gzip'],
      ['x-gzip', 'gzip'],
      ['br;q=0.4, gzip;q=0.8', 'gzip'],
      ['compress, deflate', undefined],
      ['', undefined],
      ['*;q=0', undefined],
      ['gzip;q=2', undefined],
    ];
    for (const [header, coding] of cases) {
      const res = await call(mediumPath, { ...key, 'accept-encoding': header });
      expect(res.headers['content-encoding'], header).toBe(coding);
      expect(decode(res), header).toBe(plain);
    }
  });

  it('should not compress HL7 bodies or error answers below the threshold', async () => {
    const call = await caller();
    const hl7 = await call(`/exportHl7PatientSummary?patientId=${PATIENT_ID}`, { ...key, accept: 'application/hl7-v2', 'accept-encoding': 'gzip' });
    expect(hl7.headers['content-encoding']).toBeUndefined();
    const missing = await call(`/exportFhirPatientBundle?patientId=nobody`, { ...key, 'accept-encoding': 'gzip' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });
});

describe('readAcceptEncoding', () => {
  const arbEntry = fc.record({
    name: fc.constantFrom('gzip', 'br', 'identity', '*', 'deflate', 'x-gzip'),
    q: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
  });
  it('should choose a coding rated above zero, at least as high as identity, and no lower than any other available one', () => {
    fc.assert(
      fc.property(fc.array(arbEntry, { maxLength: 6 }), (entries) => {
        const header = entries.map((e) => (e.q === undefined ? e.name : `${e.name};q=${(e.q / 1000).toFixed(3)}`)).join(', ');
        const rating = (name: string): number | undefined => {
          const named = entries.filter((e) => (e.name === 'x-gzip' ? 'gzip' : e.name) === name);
          return named.length === 0 ? undefined : Math.max(...named.map((e) => (e.q ?? 1000) / 1000));
        };
        const star = rating('*');
        const q = (name: string): number => rating(name) ?? star ?? 0;
        const identity = rating('identity') ?? star ?? 0;
        const { coding, identityRefused } = readAcceptEncoding(header, ['br', 'gzip']);
        expect(identityRefused).toBe(rating('identity') === 0 || (rating('identity') === undefined && star === 0));
        if (coding === undefined) {
          for (const c of ['br', 'gzip']) expect(q(c) === 0 || q(c) < identity).toBe(true);
        } else {
          expect(q(coding)).toBeGreaterThan(0);
          expect(q(coding)).toBeGreaterThanOrEqual(identity);
          for (const c of ['br', 'gzip']) expect(q(coding)).toBeGreaterThanOrEqual(q(c));
        }
      }),
      { numRuns: runs(300) },
    );
  });
});

/** Chunks: `before` characters, then a failure (or the end when `fail` is false). */
async function* failingChunks(before: number, fail: boolean): AsyncGenerator<string> {
  for (let sent = 0; sent < before; sent += 10_000) yield 'x'.repeat(10_000);
  if (fail) throw new Error('builder failed');
}

describe('a streamed body that fails', () => {
  it('should reject before the first byte, so the pipeline answers as today', async () => {
    await expect(settleBody(failingChunks(100_000, true), () => undefined)).rejects.toThrow('builder failed');
  });

  it('should be whole text when it ends below the threshold', async () => {
    expect(await settleBody(failingChunks(100_000, false), () => undefined)).toBe('x'.repeat(100_000));
  });

  it('should close the Node connection after the first byte, never ending the chunked body, and report it', async () => {
    const reported: unknown[] = [];
    const port = await listen((_req, res) => {
      void settleBody(failingChunks(600_000, true), (e) => reported.push(e)).then((body) =>
        writeNodeBody(res, { status: 200, headers: { 'content-type': 'application/fhir+json; charset=utf-8' }, body }, false, undefined, () => undefined),
      );
    });
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.byteLength));
        res.on('end', () => resolve(`ended after ${bytes}`));
        res.on('aborted', () => resolve('aborted'));
        res.on('error', () => resolve('aborted'));
      });
      req.on('error', () => resolve('aborted'));
      req.end();
    });
    expect(outcome).toBe('aborted');
    expect(reported).toHaveLength(1);
  });

  it('should stop producing when the Node client goes away mid-body', async () => {
    let stopped = false;
    let produced = 0;
    async function* endless(): AsyncGenerator<string> {
      try {
        for (;;) {
          produced++;
          yield 'y'.repeat(64 * 1024);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      } finally {
        stopped = true;
      }
    }
    const port = await listen((_req, res) => {
      void settleBody(endless(), () => undefined).then((body) =>
        writeNodeBody(res, { status: 200, headers: { 'content-type': 'application/fhir+json; charset=utf-8' }, body }, false, 'gzip', () => undefined),
      );
    });
    await new Promise<void>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/', agent: false, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
    for (let i = 0; i < 200 && !stopped; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(true);
    const at = produced;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(produced).toBe(at);
  });

  it('should deliver every byte to a slow client, with back-pressure, coded or not', async () => {
    // Chunks that barely compress, so the coded body is large too and the socket pushes back.
    const chunks = Array.from({ length: 60 }, (_, i) => Buffer.from(Array.from({ length: 48 * 1024 }, (_, j) => (i * 7919 + j * 104729) % 251)).toString('base64'));
    const whole = chunks.join('');
    async function* slowly(): AsyncGenerator<string> {
      yield* chunks;
    }
    for (const coding of [undefined, 'gzip', 'br']) {
      const port = await listen((_req, res) => {
        void settleBody(slowly(), () => undefined).then((body) =>
          writeNodeBody(res, { status: 200, headers: { 'content-type': 'application/fhir+json; charset=utf-8' }, body }, false, coding, () => undefined),
        );
      });
      const got = await new Promise<RawResponse>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
          const parts: Buffer[] = [];
          res.pause();
          setTimeout(() => res.resume(), 150);
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, bytes: Buffer.concat(parts) }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(got.headers['content-encoding']).toBe(coding);
      expect(decode(got)).toBe(whole);
    }
  });

  it('should error the fetch Response body after the first byte', async () => {
    const { toFetchResponse } = await import('../../src/http/output/fetch-body.js');
    const body = await settleBody(failingChunks(600_000, true), () => undefined);
    const response = await toFetchResponse({ status: 200, headers: { 'content-type': 'application/fhir+json; charset=utf-8' }, body }, false, 'gzip');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    await expect(response.arrayBuffer()).rejects.toThrow();
  });
});
