/**
 * `hasText` (src/internal/text.ts) answers as JavaScript's `\S` does, its printable-ASCII first-character shortcut
 * included: the formats leave out, and the check refuses, exactly the text that is empty or white space only.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasText } from '../../src/internal/text.js';
import { runs } from '../support/runs.js';

describe('hasText', () => {
  it('should see text in any string holding a character that is not white space, whatever comes first', () => {
    for (const [value, expected] of [
      [undefined, false],
      ['', false],
      [' ', false],
      ['\u3000\t\r\n\uFEFF', false],
      ['a', true],
      [' a', true],
      ['~', true],
      ['\u007F', true],
      ['\u00A0x', true],
      ['é', true],
    ] as const) {
      expect(hasText(value), JSON.stringify(value)).toBe(expected);
    }
  });

  it('should answer as /\\S/ (property)', () => {
    const unit = fc.constantFrom(' ', '\t', '\n', '\u00A0', '\u2028', '\u3000', '\uFEFF', '\u001F', '!', '~', 'a', '\u007F', 'é', '😀');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 8 }), (s) => {
        expect(hasText(s)).toBe(/\S/.test(s));
      }),
      { numRuns: runs(500) },
    );
  });
});
