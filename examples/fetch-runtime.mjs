// The export interface as a web-standard fetch handler: `(request: Request) => Promise<Response>`.
// This module is the entry of a fetch runtime as it stands:
//
//   Deno:                deno serve --allow-read examples/fetch-runtime.mjs
//   Bun:                 bun run examples/fetch-runtime.mjs      (Bun serves a default export with `fetch`)
//   Cloudflare Workers:  main = "examples/fetch-runtime.mjs" in wrangler.toml
//
// Hono: mount the same handler on a path (keep `basePath` equal to the mount path):
//
//   import { Hono } from 'hono';
//   import exportService from './fetch-runtime.mjs';
//   const app = new Hono();
//   app.get('/', (c) => c.text('ok'));
//   app.all('/export/*', (c) => exportService.fetch(c.req.raw));
//   export default app;
//
// Next.js (App Router), app/export/[route]/route.js:  export const GET = exportService.fetch;
//
// Run with Node to send it two requests in-process:  npm run build && node examples/fetch-runtime.mjs
// (The JSON import below uses import attributes: Node ≥ 20.10, Deno, Bun and bundlers such as wrangler's.)
import { createExportHandler, createInMemoryDataSource, createInMemoryKeyStore } from 'chart-export/http';
import document from './data/demo-chart.json' with { type: 'json' };

/**
 * SHA-256 of the example key `example-key` (from `printf %s example-key | sha256sum`). On a real deployment,
 * keep the hash in the platform's secrets; the plain key never needs to reach the server's configuration.
 */
export const EXAMPLE_KEY_SHA256 = 'c018c41c1afaf2c0b66c64f97d0ee135657b699ad260f299234cd40a5d625e0e';

const handler = createExportHandler({
  // Bundled with the code: edge runtimes have no file system. A real deployment reads a database through a
  // ChartDataSource instead (see custom-data-source.mjs).
  dataSource: createInMemoryDataSource(document),
  keyStore: createInMemoryKeyStore([
    { keyHash: EXAMPLE_KEY_SHA256, keyId: 'example', partnerId: 'example-partner', scopes: ['fhir:export', 'hl7:export'] },
  ]),
  basePath: '/export',
  // Fetch runtimes give no peer address: rate-limit the public directory per client through a header your
  // platform sets (Cloudflare: cf-connecting-ip). Without one, all clients share a counter.
  directoryRateLimit: { limit: 60, windowSeconds: 60, clientAddress: (client) => client.header('cf-connecting-ip') },
});

export default { fetch: handler };

if (typeof process !== 'undefined' && process.argv?.[1] !== undefined && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href) {
  const patientId = document.patients[0]?.patient.id ?? 'none';
  const base = 'http://localhost/export';
  for (const [path, accept] of [
    [`/exportFhirPatient?patientId=${encodeURIComponent(patientId)}`, 'application/fhir+json'],
    [`/exportHl7PatientAdt?patientId=${encodeURIComponent(patientId)}`, 'application/hl7-v2'],
  ]) {
    const response = await handler(new Request(base + path, { headers: { 'x-api-key': 'example-key', accept } }));
    console.log(`GET ${path} → ${response.status} ${response.headers.get('content-type')}`);
    console.log((await response.text()).slice(0, 300).replaceAll('\r', '\n'), '…\n');
  }
}
