import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCurlSamples, clientOrigin, pickSampleIds, shellQuote } from '../../src/cli/banner.js';
import { validateChartDocument } from '../../src/index.js';
import { IDS, chartDocument } from '../examples/support/chart-document.js';
import { runs } from '../support/runs.js';

describe('shellQuote', () => {
  it('should give the shell back exactly the string quoted', () => {
    // One shell run for the whole sample: each word is printed followed by a NUL.
    const unit = fc.oneof(fc.constantFrom("'", '"', '\\', '$', '`', ' ', '\t', '\n', '!', '*', '?', '~', '#', ';', '&', '|'), fc.string({ minLength: 1, maxLength: 1 }), fc.constantFrom('é', '😀'));
    const words = fc.sample(fc.string({ unit, maxLength: 30 }), { numRuns: runs(200), seed: 7 });
    words.push("it's", "'", "''", '$HOME', '`id`', '\\', '"', '!', '*', '\n');
    const out = execFileSync('sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
    expect(out.split('\0').slice(0, -1)).toEqual(words);
  });
});

describe('pickSampleIds', () => {
  it('should pick the first patient with an encounter, a note and an assessment', () => {
    const doc = chartDocument();
    // Put a patient without records first: it must not be picked.
    doc.patients.reverse();
    expect(pickSampleIds(doc)).toEqual({
      patientId: IDS.patient,
      encounterId: IDS.encounter,
      noteId: IDS.note,
      assessmentId: IDS.assessment,
      directoryType: 'Practitioner',
      directoryCount: chartDocument().directory?.practitioners?.length,
    });
  });

  it('should fall back to the patient with the most kinds, and to no patient', () => {
    const doc = chartDocument();
    delete doc.patients[0]?.notes;
    expect(pickSampleIds(doc)).toMatchObject({ patientId: IDS.patient, noteId: undefined });
    expect(pickSampleIds({ patients: [] })).toBeUndefined();
  });
});

describe('buildCurlSamples', () => {
  const ids = pickSampleIds(validateChartDocument(chartDocument()));
  if (ids === undefined) throw new Error('fixture has patients');

  it('should give one 200 sample per endpoint with the right key and Accept, ids percent-encoded', () => {
    const samples = buildCurlSamples('http://127.0.0.1:8080', '/api', ids, { fhir: { literal: 'F' }, hl7: { literal: 'H' } });
    expect(samples.map((s) => s.route)).toEqual([
      'exportFhirPatient',
      'exportFhirPatientBundle',
      'exportFhirEncounter',
      'exportFhirNote',
      'exportFhirAssessment',
      'publicFhirDirectory',
      'exportHl7PatientAdt',
      'exportHl7PatientSummary',
      'exportHl7Encounter',
      'exportHl7Note',
      'exportHl7Assessment',
    ]);
    for (const s of samples) {
      expect(s.expectedStatus).toBe(200);
      const url = new URL(s.url);
      expect(url.pathname).toBe(`/api/${s.route}`);
      if (s.route === 'publicFhirDirectory') {
        expect(s.headers['x-api-key']).toBeUndefined();
        expect(url.searchParams.get('resourceType')).toBe('Practitioner');
      } else {
        expect(url.searchParams.get('patientId')).toBe(IDS.patient);
        expect(s.headers['x-api-key']).toBe(s.route.startsWith('exportFhir') ? 'F' : 'H');
      }
      expect(s.headers['accept']).toBe(s.route.includes('Hl7') ? 'application/hl7-v2' : 'application/fhir+json');
    }
    expect(new URL(samples[2]?.url ?? '').searchParams.get('encounterId')).toBe(IDS.encounter);
    expect(new URL(samples[3]?.url ?? '').searchParams.get('noteId')).toBe(IDS.note);
  });

  it('should write commands a shell turns back into the same URL and headers', () => {
    const samples = buildCurlSamples('http://127.0.0.1:8080', '', ids, { fhir: { literal: 'F' }, hl7: { literal: 'H' } });
    for (const s of samples) {
      // Replace curl by a printer of its arguments, one per line.
      const args = execFileSync('sh', ['-c', `curl() { printf '%s\\n' "$@"; }; ${s.command}`], { encoding: 'utf8' }).trimEnd().split('\n');
      expect(args.at(-1)).toBe(s.url);
      expect(args).toContain(`Accept: ${s.headers['accept']}`);
      if (s.headers['x-api-key'] !== undefined) expect(args).toContain(`x-api-key: ${s.headers['x-api-key']}`);
    }
  });

  it('should read a key from a shell variable when asked', () => {
    const [first] = buildCurlSamples('http://h:1', '', ids, { fhir: { variable: 'FHIR_API_KEY' }, hl7: { variable: 'HL7_API_KEY' } });
    const args = execFileSync('sh', ['-c', `curl() { printf '%s\\n' "$@"; }; ${first?.command}`], {
      encoding: 'utf8',
      env: { ...process.env, FHIR_API_KEY: 'from-env' },
    });
    expect(args).toContain('x-api-key: from-env');
  });

  it('should add the three deliberate failures with demo keys', () => {
    const samples = buildCurlSamples('http://h:1', '', ids, {
      fhir: { literal: 'F' },
      hl7: { literal: 'H' },
      failures: { revoked: 'R', fhirOnly: 'F', limited: 'L', limit: 3 },
    });
    const failures = samples.filter((s) => s.expectedStatus !== 200);
    expect(failures.map((s) => [s.expectedStatus, s.headers['x-api-key'], s.repeat])).toEqual([
      [401, 'R', 1],
      [403, 'F', 1],
      [429, 'L', 4],
    ]);
    expect(failures[2]?.command).toMatch(/^for i in 1 2 3 4; do curl /);
  });
});

describe('clientOrigin', () => {
  it('should turn wildcard addresses into loopback and bracket IPv6', () => {
    expect(clientOrigin('0.0.0.0', 80)).toBe('http://127.0.0.1:80');
    expect(clientOrigin('::', 81)).toBe('http://[::1]:81');
    expect(clientOrigin('::1', 82)).toBe('http://[::1]:82');
    expect(clientOrigin('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
  });
});
