/**
 * The ACK read against an independent definition: what `readAck` gives (or throws) equals what reading the
 * whole ACK with `parseHl7Message` and `getHl7Value` gives (the reference below, written from v2.5.1's MSA/ERR
 * rules), for ACK-like text of every shape: other delimiters and terminators, escapes, components,
 * repetitions, control characters, bad segment ids, a second MSH, blank lines, framing bytes, NAKs, another
 * control id. The quick read of a positive ACK must agree with the parser, and its lazily parsed `message` must
 * equal the parser's result. Also the outgoing message's MSH-10 read against the parser's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getHl7Value, parseHl7Message, type Hl7Message, type Hl7Segment } from '../../src/index.js';
import { readQuickAck } from '../../src/mllp/ack-quick.js';
import { MllpError, MllpNakError, readAck } from '../../src/mllp/index.js';
import { prepareOutgoing } from '../../src/mllp/message.js';
import { runs } from '../support/runs.js';

type Reference =
  | { readonly kind: 'ack'; readonly code: string; readonly text: string; readonly ackControlId: string; readonly message: Hl7Message }
  | { readonly kind: 'nak'; readonly ackCode: string; readonly ackText: string; readonly errorCode: string; readonly errorLocation: string; readonly ack: Hl7Message }
  | { readonly kind: 'error'; readonly code: 'not-ack' | 'ack-mismatch' };

/** ERR-2 (v2.5), or ERR-1 (before v2.5), as `PID-3.1`. */
function location(err: Hl7Segment): string {
  let [segment, field, component] = [getHl7Value(err, 2, 1), getHl7Value(err, 2, 3), getHl7Value(err, 2, 5)];
  if (segment === '') [segment, field, component] = [getHl7Value(err, 1, 1), getHl7Value(err, 1, 3), ''];
  if (segment === '') return '';
  return segment + (field === '' ? '' : `-${field}`) + (field !== '' && component !== '' ? `.${component}` : '');
}

/** The reference: the whole ACK parsed, then MSA and ERR read from the parsed segments. */
function reference(text: string, controlId: string): Reference {
  let message: Hl7Message;
  try {
    message = parseHl7Message(text);
  } catch {
    return { kind: 'error', code: 'not-ack' };
  }
  const msa = message.segments.find((s) => s.id === 'MSA');
  const code = msa === undefined ? '' : getHl7Value(msa, 1);
  if (msa === undefined || !['AA', 'AE', 'AR', 'CA', 'CE', 'CR'].includes(code)) return { kind: 'error', code: 'not-ack' };
  if (getHl7Value(msa, 2) !== controlId) return { kind: 'error', code: 'ack-mismatch' };
  if (code === 'AA' || code === 'CA') return { kind: 'ack', code, text: getHl7Value(msa, 3), ackControlId: getHl7Value(message.segments[0] as Hl7Segment, 10), message };
  const err = message.segments.find((s) => s.id === 'ERR');
  return {
    kind: 'nak',
    ackCode: code,
    ackText: getHl7Value(msa, 3),
    errorCode: (err === undefined ? '' : getHl7Value(err, 3) || getHl7Value(err, 1, 4)).slice(0, 40),
    errorLocation: err === undefined ? '' : location(err).slice(0, 40),
    ack: message,
  };
}

function attempt(call: () => unknown): { value?: unknown; error?: unknown } {
  try {
    return { value: call() };
  } catch (error) {
    return { error };
  }
}

const CONTROL_ID = 'C1';
/** Pieces of values a parser accepts: plain text, delimiters of either set, escapes, a tab, non-ASCII. */
const CLEAN_PIECES = ['x', 'AA', 'CA', 'AE', 'C1', 'C2', '42', ' ', '^', '~', '&', '\\', '#', '*', '\\F\\', '\\S\\', '\\T\\', '\\E\\', '\\X43\\', '\\.br\\', '\\P\\', '\\H\\', '\t', 'é', '😀'];
/** And pieces it refuses, or that are not text: control characters, line breaks, framing bytes, a lone surrogate. */
const WILD_PIECES = ['\u0001', '\u007f', '\u0085', '\n', '\r', '\u001c', '\u000b', '\uD800'];

