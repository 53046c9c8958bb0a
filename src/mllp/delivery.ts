/// <reference types="node" />
/**
 * The client's delivery loop: one message in flight on one connection, in queue order; connecting with
 * bounded back-off; the ACK wait with its time-out; re-sends. Every promise here settles, and none rejects:
 * outcomes are values, and each message's own promise is settled exactly once.
 */
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { readAck, type MllpAck } from './ack.js';
import { openConnection, type Connection } from './connection.js';
import { MllpError, MllpNakError } from './errors.js';
import type { OutgoingMessage } from './message.js';
import type { MllpEvent, ResolvedOptions } from './options.js';

/** A message in the queue or in flight. */
export interface Entry {
  readonly out: OutgoingMessage;
  /** The frame as `prepareOutgoing` made it (text written with `out.encoding`, or bytes). */
  readonly frame: string | Uint8Array;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (ack: MllpAck) => void;
  readonly reject: (error: unknown) => void;
  settled: boolean;
  /** Times written so far. */
  attempts: number;
  /** Remove the abort listener. */
  detach: () => void;
}

type Outcome = { readonly ack: MllpAck } | { readonly error: MllpError; readonly retry: boolean };

/** The message whose ACK is awaited; {@link finishWaiting} ends the wait. */
export interface Waiting {
  readonly entry: Entry;
  readonly conn: Connection;
  readonly started: number;
  /** `performance.now()` past which the ACK is late. */
  readonly deadline: number;
  readonly attempt: number;
  /** Where the outcome goes: a waiting `deliver`, or, when undefined, {@link afterExchange} (the queue's own path). */
  readonly done: ((outcome: Outcome) => void) | undefined;
  finished: boolean;
}

/** Everything the client holds. */
export interface ClientState {
  readonly o: ResolvedOptions;
  readonly queue: Entry[];
  current: Entry | undefined;
  conn: Connection | undefined;
  waiting: Waiting | undefined;
  pumping: boolean;
  closing: 'drain' | 'abort' | undefined;
  /** Aborted by `close({ mode: 'abort' })`: wakes every back-off and retry wait. */
  readonly closeController: AbortController;
  /** Consecutive failed connection attempts (the back-off grows with it). */
  failures: number;
  everConnected: boolean;
  /** Connections this client reset (destroyed on purpose). */
  readonly resets: WeakSet<Connection>;
  readonly roomWaiters: Set<() => void>;
  readonly idleWaiters: (() => void)[];
  /** The ACK timer: armed once and re-armed only when it fires early (see {@link armAckTimer}). */
  ackTimer: ReturnType<typeof setTimeout> | undefined;
  /** `runQueue` of this client, made once (not a closure per message) for `queueMicrotask`. */
  resume: (() => void) | undefined;
}

/** True once `close({ mode: 'abort' })` was called (a function, so TypeScript does not narrow it across awaits). */
function aborting(state: ClientState): boolean {
  return state.closing === 'abort';
}

/** Tell the observer; an observer that throws changes nothing. */
export function emit(state: ClientState, event: MllpEvent): void {
  try {
    state.o.observer?.(event);
  } catch {
    // The observer is the caller's: its failure must not break delivery.
  }
}

/** Settle a message's promise, once. */
export function settle(entry: Entry, result: { readonly ack: MllpAck } | { readonly error: unknown }): void {
  if (entry.settled) return;
  entry.settled = true;
  entry.detach();
  if ('ack' in result) entry.resolve(result.ack);
  else entry.reject(result.error);
}

/**
 * End the wait for an ACK, once: the outcome goes where the wait said. A reset makes sure that a late ACK is
 * never read as the next message's.
 */
export function finishWaiting(state: ClientState, w: Waiting, outcome: Outcome, reset: boolean): void {
  if (w.finished) return;
  w.finished = true;
  if (state.waiting === w) state.waiting = undefined;
  if (reset) resetConnection(state, w.conn);
  if (w.done === undefined) afterExchange(state, w.entry, outcome);
  else w.done(outcome);
}

