/// <reference types="node" />
/**
 * `chart-export send`: build the HL7 v2.5.1 messages of the chart (the demo chart or `--data`) and push them to
 * an interface engine over MLLP, one at a time, each answered by an ACK. One line per message, a progress bar
 * on a terminal for `--all`, a summary; the exit status says whether every message was accepted.
 */
import { readFile } from 'node:fs/promises';
import { buildAdrA19, buildAdtA08, buildAdtA31, buildMdmT02, buildOruR01, type ChartDocument, type Hl7MessageOptions, type PatientChart } from '../index.js';
import { createMllpClient, isMllpError, MllpNakError, type MllpClient, type MllpTlsOptions } from '../mllp/index.js';
import { UsageError, type CliEnvironment } from './command-line.js';
import { CliError, loadData, type CliIo } from './load.js';
import { SEND_HELP_TEXT } from './send-help.js';
import { parseSendOptions, type SendMessageKind, type SendOptions } from './send-options.js';

/** One message to send. */
interface Job {
  readonly kind: SendMessageKind;
  readonly patientId: string;
  readonly recordId: string | undefined;
  readonly build: () => string;
}

function jobsOf(chart: PatientChart, only: SendMessageKind | undefined, recordId: string | undefined, options: Hl7MessageOptions): Job[] {
  const patientId = chart.patient.id;
  const jobs: Job[] = [];
  const add = (kind: SendMessageKind, id: string | undefined, build: () => string): void => {
    if ((only === undefined || only === kind) && (recordId === undefined || id === recordId)) jobs.push({ kind, patientId, recordId: id, build });
  };
  add('adt-a31', undefined, () => buildAdtA31(chart, options));
  add('adr-a19', undefined, () => buildAdrA19(chart, options));
  for (const e of chart.encounters ?? []) add('adt-a08', e.id, () => buildAdtA08(chart, e.id, options));
  for (const n of chart.notes ?? []) add('mdm-t02', n.id, () => buildMdmT02(chart, n.id, options));
  for (const a of chart.assessments ?? []) add('oru-r01', a.id, () => buildOruR01(chart, a.id, options));
  return jobs;
}

/** The messages asked for, in chart order; a patient or record not in the chart is a usage error. */
function selectJobs(document: ChartDocument, options: SendOptions): Job[] {
  const hl7: Hl7MessageOptions = { ...options.hl7, directory: document.directory };
  const charts = options.patientId === undefined ? document.patients : document.patients.filter((c) => c.patient.id === options.patientId);
  if (charts.length === 0) throw new CliError([`chart-export send: the chart has no patient ${JSON.stringify(options.patientId)}`]);
  const jobs = charts.flatMap((c) => jobsOf(c, options.message, options.recordId, hl7));
  if (jobs.length === 0 && options.recordId !== undefined) {
    throw new CliError([`chart-export send: patient ${JSON.stringify(options.patientId)} has no ${options.message === 'adt-a08' ? 'encounter' : options.message === 'mdm-t02' ? 'note' : 'assessment'} ${JSON.stringify(options.recordId)}`]);
  }
  return jobs;
}

async function tlsOptions(options: SendOptions): Promise<MllpTlsOptions | undefined> {
  if (!options.to.tls) return undefined;
  const read = async (file: string | undefined, what: string): Promise<string | undefined> => {
    if (file === undefined) return undefined;
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      throw new CliError([`chart-export send: cannot read the ${what} ${JSON.stringify(file)} (${typeof code === 'string' ? code : 'read error'})`]);
    }
  };
  const tls: { -readonly [K in keyof MllpTlsOptions]: MllpTlsOptions[K] } = {};
  const ca = await read(options.tlsFiles.ca, '--ca file');
  const cert = await read(options.tlsFiles.cert, '--cert file');
  const key = await read(options.tlsFiles.key, '--key file');
  if (ca !== undefined) tls.ca = ca;
  if (cert !== undefined) tls.cert = cert;
  if (key !== undefined) tls.key = key;
  if (options.tlsFiles.servername !== undefined) tls.servername = options.tlsFiles.servername;
  return tls;
}

/** What became of the messages. */
interface Tally {
  accepted: number;
  rejected: number;
  failed: number;
}

function describeFailure(error: unknown): { status: string; kind: 'rejected' | 'failed' } {
  if (error instanceof MllpNakError) {
    const detail = error.errorCode === '' ? '' : ` (error ${error.errorCode}${error.errorLocation === '' ? '' : ` at ${error.errorLocation}`})`;
    return { status: `${error.ackCode}${detail}`.slice(0, 80), kind: 'rejected' };
  }
  if (isMllpError(error)) return { status: error.code, kind: 'failed' };
  return { status: error instanceof Error ? `not built: ${error.name}` : 'not built', kind: 'failed' };
}

