/// <reference types="node" />
/**
 * `createMllpClient`: send HL7 v2 messages to one MLLP peer (an interface engine) and read its ACKs.
 */
import type { MllpAck } from './ack.js';
import { clearAckTimer, finishWaiting, pump, resetConnection, settle, type ClientState, type Entry } from './delivery.js';
import { MllpError } from './errors.js';
import { prepareOutgoing } from './message.js';
import { resolveOptions, type MllpClientOptions } from './options.js';

/** Options of one `send`. */
export interface MllpSendOptions {
  /**
   * Stop waiting: a queued message is taken out of the queue; a message in flight stops waiting for its ACK
   * and the connection is reset (the peer may still have received it). The promise rejects with `aborted`.
   */
  readonly signal?: AbortSignal | undefined;
}

/** Options of `close`. */
export interface MllpCloseOptions {
  /**
   * `drain` (default): refuse new messages, deliver those queued, then close the connection. `abort`: reject
   * every queued and in-flight message with `closed` and reset the connection now.
   */
  readonly mode?: 'drain' | 'abort' | undefined;
}

/** A client of one MLLP peer, as {@link createMllpClient} returns it. */
export interface MllpClient {
  /**
   * Queue a message; it is sent when every message queued before it has its answer.
   * @param message - HL7 v2 text (sent as UTF-8, or as MSH-18 says) or its bytes (sent as they are)
   * @param options - an abort signal
   * @returns the positive ACK (MSA-1 `AA` or `CA`, MSA-2 equal to the message's MSH-10)
   * @throws {MllpNakError} `nak` for `AE`/`AR`/`CE`/`CR`; {@link MllpError} `ack-timeout`, `ack-mismatch`,
   *   `not-ack`, `frame-invalid`, `frame-too-large`, `connection`, `queue-full`, `closed`, `aborted`,
   *   `invalid-message` (all as rejections)
   */
  send(message: string | Uint8Array, options?: MllpSendOptions): Promise<MllpAck>;
  /**
   * Wait until the queue has room for one more message (back-pressure for producers that do not await each
   * `send`).
   * @param signal - stops the wait (rejects with `aborted`)
   * @returns when `send` would not reject with `queue-full`
   * @throws {MllpError} `closed` when the client closes, `aborted`
   */
  waitForRoom(signal?: AbortSignal): Promise<void>;
  /**
   * Close the client (see {@link MllpCloseOptions}). Calling it again returns when the client is closed; an
   * `abort` after a `drain` cuts the drain short.
   * @returns when no message is pending and the connection is closed
   */
  close(options?: MllpCloseOptions): Promise<void>;
  /** Messages queued or in flight. */
  readonly pending: number;
  /** True while a connection to the peer is open. */
  readonly connected: boolean;
}

function noop(): void {
  // Nothing to detach: the message has no abort signal.
}

function closedError(controlId?: string): MllpError {
  return new MllpError('closed', 'The MLLP client is closed', { controlId });
}

function abortedError(controlId?: string): MllpError {
  return new MllpError('aborted', controlId === undefined ? 'The wait was aborted' : `Sending message ${controlId} was aborted`, { controlId });
}

function abortEntry(state: ClientState, entry: Entry): void {
  if (entry.settled) return;
  const index = state.queue.indexOf(entry);
  if (index !== -1) state.queue.splice(index, 1);
  settle(entry, { error: abortedError(entry.out.controlId) });
  const w = state.waiting;
  if (w !== undefined && w.entry === entry) finishWaiting(state, w, { error: abortedError(entry.out.controlId), retry: false }, true);
  for (const wake of [...state.roomWaiters]) wake();
}

function send(state: ClientState, message: string | Uint8Array, options: MllpSendOptions | undefined): Promise<MllpAck> {
  try {
    if (state.closing !== undefined) throw closedError();
    const out = prepareOutgoing(message);
    const { frame } = out;
    const signal: unknown = options?.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw new MllpError('invalid-argument', 'Invalid options.signal: must be an AbortSignal', { controlId: out.controlId });
    if (signal?.aborted === true) throw abortedError(out.controlId);
    if (state.queue.length >= state.o.maxQueued && (state.pumping || state.current !== undefined)) {
      throw new MllpError('queue-full', `The queue is full (${state.o.maxQueued} messages wait): message ${out.controlId} was not queued`, { controlId: out.controlId });
    }
    return new Promise<MllpAck>((resolve, reject) => {
      const entry: Entry = { out, frame, signal, resolve, reject, settled: false, attempts: 0, detach: noop };
      if (signal !== undefined) {
        const onAbort = (): void => abortEntry(state, entry);
        signal.addEventListener('abort', onAbort, { once: true });
        entry.detach = () => signal.removeEventListener('abort', onAbort);
      }
      state.queue.push(entry);
      pump(state);
    });
  } catch (error) {
    return Promise.reject(error);
  }
}

