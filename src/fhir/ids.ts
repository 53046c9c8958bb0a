import { InvalidArgumentError } from '../errors.js';
import { mapChartId } from './internal/ids.js';

const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Map a chart id to the FHIR id every builder and mapper uses for it, deterministically.
 *
 * A chart id that is a valid FHIR id (`[A-Za-z0-9\-\.]{1,64}`) is kept as is, except `.` and `..`
 * (path steps in a URL). Any other becomes
 * `<slug>-<hash>`: `<slug>` keeps the id's FHIR-safe characters (other runs become `-`, at most 31
 * characters, omitted when empty) for readability, and `<hash>` is the first 128 bits of SHA-256 over
 * the id's UTF-8 bytes in 32 hex digits, so distinct ids do not collide. The result has at most 64
 * characters.
 *
 * @param chartId - a chart id: a non-empty string without lone surrogates
 * @returns a valid FHIR id
 * @throws {InvalidArgumentError} when `chartId` is not a non-empty string or holds a lone surrogate
 * @example toFhirId('enc-0001') // 'enc-0001'
 * @example toFhirId('MRN|00042') // 'MRN-00042-' followed by 32 hex digits
 * @see https://hl7.org/fhir/R4/datatypes.html#id
 */
export function toFhirId(chartId: string): string {
  if (typeof chartId !== 'string' || chartId.length === 0) throw new InvalidArgumentError('chartId', 'must be a non-empty string');
  if (LONE_SURROGATE_RE.test(chartId)) throw new InvalidArgumentError('chartId', 'must not contain a lone surrogate');
  return mapChartId(chartId);
}
