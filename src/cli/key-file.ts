/**
 * The key file of the `chart-export` service command (`--keys FILE`): a small JSON format listing the API
 * keys a partner may present, each with its scopes and rate limit, given as a SHA-256 hash or, for local use,
 * as the plain key. Parsing is strict and reports every problem with its path; no message ever carries key
 * material (the file is a secret store), only paths and rules.
 *
 * ```json
 * {
 *   "keys": [
 *     { "id": "acme-2026-01", "partner": "acme",
 *       "keySha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
 *       "scopes": ["fhir:export", "hl7:export"], "rateLimit": { "limit": 600, "windowSeconds": 60 } },
 *     { "partner": "local-dev", "key": "only-on-my-laptop", "scopes": ["hl7:export"], "revoked": false }
 *   ]
 * }
 * ```
 */
import { formatIssuePath, type IssuePath } from '../index.js';
import {
  API_KEY_SCOPES,
  DEFAULT_KEY_RATE_LIMIT,
  MAX_API_KEY_LENGTH,
  hashApiKey,
  type ApiKeyScope,
  type InMemoryKeyEntry,
} from '../http/index.js';

/** One problem of a key file: where, and which rule. Never the value. */
export interface KeyFileIssue {
  /** Path into the file, e.g. `['keys', 2, 'scopes', 0]`. */
  readonly path: IssuePath;
  /** The rule that failed, e.g. `must be one of fhir:export, hl7:export`. */
  readonly message: string;
}

/**
 * The key file failed its check; `issues` lists every problem. The message carries paths and rules only.
 * @example try { await parseKeyFile(text); } catch (e) { if (e instanceof KeyFileError) console.error(formatKeyFileIssues(e.issues)); }
 */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
  /** Every problem, in file order. */
  readonly issues: readonly KeyFileIssue[];

  constructor(issues: readonly KeyFileIssue[]) {
    super(`Invalid key file (${issues.length} problem${issues.length === 1 ? '' : 's'})`);
    this.issues = issues;
  }
}

/**
 * Format issues one per line, `path: rule`, the way the command prints them.
 * @param issues - the issues
 * @returns the lines
 * @throws never
 * @example formatKeyFileIssues([{ path: ['keys', 0, 'scopes'], message: 'is required' }]) // ['keys[0].scopes: is required']
 */
export function formatKeyFileIssues(issues: readonly KeyFileIssue[]): string[] {
  return issues.map((i) => `${formatIssuePath(i.path)}: ${i.message}`);
}

const ENTRY_FIELDS = ['id', 'partner', 'key', 'keySha256', 'scopes', 'rateLimit', 'revoked', 'comment'] as const;
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

