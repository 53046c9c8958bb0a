// Property-based tests a consumer of chart-export would write for HL7 v2 escaping, with fast-check and
// Vitest: whatever text goes in, the escaped form holds no raw delimiter, escaping is reversible, and text
// survives a whole message build → parse round trip.
//
//   npm run build && npx vitest run test/examples/hl7-escaping.test.ts
//
// (This repository's vitest config only collects test/, so test/examples/hl7-escaping.test.ts imports this
// file. In a project of your own, put it with your tests and run it as you run them.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMdmT02, checkHl7Message, escapeHl7, getHl7Value, parseHl7Message, unescapeHl7 } from 'chart-export';

/** Text made mostly of the characters HL7 treats specially, mixed with ordinary and non-ASCII ones. */
const hostileChar = fc.oneof(
  fc.constantFrom('|', '^', '~', '\\', '&', '\r', '\n', '\r\n', '\t', ' ', '#', '%'),
  fc.constantFrom('\\F\\', '\\S\\', '\\X0D\\', '\\.br\\', '\\E\\'), // escape sequences typed as literal text
  fc.string({ minLength: 1, maxLength: 1 }),
  fc.constantFrom('é', 'ß', '中', '😀', '\u00A0'),
);
const hostileText = fc.string({ unit: hostileChar, maxLength: 40 });

/** A valid alternative delimiter set: five distinct printable, non-alphanumeric ASCII characters. */
const delimiterSet = fc
  .shuffledSubarray([...'|^~\\&#!@$%*+/:;=?'], { minLength: 5, maxLength: 5 })
  .map(([field, component, repetition, escape, subcomponent]) => ({ field, component, repetition, escape, subcomponent }));

describe('escapeHl7 / unescapeHl7', () => {
  it('should give back any text after escaping and unescaping', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string({ unit: 'binary' })), (text) => {
        expect(unescapeHl7(escapeHl7(text))).toBe(text);
      }),
    );
  });

  it('should leave no raw delimiter, CR or LF, and only whole escape sequences', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(escapeHl7(text)).toMatch(/^(?:[^|^~&\\\r\n]|\\(?:F|S|T|R|E|X[0-9A-F]+)\\)*$/);
      }),
    );
  });

  it('should leave text without special characters unchanged', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9 .,'()-]*$/), (text) => {
        expect(escapeHl7(text)).toBe(text);
      }),
    );
  });

  it('should honour the delimiters a message declares', () => {
    fc.assert(
      fc.property(hostileText, delimiterSet, (text, d) => {
        const escaped = escapeHl7(text, d);
        for (const c of [d.field, d.component, d.repetition, d.subcomponent, '\r', '\n']) expect(escaped.includes(c)).toBe(false);
        expect(unescapeHl7(escaped, d)).toBe(text);
      }),
    );
  });
});

describe('buildMdmT02 → parseHl7Message', () => {
  it('should carry a name and a multi-line note through a whole message unchanged', () => {
    // A surname that fits FN-1's 50 characters once escaped (longer ones are shortened to fit, v2.5.1 lengths).
    const familyName = hostileText.filter((s) => s.trim() !== '' && !/[\r\n]/.test(s) && escapeHl7(s).length <= 50);
    fc.assert(
      fc.property(familyName, hostileText, (family, body) => {
        const text = `Note: ${body}`;
        /** @type {import('chart-export').PatientChart} */
        const chart = {
          patient: { id: 'p-1', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1' }], names: [{ family }] },
          notes: [{ id: 'n-1', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2026-03-01T10:15:00-05:00', text }],
        };
        const message = buildMdmT02(chart, 'n-1', { now: '2026-03-01T10:30:00-05:00', controlId: 'MDM1' });

        // The message is well formed v2.5.1 whatever the text…
        expect(checkHl7Message(message)).toEqual([]);
        const parsed = parseHl7Message(message);
        const pid = parsed.segments.find((s) => s.id === 'PID');
        const obx = parsed.segments.filter((s) => s.id === 'OBX');
        // …and a reader gets the text back: PID-5.1, and the note as OBX-5 repetitions, one per line.
        expect(pid && getHl7Value(pid, 5, 1)).toBe(family);
        const lines = obx.flatMap((s) => (s.fields[5] ?? []).map((repetition) => repetition[0]?.[0] ?? ''));
        expect(lines.join('\n')).toBe(text.replaceAll('\r\n', '\n'));
      }),
      { numRuns: 200 },
    );
  });
});
