/**
 * Facts the documentation restates from the code, checked against the code, so that a change in the code fails
 * `npm test` until the page follows:
 * - README.md and docs/endpoints.md: the route tables (paths, parameters, scopes, response types: against the handler's own
 *   OpenAPI description, so a new route fails until it has its row; the builder behind each route: by serving
 *   the route and building with the named builder), the limits table (`DEFAULT_LIMITS`) and the error codes;
 * - docs/errors.md: the status and code table, and the OperationOutcome issue code of each error, served;
 * - docs/chart-model.md: the limits table (`src/model/limits.ts`);
 * - docs/command-options.md: the options table (`--help` and the option parser, their environment variables and
 *   defaults);
 * - docs/operations.md: the readiness table, each row served by a handler, and the metrics createExportMetrics renders;
 * - docs/handler-options.md, docs/data-sources.md, docs/keys-and-rate-limits.md: every option of
 *   `createExportHandler`, every method of `ChartDataSource`, the default timeout and key limits;
 * - docs/api.md and the module comment of src/index.ts: every export they name exists, and every value export of
 *   each entry point is named in docs/api.md (or the page it links for that area);
 * - docs/errors.md: the `invalidParams[].reason` values, as the OpenAPI description declares them;
 * - docs/mllp.md: the defaults of the MLLP client's options table;
 * - one version story: package.json and the CHANGELOG's sections; the banner docs/command.md shows is the one
 *   the built command prints.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import * as http from '../../src/http/index.js';
import * as testing from '../../src/testing/index.js';
import * as mllp from '../../src/mllp/index.js';
import * as postgres from '../../src/postgres/index.js';
import { resolveOptions as resolveMllpOptions } from '../../src/mllp/options.js';
import * as limits from '../../src/model/limits.js';
import { HELP_TEXT, parseCliOptions } from '../../src/cli/command-line.js';
import { ensureBuilt, ROOT, startCli } from '../examples/support/process.js';

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The rows of the Markdown table between `<!-- name:start` and `<!-- name:end -->`, cells trimmed, header and rule dropped. */
function markedTable(file: string, name: string): string[][] {
  const text = read(file);
  const start = text.indexOf(`<!-- ${name}:start`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`${file} has no table marked ${name}:start … ${name}:end`);
  return tableRows(text.slice(start, end));
}

