/**
 * The core's internals that the HTTP adapter shares, and nothing else. Not part of the public API: the build
 * emits it as dist/internal/adapter.{js,cjs}, outside the package's exports map, and the adapter loads that
 * file by relative path (tsup.config.ts), so the adapter and the core share one copy of each function.
 */

// Hashing of presented API keys (the in-memory key store).
export { sha256, sha256Text } from './sha256.js';

// The exact newest-first order of chart dates (the in-memory data source, the patient Bundle's references).
export { isoOrderKey } from './iso.js';

// A turn of the event loop from long work (the NDJSON writer, the Bulk job runner).
export { giveBack } from './give-back.js';
