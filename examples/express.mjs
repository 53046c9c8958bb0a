// The export interface mounted in an Express 5 app, next to the app's own routes.
//
//   npm run build && node examples/express.mjs               (PORT=3000, API_KEY=example-key by default)
//   curl -H 'x-api-key: example-key' 'http://127.0.0.1:3000/export/exportFhirPatient?patientId=<a patient id>'
//
// The listener is a `(req, res)` function, so it is also an Express middleware. Mount it on a path:
// Express strips the mount path from `req.url`, so the handler itself needs no base path. It always
// answers (404 for paths it does not know) and never calls `next`, so mount your own routes first or on
// other paths.
import express from 'express';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createInMemoryDataSource, createInMemoryKeyStore, hashApiKey, loadChartDocument, toNodeListener } from 'chart-export/http';

/**
 * Build the Express app.
 * @param {{ apiKey?: string }} [options] - the key partners send
 * @returns {Promise<import('express').Express>}
 */
export async function createExampleApp(options = {}) {
  const document = loadChartDocument(await readFile(new URL('./data/demo-chart.json', import.meta.url)));
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // toNodeListener also takes the handler options directly.
  app.use(
    '/export',
    toNodeListener({
      dataSource: createInMemoryDataSource(document),
      keyStore: createInMemoryKeyStore([
        { keyHash: await hashApiKey(options.apiKey ?? 'example-key'), keyId: 'example', partnerId: 'example-partner', scopes: ['fhir:export', 'hl7:export'] },
      ]),
    }),
  );
  return app;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const app = await createExampleApp({ apiKey: process.env.API_KEY || 'example-key' });
  const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    console.log(`listening on http://127.0.0.1:${port} (export routes under /export)`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
}