function values(wild: boolean): fc.Arbitrary<string> {
  const piece = fc.constantFrom(...CLEAN_PIECES, ...(wild ? WILD_PIECES : []));
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom('', 'x', 'ACK', 'P', '2.5.1') }, { weight: 2, arbitrary: fc.array(piece, { maxLength: 4 }).map((a) => a.join('')) });
}

/** An MSH segment: the usual delimiters (or, when wild, others and broken ones), MSH-10 the ACK's own id. */
function mshLine(wild: boolean): fc.Arbitrary<string> {
  const value = values(wild);
  return fc
    .record({
      separator: wild ? fc.constantFrom('|', '|', '#') : fc.constant('|'),
      encoding: wild ? fc.constantFrom('^~\\&', '^~\\&', '^~\\&#', '*~\\%', '^~\\', '^^\\&') : fc.constant('^~\\&'),
      // MSH-3 to MSH-9, then MSH-10 and up to three more.
      fields: fc.array(value, { minLength: 7, maxLength: 7 }),
      ackId: fc.oneof(fc.constantFrom('A1', '', 'A\\T\\1', 'A1^B', 'A1~B', 'A&1'), value),
      tail: fc.array(value, { maxLength: 3 }),
    })
    .map(({ separator, encoding, fields, ackId, tail }) => ['MSH', encoding, ...fields, ackId, ...tail].join(separator));
}

function msaLine(wild: boolean): fc.Arbitrary<string> {
  const value = values(wild);
  return fc
    .record({
      code: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('AA', 'CA', 'AE', 'AR', 'CE', 'CR') }, { weight: 1, arbitrary: fc.oneof(fc.constantFrom('', 'ZZ', 'AA^x', 'A\\E\\A', 'aa'), value) }),
      controlId: fc.oneof({ weight: 4, arbitrary: fc.constant(CONTROL_ID) }, { weight: 1, arbitrary: fc.oneof(fc.constantFrom('C1^x', 'C1~y', 'C1&z', 'C\\X31\\', 'C2', ''), value) }),
      rest: fc.array(value, { maxLength: 3 }),
    })
    .map(({ code, controlId, rest }) => ['MSA', code, controlId, ...rest].join('|'));
}

function otherLine(wild: boolean): fc.Arbitrary<string> {
  const odd = ['MSA', 'ERR', 'msa|AA|C1', 'M1|x', 'MSHX', 'MSH|^~\\&|second', '\n', 'MSA |AA|C1', 'ZZ9|x'];
  return fc.oneof(
    fc.constantFrom('ERR|^^^101&x', 'ERR||PID^1^3^1^2|101^Required^HL70357', 'ERR|PID^1^5^102', 'EVN||2026', '', ...(wild ? odd : [])),
    fc.array(values(wild), { maxLength: 3 }).map((fields) => ['ZAK', ...fields].join('|')),
  );
}

/** ACK-like text: mostly of the usual shape (MSH with `|^~\\&`, CR terminators), often not. */
function ackTexts(wild: boolean): fc.Arbitrary<string> {
  return fc
    .record({
      before: wild ? fc.constantFrom('', '', '\uFEFF', '\u000b', ' ') : fc.constant(''),
      msh: mshLine(wild),
      segments: fc.array(fc.oneof({ weight: 3, arbitrary: msaLine(wild) }, { weight: 2, arbitrary: otherLine(wild) }), { maxLength: 4 }),
      terminator: wild ? fc.constantFrom('\r', '\r', '\n', '\r\n') : fc.constant('\r'),
      after: wild ? fc.constantFrom('', '\r', '\r\r', '\u001c\r', '\n') : fc.constantFrom('', '\r', '\r\r'),
    })
    .map(({ before, msh, segments, terminator, after }) => before + [msh, ...segments].join(terminator) + after);
}
const ackText = fc.oneof(ackTexts(false), ackTexts(true));

