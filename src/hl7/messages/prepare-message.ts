/**
 * What every HL7 message builder does first: check the chart and the options (the chart first, so nothing
 * invalid is ever emitted), turn the options into header values, and create the message context.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { PatientChart } from '../../model/chart.js';
import type { Directory } from '../../model/directory.js';
import { validateDirectoryOption, validatePatientChart } from '../../validation/chart-check.js';
import { formatHl7Instant } from '../datetime.js';
import { indexDirectory } from '../internal/directory-index.js';
import type { MessageContext } from '../internal/message-context.js';
import { esc } from '../internal/standard-escape.js';
import { generateControlId } from './control-id.js';

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

/** A checked chart, options turned into header values, and the directory index. */
export interface PreparedMessage {
  readonly chart: PatientChart;
  /** The context every segment builder of the message receives. */
  readonly ctx: MessageContext;
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
  const header = {
    sendingApplication: hdOption(o, 'sendingApplication'),
    sendingFacility: hdOption(o, 'sendingFacility'),
    receivingApplication: hdOption(o, 'receivingApplication'),
    receivingFacility: hdOption(o, 'receivingFacility'),
    processingId,
  };
  const authority = header.sendingApplication === '' ? DEFAULT_ID_AUTHORITY : header.sendingApplication;
  const ctx: MessageContext = { dir: indexDirectory(directory, authority) };
  return { chart: checked, ctx, now, controlId, lineEnding, header };
}
