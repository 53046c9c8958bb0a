/**
 * The key file: a small JSON format listing the API keys a partner may present, each with its scopes and rate
 * limit, given as a SHA-256 hash or, for local use, as the plain key. Its entries are those of
 * `createInMemoryKeyStore` (`keyId`, `partnerId`, `keyHash`, `scopes`, `rateLimit`, `revoked`), so a file of
 * hashed keys is also a valid entry list as it stands. Parsing is pure (no file system, no Node API: it runs
 * on edge runtimes), strict, and reports every problem with its path; no message ever carries key material
 * (the file is a secret store), only paths and rules.
 *
 * ```json
 * {
 *   "keys": [
 *     { "keyId": "acme-2026-01", "partnerId": "acme",
 *       "keyHash": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
 *       "scopes": ["fhir:export", "hl7:export"], "rateLimit": { "limit": 600, "windowSeconds": 60 } },
 *     { "partnerId": "local-dev", "key": "only-on-my-laptop", "scopes": ["hl7:export"], "revoked": false }
 *   ]
 * }
 * ```
 *
 * The spellings of chart-export 0.1.0's key file, `id`, `partner` and `keySha256`, are still read.
 */
import { ChartExportError, formatIssuePath, type IssuePath } from '../index.js';
import { sha256 } from '../internal/adapter.js';
import { API_KEY_SCOPES, DEFAULT_KEY_RATE_LIMIT, MAX_API_KEY_LENGTH, type ApiKeyScope, type InMemoryKeyEntry } from './key-store.js';

/** One problem of a key file: where, and which rule. Never the value. */
export interface KeyFileIssue {
  /** Path into the file, e.g. `['keys', 2, 'scopes', 0]`. */
  readonly path: IssuePath;
  /** The rule that failed, e.g. `must be one of fhir:export, hl7:export`. */
  readonly message: string;
}

/**
 * The key file failed its check; `issues` lists every problem. The message carries paths and rules only,
 * never key material. Its `code` is `'invalid-argument'`, as for any argument the library refuses.
 * @example try { parseKeyFile(text); } catch (e) { if (e instanceof KeyFileError) for (const i of e.issues) console.error(formatIssuePath(i.path), i.message); }
 */
export class KeyFileError extends ChartExportError {
  /** The class name, `'KeyFileError'` (in messages and stack traces). */
  override readonly name = 'KeyFileError';
  /** Every problem, in file order. */
  readonly issues: readonly KeyFileIssue[];

  /** @param issues - every problem found, in file order */
  constructor(issues: readonly KeyFileIssue[]) {
    const list = Array.isArray(issues) ? issues : [];
    super('invalid-argument', `Invalid key file (${list.length} problem${list.length === 1 ? '' : 's'})${describeIssues(list)}`);
    this.issues = list;
  }
}

/** The first issues as `: path: rule; …`, or `''` when they cannot be read (an error must not fail while reporting). */
function describeIssues(issues: readonly KeyFileIssue[]): string {
  try {
    const shown = issues.slice(0, 5).map((i) => `${formatIssuePath(i.path)}: ${String(i.message)}`);
    return shown.length === 0 ? '' : `: ${shown.join('; ')}${issues.length > 5 ? '; …' : ''}`;
  } catch {
    return '';
  }
}

/** Each field of an entry, with the name chart-export 0.1.0's key file gave it, when it had another. */
const FIELD_ALIASES = { keyId: 'id', partnerId: 'partner', keyHash: 'keySha256' } as const;
const ENTRY_FIELDS = ['keyId', 'id', 'partnerId', 'partner', 'key', 'keyHash', 'keySha256', 'scopes', 'rateLimit', 'revoked', 'comment'] as const;
const RATE_LIMIT_FIELDS = ['limit', 'windowSeconds'] as const;
const HEX64_RE = /^[0-9a-fA-F]{64}$/;
/** Printable ASCII without spaces: what survives an HTTP header unchanged (values are trimmed, non-ASCII is not portable). */
const KEY_RE = /^[\x21-\x7E]+$/;
// eslint-disable-next-line no-control-regex -- finds the control characters a key file value may not hold
const CONTROL_RE = /[\u0000-\u001F\u007F]/;
const NAME_MAX = 128;

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/** A key of the file, checked, with the plain key still to hash (`key`) or the hash (`keyHash`). */
interface CheckedKey {
  readonly id: string | undefined;
  /** The name the id was given under: `keyId`, or `id` (0.1.0). */
  readonly idField: string;
  readonly partner: string;
  readonly secret: { readonly kind: 'plain'; readonly key: string } | { readonly kind: 'hash'; readonly hash: string } | undefined;
  readonly scopes: readonly ApiKeyScope[];
  readonly rateLimit: { readonly limit: number; readonly windowSeconds: number } | undefined;
  readonly revoked: boolean;
  /** False when the entry has problems (reported already); it is then only used for duplicate checks. */
  readonly ok: boolean;
}