describe('readAck against the whole parse', () => {
  it('should give what the parser gives, for any ACK-like text (property)', () => {
    fc.assert(
      fc.property(ackText, fc.constantFrom('utf8' as const, 'latin1' as const), (text, charset) => {
        const bytes = Buffer.from(text, charset);
        const decoded = bytes.toString(charset);
        const expected = reference(decoded, CONTROL_ID);
        const got = attempt(() => readAck(bytes, charset, CONTROL_ID, 7));
        if (expected.kind === 'ack') {
          expect(got.error).toBeUndefined();
          const ack = got.value as ReturnType<typeof readAck>;
          const plain = { code: expected.code, controlId: CONTROL_ID, text: expected.text, ackControlId: expected.ackControlId, message: expected.message, durationMs: 7 };
          expect(Object.keys(ack)).toEqual(Object.keys(plain));
          expect(JSON.stringify(ack)).toBe(JSON.stringify(plain));
          expect({ ...ack }).toEqual(plain);
          expect(ack.message).toBe(ack.message);
        } else if (expected.kind === 'nak') {
          expect(got.error).toBeInstanceOf(MllpNakError);
          const nak = got.error as MllpNakError;
          expect([nak.code, nak.controlId, nak.ackCode, nak.ackText, nak.errorCode, nak.errorLocation]).toEqual(['nak', CONTROL_ID, expected.ackCode, expected.ackText, expected.errorCode, expected.errorLocation]);
          expect(nak.ack).toEqual(expected.ack);
        } else {
          expect(got.error).toBeInstanceOf(MllpError);
          expect(got.error).not.toBeInstanceOf(MllpNakError);
          expect([(got.error as MllpError).code, (got.error as MllpError).controlId]).toEqual([expected.code, CONTROL_ID]);
        }
      }),
      { numRuns: runs(3000) },
    );
  });

  it('should read quickly only what the parser accepts, with the parser’s values (property)', () => {
    let quick = 0;
    fc.assert(
      fc.property(ackText, (text) => {
        const ack = readQuickAck(text, CONTROL_ID, 1);
        if (ack === undefined) return;
        quick++;
        const expected = reference(text, CONTROL_ID);
        expect(expected.kind).toBe('ack');
        if (expected.kind !== 'ack') return;
        expect([ack.code, ack.text, ack.ackControlId]).toEqual([expected.code, expected.text, expected.ackControlId]);
        expect(ack.message).toEqual(parseHl7Message(text));
      }),
      { numRuns: runs(3000) },
    );
    // The generator mostly makes ACKs of the usual shape: the quick read must have been exercised.
    expect(quick).toBeGreaterThan(runs(3000) / 20);
  });

  it('should read the usual positive ACK quickly, and leave every other shape to the parser', () => {
    const ok = 'MSH|^~\\&|ENGINE|HOSP|CHART-EXPORT||20260301093000||ACK^A31^ACK|A\\T\\9^x|P|2.5.1\rMSA|CA|C1|Fine \\F\\ thanks~more\r\r';
    const ack = readQuickAck(ok, CONTROL_ID, 0);
    expect([ack?.code, ack?.text, ack?.ackControlId]).toEqual(['CA', 'Fine | thanks', 'A&9']);
    for (const other of [
      ok.replaceAll('\r', '\n'), // LF terminators
      ok.replaceAll('\r', '\r\n'), // CRLF terminators
      `\uFEFF${ok}`, // byte-order mark
      `${ok}\u001c\r`, // framing left in
      ok.replace('|P|', '|#|').replace('MSH|^~\\&', 'MSH|^~\\&#'), // v2.7 truncation character
      ok.replace('Fine', 'Fi\u0007ne'), // a raw control character: the parser refuses it
      ok.replace('Fine', 'Fi\u0085ne'), // a C1 control
      `${ok}MSH|^~\\&|again\r`, // a second MSH
      `${ok}Z1|x\r`, // a segment id the parser refuses
      `${ok}ZZZ^x\r`, // no field separator after the id
      ok.replace('MSA|CA|C1', 'MSA|CA|C2'), // another control id
      ok.replace('MSA|CA', 'MSA|AE'), // a NAK
      'MSH|^~\\&|E|H|||20260301||ACK|A1|P|2.5.1\rERR|x\r', // no MSA
    ]) {
      expect(readQuickAck(other, CONTROL_ID, 0), JSON.stringify(other)).toBeUndefined();
    }
  });

  it('should refuse garbage ACKs with the same typed errors as before', () => {
    const cases: [string, string, string][] = [
      ['MSH|^~\\&|E|H|||20260301||ACK|A1|P|2.5.1\rMSA|AA|C1|bad\u0007text\r', 'not-ack', 'The answer to message C1 is not an HL7 message'],
      ['MSH|^~\\&|E|H|||20260301||ACK|A1|P|2.5.1\rMSA|AA|C1\rMSH|^~\\&|E\r', 'not-ack', 'The answer to message C1 is not an HL7 message'],
      ['MSH|^~\\&|E|H|||20260301||ACK|A1|P|2.5.1\rmsa|AA|C1\r', 'not-ack', 'The answer to message C1 is not an HL7 message'],
      ['MSH|^~\\&|E|H|||20260301||ACK|A1|P|2.5.1\rMSA|XX|C1\r', 'not-ack', 'The answer to message C1 is not an acknowledgement (no MSA segment with an MSA-1 code of table 0008)'],
      ['MSH|^~\\&|E|H|||20260301||ACK|A1|P|2.5.1\rMSA|AA|C1x^C1\r', 'ack-mismatch', 'The peer acknowledged message "C1x" while message C1 was waiting'],
      ['MSH|^~\\&|E|H|||20260301||ACK|A1|P|2.5.1\rMSA|AA|C2\r', 'ack-mismatch', 'The peer acknowledged message "C2" while message C1 was waiting'],
      ['garbage', 'not-ack', 'The answer to message C1 is not an HL7 message'],
    ];
    for (const [text, code, message] of cases) {
      const { error } = attempt(() => readAck(Buffer.from(text, 'utf8'), 'utf8', CONTROL_ID));
      expect(error).toBeInstanceOf(MllpError);
      expect([(error as MllpError).code, (error as MllpError).message]).toEqual([code, message]);
    }
  });
});