/** The rows of the first Markdown table after the heading `heading` (exact text) in `file`. */
function tableUnder(file: string, heading: string): string[][] {
  const text = read(file);
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${file} has no heading ${heading}`);
  const rest = text.slice(at + heading.length + 2);
  const table = /(?:^\|.*\n)+/m.exec(rest);
  if (table === null) throw new Error(`${file}: no table under ${heading}`);
  return tableRows(table[0]);
}

function tableRows(text: string): string[][] {
  const rows = text
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .map((l) => l.replace(/\\\|/g, '\uE000').split('|').slice(1, -1).map((c) => c.replace(/\uE000/g, '|').trim()));
  return rows.filter((r, i) => i !== 0 && !r.every((c) => /^:?-+:?$/.test(c)));
}

/** The words in backticks of a cell: "`a`, `b`" → ['a', 'b']. */
const codes = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

/** A number as the docs write it: thin groups of three digits separated by spaces (1 048 576). */
const spaced = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 20 }).replace(/,/g, ' ');

type Json = Record<string, unknown>;
const openApi = http.createOpenApiDocument({ operationalRoutes: false }) as unknown as { paths: Record<string, { get: Json }>; components: { parameters: Record<string, Json> } } & Json;

/** Walks a JSON value and calls `visit` on every object. */
function walk(value: unknown, visit: (o: Json) => void): void {
  if (Array.isArray(value)) value.forEach((v) => walk(v, visit));
  else if (value !== null && typeof value === 'object') {
    visit(value as Json);
    Object.values(value).forEach((v) => walk(v, visit));
  }
}

/** Follows a local `$ref`. */
function deref(o: Json): Json {
  const ref = o['$ref'];
  if (typeof ref !== 'string') return o;
  return ref.slice(2).split('/').reduce<Json>((at, key) => at[key] as Json, openApi);
}

describe('docs/endpoints.md', () => {
  const rows = markedTable('docs/endpoints.md', 'routes');

  it('should list every Bulk Data route of the OpenAPI description, with its methods, query parameters and scope', () => {
    for (const row of markedTable('docs/endpoints.md', 'bulk-routes')) {
      const [path = '', methods = '', parameters = '', scope = ''] = row;
      const item = (openApi.paths[codes(path)[0] ?? ''] ?? {}) as Record<string, Json>;
      const served = Object.keys(item).filter((m) => !m.startsWith('x-'));
      expect(codes(methods).map((m) => m.toLowerCase()), path).toEqual(served);
      const first = item[served[0] ?? ''];
      const names = ((first?.['parameters'] as Json[] | undefined) ?? []).map((p) => deref(p)).filter((p) => p['in'] === 'query').map((p) => p['name']);
      expect(codes(parameters), path).toEqual(names);
      const security = (first?.['security'] as Record<string, string[]>[] | undefined) ?? [];
      expect(scope === 'none (no key)' || scope === '' ? [] : codes(scope), path).toEqual(security.flatMap((s) => Object.values(s).flat()));
    }
  });

  it('should list every route the handler serves, once, with its parameters, scope and response type', () => {
    const bulk = markedTable('docs/endpoints.md', 'bulk-routes').map((r) => codes(r[0] ?? '')[0]);
    const documented = rows.map((r) => codes(r[0] ?? '')[0]);
    expect([...documented, ...bulk]).toEqual(Object.keys(openApi.paths));
    for (const row of rows) {
      const [path = '', parameters = '', scope = '', response = ''] = row;
      const operation = openApi.paths[codes(path)[0] ?? '']?.get as Json;
      const names = (operation['parameters'] as Json[]).map((p) => deref(p)).filter((p) => p['in'] === 'query').map((p) => p['name']);
      expect(codes(parameters), path).toEqual(names);
      const security = (operation['security'] as Record<string, string[]>[] | undefined) ?? [];
      const scopes = security.flatMap((s) => Object.values(s).flat());
      expect(scope === 'none (no key)' ? [] : codes(scope), path).toEqual(scopes);
      const ok = (operation['responses'] as Record<string, Json>)['200'] as Json;
      const type = Object.keys(ok['content'] as Json)[0];
      expect(type, path).toBe(response.startsWith('FHIR') ? 'application/fhir+json; charset=utf-8' : 'application/hl7-v2; charset=utf-8');
    }
  });

  it("should give the id rule's length as the handler checks it, and every route in the README's short table", () => {
    const patientId = openApi.components.parameters['patientId'] as { schema: { maxLength: number } };
    expect(patientId.schema.maxLength).toBe(limits.ID_MAX);
    expect(read('docs/endpoints.md')).toContain(`An id is 1–${limits.ID_MAX} UTF-16 code units`);
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('| Route | Scope | Answers |'));
    const routes = tableRows(table.slice(0, table.indexOf('\n\n'))).flatMap((r) => codes(r[0] ?? ''));
    expect(routes.sort()).toEqual(Object.keys(openApi.paths).sort());
  });

  it('should name the builder behind each route: the route answers what that builder gives', async () => {
    const document = http.loadChartDocument(read('examples/data/demo-chart.json'));
    const patient = document.patients[0];
    if (patient === undefined) throw new Error('the demo chart has no patient');
    const now = Date.parse('2026-03-01T15:00:00Z');
    const hl7 = { sendingApplication: 'CHART-EXPORT', sendingFacility: 'RIVERSIDE' };
    const handler = http.createExportHandler({
      dataSource: http.createInMemoryDataSource(document),
      keyStore: http.createInMemoryKeyStore([{ keyHash: await http.hashApiKey('k'), partnerId: 'p', scopes: ['fhir:export', 'hl7:export'] }]),
      now: () => now,
      hl7: { ...hl7, controlId: ({ route }) => (route === 'exportHl7Note' ? 'MDM1' : route === 'exportHl7Assessment' ? 'ORU1' : route === 'exportHl7PatientSummary' ? 'ADR1' : 'ADT1') },
    });
    const ids = {
      patientId: patient.patient.id,
      encounterId: patient.encounters?.[0]?.id ?? '',
      noteId: patient.notes?.[0]?.id ?? '',
      assessmentId: patient.assessments?.[0]?.id ?? '',
      resourceType: 'Practitioner',
    };
    const fhirOptions = { now: new Date(now).toISOString(), ...(document.directory === undefined ? {} : { directory: document.directory }) };
    const hl7Options = (controlId: string): Json => ({ ...fhirOptions, now: '2026-03-01T15:00:00+00:00', ...hl7, controlId });
    const directory = document.directory ?? {};
    for (const row of rows) {
      const path = codes(row[0] ?? '')[0] ?? '';
      const builder = codes(row[5] ?? '')[0] ?? '';
      const fn = (core as unknown as Record<string, (...args: unknown[]) => unknown>)[builder];
      expect(typeof fn, `${path}: ${builder} is an export of chart-export`).toBe('function');
      const query = codes(row[1] ?? '')
        .filter((n) => n in ids)
        .map((n) => `${n}=${encodeURIComponent(ids[n as keyof typeof ids])}`)
        .join('&');
      const response = await handler(new Request(`http://localhost${path}?${query}`, { headers: { 'x-api-key': 'k' } }));
      expect(response.status, path).toBe(200);
      const body = await response.text();
      const hl7Route = path.startsWith('/exportHl7');
      const controlId = /^MSH\|[^|]*\|[^|]*\|[^|]*\|[^|]*\|[^|]*\|[^|]*\|[^|]*\|[^|]*\|([^|]*)/.exec(body)?.[1] ?? '';
      // The route's limit parameters are absent: the handler passes their defaults.
      const options = hl7Route ? { ...hl7Options(controlId), ...(path === '/exportHl7PatientSummary' ? { limit: http.DEFAULT_LIMITS.summary.default } : {}) } : fhirOptions;
      const record = path.endsWith('Encounter') ? ids.encounterId : path.endsWith('Note') ? ids.noteId : path.endsWith('Assessment') ? ids.assessmentId : undefined;
      // The directory's first page: the records in id order, up to the default limit, with the links it answered.
      const page = [...(directory.practitioners ?? [])].sort((a, b) => http.compareIds(a.id, b.id)).slice(0, http.DEFAULT_LIMITS.directory.default);
      const links = path === '/publicFhirDirectory' ? (JSON.parse(body) as { link?: unknown }).link : undefined;
      const built =
        path === '/publicFhirDirectory'
          ? fn?.({ ...directory, practitioners: page }, 'Practitioner', { now: fhirOptions.now, limit: http.DEFAULT_LIMITS.directory.default, link: links })
          : record === undefined
            ? fn?.(patient, options)
            : fn?.(patient, record, options);
      // Compared without printing both bodies on failure: they are long.
      expect(body === (typeof built === 'string' ? built : JSON.stringify(built)), `${path} answers what ${builder} gives`).toBe(true);
    }
  });

  it("should give each limit's default and maximum as DEFAULT_LIMITS and the OpenAPI description do", () => {
    const table = tableUnder('docs/endpoints.md', '## Limits');
    const byKey = new Map(table.map((r) => [codes(r[4] ?? '')[0], r]));
    expect([...byKey.keys()].sort()).toEqual(Object.keys(http.DEFAULT_LIMITS).sort());
    for (const [key, { default: def, max }] of Object.entries(http.DEFAULT_LIMITS)) {
      const [parameter = '', route = '', documentedDefault, documentedMax] = byKey.get(key) ?? [];
      expect([documentedDefault, documentedMax], key).toEqual([String(def), String(max)]);
      const operation = openApi.paths[codes(route)[0] ?? '']?.get as Json;
      const names = (operation['parameters'] as Json[]).map((p) => deref(p)['name']);
      expect(names, key).toContain(codes(parameter)[0]);
    }
  });

  it('should list exactly the error statuses and codes the routes answer with', () => {
    const answered = new Set<string>();
    walk(openApi, (o) => {
      const properties = o['properties'] as Json | undefined;
      const status = (properties?.['status'] as Json | undefined)?.['const'];
      const code = (properties?.['code'] as Json | undefined)?.['enum'];
      if (typeof status === 'number' && Array.isArray(code)) code.forEach((c) => answered.add(`${status} ${String(c)}`));
    });
    const documented = markedTable('docs/endpoints.md', 'errors').map((r) => `${r[0]} ${codes(r[1] ?? '')[0]}`);
    expect(new Set(documented)).toEqual(answered);
    const errorsPage = tableUnder('docs/errors.md', '## Error formats').flatMap((r) => codes(r[1] ?? '').map((c) => `${r[0]} ${c}`));
    expect(new Set(errorsPage)).toEqual(answered);
  });
});