/**
 * The field `name` of an entry, read under its name or its 0.1.0 name: `{ field, value }` with the name
 * found (for paths), or undefined (after an issue) when both are given.
 */
function readField(value: Obj, name: keyof typeof FIELD_ALIASES, path: IssuePath, issues: KeyFileIssue[]): { field: string; value: unknown } | undefined {
  const alias = FIELD_ALIASES[name];
  if (value[name] !== undefined && value[alias] !== undefined) {
    issues.push({ path, message: `must give "${name}" or its older name "${alias}", not both` });
    return undefined;
  }
  return value[alias] !== undefined ? { field: alias, value: value[alias] } : { field: name, value: value[name] };
}

function checkName(value: unknown, path: IssuePath, issues: KeyFileIssue[], what: string): string | undefined {
  if (typeof value !== 'string') {
    issues.push({ path, message: value === undefined ? 'is required' : `must be a string (${what})` });
    return undefined;
  }
  if (value.length === 0 || value.length > NAME_MAX || value.trim() !== value || CONTROL_RE.test(value)) {
    issues.push({ path, message: `must be 1–${NAME_MAX} characters, no control characters, no leading or trailing space` });
    return undefined;
  }
  return value;
}

function checkUnknownFields(value: Obj, allowed: readonly string[], path: IssuePath, issues: KeyFileIssue[]): void {
  for (const field of Object.keys(value)) {
    if (allowed.includes(field)) continue;
    // A field name is echoed only when it is a near miss of a known one (a typo); any other name might be a
    // pasted key, so it is not repeated.
    const near = allowed.find((name) => editDistance(field, name) <= 2);
    if (near !== undefined) issues.push({ path: [...path, field], message: `unknown field (did you mean "${near}"?)` });
    else issues.push({ path, message: `has an unknown field (allowed: ${allowed.join(', ')})` });
  }
}