function progressBar(done: number, total: number): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
}

/** Send every job in order, one at a time; stops early on `stop()` or when the peer cannot be reached. */
async function sendAll(client: MllpClient, jobs: readonly Job[], io: CliIo, progress: ((text: string) => void) | undefined, stopped: () => boolean): Promise<Tally & { sent: number; unreachable: boolean }> {
  const tally = { accepted: 0, rejected: 0, failed: 0, sent: 0, unreachable: false };
  const width = Math.max(...jobs.map((j) => j.kind.length));
  for (const job of jobs) {
    if (stopped()) break;
    const started = performance.now();
    let controlId = '-';
    let status: string;
    try {
      const ack = await client.send(job.build());
      controlId = ack.controlId;
      status = ack.code;
      tally.accepted++;
    } catch (error) {
      if (isMllpError(error) && error.controlId !== undefined) controlId = error.controlId;
      const failure = describeFailure(error);
      status = failure.status;
      tally[failure.kind]++;
      if (isMllpError(error, 'connection') && !client.connected) tally.unreachable = true;
    }
    tally.sent++;
    const ms = Math.round(performance.now() - started);
    const what = `${job.kind.padEnd(width)}  ${job.patientId}${job.recordId === undefined ? '' : ` ${job.recordId}`}`;
    progress?.('');
    io.out(`${controlId.padEnd(20)}  ${what}  ${status}  ${ms} ms`);
    progress?.(progressBar(tally.sent, jobs.length));
    if (tally.unreachable) break;
  }
  progress?.('');
  return tally;
}

function summary(options: SendOptions, total: number, t: Tally & { sent: number; unreachable: boolean }, stopped: boolean): string {
  const parts = [`${t.accepted} accepted`, `${t.rejected} rejected`, `${t.failed} failed`];
  if (t.sent < total) parts.push(`${total - t.sent} not sent`);
  const why = stopped ? ' (stopped by a signal)' : t.unreachable ? ' (the peer could not be reached)' : '';
  return `${total} message${total === 1 ? '' : 's'} for ${options.to.display}: ${parts.join(', ')}${why}.`;
}

/** First SIGINT/SIGTERM: stop after the message in flight; a second: stop now. */
function watchSignals(io: CliIo, abort: () => void): { stopped: () => boolean; remove: () => void } {
  let count = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    count++;
    if (count === 1) io.err(`chart-export send: ${signal}: stopping after the message in flight (send it again to stop now).`);
    else abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stopped: () => count > 0,
    remove: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Run `chart-export send`. Sets `process.exitCode` (0: every message accepted; 1: any not accepted, or a
 * failure; 2: a wrong option) and never throws.
 * @param argv - the arguments after `send`
 * @param env - the environment
 * @param io - where to write
 * @param progress - draws the progress bar (`''` clears it); default: on stderr when it is a terminal and `--all` is given
 * @returns when done
 * @throws never
 * @example await runSend(['--to', 'mllp://127.0.0.1:2575', '--all'], process.env, io);
 */
export async function runSend(argv: readonly string[], env: CliEnvironment, io: CliIo, progress?: (text: string) => void): Promise<void> {
  let options: SendOptions;
  try {
    options = parseSendOptions(argv, env);
  } catch (error) {
    io.err(`chart-export send: ${error instanceof Error ? error.message : 'invalid arguments'}`);
    io.err('Run chart-export send --help for the options.');
    process.exitCode = error instanceof UsageError ? 2 : 1;
    return;
  }
  if (options.help) return void io.out(SEND_HELP_TEXT.trimEnd());
  let client: MllpClient | undefined;
  let signals: ReturnType<typeof watchSignals> | undefined;
  try {
    const { document } = await loadData(options.dataFile);
    const jobs = selectJobs(document, options);
    const tls = await tlsOptions(options);
    client = createMllpClient({ host: options.to.host, port: options.to.port, tls, ackTimeoutMs: options.ackTimeoutMs, retry: { attempts: options.retries }, reconnect: { maxAttempts: 3 } });
    const open = client;
    signals = watchSignals(io, () => void open.close({ mode: 'abort' }));
    const draw = progress ?? (options.all && process.stderr.isTTY ? (text: string) => process.stderr.write(`\r\u001b[K${text}`) : undefined);
    const tally = await sendAll(open, jobs, io, draw, signals.stopped);
    io.out(summary(options, jobs.length, tally, signals.stopped()));
    process.exitCode = tally.accepted === jobs.length ? 0 : 1;
  } catch (error) {
    if (error instanceof CliError) for (const line of error.lines) io.err(line);
    else io.err(`chart-export send: ${error instanceof Error ? `${error.name}: ${error.message}` : 'failed'}`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  } finally {
    signals?.remove();
    await client?.close({ mode: 'abort' });
  }
}