describe('docs/errors.md', () => {
  it("should give the OperationOutcome issue code each error really has on a FHIR route", async () => {
    const document = http.loadChartDocument(read('examples/data/demo-chart.json'));
    const base = http.createInMemoryDataSource(document);
    const dataSource: http.ChartDataSource = {
      ...base,
      getPatient: async (id: string, signal?: AbortSignal) => {
        if (id === 'boom') throw new Error('broken store');
        if (id === 'down') throw new http.DataSourceUnavailableError('down');
        return base.getPatient(id, signal);
      },
    };
    const entry = async (key: string, scopes: http.InMemoryKeyEntry['scopes'], limit = 600): Promise<http.InMemoryKeyEntry> =>
      ({ keyHash: await http.hashApiKey(key), partnerId: key, keyId: key, scopes, rateLimit: { limit, windowSeconds: 60 } });
    const handler = http.createExportHandler({
      dataSource,
      keyStore: http.createInMemoryKeyStore([await entry('full', ['fhir:export', 'hl7:export']), await entry('hl7', ['hl7:export']), await entry('one', ['fhir:export'], 1)]),
      onError: () => undefined,
    });
    const issueCodes = async (path: string, init: { key?: string; method?: string; accept?: string } = {}): Promise<string> => {
      const headers: Record<string, string> = {};
      if (init.key !== undefined) headers['x-api-key'] = init.key;
      if (init.accept !== undefined) headers['accept'] = init.accept;
      const response = await handler(new Request(`http://localhost${path}`, { method: init.method ?? 'GET', headers }));
      const body = JSON.parse(await response.text()) as { issue?: { code: string }[] };
      return `${response.status} ${(body.issue ?? []).map((i) => i.code).join(',') || response.headers.get('content-type')}`;
    };
    const p = '/exportFhirPatient?patientId=';
    await issueCodes(`${p}pat-0001`, { key: 'one' }); // uses up the key limited to one request
    const answered = [
      await issueCodes('/exportFhirPatient', { key: 'full' }),
      await issueCodes(`${p}%20x`, { key: 'full' }),
      await issueCodes(`${p}%zz`, { key: 'full' }),
      await issueCodes(`${p}pat-0001`),
      await issueCodes(`${p}pat-0001`, { key: 'unknown' }),
      await issueCodes(`${p}pat-0001`, { key: 'hl7' }),
      await issueCodes(`${p}nobody`, { key: 'full' }),
      await issueCodes(`${p}pat-0001`, { key: 'full', method: 'POST' }),
      await issueCodes(`${p}pat-0001`, { key: 'full', accept: 'text/html' }),
      await issueCodes(`${p}pat-0001`, { key: 'one' }),
      await issueCodes(`${p}boom`, { key: 'full' }),
      await issueCodes(`${p}down`, { key: 'full' }),
    ];
    const documented = new Map(tableUnder('docs/errors.md', '## Error formats').map((r) => [r[0], codes(r[2] ?? '')]));
    for (const answer of answered) {
      const [status = '', issues = ''] = answer.split(' ');
      for (const issue of issues.split(',')) expect(documented.get(status), answer).toContain(issue);
    }
    expect(new Set(answered.map((a) => a.split(' ')[0]))).toEqual(new Set(documented.keys()));
  });
});

