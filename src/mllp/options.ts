/// <reference types="node" />
/**
 * The MLLP client's options, their defaults and checks.
 */
import { MllpError, type MllpErrorCode } from './errors.js';
import type { MllpTlsOptions } from './connection.js';
import { DEFAULT_MAX_FRAME_BYTES } from './frame.js';
import type { AckCode } from './ack.js';

/**
 * What the client reports to an observer (for logs and metrics), by `type`: `connected` / `reconnected` (a
 * connection is up; `failedAttempts` before it), `connect-failed` (one attempt; `retryInMs` until the next, none
 * after the last), `disconnected` (`peer-closed`, `reset` by the client, or `closed`), `sent` (`attempt` 1 for
 * the first write), `acked`, `nacked`, `timed-out`, `retrying`, `failed` (the message's promise rejects with
 * `code`), `unexpected-frame` (a frame while no message waits: the connection is reset). Never a patient value.
 */
export type MllpEvent = MllpConnectionEvent | MllpConnectFailedEvent | MllpDisconnectedEvent | MllpMessageEvent | MllpUnexpectedFrameEvent;

/** A connection attempt failed. */
export interface MllpConnectFailedEvent {
  /** `connect-failed`. */
  readonly type: 'connect-failed';
  /** The attempt (1 = the first for this message). */
  readonly attempt: number;
  /** Why: Node's error code (`ECONNREFUSED`, `ERR_TLS_CERT_ALTNAME_INVALID`) in a sentence. */
  readonly reason: string;
  /** Milliseconds until the next attempt; undefined after the last one. */
  readonly retryInMs: number | undefined;
}

/** The connection closed. */
export interface MllpDisconnectedEvent {
  /** `disconnected`. */
  readonly type: 'disconnected';
  /** `peer-closed` (the engine closed it), `reset` (the client did, after a time-out or a protocol error), `closed` (`close()`). */
  readonly reason: 'peer-closed' | 'reset' | 'closed';
}

/** A frame came while no message waited: the connection is reset. */
export interface MllpUnexpectedFrameEvent {
  /** `unexpected-frame`. */
  readonly type: 'unexpected-frame';
}

/** `connected` and `reconnected` events. */
export interface MllpConnectionEvent {
  /** `connected` for the first connection, `reconnected` for any later one. */
  readonly type: 'connected' | 'reconnected';
  /** The peer's host. */
  readonly host: string;
  /** The peer's port. */
  readonly port: number;
  /** Failed attempts just before this connection (0 for none). */
  readonly failedAttempts?: number;
}

/** Events about one message. */
export interface MllpMessageEvent {
  /** What happened to it. */
  readonly type: 'sent' | 'acked' | 'nacked' | 'timed-out' | 'retrying' | 'failed';
  /** Its MSH-10. */
  readonly controlId: string;
  /** `sent`, `timed-out`, `retrying`: the write it is about (1 = the first). */
  readonly attempt?: number;
  /** `sent`: the frame's size in bytes. */
  readonly bytes?: number;
  /** `acked`, `nacked`: MSA-1. */
  readonly ackCode?: AckCode;
  /** `nacked`: ERR-3.1 (or ERR-1.4.1), `''` when absent. */
  readonly errorCode?: string;
  /** `acked`, `nacked`: milliseconds from the write to the answer. */
  readonly durationMs?: number;
  /** `timed-out`: the time-out in force. */
  readonly timeoutMs?: number;
  /** `retrying`: why it is sent again; `failed`: the error code its promise rejects with. */
  readonly reason?: MllpErrorCode;
  /** `failed`: the error code its promise rejects with. */
  readonly code?: MllpErrorCode;
}

/** Re-sending a message whose ACK did not come (time-out, or the connection dropped before the ACK). */
export interface MllpRetryOptions {
  /**
   * How many times to send the same message again (same bytes, same MSH-10), 0–10. Default 0. A message whose
   * ACK was lost may have been received and processed: a re-send can be a duplicate, which the receiver must
   * recognise by MSH-10. NAKs and protocol errors are never re-sent.
   */
  readonly attempts?: number | undefined;
  /** Wait before a re-send, in ms. Default 1000. */
  readonly delayMs?: number | undefined;
}

/** Connecting again after a failure: exponential back-off, bounded. */
export interface MllpReconnectOptions {
  /** First wait after a failed connection attempt, in ms. Default 250. */
  readonly initialDelayMs?: number | undefined;
  /** Longest wait between attempts, in ms. Default 10 000. */
  readonly maxDelayMs?: number | undefined;
  /** Connection attempts for one message before it fails with `connection`. Default 5. */
  readonly maxAttempts?: number | undefined;
}

