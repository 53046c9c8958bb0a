/**
 * Bulk Data export against the service command (`node dist/cli.js`, what `npm start` runs), as a standard Bulk
 * Data client configured with no OAuth and an `x-api-key` header does it: discover `/metadata`, kick off
 * (GET, and POST with a `Parameters` body), poll the status URL waiting `Retry-After` seconds, read the
 * manifest, fetch every file with the same header. And the banner's Bulk and directory-paging examples, run by
 * a real shell.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateFhir } from '../support/fhir-validator.js';
import { ensureBuilt, startCli, type Service } from './support/process.js';

const KEY = { 'x-api-key': 'demo-key-fhir' };

let service: Service;
beforeAll(async () => {
  ensureBuilt();
  service = await startCli(['--port', '0']);
});
afterAll(async () => {
  await service?.stop();
});

interface Manifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: { type: string; url: string; count: number }[];
  error: unknown[];
}

/** What a Bulk client does after the kick-off: poll, honouring Retry-After, until the manifest. */
async function pollManifest(statusUrl: string): Promise<Manifest> {
  for (let i = 0; i < 60; i++) {
    const res = await fetch(statusUrl, { headers: KEY });
    if (res.status === 200) {
      expect(res.headers.get('content-type')).toBe('application/json');
      return (await res.json()) as Manifest;
    }
    expect(res.status).toBe(202);
    const wait = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(wait) && wait >= 1).toBe(true);
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
  throw new Error('no manifest');
}

describe('Bulk Data export against the chart-export command', () => {
  it('should be discoverable in the CapabilityStatement', async () => {
    const res = await fetch(`${service.origin}/metadata`, { headers: { accept: 'application/fhir+json' } });
    expect(res.status).toBe(200);
    const statement = (await res.json()) as { resourceType: string; instantiates: string[]; rest: { operation: { name: string; definition: string }[] }[] };
    expect(statement.instantiates).toContain('http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data');
    expect(statement.rest[0]?.operation[0]?.definition).toBe('http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export');
  });

  it('should run a whole export as a standard client does: kick-off, poll with Retry-After, manifest, every file', async () => {
    const kickOff = await fetch(`${service.origin}/Patient/$export?_outputFormat=application%2Ffhir%2Bndjson`, {
      headers: { ...KEY, accept: 'application/fhir+json', prefer: 'respond-async' },
    });
    expect(kickOff.status).toBe(202);
    const statusUrl = kickOff.headers.get('content-location') as string;
    expect(statusUrl.startsWith(`${service.origin}/`)).toBe(true);
    const manifest = await pollManifest(statusUrl);
    expect(manifest.requiresAccessToken).toBe(true);
    expect(manifest.error).toEqual([]);
    expect(manifest.request).toBe(`${service.origin}/Patient/$export?_outputFormat=application%2Ffhir%2Bndjson`);
    expect(manifest.output.map((f) => f.type)).toContain('Patient');
    for (const file of manifest.output) {
      const res = await fetch(file.url, { headers: { ...KEY, accept: 'application/fhir+ndjson' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/fhir+ndjson');
      const lines = (await res.text()).split('\n').filter((l) => l !== '');
      expect(lines.length).toBe(file.count);
      for (const line of lines) {
        const resource = JSON.parse(line) as { resourceType: string };
        expect(resource.resourceType).toBe(file.type);
        expect(validateFhir(resource).filter((f) => f.severity === 'error')).toEqual([]);
      }
    }
  });

  it('should take a POST kick-off with a Parameters body, and cancel with DELETE', async () => {
    const kickOff = await fetch(`${service.origin}/$export`, {
      method: 'POST',
      headers: { ...KEY, accept: 'application/fhir+json', prefer: 'respond-async', 'content-type': 'application/fhir+json' },
      body: JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: '_type', valueString: 'Practitioner' }] }),
    });
    expect(kickOff.status).toBe(202);
    const statusUrl = kickOff.headers.get('content-location') as string;
    const manifest = await pollManifest(statusUrl);
    expect(manifest.output.map((f) => f.type)).toEqual(['Practitioner']);
    expect((await fetch(statusUrl, { method: 'DELETE', headers: KEY })).status).toBe(202);
    expect((await fetch(statusUrl, { headers: KEY })).status).toBe(404);
  });

  it('should print a Bulk example that works in a shell', async () => {
    const banner = service.stdout();
    const lines = banner.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Bulk Data export'));
    expect(at).toBeGreaterThan(0);
    const script = lines.slice(at + 1, at + 4).map((l) => l.trim()).join('\n');
    const out = await new Promise<string>((resolve, reject) => {
      execFile('sh', ['-c', script], { timeout: 60_000 }, (error, stdout) => (error === null ? resolve(stdout) : reject(error)));
    });
    const [status, manifest, first] = out.split('\n');
    expect(status).toMatch(new RegExp(`^${service.origin.replace(/[.]/g, '\\.')}/bulkstatus/[0-9a-f-]{36}$`));
    expect((JSON.parse(manifest as string) as Manifest).requiresAccessToken).toBe(true);
    expect((JSON.parse(first as string) as { resourceType: string }).resourceType).toBe('Patient');
  });

  it('should print a directory-paging example that works in a shell: two pages, each record once', async () => {
    const lines = service.stdout().split('\n');
    const at = lines.findIndex((l) => l.startsWith('Paging the public directory'));
    expect(at).toBeGreaterThan(0);
    const script = lines.slice(at + 1, at + 3).map((l) => l.trim()).join('\n');
    const out = await new Promise<string>((resolve, reject) => {
      execFile('sh', ['-c', script], { timeout: 60_000 }, (error, stdout) => (error === null ? resolve(stdout) : reject(error)));
    });
    interface Page {
      type: string;
      link: { relation: string; url: string }[];
      entry: { resource: { resourceType: string; id: string } }[];
    }
    const [first, second] = out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Page);
    for (const page of [first, second] as Page[]) {
      expect(page.type).toBe('searchset');
      expect(page.entry.map((e) => e.resource.resourceType)).toEqual(['Practitioner', 'Practitioner']);
    }
    const ids = [...(first as Page).entry, ...(second as Page).entry].map((e) => e.resource.id);
    expect(new Set(ids).size).toBe(4);
    expect((second as Page).link.find((l) => l.relation === 'self')?.url).toBe((first as Page).link.find((l) => l.relation === 'next')?.url);
  });
});
