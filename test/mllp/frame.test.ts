/**
 * MLLP framing: the frame writer and the streaming reader. The central property: whatever the split of the
 * byte stream into chunks, the reader gives the same frames, equal to the messages framed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMllpFrameReader, encodeMllpFrame, isMllpError } from '../../src/mllp/index.js';
import { runs } from '../support/runs.js';

/** Message bytes: anything but the two framing bytes (which encodeMllpFrame refuses). */
const body = fc.uint8Array({ minLength: 0, maxLength: 300 }).map((b) => b.map((x) => (x === 0x0b || x === 0x1c ? 0x41 : x)));
/** What may come between frames: nothing, CR, LF or CRLF. */
const gap = fc.constantFrom('', '\r', '\n', '\r\n');

/** Split `bytes` at the given cut points (sorted, deduplicated). */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(at, p));
    at = p;
  }
  chunks.push(bytes.subarray(at));
  return chunks;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

function readAll(chunks: readonly Uint8Array[], maxFrameBytes?: number): Uint8Array[] {
  const reader = createMllpFrameReader({ maxFrameBytes });
  // Copies handed to the reader are overwritten after the call: the reader must not keep views of them.
  return chunks.flatMap((c) => {
    const copy = Uint8Array.from(c);
    const frames = reader.push(copy).map((f) => Uint8Array.from(f));
    copy.fill(0x58);
    return frames;
  });
}

describe('encodeMllpFrame', () => {
  it('should frame the bytes unaltered between 0x0B and 0x1C 0x0D', () => {
    expect([...encodeMllpFrame(new TextEncoder().encode('MSH|A\r'))]).toEqual([0x0b, 0x4d, 0x53, 0x48, 0x7c, 0x41, 0x0d, 0x1c, 0x0d]);
  });

  it('should refuse bytes holding a framing byte', () => {
    for (const b of [0x0b, 0x1c]) expect(() => encodeMllpFrame(Uint8Array.of(0x41, b))).toThrow(expect.objectContaining({ code: 'invalid-message' }));
  });
});

describe('createMllpFrameReader', () => {
  it('should give the same frames whatever the split of the stream into chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(body, gap), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 40 }), (messages, cuts) => {
        const stream = concat(messages.flatMap(([b, g]) => [encodeMllpFrame(b), new TextEncoder().encode(g)]));
        const frames = readAll(split(stream, cuts));
        expect(frames).toEqual(messages.map(([b]) => b));
      }),
      { numRuns: runs(300) },
    );
  });

  it('should read a stream one byte at a time', () => {
    const stream = concat([encodeMllpFrame(Uint8Array.of(1, 2, 3)), encodeMllpFrame(Uint8Array.of()), encodeMllpFrame(Uint8Array.of(0x0d, 0x0a))]);
    expect(readAll(split(stream, [...stream.keys()]))).toEqual([Uint8Array.of(1, 2, 3), Uint8Array.of(), Uint8Array.of(0x0d, 0x0a)]);
  });

  it('should refuse any frame larger than the limit, wherever the stream is split', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 40 }), fc.array(fc.nat(), { maxLength: 10 }), (max, extra, cuts) => {
        const stream = encodeMllpFrame(new Uint8Array(max + extra).fill(0x41));
        let error: unknown;
        try {
          readAll(split(stream, cuts), max);
        } catch (e) {
          error = e;
        }
        expect(isMllpError(error, 'frame-too-large')).toBe(true);
        // At the limit exactly, the frame is read.
        expect(readAll(split(encodeMllpFrame(new Uint8Array(max).fill(0x41)), cuts), max)).toHaveLength(1);
      }),
      { numRuns: runs(100) },
    );
  });

  it.each([
    ['a byte outside a frame', [0x41]],
    ['a start block inside a frame', [0x0b, 0x41, 0x0b]],
    ['an end block without its carriage return', [0x0b, 0x41, 0x1c, 0x41]],
  ])('should refuse %s, then every later chunk', (_name, bytes) => {
    const reader = createMllpFrameReader();
    expect(() => reader.push(Uint8Array.from(bytes))).toThrow(expect.objectContaining({ code: 'frame-invalid' }));
    expect(() => reader.push(encodeMllpFrame(Uint8Array.of(0x41)))).toThrow(expect.objectContaining({ code: 'frame-invalid' }));
  });

  it('should never throw anything but an MllpError on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 50 }), { maxLength: 10 }), (chunks) => {
        const reader = createMllpFrameReader({ maxFrameBytes: 64 });
        try {
          for (const c of chunks) reader.push(c);
        } catch (error) {
          expect(isMllpError(error)).toBe(true);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('should tell whether a frame is open', () => {
    const reader = createMllpFrameReader();
    reader.push(Uint8Array.of(0x0b, 0x41));
    expect(reader.inFrame).toBe(true);
    reader.push(Uint8Array.of(0x1c, 0x0d));
    expect(reader.inFrame).toBe(false);
  });

  it('should refuse a limit that is not a positive integer', () => {
    for (const maxFrameBytes of [0, -1, 1.5, Number.NaN]) expect(() => createMllpFrameReader({ maxFrameBytes })).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
  });
});
