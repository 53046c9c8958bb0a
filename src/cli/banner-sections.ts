/**
 * The key and sample sections of the service's start-up banner (run.ts prints the rest): where the keys come
 * from, and one working curl line per endpoint, the Bulk Data flow and the errors on purpose.
 */
import { KEY_CACHE_TTL_MS, type ServedDatabase } from './database.js';
import { buildBulkSample, buildCurlSamples, buildPagingSample, pickSampleIds, type SampleKeys } from './banner.js';
import type { CliOptions } from './command-line.js';
import { DEMO_KEYS } from './demo.js';
import type { CliIo, LoadedData, LoadedKeys } from './load.js';

/** The banner's key section: where the keys come from; returns how the sample lines send a key. */
export function printKeys(io: CliIo, options: CliOptions, keys: LoadedKeys, database: ServedDatabase | undefined): SampleKeys {
  let sampleKeys: SampleKeys;
  if (database?.keyStore !== undefined) {
    io.out(`API keys from PostgreSQL (chart-export keys add | revoke | list; a revocation takes effect within ${KEY_CACHE_TTL_MS / 1000} s).`);
    io.out('The lines below read the key from $FHIR_API_KEY (a key with fhir:export) and $HL7_API_KEY (hl7:export).');
    sampleKeys = { fhir: { variable: 'FHIR_API_KEY' }, hl7: { variable: 'HL7_API_KEY' } };
  } else if (keys.kind === 'demo') {
    io.out('Demo API keys (public: they only ever guard the synthetic demo chart), sent as the x-api-key header:');
    const width = Math.max(...DEMO_KEYS.map((k) => k.key.length));
    for (const k of DEMO_KEYS) io.out(`  ${k.key.padEnd(width)}  ${k.purpose}`);
    const limited = DEMO_KEYS.find((k) => k.id === 'demo-limited');
    sampleKeys = {
      fhir: { literal: 'demo-key-fhir' },
      hl7: { literal: 'demo-key-hl7' },
      failures: { revoked: 'demo-key-revoked', fhirOnly: 'demo-key-fhir', limited: 'demo-key-limited', limit: limited?.rateLimit.limit ?? 3 },
    };
  } else if (keys.kind === 'session') {
    const key = keys.sessionKey as string;
    io.out('No --keys file given: this session key (both scopes, 600 requests per 60 s) works until the service stops:');
    io.out(`  ${key}`);
    sampleKeys = { fhir: { literal: key }, hl7: { literal: key } };
  } else {
    io.out(`API keys from ${JSON.stringify(options.keysFile)} (key material is never printed):`);
    for (const k of keys.entries) {
      const limit = k.rateLimit ?? { limit: 600, windowSeconds: 60 };
      io.out(
        `  ${k.keyId ?? '-'}  partner ${k.partnerId}  ${k.scopes.join(', ')}  ${limit.limit} per ${limit.windowSeconds} s${k.revoked === true ? '  REVOKED' : ''}`,
      );
    }
    io.out('The lines below read the key from $FHIR_API_KEY (a key with fhir:export) and $HL7_API_KEY (hl7:export).');
    sampleKeys = { fhir: { variable: 'FHIR_API_KEY' }, hl7: { variable: 'HL7_API_KEY' } };
  }
  io.out('');
  return sampleKeys;
}

/** The banner's sample lines: one curl per endpoint, the Bulk flow, and the errors on purpose. */
export function printSamples(io: CliIo, origin: string, basePath: string, document: LoadedData['document'], sampleKeys: SampleKeys): void {
  const ids = pickSampleIds(document);
  if (ids === undefined) {
    io.out('The document has no patients: only /publicFhirDirectory has something to answer.');
  } else {
    const samples = buildCurlSamples(origin, basePath, ids, sampleKeys);
    io.out(`Try it (patient ${ids.patientId}; one line per endpoint):`);
    for (const s of samples.filter((x) => x.expectedStatus === 200)) {
      io.out(`  # ${s.route}: ${s.description}`);
      io.out(`  ${s.command}`);
    }
    if (ids.directoryCount >= 3) {
      io.out('');
      io.out(`Paging the public directory (docs/streaming.md): the first page of two ${ids.directoryType} records, then its next link:`);
      for (const line of buildPagingSample(origin, basePath, ids.directoryType)) io.out(`  ${line}`);
    }
    io.out('');
    io.out('Bulk Data export (FHIR Bulk Data Access IG; docs/bulk-export.md): kick off, poll the status until the manifest, fetch a file:');
    for (const line of buildBulkSample(origin, basePath, sampleKeys.fhir)) io.out(`  ${line}`);
    const failures = samples.filter((x) => x.expectedStatus !== 200);
    if (failures.length > 0) {
      io.out('');
      io.out('Errors on purpose:');
      for (const s of failures) {
        io.out(`  # ${s.route}: ${s.description}`);
        io.out(`  ${s.command}`);
      }
    }
  }
}
