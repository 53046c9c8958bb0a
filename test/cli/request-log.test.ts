import { describe, expect, it } from 'vitest';
import { createRequestLog, formatObservation, formatObservationJson } from '../../src/cli/request-log.js';
import type { ExportObservation } from '../../src/http/index.js';

const AT = new Date('2026-03-01T15:00:00.000Z');
const observation = (status: number, partnerId: string | undefined): ExportObservation => ({
  requestId: 'req-1',
  route: status === 404 ? undefined : 'exportHl7Note',
  method: 'GET',
  status,
  durationMs: 1.23456,
  partnerId,
});

describe('request log', () => {
  it('should write a request as one JSON object with the documented fields only', () => {
    expect(JSON.parse(formatObservationJson(observation(200, 'acme'), AT))).toEqual({
      time: '2026-03-01T15:00:00.000Z',
      level: 'info',
      method: 'GET',
      route: 'exportHl7Note',
      status: 200,
      durationMs: 1.235,
      partner: 'acme',
      requestId: 'req-1',
    });
    expect(JSON.parse(formatObservationJson(observation(404, undefined), AT))).toMatchObject({ level: 'warn', route: null, partner: null });
    expect(JSON.parse(formatObservationJson(observation(503, 'acme'), AT))).toMatchObject({ level: 'error' });
  });

  it('should keep the text line as before', () => {
    expect(formatObservation(observation(200, 'acme'), AT)).toBe('2026-03-01T15:00:00.000Z GET exportHl7Note 200 1.2ms partner=acme id=req-1');
  });

  it('should write events as JSON in json mode and as chart-export lines otherwise', () => {
    const lines: string[] = [];
    const io = { out: () => undefined, err: (l: string) => lines.push(l) };
    createRequestLog('json', io).event('warn', 'Redis is unavailable', { keys: 2 });
    createRequestLog(undefined, io).event('info', 'reloaded');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'warn', message: 'chart-export: Redis is unavailable', keys: 2 });
    expect(lines[1]).toBe('chart-export: reloaded');
    expect(createRequestLog(undefined, io).request).toBeUndefined();
  });
});
