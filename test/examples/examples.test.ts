/**
 * Every example in examples/ runs and does what it says: each is imported by package name against dist/ (as
 * a user's code would be) and, where it is a script, also run with `node` as its header tells.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as fhir from 'fhir/r4';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkHl7Message } from '../../src/index.js';
import { validateFhir } from '../support/fhir-validator.js';
import { ROOT, cleanEnv, ensureBuilt } from './support/process.js';

beforeAll(() => ensureBuilt());

/** What the tests use of each example module (the examples are plain .mjs with JSDoc types). */
interface MappingExample {
  mapChart(): { bundle: fhir.Bundle; adt: string; mdm: string };
}
interface NodeServerExample {
  createExampleServer(options?: { apiKey?: string }): Promise<Server>;
}
interface ExpressExample {
  createExampleApp(options?: { apiKey?: string }): Promise<{ listen(port: number, host: string): Server }>;
}
interface FetchRuntimeExample {
  default: { fetch: (request: Request) => Promise<Response> };
}
interface CustomDataSourceExample {
  createExample(): Promise<{ repo: { setDown(down: boolean): void }; handler: (request: Request) => Promise<Response> }>;
}

/** Import an example module by path (the example itself imports the package by name). */
async function load<T>(name: string): Promise<{ module: T }> {
  return { module: (await import(/* @vite-ignore */ `../../examples/${name}`)) as T };
}

