import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { sha256 } from '../../src/internal/sha256.js';

describe('sha256', () => {
  it.each([undefined, 'abc', [1, 2], new ArrayBuffer(2)])('should throw InvalidArgumentError for data %s', (data) => {
    expect(() => sha256(data as never)).toThrow(InvalidArgumentError);
  });
});
