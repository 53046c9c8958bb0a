/**
 * The checks run when a handler is created (a wrong option fails there, never as a 500 on every request), and
 * the resolution of the options into the settings the request pipeline reads.
 */
import {
  InvalidArgumentError,
  buildAdtA31,
  buildFhirDirectoryBundle,
  type FhirExportOptions,
  type Hl7MessageOptions,
  type PatientChart,
} from '../index.js';
import { DATA_SOURCE_METHODS } from './data-source.js';
import { guardDataSource, isObject, safeCall } from './guards.js';
import { checkedReads } from './internal/checked-reads.js';
import {
  DEFAULT_DATA_SOURCE_TIMEOUT_MS,
  DEFAULT_LIMITS,
  MAX_DATA_SOURCE_TIMEOUT_MS,
  type DirectoryRateLimitOptions, type ExportHandlerOptions, type ExportLimits,
  type HandlerSettings,
} from './handler-options.js';
import { isFrozenSource } from './internal/frozen-source.js';
import type { ResolvedLimit } from './internal/query.js';
import { createFixedWindowRateLimiter } from './rate-limiter.js';
import type { LimitName } from './routes/route-types.js';

function checkOptionalObject(name: string, value: unknown): void {
  if (value !== undefined && !isObject(value)) throw new InvalidArgumentError(name, 'must be an object');
}

function checkOptionalFunction(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') throw new InvalidArgumentError(name, 'must be a function');
}

/**
 * Refuse options of the wrong type when the handler is created: otherwise a number given as `dataSource` or a
 * string given as `now` would only fail inside a request, as a 500 on every one.
 */
function checkHostOptions(options: unknown): asserts options is ExportHandlerOptions {
  if (!isObject(options)) throw new InvalidArgumentError('options', 'must be an object');
  const { dataSource, keyStore, rateLimiter } = options;
  if (dataSource === undefined || dataSource === null) throw new InvalidArgumentError('dataSource', 'is required');
  if (!isObject(dataSource)) throw new InvalidArgumentError('dataSource', 'must be an object');
  for (const method of DATA_SOURCE_METHODS) {
    if (typeof dataSource[method] !== 'function') throw new InvalidArgumentError(`dataSource.${method}`, 'must be a function');
  }
  if (keyStore === undefined || keyStore === null) throw new InvalidArgumentError('keyStore', 'is required');
  if (!isObject(keyStore) || typeof keyStore['lookup'] !== 'function') throw new InvalidArgumentError('keyStore.lookup', 'must be a function');
  if (rateLimiter !== undefined && (!isObject(rateLimiter) || typeof rateLimiter['consume'] !== 'function')) {
    throw new InvalidArgumentError('rateLimiter.consume', 'must be a function');
  }
  checkOptionalObject('limits', options['limits']);
  const limits = options['limits'] as Record<string, unknown> | undefined;
  for (const name of Object.keys(DEFAULT_LIMITS)) checkOptionalObject(`limits.${name}`, limits?.[name]);
  checkOptionalObject('directoryRateLimit', options['directoryRateLimit']);
  checkOptionalObject('fhir', options['fhir']);
  checkOptionalObject('hl7', options['hl7']);
  checkOptionalFunction('hl7.controlId', (options['hl7'] as Record<string, unknown> | undefined)?.['controlId']);
  for (const name of ['now', 'requestId', 'observer', 'onError'] as const) checkOptionalFunction(name, options[name]);
  checkOptionalFunction('dataSource.ping', dataSource['ping']);
  const stableRecords = dataSource['stableRecords'];
  if (stableRecords !== undefined && typeof stableRecords !== 'boolean') throw new InvalidArgumentError('dataSource.stableRecords', 'must be a boolean');
  checkOptionalFunction('rateLimiter.ping', (rateLimiter as Record<string, unknown> | undefined)?.['ping']);
  const failsOpen = (rateLimiter as Record<string, unknown> | undefined)?.['failsOpen'];
  if (failsOpen !== undefined && typeof failsOpen !== 'boolean') throw new InvalidArgumentError('rateLimiter.failsOpen', 'must be a boolean');
  checkOperationalOptions(options);
}

