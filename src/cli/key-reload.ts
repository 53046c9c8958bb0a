/// <reference types="node" />
/**
 * Key changes without a restart: the command's key store delegates to the store in force, and `SIGHUP`
 * replaces that store with one built from the key file read again. The swap is one assignment, so a lookup
 * sees the old keys or the new ones, never a mix; a request already past its lookup is not affected.
 */
import { createInMemoryKeyStore, type InMemoryKeyEntry, type KeyStore } from '../http/index.js';
import { CliError, loadKeys } from './load.js';
import type { RequestLog } from './request-log.js';

/** A key store whose keys can be replaced as a whole. */
export interface SwappableKeyStore extends KeyStore {
  /** Put these keys in force from the next lookup on. */
  replace(entries: readonly InMemoryKeyEntry[]): void;
}

/**
 * A key store that delegates each lookup to the in-memory store in force.
 * @param entries - the keys at start
 * @returns the store
 * @throws {InvalidArgumentError} for entries `createInMemoryKeyStore` refuses
 * @example const store = createSwappableKeyStore(keys.entries); store.replace(newEntries);
 */
export function createSwappableKeyStore(entries: readonly InMemoryKeyEntry[]): SwappableKeyStore {
  let current: KeyStore = createInMemoryKeyStore(entries);
  return {
    lookup: (presentedKey) => current.lookup(presentedKey),
    replace(next) {
      // Built completely before the swap: a store that cannot be built leaves the one in force.
      current = createInMemoryKeyStore(next);
    },
  };
}

/**
 * Reload the key file into the store, one reload at a time (a signal during a reload reloads once more after
 * it). A file that cannot be read or is invalid is refused: its problems are logged by path (never key
 * material) and the keys in force stay.
 *
 * @param file - the `--keys` file
 * @param store - the store to update
 * @param log - where the outcome is reported
 * @returns a function to call on each `SIGHUP`
 * @throws never
 * @example process.on('SIGHUP', createKeyReloader('keys.json', store, log));
 */
export function createKeyReloader(file: string, store: SwappableKeyStore, log: RequestLog): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;

  async function reloadOnce(): Promise<void> {
    try {
      const keys = await loadKeys(file, false);
      store.replace(keys.entries);
      const revoked = keys.entries.filter((k) => k.revoked === true).length;
      log.event('info', `SIGHUP: reloaded ${keys.entries.length} key${keys.entries.length === 1 ? '' : 's'} from ${JSON.stringify(file)} (${revoked} revoked)`, {
        keys: keys.entries.length,
        revoked,
      });
    } catch (error) {
      const lines = error instanceof CliError ? error.lines.map((l) => l.replace(/^chart-export: /, '')) : [error instanceof Error ? error.name : 'reload failed'];
      log.event('error', `error: SIGHUP: key file refused, the keys in force stay: ${lines.join('\n  ')}`);
    }
  }

  return () => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await reloadOnce();
      } while (again);
      running = undefined;
    })();
    return running;
  };
}
