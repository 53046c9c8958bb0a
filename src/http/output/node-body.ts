/**
 * The Node listener's writing of bodies that are streamed or compressed (a plain string body without coding is
 * written by node.ts as before). Compression uses `node:zlib`, reached through `process.getBuiltinModule`
 * (Node ≥ 20.16), not an import, so `chart-export/http` still loads where there is no `node:zlib` (edge
 * runtimes, browsers); where that call is missing, the listener sends every body without coding.
 */
import type { NodeResponseLike as ServerResponse } from '../node-types.js';
import type { PreparedResponse } from '../internal/responses.js';
import { addVary, decideCoding, type ContentCoding } from './content-coding.js';
import { isStreamed, type StreamedBody } from './streamed-body.js';

/** What this module uses of a zlib compression stream. */
interface ZlibStream {
  write(chunk: string): boolean;
  end(): void;
  pause(): void;
  resume(): void;
  destroy(): void;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'drain', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'drain' | 'end' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'end' | 'close', listener: () => void): unknown;
}

type ZlibCallback = (error: Error | null, result: Uint8Array) => void;

/** What this module uses of `node:zlib`. */
interface Zlib {
  gzip(input: string, options: object, callback: ZlibCallback): void;
  brotliCompress(input: string, options: object, callback: ZlibCallback): void;
  createGzip(options?: object): ZlibStream;
  createBrotliCompress(options?: object): ZlibStream;
  readonly constants: { readonly BROTLI_PARAM_QUALITY: number; readonly BROTLI_PARAM_MODE: number; readonly BROTLI_MODE_TEXT: number };
}

/**
 * Brotli's default quality (11) is for static files: at 5 it compresses JSON about as fast as gzip's default
 * level and smaller (bench/compression.bench.mjs).
 */
const BROTLI_QUALITY = 5;

let zlib: Zlib | null | undefined;

/** `node:zlib` when the runtime gives it without an import, else `null`. */
function loadZlib(): Zlib | null {
  if (zlib !== undefined) return zlib;
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    zlib = (proc?.getBuiltinModule?.('node:zlib') as Zlib | undefined) ?? null;
  } catch {
    zlib = null;
  }
  return zlib;
}

/** The codings the Node listener can apply here: `br` and `gzip` with `node:zlib`, none without. */
export function nodeCodings(): readonly ContentCoding[] {
  return loadZlib() === null ? [] : ['br', 'gzip'];
}

function options(z: Zlib, coding: ContentCoding): object {
  return coding === 'br' ? { params: { [z.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [z.constants.BROTLI_PARAM_MODE]: z.constants.BROTLI_MODE_TEXT } } : {};
}

/** Wait until `coder` emits one of `events`, or has closed (then no event ever comes). */
function coderEvent(coder: ZlibStream, event: 'drain' | 'end'): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      coder.off(event, done);
      coder.off('close', done);
      resolve();
    };
    coder.on(event, done);
    coder.on('close', done);
  });
}

/** Wait until `res` may be written again (or has closed). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) {
      resolve();
      return;
    }
    const done = (): void => {
      res.off?.('drain', done);
      res.off?.('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** End a response whose body failed after its first byte: close the connection, never finish the body. */
function abort(res: ServerResponse): void {
  if (typeof res.destroy === 'function') res.destroy();
  else if (!res.writableEnded) res.end();
}

/** Write a streamed body as it is produced, through `zlib` when coded, with back-pressure. */
async function pipeStream(res: ServerResponse, body: StreamedBody, coder: ZlibStream | undefined): Promise<void> {
  if (coder !== undefined) {
    coder.on('data', (chunk) => {
      // The client went away: the rest is dropped (the loop below stops at its next chunk).
      if (res.destroyed) return;
      if (res.write(chunk) === false) {
        coder.pause();
        void drained(res).then(() => coder.resume());
      }
    });
    coder.on('error', () => abort(res));
    // A client gone while the loop waits for the coder: closing the coder ends that wait.
    res.on('close', () => {
      if (!res.writableFinished) coder.destroy();
    });
  }
  const ended = coder === undefined ? undefined : coderEvent(coder, 'end');
  for await (const chunk of body) {
    // The client went away: leaving the loop stops the producer (StreamedBody's cancel).
    if (res.destroyed) {
      coder?.destroy();
      return;
    }
    if (coder === undefined) {
      if (res.write(chunk) === false) await drained(res);
    } else if (!coder.write(chunk)) {
      await coderEvent(coder, 'drain');
    }
  }
  if (coder !== undefined) {
    coder.end();
    await ended;
  }
  if (!res.destroyed) res.end();
}

/**
 * Write a streamed or compressible answer. A streamed body goes chunked (no `Content-Length`); a compressed
 * string body gets the compressed length; HEAD gets the headers GET would get and no body. A streamed body that
 * fails after its first byte closes the connection.
 * @param res - the response
 * @param prepared - the pipeline's answer
 * @param head - whether the request is HEAD
 * @param acceptEncoding - the request's `Accept-Encoding`
 * @param writePlain - node.ts's writer of a string body without coding (one write, `Content-Length`)
 */
export async function writeNodeBody(
  res: ServerResponse,
  prepared: PreparedResponse,
  head: boolean,
  acceptEncoding: string | undefined,
  writePlain: (prepared: PreparedResponse) => void,
): Promise<void> {
  const headers = { ...prepared.headers };
  const body = prepared.body;
  const streamed = isStreamed(body);
  const z = loadZlib();
  const decision = decideCoding(acceptEncoding, headers['content-type'], streamed ? Number.POSITIVE_INFINITY : body.length, nodeCodings());
  if (decision.vary) addVary(headers);
  const coding = z === null ? undefined : decision.coding;
  if (!streamed && coding === undefined) {
    writePlain({ ...prepared, headers });
    return;
  }
  if (coding !== undefined) headers['content-encoding'] = coding;
  if (!streamed) {
    const compressed = await new Promise<Uint8Array>((resolve, reject) => {
      const done: ZlibCallback = (error, result) => (error === null ? resolve(result) : reject(error));
      if (coding === 'br') (z as Zlib).brotliCompress(body, options(z as Zlib, coding), done);
      else (z as Zlib).gzip(body, options(z as Zlib, 'gzip'), done);
    });
    if (res.destroyed || res.writableEnded) return;
    headers['content-length'] = String(compressed.byteLength);
    res.writeHead(prepared.status, headers);
    res.end(head ? undefined : compressed);
    return;
  }
  res.writeHead(prepared.status, headers);
  if (head) {
    body.cancel();
    res.end();
    return;
  }
  const coder = coding === undefined ? undefined : coding === 'br' ? (z as Zlib).createBrotliCompress(options(z as Zlib, coding)) : (z as Zlib).createGzip();
  try {
    await pipeStream(res, body, coder);
  } catch {
    coder?.destroy();
    abort(res);
  }
}
