/**
 * The service command in operation: keys reloaded on SIGHUP under load, the JSON request log, slow clients
 * dropped by the server timeouts, and a clear error when the Redis client is not installed.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants as fsConstants, cpSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS, PATIENT_VALUES, chartDocument } from './support/chart-document.js';
import { CLI, ROOT, cleanEnv, ensureBuilt, startCli, type Service } from './support/process.js';

const KEY_A = 'reload-key-A-MARKERKEY-9q';
const KEY_B = 'reload-key-B-Zp41';

let dir: string;
const services: Service[] = [];
/** Children started without waiting for their banner. */
const spawned: ChildProcess[] = [];
const file = (name: string, content: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chart-export-ops-'));
});
afterAll(async () => {
  await Promise.all(services.map((s) => (s.child.exitCode === null ? s.stop('SIGKILL') : undefined)));
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function start(args: readonly string[]): Promise<Service> {
  const service = await startCli(['--port', '0', ...args]);
  services.push(service);
  return service;
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A named pipe in the test directory: reading it waits until something writes it. */
function namedPipe(name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/**
 * Open a named pipe for writing once a reader has opened it: polled without blocking (a writer's open fails
 * with ENXIO while there is no reader), so a command that never reads it fails the test instead of hanging it.
 */
async function openedByReader(path: string): Promise<FileHandle> {
  const started = Date.now();
  for (;;) {
    let probe: number | undefined;
    try {
      probe = openSync(path, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      if (Date.now() - started > 15_000) throw new Error(`no reader opened ${path}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    // A reader is there, so a blocking open returns at once; the probe closes after it, or the reader would see the end.
    const writer = await openFile(path, 'w');
    closeSync(probe);
    return writer;
  }
}

/** The command in a child process, with what it printed so far (for a start that is watched before its banner). */
function spawnCli(args: readonly string[]): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<[number | null, NodeJS.Signals | null]> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  spawned.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
  return { child, stdout: () => out, stderr: () => err, exited };
}

const keyFile = (revokedA: boolean): unknown => ({
  keys: [
    { keyId: 'a', partnerId: 'acme', key: KEY_A, scopes: ['fhir:export'], revoked: revokedA },
    { keyId: 'b', partnerId: 'beta', key: KEY_B, scopes: ['fhir:export'] },
  ],
});

describe('chart-export in operation', () => {
  it('should put a revoked key out of force on the next request after SIGHUP, under load, and keep the keys when the new file is broken', async () => {
    const keys = file('keys.json', keyFile(false));
    const service = await start(['--keys', keys]);
    const url = `${service.origin}/exportFhirPatient?patientId=pat-0001`;
    const get = async (key: string): Promise<number> => {
      const res = await fetch(url, { headers: { 'x-api-key': key } });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await get(KEY_A)).toBe(200);

    // Load: two loops of requests with key B run through both reloads; none may fail because of them.
    let loading = true;
    const statuses: number[] = [];
    const loops = [0, 1].map(async () => {
      while (loading) statuses.push(await get(KEY_B));
    });
    try {
      writeFileSync(keys, JSON.stringify(keyFile(true)));
      service.child.kill('SIGHUP');
      await waitFor(() => service.stderr().includes('SIGHUP: reloaded 2 keys'), 10_000, 'the reload');
      expect(await get(KEY_A)).toBe(401);

      // A broken file: refused with its problems by path, and the keys in force stay.
      writeFileSync(keys, JSON.stringify({ keys: [{ keyId: 'a', partnerId: 'acme', key: KEY_A, scopes: ['admin'] }, { partnerId: 'x', keyHash: KEY_B, scopes: ['fhir:export'] }] }));
      service.child.kill('SIGHUP');
      await waitFor(() => service.stderr().includes('key file refused'), 10_000, 'the refusal');
      expect(await get(KEY_A)).toBe(401);
      expect(await get(KEY_B)).toBe(200);
    } finally {
      loading = false;
      await Promise.all(loops);
    }
    expect(statuses.length).toBeGreaterThan(10);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const stderr = service.stderr();
    expect(stderr).toContain('keys[0].scopes[0]: must be one of fhir:export, hl7:export');
    expect(stderr).toContain('keys[1].keyHash: must be a SHA-256 digest: 64 hexadecimal digits');
    expect(stderr).not.toContain(KEY_A);
    expect(stderr).not.toContain(KEY_B);
    expect(service.child.exitCode).toBeNull();
  });

  it('should log one JSON object per request without patient data or key material', async () => {
    const data = file('chart.json', chartDocument());
    const keys = file('log-keys.json', { keys: [{ keyId: 'logged', partnerId: 'acme', key: KEY_A, scopes: ['fhir:export', 'hl7:export'] }] });
    const service = await start(['--data', data, '--keys', keys, '--log', 'json']);
    const patient = encodeURIComponent(IDS.patient);
    for (const [route, key] of [
      ['exportFhirPatient', KEY_A],
      ['exportHl7PatientAdt', KEY_A],
      ['exportFhirPatient', 'wrong-MARKERKEY-key'],
    ] as const) {
      const res = await fetch(`${service.origin}/${route}?patientId=${patient}`, { headers: { 'x-api-key': key } });
      expect(await res.text()).not.toBe('');
    }
    await fetch(`${service.origin}/exportFhirPatient?patientId=pat-missing`, { headers: { 'x-api-key': KEY_A } });
    await waitFor(() => service.stderr().trim().split('\n').length >= 4, 5000, 'four log lines');
    const lines = service.stderr().trim().split('\n');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e['route'], e['status'], e['partner']])).toEqual([
      ['exportFhirPatient', 200, 'acme'],
      ['exportHl7PatientAdt', 200, 'acme'],
      ['exportFhirPatient', 401, null],
      ['exportFhirPatient', 404, 'acme'],
    ]);
    for (const e of entries) {
      expect(Object.keys(e).sort()).toEqual(['durationMs', 'level', 'method', 'partner', 'requestId', 'route', 'status', 'time']);
      expect(e['method']).toBe('GET');
      expect(typeof e['durationMs']).toBe('number');
      expect(Date.parse(e['time'] as string)).toBeGreaterThan(0);
    }
    for (const secret of [...PATIENT_VALUES, IDS.patient, patient, 'MARKERKEY', 'pat-missing']) expect(service.stderr()).not.toContain(secret);
  });

  it('should drop a client that sends half a header line within the headers timeout', async () => {
    const service = await start(['--headers-timeout', '1', '--request-timeout', '2']);
    const { port } = new URL(service.origin);
    const started = Date.now();
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port) });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('still connected after 8 s'));
      }, 8000);
      socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a'));
      socket.on('data', () => undefined);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(Date.now() - started);
      });
    });
    // The timeout is 1 s, checked once a second: dropped after 1 to about 2 s, never the 30 s of Node's default check.
    expect(closedAfter).toBeGreaterThanOrEqual(900);
    expect(closedAfter).toBeLessThan(4000);
    expect(service.child.exitCode).toBeNull();
  });

  it('should stay up through a SIGHUP during start-up, then serve and read the key file again', async () => {
    // The data file is a named pipe: the command's start waits in its read until the test writes the chart.
    const fifo = namedPipe('slow-chart.fifo');
    const keys = file('startup-keys.json', keyFile(false));
    const run = spawnCli(['--port', '0', '--data', fifo, '--keys', keys]);
    const writer = await openedByReader(fifo);
    try {
      // The command is reading its data file, so past its signal handlers: a SIGHUP now must not end it.
      run.child.kill('SIGHUP');
      await waitFor(() => run.stderr().includes('SIGHUP during start-up'), 10_000, 'the start-up SIGHUP line');
      run.child.kill('SIGHUP');
      // A change to the key file after it was read for the start would be missed without the queued reload.
      writeFileSync(keys, JSON.stringify(keyFile(true)));
      await writer.writeFile(JSON.stringify(chartDocument()));
    } finally {
      await writer.close();
    }
    await waitFor(() => run.stdout().includes('Press Ctrl+C to stop.') || run.child.exitCode !== null, 15_000, 'the banner');
    expect(run.child.exitCode).toBeNull();
    const origin = /listening on (http:\/\/[^\s/]+)/.exec(run.stdout())?.[1] as string;
    await waitFor(() => run.stderr().includes('SIGHUP: reloaded 2 keys'), 10_000, 'the queued reload');
    const status = async (key: string): Promise<number> => {
      const res = await fetch(`${origin}/exportFhirPatient?patientId=${encodeURIComponent(IDS.patient)}`, { headers: { 'x-api-key': key } });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await status(KEY_B)).toBe(200);
    expect(await status(KEY_A)).toBe(401);
    // Two signals during the start: one line, one reload.
    expect(run.stderr().split('SIGHUP during start-up').length).toBe(2);
    expect(run.stderr().split('SIGHUP: reloaded').length).toBe(2);
    expect(run.child.exitCode).toBeNull();
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('should stop at once on %s during start-up, even with a read still blocked', async (signal) => {
    const fifo = namedPipe(`never-written-${signal}.fifo`);
    const run = spawnCli(['--port', '0', '--data', fifo]);
    // The writer stays open and silent: the command's read of its data file never returns.
    const writer = await openedByReader(fifo);
    try {
      run.child.kill(signal);
      expect(await run.exited).toEqual([null, signal]);
    } finally {
      await writer.close();
    }
    expect(run.stderr()).toBe(`chart-export: ${signal} during start-up: stopping before serving.\n`);
    expect(run.stdout()).toBe('');
  });

  it('should say in one line to install ioredis when --redis-url is given without the client', async () => {
    // The built command copied where no node_modules can be found.
    const isolated = mkdtempSync(join(tmpdir(), 'chart-export-no-redis-'));
    try {
      cpSync(join(ROOT, 'dist'), join(isolated, 'dist'), { recursive: true });
      writeFileSync(join(isolated, 'package.json'), JSON.stringify({ type: 'module' }));
      const { spawnSync } = await import('node:child_process');
      const run = spawnSync(process.execPath, [join(isolated, 'dist', 'cli.js'), '--port', '0', '--redis-url', 'redis://:pw-SECRET@127.0.0.1:1'], {
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe('chart-export: --redis-url needs the ioredis client, which is not installed: run  npm install ioredis\n');
      expect(run.stdout).toBe('');
    } finally {
      rmSync(isolated, { recursive: true, force: true });
    }
  });
});
