import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs helper of the benchmarks, without declarations
import { readSummary } from '../../bench/support/summary.mjs';

type Read = (line: string) => { figure: string; value: number; target: string; met: boolean | undefined } | undefined;
const read = readSummary as Read;

describe('readSummary', () => {
  it('should read a headline figure and whether it meets its target, in either notation', () => {
    expect(read('SUMMARY\tadapter / bare\t0.70\t≥ 0.75×')).toEqual({ figure: 'adapter / bare', value: 0.7, target: '≥ 0.75×', met: false });
    expect(read('SUMMARY\tadapter / bare\t0.75\t>= 0.75')?.met).toBe(true);
    expect(read('SUMMARY\tBundle / JSON.stringify\t2.01\t≤ 2.0×')?.met).toBe(false);
    expect(read('SUMMARY\tloop hold (ms)\t12.00\t<= 50 ms')?.met).toBe(true);
  });

  it('should leave a figure without a comparison unjudged, and pass every other line through', () => {
    expect(read('SUMMARY\tCPU per request (µs)\t9.10\t—')?.met).toBeUndefined();
    expect(read('exportHl7Note 0.70')).toBeUndefined();
    expect(read(' SUMMARY\tx\t1\t≥ 1')).toBeUndefined();
  });
});