/** The options of the operational routes and the data-source timeout. */
function checkOperationalOptions(options: Record<string, unknown>): void {
  for (const name of ['healthRoutes', 'openApi'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') throw new InvalidArgumentError(name, 'must be a boolean');
  }
  const metrics = options['metrics'];
  if (metrics !== undefined) {
    if (!isObject(metrics)) throw new InvalidArgumentError('metrics', 'must be the object createExportMetrics() returns');
    for (const name of ['observer', 'onError', 'recordDataSourceTimeout', 'render'] as const) checkOptionalFunction(`metrics.${name}`, metrics[name] ?? null);
  }
  const timeout = options['dataSourceTimeoutMs'];
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout < 1 || timeout > MAX_DATA_SOURCE_TIMEOUT_MS)) {
    throw new InvalidArgumentError('dataSourceTimeoutMs', `must be a positive integer of milliseconds, at most ${MAX_DATA_SOURCE_TIMEOUT_MS}`);
  }
}

/** Two hooks called one after the other, each guarded; one when the other is absent. */
function combineHooks<A extends unknown[]>(first: ((...args: A) => void) | undefined, second: ((...args: A) => void) | undefined): ((...args: A) => void) | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return (...args) => {
    safeCall(first, ...args);
    safeCall(second, ...args);
  };
}

function checkLimitValue(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(name, 'must be a non-negative integer');
  }
  return value;
}

function resolveLimits(limits: ExportLimits | undefined): Record<LimitName, ResolvedLimit> {
  const out = {} as Record<LimitName, ResolvedLimit>;
  for (const name of Object.keys(DEFAULT_LIMITS) as LimitName[]) {
    const given = limits?.[name];
    const fallback = DEFAULT_LIMITS[name];
    const max = given?.max === undefined ? fallback.max : checkLimitValue(`limits.${name}.max`, given.max);
    const def = given?.default === undefined ? Math.min(fallback.default, max) : checkLimitValue(`limits.${name}.default`, given.default);
    if (def > max) throw new InvalidArgumentError(`limits.${name}.default`, 'must not exceed the maximum');
    out[name] = Object.freeze({ default: def, max });
  }
  return out;
}

function checkDirectoryRateLimit(directoryLimit: DirectoryRateLimitOptions | undefined): void {
  if (directoryLimit === undefined) return;
  checkLimitValue('directoryRateLimit.limit', directoryLimit.limit);
  checkLimitValue('directoryRateLimit.windowSeconds', directoryLimit.windowSeconds);
  if (directoryLimit.limit < 1 || directoryLimit.windowSeconds < 1) {
    throw new InvalidArgumentError('directoryRateLimit', 'limit and windowSeconds must be positive');
  }
}

function normaliseBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  if (typeof basePath !== 'string' || /[?#]/.test(basePath)) {
    throw new InvalidArgumentError('basePath', 'must be a path without query or fragment');
  }
  // Match what the WHATWG URL parser gives for request paths (percent-encoding, dot segments). Concatenated to
  // the origin, not resolved against it: `//api/export` must stay a path, not become a host (`api`).
  const path = new URL(`http://localhost${basePath.startsWith('/') ? basePath : `/${basePath}`}`).pathname;
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

/** A patient the option check builds for: the smallest chart the builders accept. */
const OPTION_CHECK_CHART: PatientChart = Object.freeze({
  patient: { id: 'option-check', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: '1' }], names: [{ family: 'Check' }] },
}) as PatientChart;

/** A builder's refusal of an option, renamed to the handler's option (`options.baseUrl` → `fhir.baseUrl`). */
function renameOptionError(prefix: 'fhir' | 'hl7', error: unknown): never {
  if (error instanceof InvalidArgumentError) {
    throw new InvalidArgumentError(`${prefix}.${error.argument.replace(/^options\./, '')}`, error.reason, { cause: error });
  }
  throw error;
}

