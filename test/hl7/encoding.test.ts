import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HL7_DELIMITERS, escapeHl7, InvalidArgumentError, unescapeHl7, type Hl7Delimiters } from '../../src/index.js';
import { arbHostileText, arbLongText, arbText, HOSTILE_FRAGMENTS } from '../arbitraries/index.js';

/** Every kind of string: any code point, any UTF-16 code unit (lone surrogates included), graphemes, ASCII. */
const arbAnyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }),
  // Dense in the characters that matter.
  fc.string({ unit: fc.constantFrom('\\', '|', '^', '~', '&', '\r', '\n', 'E', 'F', 'S', 'T', 'R', 'X', '0', 'D', 'A', '.', 'b', 'r', 'H', 'N', 'é', '😀'), maxLength: 40 }),
  arbHostileText,
  arbText,
);

const CUSTOM: Hl7Delimiters = { field: '!', component: '@', repetition: '*', escape: '$', subcomponent: '%' };
const WITH_TRUNCATION: Hl7Delimiters = { ...DEFAULT_HL7_DELIMITERS, truncation: '#' };

describe('escapeHl7', () => {
  it('should escape each delimiter with its sequence', () => {
    expect(escapeHl7('|')).toBe('\\F\\');
    expect(escapeHl7('^')).toBe('\\S\\');
    expect(escapeHl7('&')).toBe('\\T\\');
    expect(escapeHl7('~')).toBe('\\R\\');
    expect(escapeHl7('\\')).toBe('\\E\\');
  });

  it('should escape the escape character first, so a literal sequence stays literal', () => {
    // The text "\F\" must not come back as "|".
    expect(escapeHl7('\\F\\')).toBe('\\E\\F\\E\\');
    expect(escapeHl7('\\E\\')).toBe('\\E\\E\\E\\');
  });

  it('should write CR and LF as hex escapes', () => {
    expect(escapeHl7('a\rb\nc\r\nd')).toBe('a\\X0D\\b\\X0A\\c\\X0D\\\\X0A\\d');
  });

  it('should return the same string when nothing needs escaping', () => {
    const s = 'Plain text, café ☕ 😀 <b>&amp;</b>'.replace(/&/g, '');
    expect(escapeHl7(s)).toBe(s);
    expect(escapeHl7('')).toBe('');
  });

  it('should use the given delimiters', () => {
    expect(escapeHl7('a!b@c*d$e%f|g^h', CUSTOM)).toBe('a$F$b$S$c$R$d$E$e$T$f|g^h');
  });

  it('should escape a declared truncation character as \\P\\ and never otherwise', () => {
    expect(escapeHl7('a#b', WITH_TRUNCATION)).toBe('a\\P\\b');
    expect(escapeHl7('a#b')).toBe('a#b');
  });

  it('should reject invalid delimiter sets', () => {
    expect(() => escapeHl7('x', { ...DEFAULT_HL7_DELIMITERS, component: '|' })).toThrow(InvalidArgumentError);
    expect(() => escapeHl7('x', { ...DEFAULT_HL7_DELIMITERS, escape: 'E' })).toThrow(InvalidArgumentError);
    expect(() => escapeHl7('x', { ...DEFAULT_HL7_DELIMITERS, field: '||' })).toThrow(InvalidArgumentError);
    expect(() => escapeHl7('x', { ...DEFAULT_HL7_DELIMITERS, repetition: '\n' })).toThrow(InvalidArgumentError);
  });

  it('should leave no raw delimiter, CR or LF in its output (property)', () => {
    fc.assert(
      fc.property(arbAnyString, (s) => {
        expect(escapeHl7(s)).not.toMatch(/[|^~&\r\n]/);
        // Every backslash opens or closes one of the sequences escapeHl7 writes.
        expect(escapeHl7(s).replace(/\\(?:[EFSTR]|X0D|X0A)\\/g, '')).not.toContain('\\');
      }),
      { numRuns: 2000 },
    );
  });

  it('should escape long text (a note) exactly as each character alone, whatever its length (property)', () => {
    // Short and long text are scanned differently; both must equal escaping one character at a time.
    const one: Record<string, string> = { '\\': '\\E\\', '|': '\\F\\', '^': '\\S\\', '&': '\\T\\', '~': '\\R\\', '\r': '\\X0D\\', '\n': '\\X0A\\' };
    const reference = (s: string): string => Array.from(s.split(''), (c) => one[c] ?? c).join('');
    const unit = fc.constantFrom('a', ' ', '\\', '|', '^', '~', '&', '\r', '\n', '\r\n', 'é', '😀', '\ud800', '\\X0D\\');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400, size: 'max' }), (units) => {
        const s = units.join('');
        expect(escapeHl7(s)).toBe(reference(s));
      }),
      { numRuns: 500 },
    );
    for (const n of [126, 127, 128, 129, 300]) {
      for (const s of ['x'.repeat(n) + '\r', 'x'.repeat(n) + '\n', '\r' + 'x'.repeat(n), '|'.repeat(n), 'x'.repeat(n)]) {
        expect(escapeHl7(s)).toBe(reference(s));
      }
    }
  });

  it('should leave no raw delimiter with custom delimiters either (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('!', '@', '*', '$', '%', '\r', '\n', 'a', '|', '\\'), maxLength: 30 }), (s) => {
        expect(escapeHl7(s, CUSTOM)).not.toMatch(/[!@*%\r\n]/);
      }),
    );
  });
});