describe('docs/mllp.md options', () => {
  it("should give the defaults the MLLP client applies", () => {
    const rows = new Map(tableUnder('docs/mllp.md', '### Options').map((r) => [codes(r[0] ?? '')[0] ?? '', r[1] ?? '']));
    const d = resolveMllpOptions({ host: 'engine.example.org', port: 2575 });
    expect(rows.get('ackTimeoutMs')).toBe(spaced(d.ackTimeoutMs));
    expect(rows.get('connectTimeoutMs')).toBe(spaced(d.connectTimeoutMs));
    expect(rows.get('maxQueued')).toBe(spaced(d.maxQueued));
    expect(rows.get('maxFrameBytes')).toBe(`${d.maxFrameBytes / 2 ** 20} MiB`);
    expect(rows.get('retry.attempts')).toBe(`${spaced(d.retryAttempts)}, ${spaced(d.retryDelayMs)}`);
    expect(rows.get('reconnect.initialDelayMs')).toBe(`${spaced(d.initialDelayMs)}, ${spaced(d.maxDelayMs)}, ${spaced(d.maxConnectAttempts)}`);
    expect([rows.get('tls'), rows.get('observer'), d.tls, d.observer]).toEqual(['off', 'none', undefined, undefined]);
  });
});

describe('docs/errors.md parameter reasons', () => {
  it('should list every invalidParams reason the OpenAPI description (which every HTTP test answer is checked against) declares', () => {
    const text = read('docs/errors.md');
    const sentence = text.slice(text.indexOf('`invalidParams[].reason` is one of'));
    // The list ends at the first parenthesis (which explains the last reason) or the paragraph's end.
    const documented = [...sentence.slice(0, sentence.search(/ \(|\n\n/)).matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    expect(documented).toEqual(deref({ $ref: '#/components/schemas/Problem/properties/invalidParams/items/properties/reason' })['enum']);
  });
});

describe('docs/chart-model.md limits', () => {
  const rows = tableUnder('docs/chart-model.md', '## Limits');
  const row = (label: RegExp): string => {
    const found = rows.find((r) => label.test(r[0] ?? ''));
    if (found === undefined) throw new Error(`no row ${label} in the limits table`);
    return found[1] ?? '';
  };

  it('should give the figures of src/model/limits.ts', () => {
    expect(row(/^Any id/)).toContain(`1–${limits.ID_MAX} `);
    expect(row(/^Code, language tag/)).toBe(`${limits.CODE_MAX} characters`);
    expect(limits.LANGUAGE_MAX).toBe(limits.CODE_MAX);
    expect(row(/^Text$/)).toContain(spaced(limits.FHIR_STRING_MAX));
    expect(row(/^Note text/)).toContain(`${spaced(limits.NOTE_UTF8_MAX)} UTF-8 bytes`);
    expect(row(/^Contact value/)).toContain(`${limits.HL7_CONTACT_MAX} characters`);
    expect(row(/^Identifier system/)).toContain(`${limits.HL7_UNIVERSAL_ID_MAX} characters`);
    expect(row(/^Identifier value/)).toContain(`${limits.HL7_COMPOSITE_MAX} characters`);
    expect(row(/^Coverage/)).toContain(`${limits.HL7_MEMBER_ID_MAX} characters`);
    expect(row(/^String answer/)).toContain(`${spaced(limits.HL7_OBX5_MAX)} characters`);
    expect(row(/^Score interpretation/)).toContain(`${spaced(limits.HL7_NTE3_MAX)} characters`);
    const nm = row(/^Number answer/);
    expect(nm).toContain(`10^${Math.log10(limits.HL7_NM_ABS_MIN)} to below 10^${Math.log10(limits.HL7_NM_ABS_MAX)}`);
    expect(nm).toContain(spaced(limits.HL7_NM_NEGATIVE_ABS_MAX));
    const setIds = row(/^Records HL7 numbers/);
    const s = limits.HL7_SET_ID_LIMITS;
    expect(new Set([s.coverages, s.diagnoses, s.procedures, s.medicalHistory])).toEqual(new Set([s.coverages]));
    expect(setIds).toContain(`medical-history entries: ${spaced(s.coverages)}`);
    expect(setIds).toContain(`encounters: ${spaced(s.encounters)}`);
    expect(setIds).toContain(`answers of one assessment: ${spaced(s.answers)}`);
    expect(read('docs/chart-model.md')).toContain(`more than ${spaced(s.summaryObx)} OBX`);
  });
});

describe('docs/command-options.md', () => {
  const rows = markedTable('docs/command-options.md', 'options');
  /** `--help`'s option → environment variable pairs: each option's entry ends with its variable. */
  const helpPairs = (): Map<string, string> => {
    const section = HELP_TEXT.slice(HELP_TEXT.indexOf('Options ('), HELP_TEXT.indexOf('  -h, --help'));
    const entries = section.split(/\n(?= {2}--)/).slice(1);
    return new Map(entries.map((e) => [/^ {2}(--[a-z-]+)/.exec(e)?.[1] ?? '', /\b(PORT|CHART_EXPORT_[A-Z0-9_]+)\b(?![\s\S]*\b(?:PORT|CHART_EXPORT_[A-Z0-9_]+)\b)/.exec(e)?.[1] ?? '']));
  };
  const parserOptions = (): string[] => {
    const source = read('src/cli/command-line.ts');
    const block = source.slice(source.indexOf('options: {', source.indexOf('parseArgs({')));
    return [...block.slice(0, block.indexOf('\n      },')).matchAll(/^\s+'?([a-z-]+)'?: \{ type:/gm)].map((m) => `--${m[1] as string}`);
  };

  it('should list every option of --help and of the parser, each with its environment variable', () => {
    const documented = new Map(rows.map((r) => [/^`(--[a-z-]+)/.exec(r[0] ?? '')?.[1] ?? '', /`(PORT|CHART_EXPORT_[A-Z0-9_]+)/.exec(r[1] ?? '')?.[1] ?? '']));
    expect(documented).toEqual(helpPairs());
    expect([...documented.keys()].sort()).toEqual(parserOptions().filter((o) => o !== '--help' && o !== '--version').sort());
  });

  it('should give the defaults the parser applies', () => {
    const defaults = parseCliOptions([], {});
    const documented = new Map(rows.map((r) => [/^`(--[a-z-]+)/.exec(r[0] ?? '')?.[1] ?? '', r[2] ?? '']));
    expect(documented.get('--port')).toBe(String(defaults.port));
    expect(documented.get('--host')).toContain(defaults.host);
    expect(documented.get('--sending-application')).toBe(`\`${defaults.sendingApplication}\``);
    expect(documented.get('--shutdown-timeout')).toBe(String(defaults.shutdownTimeoutSeconds));
    expect(documented.get('--headers-timeout')).toBe(String(defaults.server.headersTimeoutMs / 1000));
    expect(documented.get('--request-timeout')).toBe(String(defaults.server.requestTimeoutMs / 1000));
    expect(documented.get('--keep-alive-timeout')).toBe(String(defaults.server.keepAliveTimeoutMs / 1000));
    expect(documented.get('--max-connections')).toBe(String(defaults.server.maxConnections));
    expect([defaults.metrics, defaults.log, defaults.redisUrl, defaults.directoryRateLimit]).toEqual([false, undefined, undefined, undefined]);
    expect([documented.get('--metrics'), documented.get('--log'), documented.get('--directory-rate-limit')]).toEqual(['off', 'off', 'no limit']);
  });
});

describe('docs/operations.md readiness', () => {
  it('should answer as each row of the readiness table says', async () => {
    const rows = markedTable('docs/operations.md', 'readiness');
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const down = async (): Promise<void> => Promise.reject(new Error('down'));
    const up = async (): Promise<void> => undefined;
    /** Every case a row covers: limiter ping (resolves, none, rejects) × failsOpen × data source ping. */
    const cases = (cell: string, kind: 'limiter' | 'source'): { ping?: () => Promise<void>; failsOpen?: boolean }[] => {
      const out: { ping?: () => Promise<void>; failsOpen?: boolean }[] = [];
      if (/^any$/.test(cell) || /resolves/.test(cell)) out.push({ ping: up }, {});
      if (/^any$/.test(cell) || /rejects/.test(cell)) {
        if (kind === 'source') out.push({ ping: down });
        else {
          if (/^any$/.test(cell) || /`failsOpen: true`/.test(cell)) out.push({ ping: down, failsOpen: true });
          if (/^any$/.test(cell) || /absent or `false`/.test(cell)) out.push({ ping: down }, { ping: down, failsOpen: false });
        }
      }
      return out;
    };
    const document = http.loadChartDocument('{"patients": []}');
    for (const [limiterCell = '', sourceCell = '', answer = ''] of rows) {
      const expected = /`(\d{3}) (\{.*\})`/.exec(answer);
      if (expected === null) throw new Error(`no answer in ${answer}`);
      for (const limiter of cases(limiterCell, 'limiter')) {
        for (const source of cases(sourceCell, 'source')) {
          const base = http.createFixedWindowRateLimiter();
          const rateLimiter: http.RateLimiter = { consume: (...a) => base.consume(...a), ...limiter };
          const dataSource = Object.assign(Object.create(http.createInMemoryDataSource(document)) as http.ChartDataSource, source.ping === undefined ? {} : { ping: source.ping });
          const handler = http.createExportHandler({ dataSource, keyStore: http.createInMemoryKeyStore([]), rateLimiter, healthRoutes: true, onError: () => undefined });
          const response = await handler(new Request('http://localhost/readyz'));
          const what = `${limiterCell} / ${sourceCell}: ${JSON.stringify({ limiter: limiter.ping === up ? 'up' : limiter.ping === down ? 'down' : 'none', failsOpen: limiter.failsOpen, source: source.ping === up ? 'up' : source.ping === down ? 'down' : 'none' })}`;
          expect(`${response.status} ${await response.text()}`, what).toBe(`${expected[1]} ${expected[2]}`);
        }
      }
    }
  });
});

describe('docs/data-sources.md', () => {
  it('should show the ChartDataSource interface with every method chart-export/http declares', () => {
    const methods = (text: string): string[] => [...text.matchAll(/^ {2}([a-zA-Z]+\??)\(/gm)].map((m) => m[1] as string);
    const page = read('docs/data-sources.md');
    const start = page.indexOf('export interface ChartDataSource {');
    expect(methods(page.slice(start, page.indexOf('\n}', start)))).toEqual(methods(declarationIn('src/http', 'ChartDataSource')));
  });
});

/** The declaration `export interface <name> {…}` in a file of src/http (wherever a refactor moved it). */
function declarationIn(dir: string, name: string): string {
  const head = `export interface ${name} {`;
  for (const file of readdirSync(join(ROOT, dir), { recursive: true }).map(String).filter((f) => f.endsWith('.ts'))) {
    const text = read(`${dir}/${file}`);
    const start = text.indexOf(head);
    if (start >= 0) return text.slice(start, text.indexOf('\n}', start));
  }
  throw new Error(`no \`${head}\` in ${dir}`);
}

describe('docs/handler-options.md and docs/keys-and-rate-limits.md', () => {
  it('should list every option of createExportHandler, with the default timeout', () => {
    const declared = [...declarationIn('src/http', 'ExportHandlerOptions').matchAll(/^ {2}readonly ([a-zA-Z0-9]+)\??:/gm)].map((m) => m[1]);
    const rows = tableUnder('docs/handler-options.md', '## Options');
    expect(rows.map((r) => codes(r[0] ?? '')[0])).toEqual(declared);
    const timeout = rows.find((r) => r[0] === '`dataSourceTimeoutMs`')?.[1] ?? '';
    expect(timeout).toContain(`\`${http.DEFAULT_DATA_SOURCE_TIMEOUT_MS}\``);
  });

  it('should give the key limits the package exports', () => {
    const text = read('docs/keys-and-rate-limits.md').replace(/\s+/g, ' ');
    expect(text).toContain(`Keys longer than ${http.MAX_API_KEY_LENGTH} characters`);
    const { limit, windowSeconds } = http.DEFAULT_KEY_RATE_LIMIT;
    expect(text).toContain(`Entries without \`rateLimit\` get ${limit} requests per ${windowSeconds} seconds`);
    expect([...http.API_KEY_SCOPES]).toEqual(['fhir:export', 'hl7:export']);
  });
});

describe('docs/operations.md metrics', () => {
  it('should list every metric createExportMetrics renders', () => {
    const rendered = [...http.createExportMetrics().render().matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]);
    const documented = tableUnder('docs/operations.md', '## OpenAPI description and Prometheus metrics')
      .filter((r) => (r[0] ?? '').startsWith('`chart_export_'))
      .map((r) => codes(r[0] ?? '')[0]);
    expect(documented).toEqual(rendered);
  });
});

describe('export names the docs give', () => {
  const all = new Set([core, http, testing, mllp, postgres].flatMap((entry) => Object.keys(entry)));
  const declared = (entry: string): Set<string> => {
    // Types are erased at run time: read them from the entry's source (`export type { A, B }` and `type A` in lists).
    const source = read(entry);
    return new Set([...source.matchAll(/\b([A-Z][A-Za-z0-9]+)\b/g)].map((m) => m[1] as string));
  };
  const types = new Set(['src/index.ts', 'src/http/index.ts', 'src/testing/index.ts', 'src/mllp/index.ts', 'src/postgres/index.ts'].flatMap((e) => [...declared(e)]));
  /** The words of the pages, prose and code blocks alike. */
  const named = (files: readonly string[]): Set<string> => new Set(files.flatMap((f) => read(f).match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []));

  it('should name every value export of every entry point in docs/api.md or the page it sends the reader to', () => {
    // The core's builders, mappers and HL7 functions are listed on the pages docs/api.md links for them; every
    // other entry point is listed in docs/api.md itself (chart-export/testing on its own page).
    const pages: [string, Record<string, unknown>, string[]][] = [
      ['chart-export', core, ['docs/api.md', 'docs/fhir.md', 'docs/hl7.md', 'docs/chart-model.md']],
      ['chart-export/http', http, ['docs/api.md']],
      ['chart-export/testing', testing, ['docs/property-testing.md']],
      ['chart-export/mllp', mllp, ['docs/api.md']],
      ['chart-export/postgres', postgres, ['docs/api.md']],
    ];
    for (const [entry, exports, files] of pages) {
      const documented = named(files);
      expect(Object.keys(exports).filter((n) => !documented.has(n)), `${entry}: exports that ${files.join(', ')} never name`).toEqual([]);
    }
  });

  it('should name only exports in the lists of docs/api.md', () => {
    const text = read('docs/api.md');
    const lists = text.slice(0, text.indexOf('## API reference'));
    const names = [...lists.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1] as string).filter((n) => /^(?:[a-z]+[A-Z]|[A-Z])/.test(n) && n !== 'exactOptionalPropertyTypes');
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((n) => !all.has(n) && !types.has(n))).toEqual([]);
  });

  it('should name only exports of chart-export in the module comment of src/index.ts', () => {
    const source = read('src/index.ts');
    const comment = source.slice(0, source.indexOf('*/'));
    const names = [...comment.matchAll(/`([a-z][A-Za-z0-9]+)`/g)].map((m) => m[1] as string).filter((n) => /[A-Z]/.test(n) && !['bundleId', 'controlId', 'queryId'].includes(n));
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !(n in core))).toEqual([]);
  });
});

describe('one version story', () => {
  const { version } = JSON.parse(read('package.json')) as { version: string };
  const changelog = read('CHANGELOG.md');
  const sections = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1] as string);

  it('should keep unreleased work under [Unreleased] and name a released version only when package.json does', () => {
    expect(sections[0]).toBe('Unreleased');
    const prerelease = /^(\d+\.\d+\.\d+)-/.exec(version);
    if (prerelease !== null) {
      // A development version: its release is still to come, so it has no section of its own yet.
      expect(sections).not.toContain(prerelease[1]);
    } else {
      expect(sections[1]).toBe(version);
    }
  });

  it('should show the banner the command really prints (docs/command.md, the demo service)', async () => {
    ensureBuilt();
    const service = await startCli(['--port', '0']);
    try {
      const printed = service.stdout().replaceAll(service.origin, 'http://127.0.0.1:8080').trimEnd();
      const page = read('docs/command.md');
      const block = /```text\n(chart-export [\s\S]*?)\n```/.exec(page)?.[1];
      expect(block).toBe(printed);
    } finally {
      await service.stop();
    }
  }, 30_000);

  it("should show the package's version in the banner the docs print", () => {
    const banners = [...read('docs/command.md').matchAll(/^chart-export (\S+) listening/gm)].map((m) => m[1]);
    expect(banners.length).toBeGreaterThan(0);
    expect(new Set(banners)).toEqual(new Set([version]));
  });
});
