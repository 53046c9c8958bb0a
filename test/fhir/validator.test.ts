/**
 * The independent R4 validator (test/support/fhir-validator.ts) must find what it claims to find, or the
 * conformance tests would pass vacuously.
 */
import { describe, expect, it } from 'vitest';
import { parseXhtml, validateFhir } from '../support/fhir-validator.js';

const rules = (resource: object): string[] => validateFhir(resource).map((f) => f.rule);
const div = (inner: string): string => `<div xmlns="http://www.w3.org/1999/xhtml">${inner}</div>`;
const patient = { resourceType: 'Patient', id: 'p1' };

describe('validateFhir', () => {
  it('should accept a minimal valid resource', () => {
    expect(validateFhir(patient)).toEqual([]);
  });

  it('should report structure errors from the R4 definitions', () => {
    expect(rules({ ...patient, name: [{ family: '   ' }] })).toContain('structure');
    expect(rules({ ...patient, birthDate: '1984-7-2' })).toContain('structure');
    expect(rules({ ...patient, unknownElement: true })).toContain('structure');
    expect(rules({ resourceType: 'Encounter', id: 'e', class: { code: 'AMB' } })).toContain('structure'); // status missing
  });

  it('should report invariants of severity error', () => {
    const condition = {
      resourceType: 'Condition',
      id: 'c',
      subject: { reference: 'Patient/p1' },
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      abatementDateTime: '2020',
    };
    expect(rules(condition)).toEqual(['con-4']);
    expect(rules({ resourceType: 'Bundle', type: 'collection', total: 0 })).toEqual(['bdl-1']);
  });

  it('should report codes outside a required value set', () => {
    expect(rules({ ...patient, gender: 'xx' })).toEqual(['binding']);
    expect(rules({ ...patient, telecom: [{ system: 'pigeon', value: 'x' }] })).toEqual(['binding']);
    const composition = {
      resourceType: 'Composition',
      id: 'c',
      status: 'final',
      type: { text: 'x' },
      date: '2020',
      author: [{ display: 'a' }],
      title: 't',
      confidentiality: 'Q',
      section: [{ text: { status: 'generated', div: div('x') } }],
    };
    expect(rules(composition)).toEqual(['binding']);
    const attachment = { contentType: 'not a mime type', data: 'eA==' };
    const docRef = { resourceType: 'DocumentReference', id: 'd', status: 'current', content: [{ attachment }] };
    expect(rules(docRef)).toEqual(['binding']);
    expect(rules({ ...docRef, content: [{ attachment: { ...attachment, contentType: 'text/plain; charset=utf-8' } }] })).toEqual([]);
  });

  it('should report unknown codes and wrong displays of the HL7 code systems', () => {
    const enc = (code: string, display: string): object => ({
      resourceType: 'Encounter',
      id: 'e',
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code, display },
    });
    expect(rules(enc('AMB', 'ambulatory'))).toEqual([]);
    expect(rules(enc('AMB', 'Ambulatory visit'))).toEqual(['display']);
    expect(rules(enc('NOPE', 'x'))).toEqual(['display']);
  });

  it('should report 32-bit integer overflows', () => {
    const coverage = {
      resourceType: 'Coverage',
      id: 'c',
      status: 'active',
      beneficiary: { reference: 'Patient/p1' },
      payor: [{ reference: 'Organization/o' }],
      order: 2147483648,
    };
    expect(rules(coverage)).toEqual(['integer']);
    expect(rules({ ...coverage, order: 2147483647 })).toEqual([]);
  });

  it('should check narratives with a strict XML parser and the narrative rules', () => {
    const withDiv = (d: string): object => ({ ...patient, text: { status: 'generated', div: d } });
    expect(rules(withDiv(div('a &amp; b<br/>c')))).toEqual([]);
    expect(rules(withDiv(div('a & b')))).toContain('xhtml');
    expect(rules(withDiv(div('a < b')))).toContain('xhtml');
    expect(rules(withDiv(div('\uFFFF')))).toContain('xhtml');
    expect(rules(withDiv('<div>x</div>'))).toContain('xhtml');
    expect(rules(withDiv(div('<script>alert(1)</script>')))).toContain('txt-1');
    expect(rules(withDiv(div('<p onclick="x()">x</p>')))).toContain('txt-1');
    expect(rules(withDiv(div(' <br/> ')))).toContain('txt-2');
  });

  it('should check Bundle fullUrls: unique, matching the resource, absolute', () => {
    const entry = (fullUrl: string, id = 'p1'): object => ({ fullUrl, resource: { resourceType: 'Patient', id } });
    const bundle = (...entry: object[]): object => ({ resourceType: 'Bundle', type: 'searchset', entry });
    expect(rules(bundle(entry('https://x.org/Patient/p1')))).toEqual([]);
    // Medplum evaluates bdl-7 too; the extra check reports it as well.
    expect(new Set(rules(bundle(entry('https://x.org/Patient/p1'), entry('https://x.org/Patient/p1'))))).toEqual(new Set(['bdl-7']));
    expect(rules(bundle(entry('https://x.org/Patient/p2')))).toEqual(['fullurl-id']);
    expect(rules(bundle(entry('Patient/p1')))).toEqual(['fullurl-absolute']);
  });
});

describe('parseXhtml', () => {
  it('should return the text with line breaks for <br/> and entities resolved', () => {
    expect(parseXhtml(div('a &lt;b&gt; &amp; c<br/>d')).text).toBe('a <b> & c\nd');
  });
});