/** A key of the file, checked, with the plain key still to hash (`key`) or the hash (`keySha256`). */
interface CheckedKey {
  readonly index: number;
  readonly id: string | undefined;
  readonly partner: string;
  readonly secret: { readonly kind: 'plain'; readonly key: string } | { readonly kind: 'hash'; readonly hash: string } | undefined;
  readonly scopes: readonly ApiKeyScope[];
  readonly rateLimit: { readonly limit: number; readonly windowSeconds: number } | undefined;
  readonly revoked: boolean;
  /** False when the entry has problems (reported already); it is then only used for duplicate checks. */
  readonly ok: boolean;
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

function checkEntry(value: unknown, index: number, issues: KeyFileIssue[]): CheckedKey | undefined {
  const path: IssuePath = ['keys', index];
  if (!isObject(value)) {
    issues.push({ path, message: 'must be an object' });
    return undefined;
  }
  const before = issues.length;
  checkUnknownFields(value, ENTRY_FIELDS, path, issues);

  const id = value['id'] === undefined ? undefined : checkName(value['id'], [...path, 'id'], issues, 'a non-secret key name');
  const partner = checkName(value['partner'], [...path, 'partner'], issues, 'the partner the key was issued to');

  let secret: CheckedKey['secret'] | undefined;
  const plain = value['key'];
  const hash = value['keySha256'];
  if (plain !== undefined && hash !== undefined) {
    issues.push({ path, message: 'must give either "key" or "keySha256", not both' });
  } else if (plain === undefined && hash === undefined) {
    issues.push({ path, message: 'must give "keySha256" (SHA-256 of the key, 64 hexadecimal digits) or "key" (the plain key, local use only)' });
  } else if (hash !== undefined) {
    if (typeof hash !== 'string' || !HEX64_RE.test(hash)) {
      issues.push({ path: [...path, 'keySha256'], message: 'must be a SHA-256 digest: 64 hexadecimal digits' });
    } else {
      secret = { kind: 'hash', hash: hash.toLowerCase() };
    }
  } else if (typeof plain !== 'string' || plain.length > MAX_API_KEY_LENGTH || !KEY_RE.test(plain)) {
    issues.push({ path: [...path, 'key'], message: `must be 1–${MAX_API_KEY_LENGTH} printable ASCII characters without spaces` });
  } else {
    secret = { kind: 'plain', key: plain };
  }

  const scopes: ApiKeyScope[] = [];
  const rawScopes = value['scopes'];
  if (rawScopes === undefined) {
    issues.push({ path: [...path, 'scopes'], message: 'is required' });
  } else if (!Array.isArray(rawScopes)) {
    issues.push({ path: [...path, 'scopes'], message: 'must be an array' });
  } else if (rawScopes.length === 0) {
    issues.push({ path: [...path, 'scopes'], message: `must grant at least one of ${API_KEY_SCOPES.join(', ')}` });
  } else {
    rawScopes.forEach((s: unknown, i) => {
      if (!(API_KEY_SCOPES as readonly unknown[]).includes(s)) {
        issues.push({ path: [...path, 'scopes', i], message: `must be one of ${API_KEY_SCOPES.join(', ')}` });
      } else if (scopes.includes(s as ApiKeyScope)) {
        issues.push({ path: [...path, 'scopes', i], message: 'is listed twice' });
      } else {
        scopes.push(s as ApiKeyScope);
      }
    });
  }

  let rateLimit: CheckedKey['rateLimit'];
  const rawLimit = value['rateLimit'];
  if (rawLimit !== undefined) {
    if (!isObject(rawLimit)) {
      issues.push({ path: [...path, 'rateLimit'], message: 'must be an object { "limit": n, "windowSeconds": n }' });
    } else {
      checkUnknownFields(rawLimit, RATE_LIMIT_FIELDS, [...path, 'rateLimit'], issues);
      for (const field of RATE_LIMIT_FIELDS) {
        if (!isPositiveInteger(rawLimit[field])) {
          issues.push({ path: [...path, 'rateLimit', field], message: rawLimit[field] === undefined ? 'is required' : 'must be a positive integer' });
        }
      }
      if (isPositiveInteger(rawLimit['limit']) && isPositiveInteger(rawLimit['windowSeconds'])) {
        rateLimit = { limit: rawLimit['limit'], windowSeconds: rawLimit['windowSeconds'] };
      }
    }
  }

  const revoked = value['revoked'];
  if (revoked !== undefined && typeof revoked !== 'boolean') issues.push({ path: [...path, 'revoked'], message: 'must be true or false' });
  const comment = value['comment'];
  if (comment !== undefined && typeof comment !== 'string') issues.push({ path: [...path, 'comment'], message: 'must be a string' });

  // An entry with problems still takes part in the duplicate checks, through its secret and id.
  const ok = issues.length === before && partner !== undefined;
  return { index, id, partner: partner ?? '', secret, scopes, rateLimit, revoked: revoked === true, ok };
}

/**
 * Check a key file and turn it into entries for `createInMemoryKeyStore`: plain keys are hashed here and
 * dropped, so only hashes reach the store. Every problem is reported, each with its path.
 *
 * Rules: the root is `{ "keys": [ … ] }` with at least one key; each key has `partner` (1–128 characters),
 * exactly one of `keySha256` (64 hex digits) or `key` (1–512 printable ASCII characters, no spaces), `scopes`
 * (a non-empty list of `fhir:export`, `hl7:export`, no repeats), optional `id` (a unique, non-secret name;
 * default `<partner>-<n>`, n counting that partner's keys from 1), optional `rateLimit` `{ limit,
 * windowSeconds }` (positive integers; default 600 per 60 s), optional `revoked` (boolean) and optional
 * `comment`. No two keys may share a key or an id. Unknown fields are errors, so a typo is not ignored.
 *
 * @param text - the file's bytes or text
 * @returns the entries, in file order
 * @throws {KeyFileError} with every problem (a file that is not UTF-8 JSON gives one issue at the root)
 * @example
 * const entries = await parseKeyFile(readFileSync('keys.json'));
 * const keyStore = createInMemoryKeyStore(entries);
 */
export async function parseKeyFile(text: string | Uint8Array): Promise<InMemoryKeyEntry[]> {
  let source: string;
  try {
    source = typeof text === 'string' ? text : new TextDecoder('utf-8', { fatal: true }).decode(text);
  } catch {
    throw new KeyFileError([{ path: [], message: 'is not valid UTF-8' }]);
  }
  let value: unknown;
  try {
    value = JSON.parse(source) as unknown;
  } catch (error) {
    // The engine's message quotes the text near the error, which may be a key: keep the position only.
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw new KeyFileError([{ path: [], message: `is not valid JSON${position === undefined ? '' : ` (at character ${position})`}` }]);
  }

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

  // Hash the plain keys now, so duplicates are found across both spellings and only hashes go further.
  const hashed = await Promise.all(
    checked.map(async (k) => (k?.secret === undefined ? undefined : k.secret.kind === 'hash' ? k.secret.hash : await hashApiKey(k.secret.key))),
  );

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
      if (sameId !== undefined) {
        issues.push({ path: k.id === undefined ? ['keys', i] : ['keys', i, 'id'], message: `has the same id as keys[${sameId}] (ids must be unique)` });
      } else {
        ids.set(keyId, i);
      }
    }
    const keyHash = hashed[i];
    if (keyHash !== undefined) {
      const sameKey = hashes.get(keyHash);
      if (sameKey !== undefined) {
        issues.push({ path: ['keys', i], message: `is the same key as keys[${sameKey}] (keys must be unique)` });
      } else {
        hashes.set(keyHash, i);
      }
    }
    if (!k.ok || keyHash === undefined || keyId === undefined) return;
    entries.push({
      keyHash,
      keyId,
      partnerId: k.partner,
      scopes: k.scopes,
      rateLimit: k.rateLimit ?? DEFAULT_KEY_RATE_LIMIT,
      revoked: k.revoked,
    });
  });

  if (issues.length > 0) {
    // Report in file order, whatever pass found the problem.
    throw new KeyFileError(issues.sort((a, b) => compareIndex(a.path, b.path)));
  }
  return entries;
}

function compareIndex(a: IssuePath, b: IssuePath): number {
  const x = typeof a[1] === 'number' ? a[1] : -1;
  const y = typeof b[1] === 'number' ? b[1] : -1;
  return x - y;
}