/**
 * Refuse FHIR and HL7 options the builders would refuse, when the handler is created rather than with a 500
 * on every request: one build of the smallest chart with them, its InvalidArgumentError renamed to the
 * handler's option (`hl7.sendingApplication`, `fhir.baseUrl`).
 */
function checkOutputOptions(fhirBase: FhirExportOptions, hl7Base: Hl7MessageOptions): void {
  const at = '2026-01-01T00:00:00Z';
  try {
    buildFhirDirectoryBundle({}, 'Organization', { ...fhirBase, now: at });
  } catch (error) {
    renameOptionError('fhir', error);
  }
  try {
    buildAdtA31(OPTION_CHECK_CHART, { ...hl7Base, now: at, controlId: 'ADT1' });
  } catch (error) {
    renameOptionError('hl7', error);
  }
}

/** The fixed builder options of the handler's `fhir` and `hl7` options, checked against the builders. */
function resolveOutputOptions(options: ExportHandlerOptions): { fhir: FhirExportOptions; hl7: Hl7MessageOptions } {
  const fhir: FhirExportOptions = {};
  if (options.fhir?.baseUrl !== undefined) fhir.baseUrl = options.fhir.baseUrl;
  if (options.fhir?.strictBundleTotal !== undefined) fhir.strictBundleTotal = options.fhir.strictBundleTotal;
  const hl7: Hl7MessageOptions = {};
  for (const key of ['sendingApplication', 'sendingFacility', 'receivingApplication', 'receivingFacility', 'processingId'] as const) {
    const value = options.hl7?.[key];
    if (value !== undefined) (hl7 as Record<string, unknown>)[key] = value;
  }
  checkOutputOptions(fhir, hl7);
  return { fhir, hl7 };
}

/**
 * Check the options of `createExportHandler` and resolve them into the settings the pipeline reads. The hooks
 * are read once, here: they are fixed when the handler is created, like every other option.
 * @throws {InvalidArgumentError} for an option of the wrong type or value (see `createExportHandler`)
 */
export function resolveHandlerSettings(options: ExportHandlerOptions): HandlerSettings {
  checkHostOptions(options);
  const frozenSource = isFrozenSource(options.dataSource);
  // Read once, as checked above: a getter cannot turn the reuse on or off later.
  const stableRecords = !frozenSource && options.dataSource.stableRecords === true;
  // The in-memory source is the package's own, never throws synchronously and serves checked frozen records; any
  // other is guarded, and its records are checked one by one as they are read (see checked-reads.ts).
  const dataSource = frozenSource ? options.dataSource : checkedReads(guardDataSource(options.dataSource), stableRecords);
  const now = options.now ?? Date.now;
  const rateLimiter = options.rateLimiter ?? createFixedWindowRateLimiter({ now });
  const basePath = normaliseBasePath(options.basePath);
  const limits = resolveLimits(options.limits);
  checkDirectoryRateLimit(options.directoryRateLimit);
  const output = resolveOutputOptions(options);
  const metrics = options.metrics;
  return {
    dataSource,
    frozenSource,
    stableRecords,
    keyStore: options.keyStore,
    rateLimiter,
    now,
    basePath,
    limits,
    directoryRateLimit: options.directoryRateLimit,
    fhir: output.fhir,
    hl7: output.hl7,
    controlId: options.hl7?.controlId,
    requestId: options.requestId,
    observer: combineHooks(options.observer, metrics === undefined ? undefined : (observation) => metrics.observer(observation)),
    onError: combineHooks(options.onError, metrics === undefined ? undefined : (error, context) => metrics.onError(error, context)),
    metrics,
    healthRoutes: options.healthRoutes === true,
    openApi: options.openApi === true,
    dataSourceTimeoutMs: options.dataSourceTimeoutMs ?? DEFAULT_DATA_SOURCE_TIMEOUT_MS,
  };
}
