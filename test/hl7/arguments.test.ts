/**
 * Regression tests for argument checks found by test/package/api-robustness.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildAdtA31, checkHl7Message, escapeHl7, generateControlId, getHl7Value, InvalidArgumentError, parseHl7Message, unescapeHl7 } from '../../src/index.js';
import { CHART, DIRECTORY } from './fixtures.js';

const MESSAGE = buildAdtA31(CHART, { now: '2026-03-01T15:00:00Z', controlId: 'ADT1', directory: DIRECTORY });

describe('escapeHl7 / unescapeHl7', () => {
  it.each([undefined, null, 42, ['a'], Symbol('s')])('should throw InvalidArgumentError for text %s', (text) => {
    expect(() => escapeHl7(text as never)).toThrow(expect.objectContaining({ argument: 'text' }));
    expect(() => unescapeHl7(text as never)).toThrow(InvalidArgumentError);
  });
});

describe('generateControlId', () => {
  it.each([undefined, 42, '', 'adt', 'ABCDEFGHI', 'A|B'])('should throw InvalidArgumentError for message code %s', (code) => {
    expect(() => generateControlId(code as never)).toThrow(expect.objectContaining({ argument: 'messageCode' }));
  });

  it('should still give 20 characters for a message code', () => {
    expect(generateControlId('ORU')).toMatch(/^ORU[0-9A-Z]{17}$/);
  });
});

describe('getHl7Value', () => {
  const pid = parseHl7Message(MESSAGE).segments[2];

  it('should throw InvalidArgumentError for a segment or numbers of the wrong kind', () => {
    expect(() => getHl7Value(undefined as never, 5)).toThrow(expect.objectContaining({ argument: 'segment' }));
    expect(() => getHl7Value(pid as never, Number.NaN)).toThrow(expect.objectContaining({ argument: 'field' }));
    expect(() => getHl7Value(pid as never, 5, 0)).toThrow(expect.objectContaining({ argument: 'component' }));
    expect(() => getHl7Value({ id: 'PID', raw: '', fields: [[], 7] } as never, 1)).toThrow(InvalidArgumentError);
    expect(() => getHl7Value({ id: 'PID', raw: '', fields: [[], [[[1]]]] } as never, 1)).toThrow(InvalidArgumentError);
  });

  it('should read values and give an empty string for absent ones', () => {
    expect(getHl7Value(pid as never, 5, 1)).toBe("O'Brien");
    expect(getHl7Value(pid as never, 99)).toBe('');
  });
});

describe('checkHl7Message', () => {
  it('should throw InvalidArgumentError for something that is neither text nor a parsed message', () => {
    expect(() => checkHl7Message(undefined as never)).toThrow(expect.objectContaining({ argument: 'message' }));
    expect(() => checkHl7Message({ delimiters: null, segments: [] } as never)).toThrow(expect.objectContaining({ argument: 'message.delimiters' }));
  });

  it('should name the node of an altered parsed message, not crash on it', () => {
    const parsed = structuredClone(parseHl7Message(MESSAGE)) as unknown as { segments: { fields: unknown[] }[] };
    (parsed.segments[2] as { fields: unknown[] }).fields[5] = [[null]];
    expect(() => checkHl7Message(parsed as never)).toThrow(expect.objectContaining({ argument: 'message.segments[2].fields[5]' }));
  });

  it('should still check a parsed message', () => {
    expect(checkHl7Message(parseHl7Message(MESSAGE))).toEqual([]);
  });
});
