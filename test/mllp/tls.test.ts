/**
 * MLLP over TLS: the client checks the peer's certificate against the CA it is given and the server name,
 * and presents a client certificate when the peer asks for one. Certificates are generated for this test run
 * with `openssl` in a temporary folder (throw-away keys, never committed).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMllpClient, type MllpTlsOptions } from '../../src/mllp/index.js';
import { startTestListener, type TestListener } from './support/listener.js';

interface Pair {
  readonly cert: string;
  readonly key: string;
}

let dir: string;
let server: Pair;
let clientPair: Pair;
let listener: TestListener;
let mutual: TestListener;

/** A self-signed certificate (P-256) for `cn`, valid for localhost and 127.0.0.1. */
function selfSigned(name: string, cn: string): Pair {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${cn}`, '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chart-export-mllp-tls-'));
  server = selfSigned('server', 'localhost');
  clientPair = selfSigned('client', 'chart-export-client');
  listener = await startTestListener(undefined, { cert: server.cert, key: server.key });
  mutual = await startTestListener(undefined, { cert: server.cert, key: server.key, requestCert: true, rejectUnauthorized: true, ca: [clientPair.cert] });
});

afterAll(async () => {
  await listener?.close();
  await mutual?.close();
  rmSync(dir, { recursive: true, force: true });
});

const text = (id: string): string => `MSH|^~\\&|CHART-EXPORT|CLINIC|ENGINE|HOSP|20260301093000||ADT^A31^ADT_A05|${id}|P|2.5.1\rPID|1||42\r`;

async function sendOnce(port: number, tls: MllpTlsOptions, id: string): Promise<unknown> {
  const client = createMllpClient({ host: '127.0.0.1', port, tls, ackTimeoutMs: 3000, connectTimeoutMs: 3000, reconnect: { maxAttempts: 1 } });
  try {
    return await client.send(text(id));
  } catch (error) {
    return error;
  } finally {
    await client.close({ mode: 'abort' });
  }
}

describe('createMllpClient over TLS', () => {
  it('should send over TLS when the peer’s certificate is signed by the given CA and names the server', async () => {
    expect(await sendOnce(listener.port, { ca: server.cert, servername: 'localhost' }, 'TLS1')).toMatchObject({ code: 'AA', controlId: 'TLS1' });
    expect(listener.received.at(-1)?.controlId).toBe('TLS1');
  });

  it('should check the certificate against the IP address when no server name is given', async () => {
    expect(await sendOnce(listener.port, { ca: server.cert }, 'TLS2')).toMatchObject({ code: 'AA' });
  });

  it('should refuse a peer whose certificate no trusted CA signed', async () => {
    const error = await sendOnce(listener.port, {}, 'TLS3');
    expect(error).toMatchObject({ name: 'MllpError', code: 'connection' });
    expect((error as Error).message).toMatch(/SELF_SIGNED|CERT/);
  });

  it('should refuse a certificate that does not name the server', async () => {
    const error = await sendOnce(listener.port, { ca: server.cert, servername: 'engine.example.org' }, 'TLS4');
    expect(error).toMatchObject({ code: 'connection' });
    expect((error as Error).message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('should present the client certificate to a peer that requires one, and fail without it', async () => {
    expect(await sendOnce(mutual.port, { ca: server.cert, cert: clientPair.cert, key: clientPair.key }, 'TLS5')).toMatchObject({ code: 'AA' });
    expect(await sendOnce(mutual.port, { ca: server.cert }, 'TLS6')).toMatchObject({ code: 'connection' });
    expect(mutual.received.map((r) => r.controlId)).toEqual(['TLS5']);
  });
});
