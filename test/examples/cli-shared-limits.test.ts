/**
 * The service command with shared rate limits: several `node dist/cli.js` processes and one real
 * `redis-server` on a free loopback port. Exact counts across processes, instances whose clocks disagree by
 * minutes, Redis stopped, restarted and its scripts flushed mid-run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisTestServer } from '../support/redis-server.js';
import { ensureBuilt, startCli, type Service } from './support/process.js';

const KEY = 'shared-limit-key-Tq83';
const LIMIT = 50;
/** Windows are aligned to the epoch on Redis's clock: 4 s leaves room for 200 requests on a loaded machine. */
const WINDOW_S = 4;
const SKEW_MS = 7 * 60_000;

let dir: string;
let redis: RedisTestServer;
let keys: string;
const services: Service[] = [];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chart-export-shared-'));
  redis = await startRedisServer();
  keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify({ keys: [{ keyId: 'limited', partnerId: 'acme', key: KEY, scopes: ['fhir:export'], rateLimit: { limit: LIMIT, windowSeconds: WINDOW_S } }] }));
  // Shifts this process's clock by minutes: Date.now and new Date() both.
  writeFileSync(
    join(dir, 'skew.mjs'),
    `const realNow = Date.now; const RealDate = Date;
     globalThis.Date = class extends RealDate { constructor(...a) { if (a.length === 0) super(realNow() + ${SKEW_MS}); else super(...a); } static now() { return realNow() + ${SKEW_MS}; } };`,
  );
});

afterAll(async () => {
  await Promise.all(services.map((s) => (s.child.exitCode === null ? s.stop('SIGKILL') : undefined)));
  await redis.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(extra: readonly string[] = [], nodeArgs: readonly string[] = []): Promise<Service> {
  const service = await startCli(['--port', '0', '--keys', keys, '--redis-url', redis.url, '--redis-prefix', `t${services.length}:`, ...extra], {}, nodeArgs);
  services.push(service);
  return service;
}

/** Start `n` processes sharing one prefix (so one set of counters). */
async function startGroup(n: number, prefix: string, nodeArgsOf: (i: number) => readonly string[] = () => []): Promise<Service[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const service = await startCli(['--port', '0', '--keys', keys, '--redis-url', redis.url, '--redis-prefix', prefix], {}, nodeArgsOf(i));
      services.push(service);
      return service;
    }),
  );
}

async function exportPatient(service: Service): Promise<{ status: number; reset: string | null; retryAfter: string | null }> {
  const res = await fetch(`${service.origin}/exportFhirPatient?patientId=pat-0001`, { headers: { 'x-api-key': KEY } });
  await res.arrayBuffer();
  return { status: res.status, reset: res.headers.get('x-ratelimit-reset'), retryAfter: res.headers.get('retry-after') };
}