/** Destroy a connection on purpose, so nothing more is read from it. */
export function resetConnection(state: ClientState, conn: Connection): void {
  state.resets.add(conn);
  if (state.conn === conn) state.conn = undefined;
  conn.destroy();
}

/** Wait `ms`, or less when a signal aborts; never rejects. */
function sleep(ms: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> {
  return new Promise((resolve) => {
    const live = signals.filter((s): s is AbortSignal => s !== undefined);
    const done = (): void => {
      clearTimeout(timer);
      for (const s of live) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of live) {
      if (s.aborted) return done();
      s.addEventListener('abort', done, { once: true });
    }
  });
}

function onFrame(state: ClientState, conn: Connection, frame: Uint8Array): void {
  const w = state.waiting;
  if (w === undefined || w.conn !== conn) {
    // A frame while no message waits (a second ACK, a late one): the stream cannot be trusted any more.
    emit(state, { type: 'unexpected-frame' });
    resetConnection(state, conn);
    return;
  }
  const { out } = w.entry;
  try {
    finishWaiting(state, w, { ack: readAck(frame, out.charset, out.controlId, performance.now() - w.started) }, false);
  } catch (error) {
    if (error instanceof MllpNakError) {
      const durationMs = performance.now() - w.started;
      emit(state, { type: 'nacked', controlId: out.controlId, ackCode: error.ackCode, errorCode: error.errorCode, durationMs });
      finishWaiting(state, w, { error, retry: false }, false);
    } else {
      // Not an ACK, or an ACK of another message: what else the peer will send cannot be matched.
      finishWaiting(state, w, { error: error as MllpError, retry: false }, true);
    }
  }
}

function connectionEvents(state: ClientState, holder: { conn?: Connection }): Parameters<typeof openConnection>[1] {
  return {
    onFrame: (frame) => {
      if (holder.conn !== undefined) onFrame(state, holder.conn, frame);
    },
    onProtocolError: (error) => {
      const w = state.waiting;
      if (holder.conn === undefined || w === undefined || w.conn !== holder.conn) return;
      finishWaiting(state, w, { error: new MllpError(error.code, error.message, { controlId: w.entry.out.controlId }), retry: false }, true);
    },
    onClose: () => {
      const conn = holder.conn;
      if (conn === undefined) return;
      if (state.conn === conn) state.conn = undefined;
      const reason = state.closing !== undefined && state.waiting === undefined ? 'closed' : state.resets.has(conn) ? 'reset' : 'peer-closed';
      emit(state, { type: 'disconnected', reason });
      const w = state.waiting;
      if (w !== undefined && w.conn === conn) {
        const error = new MllpError('connection', `The connection closed before the ACK of message ${w.entry.out.controlId} came`, { controlId: w.entry.out.controlId });
        finishWaiting(state, w, { error, retry: true }, false);
      }
    },
  };
}

function backoff(state: ClientState): number {
  const { initialDelayMs, maxDelayMs } = state.o;
  return state.failures === 0 ? 0 : Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(state.failures - 1, 30));
}

/** The open connection, or a new one after the back-off; throws `connection` after the last attempt. */
/** The open connection, when it can take a message. */
function usableConnection(state: ClientState): Connection | undefined {
  const open = state.conn;
  // A peer that closes after each ACK sends its FIN right after the ACK: such a connection is not reused.
  return open !== undefined && !open.closed && !open.socket.destroyed && !open.socket.readableEnded && !open.socket.writableEnded ? open : undefined;
}

