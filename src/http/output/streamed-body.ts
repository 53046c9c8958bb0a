/**
 * Streamed bodies, handled once between the route's renderer and the adapters' writers. A renderer may give
 * its body as chunks (`AsyncIterable<string>`, e.g. `streamFhirPatientBundle`) instead of one string. The
 * pipeline then reads chunks until it holds {@link STREAM_MIN_CHARS} characters, inside its error handling:
 * - the chunks end before that: the body is their joined text, answered exactly as a string body (one write,
 *   `Content-Length`), so small bodies cost what they cost before;
 * - a chunk fails before that: the failure gets the answer it gets today (an OperationOutcome 500 …), as no
 *   byte has left;
 * - otherwise: a {@link StreamedBody}, which the writers send chunked as it is produced; a failure after that
 *   ends the connection without finishing the body (a client sees a transfer error, never a malformed body
 *   that looks complete), and is reported to `onError`.
 */

/** Characters a streamed body must reach before it is sent as a stream rather than one write. */
export const STREAM_MIN_CHARS = 256 * 1024;

/** A body a renderer gives: the whole text, or its chunks. */
export type RenderedBody = string | AsyncIterable<string>;

/** A body large enough to stream: the chunks read so far, then the rest as produced. Iterate once. */
export interface StreamedBody extends AsyncIterable<string> {
  /** Stop producing (HEAD, or the client went away): ends the underlying generator. */
  cancel(): void;
}

/** A body as the writers get it. */
export type ResponseBody = string | StreamedBody;

/** Whether a body is a stream (else it is the whole text). */
export function isStreamed(body: ResponseBody): body is StreamedBody {
  return typeof body !== 'string';
}

/**
 * Read a rendered body's chunks until `min` characters or the end.
 * @param chunks - the renderer's chunks
 * @param onLateError - called with a failure after the first chunk has been handed on (for `onError`)
 * @param min - the threshold (default {@link STREAM_MIN_CHARS})
 * @returns the whole text when shorter than `min`, else a {@link StreamedBody}
 * @throws whatever the chunks throw before `min` characters (the pipeline answers it as today)
 */
export async function settleBody(chunks: AsyncIterable<string>, onLateError: (error: unknown) => void, min: number = STREAM_MIN_CHARS): Promise<ResponseBody> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: string[] = [];
  let size = 0;
  while (size < min) {
    const next = await iterator.next();
    if (next.done === true) return head.join('');
    head.push(next.value);
    size += next.value.length;
  }
  let cancelled = false;
  const body: StreamedBody = {
    cancel() {
      if (cancelled) return;
      cancelled = true;
      // A generator's return() settles at once; its rejection (none for ours) has nobody to tell.
      iterator.return?.().catch(() => undefined);
    },
    async *[Symbol.asyncIterator]() {
      let finished = false;
      try {
        const first = head.join('');
        head.length = 0;
        yield first;
        for (;;) {
          const next = await iterator.next();
          if (next.done === true) {
            finished = true;
            return;
          }
          yield next.value;
        }
      } catch (error) {
        finished = true;
        onLateError(error);
        throw error;
      } finally {
        // The writer stopped early (HEAD, the client went away): stop the producer too.
        if (!finished) body.cancel();
      }
    },
  };
  return body;
}
