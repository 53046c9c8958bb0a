/**
 * createMllpClient against the tests' own fault-injecting listener: AA/CA, AE/AR/CE/CR, no ACK, slow ACK,
 * wrong MSA-2, a frame that is no ACK, garbage, the connection closed before and after the ACK, the ACK split
 * across writes, a 1 MiB message, order and one message in flight, the queue bound, abort, close, back-off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMllpClient, isMllpError, MllpNakError, type MllpClient, type MllpClientOptions, type MllpEvent } from '../../src/mllp/index.js';
import { ackText, frame, startTestListener, type Responder, type TestListener } from './support/listener.js';

/** A small ADT^A31 with the given MSH-10 (synthetic data). */
function msg(controlId: string, pid = 'PID|1||42^^^CLINIC^MR||DOE^JANE'): string {
  return `MSH|^~\\&|CHART-EXPORT|CLINIC|ENGINE|HOSP|20260301093000||ADT^A31^ADT_A05|${controlId}|P|2.5.1\rEVN||20260301093000\r${pid}\rPV1|1|N\r`;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let listener: TestListener | undefined;
let client: MllpClient | undefined;

afterEach(async () => {
  await client?.close({ mode: 'abort' });
  await listener?.close();
  client = undefined;
  listener = undefined;
});

async function setUp(responder?: Responder, options: Partial<MllpClientOptions> = {}): Promise<{ l: TestListener; c: MllpClient; events: MllpEvent[] }> {
  const events: MllpEvent[] = [];
  listener = await startTestListener(responder);
  client = createMllpClient({ host: '127.0.0.1', port: listener.port, ackTimeoutMs: 2000, observer: (e) => events.push(e), ...options });
  return { l: listener, c: client, events };
}

/** The rejection of a promise (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createMllpClient', () => {
  it('should resolve with the parsed ACK and send the message bytes unaltered (UTF-8)', async () => {
    // Arrange
    const { l, c, events } = await setUp();
    const text = msg('ADT0001', 'PID|1||42^^^CLINIC^MR||MÜLLER^ZOË').replace('|2.5.1\r', '|2.5.1||||||UNICODE UTF-8\r');
    // Act
    const ack = await c.send(text);
    // Assert
    expect(ack.code).toBe('AA');
    expect(ack.controlId).toBe('ADT0001');
    expect(ack.ackControlId).toBe('ACK-ADT0001');
    expect(ack.durationMs).toBeGreaterThanOrEqual(0);
    expect(ack.message.segments.map((s) => s.id)).toEqual(['MSH', 'MSA']);
    expect(l.received[0]?.bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['connected', 'sent', 'acked']);
    // The frame's bytes: the UTF-8 message and the three framing bytes.
    expect(events[1]).toMatchObject({ type: 'sent', controlId: 'ADT0001', attempt: 1, bytes: Buffer.byteLength(text, 'utf8') + 3 });
  });

  it('should send ISO 8859-1 bytes when MSH-18 says 8859/1, and refuse text MSH-18 does not fit', async () => {
    const { l, c } = await setUp();
    const text = msg('ADT0002', 'PID|1||42^^^CLINIC^MR||MÜLLER^ZOE').replace('|2.5.1\r', '|2.5.1||||||8859/1\r');
    await c.send(text);
    expect(l.received[0]?.bytes.equals(Buffer.from(text, 'latin1'))).toBe(true);
    const ascii = msg('ADT0003', 'PID|1||42||MÜLLER').replace('|2.5.1\r', '|2.5.1||||||ASCII\r');
    expect(await rejection(c.send(ascii))).toMatchObject({ code: 'invalid-message', controlId: 'ADT0003' });
  });

  it('should resolve CA like AA', async () => {
    const { c } = await setUp((m, s) => void s.write(frame(ackText(m.controlId, 'CA'))));
    expect((await c.send(msg('ADT0004'))).code).toBe('CA');
  });

  it('should reject AE with a typed error carrying MSA-1, MSA-3 and the ERR code and location, and keep the connection', async () => {
    const err = 'ERR||PID^1^3^1^1|101^Required field missing^HL70357|E';
    const { l, c, events } = await setUp((m, s, i) => void s.write(frame(i === 0 ? ackText(m.controlId, 'AE', [err], 'Patient identifier missing') : ackText(m.controlId))));
    const error = await rejection(c.send(msg('ADT0005')));
    expect(error).toBeInstanceOf(MllpNakError);
    expect(error).toMatchObject({ code: 'nak', ackCode: 'AE', ackText: 'Patient identifier missing', errorCode: '101', errorLocation: 'PID-3.1', controlId: 'ADT0005' });
    // The peer's free text stays out of the message.
    expect((error as Error).message).not.toContain('Patient identifier');
    expect(events.some((e) => e.type === 'nacked' && e.ackCode === 'AE' && e.errorCode === '101')).toBe(true);
    await c.send(msg('ADT0006'));
    expect(l.connections()).toBe(1);
  });

  it.each(['AR', 'CE', 'CR'] as const)('should reject %s with an MllpNakError', async (code) => {
    const { c } = await setUp((m, s) => void s.write(frame(ackText(m.controlId, code, ['ERR|^^^207&Application internal error&HL70357']))));
    const error = await rejection(c.send(msg('ADT0007')));
    expect(error).toMatchObject({ name: 'MllpNakError', ackCode: code });
  });

  it('should read the error code and location of a pre-2.5 ERR-1', async () => {
    const { c } = await setUp((m, s) => void s.write(frame(ackText(m.controlId, 'AE', ['ERR|PID^1^5^102&Data type error&HL70357']))));
    expect(await rejection(c.send(msg('ADT0008')))).toMatchObject({ errorCode: '102', errorLocation: 'PID-5' });
  });

  it('should time out when no ACK comes, reset the connection, and not take the late ACK for the next message', async () => {
    // Arrange: the first message is answered after 300 ms (late), the others at once.
    const { l, c, events } = await setUp(
      (m, s, i) => {
        if (i === 0) setTimeout(() => s.destroyed || s.write(frame(ackText(m.controlId))), 300);
        else s.write(frame(ackText(m.controlId)));
      },
      { ackTimeoutMs: 100 },
    );
    // Act
    const first = c.send(msg('ADT0009'));
    const second = c.send(msg('ADT0010'));
    // Assert
    expect(await rejection(first)).toMatchObject({ code: 'ack-timeout', controlId: 'ADT0009' });
    expect((await second).controlId).toBe('ADT0010');
    expect(l.received.map((r) => [r.controlId, r.connection])).toEqual([['ADT0009', 0], ['ADT0010', 1]]);
    expect(events.map((e) => e.type)).toEqual(['connected', 'sent', 'timed-out', 'failed', 'reconnected', 'sent', 'disconnected', 'acked']);
  });

  it('should reject an ACK of another message (wrong MSA-2) and reset the connection', async () => {
    const { l, c } = await setUp((m, s, i) => void s.write(frame(ackText(i === 0 ? 'SOMETHING-ELSE' : m.controlId))));
    expect(await rejection(c.send(msg('ADT0011')))).toMatchObject({ code: 'ack-mismatch', controlId: 'ADT0011' });
    await c.send(msg('ADT0012'));
    expect(l.connections()).toBe(2);
  });

  it('should reject a frame that is no ACK (no MSA, not HL7) as not-ack', async () => {
    const answers = ['MSH|^~\\&|ENGINE|HOSP|||20260301||ADT^A31^ADT_A05|X1|P|2.5.1\rPID|1\r', 'hello, world', 'MSH|^~\\&|E|H|||20260301||ACK|X2|P|2.5.1\rMSA|ZZ|ADT0015\r'];
    const { c } = await setUp((_m, s, i) => void s.write(frame(answers[i] ?? '')));
    for (const id of ['ADT0013', 'ADT0014', 'ADT0015']) expect(await rejection(c.send(msg(id)))).toMatchObject({ code: 'not-ack', controlId: id });
  });

  it('should reject garbage outside a frame as frame-invalid', async () => {
    const { c } = await setUp((_m, s) => void s.write('HTTP/1.1 400 Bad Request\r\n\r\n'));
    expect(await rejection(c.send(msg('ADT0016')))).toMatchObject({ code: 'frame-invalid', controlId: 'ADT0016' });
  });

  it('should reject an ACK frame larger than maxFrameBytes without waiting for its end', async () => {
    const { c } = await setUp((_m, s) => void s.write(Buffer.concat([Buffer.from([0x0b]), Buffer.alloc(5000, 0x41)])), { maxFrameBytes: 4096 });
    expect(await rejection(c.send(msg('ADT0017')))).toMatchObject({ code: 'frame-too-large' });
  });

  it('should read an ACK split across writes (byte by byte)', async () => {
    const { c } = await setUp(async (m, s) => {
      const bytes = frame(ackText(m.controlId));
      for (const byte of bytes) {
        s.write(Buffer.from([byte]));
        await sleep(1);
      }
    });
    expect((await c.send(msg('ADT0018'))).code).toBe('AA');
  });

  it('should fail with connection when the peer closes before the ACK, and re-send the same bytes when a retry is allowed', async () => {
    const { l, c, events } = await setUp((m, s, i) => (i === 0 ? void s.destroy() : void s.write(frame(ackText(m.controlId)))), { retry: { attempts: 1, delayMs: 10 } });
    const ack = await c.send(msg('ADT0019'));
    expect(ack.controlId).toBe('ADT0019');
    expect(l.received).toHaveLength(2);
    expect(l.received[1]?.bytes.equals(l.received[0]?.bytes as Buffer)).toBe(true);
    expect(events.filter((e) => e.type === 'retrying')).toEqual([{ type: 'retrying', controlId: 'ADT0019', attempt: 2, reason: 'connection' }]);
  });

  it('should reject with connection when the peer closes before the ACK and no retry is allowed', async () => {
    const { c } = await setUp((_m, s) => void s.destroy());
    expect(await rejection(c.send(msg('ADT0020')))).toMatchObject({ code: 'connection', controlId: 'ADT0020' });
  });

  it('should resolve when the peer closes right after the ACK, and connect again for the next message', async () => {
    const { l, c, events } = await setUp((m, s) => void s.end(frame(ackText(m.controlId))));
    await c.send(msg('ADT0021'));
    await sleep(20);
    await c.send(msg('ADT0022'));
    expect(l.connections()).toBe(2);
    expect(events.filter((e) => e.type === 'reconnected')).toHaveLength(1);
  });

  it('should re-send after an ACK time-out up to retry.attempts, with the same MSH-10', async () => {
    const { l, c } = await setUp((m, s, i) => (i < 2 ? undefined : void s.write(frame(ackText(m.controlId)))), { ackTimeoutMs: 80, retry: { attempts: 2, delayMs: 0 } });
    await c.send(msg('ADT0023'));
    expect(l.received.map((r) => r.controlId)).toEqual(['ADT0023', 'ADT0023', 'ADT0023']);
    const { l: l2, c: c2 } = await setUp(() => undefined, { ackTimeoutMs: 50, retry: { attempts: 1, delayMs: 0 } });
    expect(await rejection(c2.send(msg('ADT0024')))).toMatchObject({ code: 'ack-timeout' });
    expect(l2.received).toHaveLength(2);
    await l.close();
    await c.close({ mode: 'abort' });
  });

  it('should send one message at a time, in order, each after the previous ACK', async () => {
    let inFlight = 0;
    let most = 0;
    const { l, c } = await setUp(async (m, s, i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep((i * 7) % 5);
      inFlight--;
      s.write(frame(ackText(m.controlId)));
    });
    const ids = Array.from({ length: 20 }, (_, i) => `ORD${String(i).padStart(4, '0')}`);
    const acks = await Promise.all(ids.map((id) => c.send(msg(id))));
    expect(acks.map((a) => a.controlId)).toEqual(ids);
    expect(l.received.map((r) => r.controlId)).toEqual(ids);
    expect(most).toBe(1);
  });

  it('should send a 1 MiB message intact', async () => {
    const { l, c } = await setUp();
    const note = 'OBX|1|TX|||' + 'x'.repeat(1024 * 1024) + '\r';
    const text = msg('MDM0001') + note;
    await c.send(text);
    expect(l.received[0]?.bytes.length).toBe(Buffer.byteLength(text));
    expect(l.received[0]?.bytes.equals(Buffer.from(text))).toBe(true);
  });

  it('should bound the queue: reject with queue-full past maxQueued, and waitForRoom until there is room', async () => {
    const { c } = await setUp(async (m, s) => {
      await sleep(30);
      s.write(frame(ackText(m.controlId)));
    }, { maxQueued: 2 });
    const sent = [c.send(msg('Q1')), c.send(msg('Q2')), c.send(msg('Q3'))];
    expect(c.pending).toBe(3);
    expect(await rejection(c.send(msg('Q4')))).toMatchObject({ code: 'queue-full', controlId: 'Q4' });
    await c.waitForRoom();
    expect(c.pending).toBeLessThanOrEqual(2);
    sent.push(c.send(msg('Q5')));
    expect((await Promise.all(sent)).map((a) => a.controlId)).toEqual(['Q1', 'Q2', 'Q3', 'Q5']);
  });

  it('should abort a queued message (never sent) and a message in flight (connection reset)', async () => {
    const { l, c } = await setUp(async (m, s) => {
      await sleep(100);
      if (!s.destroyed) s.write(frame(ackText(m.controlId)));
    });
    const inFlight = new AbortController();
    const queued = new AbortController();
    const first = c.send(msg('AB1'), { signal: inFlight.signal });
    const second = rejection(c.send(msg('AB2'), { signal: queued.signal }));
    const third = c.send(msg('AB3'));
    queued.abort();
    await sleep(20);
    inFlight.abort();
    expect(await rejection(first)).toMatchObject({ code: 'aborted', controlId: 'AB1' });
    expect(await second).toMatchObject({ code: 'aborted', controlId: 'AB2' });
    expect((await third).controlId).toBe('AB3');
    expect(l.received.map((r) => r.controlId)).toEqual(['AB1', 'AB3']);
    expect(await rejection(c.send(msg('AB4'), { signal: AbortSignal.abort() }))).toMatchObject({ code: 'aborted' });
  });

  it('should drain on close: deliver what is queued, then refuse new messages', async () => {
    const { l, c } = await setUp(async (m, s) => {
      await sleep(10);
      s.write(frame(ackText(m.controlId)));
    });
    const sent = [c.send(msg('D1')), c.send(msg('D2')), c.send(msg('D3'))];
    await c.close();
    expect((await Promise.all(sent)).map((a) => a.code)).toEqual(['AA', 'AA', 'AA']);
    expect(l.received).toHaveLength(3);
    expect(c.connected).toBe(false);
    expect(await rejection(c.send(msg('D4')))).toMatchObject({ code: 'closed' });
  });

  it('should abort on close({ mode: "abort" }): every pending message rejects with closed at once', async () => {
    const { c } = await setUp(() => undefined, { ackTimeoutMs: 60_000 });
    const sent = [c.send(msg('C1')), c.send(msg('C2'))];
    await sleep(20);
    const started = Date.now();
    await c.close({ mode: 'abort' });
    for (const p of sent) expect(await rejection(p)).toMatchObject({ code: 'closed' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(c.pending).toBe(0);
  });

  it('should reset the connection on an unsolicited frame and keep working', async () => {
    const { l, c, events } = await setUp((m, s, i) => void s.write(i === 0 ? Buffer.concat([frame(ackText(m.controlId)), frame(ackText(m.controlId))]) : frame(ackText(m.controlId))));
    await c.send(msg('U1'));
    await sleep(20);
    await c.send(msg('U2'));
    expect(events.some((e) => e.type === 'unexpected-frame')).toBe(true);
    expect(l.connections()).toBe(2);
  });

  it('should never read a frame that came with an ACK as the next message’s answer, sends queued or awaited', async () => {
    // The engine answers the first message with its ACK and, in the same write, an "ACK" of the next message
    // before that message was sent: it answers nothing sent, so the connection is reset and the next message
    // goes on a new connection, where its real ACK (no MSA-3) comes.
    const early = (m: { controlId: string }, next: string): Buffer => Buffer.concat([frame(ackText(m.controlId)), frame(ackText(next, 'AA', [], 'early'))]);
    const { l, c, events } = await setUp((m, s) => void s.write(m.controlId === 'E1' ? early(m, 'E2') : m.controlId === 'E3' ? early(m, 'E4') : frame(ackText(m.controlId))));
    await c.send(msg('E0'));
    // Queued: E2 waits in the queue while E1 is in flight on the open connection.
    const [first, second] = await Promise.all([c.send(msg('E1')), c.send(msg('E2'))]);
    expect([first.text, second.text]).toEqual(['', '']);
    // Awaited.
    await c.send(msg('E3'));
    expect((await c.send(msg('E4'))).text).toBe('');
    expect(l.received.map((r) => [r.controlId, r.connection])).toEqual([['E0', 0], ['E1', 0], ['E2', 1], ['E3', 1], ['E4', 2]]);
    expect(events.filter((e) => e.type === 'unexpected-frame')).toHaveLength(2);
  });

  it('should retry connecting with growing back-off, then reject with connection', async () => {
    const { l } = await setUp();
    const port = l.port;
    await l.close();
    listener = undefined;
    const events: MllpEvent[] = [];
    client = createMllpClient({ host: '127.0.0.1', port, reconnect: { initialDelayMs: 20, maxDelayMs: 40, maxAttempts: 4 }, observer: (e) => events.push(e) });
    const started = Date.now();
    const error = await rejection(client.send(msg('R1')));
    expect(error).toMatchObject({ code: 'connection', controlId: 'R1' });
    expect((error as Error).message).toContain('ECONNREFUSED');
    const failures = events.filter((e): e is Extract<MllpEvent, { type: 'connect-failed' }> => e.type === 'connect-failed');
    expect(failures.map((e) => e.retryInMs)).toEqual([20, 40, 40, undefined]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('should refuse messages it cannot match or frame, with invalid-message', async () => {
    const { c } = await setUp();
    expect(await rejection(c.send('PID|1||42\r'))).toMatchObject({ code: 'invalid-message' });
    expect(await rejection(c.send(msg('')))).toMatchObject({ code: 'invalid-message' });
    expect(await rejection(c.send(msg('X1') + 'NTE|1||a\u001cb\r'))).toMatchObject({ code: 'invalid-message' });
    expect(await rejection(c.send(msg('X2') + 'NTE|1||\ud800\r'))).toMatchObject({ code: 'invalid-message' });
    expect(await rejection(c.send(42 as unknown as string))).toMatchObject({ code: 'invalid-message' });
  });

  it('should keep working when the observer throws', async () => {
    const { c } = await setUp(undefined, {
      observer: () => {
        throw new Error('observer failure');
      },
    });
    expect((await c.send(msg('OB1'))).code).toBe('AA');
  });

  it('should refuse options out of range with invalid-argument', () => {
    for (const bad of [{ port: 0 }, { port: 70000 }, { ackTimeoutMs: 0 }, { maxQueued: -1 }, { retry: { attempts: 11 } }, { host: '' }]) {
      let error: unknown;
      try {
        createMllpClient({ host: '127.0.0.1', port: 2575, ...bad } as MllpClientOptions);
      } catch (e) {
        error = e;
      }
      expect(isMllpError(error, 'invalid-argument'), JSON.stringify(bad)).toBe(true);
    }
  });
});
