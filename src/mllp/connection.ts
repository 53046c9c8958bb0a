/// <reference types="node" />
/**
 * One TCP (or TLS) connection to the peer and its frame reader. Node only (`node:net`, `node:tls`).
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { MllpError } from './errors.js';
import { createMllpFrameReader } from './frame.js';

/** TLS settings of an MLLP-over-TLS connection (the usual `node:tls` names). */
export interface MllpTlsOptions {
  /** Certificate authorities to trust instead of Node's default list (PEM). */
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[] | undefined;
  /** Client certificate chain (PEM), for peers that ask for one. */
  readonly cert?: string | Uint8Array | undefined;
  /** Client private key (PEM). */
  readonly key?: string | Uint8Array | undefined;
  /** Passphrase of `key`. */
  readonly passphrase?: string | undefined;
  /** Server name for SNI and the certificate check. Default: `host` when it is a name, none for an IP address. */
  readonly servername?: string | undefined;
  /** Check the peer's certificate (default true). Turn off only for a local test. */
  readonly rejectUnauthorized?: boolean | undefined;
}

/** Where and how to connect. */
export interface ConnectTarget {
  readonly host: string;
  readonly port: number;
  readonly tls: MllpTlsOptions | undefined;
  readonly connectTimeoutMs: number;
  readonly maxFrameBytes: number;
}

/** What a connection reports to its owner. */
export interface ConnectionEvents {
  /** The bytes of one complete frame. */
  readonly onFrame: (frame: Uint8Array) => void;
  /** A framing error: the connection is destroyed right after. */
  readonly onProtocolError: (error: MllpError) => void;
  /** The connection is gone (whoever closed it), once. */
  readonly onClose: () => void;
}

/** An open connection. */
export interface Connection {
  readonly socket: Socket;
  /** Destroy the socket (a reset: nothing more is read from it). */
  destroy(): void;
  /** True once closed. */
  readonly closed: boolean;
}

function tlsOptions(target: ConnectTarget, tls: MllpTlsOptions): ConnectionOptions {
  const options: ConnectionOptions = { host: target.host, port: target.port };
  if (tls.ca !== undefined) options.ca = tls.ca as ConnectionOptions['ca'];
  if (tls.cert !== undefined) options.cert = tls.cert as ConnectionOptions['cert'];
  if (tls.key !== undefined) options.key = tls.key as ConnectionOptions['key'];
  if (tls.passphrase !== undefined) options.passphrase = tls.passphrase;
  const servername = tls.servername ?? (isIP(target.host) === 0 ? target.host : undefined);
  if (servername !== undefined) options.servername = servername;
  options.rejectUnauthorized = tls.rejectUnauthorized !== false;
  return options;
}

/** The reason of a socket error, as a code (never the peer's data). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message.slice(0, 120) : 'error';
}

/**
 * Open a connection and wire its reader.
 *
 * @param target - host, port, TLS and limits
 * @param events - where frames, protocol errors and the close go
 * @returns the connection, once connected (after the TLS handshake for TLS)
 * @throws {MllpError} `connection` when the connection cannot be made within `connectTimeoutMs`
 * @example const c = await openConnection(target, { onFrame, onProtocolError, onClose });
 */
export function openConnection(target: ConnectTarget, events: ConnectionEvents): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = target.tls === undefined ? netConnect({ host: target.host, port: target.port }) : tlsConnect(tlsOptions(target, target.tls));
    const reader = createMllpFrameReader({ maxFrameBytes: target.maxFrameBytes });
    let connected = false;
    let closed = false;
    const where = `${target.host}:${target.port}`;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new MllpError('connection', `Cannot connect to ${where}: no connection within ${target.connectTimeoutMs} ms`));
    }, target.connectTimeoutMs);
    const connection: Connection = {
      socket,
      destroy: () => socket.destroy(),
      get closed() {
        return closed;
      },
    };
    socket.on(target.tls === undefined ? 'connect' : 'secureConnect', () => {
      clearTimeout(timer);
      connected = true;
      socket.setNoDelay(true);
      resolve(connection);
    });
    socket.on('error', (error) => {
      if (!connected) {
        clearTimeout(timer);
        reject(new MllpError('connection', `Cannot connect to ${where} (${reasonOf(error)})`, { cause: error }));
      }
      // After the connection is up, 'close' follows and tells the owner.
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      if (connected) events.onClose();
    });
    socket.on('data', (chunk: Buffer) => {
      // After a reset (destroy), nothing more is read: a late ACK must never be taken for the next message's.
      if (socket.destroyed) return;
      let frames: Uint8Array[];
      try {
        frames = reader.push(chunk);
      } catch (error) {
        socket.destroy();
        events.onProtocolError(error as MllpError);
        return;
      }
      for (const frame of frames) {
        if (socket.destroyed) return;
        events.onFrame(frame);
      }
    });
  });
}
