/** Checks and defaults of the builders' options. */
import { InvalidArgumentError } from '../../errors.js';
import { parseIsoDateTime } from '../../internal/iso.js';
import type { Directory } from '../../model/directory.js';
import { validateDirectoryOption } from '../../validation/chart-check.js';
import type { FhirExportOptions } from '../export-options.js';
import { FHIR_ID_RE } from '../ids.js';

/** Options after checks and defaults. */
export interface ResolvedOptions {
  readonly timestamp: string;
  readonly bundleId: string | undefined;
  /** Without a trailing slash; undefined for relative fullUrls. */
  readonly baseUrl: string | undefined;
  readonly strictBundleTotal: boolean;
  readonly directory: Directory | undefined;
}

const BASE_URL_RE = /^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Check the options every builder shares and fill in defaults.
 * @throws {InvalidArgumentError} naming the bad option
 * @throws {ChartValidationError} when `directory` fails the directory check
 */
export function resolveOptions(options: FhirExportOptions | undefined): ResolvedOptions {
  if (options === undefined) {
    return { timestamp: new Date().toISOString(), bundleId: undefined, baseUrl: undefined, strictBundleTotal: false, directory: undefined };
  }
  if (!isObject(options)) throw new InvalidArgumentError('options', 'must be an object');
  const { now, bundleId, baseUrl, strictBundleTotal, directory } = options;
  if (now !== undefined && (typeof now !== 'string' || parseIsoDateTime(now)?.precision !== 'second')) {
    throw new InvalidArgumentError('now', 'must be an ISO 8601 date-time with seconds and an offset (YYYY-MM-DDThh:mm:ss[.ffff](Z|±hh:mm))');
  }
  if (bundleId !== undefined && (typeof bundleId !== 'string' || !FHIR_ID_RE.test(bundleId))) {
    throw new InvalidArgumentError('bundleId', 'must be a FHIR id: 1 to 64 characters of A-Z, a-z, 0-9, "-" and "."');
  }
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !BASE_URL_RE.test(baseUrl))) {
    throw new InvalidArgumentError('baseUrl', 'must be an absolute http or https URL without query or fragment');
  }
  if (strictBundleTotal !== undefined && typeof strictBundleTotal !== 'boolean') {
    throw new InvalidArgumentError('strictBundleTotal', 'must be a boolean');
  }
  return {
    timestamp: now ?? new Date().toISOString(),
    bundleId,
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    strictBundleTotal: strictBundleTotal ?? false,
    directory: directory === undefined ? undefined : validateDirectoryOption(directory),
  };
}

/**
 * Check a record-count limit: undefined (no cap) or a non-negative safe integer.
 * @throws {InvalidArgumentError}
 */
export function resolveLimit(value: unknown, name: string): number {
  if (value === undefined) return Number.POSITIVE_INFINITY;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(name, 'must be a non-negative integer');
  }
  return value;
}

/** Check that `limits` is an object (or absent). */
export function limitsObject(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new InvalidArgumentError('limits', 'must be an object');
  return value;
}
