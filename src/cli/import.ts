/// <reference types="node" />
/**
 * `chart-export db import FILE`: a chart document of any size into PostgreSQL with flat memory. Three
 * streaming reads of the file (with the `stream-json` package, an optional peer dependency of the command):
 * the document without its charts (the directory and the top level, checked), then every chart checked
 * against that directory (every problem listed by path; nothing is written when one is found), then the
 * writes: the directory replaced, the charts in batches, each batch one transaction of idempotent upserts.
 * Memory holds the directory, one batch, and the patient ids (to find duplicates).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { checkChartDocument, formatIssuePath, freezeDirectory, type ChartIssue, type Directory, type PatientChart } from '../index.js';
import { describeDatabaseError, loadPostgres, maskDatabaseUrl } from './database.js';
import { CliError, type CliIo } from './load.js';

/** Most problems listed; a file with more says how many more. */
const MAX_LISTED_ISSUES = 200;

/** The parts of stream-json (and its stream-chain) the import uses. */
interface StreamJson {
  readonly chain: (stages: readonly unknown[]) => Readable;
  readonly parser: () => unknown;
  readonly ignore: (options: { filter: RegExp }) => unknown;
  readonly pick: (options: { filter: string }) => unknown;
  readonly streamArray: () => unknown;
  readonly streamValues: () => unknown;
}

async function importModule(name: string): Promise<Record<string, unknown>> {
  // A variable specifier keeps bundlers from resolving the optional peer at build time.
  const specifier = name;
  return (await import(specifier)) as Record<string, unknown>;
}

async function loadStreamJson(): Promise<StreamJson> {
  try {
    const [chainModule, main, ignore, pick, streamArray, streamValues] = await Promise.all([
      importModule('stream-chain'),
      importModule('stream-json'),
      importModule('stream-json/filters/ignore.js'),
      importModule('stream-json/filters/pick.js'),
      importModule('stream-json/streamers/stream-array.js'),
      importModule('stream-json/streamers/stream-values.js'),
    ]);
    return {
      chain: (chainModule['default'] ?? chainModule['chain']) as StreamJson['chain'],
      parser: main['parser'] as StreamJson['parser'],
      ignore: ignore['ignore'] as StreamJson['ignore'],
      pick: pick['pick'] as StreamJson['pick'],
      streamArray: streamArray['streamArray'] as StreamJson['streamArray'],
      streamValues: streamValues['streamValues'] as StreamJson['streamValues'],
    };
  } catch {
    throw new CliError(['chart-export: db import needs the stream-json package, which is not installed: run  npm install stream-json']);
  }
}

/** A parse failure of the file, said without its text (which may be patient data). */
function notJson(file: string): CliError {
  return new CliError([`chart-export: the file ${JSON.stringify(file)} is not valid JSON (nothing was written)`]);
}

/** Iterate the values a pipeline emits, turning a parse failure into {@link notJson}. */
async function* values<T>(pipeline: Readable, file: string): AsyncGenerator<T> {
  try {
    for await (const item of pipeline) yield item as T;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw notJson(file);
  } finally {
    pipeline.destroy();
  }
}

/** A UTF-16 surrogate without its other half: text with one has no UTF-8 form. */
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Ids PostgreSQL text cannot hold (a NUL, a lone surrogate), which the chart check lets through. */
function unstorableIds(chart: PatientChart, index: number): ChartIssue[] {
  const issues: ChartIssue[] = [];
  const bad = (id: unknown): boolean => typeof id === 'string' && (id.includes('\u0000') || LONE_SURROGATE_RE.test(id));
  const message = 'cannot be stored in PostgreSQL (it holds a NUL character or a lone surrogate)';
  if (bad(chart.patient.id)) issues.push({ path: ['patients', index, 'patient', 'id'], code: 'format', message });
  for (const field of ['encounters', 'notes', 'assessments', 'medicalHistory'] as const) {
    (chart[field] ?? []).forEach((record, i) => {
      if (bad(record.id)) issues.push({ path: ['patients', index, field, i, 'id'], code: 'format', message });
    });
  }
  return issues;
}

/** A progress line on a terminal (stderr), at most five times a second; nothing when stderr is no terminal. */
function progress(): { show(text: string): void; done(): void } {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  let shown = false;
  return {
    show(text) {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      shown = true;
      process.stderr.write(`\r${text}\u001b[K`);
    },
    done() {
      if (shown) process.stderr.write('\r\u001b[K');
    },
  };
}

