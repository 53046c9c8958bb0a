import { describe, expect, it } from 'vitest';
import { getHl7Value, Hl7ParseError, parseHl7Message } from '../../src/index.js';

const MSH = 'MSH|^~\\&|APP|FAC|||20260301103000-0500||ADT^A31^ADT_A05|ADT1|P|2.5.1';

function parseError(text: string): Hl7ParseError {
  try {
    parseHl7Message(text);
  } catch (e) {
    expect(e).toBeInstanceOf(Hl7ParseError);
    return e as Hl7ParseError;
  }
  throw new Error('expected an Hl7ParseError');
}

describe('parseHl7Message', () => {
  it('should number MSH fields from MSH-1, the field separator itself', () => {
    const msh = parseHl7Message(`${MSH}\r`).segments[0]!;
    expect(msh.id).toBe('MSH');
    expect(getHl7Value(msh, 1)).toBe('|');
    expect(getHl7Value(msh, 2)).toBe('^~\\&');
    expect(getHl7Value(msh, 3)).toBe('APP');
    expect([1, 2, 3].map((c) => getHl7Value(msh, 9, c))).toEqual(['ADT', 'A31', 'ADT_A05']);
    expect(getHl7Value(msh, 12)).toBe('2.5.1');
    expect(msh.fields).toHaveLength(13);
  });

  it('should split fields, repetitions, components and subcomponents, and unescape values', () => {
    const m = parseHl7Message(`${MSH}\rPID|1||42^^^&1.2.3&ISO^MR~7^^^&http://x.example/id&URI||O\\T\\Brien^Mary\\S\\Anne~Walsh|x\\.br\\y\\X0D0A\\z\r`);
    const pid = m.segments[1]!;
    expect(getHl7Value(pid, 3)).toBe('42');
    expect(pid.fields[3]?.[0]?.[3]).toEqual(['', '1.2.3', 'ISO']);
    expect(getHl7Value(pid, 3, 4, 2, 2)).toBe('http://x.example/id');
    expect(getHl7Value(pid, 5)).toBe('O&Brien');
    expect(getHl7Value(pid, 5, 2)).toBe('Mary^Anne');
    expect(getHl7Value(pid, 5, 1, 1, 2)).toBe('Walsh');
    expect(getHl7Value(pid, 6)).toBe('x\ny\r\nz');
    expect(getHl7Value(pid, 99)).toBe('');
    expect(getHl7Value(pid, 5, 9)).toBe('');
  });

  it('should accept CR, LF and CRLF terminators and skip empty lines', () => {
    for (const le of ['\r', '\n', '\r\n']) {
      const m = parseHl7Message(`${MSH}${le}EVN|A31|2026${le}PID|1||42${le}${le}`);
      expect(m.segments.map((s) => s.id)).toEqual(['MSH', 'EVN', 'PID']);
    }
    // A CR-terminated message saved with a final newline, and MLLP framing whose FS is followed by CR or CRLF.
    expect(parseHl7Message(`${MSH}\rEVN|A31\rPID|1\r\n`).segments.map((s) => s.id)).toEqual(['MSH', 'EVN', 'PID']);
    for (const end of ['\x1c', '\x1c\r', '\x1c\r\n']) {
      expect(parseHl7Message(`\x0b${MSH}\rPID|1\r${end}`).segments.map((s) => s.id), JSON.stringify(end)).toEqual(['MSH', 'PID']);
    }
    expect(parseHl7Message(MSH).segments).toHaveLength(1);
  });

  it('should end segments only with the terminator that ends MSH, and refuse a raw line break inside a value', () => {
    // Split on any line break, a raw LF in a CR-terminated message would turn note text into a segment
    // (`PID|1||999`) or into one made of a word (`HIV`).
    const injected = parseError(`${MSH}\rNTE|1||Result\nPID|1||999\r`);
    expect([injected.segmentIndex, injected.position]).toEqual([1, 'NTE-3.1.1']);
    expect(injected.message).toContain('raw line break');
    expect(injected.message).not.toContain('Result');
    expect(parseError(`${MSH}\rNTE|1||Dx:\nHIV\r`).position).toBe('NTE-3.1.1');
    // A CR is this message's terminator, so a CRLF inside a value ends the segment; the LF left then cannot begin one.
    expect(parseError(`${MSH}\rOBX|1|TX|||a^b\r\nPID|1||999\r`).segmentIndex).toBe(2);
    expect(parseError(`${MSH}\nPID|1||4\r2\n`).position).toBe('PID-3.1.1');
    expect(parseError(`${MSH}\rOBX|1|TX|||a~b^c\nd\r`).position).toBe('OBX-5(2).2.1');
    expect(parseError(`${MSH}\r\nEVN|A31\rPID|1\r\n`).position).toBe('EVN-1.1.1');
    // The same line breaks escaped are data.
    const segments = parseHl7Message(`${MSH}\rNTE|1||Result\\X0A\\PID\\F\\1\r`).segments;
    expect(segments.map((s) => s.id)).toEqual(['MSH', 'NTE']);
    expect(getHl7Value(segments[1]!, 3)).toBe('Result\nPID|1');
  });

  it('should read the delimiters from MSH-1 and MSH-2', () => {
    const m = parseHl7Message('MSH!@*$%!APP!!!!2026!!ADT@A31!1!P!2.5.1\rPID!1!!a$F$b@c%d*e|f^g\r');
    expect(m.delimiters).toEqual({ field: '!', component: '@', repetition: '*', escape: '$', subcomponent: '%' });
    const pid = m.segments[1]!;
    expect(pid.fields[3]).toEqual([[['a!b'], ['c', 'd']], [['e|f^g']]]);
  });

  it('should tolerate a 5-character MSH-2 (v2.7 truncation character)', () => {
    const m = parseHl7Message('MSH|^~\\&#|APP\rNTE|1||50\\P\\ off#\r');
    expect(m.delimiters.truncation).toBe('#');
    expect(getHl7Value(m.segments[0]!, 2)).toBe('^~\\&#');
    expect(getHl7Value(m.segments[1]!, 3)).toBe('50# off#');
  });

  it('should ignore a byte-order mark and MLLP framing', () => {
    expect(parseHl7Message(`\uFEFF${MSH}\r`).segments).toHaveLength(1);
    expect(parseHl7Message(`\u000b${MSH}\rPID|1\r\u001c\r`).segments.map((s) => s.id)).toEqual(['MSH', 'PID']);
  });

  it('should keep each segment as received in raw', () => {
    const m = parseHl7Message(`${MSH}\rPID|1||a\\F\\b\r`);
    expect(m.segments[1]?.raw).toBe('PID|1||a\\F\\b');
    expect(m.segments[0]?.raw).toBe(MSH);
  });

  it('should raise Hl7ParseError with segment index and position', () => {
    let e = parseError('PID|1\r');
    expect([e.segmentIndex, e.position]).toEqual([0, 'MSH']);
    e = parseError('MSH|^~\\|APP\r');
    expect([e.segmentIndex, e.position]).toEqual([0, 'MSH-2']);
    e = parseError('MSH|^^\\&|APP\r');
    expect([e.segmentIndex, e.position]).toEqual([0, 'MSH-2']);
    e = parseError('MSHA^~\\&A\r');
    expect([e.segmentIndex, e.position]).toEqual([0, 'MSH-2']);
    e = parseError(`${MSH}\rEVN|A31\rpid|1\r`);
    expect(e.segmentIndex).toBe(2);
    e = parseError(`${MSH}\rPIDX|1\r`);
    expect(e.segmentIndex).toBe(1);
    e = parseError(`${MSH}\rEVN|A31\r${MSH}\r`);
    expect([e.segmentIndex, e.position]).toEqual([2, 'MSH']);
  });

  it('should name the field, repetition, component and subcomponent holding a raw control character, not the value', () => {
    let e = parseError(`${MSH}\rEVN|A31\rPID|1||42||Secret\u0000Name\r`);
    expect([e.segmentIndex, e.position]).toEqual([2, 'PID-5.1.1']);
    expect(e.message).not.toContain('Secret');
    e = parseError(`${MSH}\rPID|1||42||A~B^C&D\u0007\r`);
    expect([e.segmentIndex, e.position]).toEqual([1, 'PID-5(2).2.2']);
    // Escaped control characters are data, not a parse error; a tab is allowed raw.
    expect(getHl7Value(parseHl7Message(`${MSH}\rNTE|1||a\\X00\\b\tc\r`).segments[1]!, 3)).toBe('a\u0000b\tc');
  });

  it('should reject raw DEL and C1 controls like the other C0 controls, and read their escapes as data', () => {
    for (const c of ['\u007f', '\u0080', '\u0085', '\u009b', '\u009f', '\u001b', '\u000b', '\u001c']) {
      const e = parseError(`${MSH}\rNTE|1||a${c}b\r`);
      expect([e.segmentIndex, e.position]).toEqual([1, 'NTE-3.1.1']);
    }
    // U+00A0 is not a control character.
    expect(getHl7Value(parseHl7Message(`${MSH}\rNTE|1||a\u00a0b\r`).segments[1]!, 3)).toBe('a\u00a0b');
    expect(getHl7Value(parseHl7Message(`${MSH}\rNTE|1||a\\X7F\\b\\XC285\\c\\X09\\d\r`).segments[1]!, 3)).toBe('a\u007fb\u0085c\td');
  });
});
