/**
 * The client against an MLLP server written outside this project: python-hl7's asyncio server (Debian's
 * python3-hl7), which answers with ACKs it builds itself (`Message.create_ack`). The messages are the
 * package's own, built from the demo chart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import demo from '../../examples/data/demo-chart.json';
import { buildAdrA19, buildAdtA08, buildAdtA31, buildMdmT02, buildOruR01, type ChartDocument } from '../../src/index.js';
import { createMllpClient, MllpNakError, type MllpEvent } from '../../src/mllp/index.js';
import { startPythonMllpServer, type PythonMllpServer } from './support/python-server.js';

const chart = (demo as unknown as ChartDocument).patients.find((p) => (p.encounters?.length ?? 0) > 0 && (p.notes?.length ?? 0) > 0 && (p.assessments?.length ?? 0) > 0);
let server: PythonMllpServer;

beforeAll(async () => {
  server = await startPythonMllpServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('createMllpClient against python-hl7', () => {
  it('should send the five messages of a demo patient and read python-hl7’s AA for each, matched by MSA-2', async () => {
    // Arrange
    if (chart === undefined) throw new Error('the demo chart has no patient with an encounter, a note and an assessment');
    const directory = (demo as unknown as ChartDocument).directory;
    const options = { sendingApplication: 'CHART-EXPORT', sendingFacility: 'CLINIC', now: '2026-03-01T09:30:00-05:00', directory };
    const messages = [
      buildAdtA31(chart, { ...options, controlId: 'ADT-PY-1' }),
      buildAdrA19(chart, { ...options, controlId: 'ADR-PY-2' }),
      buildAdtA08(chart, chart.encounters?.[0]?.id as string, { ...options, controlId: 'ADT-PY-3' }),
      buildMdmT02(chart, chart.notes?.[0]?.id as string, { ...options, controlId: 'MDM-PY-4' }),
      buildOruR01(chart, chart.assessments?.[0]?.id as string, { ...options, controlId: 'ORU-PY-5' }),
    ];
    const events: MllpEvent[] = [];
    const client = createMllpClient({ host: '127.0.0.1', port: server.port, ackTimeoutMs: 5000, observer: (e) => events.push(e) });
    // Act
    const acks = await Promise.all(messages.map((m) => client.send(m)));
    await client.close();
    // Assert
    expect(acks.map((a) => [a.code, a.controlId])).toEqual([
      ['AA', 'ADT-PY-1'],
      ['AA', 'ADR-PY-2'],
      ['AA', 'ADT-PY-3'],
      ['AA', 'MDM-PY-4'],
      ['AA', 'ORU-PY-5'],
    ]);
    // python-hl7 swaps the sender and receiver: its ACK's MSH-5 is our MSH-3.
    expect(acks[0]?.message.segments[0]?.fields[5]?.[0]?.[0]?.[0]).toBe('CHART-EXPORT');
    expect(events.filter((e) => e.type === 'connected')).toHaveLength(1);
  });

  it('should reject python-hl7’s AE with an MllpNakError', async () => {
    const client = createMllpClient({ host: '127.0.0.1', port: server.port, ackTimeoutMs: 5000 });
    const text = 'MSH|^~\\&|NAK-ME|CLINIC|ENGINE|HOSP|20260301093000||ADT^A31^ADT_A05|ADT-PY-6|P|2.5.1\rEVN||20260301093000\rPID|1||42^^^CLINIC^MR||DOE^JANE\rPV1|1|N\r';
    await expect(client.send(text)).rejects.toBeInstanceOf(MllpNakError);
    await expect(client.send(text.replace('NAK-ME', 'CHART-EXPORT').replace('ADT-PY-6', 'ADT-PY-7'))).resolves.toMatchObject({ code: 'AA', controlId: 'ADT-PY-7' });
    await client.close();
  });

  it('should send a 1 MiB message that python-hl7 reads whole and acknowledges', async () => {
    const client = createMllpClient({ host: '127.0.0.1', port: server.port, ackTimeoutMs: 10_000 });
    const text = `MSH|^~\\&|CHART-EXPORT|CLINIC|ENGINE|HOSP|20260301093000||MDM^T02^MDM_T02|MDM-PY-8|P|2.5.1\rOBX|1|TX|||${'x'.repeat(1024 * 1024)}\r`;
    await expect(client.send(text)).resolves.toMatchObject({ code: 'AA', controlId: 'MDM-PY-8' });
    await client.close();
  });

  it('should reject with connection once the server has stopped (after the back-off), and work with a restarted one', async () => {
    const client = createMllpClient({ host: '127.0.0.1', port: server.port, ackTimeoutMs: 5000, reconnect: { initialDelayMs: 20, maxAttempts: 2 } });
    const text = (id: string): string => `MSH|^~\\&|CHART-EXPORT|CLINIC|ENGINE|HOSP|20260301093000||ADT^A31^ADT_A05|${id}|P|2.5.1\rPID|1||42\r`;
    await client.send(text('ADT-PY-9'));
    await server.stop();
    await expect(client.send(text('ADT-PY-10'))).rejects.toMatchObject({ code: 'connection' });
    server = await startPythonMllpServer();
    await client.close({ mode: 'abort' });
    const again = createMllpClient({ host: '127.0.0.1', port: server.port, ackTimeoutMs: 5000 });
    await expect(again.send(text('ADT-PY-11'))).resolves.toMatchObject({ code: 'AA' });
    await again.close();
  });
});
