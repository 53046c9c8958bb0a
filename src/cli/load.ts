/// <reference types="node" />
/**
 * What the service command loads before it serves: the chart document (a file or the embedded demo chart)
 * and the API keys (a key file, the demo keys or one session key), with the failures it prints.
 */
import { constants as bufferConstants } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import demoChart from '../../examples/data/demo-chart.json';
import { ChartValidationError, formatIssuePath, type ChartDocument } from '../index.js';
import {
  KeyFileError,
  hashApiKey,
  loadChartDocument,
  parseKeyFile,
  type InMemoryKeyEntry,
} from '../http/index.js';
import { DEMO_KEYS } from './demo.js';
/**
 * A failure that stops the start: printed as its lines (no stack), then the process exits with `exitCode`.
 * @example throw new CliError(['chart-export: cannot read the data file "x.json": no such file (ENOENT)']);
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  /** Lines to print on stderr. */
  readonly lines: readonly string[];
  /** Process exit status. */
  readonly exitCode: number;

  constructor(lines: readonly string[], exitCode = 1) {
    super(lines[0] ?? 'chart-export failed');
    this.lines = lines;
    this.exitCode = exitCode;
  }
}

/** Where the command writes. */
export interface CliIo {
  /** Normal output: the address, keys and sample requests. */
  readonly out: (line: string) => void;
  /** Errors, warnings and the request log. */
  readonly err: (line: string) => void;
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EMFILE: 'too many open files',
  ERR_FS_FILE_TOO_LARGE: 'larger than 2 GiB',
};

function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `${FS_REASONS[code] ?? 'read error'} (${code})` : 'read error';
}

async function readInput(file: string, what: string, option: string): Promise<Buffer> {
  if (file === '') throw new CliError([`chart-export: ${option} needs a file name`], 2);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new CliError([`chart-export: cannot read the ${what} ${JSON.stringify(file)}: ${fsReason(error)}`]);
  }
  // Past the engine's longest string the text cannot be decoded at all, which the decoder reports as if the
  // bytes were not UTF-8: say what is wrong instead.
  if (bytes.length > bufferConstants.MAX_STRING_LENGTH) {
    const mb = (n: number): string => (n / 2 ** 20).toFixed(0);
    throw new CliError([
      `chart-export: the ${what} ${JSON.stringify(file)} is too large: ${mb(bytes.length)} MiB, more than the ${mb(bufferConstants.MAX_STRING_LENGTH)} MiB that can be read`,
    ]);
  }
  return bytes;
}

/** The loaded chart document and where it came from. */
export interface LoadedData {
  /** The checked document. */
  readonly document: ChartDocument;
  /** `undefined` for the embedded demo chart, else the file name. */
  readonly file: string | undefined;
}

/**
 * Load the chart document: the file given, or the embedded demo chart.
 * @param file - the `--data` file, or undefined for the demo chart
 * @returns the checked document
 * @throws {CliError} for an unreadable file, text that is not JSON (one line), or an invalid document (every
 *   problem by path; never a value)
 * @example const { document } = await loadData('my-chart.json');
 */
export async function loadData(file: string | undefined): Promise<LoadedData> {
  if (file === undefined) return { document: loadChartDocument(demoChart), file };
  const bytes = await readInput(file, 'data file', '--data');
  try {
    return { document: loadChartDocument(bytes), file };
  } catch (error) {
    if (!(error instanceof ChartValidationError)) throw error;
    const { issues } = error;
    const root = issues.length === 1 && issues[0] !== undefined && issues[0].path.length === 0 ? issues[0] : undefined;
    if (root !== undefined) throw new CliError([`chart-export: the data file ${JSON.stringify(file)} ${root.message}`]);
    throw new CliError([
      `chart-export: the data file ${JSON.stringify(file)} is not a valid chart document (${issues.length} problem${issues.length === 1 ? '' : 's'}):`,
      ...issues.map((i) => `  ${formatIssuePath(i.path)}: ${i.message}`),
    ]);
  }
}

/** The keys to serve with, and how the banner presents them. */
export interface LoadedKeys {
  /** Entries for the in-memory key store (hashes only). */
  readonly entries: readonly InMemoryKeyEntry[];
  /** Where they came from. */
  readonly kind: 'demo' | 'session' | 'file';
  /** The generated session key (kind `session` only), printed once at start. */
  readonly sessionKey?: string;
}

/**
 * Load the keys: the key file given; else the demo keys with the demo chart; else one random session key
 * with both scopes (the public demo keys never guard a user's own data).
 * @param file - the `--keys` file, or undefined
 * @param demoData - whether the embedded demo chart is served
 * @returns the entries and how they were chosen
 * @throws {CliError} for an unreadable or invalid key file (every problem by path; never key material)
 * @example const keys = await loadKeys(undefined, true); // the demo keys
 */
export async function loadKeys(file: string | undefined, demoData: boolean): Promise<LoadedKeys> {
  if (file !== undefined) {
    const bytes = await readInput(file, 'key file', '--keys');
    try {
      return { entries: parseKeyFile(bytes), kind: 'file' };
    } catch (error) {
      if (!(error instanceof KeyFileError)) throw error;
      const lines = error.issues.map((i) => `${formatIssuePath(i.path)}: ${i.message}`);
      const only = error.issues[0];
      if (error.issues.length === 1 && only !== undefined && only.path.length === 0) {
        throw new CliError([`chart-export: the key file ${JSON.stringify(file)} ${only.message}`]);
      }
      throw new CliError([
        `chart-export: the key file ${JSON.stringify(file)} is not valid (${lines.length} problem${lines.length === 1 ? '' : 's'}):`,
        ...lines.map((l) => `  ${l}`),
      ]);
    }
  }
  if (demoData) {
    const entries = await Promise.all(
      DEMO_KEYS.map(async (k) => ({
        keyHash: await hashApiKey(k.key),
        keyId: k.id,
        partnerId: k.partner,
        scopes: k.scopes,
        rateLimit: k.rateLimit,
        revoked: k.revoked,
      })),
    );
    return { entries, kind: 'demo' };
  }
  const sessionKey = randomBytes(24).toString('base64url');
  return {
    entries: [{ keyHash: await hashApiKey(sessionKey), keyId: 'session', partnerId: 'local', scopes: ['fhir:export', 'hl7:export'] }],
    kind: 'session',
    sessionKey,
  };
}
