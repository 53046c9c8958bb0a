/**
 * createExportMetrics: what render() writes is the Prometheus text format (read by a strict reader and by
 * parse-prometheus-text-format), its values follow what the handler's hooks report, label values are
 * escaped, and the label sets stay bounded whatever routes, statuses and contexts arrive.
 */
import fc from 'fast-check';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { ChartValidationError, InvalidArgumentError } from '../../src/index.js';
import { BULK_ROUTE_NAMES, EXPORT_ROUTE_NAMES } from '../../src/http/routes/route-types.js';
import {
  DEFAULT_DURATION_BUCKETS,
  DataSourceUnavailableError,
  EXPORT_ERROR_SOURCES,
  METRICS_CONTENT_TYPE,
  createExportMetrics,
  type ExportObservation,
} from '../../src/http/index.js';
import { formatSample } from '../../src/http/internal/prometheus.js';
import { KEYS, PATIENT_ID } from './support/fixture.js';
import { failingDataSource, fixtureOptions, serve } from './support/harness.js';
import { parseExposition, type ParsedFamily } from './support/prometheus-text.js';
import { throwingProxy } from './support/hostile.js';
import { runs } from '../support/runs.js';

const FAMILIES = [
  ['chart_export_requests_total', 'counter'],
  ['chart_export_request_duration_seconds', 'histogram'],
  ['chart_export_rate_limited_total', 'counter'],
  ['chart_export_errors_total', 'counter'],
  ['chart_export_data_source_timeouts_total', 'counter'],
] as const;

const ROUTE_LABELS = new Set<string>([...EXPORT_ROUTE_NAMES, ...BULK_ROUTE_NAMES, 'other']);
const STATUS_LABELS = new Set(['200', '202', '400', '401', '403', '404', '405', '406', '413', '429', '500', '501', '503', 'other']);

function observation(route: string | undefined, status: number, durationMs = 1): ExportObservation {
  return { requestId: 'r', route: route as ExportObservation['route'], method: 'GET', status, durationMs, partnerId: 'partner-secret' };
}

/** Read a rendering with both readers; return the strict reader's families by name. */
function read(text: string): Map<string, ParsedFamily> {
  const families = parseExposition(text);
  // The second opinion: the same families, types and (for counters) the same series and values.
  const other = parsePrometheusTextFormat(text);
  expect(other.map((f) => [f.name, f.type.toLowerCase()])).toEqual(families.map((f) => [f.name, f.type]));
  for (const family of families.filter((f) => f.type === 'counter')) {
    const theirs = other.find((f) => f.name === family.name)?.metrics ?? [];
    expect(theirs.map((m) => [m.labels ?? {}, Number(m.value)])).toEqual(family.samples.map((s) => [s.labels, s.value]));
  }
  return new Map(families.map((f) => [f.name, f]));
}

function value(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string>): number | undefined {
  const family = [...families.values()].find((f) => name.startsWith(f.name));
  return family?.samples.find((s) => s.name === name && JSON.stringify(s.labels) === JSON.stringify(labels))?.value;
}