/** Options of {@link createMllpClient}. */
export interface MllpClientOptions {
  /** The peer's host name or IP address. */
  readonly host: string;
  /** The peer's port. */
  readonly port: number;
  /** MLLP over TLS: `true` for Node's default trust store, or the TLS settings. Default: plain TCP. */
  readonly tls?: boolean | MllpTlsOptions | undefined;
  /** How long to wait for the ACK of a message, in ms, from the time it is written. Default 10 000. */
  readonly ackTimeoutMs?: number | undefined;
  /** How long one connection attempt may take (TLS handshake included), in ms. Default 10 000. */
  readonly connectTimeoutMs?: number | undefined;
  /** Most messages waiting behind the one in flight; `send` rejects with `queue-full` past it. Default 1000. */
  readonly maxQueued?: number | undefined;
  /** Largest frame accepted from the peer, in bytes. Default 1 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** Re-sending after a time-out or a drop. Default: none. */
  readonly retry?: MllpRetryOptions | undefined;
  /** Back-off of connection attempts. */
  readonly reconnect?: MllpReconnectOptions | undefined;
  /** Called synchronously for every event; what it throws is ignored. */
  readonly observer?: ((event: MllpEvent) => void) | undefined;
}

/** The options with defaults applied. */
export interface ResolvedOptions {
  readonly host: string;
  readonly port: number;
  readonly tls: MllpTlsOptions | undefined;
  readonly ackTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly maxQueued: number;
  readonly maxFrameBytes: number;
  readonly retryAttempts: number;
  readonly retryDelayMs: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxConnectAttempts: number;
  readonly observer: ((event: MllpEvent) => void) | undefined;
}

function integer(value: number | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new MllpError('invalid-argument', `Invalid ${name}: must be an integer from ${min} to ${max}`);
  }
  return value;
}

/**
 * Check the options and apply the defaults.
 * @param options - as given
 * @returns the resolved options
 * @throws {MllpError} `invalid-argument` naming the option
 * @example resolveOptions({ host: '127.0.0.1', port: 2575 }).ackTimeoutMs // 10000
 */
export function resolveOptions(options: MllpClientOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new MllpError('invalid-argument', 'Invalid options: must be an object');
  if (typeof options.host !== 'string' || options.host === '') throw new MllpError('invalid-argument', 'Invalid host: must be a non-empty string');
  if (options.observer !== undefined && typeof options.observer !== 'function') throw new MllpError('invalid-argument', 'Invalid observer: must be a function');
  if (options.tls !== undefined && typeof options.tls !== 'boolean' && (typeof options.tls !== 'object' || options.tls === null)) {
    throw new MllpError('invalid-argument', 'Invalid tls: must be a boolean or an object of TLS settings');
  }
  for (const name of ['retry', 'reconnect'] as const) {
    const value: unknown = options[name];
    if (value !== undefined && (typeof value !== 'object' || value === null)) throw new MllpError('invalid-argument', `Invalid ${name}: must be an object`);
  }
  const tls = options.tls === true ? {} : options.tls === false || options.tls === undefined ? undefined : options.tls;
  const retry = options.retry ?? {};
  const reconnect = options.reconnect ?? {};
  const initialDelayMs = integer(reconnect.initialDelayMs, 'reconnect.initialDelayMs', 250, 0, 3_600_000);
  const resolved: ResolvedOptions = {
    host: options.host,
    port: integer(options.port, 'port', 0, 1, 65535),
    tls,
    ackTimeoutMs: integer(options.ackTimeoutMs, 'ackTimeoutMs', 10_000, 1, 3_600_000),
    connectTimeoutMs: integer(options.connectTimeoutMs, 'connectTimeoutMs', 10_000, 1, 3_600_000),
    maxQueued: integer(options.maxQueued, 'maxQueued', 1000, 0, 1_000_000),
    maxFrameBytes: integer(options.maxFrameBytes, 'maxFrameBytes', DEFAULT_MAX_FRAME_BYTES, 1, 2 ** 30),
    retryAttempts: integer(retry.attempts, 'retry.attempts', 0, 0, 10),
    retryDelayMs: integer(retry.delayMs, 'retry.delayMs', 1000, 0, 3_600_000),
    initialDelayMs,
    maxDelayMs: integer(reconnect.maxDelayMs, 'reconnect.maxDelayMs', Math.max(10_000, initialDelayMs), initialDelayMs, 3_600_000),
    maxConnectAttempts: integer(reconnect.maxAttempts, 'reconnect.maxAttempts', 5, 1, 1000),
    observer: options.observer,
  };
  if (options.port === undefined) throw new MllpError('invalid-argument', 'Invalid port: must be an integer from 1 to 65535');
  return resolved;
}
