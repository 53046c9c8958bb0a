/**
 * What every HL7 message builder shares: the options, the chart check, the header and the assembly of
 * segments into message text.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { PatientChart } from '../../model/chart.js';
import type { Directory } from '../../model/directory.js';
import { validateDirectoryOption, validatePatientChart } from '../../validation/chart-check.js';
import { formatHl7Instant } from '../datetime.js';
import { esc, nonAsciiState, resetNonAscii } from '../internal/escape.js';
import { indexDirectory, type DirectoryIndex } from '../internal/fields.js';
import { buildMsh } from '../segments/msh.js';

/**
 * Options of every HL7 message builder.
 * @see HL7 v2.5.1 MSH-3 … MSH-11
 */
export interface Hl7MessageOptions {
  /** MSH-3 sending application, sent as HD-1 (escaped), at most 20 characters after escaping (IS 20; longer throws `InvalidArgumentError`). Default: empty. @example 'CHART-EXPORT' */
  sendingApplication?: string | undefined;
  /** MSH-4 sending facility, sent as HD-1 (escaped), at most 20 characters after escaping (IS 20; longer throws `InvalidArgumentError`). Default: empty. @example 'RIVERSIDE' */
  sendingFacility?: string | undefined;
  /** MSH-5 receiving application, sent as HD-1 (escaped), at most 20 characters after escaping (IS 20; longer throws `InvalidArgumentError`). Default: empty. */
  receivingApplication?: string | undefined;
  /** MSH-6 receiving facility, sent as HD-1 (escaped), at most 20 characters after escaping (IS 20; longer throws `InvalidArgumentError`). Default: empty. */
  receivingFacility?: string | undefined;
  /** MSH-11 processing id (table 0103): `P` production (default), `T` training, `D` debugging. */
  processingId?: 'P' | 'T' | 'D' | undefined;
  /**
   * The export time for MSH-7, EVN-2 and QRD-1: an ISO 8601 date-time with seconds and offset. Sent with
   * seconds and its own offset, without fraction. Default: the current time in UTC (`+0000`).
   * @example '2026-03-01T09:30:00-05:00'
   */
  now?: string | undefined;
  /**
   * MSH-10 message control id: at most 20 characters after escaping, beginning with the message code
   * (`ADT`, `ADR`, `MDM`, `ORU`). Default: generated, unique across calls (see {@link generateControlId}).
   */
  controlId?: string | undefined;
  /**
   * Segment terminator. `'\r'` (default) is the standard's. `'\n'` is for display only and not conformant:
   * many receivers split segments only on CR.
   */
  lineEnding?: '\r' | '\n' | undefined;
  /** Practitioners, locations and organizations the chart refers to by id. Checked before use. */
  directory?: Directory | undefined;
}

/** The 36 digits of base 36, upper case. */
const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
let controlIdCounter = Math.floor(Math.random() * 36 ** 4);
let controlIdMs = Number.NaN;
let controlIdTime = '';

/**
 * Random bytes drawn 512 at a time: one `getRandomValues` call per control id costs microseconds, a read
 * from the pool nothing, and the bytes are as random. Filled on first use, not at load (some edge runtimes
 * refuse random values outside a request).
 */
const randomPool = new Uint8Array(512);
let randomNext = randomPool.length;

function randomByte(): number {
  if (randomNext === randomPool.length) {
    const cryptoObj = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
    if (typeof cryptoObj?.getRandomValues === 'function') cryptoObj.getRandomValues(randomPool);
    else for (let i = 0; i < randomPool.length; i++) randomPool[i] = Math.floor(Math.random() * 256);
    randomNext = 0;
  }
  return randomPool[randomNext++] as number;
}

/** What {@link generateControlId} accepts as a message code: nothing to escape, room for the 12 time and counter characters. */
const MESSAGE_CODE_RE = /^[0-9A-Z]{1,8}$/;

function randomBase36(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 252 = 7 × 36: bytes at or above it would bias the digits, so they are skipped.
    if (b < 252) out += BASE36[b % 36];
  }
  return out;
}