describe('createExportMetrics', () => {
  it('should render every family with HELP and TYPE, and the timeout counter at 0, before any observation', () => {
    const text = createExportMetrics().render();
    const families = read(text);
    expect([...families.values()].map((f) => [f.name, f.type])).toEqual(FAMILIES.map(([n, t]) => [n, t]));
    for (const f of families.values()) expect(f.help).not.toBe('');
    expect(value(families, 'chart_export_data_source_timeouts_total', {})).toBe(0);
    expect(families.get('chart_export_requests_total')?.samples).toEqual([]);
    expect(METRICS_CONTENT_TYPE).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('should count requests by route and status, durations in cumulative buckets, and 429s as denials', () => {
    // Arrange
    const metrics = createExportMetrics();
    // Act: three answers of one route (3 ms, 40 ms, 2 s), two 429s, an unknown path.
    metrics.observer(observation('exportFhirPatient', 200, 3));
    metrics.observer(observation('exportFhirPatient', 200, 40));
    metrics.observer(observation('exportFhirPatient', 404, 2000));
    metrics.observer(observation('exportHl7Note', 429, 0.5));
    metrics.observer(observation('exportHl7Note', 429, 0.5));
    metrics.observer(observation(undefined, 404, 0.1));
    metrics.recordDataSourceTimeout();
    metrics.recordDataSourceTimeout();
    const families = read(metrics.render());
    // Assert
    expect(value(families, 'chart_export_requests_total', { route: 'exportFhirPatient', status: '200' })).toBe(2);
    expect(value(families, 'chart_export_requests_total', { route: 'exportFhirPatient', status: '404' })).toBe(1);
    expect(value(families, 'chart_export_requests_total', { route: 'exportHl7Note', status: '429' })).toBe(2);
    expect(value(families, 'chart_export_requests_total', { route: 'other', status: '404' })).toBe(1);
    expect(value(families, 'chart_export_rate_limited_total', { route: 'exportHl7Note' })).toBe(2);
    expect(families.get('chart_export_rate_limited_total')?.samples).toHaveLength(1);
    const bucket = (le: string): number | undefined =>
      value(families, 'chart_export_request_duration_seconds_bucket', { route: 'exportFhirPatient', le });
    expect([bucket('0.001'), bucket('0.005'), bucket('0.025'), bucket('0.05'), bucket('1'), bucket('2.5'), bucket('10'), bucket('+Inf')]).toEqual([
      undefined,
      1,
      1,
      2,
      2,
      3,
      3,
      3,
    ]);
    expect(value(families, 'chart_export_request_duration_seconds_sum', { route: 'exportFhirPatient' })).toBeCloseTo(2.043, 9);
    expect(value(families, 'chart_export_request_duration_seconds_count', { route: 'exportFhirPatient' })).toBe(3);
    expect(value(families, 'chart_export_data_source_timeouts_total', {})).toBe(2);
    expect(metrics.render()).not.toContain('partner-secret');
  });

  it('should use the given buckets and refuse buckets that are not finite, positive and increasing', () => {
    const metrics = createExportMetrics({ buckets: [0.1, 1] });
    metrics.observer(observation('exportHl7Note', 200, 500));
    const families = read(metrics.render());
    const buckets = families.get('chart_export_request_duration_seconds')?.samples.filter((s) => s.name.endsWith('_bucket'));
    expect(buckets?.map((s) => [s.labels['le'], s.value])).toEqual([['0.1', 0], ['1', 1], ['+Inf', 1]]);
    expect(DEFAULT_DURATION_BUCKETS).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
    for (const buckets of [[], [1, 1], [2, 1], [0, 1], [-1], [Number.NaN], [1, Number.POSITIVE_INFINITY], 'x']) {
      expect(() => createExportMetrics({ buckets: buckets as number[] }), JSON.stringify(buckets)).toThrow(InvalidArgumentError);
    }
  });

  it('should count a request whose duration is not a finite non-negative number without placing it in a bucket', () => {
    const metrics = createExportMetrics();
    for (const d of [Number.NaN, -1, Number.POSITIVE_INFINITY]) metrics.observer(observation('exportFhirNote', 200, d));
    const families = read(metrics.render());
    expect(value(families, 'chart_export_requests_total', { route: 'exportFhirNote', status: '200' })).toBe(3);
    expect(families.get('chart_export_request_duration_seconds')?.samples).toEqual([]);
  });

  it.each([
    ['a malformed rate-limit decision', new InvalidArgumentError('rateLimiter.consume() result.limit', 'must be a non-negative integer'), 'rate_limiter', 'internal'],
    ['a malformed directory client address', new InvalidArgumentError('directoryRateLimit.clientAddress() result', 'must be a string'), 'rate_limiter', 'internal'],
    ['a malformed key record', new InvalidArgumentError('keyStore.lookup() result.scopes', 'must be an array of strings'), 'key_store', 'internal'],
    ['records failing the chart check', new ChartValidationError([{ path: ['patient', 'names'], code: 'required', message: 'required' }]), 'builder', 'internal'],
    ['an option the builder refuses', new InvalidArgumentError('options.controlId', 'too long'), 'builder', 'internal'],
    ['an unavailable data source', new DataSourceUnavailableError('pool exhausted'), 'data_source', 'unavailable'],
    ['an unavailable-coded foreign error', { code: 'data-source-unavailable' }, 'data_source', 'unavailable'],
    ['a plain Error', new Error('connection refused'), 'unknown', 'internal'],
    ['a thrown string', 'boom', 'unknown', 'internal'],
    ['a Proxy that throws on every trap', throwingProxy(), 'unknown', 'internal'],
  ])('should count %s by the source and kind it can tell', (_what, error, source, kind) => {
    const metrics = createExportMetrics();
    metrics.onError(error, { requestId: 'r', route: 'exportHl7Note' });
    const families = read(metrics.render());
    expect(families.get('chart_export_errors_total')?.samples.map((s) => [s.labels, s.value])).toEqual([
      [{ route: 'exportHl7Note', source, kind }, 1],
    ]);
  });

  it('should take the source from the context when it names a known one, and ignore any other', () => {
    const metrics = createExportMetrics();
    metrics.onError(new Error('x'), { requestId: 'r', route: 'exportFhirNote', source: 'key_store' });
    metrics.onError(new Error('x'), { requestId: 'r', route: 'exportFhirNote', source: 'evil"\nsource' as never });
    metrics.onError(new Error('x'), throwingProxy() as never);
    const families = read(metrics.render());
    expect(families.get('chart_export_errors_total')?.samples.map((s) => [s.labels, s.value])).toEqual([
      [{ route: 'exportFhirNote', source: 'key_store', kind: 'internal' }, 1],
      [{ route: 'exportFhirNote', source: 'unknown', kind: 'internal' }, 1],
      [{ route: 'other', source: 'unknown', kind: 'internal' }, 1],
    ]);
  });

  it('should follow what a real handler reports through its observer and onError hooks', async () => {
    // Arrange: one handler for answers and rate limits, one over a failing data source.
    const metrics = createExportMetrics();
    const hooks = { observer: metrics.observer, onError: metrics.onError };
    const call = await serve('fetch', await fixtureOptions(hooks));
    const failing = await serve('fetch', await fixtureOptions({ ...hooks, dataSource: failingDataSource(new DataSourceUnavailableError('down')) }));
    const tiny = { headers: { 'x-api-key': KEYS.tiny } };
    // Act
    await call(`/exportFhirPatient?patientId=${PATIENT_ID}`, { headers: { 'x-api-key': KEYS.both } });
    await call(`/exportFhirPatient?patientId=${PATIENT_ID}`);
    for (let i = 0; i < 3; i++) await call(`/exportHl7PatientAdt?patientId=${PATIENT_ID}`, tiny);
    await call('/nowhere');
    await failing('/publicFhirDirectory?resourceType=Location');
    const families = read(metrics.render());
    // Assert
    const requests = families.get('chart_export_requests_total')?.samples.map((s) => [s.labels['route'], s.labels['status'], s.value]);
    expect(requests).toEqual([
      ['exportFhirPatient', '200', 1],
      ['exportFhirPatient', '401', 1],
      ['publicFhirDirectory', '503', 1],
      ['exportHl7PatientAdt', '200', 2],
      ['exportHl7PatientAdt', '429', 1],
      ['other', '404', 1],
    ]);
    expect(value(families, 'chart_export_rate_limited_total', { route: 'exportHl7PatientAdt' })).toBe(1);
    expect(value(families, 'chart_export_errors_total', { route: 'publicFhirDirectory', source: 'data_source', kind: 'unavailable' })).toBe(1);
    expect(value(families, 'chart_export_request_duration_seconds_count', { route: 'exportHl7PatientAdt' })).toBe(3);
    expect(metrics.render()).not.toMatch(/partner-|pat-0001|KEY/);
  });

  it('should count the Bulk Data routes and their statuses under their own labels', () => {
    const metrics = createExportMetrics();
    for (const [route, status] of [['bulkKickOff', 202], ['bulkKickOff', 413], ['bulkKickOff', 501], ['bulkStatus', 202], ['bulkFile', 200], ['metadata', 200]] as const) {
      metrics.observer(observation(route, status));
    }
    const samples = read(metrics.render()).get('chart_export_requests_total')?.samples ?? [];
    expect(samples.map((s) => `${s.labels['route']} ${s.labels['status']} ${s.value}`).sort()).toEqual(
      ['bulkFile 200 1', 'bulkKickOff 202 1', 'bulkKickOff 413 1', 'bulkKickOff 501 1', 'bulkStatus 202 1', 'metadata 200 1'],
    );
  });

  it('should keep label sets bounded and the text valid under 10 000 random routes, statuses and contexts', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            route: fc.oneof(fc.constantFrom(...EXPORT_ROUTE_NAMES, ...BULK_ROUTE_NAMES, undefined), fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', 'constructor', 'a"b\\c\nd')),
            status: fc.oneof(fc.constantFrom(200, 202, 404, 413, 429, 500, 501, 503), fc.integer(), fc.double()),
            durationMs: fc.double(),
            source: fc.option(fc.oneof(fc.constantFrom(...EXPORT_ERROR_SOURCES), fc.string({ unit: 'binary' }))),
          }),
          { minLength: 10_000, maxLength: 10_000 },
        ),
        (events) => {
          // Arrange
          const metrics = createExportMetrics();
          // Act
          for (const e of events) {
            metrics.observer(observation(e.route, e.status, e.durationMs));
            metrics.onError(new Error(e.route ?? ''), { requestId: 'r', route: e.route as never, source: (e.source ?? undefined) as never });
          }
          const families = read(metrics.render());
          // Assert: every label value from its fixed set, so at most (15 routes + other) × (13 statuses + other) series.
          for (const family of families.values()) {
            for (const s of family.samples) {
              if (s.labels['route'] !== undefined) expect(ROUTE_LABELS.has(s.labels['route'])).toBe(true);
              if (s.labels['status'] !== undefined) expect(STATUS_LABELS.has(s.labels['status'])).toBe(true);
              if (s.labels['source'] !== undefined) expect(EXPORT_ERROR_SOURCES).toContain(s.labels['source']);
            }
          }
          const requests = families.get('chart_export_requests_total')?.samples ?? [];
          expect(requests.length).toBeLessThanOrEqual(ROUTE_LABELS.size * STATUS_LABELS.size);
          expect(requests.reduce((n, s) => n + s.value, 0)).toBe(10_000);
          const errors = families.get('chart_export_errors_total')?.samples ?? [];
          expect(errors.length).toBeLessThanOrEqual(ROUTE_LABELS.size * EXPORT_ERROR_SOURCES.length * 2);
          expect(errors.reduce((n, s) => n + s.value, 0)).toBe(10_000);
        },
      ),
      { numRuns: runs(3) },
    );
  });
});

describe('formatSample', () => {
  it('should escape any label value so that both readers give it back exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        // Arrange: one counter family with one sample holding the values.
        const text = ['# HELP m m', '# TYPE m counter', formatSample('m', [['a', a], ['b', b]], 1), ''].join('\n');
        // Act
        const families = read(text);
        // Assert
        expect(families.get('m')?.samples[0]?.labels).toEqual({ a, b });
        expect(text.split('\n')).toHaveLength(4);
      }),
    );
  });

  it('should write the three escapes of the format and nothing else', () => {
    expect(formatSample('m', [['l', 'a\\b"c\nd\re\u00e9']], 1.5)).toBe('m{l="a\\\\b\\"c\\nd\re\u00e9"} 1.5');
    expect(formatSample('m', [], Number.POSITIVE_INFINITY)).toBe('m +Inf');
    expect(formatSample('m', [], Number.NaN)).toBe('m NaN');
  });
});
