/**
 * The tests' own MLLP listener, with faults on demand: it reads frames with a plain byte scan of its own (not
 * the client's reader) and lets each test decide what to answer to each message, and how (whole, split across
 * writes, late, never, then close…). TCP or TLS, on a free loopback port.
 */
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TlsOptions } from 'node:tls';

/** One message the listener received. */
export interface Received {
  /** The message bytes (inside the frame). */
  readonly bytes: Buffer;
  /** The message as UTF-8 text. */
  readonly text: string;
  /** MSH-10, read with a plain split (the test's own reading, not the package's parser). */
  readonly controlId: string;
  /** Which connection it came on (0, 1, …). */
  readonly connection: number;
}

/** What a test does with a received message. */
export type Responder = (message: Received, socket: Socket, index: number) => void | Promise<void>;

/** A running listener. */
export interface TestListener {
  readonly port: number;
  /** Every message received, in order. */
  readonly received: Received[];
  /** Connections accepted so far. */
  readonly connections: () => number;
  /** Change the responder. */
  respond(responder: Responder): void;
  /** Close the listener and every connection. */
  close(): Promise<void>;
}

/** Build an ACK of `controlId` (MSA-2) with `code`, in v2.5.1 form; `extra` segments follow MSA. */
export function ackText(controlId: string, code = 'AA', extra: readonly string[] = [], msa3 = ''): string {
  const segments = [`MSH|^~\\&|ENGINE|HOSP|CHART-EXPORT||20260301093000||ACK^A31^ACK|ACK-${controlId}|P|2.5.1`, `MSA|${code}|${controlId}${msa3 === '' ? '' : `|${msa3}`}`, ...extra];
  return segments.join('\r') + '\r';
}

/** Frame text (UTF-8) for the wire. */
export function frame(text: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x0b]), typeof text === 'string' ? Buffer.from(text, 'utf8') : text, Buffer.from([0x1c, 0x0d])]);
}

/** The responder of a well-behaved engine: AA to every message, in one write. */
export const acceptAll: Responder = (message, socket) => {
  socket.write(frame(ackText(message.controlId)));
};

function controlIdOf(text: string): string {
  const msh = text.split(/\r\n|\r|\n/)[0] ?? '';
  return msh.split('|')[9] ?? '';
}

/**
 * Start a listener on 127.0.0.1 and a free port.
 * @param responder - what to do with each message (default: AA)
 * @param tls - TLS server options for MLLP over TLS
 * @returns the listener
 */
export async function startTestListener(responder: Responder = acceptAll, tls?: TlsOptions): Promise<TestListener> {
  let current = responder;
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let connectionCount = 0;
  let index = 0;
  const onConnection = (socket: Socket): void => {
    const connection = connectionCount++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const start = buffer.indexOf(0x0b);
        const end = buffer.indexOf(Buffer.from([0x1c, 0x0d]), start + 1);
        if (start === -1 || end === -1) return;
        const bytes = buffer.subarray(start + 1, end);
        buffer = buffer.subarray(end + 2);
        const text = bytes.toString('utf8');
        const message: Received = { bytes: Buffer.from(bytes), text, controlId: controlIdOf(text), connection };
        received.push(message);
        void current(message, socket, index++);
      }
    });
  };
  const server: Server = tls === undefined ? createNetServer(onConnection) : createTlsServer(tls, onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    received,
    connections: () => connectionCount,
    respond(next) {
      current = next;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
