/// <reference types="node" />
/**
 * chart-export/mllp: send HL7 v2 messages to an interface engine over MLLP (Minimal Lower Layer Protocol),
 * one at a time, each answered by an ACK. Node only (`node:net`, `node:tls`); the core and the HTTP adapter
 * never import it. See docs/mllp.md.
 */

// Client
export { createMllpClient } from './client.js';
export type { MllpClient, MllpSendOptions, MllpCloseOptions } from './client.js';
export type { MllpClientOptions, MllpRetryOptions, MllpReconnectOptions, MllpEvent, MllpConnectionEvent, MllpConnectFailedEvent, MllpDisconnectedEvent, MllpMessageEvent, MllpUnexpectedFrameEvent } from './options.js';
export type { MllpTlsOptions } from './connection.js';

// Acknowledgements
export { ACK_CODES, readAck } from './ack.js';
export type { AckCode, MllpAck } from './ack.js';

// Framing
export { MLLP_START_BLOCK, MLLP_END_BLOCK, MLLP_CARRIAGE_RETURN, DEFAULT_MAX_FRAME_BYTES, encodeMllpFrame, createMllpFrameReader } from './frame.js';
export type { MllpFrameReader, MllpFrameReaderOptions } from './frame.js';

// Errors
export { MllpError, MllpNakError, MLLP_ERROR_CODES, isMllpError } from './errors.js';
export type { MllpErrorCode, MllpNakDetails } from './errors.js';
