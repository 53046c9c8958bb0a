/**
 * The streamed HL7 patient summary, in both modes (the fetch handler and the Node listener on a real server): a
 * summary guessed long (`guessHl7SummaryChars`) is produced by `streamAdrA19` and sent chunked, byte for byte
 * the core builder's summary of the whole chart; HL7's Content-Type stays; HEAD gives GET's headers; a short
 * summary stays one write with Content-Length.
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { buildAdrA19, checkChartDocument, type ChartDocument, type ClinicalNote, type PatientChart } from '../../src/index.js';
import { createExportHandler, createInMemoryDataSource, toNodeListener, type ExportHandler, type ExportHandlerOptions } from '../../src/http/index.js';
import { guessHl7SummaryChars } from '../../src/http/routes/renderers.js';
import { STREAM_MIN_CHARS } from '../../src/http/output/streamed-body.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { runs } from '../support/runs.js';
import { expectHl7 } from './support/bodies.js';
import { KEYS } from './support/fixture.js';
import { NOW_MS, describeMatrix, fixtureOptions, listen, serve, type Mode } from './support/harness.js';

const q = encodeURIComponent;
const key = { 'x-api-key': KEYS.both };
const HL7 = { sendingApplication: 'CHART-EXPORT', sendingFacility: 'RIVERSIDE', receivingApplication: 'PARTNER', receivingFacility: 'PARTNER-FAC', processingId: 'T' } as const;
/** A host that raised the summary's maximum, so one summary can hold every record of a long chart. */
const LIMITS = { summary: { default: 50, max: 5000 } };

/** A long note text of realistic words, delimiters and non-ASCII text included (no patient value), `n` characters. */
function longText(seed: number, n: number): string {
  const words = ['Subjective:', 'sleeps', 'better|', 'mood^', 'stable~', 'Plan:', 'café', '\\continue\\', 'therapy&', 'weekly.\n'];
  let out = '';
  for (let i = 0; out.length < n; i++) out += `${words[(i * 7 + seed) % words.length]} `;
  return `${out.slice(0, n).trimEnd()}.`;
}

/** A note of `n` characters, without encounter. */
const longNote = (n: number): ClinicalNote => ({ id: 'long-note', type: 'progress-note', title: 'Long note', status: 'final', authored: '2026-01-01T09:00:00Z', text: longText(0, n) });

/** The document with every note of every patient made `n` characters long (a patient without notes gets one). */
function withLongNotes(doc: ChartDocument, n: number): ChartDocument {
  return {
    ...doc,
    patients: doc.patients.map((c) => ({
      ...c,
      notes: c.notes === undefined || c.notes.length === 0 ? [longNote(n)] : c.notes.map((note, i): ClinicalNote => ({ ...note, text: longText(i, n) })),
    })),
  };
}

interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A caller that gives every header as sent (the node mode reads a real socket). */
async function rawCaller(mode: Mode, handler: ExportHandler): Promise<(path: string, method?: string) => Promise<RawResponse>> {
  if (mode === 'fetch') {
    return async (path, method = 'GET') => {
      const response = await handler(new Request(`http://127.0.0.1${path}`, { method, headers: key }));
      const out: Record<string, string> = {};
      response.headers.forEach((v, k) => (out[k] = v));
      return { status: response.status, headers: out, body: await response.text() };
    };
  }
  const port = await listen(toNodeListener(handler));
  return (path, method = 'GET') =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: key, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
}

async function options(doc: ChartDocument): Promise<ExportHandlerOptions> {
  return fixtureOptions({ dataSource: createInMemoryDataSource(doc), limits: LIMITS, hl7: { ...HL7, controlId: () => 'ADR000001' } });
}

/** The core builder's summary of the whole chart, at the handler's time and control id. */
function expected(chart: PatientChart, doc: ChartDocument, limit: number): string {
  const o = { ...HL7, controlId: 'ADR000001', now: new Date(NOW_MS).toISOString(), limit };
  return buildAdrA19(chart, doc.directory === undefined ? o : { ...o, directory: doc.directory });
}

describeMatrix('the streamed HL7 summary', (mode: Mode) => {
  it("should send byte for byte the core builder's summary, streamed (no Content-Length) when it is long", async () => {
    let streamed = 0;
    await fc.assert(
      fc.asyncProperty(
        arbChartDocument({ mappable: true, maxPatients: 2 })
          .map((doc) => withLongNotes(doc, 300_000))
          .filter((doc) => checkChartDocument(doc).length === 0),
        fc.constantFrom(1, 3, 8, 5000),
        async (doc, limit) => {
          const call = await rawCaller(mode, createExportHandler(await options(doc)));
          for (const chart of doc.patients) {
            const res = await call(`/exportHl7PatientSummary?patientId=${q(chart.patient.id)}&limit=${limit}`);
            const want = expected(chart, doc, limit);
            expect(res.status).toBe(200);
            expect(res.headers['content-type']).toBe('application/hl7-v2; charset=utf-8');
            expect(res.body).toBe(want);
            // A long body (read as a stream past the threshold) has no Content-Length; a short one has its own.
            if (want.length >= STREAM_MIN_CHARS) {
              expect(res.headers['content-length']).toBeUndefined();
              streamed++;
            } else expect(res.headers['content-length']).toBe(String(Buffer.byteLength(want)));
          }
        },
      ),
      { numRuns: runs(mode === 'fetch' ? 8 : 4), endOnFailure: true },
    );
    // The property did reach the streamed path (generated charts of a few long notes).
    expect(streamed).toBeGreaterThan(0);
  });

  it('should answer HEAD of a streamed summary with GET’s headers and no body, and pass the v2.5.1 structure check', async () => {
    const doc = withLongNotes(
      {
        patients: [
          {
            patient: { id: 'p1', identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1' }], names: [{ family: 'Doe' }] },
            notes: [0, 1, 2, 3].map((i): ClinicalNote => ({ id: `n${i}`, type: 'progress-note', title: `Note ${i}`, status: 'final', authored: `2026-01-0${i + 1}T09:00:00Z`, text: '' })),
          },
        ],
      },
      150_000,
    );
    const chart = doc.patients[0] as PatientChart;
    expect(guessHl7SummaryChars(chart, 50)).toBeGreaterThanOrEqual(STREAM_MIN_CHARS);
    const call = await rawCaller(mode, createExportHandler(await options(doc)));
    const get = await call('/exportHl7PatientSummary?patientId=p1');
    const head = await call('/exportHl7PatientSummary?patientId=p1', 'HEAD');
    expect(get.body).toBe(expected(chart, doc, 50));
    expect(get.headers['content-length']).toBeUndefined();
    if (mode === 'node') expect(get.headers['transfer-encoding']).toBe('chunked');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const strip = (h: Readonly<Record<string, string>>): Record<string, string> => {
      const { date: _d, 'x-request-id': _r, 'x-ratelimit-remaining': _x, 'transfer-encoding': _t, ...rest } = h;
      return rest;
    };
    expect(strip(head.headers)).toEqual(strip(get.headers));
    const checked = await serve(mode, await options(doc));
    expectHl7(await checked('/exportHl7PatientSummary?patientId=p1', { headers: key }), 'ADR^A19^ADR_A19', true);
  });

  it('should keep the short summary of a small chart one write with its Content-Length', async () => {
    const call = await rawCaller(mode, createExportHandler(await fixtureOptions({ hl7: { ...HL7, controlId: () => 'ADR000001' } })));
    const res = await call(`/exportHl7PatientSummary?patientId=pat-0001`);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
  });
});
