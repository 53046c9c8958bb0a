/**
 * `chart-export send` end to end: the built command (`node dist/cli.js send …`) pushes the demo chart's
 * messages to the tests' own MLLP listener and to python-hl7's MLLP server; every message received is checked
 * against the HL7 v2.5.1 structure rules; NAKs, an unreachable peer, wrong options and Ctrl+C.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkHl7Message, getHl7Value, isHl7LengthDeviation, parseHl7Message } from '../../src/index.js';
import { ackText, frame, startTestListener, type TestListener } from '../mllp/support/listener.js';
import { startPythonMllpServer } from '../mllp/support/python-server.js';
import { CLI, ROOT, cleanEnv, ensureBuilt, runCli } from './support/process.js';

let listener: TestListener | undefined;
beforeAll(() => ensureBuilt());
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});
afterAll(async () => {
  await listener?.close();
});

/** The lines that report one message each (they start with an MSH-10 or `-`). */
const messageLines = (stdout: string): string[] => stdout.split('\n').filter((l) => /^\S+\s{2,}(adt|adr|mdm|oru)-/.test(l));

describe('chart-export send', () => {
  it('should send every message of the demo chart with --all, each valid HL7 v2.5.1, and exit 0', async () => {
    listener = await startTestListener();
    const { code, stdout, stderr } = await runCli(['send', '--to', `mllp://127.0.0.1:${listener.port}`, '--all'], {}, 60_000);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = messageLines(stdout);
    expect(lines.length).toBeGreaterThan(100);
    expect(lines).toHaveLength(listener.received.length);
    // One line per message, in the order sent, naming its MSH-10 and the ACK code.
    listener.received.forEach((r, i) => expect(lines[i]).toMatch(new RegExp(`^${r.controlId}\\s.*\\sAA\\s+\\d+ ms$`)));
    // The documented length deviations aside (HL7_LENGTH_DEVIATIONS), as the HTTP routes' tests check them.
    for (const r of listener.received) expect(checkHl7Message(r.text).filter((p) => !isHl7LengthDeviation(p)), r.controlId).toEqual([]);
    const types = new Set(listener.received.map((r) => getHl7Value(parseHl7Message(r.text).segments[0]!, 9, 1) + '^' + getHl7Value(parseHl7Message(r.text).segments[0]!, 9, 2)));
    expect([...types].sort()).toEqual(['ADR^A19', 'ADT^A08', 'ADT^A31', 'MDM^T02', 'ORU^R01']);
    expect(stdout).toContain(`${lines.length} messages for mllp://127.0.0.1:${listener.port}: ${lines.length} accepted, 0 rejected, 0 failed.`);
  });

  it('should draw a progress bar on a terminal with --all, and clear it before every line and at the end', async () => {
    listener = await startTestListener();
    const command = [process.execPath, CLI, 'send', '--to', `mllp://127.0.0.1:${listener.port}`, '--all'].map((a) => `'${a}'`).join(' ');
    // util-linux script(1) runs the command on a pseudo-terminal: stdout and stderr are both that terminal.
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const total = listener.received.length;
    expect(total).toBeGreaterThan(100);
    // Every drawing starts at the line's start and clears it; the bar counts every message, in order.
    // eslint-disable-next-line no-control-regex -- the terminal's clear-line sequence is what is checked
    const bars = [...out.matchAll(/\r\u001b\[K\[([#.]{30})\] (\d+)\/(\d+)/g)];
    expect(bars.map((m) => Number(m[2]))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    for (const m of bars) {
      expect(Number(m[3])).toBe(total);
      expect((m[1] as string).indexOf('.') === -1 ? 30 : (m[1] as string).indexOf('.')).toBe(Math.round((Number(m[2]) / total) * 30));
    }
    // Cleared before the summary: no bar is left on the last line.
    const summary = out.lastIndexOf(`${total} messages for`);
    expect(summary).toBeGreaterThan(out.lastIndexOf('] ' + total + '/' + total));
    expect(out.slice(out.lastIndexOf('] ' + total + '/' + total), summary)).toContain('\r\u001b[K');
  });

  it('should send one message with the HL7 header options', async () => {
    listener = await startTestListener();
    const args = ['send', '--to', `mllp://127.0.0.1:${listener.port}`, '--message', 'adt-a08', '--patient', 'pat-0001', '--record', 'enc-0001-01', '--sending-application', 'MY-APP', '--processing-id', 'T'];
    const { code, stdout } = await runCli(args, { CHART_EXPORT_HL7_SENDING_FACILITY: 'MY-CLINIC' });
    expect(code).toBe(0);
    expect(listener.received).toHaveLength(1);
    const msh = parseHl7Message(listener.received[0]!.text).segments[0]!;
    expect([getHl7Value(msh, 3), getHl7Value(msh, 4), getHl7Value(msh, 9, 2), getHl7Value(msh, 11)]).toEqual(['MY-APP', 'MY-CLINIC', 'A08', 'T']);
    expect(messageLines(stdout)).toHaveLength(1);
    expect(stdout).toContain('adt-a08  pat-0001 enc-0001-01  AA');
  });

  it('should report a NAK with its code and exit 1', async () => {
    listener = await startTestListener((m, s) => void s.write(frame(ackText(m.controlId, 'AE', ['ERR||PID^1^3|101^Required field missing^HL70357|E']))));
    const { code, stdout } = await runCli(['send', '--to', `mllp://127.0.0.1:${listener.port}`, '--message', 'adt-a31', '--patient', 'pat-0001']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/adt-a31 {2}pat-0001 {2}AE \(error 101 at PID-3\) {2}\d+ ms/);
    expect(stdout).toContain('1 message for');
    expect(stdout).toContain('0 accepted, 1 rejected, 0 failed.');
  });

  it('should stop when the peer cannot be reached, and exit 1', async () => {
    listener = await startTestListener();
    const port = listener.port;
    await listener.close();
    listener = undefined;
    const { code, stdout } = await runCli(['send', '--to', `mllp://127.0.0.1:${port}`, '--all', '--patient', 'pat-0001'], {}, 30_000);
    expect(code).toBe(1);
    expect(messageLines(stdout)).toHaveLength(1);
    expect(stdout).toMatch(/connection {2}\d+ ms/);
    expect(stdout).toContain('(the peer could not be reached)');
  });

  it.each([
    [[], '--to is required'],
    [['--to', 'http://127.0.0.1:1', '--all'], '--to must be mllp://'],
    [['--to', 'mllp://127.0.0.1', '--all'], '--to must be mllp://'],
    [['--to', 'mllp://127.0.0.1:2575', '--message', 'adt-a08', '--patient', 'pat-0001'], 'needs --record'],
    [['--to', 'mllp://127.0.0.1:2575', '--message', 'adt-x99', '--patient', 'pat-0001'], '--message must be one of'],
    [['--to', 'mllp://127.0.0.1:2575', '--all', '--ca', 'x.pem'], 'use --to mllps://'],
  ])('should refuse %j with exit 2', async (args, message) => {
    const { code, stderr } = await runCli(['send', ...args]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('should refuse a patient or record the chart does not hold, with exit 1', async () => {
    const a = await runCli(['send', '--to', 'mllp://127.0.0.1:2575', '--message', 'adt-a31', '--patient', 'pat-9999']);
    expect([a.code, a.stderr.trim()]).toEqual([1, 'chart-export send: the chart has no patient "pat-9999"']);
    const b = await runCli(['send', '--to', 'mllp://127.0.0.1:2575', '--message', 'mdm-t02', '--patient', 'pat-0001', '--record', 'note-x']);
    expect([b.code, b.stderr.trim()]).toEqual([1, 'chart-export send: patient "pat-0001" has no note "note-x"']);
  });

  it('should print its help', async () => {
    const { code, stdout } = await runCli(['send', '--help']);
    expect(code).toBe(0);
    for (const option of ['--to', '--message', '--patient', '--record', '--all', '--data', '--ack-timeout', '--retries', '--ca', '--cert', '--servername']) expect(stdout).toContain(option);
  });

  it('should stop after the message in flight on SIGINT, and exit 1', async () => {
    // Arrange: ACKs come after 150 ms, so a SIGINT arrives while a message is in flight.
    const proc: { child?: ReturnType<typeof spawn> } = {};
    listener = await startTestListener((m, s, i) => {
      if (i === 2) proc.child?.kill('SIGINT');
      setTimeout(() => s.write(frame(ackText(m.controlId))), 150);
    });
    const child = spawn(process.execPath, [CLI, 'send', '--to', `mllp://127.0.0.1:${listener.port}`, '--all'], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    proc.child = child;
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // Act
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    // Assert: the third message (in flight at the signal) got its ACK; nothing more was sent.
    expect(code).toBe(1);
    expect(stderr).toContain('SIGINT: stopping after the message in flight');
    expect(listener.received).toHaveLength(3);
    expect(messageLines(stdout).map((l) => l.split(/\s+/).at(-3))).toEqual(['AA', 'AA', 'AA']);
    expect(stdout).toMatch(/3 accepted, 0 rejected, 0 failed, \d+ not sent \(stopped by a signal\)\./);
  });

  it('should send over TLS to mllps:// with --ca and --servername, and refuse an untrusted engine', async () => {
    // A throw-away self-signed certificate for this run, never committed.
    const dir = mkdtempSync(join(tmpdir(), 'chart-export-send-tls-'));
    try {
      const key = join(dir, 'engine.key');
      const cert = join(dir, 'engine.crt');
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=engine.test', '-addext', 'subjectAltName=DNS:engine.test'], { stdio: 'ignore' });
      listener = await startTestListener(undefined, { key: readFileSync(key), cert: readFileSync(cert) });
      const to = `mllps://127.0.0.1:${listener.port}`;
      const ok = await runCli(['send', '--to', to, '--ca', cert, '--servername', 'engine.test', '--message', 'adt-a31', '--patient', 'pat-0001']);
      expect(ok.code).toBe(0);
      expect(listener.received).toHaveLength(1);
      const untrusted = await runCli(['send', '--to', to, '--message', 'adt-a31', '--patient', 'pat-0001'], {}, 30_000);
      expect(untrusted.code).toBe(1);
      expect(untrusted.stdout).toContain('(the peer could not be reached)');
      expect(listener.received).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should send a patient’s messages to python-hl7’s MLLP server', async () => {
    const server = await startPythonMllpServer();
    try {
      const { code, stdout } = await runCli(['send', '--to', `mllp://127.0.0.1:${server.port}`, '--all', '--patient', 'pat-0001'], {}, 30_000);
      expect(code).toBe(0);
      expect(messageLines(stdout).length).toBeGreaterThanOrEqual(5);
      expect(stdout).toMatch(/: (\d+) accepted, 0 rejected, 0 failed\./);
    } finally {
      await server.stop();
    }
  });
});
