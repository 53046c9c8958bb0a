/**
 * Options of `chart-export send`: where to send (`--to mllp://HOST:PORT` or `mllps://`), what (`--message`,
 * `--patient`, `--record`, `--all`), from which chart (`--data`), with the HL7 header options the service
 * uses (and their environment variables), and the client's time-out, retries and TLS files.
 */
import { parseArgs } from 'node:util';
import { UsageError, type CliEnvironment } from './command-line.js';

/** The five messages, by their command-line names. */
export const SEND_MESSAGE_KINDS = ['adt-a31', 'adr-a19', 'adt-a08', 'mdm-t02', 'oru-r01'] as const;
/** One of {@link SEND_MESSAGE_KINDS}. */
export type SendMessageKind = (typeof SEND_MESSAGE_KINDS)[number];
/** The kinds that need `--record`: the encounter, note or assessment id. */
export const RECORD_KINDS: readonly SendMessageKind[] = ['adt-a08', 'mdm-t02', 'oru-r01'];

/** What `chart-export send` was asked to do. */
export interface SendOptions {
  readonly help: boolean;
  /** The peer. */
  readonly to: { readonly host: string; readonly port: number; readonly tls: boolean; readonly display: string };
  /** One kind, or undefined for every kind (`--all` without `--message`). */
  readonly message: SendMessageKind | undefined;
  /** One patient, or undefined for every patient (`--all`). */
  readonly patientId: string | undefined;
  readonly recordId: string | undefined;
  readonly all: boolean;
  readonly dataFile: string | undefined;
  readonly hl7: { readonly sendingApplication: string; readonly sendingFacility?: string; readonly receivingApplication?: string; readonly receivingFacility?: string; readonly processingId?: 'P' | 'T' | 'D' };
  readonly ackTimeoutMs: number;
  readonly retries: number;
  readonly tlsFiles: { readonly ca?: string; readonly cert?: string; readonly key?: string; readonly servername?: string };
}

// eslint-disable-next-line no-control-regex -- finds the control characters an option value may not hold
const CONTROL_RE = /[\u0000-\u001F\u007F]/;

function fromEnv(env: CliEnvironment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function text(value: string | undefined, what: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > max || CONTROL_RE.test(value)) throw new UsageError(`${what} must be 1–${max} characters without control characters`);
  return value;
}

/** `mllp://HOST:PORT` or `mllps://HOST:PORT` (TLS); the port is required (there is no registered default). */
function readTo(value: string | undefined): SendOptions['to'] {
  if (value === undefined) throw new UsageError('--to is required: mllp://HOST:PORT, or mllps://HOST:PORT for MLLP over TLS');
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const scheme = url?.protocol;
  if (url === undefined || (scheme !== 'mllp:' && scheme !== 'mllps:') || url.hostname === '' || !/^\d{1,5}$/.test(url.port) || Number(url.port) < 1 || Number(url.port) > 65535) {
    throw new UsageError('--to must be mllp://HOST:PORT or mllps://HOST:PORT, with a port from 1 to 65535');
  }
  if (url.username !== '' || url.password !== '' || (url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new UsageError('--to takes a host and a port only: mllp://HOST:PORT');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(url.port), tls: scheme === 'mllps:', display: `${scheme}//${url.host}` };
}

function readArguments(argv: readonly string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        to: { type: 'string' },
        message: { type: 'string' },
        patient: { type: 'string' },
        record: { type: 'string' },
        all: { type: 'boolean' },
        data: { type: 'string' },
        'sending-application': { type: 'string' },
        'sending-facility': { type: 'string' },
        'receiving-application': { type: 'string' },
        'receiving-facility': { type: 'string' },
        'processing-id': { type: 'string' },
        'ack-timeout': { type: 'string' },
        retries: { type: 'string' },
        ca: { type: 'string' },
        cert: { type: 'string' },
        key: { type: 'string' },
        servername: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError('chart-export send takes no positional arguments: give every value after its option');
    }
    throw new UsageError(error instanceof Error ? (error.message.split('\n')[0] ?? 'Invalid arguments') : 'Invalid arguments');
  }
}

