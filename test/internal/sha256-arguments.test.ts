import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, sha256 } from '../../src/index.js';

describe('sha256', () => {
  it.each([undefined, 'abc', [1, 2], new ArrayBuffer(2)])('should throw InvalidArgumentError for data %s', (data) => {
    expect(() => sha256(data as never)).toThrow(InvalidArgumentError);
  });
});