function bar(done: number, total: number): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent}% ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} patients`;
}

/**
 * Import a chart document file into PostgreSQL (see the module comment).
 * @param file - the file
 * @param where - the connection string and schema
 * @param batchSize - charts per transaction
 * @param io - where the summary goes
 * @throws {CliError} for a file that cannot be read, is not JSON or fails the chart check (listed by path,
 *   nothing written), a missing `stream-json` or `pg`, a database that cannot be reached or is not migrated
 */
export async function importChartFile(file: string, where: { connectionString: string; schema?: string }, batchSize: number, io: CliIo): Promise<void> {
  const started = Date.now();
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliError([`chart-export: ${JSON.stringify(file)} is not a file`]);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    throw new CliError([`chart-export: cannot read the file ${JSON.stringify(file)}: ${code === 'ENOENT' ? 'no such file' : 'read error'}${typeof code === 'string' ? ` (${code})` : ''}`]);
  }
  const json = await loadStreamJson();
  const postgres = await loadPostgres();
  const display = maskDatabaseUrl(where.connectionString);

  // The database first: a file that cannot go anywhere is not worth reading.
  const dataSource = postgres.createPostgresDataSource({ ...where, maxConnections: 1 });
  try {
    await dataSource.ping(AbortSignal.timeout(10_000));
  } catch (error) {
    throw new CliError([`chart-export: PostgreSQL at ${display}: ${describeDatabaseError(error)} (run chart-export db migrate first if the schema is new)`]);
  } finally {
    await dataSource.close();
  }

  const open = (): Readable => createReadStream(file);
  const show = progress();

  // 1. The document without its charts: the top level and the directory.
  let skeleton: Record<string, unknown> | undefined;
  for await (const item of values<{ value: unknown }>(json.chain([open(), json.parser(), json.ignore({ filter: /^patients\.\d+$/ }), json.streamValues()]), file)) {
    if (skeleton !== undefined) throw notJson(file);
    skeleton = item.value as Record<string, unknown>;
  }
  if (skeleton === undefined) throw notJson(file);
  const issues: ChartIssue[] = [...checkChartDocument(skeleton)];
  let issueCount = issues.length;
  const refuse = (): CliError =>
    new CliError([
      `chart-export: the file ${JSON.stringify(file)} is not a valid chart document (${issueCount} problem${issueCount === 1 ? '' : 's'}); nothing was written:`,
      ...issues.map((i) => `  ${formatIssuePath(i.path)}: ${i.message}`),
      ...(issueCount > issues.length ? [`  … and ${issueCount - issues.length} more`] : []),
    ]);
  if (issues.length > 0) throw refuse();
  const directory: Directory = freezeDirectory((skeleton['directory'] as Directory | undefined) ?? {});
  const charts = (): AsyncGenerator<{ key: number; value: PatientChart }> =>
    values(json.chain([open(), json.parser(), json.pick({ filter: 'patients' }), json.streamArray()]), file);

  // 2. Every chart, checked against the directory, one at a time.
  const seen = new Set<string>();
  let total = 0;
  for await (const { key, value } of charts()) {
    total += 1;
    show.show(`Checking: ${total.toLocaleString('en-US')} patients`);
    const found = checkChartDocument({ patients: [value], directory })
      .filter((i) => i.path[0] === 'patients')
      .map((i) => ({ ...i, path: ['patients', key, ...i.path.slice(2)] }) as ChartIssue);
    if (found.length === 0) found.push(...unstorableIds(value, key));
    const id = (value as { patient?: { id?: unknown } } | null)?.patient?.id;
    if (typeof id === 'string') {
      if (seen.has(id)) found.push({ path: ['patients', key, 'patient', 'id'], code: 'duplicate', message: 'duplicates the id of an earlier patient' });
      seen.add(id);
    }
    issueCount += found.length;
    for (const issue of found) if (issues.length < MAX_LISTED_ISSUES) issues.push(issue);
  }
  seen.clear();
  show.done();
  if (issueCount > 0) throw refuse();

  // 3. The writes.
  const writer = postgres.createPostgresChartWriter({ ...where, maxConnections: 1 });
  let changedRows = 0;
  let deletedRows = 0;
  let written = 0;
  try {
    const dir = await writer.writeDirectory(directory);
    changedRows += dir.changedRows;
    deletedRows += dir.deletedRows;
    let batch: PatientChart[] = [];
    const flush = async (): Promise<void> => {
      const result = await writer.writePatientCharts(batch);
      changedRows += result.changedRows;
      deletedRows += result.deletedRows;
      written += batch.length;
      batch = [];
      show.show(`Importing ${bar(written, total)}`);
    };
    for await (const { value } of charts()) {
      batch.push(value);
      if (batch.length >= batchSize) await flush();
    }
    if (batch.length > 0) await flush();
  } catch (error) {
    show.done();
    if (error instanceof CliError) throw error;
    if ((error as { code?: unknown } | null)?.code === 'invalid-chart') {
      throw new CliError([`chart-export: the file ${JSON.stringify(file)} changed while it was imported: ${written} patients were written; import it again`]);
    }
    throw new CliError([`chart-export: PostgreSQL at ${display}: ${describeDatabaseError(error)} (${written} of ${total} patients written; importing again is safe)`]);
  } finally {
    await writer.close();
  }
  show.done();
  const seconds = (Date.now() - started) / 1000;
  const count = (n: number, what: string): string => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
  io.out(
    `Imported ${count(total, 'patient')} and the directory (${count(directory.organizations?.length ?? 0, 'organization')}, ${count(directory.practitioners?.length ?? 0, 'practitioner')}, ${count(directory.locations?.length ?? 0, 'location')}) into ${display} (schema ${where.schema ?? 'chart_export'}) in ${seconds.toFixed(1)} s: ${count(changedRows, 'row')} written, ${count(deletedRows, 'row')} deleted.`,
  );
}