/**
 * Generate an MSH-10 message control id: the 3-letter message code, the current time in milliseconds in
 * base 36 (8 characters), a per-process counter in base 36 (4 characters) and 5 random base-36 characters:
 * exactly 20 characters of `[0-9A-Z]`, nothing to escape. Two calls in one process never repeat (the counter
 * changes on every call and wraps only after 1 679 616 calls, by which time the clock has moved on); calls in
 * different processes collide only if time, counter and 25 random bits all agree.
 *
 * @param messageCode - `ADT`, `ADR`, `MDM` or `ORU` (any 1–8 characters of `[0-9A-Z]`)
 * @returns a 20-character control id beginning with `messageCode`
 * @throws {InvalidArgumentError} when `messageCode` is not 1–8 characters of `[0-9A-Z]` (a longer code
 *   would give more than 20 characters)
 * @example generateControlId('MDM') // 'MDMMI4Z2K7Q0A3F9X2KD' (shape)
 */
export function generateControlId(messageCode: string): string {
  if (typeof messageCode !== 'string' || !MESSAGE_CODE_RE.test(messageCode)) {
    throw new InvalidArgumentError('messageCode', 'must be 1-8 characters of [0-9A-Z]');
  }
  controlIdCounter = (controlIdCounter + 1) % 36 ** 4;
  // Calls in the same millisecond share the time part: formatted once.
  const ms = Date.now();
  if (ms !== controlIdMs) {
    controlIdMs = ms;
    controlIdTime = ms.toString(36).toUpperCase().padStart(8, '0').slice(-8);
  }
  const time = controlIdTime;
  const counter = controlIdCounter.toString(36).toUpperCase().padStart(4, '0');
  return messageCode + time + counter + randomBase36(20 - messageCode.length - 12);
}

/** A checked chart, options turned into header values, and the directory index. */
export interface PreparedMessage {
  readonly chart: PatientChart;
  readonly dir: DirectoryIndex;
  /** MSH-7 / EVN-2 / QRD-1 value. */
  readonly now: string;
  /** MSH-10 value, encoded. */
  readonly controlId: string;
  readonly lineEnding: '\r' | '\n';
  readonly header: {
    readonly sendingApplication: string;
    readonly sendingFacility: string;
    readonly receivingApplication: string;
    readonly receivingFacility: string;
    readonly processingId: string;
  };
}

/**
 * MSH-3 … MSH-6 carry the option in HD-1, the namespace id: IS, at most 20 characters in v2.5.1 (the whole
 * HD field may hold 227, but HD-2 and HD-3 are not sent).
 */
const HD1_MAX = 20;
/** MSH-10 maximum length (ST, 20). */
const CONTROL_ID_MAX = 20;
/**
 * The assigning authority (HD-1) of chart ids (a practitioner's in XCN-1, an encounter's in PV1-19 CX-1) when
 * MSH-3 is empty: v2.5.1 XCN-1 "If the first component is present, either the source table or the assigning
 * authority must be valued", and the ids are the exporter's.
 */
const DEFAULT_ID_AUTHORITY = 'CHART-EXPORT';

function hdOption(options: Hl7MessageOptions, key: 'sendingApplication' | 'sendingFacility' | 'receivingApplication' | 'receivingFacility'): string {
  const value: unknown = options[key];
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new InvalidArgumentError(`options.${key}`, 'must be a string');
  const encoded = esc(value);
  if (encoded.length > HD1_MAX) throw new InvalidArgumentError(`options.${key}`, `must fit ${HD1_MAX} characters after escaping (HD-1, IS 20)`);
  return encoded;
}

/**
 * Check the chart and the options (the chart first, so nothing invalid is ever emitted), and turn the
 * options into header values.
 * @param chart - the chart as given
 * @param options - the builder's options
 * @param messageCode - `ADT`, `ADR`, `MDM` or `ORU` (the control id must begin with it)
 * @returns the checked chart, directory index and header values
 * @throws ChartValidationError for an invalid chart or directory; InvalidArgumentError for a bad option
 * @example prepareMessage(chart, { now: '2026-03-01T10:30:00-05:00' }, 'MDM').now // '20260301103000-0500'
 */
