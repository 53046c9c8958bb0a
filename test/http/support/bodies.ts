/**
 * Body checks shared by the HTTP tests: every FHIR body goes through the same R4 validator as the FHIR core
 * tests, every HL7 body through the core's v2.5.1 structure check, and every body through the leak check.
 */
import { expect } from 'vitest';
import { checkHl7Message } from '../../../src/index.js';
import { conformanceProblems } from '../../hl7/support.js';
import { validateFhir } from '../../support/fhir-validator.js';
import { KEYS } from './fixture.js';
import type { TestResponse } from './harness.js';

/**
 * The two findings the export interface's default output gives by design: relative `fullUrl`s (unless
 * `fhir.baseUrl` is set) and `Bundle.total` on non-searchset Bundles (bdl-1, unless `fhir.strictBundleTotal`).
 * Everything else the validator finds fails the test.
 */
const CONTRACT_RULES = new Set(['bdl-1', 'fullurl-absolute']);

/** Validator findings of a FHIR body; with `strict`, the contract-mandated ones count too. */
export function fhirFindings(body: object, strict = false): string[] {
  return validateFhir(body)
    .filter((f) => strict || !CONTRACT_RULES.has(f.rule))
    .map((f) => `${f.severity} ${f.rule} ${f.path}: ${f.message}`);
}

/** Split an HL7 message into segments and fields (no unescaping; enough for structural assertions). */
export function hl7Segments(body: string): string[][] {
  return body
    .split(/\r\n|\r|\n/)
    .filter((s) => s !== '')
    .map((s) => s.split('|'));
}

/** Assert a 200 FHIR response and return the parsed, R4-valid body. */
export function expectFhir(res: TestResponse, strict = false): Record<string, unknown> & { entry?: { resource: { resourceType: string; id?: string } }[] } {
  expect(res.status, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
  const body = JSON.parse(res.body) as Record<string, unknown> & { entry?: { resource: { resourceType: string; id?: string } }[] };
  expect(fhirFindings(body, strict), 'R4 validation').toEqual([]);
  return body;
}

/**
 * Assert a 200 HL7 response whose message passes the v2.5.1 structure check; return its segments. With
 * `generated` (charts from the testing kit, src/testing, whose identifiers may be long), the documented deviations of
 * identifiers sent whole are allowed ({@link conformanceProblems}); fixtures must pass the check as is.
 */
export function expectHl7(res: TestResponse, messageType: string, generated = false): string[][] {
  expect(res.status, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/hl7-v2; charset=utf-8');
  expect(generated ? conformanceProblems(res.body) : checkHl7Message(res.body), 'HL7 structure check').toEqual([]);
  const segments = hl7Segments(res.body);
  expect(segments[0]?.[0]).toBe('MSH');
  expect(segments[0]?.[8]).toBe(messageType);
  expect(segments[0]?.[11]).toBe('2.5.1');
  return segments;
}

/** A parsed OperationOutcome error. */
export interface OutcomeBody {
  resourceType: 'OperationOutcome';
  issue: { severity: string; code: string; diagnostics?: string; details?: { text?: string; coding?: { code: string }[] } }[];
}

/** A parsed problem+json error. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId: string;
  invalidParams?: { name: string; reason: string }[];
}

/** No body, error or not, may carry key material, a stack trace or an internal message. */
export function expectNoLeak(res: TestResponse, secrets: readonly string[] = []): void {
  for (const key of [...Object.values(KEYS), ...secrets]) expect(res.body.includes(key), 'body echoes a secret').toBe(false);
  expect(res.body).not.toMatch(/\n\s+at \S|\.ts:\d+|\.js:\d+|node_modules|Error:/);
}

/** Assert an error response in the route's format; return its machine code. */
export function expectError(res: TestResponse, status: number, format: 'fhir' | 'problem'): string {
  expect(res.status, res.body).toBe(status);
  expectNoLeak(res);
  const requestId = res.headers['x-request-id'] as string;
  expect(requestId).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  if (format === 'fhir') {
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const body = JSON.parse(res.body) as OutcomeBody;
    expect(body.resourceType).toBe('OperationOutcome');
    expect(fhirFindings(body, true), 'R4 validation of the OperationOutcome').toEqual([]);
    expect(body.issue.length).toBeGreaterThan(0);
    for (const issue of body.issue) {
      expect(issue.severity).toBe('error');
      expect(issue.diagnostics).toBe(`request id: ${requestId}`);
    }
    return body.issue[0]?.details?.coding?.[0]?.code ?? '';
  }
  expect(res.headers['content-type']).toBe('application/problem+json');
  const body = JSON.parse(res.body) as ProblemBody;
  expect(body.status).toBe(status);
  expect(body.requestId).toBe(requestId);
  expect(body.type).toBe('about:blank');
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  return body.code;
}
