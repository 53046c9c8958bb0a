/**
 * The service command end to end: the built entry point (`node dist/cli.js`, what `npm start` and the
 * `chart-export` bin run) on an ephemeral port, with temporary data and key files, every endpoint called
 * once, bodies checked as the adapter's own tests check them; start failures; --help; the demo banner.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants } from 'node:buffer';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHl7Message } from '../../src/index.js';
import { validateFhir } from '../support/fhir-validator.js';
import { IDS, PATIENT_VALUES, chartDocument } from './support/chart-document.js';
import { CLI, ROOT, cleanEnv, ensureBuilt, printedRequests, runCli, startCli, type PrintedRequest } from './support/process.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const FHIR_KEY = 'fhir-key-2Qx9-plain';
const HL7_KEY = 'hl7-key-Lr7w-plain';

let dir: string;
const file = (name: string, content: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
};

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chart-export-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The HL7 message type (MSH-9) each HL7 route answers with. */
const HL7_TYPES: Record<string, string> = {
  exportHl7PatientAdt: 'ADT^A31',
  exportHl7PatientSummary: 'ADR^A19',
  exportHl7Encounter: 'ADT^A08',
  exportHl7Note: 'MDM^T02',
  exportHl7Assessment: 'ORU^R01',
};

/**
 * What the R4 validator reports on the interface's default FHIR output by design: relative `fullUrl`s and
 * `Bundle.total` on collection Bundles, both as the interface gives them by default. `--fhir-base-url` and
 * `--strict-bundle-total` turn both off, and then nothing at all may be reported.
 */
const CONTRACT_DEFAULTS = new Set(['fullurl-absolute', 'bdl-1']);

