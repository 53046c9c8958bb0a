// The export interface on a plain node:http server.
//
//   npm run build && node examples/node-server.mjs          (PORT=3000, API_KEY=example-key by default)
//   curl -H 'x-api-key: example-key' 'http://127.0.0.1:3000/exportHl7PatientAdt?patientId=<a patient id>'
//
// `toNodeListener` turns the handler into `(req, res)`; for our own handler it skips building a web
// `Request`, so it is as fast as a hand-written listener.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  createExportHandler,
  createFixedWindowRateLimiter,
  createInMemoryDataSource,
  createInMemoryKeyStore,
  hashApiKey,
  loadChartDocument,
  toNodeListener,
} from 'chart-export/http';

/**
 * Build the server (not listening yet).
 * @param {{ apiKey?: string, dataFile?: URL | string }} [options] - the key partners send, and the chart document
 * @returns {Promise<import('node:http').Server>}
 */
export async function createExampleServer(options = {}) {
  const apiKey = options.apiKey ?? 'example-key';
  // loadChartDocument checks the document and reports every problem with its path (never a patient value).
  const document = loadChartDocument(await readFile(options.dataFile ?? new URL('./data/demo-chart.json', import.meta.url)));
  const handler = createExportHandler({
    dataSource: createInMemoryDataSource(document), // checked just above
    // The store keeps SHA-256 hashes only; keep the plain key out of your configuration if you can.
    keyStore: createInMemoryKeyStore([
      { keyHash: await hashApiKey(apiKey), keyId: 'example', partnerId: 'example-partner', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 120, windowSeconds: 60 } },
    ]),
    rateLimiter: createFixedWindowRateLimiter(),
    hl7: { sendingApplication: 'CHART-EXPORT', sendingFacility: 'EXAMPLE' },
    observer: (o) => console.error(`${o.method} ${o.route ?? '-'} ${o.status} ${o.durationMs.toFixed(1)}ms`),
  });
  return createServer(toNodeListener(handler));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = await createExampleServer({ apiKey: process.env.API_KEY || 'example-key' });
  server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    console.log(`listening on http://127.0.0.1:${port}`);
  });
  // Stop accepting, let requests in flight finish, then exit.
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
}