/** Wait until a window has just begun (on this machine's clock, which Redis shares here), plus `offsetMs`. */
async function alignToWindow(offsetMs = 100): Promise<void> {
  const w = WINDOW_S * 1000;
  const wait = w - (Date.now() % w) + offsetMs;
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Wait until the service answers 200 again (Redis back), polling. */
async function waitForStatus(service: Service, status: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { status: got } = await exportPatient(service);
    if (got === status) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`still ${got} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function count(statuses: readonly number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe('chart-export --redis-url (several processes, one redis-server)', () => {
  it('should admit exactly the limit of 200 parallel requests spread over four processes, and admit again in the next window', async () => {
    const group = await startGroup(4, 'exact:');
    for (const s of group) await waitForStatus(s, 200, 10_000); // connected
    await alignToWindow();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => exportPatient(group[i % 4] as Service)));
    expect(new Set(answers.map((a) => a.reset)).size, 'all in one window').toBe(1);
    expect(count(answers.map((a) => a.status))).toEqual({ 200: LIMIT, 429: 200 - LIMIT });
    expect(answers.filter((a) => a.status === 429).every((a) => Number(a.retryAfter) >= 1)).toBe(true);

    await alignToWindow();
    const next = await Promise.all(group.map((s) => exportPatient(s)));
    expect(next.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it("should share the directory's per-address limit across processes", async () => {
    const group = await Promise.all(
      [0, 1].map(async () => {
        const service = await startCli(['--port', '0', '--keys', keys, '--redis-url', redis.url, '--redis-prefix', 'dir:', '--directory-rate-limit', `10/${WINDOW_S}`]);
        services.push(service);
        return service;
      }),
    );
    for (const s of group) await waitForStatus(s, 200, 10_000);
    await alignToWindow();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const res = await fetch(`${(group[i % 2] as Service).origin}/publicFhirDirectory?resourceType=Practitioner&limit=1`);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(count(statuses)).toEqual({ 200: 10, 429: 20 });
  });

  it('should count in the same window on instances whose clocks differ by minutes', async () => {
    const [plain, skewed] = await startGroup(2, 'skew:', (i) => (i === 1 ? ['--import', join(dir, 'skew.mjs')] : []));
    const a = plain as Service;
    const b = skewed as Service;
    await waitForStatus(a, 200, 10_000);
    await waitForStatus(b, 200, 10_000);
    await alignToWindow();
    const answers = await Promise.all(Array.from({ length: 2 * LIMIT }, (_, i) => exportPatient(i % 2 === 0 ? a : b)));
    expect(count(answers.map((x) => x.status))).toEqual({ 200: LIMIT, 429: LIMIT });
    // Both report the reset of Redis's window, not one of their own clocks (7 minutes apart).
    expect(new Set(answers.map((x) => x.reset)).size).toBe(1);
    expect(Math.abs(Number(answers[0]?.reset) * 1000 - Date.now())).toBeLessThan(WINDOW_S * 1000 + 1000);
  });

  it('should answer 503 with Retry-After while Redis is stopped, stay up, and serve again once it is back, exactly', async () => {
    const service = await start();
    await waitForStatus(service, 200, 10_000);
    await redis.stop();
    try {
      const down = await Promise.all(Array.from({ length: 10 }, () => exportPatient(service)));
      expect(down.map((d) => d.status)).toEqual(Array(10).fill(503));
      expect(down.every((d) => Number(d.retryAfter) >= 1)).toBe(true);
    } finally {
      await redis.start();
    }
    await waitForStatus(service, 200, 15_000);
    expect(service.child.exitCode).toBeNull();
    expect(service.stderr()).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/? is unavailable/);
    expect(service.stderr()).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/? is back/);
    expect(service.stderr()).not.toMatch(/Unhandled|at .*\.js:\d+/);

    // SCRIPT FLUSH between two halves of one window: the limiter sends the script again, the count is exact.
    const client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await alignToWindow();
      const first = await Promise.all(Array.from({ length: 30 }, () => exportPatient(service)));
      await client.sendCommand(['SCRIPT', 'FLUSH']);
      const second = await Promise.all(Array.from({ length: 70 }, () => exportPatient(service)));
      const all = [...first, ...second];
      expect(new Set(all.map((x) => x.reset)).size).toBe(1);
      expect(count(all.map((x) => x.status))).toEqual({ 200: LIMIT, 429: 100 - LIMIT });
    } finally {
      await client.close();
    }
  });

  it('should report readiness 503 while Redis is stopped (liveness stays 200) and move its metrics', async () => {
    const service = await start(['--metrics']);
    await waitForStatus(service, 200, 10_000);
    const readyz = async (): Promise<number> => (await fetch(`${service.origin}/readyz`)).status;
    const metric = async (pattern: RegExp): Promise<number> => {
      const text = await (await fetch(`${service.origin}/metrics`)).text();
      return text
        .split('\n')
        .filter((line) => pattern.test(line))
        .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    };
    expect(await readyz()).toBe(200);
    const ok = await metric(/^chart_export_requests_total\{.*route="exportFhirPatient".*status="200"/);
    expect(ok).toBeGreaterThanOrEqual(1);
    await exportPatient(service);
    expect(await metric(/^chart_export_requests_total\{.*route="exportFhirPatient".*status="200"/)).toBe(ok + 1);

    // 503s before the client first connected (a loaded machine) count too: compare with the count before.
    const unavailable = /^chart_export_requests_total\{.*route="exportFhirPatient".*status="503"/;
    const before = await metric(unavailable);
    await redis.stop();
    try {
      expect(await readyz()).toBe(503);
      expect((await fetch(`${service.origin}/healthz`)).status).toBe(200);
      await exportPatient(service);
      await exportPatient(service);
      expect(await metric(unavailable)).toBe(before + 2);
    } finally {
      await redis.start();
    }
    await waitForStatus(service, 200, 15_000);
    expect(await readyz()).toBe(200);
  });

  it("should never print the URL's password, in the banner or any log line, text or JSON, through an outage", async () => {
    const password = 'pw-S3CRET-mark@#:/%é';
    const encoded = encodeURIComponent(password);
    const admin = new Redis(redis.url);
    const createUser = (): Promise<unknown> => admin.call('ACL', 'SETUSER', 'limiter', 'on', `>${password}`, '~*', '+@all');
    admin.on('error', () => undefined);
    try {
      await createUser();
      const url = `redis://limiter:${encoded}@127.0.0.1:${redis.port}`;
      const masked = `redis://****:****@127.0.0.1:${redis.port}`;
      const text = await startCli(['--port', '0', '--keys', keys, '--redis-url', url, '--redis-prefix', 'pw:', '--log']);
      const json = await startCli(['--port', '0', '--keys', keys, '--redis-prefix', 'pw:', '--log', 'json'], { CHART_EXPORT_REDIS_URL: url });
      const wrong = await startCli(['--port', '0', '--keys', keys, '--redis-url', `redis://limiter:${encoded}-wrong@127.0.0.1:${redis.port}`, '--redis-prefix', 'pw:']);
      services.push(text, json, wrong);
      await waitForStatus(text, 200, 10_000);
      await waitForStatus(json, 200, 10_000);
      expect((await exportPatient(wrong)).status).toBe(503);

      await redis.stop();
      try {
        expect((await exportPatient(text)).status).toBe(503);
        expect((await exportPatient(json)).status).toBe(503);
      } finally {
        await redis.start();
        await createUser(); // the restarted server is empty: ioredis retries until the user exists again
      }
      await waitForStatus(text, 200, 15_000);
      await waitForStatus(json, 200, 15_000);

      expect(text.stdout()).toContain(`Rate limits: shared on Redis at ${masked} (fail closed`);
      expect(text.stderr()).toContain(`chart-export: Redis at ${masked} is connected: rate limits are shared`);
      expect(text.stderr()).toMatch(new RegExp(`chart-export: warning: Redis at ${masked.replaceAll('*', '\\*')} is unavailable: `));
      expect(text.stderr()).toContain(`chart-export: Redis at ${masked} is back: rate limits are shared`);
      const jsonEvents = json
        .stderr()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { level: string; message?: string });
      // Request lines have no message; the service's events do.
      expect(jsonEvents.filter((e) => e.message?.includes(`Redis at ${masked} `) === true).map((e) => e.level)).toEqual(['info', 'warn', 'info']);
      expect(wrong.stderr()).toMatch(/is unavailable: WRONGPASS/);
      for (const service of [text, json, wrong]) {
        for (const output of [service.stdout(), service.stderr()]) {
          expect(output).not.toContain('S3CRET');
          expect(output).not.toContain(encoded);
        }
      }
    } finally {
      await admin.call('ACL', 'DELUSER', 'limiter').catch(() => undefined);
      admin.disconnect();
    }
  });
});