async function ensureConnection(state: ClientState, entry: Entry): Promise<Connection | undefined> {
  const open = usableConnection(state);
  if (open !== undefined) return open;
  const { o } = state;
  for (let attempt = 1; ; attempt++) {
    if (state.failures > 0) await sleep(backoff(state), [entry.signal, state.closeController.signal]);
    if (entry.settled || aborting(state)) return undefined;
    const holder: { conn?: Connection } = {};
    try {
      const target = { host: o.host, port: o.port, tls: o.tls, connectTimeoutMs: o.connectTimeoutMs, maxFrameBytes: o.maxFrameBytes };
      const conn = await openConnection(target, connectionEvents(state, holder));
      holder.conn = conn;
      if (entry.settled || aborting(state)) {
        resetConnection(state, conn);
        return undefined;
      }
      state.conn = conn;
      emit(state, state.everConnected ? { type: 'reconnected', host: o.host, port: o.port, failedAttempts: state.failures } : { type: 'connected', host: o.host, port: o.port });
      state.everConnected = true;
      state.failures = 0;
      return conn;
    } catch (error) {
      state.failures++;
      const last = attempt >= o.maxConnectAttempts;
      const reason = error instanceof Error ? error.message : 'connection failed';
      emit(state, { type: 'connect-failed', attempt, reason, retryInMs: last ? undefined : backoff(state) });
      if (last) {
        throw new MllpError('connection', `${reason} (${attempt} attempt${attempt === 1 ? '' : 's'} for message ${entry.out.controlId})`, { cause: error, controlId: entry.out.controlId });
      }
    }
  }
}

/**
 * The ACK time-out. One timer, not one per message: it is armed when a message is written and none is armed,
 * and when it fires it times out the message waiting if that one's deadline has passed, else it is armed again
 * for what remains of it. So a steady stream of quick ACKs sets a timer once per time-out period instead of
 * once per message (a caller that awaits each `send` empties the queue between messages, so the timer outlives
 * the queue). It never holds the process open (unref'd); `close` clears it.
 */
function armAckTimer(state: ClientState, delayMs: number): void {
  state.ackTimer = setTimeout(() => {
    state.ackTimer = undefined;
    const w = state.waiting;
    if (w === undefined) return;
    const left = w.deadline - performance.now();
    if (left > 0) return armAckTimer(state, left);
    const { controlId } = w.entry.out;
    emit(state, { type: 'timed-out', controlId, attempt: w.attempt, timeoutMs: state.o.ackTimeoutMs });
    finishWaiting(state, w, { error: new MllpError('ack-timeout', `No ACK of message ${controlId} within ${state.o.ackTimeoutMs} ms`, { controlId }), retry: true }, true);
  }, Math.max(1, Math.ceil(delayMs)));
  // Not what keeps the process alive: while an ACK is awaited, the connection does.
  state.ackTimer.unref();
}

/** Clear the ACK timer (the queue is empty, or the client closed). */
export function clearAckTimer(state: ClientState): void {
  if (state.ackTimer === undefined) return;
  clearTimeout(state.ackTimer);
  state.ackTimer = undefined;
}

/**
 * Write the message and wait for its ACK, the time-out, a drop, an abort or a close: the outcome goes to `done`,
 * or to {@link afterExchange} when `done` is undefined. No promise and no closure per message: this runs for
 * every message sent.
 */
function exchange(state: ClientState, conn: Connection, entry: Entry, done: ((outcome: Outcome) => void) | undefined): void {
  const attempt = ++entry.attempts;
  const started = performance.now();
  const w: Waiting = { entry, conn, started, deadline: started + state.o.ackTimeoutMs, attempt, done, finished: false };
  state.waiting = w;
  if (state.ackTimer === undefined) armAckTimer(state, state.o.ackTimeoutMs);
  const { controlId } = entry.out;
  if (conn.socket.destroyed) {
    finishWaiting(state, w, { error: new MllpError('connection', `The connection closed before message ${controlId} was sent`, { controlId }), retry: true }, false);
    return;
  }
  const { frame } = entry;
  conn.socket.write(frame, entry.out.encoding);
  if (state.o.observer !== undefined) emit(state, { type: 'sent', controlId, attempt, bytes: typeof frame === 'string' ? Buffer.byteLength(frame, entry.out.encoding) : frame.length });
}

/**
 * Deliver one message: connect, send, wait, re-send as allowed; settles the entry. Never throws. `first` is
 * the outcome of a first attempt already made by the queue's own path, when there was one.
 */
