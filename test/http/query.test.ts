import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptsFormat } from '../../src/http/internal/accept.js';
import { checkParameters, parseQuery } from '../../src/http/internal/query.js';
import { EXPORT_ROUTES } from '../../src/http/routes/route-table.js';
import { runs } from '../support/runs.js';

describe('parseQuery', () => {
  it('should agree with URLSearchParams on every well-formed query', () => {
    const pair = fc.tuple(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 6 }), (pairs) => {
        const search = `?${new URLSearchParams(pairs).toString()}`;
        const expected = new Map<string, string[]>();
        for (const [k, v] of new URLSearchParams(search)) expected.set(k, [...(expected.get(k) ?? []), v]);
        expect(parseQuery(search)).toEqual(expected);
      }),
    );
  });

  it('should split any raw query as URLSearchParams does when no escape is malformed (empty pieces, a bare name, a second =, no ?)', () => {
    const piece = fc.constantFrom('a', 'b', '=', '&', '&&', '+', '%20', 'x=y=z', '?', '');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, mark) => {
        const raw = pieces.join('');
        const search = mark ? `?${raw}` : raw;
        const expected = new Map<string, string[]>();
        for (const [k, v] of new URLSearchParams(search)) expected.set(k, [...(expected.get(k) ?? []), v]);
        expect(parseQuery(search)).toEqual(expected);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should refuse malformed percent-escapes that URLSearchParams keeps', () => {
    for (const bad of ['?a=%', '?a=%g1', '?%zz=1', '?a=%C3', '?a=%ED%A0%80', '?a=%FF']) expect(parseQuery(bad), bad).toBeUndefined();
    expect(parseQuery('')).toEqual(new Map());
    expect(parseQuery('?a&b=&&c=1=2')).toEqual(new Map([['a', ['']], ['b', ['']], ['c', ['1=2']]]));
  });
});

describe('checkParameters', () => {
  const bundle = EXPORT_ROUTES.find((r) => r.name === 'exportFhirPatientBundle')!;
  const limit = (): { default: number; max: number } => ({ default: 7, max: 30 });

  it('should clamp any decimal limit above the maximum and keep those below', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), (n) => {
        const out = checkParameters(bundle, new Map([['patientId', ['p']], ['noteLimit', [n.toString()]]]), limit);
        expect(Array.isArray(out)).toBe(false);
        expect((out as { limits: Record<string, number> }).limits['noteLimit']).toBe(n > 30n ? 30 : Number(n));
      }),
    );
  });

  it('should read a limit with leading zeros by its value: min(n, max) for any n and any count of zeros', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.nat({ max: 40 }),
        fc.oneof(fc.constant(30), fc.nat({ max: 1000 }), fc.constant(Number.MAX_SAFE_INTEGER)),
        (n, zeros, max) => {
          const given = `${'0'.repeat(zeros)}${n.toString()}`;
          const out = checkParameters(bundle, new Map([['patientId', ['p']], ['noteLimit', [given]]]), () => ({ default: 0, max }));
          expect(Array.isArray(out), given).toBe(false);
          expect((out as { limits: Record<string, number> }).limits['noteLimit'], given).toBe(n > BigInt(max) ? max : Number(n));
        },
      ),
    );
  });

  it('should read 16 zeros as 0 and 20 digits with leading zeros as their value', () => {
    const read = (value: string): number =>
      (checkParameters(bundle, new Map([['patientId', ['p']], ['noteLimit', [value]]]), limit) as { limits: Record<string, number> }).limits['noteLimit'] as number;
    expect(read('0000000000000000')).toBe(0);
    expect(read('00000000000000000003')).toBe(3);
    expect(read('0'.repeat(500))).toBe(0);
    expect(read(`${'0'.repeat(500)}31`)).toBe(30);
  });

  it('should use the default for an absent limit', () => {
    const out = checkParameters(bundle, new Map([['patientId', ['p']]]), limit) as { limits: Record<string, number> };
    expect(out.limits).toEqual({ encounterLimit: 7, noteLimit: 7, assessmentLimit: 7, medicalHistoryLimit: 7 });
  });
});

