/// <reference types="node" />
/**
 * The `node:http` listener: `toNodeListener(handler or options)` → `(req, res)` for `http.createServer`,
 * `https.createServer` and Express (`app.use(listener)`). Type imports only, so `chart-export/http` still
 * loads on runtimes without Node's modules.
 */
// Structural stand-ins for Node's classes (node-types.ts), so the published types import nothing from node:.
import type { NodeRequestLike as IncomingMessage, NodeResponseLike as ServerResponse } from './node-types.js';
import type { ExportHandler, ExportHandlerOptions } from './handler-options.js';
import { EXPORT_CORE, createExportCore, type ExportCore, type IncomingCall } from './pipeline.js';
import type { ClientWatch } from './data-deadline.js';
import { lastResortResponse, type PreparedResponse } from './internal/responses.js';
import { writeNodeBody } from './output/node-body.js';
import { isStreamed } from './output/streamed-body.js';

/** A `node:http` request listener; also an Express middleware (it always answers, never calls `next`). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Paths made of plain segments, which the WHATWG URL parser leaves unchanged. */
const PLAIN_PATH_RE = /^(?:\/[A-Za-z0-9_~-]+)+$/;
/** Query characters the WHATWG URL parser leaves unchanged for http(s) URLs. */
const PLAIN_QUERY_RE = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;

/**
 * Split a request target into the WHATWG pathname and search, as `new URL(request.url)` gives them on the
 * fetch path, so both adapters answer identically. Plain targets (the common case) skip the URL parser.
 */
export function splitRequestTarget(target: string): { pathname: string; search: string } {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  if (PLAIN_PATH_RE.test(path) && PLAIN_QUERY_RE.test(query)) {
    return { pathname: path, search: query === '' ? '' : `?${query}` };
  }
  try {
    // Origin-form targets ('/path?query') are resolved on a dummy origin; absolute-form ones parse as they are.
    const url = new URL(target.startsWith('/') ? `http://localhost${target}` : target);
    return { pathname: url.pathname, search: url.search };
  } catch {
    return { pathname: '', search: '' };
  }
}

/** A `Host` value: a DNS name, IPv4 or bracketed IPv6 address, and an optional port. */
const HOST_RE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The request's origin from its `Host` header (`https:` on a TLS socket), or `undefined` when it is not a valid host. */
function requestOrigin(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (typeof host !== 'string' || !HOST_RE.test(host)) return undefined;
  return `${req.socket?.encrypted === true ? 'https' : 'http'}://${host.toLowerCase()}`;
}