export function prepareMessage(chart: unknown, options: Hl7MessageOptions | undefined, messageCode: string): PreparedMessage {
  const checked = validatePatientChart(chart);
  resetNonAscii();
  const o: Hl7MessageOptions = options ?? {};
  if (typeof o !== 'object' || o === null) throw new InvalidArgumentError('options', 'must be an object');
  const directory = o.directory === undefined ? undefined : validateDirectoryOption(o.directory);
  const processingId: unknown = o.processingId ?? 'P';
  if (processingId !== 'P' && processingId !== 'T' && processingId !== 'D') {
    throw new InvalidArgumentError('options.processingId', "must be 'P', 'T' or 'D'");
  }
  const lineEnding: unknown = o.lineEnding ?? '\r';
  if (lineEnding !== '\r' && lineEnding !== '\n') throw new InvalidArgumentError('options.lineEnding', "must be '\\r' or '\\n'");
  let now: string;
  try {
    now = formatHl7Instant(o.now ?? new Date().toISOString());
  } catch (cause) {
    throw new InvalidArgumentError('options.now', 'must be an ISO 8601 date-time with seconds and offset', { cause });
  }
  let controlId: string;
  if (o.controlId === undefined) {
    controlId = generateControlId(messageCode);
  } else {
    if (typeof o.controlId !== 'string' || !o.controlId.startsWith(messageCode)) {
      throw new InvalidArgumentError('options.controlId', `must be a string beginning with ${messageCode}`);
    }
    controlId = esc(o.controlId);
    if (controlId.length > CONTROL_ID_MAX) {
      throw new InvalidArgumentError('options.controlId', `must fit MSH-10's ${CONTROL_ID_MAX} characters after escaping`);
    }
  }
  const sendingApplication = hdOption(o, 'sendingApplication');
  return {
    chart: checked,
    dir: indexDirectory(directory, sendingApplication === '' ? DEFAULT_ID_AUTHORITY : sendingApplication),
    now,
    controlId,
    lineEnding,
    header: {
      sendingApplication,
      sendingFacility: hdOption(o, 'sendingFacility'),
      receivingApplication: hdOption(o, 'receivingApplication'),
      receivingFacility: hdOption(o, 'receivingFacility'),
      processingId,
    },
  };
}

// eslint-disable-next-line no-control-regex
const NON_ASCII_RE = /[^\u0000-\u007f]/;

/**
 * Put the message together: MSH (with MSH-18 `UNICODE UTF-8` exactly when some text sent is not ASCII),
 * then the segments, each followed by the line ending (the last one too). Escaping noted whether any text
 * given was not ASCII; the segments are scanned only when some text was also shortened or replaced by a
 * derived id, which may have dropped those characters.
 * @param p - the prepared header values
 * @param messageType - MSH-9's three components
 * @param segments - the segments after MSH, without terminators
 * @returns the message text
 * @example assembleMessage(p, ['ADT', 'A31', 'ADT_A05'], ['EVN|A31|…', 'PID|…', 'PV1|1|N'])
 */
export function assembleMessage(p: PreparedMessage, messageType: readonly [string, string, string], segments: readonly string[]): string {
  const le = p.lineEnding;
  const h = p.header;
  const state = nonAsciiState();
  const nonAscii =
    state === 'yes' ||
    (state === 'maybe' &&
      (NON_ASCII_RE.test(h.sendingApplication + h.sendingFacility + h.receivingApplication + h.receivingFacility + p.controlId) ||
        segments.some((s) => NON_ASCII_RE.test(s))));
  const msh = buildMsh({
    sendingApplication: h.sendingApplication,
    sendingFacility: h.sendingFacility,
    receivingApplication: h.receivingApplication,
    receivingFacility: h.receivingFacility,
    dateTime: p.now,
    messageType,
    controlId: p.controlId,
    processingId: h.processingId,
    characterSet: nonAscii ? 'UNICODE UTF-8' : '',
  });
  // Plain concatenation: the engine keeps it as a rope and copies it once, when the text is first used.
  let out = msh + le;
  for (const s of segments) out += s + le;
  return out;
}
