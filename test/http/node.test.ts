/**
 * What only the Node listener does: identical responses to the fetch handler (fast path, generic path and
 * options form), Express mounting, client aborts, request targets the WHATWG parser rewrites.
 */
import { connect } from 'node:net';
import express from 'express';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createExportHandler, createInMemoryDataSource, toNodeListener, type ChartDataSource, type ExportObservation } from '../../src/http/index.js';
import { splitRequestTarget } from '../../src/http/node.js';
import type { NodeRequestLike, NodeResponseLike } from '../../src/http/node-types.js';
import { expectFhir } from './support/bodies.js';
import { CHART_DOCUMENT, KEYS, PATIENT_ID } from './support/fixture.js';
import { fixtureOptions, listen, serve, serveNodeOptions, type CallInit, type Caller } from './support/harness.js';
import { runs } from '../support/runs.js';

const P = PATIENT_ID;
const BOTH = { 'x-api-key': KEYS.both };

/** Requests covering every route, every error status and HEAD; each with a fixed request id. */
const REQUESTS: readonly [string, CallInit][] = [
  [`/exportFhirPatient?patientId=${P}`, { headers: BOTH }],
  [`/exportFhirPatientBundle?patientId=${P}&noteLimit=1`, { headers: BOTH }],
  [`/exportFhirEncounter?patientId=${P}&encounterId=enc-0003`, { headers: BOTH }],
  [`/exportFhirNote?patientId=${P}&noteId=note-0002`, { headers: BOTH }],
  [`/exportFhirAssessment?patientId=${P}&assessmentId=asmt-0002`, { headers: BOTH }],
  ['/publicFhirDirectory?resourceType=Practitioner&limit=1', {}],
  [`/exportHl7PatientAdt?patientId=${P}`, { headers: BOTH }],
  [`/exportHl7PatientSummary?patientId=${P}&limit=3`, { headers: BOTH }],
  [`/exportHl7Encounter?patientId=${P}&encounterId=enc-0003`, { headers: BOTH }],
  [`/exportHl7Note?patientId=${P}&noteId=note-0002`, { headers: BOTH }],
  [`/exportHl7Assessment?patientId=${P}&assessmentId=asmt-0002`, { headers: BOTH }],
  [`/exportHl7Note?patientId=${P}&noteId=note-0002`, { method: 'HEAD', headers: BOTH }],
  ['/exportHl7Note', { method: 'POST', headers: BOTH }],
  ['/nowhere/..//exportFhirPatient?x', {}],
  [`/exportFhirPatient?patientId=${P}`, {}],
  [`/exportFhirPatient?patientId=${P}`, { headers: { 'x-api-key': KEYS.revoked } }],
  [`/exportFhirPatient?patientId=${P}`, { headers: { 'x-api-key': KEYS.hl7Only } }],
  ['/exportHl7Note?patientId=%zz', { headers: BOTH }],
  ['/exportHl7Note?patientId=nobody&noteId=n', { headers: BOTH }],
  [`/exportHl7Note?patientId=${P}&noteId=note-0002`, { headers: { ...BOTH, accept: 'application/json' } }],
  [`/exportFhirPatient?patientId=${P}`, { headers: { 'x-api-key': KEYS.tiny } }],
  [`/exportFhirPatient?patientId=${P}`, { headers: { 'x-api-key': KEYS.tiny } }],
  [`/exportFhirPatient?patientId=${P}`, { headers: { 'x-api-key': KEYS.tiny } }],
];

async function run(call: Caller): Promise<unknown[]> {
  const out = [];
  for (const [i, [path, init]] of REQUESTS.entries()) {
    out.push(await call(path, { ...init, headers: { ...init.headers, 'x-request-id': `same-${i}` } }));
  }
  return out;
}