async function deliver(state: ClientState, entry: Entry, first: Outcome | undefined): Promise<void> {
  const { controlId } = entry.out;
  let outcome = first;
  for (;;) {
    if (outcome === undefined) {
      if (entry.settled) return;
      if (aborting(state)) return settle(entry, { error: new MllpError('closed', 'The client was closed', { controlId }) });
      let conn = usableConnection(state);
      try {
        conn ??= await ensureConnection(state, entry);
      } catch (error) {
        emit(state, { type: 'failed', controlId, code: 'connection' });
        return settle(entry, { error });
      }
      if (conn === undefined || entry.settled) continue;
      const open = conn;
      outcome = await new Promise<Outcome>((resolve) => exchange(state, open, entry, resolve));
    }
    if ('ack' in outcome) {
      if (state.o.observer !== undefined) emit(state, { type: 'acked', controlId, ackCode: outcome.ack.code, durationMs: outcome.ack.durationMs });
      return settle(entry, outcome);
    }
    if (entry.settled) return;
    if (outcome.retry && entry.attempts <= state.o.retryAttempts && !aborting(state)) {
      emit(state, { type: 'retrying', controlId, attempt: entry.attempts + 1, reason: outcome.error.code });
      await sleep(state.o.retryDelayMs, [entry.signal, state.closeController.signal]);
      outcome = undefined;
      continue;
    }
    emit(state, { type: 'failed', controlId, code: outcome.error.code });
    return settle(entry, outcome);
  }
}

/** Deliver the current message the long way (connect, re-send, fail), then go on with the queue. */
function deliverThenContinue(state: ClientState, entry: Entry, first: Outcome | undefined): void {
  deliver(state, entry, first).then(
    () => nextEntry(state),
    (error: unknown) => {
      settle(entry, { error });
      nextEntry(state);
    },
  );
}

/**
 * The outcome of a message written by the queue's own path. An ACK settles it at once; anything else goes
 * the long way (re-send or fail). The next message is written after the frame handler returns (a microtask
 * later), never from inside it: a frame that came in the same chunk as this ACK must not be read as the
 * next message's answer.
 */
function afterExchange(state: ClientState, entry: Entry, outcome: Outcome): void {
  if (!('ack' in outcome)) return deliverThenContinue(state, entry, outcome);
  if (state.o.observer !== undefined) emit(state, { type: 'acked', controlId: entry.out.controlId, ackCode: outcome.ack.code, durationMs: outcome.ack.durationMs });
  settle(entry, outcome);
  state.current = undefined;
  if (state.queue.length === 0) stopPumping(state);
  else queueMicrotask((state.resume ??= () => runQueue(state)));
}

function nextEntry(state: ClientState): void {
  state.current = undefined;
  runQueue(state);
}

function stopPumping(state: ClientState): void {
  state.pumping = false;
  if (state.idleWaiters.length > 0) for (const wake of state.idleWaiters.splice(0)) wake();
}

/**
 * Take the next message of the queue. With an open connection it is written now and its outcome comes back
 * by callback ({@link afterExchange}); else it goes the long way ({@link deliver}).
 */
function runQueue(state: ClientState): void {
  while (state.queue.length > 0) {
    const entry = state.queue.shift() as Entry;
    if (state.roomWaiters.size > 0) for (const wake of [...state.roomWaiters]) wake();
    if (entry.settled) continue;
    state.current = entry;
    const conn = aborting(state) ? undefined : usableConnection(state);
    try {
      if (conn === undefined) deliverThenContinue(state, entry, undefined);
      else exchange(state, conn, entry, undefined);
    } catch (error) {
      settle(entry, { error });
      continue;
    }
    return;
  }
  stopPumping(state);
}

/** Run the queue until it is empty; only one run at a time. Never throws. */
export function pump(state: ClientState): void {
  if (state.pumping) return;
  state.pumping = true;
  runQueue(state);
}