describe('unescapeHl7', () => {
  it('should read the delimiter sequences', () => {
    expect(unescapeHl7('a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f')).toBe('a|b^c&d~e\\f');
  });

  it('should read hex escapes as UTF-8 bytes', () => {
    expect(unescapeHl7('\\X0D0A\\')).toBe('\r\n');
    expect(unescapeHl7('caf\\XC3A9\\')).toBe('café');
    expect(unescapeHl7('\\XF09F9880\\')).toBe('😀');
    expect(unescapeHl7('\\x41\\')).toBe('\\x41\\'); // the X is upper case
    expect(unescapeHl7('\\X4a\\')).toBe('J'); // hex digits of either case
  });

  it('should keep invalid hex escapes literally', () => {
    for (const s of ['\\X\\', '\\X0\\', '\\XZZ\\', '\\XFF\\', '\\XC3\\', '\\XC0AF\\', '\\XEDA080\\', '\\XF4908080\\']) {
      expect(unescapeHl7(s)).toBe(s);
    }
  });

  it('should read \\.br\\ as a line feed', () => {
    expect(unescapeHl7('line 1\\.br\\line 2')).toBe('line 1\nline 2');
  });

  it('should pass highlighting, formatting and character-set sequences through', () => {
    for (const s of ['\\H\\bold\\N\\', 'a\\.sp2\\b', '\\.in+4\\', '\\.fi\\', '\\.ce\\', '\\Zlocal\\', '\\C2842\\', '\\M2442\\', '\\M244228\\']) {
      expect(unescapeHl7(s)).toBe(s);
    }
    // After a passed-through sequence scanning goes on: the next sequence is still read.
    expect(unescapeHl7('\\H\\a\\F\\b\\N\\')).toBe('\\H\\a|b\\N\\');
  });

  it('should keep malformed sequences literally (UNC and Windows paths survive)', () => {
    expect(unescapeHl7('\\\\server\\share')).toBe('\\\\server\\share');
    expect(unescapeHl7('C:\\Users\\notes\\')).toBe('C:\\Users\\notes\\');
    expect(unescapeHl7('trailing \\')).toBe('trailing \\');
    expect(unescapeHl7('\\Q\\')).toBe('\\Q\\');
    expect(unescapeHl7('\\P\\')).toBe('\\P\\'); // no truncation character declared
  });

  it('should not chain: each sequence is read once', () => {
    // A chain of replaces would turn this into "\|" or "\E|E\".
    expect(unescapeHl7('\\E\\F\\E\\')).toBe('\\F\\');
    expect(unescapeHl7('\\E\\X0D\\E\\')).toBe('\\X0D\\');
  });

  it('should use the given delimiters', () => {
    expect(unescapeHl7('a$F$b$S$c$R$d$E$e$T$f\\F\\', CUSTOM)).toBe('a!b@c*d$e%f\\F\\');
    expect(unescapeHl7('a\\P\\b', WITH_TRUNCATION)).toBe('a#b');
  });

  it('should invert escapeHl7 for every string (property)', () => {
    fc.assert(
      fc.property(arbAnyString, (s) => {
        expect(unescapeHl7(escapeHl7(s))).toBe(s);
      }),
      { numRuns: 3000 },
    );
  });

  it('should invert escapeHl7 with custom delimiters and a truncation character (property)', () => {
    fc.assert(
      fc.property(arbAnyString, (s) => {
        expect(unescapeHl7(escapeHl7(s, CUSTOM), CUSTOM)).toBe(s);
        expect(unescapeHl7(escapeHl7(s, WITH_TRUNCATION), WITH_TRUNCATION)).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });

  it('should invert escapeHl7 on every hostile fragment and on long text', () => {
    for (const s of HOSTILE_FRAGMENTS) expect(unescapeHl7(escapeHl7(s))).toBe(s);
    fc.assert(
      fc.property(arbLongText, (s) => {
        expect(unescapeHl7(escapeHl7(s))).toBe(s);
      }),
      { numRuns: 10 },
    );
  });

  it('should never throw and return text without escape characters unchanged (property)', () => {
    fc.assert(
      fc.property(arbAnyString, (s) => {
        const out = unescapeHl7(s);
        if (!s.includes('\\')) expect(out).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });
});
