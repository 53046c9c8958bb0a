/**
 * The fetch handler's writing of bodies that are streamed or compressed (a plain string body without coding is
 * written by handler.ts as before). Compression uses the web `CompressionStream` (gzip everywhere it exists;
 * `br` where the runtime supports it).
 */
import type { PreparedResponse } from '../internal/responses.js';
import { addVary, decideCoding, type ContentCoding } from './content-coding.js';
import { isStreamed, type StreamedBody } from './streamed-body.js';

const ENCODER = new TextEncoder();

let webCodings: readonly ContentCoding[] | undefined;

/** The codings this runtime's `CompressionStream` has, read once. */
export function fetchCodings(): readonly ContentCoding[] {
  if (webCodings !== undefined) return webCodings;
  const out: ContentCoding[] = [];
  for (const c of ['br', 'gzip'] as const) {
    try {
      if (typeof CompressionStream === 'function') {
        new CompressionStream(c as CompressionFormat);
        out.push(c);
      }
    } catch {
      // Not supported here (most runtimes have no `br` in CompressionStream yet).
    }
  }
  webCodings = out;
  return out;
}

/** A `CompressionStream` as a byte-to-byte pair (its writable side takes any BufferSource, bytes included). */
function compressor(coding: ContentCoding): ReadableWritablePair<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>> {
  return new CompressionStream(coding as CompressionFormat) as unknown as ReadableWritablePair<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>;
}

/** A byte stream of a streamed body; a failure of the body errors the stream (the runtime aborts the response). */
function byteStream(body: StreamedBody): ReadableStream<Uint8Array<ArrayBuffer>> {
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(ENCODER.encode(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      void iterator.return?.();
    },
  });
}

/**
 * Whether `prepared` needs this module: a streamed body, or a body the request's `Accept-Encoding` may
 * compress. Cheap: false for every request without `Accept-Encoding` and a string body.
 */
export function needsFetchBody(prepared: PreparedResponse, acceptEncoding: string | undefined): boolean {
  return isStreamed(prepared.body) || acceptEncoding !== undefined;
}

/**
 * The `Response` of a streamed or compressible answer. A streamed body goes chunked (no `Content-Length`); a
 * compressed string body gets the compressed length; HEAD gets the headers GET would get and no body.
 * @param prepared - the pipeline's answer
 * @param head - whether the request is HEAD
 * @param acceptEncoding - the request's `Accept-Encoding`
 */
export async function toFetchResponse(prepared: PreparedResponse, head: boolean, acceptEncoding: string | undefined): Promise<Response> {
  const headers = { ...prepared.headers };
  const body = prepared.body;
  const streamed = isStreamed(body);
  const decision = decideCoding(acceptEncoding, headers['content-type'], streamed ? Number.POSITIVE_INFINITY : body.length, fetchCodings());
  if (decision.vary) addVary(headers);
  if (decision.coding !== undefined) headers['content-encoding'] = decision.coding;
  if (streamed) {
    if (head) {
      body.cancel();
      return new Response(null, { status: prepared.status, headers });
    }
    const bytes = byteStream(body);
    const out = decision.coding === undefined ? bytes : bytes.pipeThrough(compressor(decision.coding));
    return new Response(out, { status: prepared.status, headers });
  }
  let bytes: Uint8Array<ArrayBuffer> = ENCODER.encode(body);
  if (decision.coding !== undefined) {
    const compressed = new Blob([bytes]).stream().pipeThrough(compressor(decision.coding));
    bytes = new Uint8Array(await new Response(compressed).arrayBuffer());
  }
  headers['content-length'] = String(bytes.byteLength);
  return new Response(head ? null : bytes, { status: prepared.status, headers });
}