/** Levenshtein distance, capped: names longer than 40 characters are never near misses. */
function editDistance(a: string, b: string): number {
  if (a.length > 40 || Math.abs(a.length - b.length) > 2) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

function checkSecret(value: Obj, path: IssuePath, issues: KeyFileIssue[]): CheckedKey['secret'] {
  const plain = value['key'];
  const hashField = readField(value, 'keyHash', path, issues);
  if (hashField === undefined) return undefined;
  const hash = hashField.value;
  if (plain !== undefined && hash !== undefined) {
    issues.push({ path, message: `must give either "key" or "${hashField.field}", not both` });
  } else if (plain === undefined && hash === undefined) {
    issues.push({ path, message: 'must give "keyHash" (SHA-256 of the key, 64 hexadecimal digits) or "key" (the plain key, local use only)' });
  } else if (hash !== undefined) {
    if (typeof hash === 'string' && HEX64_RE.test(hash)) return { kind: 'hash', hash: hash.toLowerCase() };
    issues.push({ path: [...path, hashField.field], message: 'must be a SHA-256 digest: 64 hexadecimal digits' });
  } else if (typeof plain !== 'string' || plain.length > MAX_API_KEY_LENGTH || !KEY_RE.test(plain)) {
    issues.push({ path: [...path, 'key'], message: `must be 1–${MAX_API_KEY_LENGTH} printable ASCII characters without spaces` });
  } else {
    return { kind: 'plain', key: plain };
  }
  return undefined;
}

function checkScopes(rawScopes: unknown, path: IssuePath, issues: KeyFileIssue[]): ApiKeyScope[] {
  const scopes: ApiKeyScope[] = [];
  if (rawScopes === undefined) {
    issues.push({ path, message: 'is required' });
  } else if (!Array.isArray(rawScopes)) {
    issues.push({ path, message: 'must be an array' });
  } else if (rawScopes.length === 0) {
    issues.push({ path, message: `must grant at least one of ${API_KEY_SCOPES.join(', ')}` });
  } else {
    rawScopes.forEach((s: unknown, i) => {
      if (!(API_KEY_SCOPES as readonly unknown[]).includes(s)) {
        issues.push({ path: [...path, i], message: `must be one of ${API_KEY_SCOPES.join(', ')}` });
      } else if (scopes.includes(s as ApiKeyScope)) {
        issues.push({ path: [...path, i], message: 'is listed twice' });
      } else {
        scopes.push(s as ApiKeyScope);
      }
    });
  }
  return scopes;
}

function checkRateLimit(rawLimit: unknown, path: IssuePath, issues: KeyFileIssue[]): CheckedKey['rateLimit'] {
  if (rawLimit === undefined) return undefined;
  if (!isObject(rawLimit)) {
    issues.push({ path, message: 'must be an object { "limit": n, "windowSeconds": n }' });
    return undefined;
  }
  checkUnknownFields(rawLimit, RATE_LIMIT_FIELDS, path, issues);
  for (const field of RATE_LIMIT_FIELDS) {
    if (!isPositiveInteger(rawLimit[field])) {
      issues.push({ path: [...path, field], message: rawLimit[field] === undefined ? 'is required' : 'must be a positive integer' });
    }
  }
  const { limit, windowSeconds } = rawLimit;
  return isPositiveInteger(limit) && isPositiveInteger(windowSeconds) ? { limit, windowSeconds } : undefined;
}

function checkEntry(value: unknown, index: number, issues: KeyFileIssue[]): CheckedKey | undefined {
  const path: IssuePath = ['keys', index];
  if (!isObject(value)) {
    issues.push({ path, message: 'must be an object' });
    return undefined;
  }
  const before = issues.length;
  checkUnknownFields(value, ENTRY_FIELDS, path, issues);

  const idField = readField(value, 'keyId', path, issues);
  const id = idField?.value === undefined ? undefined : checkName(idField.value, [...path, idField.field], issues, 'a non-secret key name');
  const partnerField = readField(value, 'partnerId', path, issues);
  const partner = partnerField === undefined ? undefined : checkName(partnerField.value, [...path, partnerField.field], issues, 'the partner the key was issued to');
  const secret = checkSecret(value, path, issues);
  const scopes = checkScopes(value['scopes'], [...path, 'scopes'], issues);
  const rateLimit = checkRateLimit(value['rateLimit'], [...path, 'rateLimit'], issues);
  const revoked = value['revoked'];
  if (revoked !== undefined && typeof revoked !== 'boolean') issues.push({ path: [...path, 'revoked'], message: 'must be true or false' });
  const comment = value['comment'];
  if (comment !== undefined && typeof comment !== 'string') issues.push({ path: [...path, 'comment'], message: 'must be a string' });

  // An entry with problems still takes part in the duplicate checks, through its secret and id.
  const ok = issues.length === before && partner !== undefined;
  return { id, idField: idField?.field ?? 'keyId', partner: partner ?? '', secret, scopes, rateLimit, revoked: revoked === true, ok };
}

/** The file's root value: parsed already, or JSON text or UTF-8 bytes to parse. */
function readRoot(input: unknown): unknown {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) return input;
  let source: string;
  try {
    source = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    throw new KeyFileError([{ path: [], message: 'is not valid UTF-8' }]);
  }
  try {
    return JSON.parse(source) as unknown;
  } catch (error) {
    // The engine's message quotes the text near the error, which may be a key: keep the position only.
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw new KeyFileError([{ path: [], message: `is not valid JSON${position === undefined ? '' : ` (at character ${position})`}` }]);
  }
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Give each checked key its id and hash, find repeated ids and keys, and keep the entries without problems. */
function toEntries(checked: readonly (CheckedKey | undefined)[], issues: KeyFileIssue[]): InMemoryKeyEntry[] {
  // Hash the plain keys now, so duplicates are found across both spellings and only hashes go further.
  const encoder = new TextEncoder();
  const hashed = checked.map((k) => (k?.secret === undefined ? undefined : k.secret.kind === 'hash' ? k.secret.hash : toHex(sha256(encoder.encode(k.secret.key)))));
  const perPartner = new Map<string, number>();
  const ids = new Map<string, number>();
  const hashes = new Map<string, number>();
  const entries: InMemoryKeyEntry[] = [];
  checked.forEach((k, i) => {
    if (k === undefined) return;
    let keyId: string | undefined = k.id;
    if (k.partner !== '') {
      const n = (perPartner.get(k.partner) ?? 0) + 1;
      perPartner.set(k.partner, n);
      keyId ??= `${k.partner}-${n}`;
    }
    if (keyId !== undefined) {
      const sameId = ids.get(keyId);
      if (sameId === undefined) ids.set(keyId, i);
      else issues.push({ path: k.id === undefined ? ['keys', i] : ['keys', i, k.idField], message: `has the same id as keys[${sameId}] (ids must be unique)` });
    }
    const keyHash = hashed[i];
    if (keyHash !== undefined) {
      const sameKey = hashes.get(keyHash);
      if (sameKey === undefined) hashes.set(keyHash, i);
      else issues.push({ path: ['keys', i], message: `is the same key as keys[${sameKey}] (keys must be unique)` });
    }
    if (!k.ok || keyHash === undefined || keyId === undefined) return;
    entries.push({ keyHash, keyId, partnerId: k.partner, scopes: k.scopes, rateLimit: k.rateLimit ?? DEFAULT_KEY_RATE_LIMIT, revoked: k.revoked });
  });
  return entries;
}

/**
 * Check a key file and turn it into entries for `createInMemoryKeyStore`: plain keys are hashed here and
 * dropped, so only hashes reach the store. Every problem is reported, each with its path. Pure and
 * synchronous: no file system, no Node API, so it runs on every runtime; read the file yourself.
 *
 * Rules: the root is `{ "keys": [ … ] }` with at least one key; each key has `partnerId` (1–128 characters),
 * exactly one of `keyHash` (64 hex digits) or `key` (1–512 printable ASCII characters, no spaces), `scopes`
 * (a non-empty list of `fhir:export`, `hl7:export`, no repeats), optional `keyId` (a unique, non-secret name;
 * default `<partnerId>-<n>`, n counting that partner's keys from 1), optional `rateLimit` `{ limit,
 * windowSeconds }` (positive integers; default 600 per 60 s), optional `revoked` (boolean) and optional
 * `comment`. `id`, `partner` and `keySha256` (the names of chart-export 0.1.0's file) are read for `keyId`,
 * `partnerId` and `keyHash`. No two keys may share a key or an id. Unknown fields are errors, so a typo is not
 * ignored.
 *
 * @param input - the file as text, as UTF-8 bytes, or already parsed (`{ keys: [ … ] }`)
 * @returns the entries, in file order, each with `keyHash`, `keyId`, `partnerId`, `scopes`, `rateLimit`, `revoked`
 * @throws {KeyFileError} with every problem (a file that is not UTF-8 JSON gives one issue at the root)
 * @example
 * const keyStore = createInMemoryKeyStore(parseKeyFile(await readFile('keys.json')));
 */
export function parseKeyFile(input: string | Uint8Array | object): InMemoryKeyEntry[] {
  const value = readRoot(input);
  const issues: KeyFileIssue[] = [];
  if (!isObject(value)) throw new KeyFileError([{ path: [], message: 'must be an object { "keys": [ … ] }' }]);
  checkUnknownFields(value, ['keys', 'comment'], [], issues);
  const rawKeys = value['keys'];
  if (!Array.isArray(rawKeys)) {
    issues.push({ path: ['keys'], message: rawKeys === undefined ? 'is required' : 'must be an array' });
    throw new KeyFileError(issues);
  }
  if (rawKeys.length === 0) issues.push({ path: ['keys'], message: 'must list at least one key' });
  const checked = rawKeys.map((entry: unknown, i) => checkEntry(entry, i, issues));
  const entries = toEntries(checked, issues);
  // Report in file order, whatever pass found the problem.
  if (issues.length > 0) throw new KeyFileError(issues.sort((a, b) => compareIndex(a.path, b.path)));
  return entries;
}

function compareIndex(a: IssuePath, b: IssuePath): number {
  const x = typeof a[1] === 'number' ? a[1] : -1;
  const y = typeof b[1] === 'number' ? b[1] : -1;
  return x - y;
}