function writePrepared(res: ServerResponse, prepared: PreparedResponse, head: boolean, acceptEncoding?: string): void {
  // The client went away (or something else answered): nothing to write, nothing to throw.
  if (res.destroyed || res.writableEnded) {
    if (isStreamed(prepared.body)) prepared.body.cancel();
    return;
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  // Streamed bodies and compression (output/node-body.ts); a string body to a request without Accept-Encoding
  // is written below as before.
  if (isStreamed(prepared.body) || acceptEncoding !== undefined) {
    writeNodeBody(res, prepared, head, acceptEncoding, (plain) => writePrepared(res, plain, head)).catch(() => writeFailure(res));
    return;
  }
  // One flat [name, value, …] list: node:http writes it as it is, without the per-header object walk.
  const list: string[] = [];
  const headers = prepared.headers;
  for (const name in headers) list.push(name, headers[name] as string);
  list.push('content-length', String(Buffer.byteLength(prepared.body as string)));
  res.writeHead(prepared.status, list);
  if (head) res.end();
  else res.end(prepared.body);
}

/** The body of a Node request as UTF-8 text, or `undefined` past `maxBytes`. */
function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk) => {
      size += chunk.byteLength;
      if (size > maxBytes) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The last-resort answer: a documented 500 (problem+json with a new request id), when nothing else can answer. */
function writeFailure(res: ServerResponse): void {
  if (res.destroyed || res.writableEnded) return;
  if (res.headersSent) {
    res.end();
    return;
  }
  writePrepared(res, lastResortResponse(), false);
}

/** Whether the client went away (the connection closed before the response was written): one `close` listener. */
function clientWatch(res: ServerResponse): ClientWatch {
  let gone = false;
  let subscriber: (() => void) | undefined;
  res.on('close', () => {
    if (res.writableFinished) return;
    gone = true;
    const listener = subscriber;
    subscriber = undefined;
    listener?.();
  });
  return {
    get gone() {
      return gone;
    },
    subscribe(listener) {
      subscriber = listener;
      return () => {
        if (subscriber === listener) subscriber = undefined;
      };
    },
  };
}

/**
 * One request as the pipeline sees it (`IncomingCall`), and its answer once known. A class, not an object of
 * closures: its methods live on the prototype, so a request allocates one object here instead of five closures.
 * `header` reads `this`: callers that hand it on wrap it (access.ts, bulk-requests.ts).
 */
class NodeCall implements IncomingCall {
  readonly method: string;
  readonly pathname: string;
  readonly search: string;
  readonly remoteAddress: string | undefined;
  readonly clientGone: ClientWatch | undefined;
  /** The answer to write, once known. */
  answer: PreparedResponse | undefined = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    wantsSignal: boolean,
  ) {
    this.method = req.method ?? 'GET';
    const { pathname, search } = splitRequestTarget(req.url ?? '/');
    this.pathname = pathname;
    this.search = search;
    this.remoteAddress = req.socket?.remoteAddress;
    this.clientGone = wantsSignal ? clientWatch(res) : undefined;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  origin(): string | undefined {
    return requestOrigin(this.req);
  }

  readBody(maxBytes: number): Promise<string | undefined> {
    return readNodeBody(this.req, maxBytes);
  }

  /** Write the answer (or the last-resort 500 when there is none, or when writing it throws). */
  write(): void {
    const { res, answer } = this;
    if (answer === undefined) {
      writeFailure(res);
      return;
    }
    try {
      writePrepared(res, answer, this.method === 'HEAD', this.header('accept-encoding'));
    } catch {
      writeFailure(res);
    }
  }
}

/**
 * A queue of answers to write right after the current turn of the event loop (`setImmediate`), all together.
 * Under load one turn reads several requests; writing their answers in one burst after the turn, rather than
 * one between each two reads, lets the peer take them in one wake-up: on loopback and on a busy host that
 * saves more kernel time per response than the adapter's own JavaScript costs. Bytes, order per connection
 * and every check are unchanged; an answer waits at most for the rest of the turn.
 */
function createWriteBatch(): (call: NodeCall) => void {
  let queue: NodeCall[] = [];
  const flush = (): void => {
    const calls = queue;
    queue = [];
    for (const call of calls) {
      try {
        call.write();
      } catch {
        // Each write answers its own failure (writeFailure); one that still throws must not stop the others.
      }
    }
  };
  return (call) => {
    if (queue.push(call) === 1) setImmediate(flush);
  };
}

function fastListener(core: ExportCore): NodeListener {
  const soon = createWriteBatch();
  const wantsSignal = core.wantsSignal;
  return (req, res) => {
    const call = new NodeCall(req, res, wantsSignal);
    // Every answer, ready now or later, joins the writes of its turn (createWriteBatch); a rejection (no answer)
    // is written as the last-resort 500.
    const answered = core.handleNow(call);
    if (answered instanceof Promise) {
      answered.then(
        (prepared) => {
          call.answer = prepared;
          soon(call);
        },
        () => soon(call),
      );
    } else {
      call.answer = answered;
      soon(call);
    }
  };
}

/**
 * The fixed origin of the URLs handed to handlers other than ours. The `Host` header never takes part: pasted
 * in front of the target it could change the path, the query or add credentials (`Host: x/route?id=…#` with
 * target `/nope` would name a route), and a client chooses it freely. A handler that needs the host reads
 * the `host` header.
 */
const GENERIC_ORIGIN = 'http://localhost';

/** A `Request` from a Node request, for handlers other than ours. */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  // The path and query exactly as the fast path sees them, on the fixed origin. Concatenated, not resolved
  // against the origin: a pathname such as `//x/route` must stay a path, not become a host.
  const { pathname, search } = splitRequestTarget(req.url ?? '/');
  const url = `${GENERIC_ORIGIN}${pathname === '' ? '/' : pathname}${search}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    try {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, value);
    } catch {
      // A header value Headers refuses is dropped, as a fetch runtime would never deliver it.
    }
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = new ReadableStream<Uint8Array>({
      start(controller) {
        req.on('data', (chunk: Uint8Array) => controller.enqueue(new Uint8Array(chunk)));
        req.on('end', () => controller.close());
        req.on('error', (error) => controller.error(error));
      },
    });
    init.duplex = 'half';
  }
  return new Request(url, init);
}

async function writeResponse(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  if (res.destroyed || res.writableEnded) return;
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (head || response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (res.destroyed) return;
    res.write(chunk);
  }
  res.end();
}

function genericListener(handler: ExportHandler): NodeListener {
  return (req, res) => {
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    let request: Request;
    try {
      request = toRequest(req, aborter.signal);
    } catch {
      writeFailure(res);
      return;
    }
    handler(request)
      .then((response) => writeResponse(res, response, req.method === 'HEAD'))
      .catch(() => writeFailure(res));
  };
}

/**
 * Turn an export handler, or handler options, into a `node:http` request listener. Given our own handler
 * (from {@link createExportHandler}) or options, it calls the shared core directly instead of building a
 * `Request` and reading a `Response`, which is faster and gives identical status, headers and bytes. Any other
 * fetch-style handler works too, through `Request`/`Response`.
 *
 * The listener always ends the response; when the client has gone away it writes nothing and throws nothing.
 * When the connection closes before the response is written, the `AbortSignal` given to the data-source
 * calls fires (over a data source other than the in-memory one), so the host's query can stop.
 * It never calls Express's `next`: mount it on the path it should own, e.g. `app.use('/export', listener)`
 * (Express strips the mount path from `req.url`).
 *
 * @param handlerOrOptions - a handler from `createExportHandler`, another `(Request) => Promise<Response>`
 *   handler, or the options of `createExportHandler`
 * @returns `(req, res) => void` for `http.createServer(listener)` or `app.use(listener)`
 * @throws {InvalidArgumentError} when given options that `createExportHandler` refuses
 * @example
 * import { createServer } from 'node:http';
 * createServer(toNodeListener({ dataSource, keyStore })).listen(8080, '127.0.0.1');
 */
export function toNodeListener(handlerOrOptions: ExportHandler | ExportHandlerOptions): NodeListener {
  if (typeof handlerOrOptions === 'function') {
    const core = (handlerOrOptions as ExportHandler & { [EXPORT_CORE]?: ExportCore })[EXPORT_CORE];
    return core === undefined ? genericListener(handlerOrOptions) : fastListener(core);
  }
  return fastListener(createExportCore(handlerOrOptions));
}
