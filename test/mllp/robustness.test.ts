/**
 * Robustness of chart-export/mllp's public functions, as properties: called with garbage, each returns a
 * value of its documented type or throws (rejects) an `MllpError`, never a built-in error. And whatever
 * bytes the peer answers with, reading them as an ACK gives an ACK or an `MllpError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMllpClient, createMllpFrameReader, encodeMllpFrame, MllpError, readAck } from '../../src/mllp/index.js';
import { runs } from '../support/runs.js';

function outcome(call: () => unknown): unknown {
  try {
    call();
    return undefined;
  } catch (error) {
    return error;
  }
}

const garbage = fc.anything({ withBigInt: true, withNullPrototype: true, withTypedArray: true, withSparseArray: true });

describe('chart-export/mllp robustness', () => {
  it('should throw only MllpError from createMllpClient, createMllpFrameReader and encodeMllpFrame given garbage', () => {
    fc.assert(
      fc.property(garbage, (value) => {
        for (const call of [
          () => createMllpClient(value as never),
          () => createMllpClient({ host: '127.0.0.1', port: 2575, ...(typeof value === 'object' && value !== null ? (value as object) : { ackTimeoutMs: value }) } as never),
          () => createMllpFrameReader(value as never),
          () => createMllpFrameReader({ maxFrameBytes: value as never }),
          () => encodeMllpFrame(value as never),
          () => readAck(value as never, 'utf8', 'C1'),
          () => readAck(new Uint8Array(0), value as never, 'C1'),
          () => readAck(new Uint8Array(0), 'utf8', value as never),
        ]) {
          const error = outcome(call);
          if (error !== undefined) expect(error, String(error)).toBeInstanceOf(MllpError);
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('should reject only with MllpError when send, waitForRoom and close get garbage', async () => {
    const client = createMllpClient({ host: '127.0.0.1', port: 9, reconnect: { maxAttempts: 1 }, connectTimeoutMs: 200 });
    await fc.assert(
      fc.asyncProperty(garbage, garbage, async (message, options) => {
        for (const call of [() => client.send(message as never, options as never), () => client.send('MSH|^~\\&|A|B|C|D|20260301||ADT^A31^ADT_A05|G1|P|2.5.1\r', { signal: options as never }), () => client.waitForRoom(options as never)]) {
          const promise = call();
          // Valid calls may go on to connect (port 9 refuses): only synchronous refusals are looked at here.
          const settled = await Promise.race([promise.then(() => 'ok', (e: unknown) => e), new Promise((r) => setImmediate(() => r('pending')))]);
          promise.catch(() => undefined);
          if (settled !== 'ok' && settled !== 'pending') expect(settled, String(settled)).toBeInstanceOf(MllpError);
        }
      }),
      { numRuns: runs(100) },
    );
    await client.close({ mode: 'abort' });
    await expect(client.close({ mode: 'sideways' as never })).rejects.toBeInstanceOf(MllpError);
  });

  it('should read any answer as an ACK or an MllpError', () => {
    const hl7ish = fc.array(fc.constantFrom('MSH|^~\\&|E|H|||20260301||ACK|1|P|2.5.1', 'MSA|AA|C1', 'MSA|AE|C1|x', 'MSA|ZZ|C1', 'ERR|^^^101', 'ERR||PID^1^3|101', 'MSA', 'ERR|', '\r', '\n', '|', '^', '~', '\\', '&', 'é', '\u0000', 'x'), { maxLength: 12 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), hl7ish.map((s) => new TextEncoder().encode(s))), fc.constantFrom('utf8' as const, 'latin1' as const), (bytes, charset) => {
        const error = outcome(() => readAck(bytes, charset, 'C1'));
        if (error !== undefined) expect(error).toBeInstanceOf(MllpError);
      }),
      { numRuns: runs(500) },
    );
  });
});
