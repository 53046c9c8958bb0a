/**
 * The command's log on stderr: the request log (`--log text` or `--log json`) and the service's own events
 * (errors, Redis outages, key reloads). No line carries patient data or key material: a request line holds
 * the time, method, route, status, duration, partner and request id, nothing from the URL or the body.
 */
import type { ExportObservation } from '../http/index.js';
import type { CliIo } from './load.js';

/** How bad an event is. */
export type LogLevel = 'info' | 'warn' | 'error';

/** Where the command logs. */
export interface RequestLog {
  /** Log one request (only when a request log was asked for). */
  readonly request: ((o: ExportObservation) => void) | undefined;
  /** Log an event of the service; `message` must hold no secret. Text lines are `chart-export: <message>`. */
  event(level: LogLevel, message: string, fields?: Readonly<Record<string, string | number | undefined>>): void;
}

/**
 * One request-log line: time, method, route, status, duration, partner, request id. No patient data, no key.
 * @param o - the observation
 * @param now - the time to print (default: now)
 * @returns the line
 * @throws never
 * @example formatObservation(o) // '2026-03-01T15:00:00.000Z GET exportHl7Note 200 1.8ms partner=acme id=…'
 */
export function formatObservation(o: ExportObservation, now: Date = new Date()): string {
  return `${now.toISOString()} ${o.method} ${o.route ?? '-'} ${o.status} ${o.durationMs.toFixed(1)}ms partner=${o.partnerId ?? '-'} id=${o.requestId}`;
}

/**
 * One request as a JSON object: `time`, `level` (`error` for a 5xx, `warn` for a 4xx, else `info`), `method`,
 * `route` (null when no route matched), `status`, `durationMs`, `partner` (null without a known key),
 * `requestId`.
 * @param o - the observation
 * @param now - the time to print (default: now)
 * @returns the line, without a newline
 * @throws never
 * @example formatObservationJson(o) // '{"time":"…","level":"info","method":"GET","route":"exportHl7Note",…}'
 */
export function formatObservationJson(o: ExportObservation, now: Date = new Date()): string {
  return JSON.stringify({
    time: now.toISOString(),
    level: o.status >= 500 ? 'error' : o.status >= 400 ? 'warn' : 'info',
    method: o.method,
    route: o.route ?? null,
    status: o.status,
    durationMs: Math.round(o.durationMs * 1000) / 1000,
    partner: o.partnerId ?? null,
    requestId: o.requestId,
  });
}

/**
 * The command's log.
 * @param format - `text`, `json`, or undefined for events only (as text)
 * @param io - where to write (lines go to `io.err`)
 * @returns the log
 * @throws never
 * @example createRequestLog('json', io).event('info', 'keys reloaded');
 */
export function createRequestLog(format: 'text' | 'json' | undefined, io: CliIo): RequestLog {
  const json = format === 'json';
  return {
    request: format === undefined ? undefined : json ? (o) => io.err(formatObservationJson(o)) : (o) => io.err(formatObservation(o)),
    event(level, message, fields = {}) {
      if (json) io.err(JSON.stringify({ time: new Date().toISOString(), level, message: `chart-export: ${message}`, ...fields }));
      else io.err(`chart-export: ${message}`);
    },
  };
}
