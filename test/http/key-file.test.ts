import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIssuePath } from '../../src/index.js';
import { KeyFileError, parseKeyFile } from '../../src/http/index.js';

const formatKeyFileIssues = (issues: KeyFileError['issues']): string[] => issues.map((i) => `${formatIssuePath(i.path)}: ${i.message}`);
import { createInMemoryKeyStore } from '../../src/http/index.js';
import { runs } from '../support/runs.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Parse and return the formatted problem lines (or fail when the file is accepted). */
function problems(file: unknown): string[] {
  try {
    parseKeyFile(typeof file === 'string' ? file : JSON.stringify(file));
  } catch (error) {
    expect(error).toBeInstanceOf(KeyFileError);
    return formatKeyFileIssues((error as KeyFileError).issues);
  }
  throw new Error('the key file was accepted');
}

describe('parseKeyFile', () => {
  it('should turn plain and hashed keys into hash-only entries with defaults', async () => {
    // Arrange
    const hash = sha256('acme-secret-1');
    const file = {
      keys: [
        { partner: 'acme', keySha256: hash.toUpperCase(), scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 100, windowSeconds: 10 } },
        { partner: 'acme', key: 'local-dev-key', scopes: ['hl7:export'], revoked: true, comment: 'laptop' },
        { id: 'beta-main', partner: 'beta', key: 'beta-key', scopes: ['fhir:export'] },
      ],
    };
    // Act
    const entries = parseKeyFile(new TextEncoder().encode(JSON.stringify(file)));
    // Assert
    expect(entries).toEqual([
      { keyHash: hash, keyId: 'acme-1', partnerId: 'acme', scopes: ['fhir:export', 'hl7:export'], rateLimit: { limit: 100, windowSeconds: 10 }, revoked: false },
      { keyHash: sha256('local-dev-key'), keyId: 'acme-2', partnerId: 'acme', scopes: ['hl7:export'], rateLimit: { limit: 600, windowSeconds: 60 }, revoked: true },
      { keyHash: sha256('beta-key'), keyId: 'beta-main', partnerId: 'beta', scopes: ['fhir:export'], rateLimit: { limit: 600, windowSeconds: 60 }, revoked: false },
    ]);
    expect(JSON.stringify(entries)).not.toContain('local-dev-key');
  });

  it('should give entries the in-memory key store resolves by the plain key', async () => {
    const store = createInMemoryKeyStore(parseKeyFile(JSON.stringify({ keys: [{ partner: 'p', key: 'k-123', scopes: ['fhir:export'] }] })));
    expect((await store.lookup('k-123'))?.partnerId).toBe('p');
    expect(await store.lookup('k-124')).toBeUndefined();
  });

  it("should read the key store's own field names, so a file of hashed keys is an entry list as it stands", async () => {
    const file = {
      keys: [
        { keyId: 'acme-main', partnerId: 'acme', keyHash: sha256('acme-key'), scopes: ['fhir:export'], rateLimit: { limit: 5, windowSeconds: 1 } },
        { partnerId: 'beta', key: 'beta-key', scopes: ['hl7:export'], comment: 'local' },
      ],
    };
    const entries = parseKeyFile(file);
    expect(entries).toEqual([
      { keyHash: sha256('acme-key'), keyId: 'acme-main', partnerId: 'acme', scopes: ['fhir:export'], rateLimit: { limit: 5, windowSeconds: 1 }, revoked: false },
      { keyHash: sha256('beta-key'), keyId: 'beta-1', partnerId: 'beta', scopes: ['hl7:export'], rateLimit: { limit: 600, windowSeconds: 60 }, revoked: false },
    ]);
    // The same text parsed or not gives the same entries; the hashed entry goes to the store unchanged.
    expect(parseKeyFile(JSON.stringify(file))).toEqual(entries);
    const direct = createInMemoryKeyStore([file.keys[0] as never]);
    expect((await direct.lookup('acme-key'))?.keyId).toBe('acme-main');
    const store = createInMemoryKeyStore(entries);
    expect((await store.lookup('beta-key'))?.partnerId).toBe('beta');
  });

  it('should refuse a field given under both its names', () => {
    expect(problems({ keys: [{ keyId: 'a', id: 'b', partnerId: 'p', partner: 'p', keyHash: sha256('x'), keySha256: sha256('x'), scopes: ['hl7:export'] }] })).toEqual([
      'keys[0]: must give "keyId" or its older name "id", not both',
      'keys[0]: must give "partnerId" or its older name "partner", not both',
      'keys[0]: must give "keyHash" or its older name "keySha256", not both',
    ]);
  });

  it('should list every problem of a file by path, in file order', async () => {
    const lines = problems({
      keys: [
        { partner: '', key: 'has space', scopes: [] },
        { partner: 'a', keySha256: 'abc', scopes: ['fhir:export', 'fhir:export', 'admin'], rateLimit: { limit: 0 }, revoked: 'no' },
        { partner: 'b', scopes: ['hl7:export'], scope: ['x'] },
        { partner: 'c', key: 'x', keySha256: sha256('x'), scopes: ['hl7:export'] },
        'not an object',
      ],
      extra: 1,
    });
    expect(lines).toEqual([
      '(root): has an unknown field (allowed: keys, comment)',
      'keys[0].partner: must be 1–128 characters, no control characters, no leading or trailing space',
      'keys[0].key: must be 1–512 printable ASCII characters without spaces',
      'keys[0].scopes: must grant at least one of fhir:export, hl7:export',
      'keys[1].keySha256: must be a SHA-256 digest: 64 hexadecimal digits',
      'keys[1].scopes[1]: is listed twice',
      'keys[1].scopes[2]: must be one of fhir:export, hl7:export',
      'keys[1].rateLimit.limit: must be a positive integer',
      'keys[1].rateLimit.windowSeconds: is required',
      'keys[1].revoked: must be true or false',
      'keys[2].scope: unknown field (did you mean "scopes"?)',
      'keys[2]: must give "keyHash" (SHA-256 of the key, 64 hexadecimal digits) or "key" (the plain key, local use only)',
      'keys[3]: must give either "key" or "keySha256", not both',
      'keys[4]: must be an object',
    ]);
  });

  it('should find the same key given once plain and once hashed, and repeated ids', async () => {
    const lines = problems({
      keys: [
        { id: 'one', partner: 'a', key: 'same-key', scopes: ['hl7:export'] },
        { id: 'one', partner: 'b', keySha256: sha256('same-key'), scopes: ['fhir:export'] },
      ],
    });
    expect(lines).toEqual(['keys[1].id: has the same id as keys[0] (ids must be unique)', 'keys[1]: is the same key as keys[0] (keys must be unique)']);
  });

  it('should reject an empty list, a missing list and a root that is not an object', async () => {
    expect(problems({ keys: [] })).toEqual(['keys: must list at least one key']);
    expect(problems({})).toEqual(['keys: is required']);
    expect(problems([])).toEqual(['(root): must be an object { "keys": [ … ] }']);
  });

  it('should report text that is not JSON with its position only', async () => {
    const lines = problems('{ "keys": [ { "key": "s3cret-value" oops } ] }');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\(root\): is not valid JSON/);
    expect(lines[0]).not.toContain('s3cret');
    expect(() => parseKeyFile(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).toThrow(expect.objectContaining({ issues: [{ path: [], message: 'is not valid UTF-8' }] }));
  });

  it('should never echo key material, whatever the mistakes around it', async () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/);
    await fc.assert(
      fc.asyncProperty(secret, fc.nat(5), async (key, variant) => {
        const entries: unknown[] = [
          { partner: 'p', key, scopes: ['nope'] },
          { partner: 'p', keySha256: sha256(key), scopes: ['hl7:export'] }, // same key, hashed
          { partner: 'p', key: `${key} `, scopes: ['hl7:export'] }, // not header-safe
          { partner: 'p', keySha256: key, scopes: ['hl7:export'] }, // a plain key where a hash belongs
          { partner: 'p', [key]: true, key: 'other-key', scopes: ['hl7:export'] }, // the key pasted as a field name
          { partner: 'p', key, scopes: ['hl7:export'], rateLimit: { limit: key } },
        ];
        const file = { keys: [entries[variant], entries[(variant + 1) % entries.length]] };
        const lines = problems(file);
        expect(lines.length).toBeGreaterThan(0);
        let message = '';
        try {
          parseKeyFile(file);
        } catch (error) {
          message = (error as Error).message;
        }
        for (const line of [...lines, message]) {
          expect(line).not.toContain(key);
          expect(line).not.toContain(sha256(key));
        }
      }),
      { numRuns: runs(60) },
    );
  });
});
