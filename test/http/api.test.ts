/**
 * The public API of `chart-export/http`: its export names (every change seen in review) and that it loads
 * without Node's modules (edge runtimes).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as http from '../../src/http/index.js';
import { EXPORT_ROUTES } from '../../src/http/routes/route-table.js';

const dir = fileURLToPath(new URL('../../src/http', import.meta.url));

describe('chart-export/http', () => {
  it('should export exactly these names', () => {
    expect(Object.keys(http).sort()).toMatchInlineSnapshot(`
      [
        "API_KEY_SCOPES",
        "DATA_SOURCE_UNAVAILABLE",
        "DEFAULT_DATA_SOURCE_TIMEOUT_MS",
        "DEFAULT_DURATION_BUCKETS",
        "DEFAULT_KEY_RATE_LIMIT",
        "DEFAULT_LIMITS",
        "DEFAULT_REDIS_RATE_LIMIT_PREFIX",
        "DataSourceTimeoutError",
        "DataSourceUnavailableError",
        "EXPORT_ERROR_SOURCES",
        "KeyFileError",
        "MAX_API_KEY_LENGTH",
        "METRICS_CONTENT_TYPE",
        "compareIds",
        "createExportHandler",
        "createExportMetrics",
        "createFixedWindowRateLimiter",
        "createInMemoryBulkJobStore",
        "createInMemoryBulkOutputStore",
        "createInMemoryDataSource",
        "createInMemoryKeyStore",
        "createOpenApiDocument",
        "createRedisBulkJobStore",
        "createRedisBulkOutputStore",
        "createRedisRateLimiter",
        "hashApiKey",
        "isDataSourceUnavailable",
        "loadChartDocument",
        "parseKeyFile",
        "toNodeListener",
      ]
    `);
  });

  it('should import nothing from Node at run time (type imports only)', () => {
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.startsWith('cli'));
    expect(files).toContain('node.ts');
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const m of text.matchAll(/^\s*import\s+(type\s+)?[^;]*?from\s+['"](node:[^'"]+|fs|http|net|crypto|buffer|stream)['"]/gm)) {
        expect(m[1], `${file} imports ${m[2]} at run time`).toBe('type ');
      }
    }
  });

  it('should list the eleven routes of the contract with their scopes', () => {
    expect(EXPORT_ROUTES.map((r) => [r.path, r.format, r.scope ?? 'public'])).toEqual([
      ['/exportFhirPatient', 'fhir', 'fhir:export'],
      ['/exportFhirPatientBundle', 'fhir', 'fhir:export'],
      ['/exportFhirEncounter', 'fhir', 'fhir:export'],
      ['/exportFhirNote', 'fhir', 'fhir:export'],
      ['/exportFhirAssessment', 'fhir', 'fhir:export'],
      ['/publicFhirDirectory', 'fhir', 'public'],
      ['/exportHl7PatientAdt', 'hl7', 'hl7:export'],
      ['/exportHl7PatientSummary', 'hl7', 'hl7:export'],
      ['/exportHl7Encounter', 'hl7', 'hl7:export'],
      ['/exportHl7Note', 'hl7', 'hl7:export'],
      ['/exportHl7Assessment', 'hl7', 'hl7:export'],
    ]);
  });
});