/** Fetch one printed or built request and check status, headers and body the way the adapter tests do. */
async function expectValidExport(
  url: string,
  headers: Record<string, string>,
  fhir: 'strict' | 'contract-defaults' = 'contract-defaults',
): Promise<{ route: string; body: string; res: Response }> {
  const res = await fetch(url, { headers });
  const body = await res.text();
  const route = new URL(url).pathname.split('/').at(-1) as string;
  expect(res.status, `${route}: ${body.slice(0, 300)}`).toBe(200);
  expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  if (route !== 'publicFhirDirectory') {
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
  }
  if (route.startsWith('exportHl7')) {
    expect(res.headers.get('content-type')).toBe('application/hl7-v2; charset=utf-8');
    expect(checkHl7Message(body), `${route} structure`).toEqual([]);
    const msh = body.split('\r')[0]?.split('|') ?? [];
    expect(msh[8]?.startsWith(HL7_TYPES[route] as string), `${route} MSH-9 ${msh[8]}`).toBe(true);
    expect(msh[11]).toBe('2.5.1');
  } else {
    expect(res.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const json = JSON.parse(body) as { resourceType: string };
    expect(json.resourceType).toBe('Bundle');
    const findings = validateFhir(json).filter((f) => fhir === 'strict' || !CONTRACT_DEFAULTS.has(f.rule));
    expect(findings, `${route} R4 validation`).toEqual([]);
  }
  return { route, body, res };
}

describe('chart-export command (dist/cli.js)', () => {
  it('should be the package bin and what npm start runs, with a node shebang', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.bin).toEqual({ 'chart-export': './dist/cli.js' });
    expect(pkg.scripts['start']).toMatch(/^tsup --config tsup.cli.config.ts --silent && node dist\/cli\.js$/);
    expect(readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(CLI).mode & 0o111).not.toBe(0);
  });

  it('should serve every endpoint from a data file and a key file, then stop cleanly on SIGTERM', async () => {
    // Arrange
    const data = file('chart.json', chartDocument());
    const keys = file('keys.json', {
      keys: [
        { id: 'fhir-1', partner: 'fhir-partner', keySha256: sha256(FHIR_KEY), scopes: ['fhir:export'] },
        { partner: 'hl7-partner', key: HL7_KEY, scopes: ['hl7:export'], rateLimit: { limit: 50, windowSeconds: 60 } },
      ],
    });
    const service = await startCli(
      ['--data', data, '--keys', keys, '--port', '0', '--log', '--sending-application', 'CHARTX', '--shutdown-timeout', '5', '--strict-bundle-total'],
      { CHART_EXPORT_HL7_SENDING_FACILITY: 'RIVERSIDE', CHART_EXPORT_FHIR_BASE_URL: 'https://example.org/fhir' },
    );
    try {
      const banner = service.stdout();
      expect(banner).toContain('fhir-1  partner fhir-partner  fhir:export  600 per 60 s');
      expect(banner).toContain('hl7-partner-1  partner hl7-partner  hl7:export  50 per 60 s');
      expect(banner).not.toContain(HL7_KEY);
      expect(banner).not.toContain(sha256(FHIR_KEY));

      // Act: every endpoint once, as the banner prints it, with the keys the banner asks for.
      const requests = printedRequests(banner, { FHIR_API_KEY: FHIR_KEY, HL7_API_KEY: HL7_KEY });
      expect(requests.map((r) => new URL(r.url).pathname.slice(1))).toEqual([
        'exportFhirPatient',
        'exportFhirPatientBundle',
        'exportFhirEncounter',
        'exportFhirNote',
        'exportFhirAssessment',
        'publicFhirDirectory',
        'exportHl7PatientAdt',
        'exportHl7PatientSummary',
        'exportHl7Encounter',
        'exportHl7Note',
        'exportHl7Assessment',
      ]);
      const results = [];
      for (const r of requests) results.push(await expectValidExport(r.url, r.headers, 'strict'));

      // Assert: ids reached the service intact, the options reached the output.
      for (const r of requests.filter((x) => !x.url.includes('Directory'))) expect(new URL(r.url).searchParams.get('patientId')).toBe(IDS.patient);
      const bundle = JSON.parse(results[0]?.body ?? '{}') as { entry: { fullUrl: string }[]; total?: number };
      expect(bundle.entry[0]?.fullUrl).toMatch(/^https:\/\/example\.org\/fhir\/Patient\//);
      expect(bundle.total).toBeUndefined();
      const adt = results[6]?.body.split('\r')[0]?.split('|') ?? [];
      expect([adt[2], adt[3]]).toEqual(['CHARTX', 'RIVERSIDE']);
      const note = results[9]?.body ?? '';
      expect(note).toContain('calm \\T\\ oriented \\F\\ no SI.');

      // The wrong scope and the demo keys are refused.
      const hl7Route = requests[6] as PrintedRequest;
      expect((await fetch(hl7Route.url, { headers: { ...hl7Route.headers, 'x-api-key': FHIR_KEY } })).status).toBe(403);
      expect((await fetch(hl7Route.url, { headers: { ...hl7Route.headers, 'x-api-key': 'demo-key-full' } })).status).toBe(401);

      // One log line per request, without keys or patient ids.
      const log = service.stderr();
      expect(log).toMatch(/ GET exportFhirPatient 200 [\d.]+ms partner=fhir-partner id=\S+/);
      expect(log).toMatch(/ GET exportHl7Note 200 [\d.]+ms partner=hl7-partner /);
      expect(log).toMatch(/ GET exportHl7PatientAdt 401 [\d.]+ms partner=- /);
      for (const secret of [FHIR_KEY, HL7_KEY, 'demo-key-full', IDS.patient, encodeURIComponent(IDS.patient), ...PATIENT_VALUES]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      // Stop: fetch keeps connections alive; they must not hold the shutdown until its timeout.
      const stopped = await service.stop('SIGTERM');
      expect(stopped.code).toBe(0);
      expect(stopped.ms).toBeLessThan(4000);
      expect(service.stderr()).toContain('chart-export: stopped.');
    }
  });

  it('should print working curl lines for the demo chart, the deliberate failures failing as announced', async () => {
    const service = await startCli(['--port', '0']);
    try {
      const banner = service.stdout();
      for (const key of ['demo-key-full', 'demo-key-fhir', 'demo-key-hl7', 'demo-key-revoked', 'demo-key-limited']) expect(banner).toContain(key);
      const requests = printedRequests(banner);
      expect(requests.filter((r) => r.expectedStatus === 200)).toHaveLength(11);
      expect(requests.filter((r) => r.expectedStatus !== 200).map((r) => r.expectedStatus)).toEqual([401, 403, 429]);
      for (const r of requests) {
        if (r.expectedStatus === 200) {
          const { route, body } = await expectValidExport(r.url, r.headers);
          // MSH-3 defaults to the service's name; MSH-4 stays empty unless configured.
          if (route.startsWith('exportHl7')) expect(body.split('|').slice(2, 4)).toEqual(['CHART-EXPORT', '']);
        } else if (r.expectedStatus !== 429) {
          expect((await fetch(r.url, { headers: r.headers })).status, r.comment).toBe(r.expectedStatus);
        } else {
          // The loop sends limit + 1 requests: all pass but the last. Windows are aligned to the minute, so when
          // one ends mid-loop the loop is simply run again (the next window is a fresh minute).
          const send = async (): Promise<number[]> => {
            const statuses: number[] = [];
            for (let i = 0; i < r.times; i++) statuses.push((await fetch(r.url, { headers: r.headers })).status);
            return statuses;
          };
          let statuses = await send();
          if (!statuses.includes(429)) statuses = await send();
          expect(statuses.at(-1)).toBe(429);
          expect(statuses.slice(0, statuses.indexOf(429)).every((s) => s === 200)).toBe(true);
        }
      }
    } finally {
      expect((await service.stop('SIGINT')).code).toBe(0);
    }
  });

  it('should serve a data file without a key file with a printed session key, never the demo keys', async () => {
    const data = file('chart-session.json', chartDocument());
    const service = await startCli(['--port', '0'], { CHART_EXPORT_DATA: data });
    try {
      const key = /session key.*:\n {2}(\S+)\n/.exec(service.stdout())?.[1];
      expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const requests = printedRequests(service.stdout());
      expect(requests).toHaveLength(11);
      for (const r of requests.slice(0, 2)) await expectValidExport(r.url, r.headers);
      const first = requests[0] as PrintedRequest;
      expect((await fetch(first.url, { headers: { ...first.headers, 'x-api-key': 'demo-key-full' } })).status).toBe(401);
    } finally {
      await service.stop();
    }
  });

  it('should stop with every problem of an invalid data file listed by path, and no patient value', async () => {
    // Arrange: break the document in several places, with values that are patient data.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test breaks the document's shape on purpose
    type Loose = Record<string, any>;
    const doc = chartDocument() as unknown as { patients: Loose[] };
    const chart = doc.patients[0] as Loose;
    chart['patient'].birthDate = '1961-13-09';
    chart['patient'].identifiers[0].value = '';
    chart['patient'].gender = 'Quillfeather';
    chart['encounters'][0].period = { start: '2026-03-02T09:00:00Z', end: '2026-03-01T09:00:00Z' };
    chart['notes'][0].authorId = 'prac-Quillfeather';
    doc.patients[1]!['patient'].id = IDS.patient; // duplicate patient id
    // Act
    const run = await runCli(['--data', file('bad-chart.json', doc), '--port', '0']);
    // Assert
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^chart-export: the data file ".*bad-chart\.json" is not a valid chart document \(\d+ problems\):$/);
    for (const path of [
      'patients[0].patient.birthDate',
      'patients[0].patient.identifiers[0].value',
      'patients[0].patient.gender',
      'patients[0].encounters[0].period',
      'patients[0].notes[0].authorId',
      'patients[1].patient.id',
    ]) {
      expect(lines.some((l) => l.startsWith(`  ${path}`)), `${path} listed`).toBe(true);
    }
    for (const value of [...PATIENT_VALUES, '1961-13-09', 'prac-Quillfeather', IDS.patient]) expect(run.stderr).not.toContain(value);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('should stop with one clear line for an unreadable or non-JSON data file', async () => {
    const notJson = await runCli(['--data', file('broken.json', '{ "patients": [ { "name": "Quillfeather" '), '--port', '0']);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^chart-export: the data file ".*broken\.json" is not valid JSON \(at character \d+\)\n$/);
    const missing = await runCli(['--port', '0'], { CHART_EXPORT_DATA: join(dir, 'nope.json') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^chart-export: cannot read the data file ".*nope\.json": no such file \(ENOENT\)\n$/);
    const directory = await runCli(['--data', dir, '--port', '0']);
    expect(directory.stderr).toMatch(/^chart-export: cannot read the data file .*: it is a directory \(EISDIR\)\n$/);
  });

  it('should say a data file is too large rather than not UTF-8 when it is longer than a string can be', async () => {
    // A sparse file of zero bytes (valid UTF-8) just over the engine's longest string: no disk space used.
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, constants.MAX_STRING_LENGTH + 1);
    try {
      const run = await runCli(['--data', huge, '--port', '0']);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`chart-export: the data file ${JSON.stringify(huge)} is too large: 512 MiB, more than the 512 MiB that can be read\n`);
    } finally {
      rmSync(huge);
    }
  });

  it('should stop with every problem of an invalid key file listed by path, and no key material', async () => {
    const keys = file('bad-keys.json', {
      keys: [
        { partner: 'acme', key: 'plain key with spaces', scopes: ['fhir:export'] },
        { partner: 'acme', keySha256: 'abc123', scopes: ['admin'] },
        { partner: 'beta', key: HL7_KEY, keySha256: sha256(HL7_KEY), scopes: ['hl7:export'] },
        { partner: 'gamma', key: FHIR_KEY, scopes: ['hl7:export'], rateLimit: { limit: 0, windowSeconds: 60 } },
        { partner: 'delta', keySha256: sha256(FHIR_KEY), scopes: ['hl7:export'] },
      ],
    });
    const run = await runCli(['--keys', keys, '--port', '0']);
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `chart-export: the key file ${JSON.stringify(keys)} is not valid (6 problems):`,
      '  keys[0].key: must be 1–512 printable ASCII characters without spaces',
      '  keys[1].keySha256: must be a SHA-256 digest: 64 hexadecimal digits',
      '  keys[1].scopes[0]: must be one of fhir:export, hl7:export',
      '  keys[2]: must give either "key" or "keySha256", not both',
      '  keys[3].rateLimit.limit: must be a positive integer',
      '  keys[4]: is the same key as keys[3] (keys must be unique)',
    ]);
    const notJson = await runCli(['--port', '0'], { CHART_EXPORT_KEYS: file('broken-keys.json', `{ "keys": [ { "key": "${FHIR_KEY}" ] }`) });
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^chart-export: the key file ".*broken-keys\.json" is not valid JSON \(at character \d+\)\n$/);
    for (const out of [run.stderr, notJson.stderr]) for (const secret of [FHIR_KEY, HL7_KEY, sha256(FHIR_KEY), 'plain key with spaces']) expect(out).not.toContain(secret);
  });

  it('should document every option with --help and refuse a wrong option with status 2', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const option of ['--data', '--keys', '--port', '--host', '--base-path', '--fhir-base-url', '--sending-application', '--sending-facility', '--processing-id', '--shutdown-timeout', '--log', 'PORT', 'CHART_EXPORT_DATA', 'CHART_EXPORT_KEYS']) {
      expect(help.stdout).toContain(option);
    }
    const wrong = await runCli(['--prot', '80']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^chart-export: Unknown option '--prot'.*\nRun chart-export --help for the options\.\n$/);
  });

  it('should say so in one line when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const run = await runCli([], { PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`chart-export: cannot listen on 127.0.0.1:${port}: the port is already in use; choose another with --port or PORT (0 = any free port) (EADDRINUSE)\n`);
    } finally {
      blocker.close();
    }
  });

  it('should finish a request in flight on SIGTERM, then exit 0; and cut one still open after the timeout, exit 1', async () => {
    /** Open a connection and send a request's head without the blank line that ends it: in flight, not done. */
    const openRequest = async (origin: string): Promise<{ socket: Socket; received: () => string }> => {
      const { hostname, port } = new URL(origin);
      const socket = connect(Number(port), hostname);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let received = '';
      socket.setEncoding('utf8').on('data', (d: string) => (received += d));
      socket.on('error', () => undefined);
      socket.write('GET /exportHl7PatientAdt?patientId=pat-0001 HTTP/1.1\r\nHost: localhost\r\nx-api-key: demo-key-hl7\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { socket, received: () => received };
    };

    // Completed during the grace period: answered, clean exit.
    const first = await startCli(['--port', '0', '--shutdown-timeout', '5']);
    const inFlight = await openRequest(first.origin);
    const stopping = first.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await fetch(`${first.origin}/publicFhirDirectory?resourceType=Location`).catch(() => undefined))?.status).toBeUndefined(); // no new connections
    inFlight.socket.write('\r\n');
    const stopped = await stopping;
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(stopped.code).toBe(0);
    expect(first.stderr()).toContain('chart-export: stopped.');

    // Never completed: cut when the grace period ends.
    const second = await startCli(['--port', '0', '--shutdown-timeout', '0.5']);
    const stalled = await openRequest(second.origin);
    const cut = await second.stop('SIGTERM');
    expect(cut.code).toBe(1);
    expect(cut.ms).toBeGreaterThanOrEqual(450);
    expect(second.stderr()).toContain('requests still in flight after the timeout were cut');
    stalled.socket.destroy();
  });

  it('should keep serving, without a stack trace, when the reader of its output goes away (EPIPE)', async () => {
    // `chart-export | head -1`: the pipe's reader is gone before the banner is written.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const child = spawn(process.execPath, [CLI, '--port', String(port), '--log'], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      let status: number | undefined;
      for (let i = 0; i < 100 && status === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await fetch(`http://127.0.0.1:${port}/publicFhirDirectory?resourceType=Location`).catch(() => undefined))?.status;
      }
      expect(status, err).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(err).not.toMatch(/EPIPE|\n\s+at /);
    expect(err).toContain('chart-export: stopped.');
  });

  it('should stop when started by an npm script whose shell goes away (npm forwards SIGTERM to the shell only)', async () => {
    // npm start runs `sh -c "… && node dist/cli.js"`; the shell does not pass a SIGTERM on.
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${CLI}" --port 0`], {
      cwd: ROOT,
      env: cleanEnv({ npm_lifecycle_event: 'start' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    shell.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    shell.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    // Kill the shell as soon as the first banner line is out, while the service may still be printing the
    // rest: the parent it watches was read before any output, so this early exit is still seen.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (/listening on http:\/\/\S+\n/.test(out)) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    const origin = /listening on (http:\/\/\S+)/.exec(out)?.[1] as string;
    shell.kill('SIGTERM');
    // The pipes stay open while the service runs, so 'close' means the service itself has exited.
    await new Promise((resolve) => shell.on('close', resolve));
    expect(err).toContain('chart-export: npm exited: stopping;');
    expect(err).toContain('chart-export: stopped.');
    await expect(fetch(`${origin}/publicFhirDirectory?resourceType=Location`)).rejects.toThrow();
  });

  it('should serve the demo chart with examples/keys.example.json, as the README shows', async () => {
    const service = await startCli(['--port', '0', '--keys', 'examples/keys.example.json']);
    try {
      expect(service.stdout()).toContain('acme-2026-01  partner acme  fhir:export, hl7:export  600 per 60 s');
      expect(service.stdout()).not.toContain('demo-key-full');
      const [fhirPatient] = printedRequests(service.stdout(), { FHIR_API_KEY: 'acme-example-key' });
      const adt = printedRequests(service.stdout(), { HL7_API_KEY: 'beta-example-key' }).find((r) => r.url.includes('exportHl7PatientAdt'));
      if (fhirPatient === undefined || adt === undefined) throw new Error('banner lines missing');
      await expectValidExport(fhirPatient.url, fhirPatient.headers);
      await expectValidExport(adt.url, adt.headers);
      await expectValidExport(fhirPatient.url, { ...fhirPatient.headers, 'x-api-key': 'only-on-my-laptop' });
      expect((await fetch(fhirPatient.url, { headers: { ...fhirPatient.headers, 'x-api-key': 'beta-example-key' } })).status).toBe(403);
      expect((await fetch(fhirPatient.url, { headers: { ...fhirPatient.headers, 'x-api-key': 'demo-key-full' } })).status).toBe(401);
    } finally {
      await service.stop();
    }
  });

  it('should serve under a base path', async () => {
    const service = await startCli(['--port', '0', '--base-path', '/chart-export/']);
    try {
      expect(service.stdout()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/chart-export\n/);
      const requests = printedRequests(service.stdout());
      expect(new URL(requests[0]?.url ?? '').pathname).toBe('/chart-export/exportFhirPatient');
      await expectValidExport(requests[0]?.url ?? '', requests[0]?.headers ?? {});
      expect((await fetch(`${service.origin}/exportFhirPatient`)).status).toBe(404);
    } finally {
      await service.stop();
    }
  });
});