describe('acceptsFormat', () => {
  it('should follow the most specific matching range', () => {
    expect(acceptsFormat('application/*;q=0, application/hl7-v2', 'hl7')).toBe(true);
    expect(acceptsFormat('application/hl7-v2;q=0, application/*', 'hl7')).toBe(false);
    expect(acceptsFormat('application/json;q=0, application/fhir+json', 'fhir')).toBe(true);
    expect(acceptsFormat('text/*', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;q=0.001', 'fhir')).toBe(true);
    expect(acceptsFormat('application/fhir+json; q = 0', 'fhir')).toBe(false);
  });

  it("should match FHIR's version parameter only for R4 (4.0): a range for another release is as if absent", () => {
    expect(acceptsFormat('application/fhir+json; fhirVersion=4.0', 'fhir')).toBe(true);
    expect(acceptsFormat('application/fhir+json;fhirversion="4.0.1"', 'fhir')).toBe(true);
    expect(acceptsFormat('application/fhir+json; fhirVersion=3.0', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json; fhirVersion=5.0, application/fhir+json; fhirVersion=4.0;q=0.5', 'fhir')).toBe(true);
    expect(acceptsFormat('application/fhir+json; fhirVersion=3.0, */*', 'fhir')).toBe(true);
    expect(acceptsFormat('application/hl7-v2; fhirVersion=3.0', 'hl7')).toBe(true);
  });

  it('should let an explicit q=0 on the produced type win over an alias or a wildcard', () => {
    expect(acceptsFormat('application/fhir+json;q=0, application/json', 'fhir')).toBe(false);
    expect(acceptsFormat('application/json, application/fhir+json;q=0', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;q=0, application/json+fhir', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;q=0, application/json;charset=utf-8', 'fhir')).toBe(false);
    // A range with parameters that match is more specific than the bare type.
    expect(acceptsFormat('application/fhir+json;q=0, application/fhir+json;fhirVersion=4.0', 'fhir')).toBe(true);
    expect(acceptsFormat('application/fhir+json;fhirVersion=4.0;q=0, application/fhir+json', 'fhir')).toBe(false);
    // An alias is more specific than application/* and */*.
    expect(acceptsFormat('application/json, */*;q=0', 'fhir')).toBe(true);
    expect(acceptsFormat('application/json;q=0, application/*', 'fhir')).toBe(false);
    expect(acceptsFormat('application/json;q=0, application/fhir+json;q=0.1', 'fhir')).toBe(true);
  });

  it('should not split the header at commas or semicolons inside quoted parameter values', () => {
    expect(acceptsFormat('application/fhir+json;foo="a,b";q=0', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;foo="a,b;q=1";q=0', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;foo="a\\",b";q=0', 'fhir')).toBe(false);
    expect(acceptsFormat('application/hl7-v2;foo="x, */*";q=0', 'hl7')).toBe(false);
    expect(acceptsFormat('text/html;foo="a,application/fhir+json"', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;foo="a,b"', 'fhir')).toBe(true);
  });

  it('should match charset only for UTF-8, the charset served, and skip a range with a malformed weight', () => {
    expect(acceptsFormat('application/hl7-v2;charset=iso-8859-1', 'hl7')).toBe(false);
    expect(acceptsFormat('application/hl7-v2;charset="UTF-8"', 'hl7')).toBe(true);
    expect(acceptsFormat('application/fhir+json;charset=iso-8859-1, application/fhir+json;q=0', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;q=0.0000', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;q=abc', 'fhir')).toBe(false);
    expect(acceptsFormat('application/fhir+json;q=abc, */*', 'fhir')).toBe(true);
    expect(acceptsFormat('application/fhir+json;q=2', 'fhir')).toBe(true);
  });

  it('should serve HL7 as application/hl7-v2 only: the ER7 spellings are other types', () => {
    expect(acceptsFormat('application/hl7-v2+er7', 'hl7')).toBe(false);
    expect(acceptsFormat('x-application/hl7-v2+er7', 'hl7')).toBe(false);
    expect(acceptsFormat('application/hl7-v2+er7, application/hl7-v2;q=0.1', 'hl7')).toBe(true);
  });

  describe('properties', () => {
    const q = fc.oneof(fc.constant(''), fc.constantFrom(';q=0', ';q=1', ';q=0.5', ';q=0.001', ';Q=0', ';q=1.000'));
    const others = fc.constantFrom('*/*', 'application/*', 'application/json', 'application/json+fhir', 'text/html', 'application/xml', 'application/json;charset=utf-8', 'image/*');
    const otherRanges = fc.array(fc.tuple(others, q).map(([r, w]) => `${r}${w}`), { maxLength: 6 });

    it('should refuse whenever the produced type is given q=0 and no range with matching parameters is more specific', () => {
      fc.assert(
        fc.property(otherRanges, otherRanges, (before, after) => {
          const header = [...before, 'application/fhir+json;q=0', ...after].join(', ');
          expect(acceptsFormat(header, 'fhir'), header).toBe(false);
          const hl7 = [...before, 'application/hl7-v2; q=0', ...after].join(' , ');
          expect(acceptsFormat(hl7, 'hl7'), hl7).toBe(false);
        }),
      );
    });

    it('should not depend on the order of the ranges', () => {
      const any = fc.constantFrom('application/fhir+json', 'application/fhir+json;fhirVersion=4.0', 'application/fhir+json;fhirVersion=3.0', 'application/hl7-v2', 'application/hl7-v2;charset=utf-8');
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.oneof(others, any), q).map(([r, w]) => `${r}${w}`), { maxLength: 8 }), fc.infiniteStream(fc.nat()), (ranges, seeds) => {
          const shuffled = ranges.map((r) => ({ r, k: seeds.next().value as number })).sort((a, b) => a.k - b.k).map((x) => x.r);
          for (const format of ['fhir', 'hl7'] as const) expect(acceptsFormat(shuffled.join(','), format)).toBe(acceptsFormat(ranges.join(','), format));
        }),
      );
    });

    it('should read any quoted parameter value as one value: commas, semicolons and escaped quotes inside change nothing', () => {
      const quoted = (v: string): string => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
      fc.assert(
        fc.property(fc.string({ unit: fc.constantFrom('a', ',', ';', '"', '\\', ' ', '=', '*', '/', 'q') }), otherRanges, q, (value, rest, w) => {
          for (const [type, format] of [['application/fhir+json', 'fhir'], ['application/hl7-v2', 'hl7']] as const) {
            const header = [`${type};foo=${quoted(value)}${w}`, ...rest].join(', ');
            const plain = [`${type};foo=bar${w}`, ...rest].join(', ');
            expect(acceptsFormat(header, format), header).toBe(acceptsFormat(plain, format));
          }
        }),
      );
    });
  });

  it('should never throw on any header value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (accept) => {
        expect(typeof acceptsFormat(accept, 'fhir')).toBe('boolean');
        expect(typeof acceptsFormat(accept, 'hl7')).toBe('boolean');
      }),
      { numRuns: runs(50) },
    );
  });
});