/** prepareOutgoing's MSH-10 is the parser's, for any message the parser reads (or a typed refusal). */
const mshTenProperty = fc.property(fc.oneof(mshLine(false), mshLine(true)), fc.constantFrom('\r', '\n', '\r\n'), (msh, terminator) => {
  const text = `${msh}${terminator}PID|1||42${terminator}`;
  const parsed = attempt(() => parseHl7Message(text));
  if (parsed.error !== undefined) return;
  const expected = getHl7Value((parsed.value as Hl7Message).segments[0] as Hl7Segment, 10);
  const got = attempt(() => prepareOutgoing(text));
  if (got.error !== undefined) {
    // Refused for another reason: no control id, a character set it does not encode, a framing byte, a lone surrogate.
    expect((got.error as MllpError).code).toBe('invalid-message');
    return;
  }
  expect((got.value as ReturnType<typeof prepareOutgoing>).controlId).toBe(expected);
});

describe('the outgoing message’s MSH-10', () => {
  it('should be MSH-10 as the parser reads it, for any message that parses (property)', () => {
    fc.assert(mshTenProperty, { numRuns: runs(2000) });
  });

  it('should read \\P\\ in MSH-10 as the v2.7 truncation character when MSH-2 declares one (seed 466698781)', () => {
    // Found by the property above: MSH-10 `\P\` with MSH-2 `^~\&#` was kept as written, so the peer's MSA-2
    // (`#`, as any parser reads it) could never match it.
    fc.assert(mshTenProperty, { seed: 466698781, path: '2:1:1:1:2:1:3:3', endOnFailure: true });
    expect(prepareOutgoing('MSH|^~\\&#||||||||\\P\\\r').controlId).toBe('#');
    expect(prepareOutgoing('MSH|^~\\&||||||||\\P\\\r').controlId).toBe('\\P\\');
  });
});
