/**
 * The parts of Node's `http.IncomingMessage` and `http.ServerResponse` that `toNodeListener` uses, as
 * structural types. Node's classes (and Express's `req` / `res`, which extend them) satisfy them, so
 * `http.createServer(toNodeListener(…))` and `app.use(listener)` type-check as before; and the published
 * declarations of `chart-export/http` import nothing from `node:`, so projects without `@types/node` (Deno,
 * edge runtimes) compile against them with `skipLibCheck: false` and do not get `any` where the listener's
 * types were.
 */
/** What the Node listener reads of a request: Node's `http.IncomingMessage` (or Express's `req`) fits. */
export interface NodeRequestLike {
  /** The request method, e.g. `GET`. */
  readonly method?: string | undefined;
  /** The request target, e.g. `/exportFhirPatient?patientId=pat-0001` (Express: relative to the mount path). */
  readonly url?: string | undefined;
  /** Headers by lowercase name; repeated ones as arrays. The URL is built from the request target alone, on a fixed origin (`host` never routes). */
  readonly headers: {
    /** The `Host` header: passed on as a header only, never used to build the URL. */
    readonly host?: string | undefined;
    readonly [name: string]: string | string[] | undefined;
  };
  /** The connection, for the peer address the directory rate limit may use. */
  readonly socket?:
    | {
        /** The peer's IP address (a reverse proxy's, behind one). */
        readonly remoteAddress?: string | undefined;
        /** True on a TLS connection (`tls.TLSSocket`): Bulk Data URLs built from `Host` then start with `https`. */
        readonly encrypted?: boolean | undefined;
      }
    | null
    | undefined;
  /** Body events, read only when a handler other than the package's own needs the body. */
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  /** The body has been read completely. */
  on(event: 'end', listener: () => void): unknown;
  /** Reading the body failed. */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What the Node listener does with a response: Node's `http.ServerResponse` (or Express's `res`) fits. */
export interface NodeResponseLike {
  /** True once the stream is destroyed (the client went away): the listener then writes nothing. */
  readonly destroyed: boolean;
  /** True once `end()` was called. */
  readonly writableEnded: boolean;
  /** True once the response was flushed completely. */
  readonly writableFinished: boolean;
  /** True once the head was written. */
  readonly headersSent: boolean;
  /** Write the status and headers (an object, or a flat `[name, value, …]` list). */
  writeHead(statusCode: number, headers: { [name: string]: string | string[] } | string[]): unknown;
  /** Write a body chunk. */
  write(chunk: Uint8Array | string): unknown;
  /** End the response, with a last chunk or none. */
  end(chunk?: Uint8Array | string): unknown;
  /** `close`: the response ended or the connection closed. */
  on(event: 'close', listener: () => void): unknown;
  /** The write buffer has room again (a streamed Bulk Data file waits for it). */
  on(event: 'drain', listener: () => void): unknown;
  /** End the connection at once: a streamed body that fails after its first byte is cut, never finished malformed. */
  destroy?(error?: Error): unknown;
}