function waitForRoom(state: ClientState, signal: AbortSignal | undefined): Promise<void> {
  if (signal !== undefined && !((signal as unknown) instanceof AbortSignal)) return Promise.reject(new MllpError('invalid-argument', 'Invalid signal: must be an AbortSignal'));
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (state.closing !== undefined) done(closedError());
      else if (signal?.aborted === true) done(abortedError());
      else if (state.queue.length < state.o.maxQueued) done(undefined);
    };
    const done = (error: MllpError | undefined): void => {
      state.roomWaiters.delete(check);
      signal?.removeEventListener('abort', check);
      if (error === undefined) resolve();
      else reject(error);
    };
    check();
    state.roomWaiters.add(check);
    signal?.addEventListener('abort', check, { once: true });
    check();
  });
}

/** End the connection politely (FIN), or destroy it after a second. */
function endConnection(state: ClientState): Promise<void> {
  const conn = state.conn;
  if (conn === undefined || conn.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resetConnection(state, conn), 1000);
    conn.socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    conn.socket.end();
  });
}

function close(state: ClientState, options: MllpCloseOptions | undefined): Promise<void> {
  const mode = options?.mode ?? 'drain';
  if (mode !== 'drain' && mode !== 'abort') return Promise.reject(new MllpError('invalid-argument', "Invalid mode: must be 'drain' or 'abort'"));
  if (mode === 'abort' && state.closing !== 'abort') {
    state.closing = 'abort';
    state.closeController.abort();
    for (const entry of state.queue.splice(0)) settle(entry, { error: closedError(entry.out.controlId) });
    const current = state.current;
    if (current !== undefined) settle(current, { error: closedError(current.out.controlId) });
    if (state.waiting !== undefined) finishWaiting(state, state.waiting, { error: closedError(current?.out.controlId), retry: false }, true);
    if (state.conn !== undefined) resetConnection(state, state.conn);
    clearAckTimer(state);
  } else if (state.closing === undefined) {
    state.closing = 'drain';
  }
  for (const wake of [...state.roomWaiters]) wake();
  const idle = state.pumping ? new Promise<void>((resolve) => state.idleWaiters.push(resolve)) : Promise.resolve();
  return idle.then(() => endConnection(state));
}

/**
 * Create a client of one MLLP peer. It connects on the first `send`, keeps the connection open between
 * messages, sends one message at a time and waits for its ACK (MSA-2 must equal the message's MSH-10), and
 * connects again with bounded exponential back-off after a drop. Nothing is sent until `send` is called.
 *
 * @param options - the peer and the behaviour (time-outs, queue size, retries, back-off, TLS, observer)
 * @returns the client
 * @throws {MllpError} `invalid-argument` for an option out of range
 * @see docs/mllp.md
 * @example
 * const client = createMllpClient({ host: 'engine.example.org', port: 2575, ackTimeoutMs: 30_000 });
 * const ack = await client.send(buildAdtA31(chart, { sendingApplication: 'CHART-EXPORT' }));
 * await client.close();
 */
export function createMllpClient(options: MllpClientOptions): MllpClient {
  const state: ClientState = {
    o: resolveOptions(options),
    queue: [],
    current: undefined,
    conn: undefined,
    waiting: undefined,
    pumping: false,
    closing: undefined,
    closeController: new AbortController(),
    failures: 0,
    everConnected: false,
    resets: new WeakSet(),
    roomWaiters: new Set(),
    idleWaiters: [],
    ackTimer: undefined,
    resume: undefined,
  };
  return {
    send: (message, sendOptions) => send(state, message, sendOptions),
    waitForRoom: (signal) => waitForRoom(state, signal),
    close: (closeOptions) => close(state, closeOptions),
    get pending() {
      return state.queue.length + (state.current === undefined ? 0 : 1);
    },
    get connected() {
      return state.conn !== undefined && !state.conn.closed;
    },
  };
}
