/// <reference types="node" />
/**
 * MLLP framing (HL7 v2 Minimal Lower Layer Protocol, release 2): each message travels as a block
 * `<VT> message bytes <FS><CR>` (`0x0B` … `0x1C 0x0D`). The writer frames bytes without changing them; the
 * reader finds frames in a byte stream whatever the TCP chunking, and bounds their size, since the peer is
 * not trusted.
 * @see HL7 v2.5.1 Implementation Guide, appendix C (Minimal Lower Layer Protocol)
 */
import { Buffer } from 'node:buffer';
import { MllpError } from './errors.js';

/** Start block: vertical tab. */
export const MLLP_START_BLOCK = 0x0b;
/** End block: file separator, followed by {@link MLLP_CARRIAGE_RETURN}. */
export const MLLP_END_BLOCK = 0x1c;
/** The carriage return after the end block. */
export const MLLP_CARRIAGE_RETURN = 0x0d;
/** Default largest frame the reader accepts (the message bytes, without framing): 1 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;

const LINE_FEED = 0x0a;

/**
 * Frame message bytes for sending: `0x0B`, the bytes as they are, `0x1C 0x0D`.
 *
 * @param body - the message bytes (already encoded)
 * @returns a new buffer holding the frame
 * @throws {MllpError} `invalid-message` when the bytes hold `0x0B` or `0x1C`, which would end or restart the
 *   frame; `invalid-argument` when `body` is not a `Uint8Array`
 * @example encodeMllpFrame(Buffer.from('MSH|^~\\&|…\r')) // <Buffer 0b 4d 53 48 … 0d 1c 0d>
 */
export function encodeMllpFrame(body: Uint8Array): Uint8Array {
  if (!((body as unknown) instanceof Uint8Array)) throw new MllpError('invalid-argument', 'Invalid body: must be a Uint8Array');
  if (body.indexOf(MLLP_START_BLOCK) !== -1 || body.indexOf(MLLP_END_BLOCK) !== -1) {
    throw new MllpError('invalid-message', 'The message holds an MLLP framing byte (0x0B or 0x1C): it cannot be framed');
  }
  const frame = Buffer.allocUnsafe(body.length + 3);
  frame[0] = MLLP_START_BLOCK;
  frame.set(body, 1);
  frame[body.length + 1] = MLLP_END_BLOCK;
  frame[body.length + 2] = MLLP_CARRIAGE_RETURN;
  return frame;
}

/** Options of {@link createMllpFrameReader}. */
export interface MllpFrameReaderOptions {
  /** Largest frame accepted, in bytes of message (without framing). Default {@link DEFAULT_MAX_FRAME_BYTES}. */
  readonly maxFrameBytes?: number | undefined;
}

/** A streaming MLLP frame reader, as {@link createMllpFrameReader} returns it. */
export interface MllpFrameReader {
  /**
   * Read the next chunk of the stream.
   * @param chunk - bytes as they arrived (any split of the stream)
   * @returns the message bytes of every frame completed by this chunk, in order (often none); a frame may be a
   *   view of `chunk`
   * @throws {MllpError} `frame-invalid` (a byte outside a frame other than CR or LF, a start block inside a
   *   frame, an end block not followed by CR) or `frame-too-large`; the reader then refuses every later chunk
   */
  push(chunk: Uint8Array): Uint8Array[];
  /** True while a frame has begun and not ended (bytes are held). */
  readonly inFrame: boolean;
}

/**
 * Create a streaming reader of MLLP frames. Between frames, CR and LF are skipped (some peers end a block with
 * `0x1C 0x0D 0x0A`); any other byte there is a protocol error. A frame whose message grows past
 * `maxFrameBytes` is refused as soon as that many bytes have come, without holding more.
 *
 * @param options - the size limit
 * @returns a reader; feed it every chunk in order
 * @throws {MllpError} `invalid-argument` when `options` is not an object or `maxFrameBytes` not a positive integer
 * @example const reader = createMllpFrameReader(); socket.on('data', (c) => reader.push(c).forEach(onFrame));
 */
export function createMllpFrameReader(options: MllpFrameReaderOptions = {}): MllpFrameReader {
  if (typeof options !== 'object' || options === null) throw new MllpError('invalid-argument', 'Invalid options: must be an object');
  const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (!Number.isSafeInteger(max) || max < 1) throw new MllpError('invalid-argument', 'Invalid maxFrameBytes: must be a positive integer');
  /** outside: between frames; inside: after VT; end: after FS, expecting CR; failed: after an error. */
  let state: 'outside' | 'inside' | 'end' | 'failed' = 'outside';
  let parts: Uint8Array[] = [];
  /** How many of `parts` are copies owned by the reader (the rest are views of the current chunk). */
  let owned = 0;
  let size = 0;

  const fail = (code: 'frame-invalid' | 'frame-too-large', message: string): never => {
    state = 'failed';
    parts = [];
    throw new MllpError(code, message);
  };
  const take = (chunk: Uint8Array, from: number, to: number): void => {
    if (to === from) return;
    size += to - from;
    if (size > max) fail('frame-too-large', `The peer sent a frame larger than ${max} bytes`);
    parts.push(chunk.subarray(from, to));
  };
  const finish = (): Uint8Array => {
    const body = parts.length === 1 ? (parts[0] as Uint8Array) : concat(parts, size);
    parts = [];
    owned = 0;
    size = 0;
    return body;
  };

  function push(chunk: Uint8Array): Uint8Array[] {
    if (state === 'failed') throw new MllpError('frame-invalid', 'The MLLP stream is no longer readable after a framing error');
    const frames: Uint8Array[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (state === 'outside') {
        const byte = chunk[i] as number;
        if (byte === MLLP_START_BLOCK) state = 'inside';
        else if (byte !== MLLP_CARRIAGE_RETURN && byte !== LINE_FEED) fail('frame-invalid', `The peer sent byte 0x${byte.toString(16).padStart(2, '0')} outside an MLLP frame`);
        i++;
      } else if (state === 'inside') {
        const end = chunk.indexOf(MLLP_END_BLOCK, i);
        const stop = end === -1 ? chunk.length : end;
        const restart = chunk.indexOf(MLLP_START_BLOCK, i);
        if (restart !== -1 && restart < stop) fail('frame-invalid', 'The peer sent a start block (0x0B) inside an MLLP frame');
        take(chunk, i, stop);
        if (end === -1) break;
        state = 'end';
        i = end + 1;
      } else {
        if (chunk[i] !== MLLP_CARRIAGE_RETURN) fail('frame-invalid', 'The peer sent an end block (0x1C) not followed by a carriage return');
        frames.push(finish());
        state = 'outside';
        i++;
      }
    }
    // Parts held past this call are views of the caller's chunk: copy them (once) so the caller may reuse it.
    for (; owned < parts.length; owned++) parts[owned] = (parts[owned] as Uint8Array).slice();
    return frames;
  }

  return {
    push,
    get inFrame() {
      return state === 'inside' || state === 'end';
    },
  };
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