describe('toNodeListener', () => {
  it('should give the same status, headers and bytes as the fetch handler', async () => {
    // Arrange: four servings of identical options (same clock, same control-id sequence). The FHIR base URL makes
    // the directory's links the same on the generic path, whose Request has a fixed origin.
    const fhir = { baseUrl: 'http://127.0.0.1' };
    const viaFetch = await serve('fetch', await fixtureOptions({ fhir }));
    const viaNode = await serve('node', await fixtureOptions({ fhir }));
    const viaOptions = await serveNodeOptions(await fixtureOptions({ fhir }));
    const ours = createExportHandler(await fixtureOptions({ fhir }));
    // A handler without our core goes through Request/Response.
    const viaGeneric = await serve('node', (request: Request) => ours(request));
    // Act
    const expected = await run(viaFetch);
    // Assert
    expect(await run(viaNode)).toEqual(expected);
    expect(await run(viaOptions)).toEqual(expected);
    expect(await run(viaGeneric)).toEqual(expected);
  });

  it('should mount under Express, which strips the mount path', async () => {
    // Arrange
    const app = express();
    app.get('/health', (_req, res) => {
      res.send('ok');
    });
    app.use('/export', toNodeListener(createExportHandler(await fixtureOptions())));
    const port = await listen(app);
    // Act
    const res = await fetch(`http://127.0.0.1:${port}/export/exportFhirPatient?patientId=${P}`, { headers: BOTH });
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    // Assert
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    expectFhir({ status: res.status, headers, body: await res.text() });
    expect(await health.text()).toBe('ok');
  });

  it('should survive a client that goes away before the answer, and keep serving', async () => {
    // Arrange: a data source whose patient read waits until released.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const base = createInMemoryDataSource(CHART_DOCUMENT);
    const slow: ChartDataSource = { ...base, getPatient: async (id) => (await gate, base.getPatient(id)) };
    const events: ExportObservation[] = [];
    const errors = vi.fn();
    process.on('uncaughtException', errors);
    try {
      const port = await listen(toNodeListener(await fixtureOptions({ dataSource: slow, observer: (e) => events.push(e) })));
      // Act: send a request on a raw socket, then destroy the socket before the answer.
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`GET /exportFhirPatient?patientId=${P} HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.both}\r\n\r\n`);
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 50);
        });
      });
      release();
      await vi.waitFor(() => expect(events).toHaveLength(1));
      const after = await fetch(`http://127.0.0.1:${port}/exportFhirPatient?patientId=${P}`, { headers: BOTH });
      // Assert
      expect(events[0]?.status).toBe(200);
      expect(after.status).toBe(200);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      process.off('uncaughtException', errors);
    }
  });

  it('should answer a raw request with obs-text, absolute-form target and repeated headers like the fetch path would', async () => {
    const port = await listen(toNodeListener(await fixtureOptions()));
    const raw = (text: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(text, 'latin1'));
        let data = '';
        socket.on('data', (d) => (data += d.toString('latin1')));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
    const latin1Id = await raw(`GET /exportFhirPatient?patientId=${P} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-request-id: caf\xe9\r\nx-api-key: ${KEYS.both}\r\n\r\n`);
    expect(latin1Id).toMatch(/^HTTP\/1\.1 200/);
    expect(latin1Id).toMatch(/x-request-id: [0-9a-f-]{36}\r\n/);
    const absolute = await raw(`GET http://elsewhere.example/exportHl7PatientAdt?patientId=${P} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-api-key: ${KEYS.both}\r\n\r\n`);
    expect(absolute).toMatch(/^HTTP\/1\.1 200/);
    const twoKeys = await raw(`GET /exportHl7PatientAdt?patientId=${P} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-api-key: ${KEYS.both}\r\nx-api-key: ${KEYS.both}\r\n\r\n`);
    expect(twoKeys).toMatch(/^HTTP\/1\.1 401/);
    const star = await raw('OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(star).toMatch(/^HTTP\/1\.1 404/);
    // A bare CR inside a header value never reaches the listener: node:http refuses the request itself.
    const cr = await raw(`GET /exportFhirPatient?patientId=${P} HTTP/1.1\r\nHost: x\r\nx-request-id: a\rSet-Cookie: y\r\n\r\n`);
    expect(cr).toMatch(/^HTTP\/1\.1 400/);
    expect(cr).not.toMatch(/Set-Cookie/i);
  });
});

/** Send raw bytes on a fresh socket (node:http keeps the Host header as sent; fetch would normalise it). */
function rawExchange(port: number, text: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text, 'latin1'));
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => {
      const split = data.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = data.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(data.slice(split + 4), 'latin1').toString('utf8') });
    });
  });
}

/** A fake response that logs its writes; `throws` makes writeHead throw (a broken socket). */
function fakeResponse(log: string[], name: string, throws = false): NodeResponseLike & { body?: string | undefined } {
  return {
    destroyed: false,
    writableEnded: false,
    writableFinished: false,
    headersSent: false,
    on: () => undefined,
    write: () => true,
    writeHead(status: number) {
      if (throws) throw new Error('broken socket');
      log.push(`${name} ${status}`);
      return this;
    },
    end(chunk?: Uint8Array | string) {
      (this as { writableEnded: boolean }).writableEnded = true;
      this.body = typeof chunk === 'string' ? chunk : undefined;
      return this;
    },
  };
}

describe('toNodeListener write batch', () => {
  it('should write the answers of one turn together right after it, past a write that throws', async () => {
    // Arrange: three requests handled in one turn; the second response's socket throws on every write.
    const listener = toNodeListener(await fixtureOptions());
    const log: string[] = [];
    const request = (url: string): NodeRequestLike => ({ method: 'GET', url, headers: { host: 'x', ...BOTH }, on: () => undefined });
    const [a, b, c] = [fakeResponse(log, 'a'), fakeResponse(log, 'b', true), fakeResponse(log, 'c')];
    // Act
    listener(request(`/exportFhirPatient?patientId=${P}`), a);
    listener(request(`/exportFhirPatient?patientId=${P}`), b);
    listener(request('/nowhere'), c);
    const written = [...log];
    await new Promise<void>((resolve) => setImmediate(() => (log.push('next turn'), resolve())));
    // Assert: nothing in the turn, then every answer before the next turn's tasks, the broken one skipped.
    expect(written).toEqual([]);
    // (An answer that waited for a promise joins the batch when it settles, so a and c may come in either order.)
    expect(log.slice(0, 2).sort()).toEqual(['a 200', 'c 404']);
    expect(log.slice(2)).toEqual(['next turn']);
    expect(JSON.parse(a.body ?? '')).toMatchObject({ resourceType: 'Bundle' });
  });
});

