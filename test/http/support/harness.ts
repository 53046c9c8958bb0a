/**
 * Test harness of the HTTP adapter: one suite, run twice (unjs/h3 `describeMatrix`): against the fetch
 * handler called directly, and against the Node listener on a real `node:http` server on 127.0.0.1 with an
 * ephemeral port. Both callers send the same normalised request target.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe } from 'vitest';
import {
  createExportHandler,
  createInMemoryDataSource,
  createInMemoryKeyStore,
  hashApiKey,
  toNodeListener,
  type ChartDataSource,
  type ExportHandler,
  type ExportHandlerOptions,
  type InMemoryKeyEntry,
} from '../../../src/http/index.js';
import { CHART_DOCUMENT, KEYS } from './fixture.js';
import { expectConformingAnswer } from './openapi-check.js';

/** A response as both modes report it: lowercase header names, the body as UTF-8 text. */
export interface TestResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Request options of a test call. */
export interface CallInit {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A request body (POST). */
  readonly body?: string;
}

/** Sends one request. `path` is a request target (`/exportFhirPatient?patientId=…`), normalised like a URL. */
export type Caller = (path: string, init?: CallInit) => Promise<TestResponse>;

/** The two ways of serving a handler. */
export type Mode = 'fetch' | 'node';
export const MODES: readonly Mode[] = ['fetch', 'node'];

/** Headers node:http adds by itself, left out when comparing modes. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The request target both modes send for `path`: what `new URL` makes of it. */
export function normaliseTarget(path: string): string {
  const url = new URL(path, 'http://127.0.0.1');
  return url.pathname + url.search;
}

function fetchCaller(handler: ExportHandler): Caller {
  return async (path, init = {}) => {
    const request = new Request(`http://127.0.0.1${normaliseTarget(path)}`, {
      method: init.method ?? 'GET',
      headers: init.headers ?? {},
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const response = await handler(request);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  };
}

const servers = new Set<Server>();

async function nodeCaller(listener: ReturnType<typeof toNodeListener>): Promise<Caller> {
  const server = createServer(listener);
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return (path, init = {}) =>
    new Promise<TestResponse>((resolve, reject) => {
      const req = httpRequest(
        // `Host` without the port, as the fetch mode's URL has it, so the directory's absolute links agree across modes.
        { host: '127.0.0.1', port, path: normaliseTarget(path), method: init.method ?? 'GET', headers: { host: '127.0.0.1', ...init.headers }, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) {
              if (value === undefined || TRANSPORT_HEADERS.has(name)) continue;
              headers[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
}

/** The caller, checking every answer against the OpenAPI description of a handler mounted at `basePath`. */
function checkedCaller(call: Caller, basePath: string | undefined): Caller {
  return async (path, init = {}) => {
    const res = await call(path, init);
    expectConformingAnswer(basePath, { method: init.method ?? 'GET', target: path, ...res });
    return res;
  };
}

/**
 * Start serving options (or a handler) in a mode and return the caller, which checks every answer against
 * the OpenAPI description (test/http/support/openapi-check.ts). Node servers close after the file.
 */
export async function serve(mode: Mode, options: ExportHandlerOptions | ExportHandler): Promise<Caller> {
  const handler = typeof options === 'function' ? options : createExportHandler(options);
  const call = mode === 'fetch' ? fetchCaller(handler) : await nodeCaller(toNodeListener(handler));
  return checkedCaller(call, typeof options === 'function' ? undefined : options.basePath);
}

/** Start a Node server with a listener made from options directly (the `toNodeListener(options)` form). */
export async function serveNodeOptions(options: ExportHandlerOptions): Promise<Caller> {
  return checkedCaller(await nodeCaller(toNodeListener(options)), options.basePath);
}

/** Start a bare Node server for a listener; returns its port. Closed after the file. */
export async function listen(listener: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(listener as never);
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

afterAll(async () => {
  await Promise.all(
    [...servers].map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
  servers.clear();
});

/** Run `suite` once per mode, titled `title (fetch)` and `title (node)`. */
export function describeMatrix(title: string, suite: (mode: Mode) => void): void {
  for (const mode of MODES) describe(`${title} (${mode})`, () => suite(mode));
}

/** The fixed clock of the tests: 2026-03-02T12:00:30Z. */
export const NOW_MS = Date.UTC(2026, 2, 2, 12, 0, 30);

/** The fixture's key entries, hashed. */
export async function fixtureKeys(): Promise<InMemoryKeyEntry[]> {
  return [
    { keyHash: await hashApiKey(KEYS.both), keyId: 'both', partnerId: 'partner-both', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 1000, windowSeconds: 60 } },
    { keyHash: await hashApiKey(KEYS.fhirOnly), keyId: 'fhir', partnerId: 'partner-fhir', scopes: ['fhir:export'], rateLimit: { limit: 1000, windowSeconds: 60 } },
    { keyHash: await hashApiKey(KEYS.hl7Only), keyId: 'hl7', partnerId: 'partner-hl7', scopes: ['hl7:export'], rateLimit: { limit: 1000, windowSeconds: 60 } },
    { keyHash: await hashApiKey(KEYS.revoked), keyId: 'revoked', partnerId: 'partner-revoked', scopes: ['fhir:export', 'hl7:export'], revoked: true },
    { keyHash: await hashApiKey(KEYS.tiny), keyId: 'tiny', partnerId: 'partner-tiny', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 2, windowSeconds: 60 } },
  ];
}

/** Handler options over the fixture: fixed clock, deterministic control ids; `overrides` win. */
export async function fixtureOptions(overrides: Partial<ExportHandlerOptions> = {}): Promise<ExportHandlerOptions> {
  let sequence = 0;
  return {
    dataSource: createInMemoryDataSource(CHART_DOCUMENT),
    keyStore: createInMemoryKeyStore(await fixtureKeys()),
    now: () => NOW_MS,
    hl7: {
      sendingApplication: 'CHART-EXPORT',
      sendingFacility: 'RIVERSIDE',
      receivingApplication: 'PARTNER',
      receivingFacility: 'PARTNER-FAC',
      processingId: 'T',
      controlId: ({ route }) => `${CONTROL_PREFIX[route] ?? 'X'}${String(++sequence).padStart(6, '0')}`,
    },
    ...overrides,
  };
}

const CONTROL_PREFIX: Record<string, string> = {
  exportHl7PatientAdt: 'ADT',
  exportHl7PatientSummary: 'ADR',
  exportHl7Encounter: 'ADT',
  exportHl7Note: 'MDM',
  exportHl7Assessment: 'ORU',
};

/** A data source whose every method rejects with `error` (or runs `impl`). */
export function failingDataSource(error: unknown): ChartDataSource {
  const reject = (): Promise<never> => Promise.reject(error);
  return {
    getPatient: reject,
    getEncounter: reject,
    getNote: reject,
    getAssessment: reject,
    getMedicalHistoryEntry: reject,
    listEncounters: reject,
    listNotes: reject,
    listAssessments: reject,
    listMedicalHistory: reject,
    getOrganization: reject,
    getPractitioner: reject,
    getLocation: reject,
    listOrganizations: reject,
    listPractitioners: reject,
    listLocations: reject,
  };
}
