/**
 * The web-standard export handler: `createExportHandler(options)` → `(request: Request) => Promise<Response>`
 * for Node's fetch, Deno, Bun, edge runtimes, Hono and Next.js. It reads the `Request`, runs the request
 * pipeline (pipeline.ts) and writes the `Response`.
 */
import { InvalidArgumentError } from '../index.js';
import type { ExportHandler, ExportHandlerOptions } from './handler-options.js';
import { lastResortResponse, type PreparedResponse } from './internal/responses.js';
import { needsFetchBody, toFetchResponse } from './output/fetch-body.js';
import { EXPORT_CORE, createExportCore } from './pipeline.js';

const ENCODER = new TextEncoder();

/**
 * Create the web-standard export handler. It serves the eleven routes of the export interface under an
 * optional base path, GET and HEAD, and checks in this order (src/http/pipeline.ts):
 * route (404) → method (405, `Allow: GET, HEAD`) → API key (401: missing, unknown, revoked) → scope (403)
 * → rate limit (429, `Retry-After`) → parameters (400) → `Accept` (406) → data (404) → 200. A data-source
 * failure gives 500, or 503 for a `DataSourceUnavailableError` or for data reads that take longer than
 * `dataSourceTimeoutMs` (default 10 s). Every data-source call gets an `AbortSignal` that fires on that
 * timeout and when the client goes away (the `Request`'s `signal`).
 *
 * With the option `bulk`, it also serves the FHIR Bulk Data routes (`$export`, `Patient/$export`, the status and
 * file URLs, `metadata`), which answer `POST` and `DELETE` where the Bulk Data IG asks (docs/bulk-export.md).
 *
 * Operational routes, each off by default and served under `basePath` when enabled: `/healthz` and `/readyz`
 * (`healthRoutes`), `/metrics` (`metrics`), `/openapi.json` (`openApi`). They need no key, are not counted
 * against any rate limit and are not observed (the `observer` sees export routes and unknown paths only).
 *
 * Every request made with a valid key counts against that key's rate limit, whatever its outcome, and every
 * such response carries `x-ratelimit-limit`, `-remaining` and `-reset` (Unix epoch seconds). Every response
 * carries `x-request-id` (the caller's when it is 1–128 characters of `[A-Za-z0-9._:-]`, else a new one),
 * `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. Errors are a FHIR OperationOutcome on the
 * FHIR routes and the directory, RFC 9457 problem+json on the HL7 routes and unknown paths, both with the
 * request id and never a stack, an internal message, a key or a parameter value.
 *
 * Over the in-memory data source (whose records are deep-frozen checked copies fixed at creation), the
 * handler reuses what it derived from a record on later requests for it: the directory records it refers to,
 * an HL7 message template that only needs MSH-7, EVN-2 and MSH-10 filled in, and the JSON text of a Bundle's
 * entries. Each reuse is proven against the builders before it is used and is held in a `WeakMap` keyed by
 * the record, so responses are byte-for-byte what the builders give and nothing outlives the data source.
 * Over a data source that declares `stableRecords` (the PostgreSQL one), the HL7 and Bundle templates are kept
 * per record object and used only while every record an output is built from is the same object; its records
 * are still read on every request. Over any other data source every request builds afresh.
 *
 * @param options - data source, key store and the optional settings of {@link ExportHandlerOptions}
 * @returns `(request: Request) => Promise<Response>`; it answers every request and never rejects, except with
 *   {@link InvalidArgumentError} when called with something that is not a `Request` (a host programming error)
 * @throws {InvalidArgumentError} at creation, for options that are not an object, a `dataSource` or `keyStore`
 *   without its methods, a `rateLimiter` without `consume`, a hook (`now`, `requestId`, `observer`, `onError`,
 *   `hl7.controlId`) that is not a function, an invalid `basePath`, limit, directory rate limit, or `fhir` /
 *   `hl7` option
 * @example
 * const handler = createExportHandler({ dataSource: createInMemoryDataSource(doc), keyStore });
 * export default { fetch: handler }; // Deno, Bun, Cloudflare Workers, Hono: app.get('/*', (c) => handler(c.req.raw))
 */
export function createExportHandler(options: ExportHandlerOptions): ExportHandler {
  const core = createExportCore(options);
  const handler: ExportHandler = async (request) => {
    // Duck-typed, not `instanceof Request`: hosts may run another realm's or a polyfill's Request class.
    // Each member is read once, so a getter cannot answer differently the second time.
    let url: unknown;
    let method: unknown;
    let headers: { get?: unknown } | undefined;
    let signal: AbortSignal | undefined;
    try {
      const r = request as Partial<Record<'url' | 'method' | 'headers' | 'signal', unknown>> | null | undefined;
      if (typeof r === 'object' && r !== null) {
        ({ url, method, headers } = r as { url: unknown; method: unknown; headers: { get?: unknown } | undefined });
      }
    } catch {
      url = undefined;
    }
    // Only a data source other than the in-memory one has a use for the client's signal; a look-alike
    // Request without a readable one is served without it.
    if (core.wantsSignal) signal = readSignal(request);
    const get = typeof headers === 'object' && headers !== null ? headers.get : undefined;
    if (typeof url !== 'string' || typeof method !== 'string' || typeof get !== 'function') {
      throw new InvalidArgumentError('request', 'must be a fetch Request');
    }
    const head = method === 'HEAD';
    const header = (name: string): string | undefined => {
      // A real Headers object gives a string or null; a look-alike's other answers count as absent.
      let value: unknown;
      try {
        value = get.call(headers, name);
      } catch {
        value = undefined;
      }
      return typeof value === 'string' ? value : undefined;
    };
    let prepared: PreparedResponse;
    try {
      const parsed = new URL(url);
      prepared = await core.handle({
        method,
        pathname: parsed.pathname,
        search: parsed.search,
        header,
        remoteAddress: undefined,
        signal,
        origin: () => parsed.origin,
        readBody: (maxBytes) => readRequestBody(request, maxBytes),
      });
    } catch {
      // handle() never rejects; a Request that is not a real one (a URL that does not parse) can land here.
      prepared = lastResortResponse();
    }
    try {
      // Streamed bodies and compression (output/fetch-body.ts); a string body to a request without
      // Accept-Encoding is written here as before.
      const acceptEncoding = header('accept-encoding');
      if (needsFetchBody(prepared, acceptEncoding)) return await toFetchResponse(prepared, head, acceptEncoding);
      return toResponse(prepared, head);
    } catch {
      return toResponse(lastResortResponse(), head);
    }
  };
  Object.defineProperty(handler, EXPORT_CORE, { value: core });
  return handler;
}

/** The request's `signal` when it is an `AbortSignal`, else `undefined` (never a throw). */
function readSignal(request: unknown): AbortSignal | undefined {
  try {
    const signal: unknown = (request as { signal?: unknown } | null)?.signal;
    return signal instanceof AbortSignal ? signal : undefined;
  } catch {
    return undefined;
  }
}

/** The body of a fetch `Request` as UTF-8 text, or `undefined` past `maxBytes` (read no further). */
async function readRequestBody(request: Request, maxBytes: number): Promise<string | undefined> {
  const body = request.body;
  if (body === null || body === undefined) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** A `Response` of a prepared answer, with `Content-Length`; no body for HEAD. */
function toResponse(prepared: PreparedResponse, head: boolean): Response {
  const bytes = ENCODER.encode(prepared.body as string);
  const headers = new Headers(prepared.headers);
  headers.set('content-length', String(bytes.byteLength));
  return new Response(head ? null : bytes, { status: prepared.status, headers });
}