describe('toNodeListener generic path (a handler that is not ours)', () => {
  /** The fast path and the generic path, each on its own server, over the same options. */
  async function bothPaths(): Promise<{ fast: number; generic: number }> {
    const fast = await listen(toNodeListener(createExportHandler(await fixtureOptions())));
    const ours = createExportHandler(await fixtureOptions());
    const generic = await listen(toNodeListener((request: Request) => ours(request)));
    return { fast, generic };
  }

  const request = (target: string, host: string, headers = ''): string =>
    `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\nx-request-id: host-test\r\nx-api-key: ${KEYS.both}\r\n${headers}\r\n`;

  it.each([
    ['a Host with a path, query and fragment', '/nope', `x/exportHl7PatientAdt?patientId=${P}#`, 404],
    ['a Host with a path and a query only', '/nope', `x/exportFhirPatient?patientId=${P}`, 404],
    ['a Host with credentials', `/exportFhirPatient?patientId=${P}`, 'user@x', 200],
    ['a Host with credentials and a password', `/exportHl7PatientAdt?patientId=${P}`, 'user:pw@x:1', 200],
    ['a Host that is not a host at all', `/exportFhirPatient?patientId=${P}`, '[::1', 200],
    ['a Host with a query of its own', `/exportFhirPatient?patientId=${P}`, 'x?patientId=pat-0002', 200],
  ])('should route on the request target alone, not on %s', async (_what, target, host, status) => {
    const { fast, generic } = await bothPaths();
    const viaFast = await rawExchange(fast, request(target, host));
    const viaGeneric = await rawExchange(generic, request(target, host));
    expect(viaGeneric.status, viaGeneric.body).toBe(status);
    expect(viaGeneric.headers['x-request-id']).toBe('host-test');
    expect([viaGeneric.status, viaGeneric.headers['content-type'], viaGeneric.body]).toEqual([viaFast.status, viaFast.headers['content-type'], viaFast.body]);
    if (status === 200) expect(viaGeneric.body).toContain('Quintero');
  });

  it('should hand a foreign handler a URL on a fixed origin, with the path and query of the request target', async () => {
    const seen: string[] = [];
    const port = await listen(
      toNodeListener((r: Request) => {
        seen.push(r.url);
        return Promise.resolve(new Response('ok'));
      }),
    );
    await rawExchange(port, request('/a/../exportFhirPatient?x=1', 'user:pw@evil.example/other?y=2#'));
    await rawExchange(port, request('http://elsewhere.example/exportHl7Note?z', 'x'));
    await rawExchange(port, request('//evil.example/exportHl7Note', 'x'));
    expect(seen).toEqual(['http://localhost/exportFhirPatient?x=1', 'http://localhost/exportHl7Note?z', 'http://localhost//evil.example/exportHl7Note']);
  });

  it('should answer a documented 500 with a request id when a foreign handler rejects or no Request can be made', async () => {
    const port = await listen(toNodeListener(() => Promise.reject(new Error('secret internals'))));
    // TRACE is a method fetch's Request refuses to carry.
    for (const method of ['GET', 'TRACE']) {
      const res = await rawExchange(port, `${method} /exportFhirPatient HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(res.status, method).toBe(500);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const body = JSON.parse(res.body) as { code: string; requestId: string; status: number };
      expect(body).toMatchObject({ code: 'internal-error', status: 500, requestId: res.headers['x-request-id'] });
      expect(res.body).not.toContain('secret');
    }
  });
});

describe('splitRequestTarget', () => {
  it('should agree with the WHATWG URL parser on any origin-form target', () => {
    const chars = fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/?%#[]{}|\\^` "<>é€😀\t'.split(''), 'exportFhirPatient', '..', '%2e', '%41', '%zz');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 30 }), (parts) => {
        const target = `/${parts.join('')}`;
        let expected: { pathname: string; search: string };
        try {
          const url = new URL(`http://localhost${target}`);
          expected = { pathname: url.pathname, search: url.search };
        } catch {
          expected = { pathname: '', search: '' };
        }
        expect(splitRequestTarget(target)).toEqual(expected);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('should keep plain targets as they are without the URL parser', () => {
    expect(splitRequestTarget('/exportHl7Note?patientId=p1&noteId=n%201')).toEqual({ pathname: '/exportHl7Note', search: '?patientId=p1&noteId=n%201' });
    expect(splitRequestTarget('/exportHl7Note?')).toEqual({ pathname: '/exportHl7Note', search: '' });
    expect(splitRequestTarget('/a/../exportHl7Note')).toEqual({ pathname: '/exportHl7Note', search: '' });
    expect(splitRequestTarget('*')).toEqual({ pathname: '', search: '' });
  });
});