function readSelection(str: (name: string) => string | undefined, all: boolean): Pick<SendOptions, 'message' | 'patientId' | 'recordId'> {
  const message = str('message');
  if (message !== undefined && !(SEND_MESSAGE_KINDS as readonly string[]).includes(message)) throw new UsageError(`--message must be one of ${SEND_MESSAGE_KINDS.join(', ')}`);
  const kind = message as SendMessageKind | undefined;
  const patientId = text(str('patient'), '--patient', 200);
  const recordId = text(str('record'), '--record', 200);
  if (all) {
    if (recordId !== undefined) throw new UsageError('--all sends every record: leave out --record');
    return { message: kind, patientId, recordId };
  }
  if (kind === undefined) throw new UsageError(`--message is required (${SEND_MESSAGE_KINDS.join(', ')}), or --all`);
  if (patientId === undefined) throw new UsageError('--patient is required, or --all');
  if (RECORD_KINDS.includes(kind) && recordId === undefined) throw new UsageError(`--message ${kind} needs --record (the ${kind === 'adt-a08' ? 'encounter' : kind === 'mdm-t02' ? 'note' : 'assessment'} id)`);
  if (!RECORD_KINDS.includes(kind) && recordId !== undefined) throw new UsageError(`--message ${kind} is about the patient: leave out --record`);
  return { message: kind, patientId, recordId };
}

function readNumber(value: string | undefined, what: string, fallback: number, min: number, max: number, integer: boolean): number {
  if (value === undefined) return fallback;
  const re = integer ? /^\d{1,7}$/ : /^\d{1,7}(\.\d{1,3})?$/;
  if (!re.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${what} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  return Number(value);
}

/**
 * Read the command line of `chart-export send` and the environment.
 * @param argv - the arguments after `send`
 * @param env - the environment (the HL7 header variables of the service: CHART_EXPORT_HL7_…)
 * @returns the options, with defaults applied
 * @throws {UsageError} for an unknown option, a missing or contradictory one, or a value out of range
 * @example parseSendOptions(['--to', 'mllp://127.0.0.1:2575', '--all'], {}).all // true
 */
export function parseSendOptions(argv: readonly string[], env: CliEnvironment): SendOptions {
  const values = readArguments(argv);
  const str = (name: string): string | undefined => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const help = values['help'] === true;
  if (help) return { help, to: { host: '', port: 0, tls: false, display: '' }, message: undefined, patientId: undefined, recordId: undefined, all: false, dataFile: undefined, hl7: { sendingApplication: '' }, ackTimeoutMs: 0, retries: 0, tlsFiles: {} };
  const to = readTo(str('to'));
  const all = values['all'] === true;
  const selection = readSelection(str, all);
  const processingId = str('processing-id') ?? fromEnv(env, 'CHART_EXPORT_HL7_PROCESSING_ID');
  if (processingId !== undefined && processingId !== 'P' && processingId !== 'T' && processingId !== 'D') throw new UsageError('--processing-id / CHART_EXPORT_HL7_PROCESSING_ID must be P, T or D');
  const hl7: { -readonly [K in keyof SendOptions['hl7']]: SendOptions['hl7'][K] } = {
    sendingApplication: text(str('sending-application') ?? fromEnv(env, 'CHART_EXPORT_HL7_SENDING_APPLICATION'), '--sending-application / CHART_EXPORT_HL7_SENDING_APPLICATION', 20) ?? 'CHART-EXPORT',
  };
  const facility = text(str('sending-facility') ?? fromEnv(env, 'CHART_EXPORT_HL7_SENDING_FACILITY'), '--sending-facility / CHART_EXPORT_HL7_SENDING_FACILITY', 20);
  if (facility !== undefined) hl7.sendingFacility = facility;
  const receivingApplication = text(str('receiving-application'), '--receiving-application', 20);
  if (receivingApplication !== undefined) hl7.receivingApplication = receivingApplication;
  const receivingFacility = text(str('receiving-facility'), '--receiving-facility', 20);
  if (receivingFacility !== undefined) hl7.receivingFacility = receivingFacility;
  if (processingId !== undefined) hl7.processingId = processingId;
  const tlsFiles: { -readonly [K in keyof SendOptions['tlsFiles']]: SendOptions['tlsFiles'][K] } = {};
  for (const name of ['ca', 'cert', 'key', 'servername'] as const) {
    const value = text(str(name), `--${name}`, 4096);
    if (value !== undefined) tlsFiles[name] = value;
  }
  if (!to.tls && Object.keys(tlsFiles).length > 0) throw new UsageError('--ca, --cert, --key and --servername are for MLLP over TLS: use --to mllps://HOST:PORT');
  if ((tlsFiles.cert === undefined) !== (tlsFiles.key === undefined)) throw new UsageError('--cert and --key go together');
  return {
    help,
    to,
    ...selection,
    all,
    dataFile: str('data') ?? fromEnv(env, 'CHART_EXPORT_DATA'),
    hl7,
    ackTimeoutMs: Math.round(readNumber(str('ack-timeout'), '--ack-timeout', 30, 0.1, 3600, false) * 1000),
    retries: readNumber(str('retries'), '--retries', 0, 0, 10, true),
    tlsFiles,
  };
}
