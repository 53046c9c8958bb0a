/**
 * The hand-typed v2.5.1 component table (src/hl7/definitions.ts) against hl7-dictionary's v2.5.1 data types.
 */
import { describe, expect, it } from 'vitest';
import { COMPOSITE_DATA_TYPES, dataTypeComponents, segmentFields } from '../../src/hl7/definitions.js';
import { V251 } from '../support/hl7-dictionary.js';

/** The segments the check knows. */
const SEGMENTS = ['MSH', 'EVN', 'PID', 'PV1', 'DG1', 'PR1', 'IN1', 'TXA', 'OBR', 'OBX', 'NTE', 'MSA', 'QRD'];
/** OBX-2 value types of table 0125 (v2.5.1). */
const VALUE_TYPES = ['AD', 'CE', 'CF', 'CK', 'CN', 'CP', 'CX', 'DT', 'ED', 'FT', 'MO', 'NM', 'PN', 'RP', 'SN', 'ST', 'TM', 'TN', 'TS', 'TX', 'XAD', 'XCN', 'XON', 'XPN', 'XTN'];
/** Types the table leaves out, as documented in definitions.ts: OBX-5's `varies`, MSA-5's withdrawn NULLDT, and the withdrawn value types. */
const UNCHECKED = ['varies', 'NULLDT', 'CK', 'CN', 'PN', 'TN'];

describe('the v2.5.1 component table', () => {
  it('should agree with hl7-dictionary on every type it encodes: component count, data types and lengths', () => {
    expect(COMPOSITE_DATA_TYPES.length).toBeGreaterThan(0);
    for (const type of COMPOSITE_DATA_TYPES) {
      const ours = dataTypeComponents(type)?.map((c) => `${c.type} ${c.maxLength}`);
      const theirs = V251.fields[type]?.subfields.map((c) => `${c.datatype} ${String(c.len)}`);
      expect(ours, type).toEqual(theirs);
    }
  });

  it('should know as primitive only types hl7-dictionary has no components for', () => {
    for (const type of ['ST', 'TX', 'FT', 'ID', 'IS', 'NM', 'SI', 'DT', 'DTM', 'TM']) {
      expect(dataTypeComponents(type), type).toEqual([]);
      expect(V251.fields[type]?.subfields, type).toEqual([]);
    }
  });

  it('should cover every data type of the known segments, their components and the OBX-2 value types, but the documented ones', () => {
    // Arrange: every type reachable from the fields of the known segments and from table 0125.
    const seen = new Set<string>();
    const queue = [...SEGMENTS.flatMap((id) => (segmentFields(id) ?? []).map((f) => f.type)), ...VALUE_TYPES];
    const missing = new Set<string>();
    // Act
    while (queue.length > 0) {
      const type = queue.pop() as string;
      if (seen.has(type)) continue;
      seen.add(type);
      const components = dataTypeComponents(type);
      if (components === undefined) missing.add(type);
      for (const c of components ?? []) queue.push(c.type);
    }
    // Assert: nothing is missing but the documented types, and nothing in the table is unreachable.
    expect([...missing].sort()).toEqual([...UNCHECKED].sort());
    for (const type of COMPOSITE_DATA_TYPES) expect(seen.has(type), type).toBe(true);
  });

  it('should not read Object.prototype members as types', () => {
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expect(dataTypeComponents(type)).toBeUndefined();
  });
});
