import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HL7_DELIMITERS, escapeHl7, InvalidArgumentError, unescapeHl7, type Hl7Delimiters } from '../../src/index.js';
import { HOSTILE_FRAGMENTS } from '../../src/testing/fragments.js';
import { arbHostileText, arbLongText, arbText } from '../../src/testing/text-values.js';
import { runs } from '../support/runs.js';

/** Every kind of string: any code point, any UTF-16 code unit (lone surrogates included), graphemes, ASCII. */
const arbAnyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }),
  // Dense in the characters that matter.
  fc.string({ unit: fc.constantFrom('\\', '|', '^', '~', '&', '\r', '\n', 'E', 'F', 'S', 'T', 'R', 'X', '0', 'D', 'A', '.', 'b', 'r', 'H', 'N', 'é', '😀'), maxLength: 40 }),
  // Dense in control characters (C0, DEL, C1) and the hex escapes of other libraries.
  fc.string({ unit: fc.constantFrom('\t', '\u0000', '\u0001', '\u001b', '\u007f', '\u0080', '\u0085', '\u009b', '\u009f', '\u00a0', '\\', 'X', '0', 'd', 'a'), maxLength: 40 }),
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

  it('should write tab, the other C0 controls, DEL and C1 controls as the hex of their UTF-8 bytes', () => {
    expect(escapeHl7('a\tb')).toBe('a\\X09\\b');
    expect(escapeHl7('\u0000\u0001\u001b\u001f')).toBe('\\X00\\\\X01\\\\X1B\\\\X1F\\');
    expect(escapeHl7('x\u007fy')).toBe('x\\X7F\\y');
    expect(escapeHl7('\u0080\u0085\u009f')).toBe('\\XC280\\\\XC285\\\\XC29F\\');
    // U+00A0 is the first printable character after C1: sent as is.
    expect(escapeHl7('\u00a0é')).toBe('\u00a0é');
    // Long text (the indexOf path) and custom delimiters give the same sequences.
    const long = 'n'.repeat(200);
    expect(escapeHl7(`${long}\t${long}\u0085${long}\u007f`)).toBe(`${long}\\X09\\${long}\\XC285\\${long}\\X7F\\`);
    expect(escapeHl7('a\tb\u0085c\u007f', CUSTOM)).toBe('a$X09$b$XC285$c$X7F$');
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

  it('should follow a delimiter object changed after an earlier call, and check it again', () => {
    // Plain JavaScript (or a cast) can change the object; the set compiled for its old characters must not be reused.
    const d = { ...DEFAULT_HL7_DELIMITERS };
    expect(escapeHl7('a|b#c', d)).toBe('a\\F\\b#c');
    d.field = '#';
    expect(escapeHl7('a|b#c', d)).toBe('a|b\\F\\c');
    expect(unescapeHl7('a\\F\\b', d)).toBe('a#b');
    const t: { -readonly [K in keyof Hl7Delimiters]: Hl7Delimiters[K] } = { ...DEFAULT_HL7_DELIMITERS };
    expect(unescapeHl7('a\\P\\b', t)).toBe('a\\P\\b');
    t.truncation = '#';
    expect(escapeHl7('a#b', t)).toBe('a\\P\\b');
    expect(unescapeHl7('a\\P\\b', t)).toBe('a#b');
    d.escape = 'E';
    expect(() => escapeHl7('x', d)).toThrow(InvalidArgumentError);
    expect(() => unescapeHl7('x', d)).toThrow(InvalidArgumentError);
  });

  it('should leave no raw delimiter and no control character in its output (property)', () => {
    fc.assert(
      fc.property(arbAnyString, (s) => {
        const out = escapeHl7(s);
        // eslint-disable-next-line no-control-regex -- escaped output holds no control character
        expect(out).not.toMatch(/[|^~&\u0000-\u001f\u007f-\u009f]/);
        // Every backslash opens or closes one of the sequences escapeHl7 writes: a delimiter, a C0 or DEL
        // byte, or the two UTF-8 bytes of a C1 character.
        expect(out.replace(/\\(?:[EFSTR]|X[01][0-9A-F]|X7F|XC2[89][0-9A-F])\\/g, '')).not.toContain('\\');
      }),
      { numRuns: runs(2000) },
    );
  });

  it('should escape long text (a note) exactly as each character alone, whatever its length (property)', () => {
    // Short and long text are scanned differently; both must equal escaping one character at a time.
    const one: Record<string, string> = { '\\': '\\E\\', '|': '\\F\\', '^': '\\S\\', '&': '\\T\\', '~': '\\R\\', '\r': '\\X0D\\', '\n': '\\X0A\\' };
    const hex = (c: string): string => c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
    const control = (c: string): string | undefined => {
      const code = c.charCodeAt(0);
      if (code < 0x20 || code === 0x7f) return `\\X${hex(c)}\\`;
      return code >= 0x80 && code <= 0x9f ? `\\XC2${hex(c)}\\` : undefined;
    };
    const reference = (s: string): string => Array.from(s.split(''), (c) => one[c] ?? control(c) ?? c).join('');
    const unit = fc.constantFrom('a', ' ', '\\', '|', '^', '~', '&', '\r', '\n', '\r\n', 'é', '😀', '\ud800', '\\X0D\\', '\t', '\u0000', '\u007f', '\u0085', '\u009f', '\u00a0');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400, size: 'max' }), (units) => {
        const s = units.join('');
        expect(escapeHl7(s)).toBe(reference(s));
      }),
      { numRuns: runs(500) },
    );
    for (const n of [126, 127, 128, 129, 300]) {
      for (const s of ['x'.repeat(n) + '\r', 'x'.repeat(n) + '\n', '\r' + 'x'.repeat(n), '|'.repeat(n), 'x'.repeat(n), 'x'.repeat(n) + '\t', '\u0085'.repeat(n)]) {
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

  it("should read HAPI's 16-bit hex escapes (\\X000d\\) as one character per 00hh pair, not as NUL + CR (bug #19)", () => {
    expect(unescapeHl7('a\\X000d\\b')).toBe('a\rb');
    expect(unescapeHl7('a\\X000D\\\\X000A\\b')).toBe('a\r\nb');
    expect(unescapeHl7('\\X000D000A\\')).toBe('\r\n');
    expect(unescapeHl7('\\X00e9\\')).toBe('é');
    expect(unescapeHl7('\\X0009\\')).toBe('\t');
    // A single byte stays UTF-8 (nHapi's \X0D\, our \X00\); a run with a non-zero high byte stays UTF-8.
    expect(unescapeHl7('\\X0D\\')).toBe('\r');
    expect(unescapeHl7('\\X00\\')).toBe('\u0000');
    expect(unescapeHl7('\\X0D0A\\')).toBe('\r\n');
    expect(unescapeHl7('\\X410D\\')).toBe('A\r');
    // HL7-dotnetcore's \X00D\ has an odd number of digits: malformed, kept literally.
    expect(unescapeHl7('\\X00D\\')).toBe('\\X00D\\');
    // With other delimiters too.
    expect(unescapeHl7('a$X000d$b', CUSTOM)).toBe('a\rb');
  });

  it('should read every C0 and C1 control back from its escape', () => {
    for (let code = 0; code <= 0x9f; code++) {
      if (code >= 0x20 && code < 0x7f) continue;
      const c = String.fromCharCode(code);
      expect(unescapeHl7(escapeHl7(`a${c}b`))).toBe(`a${c}b`);
    }
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
      { numRuns: runs(3000) },
    );
  });

  it('should invert escapeHl7 with custom delimiters and a truncation character (property)', () => {
    fc.assert(
      fc.property(arbAnyString, (s) => {
        expect(unescapeHl7(escapeHl7(s, CUSTOM), CUSTOM)).toBe(s);
        expect(unescapeHl7(escapeHl7(s, WITH_TRUNCATION), WITH_TRUNCATION)).toBe(s);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('should invert escapeHl7 on every hostile fragment and on long text', () => {
    for (const s of HOSTILE_FRAGMENTS) expect(unescapeHl7(escapeHl7(s))).toBe(s);
    fc.assert(
      fc.property(arbLongText, (s) => {
        expect(unescapeHl7(escapeHl7(s))).toBe(s);
      }),
      { numRuns: runs(10) },
    );
  });

  it('should never throw and return text without escape characters unchanged (property)', () => {
    fc.assert(
      fc.property(arbAnyString, (s) => {
        const out = unescapeHl7(s);
        if (!s.includes('\\')) expect(out).toBe(s);
      }),
      { numRuns: runs(2000) },
    );
  });
});