/** Run an example script with node; with `until`, stop it (SIGTERM) once its output matches. */
function runExample(
  name: string,
  options: { env?: Record<string, string>; until?: RegExp; onMatch?: (match: RegExpExecArray) => Promise<void> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`examples/${name}`], { cwd: ROOT, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let matched = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = options.until?.exec(stdout);
      if (m && !matched) {
        matched = true;
        (options.onMatch?.(m) ?? Promise.resolve()).then(
          () => child.kill('SIGTERM'),
          (error: unknown) => {
            child.kill('SIGKILL');
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const DEMO = JSON.parse(readFileSync(`${ROOT}examples/data/demo-chart.json`, 'utf8')) as { patients: { patient: { id: string } }[] };
const PATIENT = encodeURIComponent(DEMO.patients[0]?.patient.id ?? '');
const FHIR = { 'x-api-key': 'example-key', accept: 'application/fhir+json' };
const HL7 = { 'x-api-key': 'example-key', accept: 'application/hl7-v2' };

/** FHIR findings other than the contract's deliberate defaults (relative fullUrl, Bundle.total on every Bundle). */
const fhirFindings = (json: object): unknown[] => validateFhir(json).filter((f) => f.rule !== 'fullurl-absolute' && f.rule !== 'bdl-1');

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('examples/mapping.mjs', () => {
  it('should map the chart to a valid FHIR Bundle and valid HL7 messages', async () => {
    const { module } = await load<MappingExample>('mapping.mjs');
    const { bundle, adt, mdm } = module.mapChart();
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.id).toBe('example-bundle');
    expect(bundle.entry?.map((e) => e.resource?.resourceType)).toEqual(expect.arrayContaining(['Patient', 'Coverage']));
    expect(fhirFindings(bundle)).toEqual([]);
    expect(checkHl7Message(adt)).toEqual([]);
    expect(checkHl7Message(mdm)).toEqual([]);
    expect(adt.startsWith('MSH|^~\\&|CHART-EXPORT|EXAMPLE|')).toBe(true);
    // The note's delimiters went out escaped.
    expect(mdm).toContain('mood 4/10 \\F\\ sleep \\R\\5 h.');
  });

  it('should print both when run with node', async () => {
    const run = await runExample('mapping.mjs');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"resourceType": "Bundle"');
    expect(run.stdout).toMatch(/\nMSH\|\^~\\&\|CHART-EXPORT\|EXAMPLE\|\|\|\d+.*\|ADT\^A31/);
    expect(run.stdout).toMatch(/\nOBX\|1\|TX\|/);
  });
});

describe('examples/node-server.mjs', () => {
  it('should serve FHIR and HL7 on node:http', async () => {
    const { module } = await load<NodeServerExample>('node-server.mjs');
    const server = await module.createExampleServer();
    const origin = await listen(server);
    try {
      const fhir = await fetch(`${origin}/exportFhirPatient?patientId=${PATIENT}`, { headers: FHIR });
      expect(fhir.status).toBe(200);
      expect(fhirFindings((await fhir.json()) as object)).toEqual([]);
      const hl7 = await fetch(`${origin}/exportHl7PatientAdt?patientId=${PATIENT}`, { headers: HL7 });
      expect(hl7.status).toBe(200);
      const message = await hl7.text();
      expect(checkHl7Message(message)).toEqual([]);
      expect(message.split('|').slice(2, 4)).toEqual(['CHART-EXPORT', 'EXAMPLE']);
      expect((await fetch(`${origin}/exportHl7PatientAdt?patientId=${PATIENT}`, { headers: { ...HL7, 'x-api-key': 'wrong' } })).status).toBe(401);
    } finally {
      server.close();
    }
  });

  it('should listen when run with node, and stop on SIGTERM', async () => {
    let status = 0;
    const run = await runExample('node-server.mjs', {
      env: { PORT: '0', API_KEY: 'run-key' },
      until: /listening on (http:\/\/\S+)/,
      onMatch: async (m) => {
        status = (await fetch(`${m[1]}/exportHl7PatientAdt?patientId=${PATIENT}`, { headers: { ...HL7, 'x-api-key': 'run-key' } })).status;
      },
    });
    expect(status).toBe(200);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('GET exportHl7PatientAdt 200');
  });
});

describe('examples/express.mjs', () => {
  it('should serve the export routes under /export next to the app routes', async () => {
    const { module } = await load<ExpressExample>('express.mjs');
    const app = await module.createExampleApp();
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: 'ok' });
      const note = DEMO.patients[0] as unknown as { notes: { id: string }[] };
      const hl7 = await fetch(`${origin}/export/exportHl7Note?patientId=${PATIENT}&noteId=${encodeURIComponent(note.notes[0]?.id ?? '')}`, { headers: HL7 });
      expect(hl7.status).toBe(200);
      expect(checkHl7Message(await hl7.text())).toEqual([]);
      const directory = await fetch(`${origin}/export/publicFhirDirectory?resourceType=Organization&limit=2`);
      expect(directory.status).toBe(200);
      expect(((await directory.json()) as { entry: unknown[] }).entry).toHaveLength(2);
      expect((await fetch(`${origin}/export/nope`)).status).toBe(404);
      expect(directory.headers.get('x-powered-by')).toBeNull();
    } finally {
      server.close();
    }
  });
});

describe('examples/fetch-runtime.mjs', () => {
  it('should export a { fetch } entry serving the routes under /export', async () => {
    const { module } = await load<FetchRuntimeExample>('fetch-runtime.mjs');
    const { fetch: handle } = module.default;
    const res = await handle(new Request(`http://edge.example/export/exportFhirPatientBundle?patientId=${PATIENT}&encounterLimit=1`, { headers: FHIR }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const bundle = (await res.json()) as { entry: { resource: { resourceType: string } }[] };
    expect(bundle.entry.filter((e) => e.resource.resourceType === 'Encounter')).toHaveLength(1);
    expect(fhirFindings(bundle)).toEqual([]);
    expect((await handle(new Request(`http://edge.example/exportFhirPatient?patientId=${PATIENT}`, { headers: FHIR }))).status).toBe(404);
  });

  it('should send two requests in-process when run with node', async () => {
    const run = await runExample('fetch-runtime.mjs');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('/exportFhirPatient?patientId=pat-0001 → 200 application/fhir+json; charset=utf-8');
    expect(run.stdout).toContain('/exportHl7PatientAdt?patientId=pat-0001 → 200 application/hl7-v2; charset=utf-8');
  });
});

describe('examples/custom-data-source.mjs', () => {
  it('should serve from the repository, newest first, scoped to the patient, 503 when the store is down', async () => {
    const { module } = await load<CustomDataSourceExample>('custom-data-source.mjs');
    const { repo, handler } = await module.createExample();
    const get = (path: string, accept = 'application/fhir+json'): Promise<Response> =>
      handler(new Request(`http://localhost${path}`, { headers: { 'x-api-key': 'example-key', accept } }));

    const encounter = await get('/exportFhirEncounter?patientId=p-1&encounterId=e-2');
    expect(encounter.status).toBe(200);
    expect(fhirFindings((await encounter.json()) as object)).toEqual([]);

    // Newest first through the interface's list method: the limit keeps e-2 (February), not e-1 (January).
    const bundle = (await (await get('/exportFhirPatientBundle?patientId=p-1&encounterLimit=1')).json()) as { entry: { resource: { resourceType: string; id: string } }[] };
    expect(bundle.entry.filter((e) => e.resource.resourceType === 'Encounter').map((e) => e.resource.id)).toEqual(['e-2']);

    const note = await get('/exportHl7Note?patientId=p-1&noteId=n-1', 'application/hl7-v2');
    expect(note.status).toBe(200);
    const message = await note.text();
    expect(checkHl7Message(message)).toEqual([]);
    expect(message).toContain('Okafor'); // the author, read through getPractitioner

    // Another patient's encounter is not found, like a missing one.
    expect((await get('/exportFhirEncounter?patientId=p-1&encounterId=e-3')).status).toBe(404);
    expect((await get('/exportFhirEncounter?patientId=p-1&encounterId=e-404')).status).toBe(404);
    expect((await get('/exportFhirEncounter?patientId=p-2&encounterId=e-3')).status).toBe(200);

    repo.setDown(true);
    const down = await get('/exportFhirPatient?patientId=p-1');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.text()).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|unreachable/);
  });

  it('should print the walk-through when run with node', async () => {
    const run = await runExample('custom-data-source.mjs');
    expect(run.code).toBe(0);
    expect(run.stdout.match(/→ \d{3}/g)).toEqual(['→ 200', '→ 200', '→ 200', '→ 404', '→ 503']);
  });
});

describe('examples/hl7-escaping.property.test.mjs', () => {
  it('should pass when run with the command its header gives', () => {
    const header = readFileSync(`${ROOT}examples/hl7-escaping.property.test.mjs`, 'utf8');
    const command = /^\/\/ {3}npm run build && (npx vitest .*)$/m.exec(header)?.[1];
    expect(command).toBeDefined();
    // The outer run's VITEST* variables would make the inner vitest think it is a worker.
    const env = Object.fromEntries(Object.entries(cleanEnv()).filter(([k]) => !k.startsWith('VITEST')));
    const run = spawnSync('sh', ['-c', command as string], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/Tests\s.*\d+ passed/);
  });
});
