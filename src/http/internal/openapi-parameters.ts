/** The parameters of the OpenAPI description, with the limits in force, and the base path as the handler reads it. */
import { InvalidArgumentError } from '../../index.js';
import { DEFAULT_LIMITS, type ExportLimits } from '../handler-options.js';
import { EXPORT_ROUTES } from '../routes/route-table.js';
import type { LimitName, ParameterDefinition, RouteDefinition } from '../routes/route-types.js';
import type { Json } from './openapi-common.js';
import { ID_TEXT, LIMIT_TEXT } from './openapi-text.js';

export function checkBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  if (typeof basePath !== 'string' || /[?#]/.test(basePath)) throw new InvalidArgumentError('basePath', 'must be a path without query or fragment');
  // The handler's own normalisation: what the WHATWG URL parser makes of the path, without a trailing slash.
  const path = new URL(`http://localhost${basePath.startsWith('/') ? basePath : `/${basePath}`}`).pathname;
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

export function resolveLimit(name: LimitName, limits: ExportLimits | undefined): { readonly default: number; readonly max: number } {
  const given: unknown = limits?.[name];
  if (given !== undefined && (typeof given !== 'object' || given === null)) throw new InvalidArgumentError(`limits.${name}`, 'must be an object');
  // Each field read once, checked before any arithmetic, as the handler does.
  const { max: givenMax, default: givenDefault } = (given ?? {}) as { max?: unknown; default?: unknown };
  const read = (label: string, value: unknown): number => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new InvalidArgumentError(`limits.${name}.${label}`, 'must be a non-negative integer');
    }
    return value;
  };
  const fallback = DEFAULT_LIMITS[name];
  const max = givenMax === undefined ? fallback.max : read('max', givenMax);
  const def = givenDefault === undefined ? Math.min(fallback.default, max) : read('default', givenDefault);
  if (def > max) throw new InvalidArgumentError(`limits.${name}.default`, 'must not exceed the maximum');
  return { default: def, max };
}

/** Component name of a route's parameter (`limit` is two different parameters). */
export function parameterComponent(route: RouteDefinition, parameter: ParameterDefinition): string {
  if (parameter.name === 'limit') return route.name === 'publicFhirDirectory' ? 'directoryLimit' : 'summaryLimit';
  return parameter.name;
}


export function buildParameters(limits: ExportLimits | undefined): Json {
  const out: Json = {};
  for (const route of EXPORT_ROUTES) {
    for (const parameter of route.parameters) {
      const component = parameterComponent(route, parameter);
      if (out[component] !== undefined) continue;
      const duplicate = ' Given at most once (a repeated parameter is a 400).';
      if (parameter.kind === 'id') {
        out[component] = {
          name: parameter.name,
          in: 'query',
          required: true,
          description:
            `${ID_TEXT[parameter.name] ?? 'A chart id.'} A chart id: 1 to 128 UTF-16 code units, no control characters ` +
            `(C0, DEL, C1), no lone surrogates, no leading or trailing white space.${duplicate}`,
          schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^(?!\\s)[^\\u0000-\\u001F\\u007F-\\u009F]*(?<!\\s)$' },
        };
      } else if (parameter.kind === 'resourceType') {
        out[component] = {
          name: parameter.name,
          in: 'query',
          required: true,
          description: `The kind of directory record listed.${duplicate}`,
          schema: { type: 'string', enum: ['Organization', 'Practitioner', 'Location'] },
        };
      } else if (parameter.kind === 'cursor') {
        out[component] = {
          name: parameter.name,
          in: 'query',
          required: false,
          description:
            'The page to read: the opaque cursor of a `next` link, unchanged (keyset paging on the record id, so it stays valid ' +
            `while records are added or removed). A cursor that was not given out, or was changed, is a 400.${duplicate}`,
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,1024}$' },
        };
      } else {
        const setting = resolveLimit(route.limits[parameter.name] as LimitName, limits);
        const defaulted = parameter.kind === 'count' ? '' : `default ${setting.default}; `;
        out[component] = {
          name: parameter.name,
          in: 'query',
          required: false,
          description:
            `${LIMIT_TEXT[component] ?? 'A record-count limit.'} A non-negative integer in decimal digits (leading zeros allowed); ` +
            `${defaulted}a value above ${setting.max} is read as ${setting.max} (clamped, not refused).${duplicate}`,
          schema:
            parameter.kind === 'count'
              ? { type: 'integer', minimum: 0, 'x-maximum-honoured': setting.max }
              : { type: 'integer', minimum: 0, default: setting.default, 'x-maximum-honoured': setting.max },
        };
      }
    }
  }
  out['requestId'] = {
    name: 'x-request-id',
    in: 'header',
    required: false,
    description: 'A request id to trace the call; echoed in `x-request-id` and in error bodies. An absent or invalid one is replaced by a new UUID.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  };
  return out;
}

