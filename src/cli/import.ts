/// <reference types="node" />
/**
 * `chart-export db import FILE`: a chart document of any size into PostgreSQL with flat memory. Three
 * streaming reads of the file (with the `stream-json` package, an optional peer dependency of the command):
 * the document without its charts (the directory and the top level, checked), then every chart checked
 * against that directory (every problem listed by path; nothing is written when one is found), then the
 * writes: the directory replaced, the charts in batches, each batch one transaction of idempotent upserts.
 * Memory holds the directory, one batch, and the patient ids (to find duplicates). The parser hands over whole
 * strings and numbers (`streamValues: false`), several times faster than piece by piece.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, type Duplex, type Readable } from 'node:stream';
import { checkChartDocument, formatIssuePath, freezeDirectory, type ChartIssue, type Directory, type PatientChart } from '../index.js';
import { describeDatabaseError, loadPostgres, maskDatabaseUrl } from './database.js';
import { CliError, type CliIo } from './load.js';

/** Most problems listed; a file with more says how many more. */
const MAX_LISTED_ISSUES = 200;

/** A stage factory of stream-json: its `asStream` makes a Node duplex stream. */
interface Stage<T> {
  readonly asStream: (options?: T) => Duplex;
}

/** A filter of stream-json with the parser fused in front (one stream instead of two: fewer hand-offs per token). */
interface Filter<T> extends Stage<T> {
  readonly withParserAsStream: (options: T & { streamValues: boolean }) => Duplex;
}

/** The parts of stream-json the import uses (each stage as a Node stream, joined with `pipeline`). */
interface StreamJson {
  readonly ignore: Filter<{ filter: RegExp }>;
  readonly pick: Filter<{ filter: string }>;
  readonly streamArray: Stage<undefined>;
  readonly streamValues: Stage<undefined>;
}

async function importModule(name: string): Promise<Record<string, unknown>> {
  // A variable specifier keeps bundlers from resolving the optional peer at build time.
  const specifier = name;
  return (await import(specifier)) as Record<string, unknown>;
}

async function loadStreamJson(): Promise<StreamJson> {
  try {
    const [ignore, pick, streamArray, streamValues] = await Promise.all([
      importModule('stream-json/filters/ignore.js'),
      importModule('stream-json/filters/pick.js'),
      importModule('stream-json/streamers/stream-array.js'),
      importModule('stream-json/streamers/stream-values.js'),
    ]);
    const loaded = {
      ignore: ignore['ignore'],
      pick: pick['pick'],
      streamArray: streamArray['streamArray'],
      streamValues: streamValues['streamValues'],
    };
    for (const stage of Object.values(loaded)) if (typeof (stage as Partial<Stage<unknown>> | undefined)?.asStream !== 'function') throw new TypeError('stream-json');
    for (const filter of [loaded.ignore, loaded.pick]) if (typeof (filter as Partial<Filter<unknown>>).withParserAsStream !== 'function') throw new TypeError('stream-json');
    return loaded as unknown as StreamJson;
  } catch {
    throw new CliError(['chart-export: db import needs the stream-json package (version 3 or later), which is not installed: run  npm install stream-json']);
  }
}

/** The file through the stages, as one readable stream of their output; an error of any stage ends it. */
function through(file: string, stages: readonly Duplex[]): Readable {
  return pipeline([createReadStream(file), ...stages], () => undefined) as unknown as Readable;
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

type Target = { connectionString: string; schema?: string };
type Postgres = Awaited<ReturnType<typeof loadPostgres>>;
type Show = ReturnType<typeof progress>;

/** The file must be a readable file. */
async function checkFile(file: string): Promise<void> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliError([`chart-export: ${JSON.stringify(file)} is not a file`]);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    throw new CliError([`chart-export: cannot read the file ${JSON.stringify(file)}: ${code === 'ENOENT' ? 'no such file' : 'read error'}${typeof code === 'string' ? ` (${code})` : ''}`]);
  }
}

/** The database must answer and be migrated: a file that cannot go anywhere is not worth reading. */
async function checkDatabase(postgres: Postgres, where: Target): Promise<void> {
  const dataSource = postgres.createPostgresDataSource({ ...where, maxConnections: 1 });
  try {
    await dataSource.ping(AbortSignal.timeout(10_000));
  } catch (error) {
    throw new CliError([`chart-export: PostgreSQL at ${maskDatabaseUrl(where.connectionString)}: ${describeDatabaseError(error)} (run chart-export db migrate first if the schema is new)`]);
  } finally {
    await dataSource.close();
  }
}

/** The problems found, the first {@link MAX_LISTED_ISSUES} of them kept, and the refusal that lists them. */
function issueList(file: string): { add(found: readonly ChartIssue[]): void; readonly count: number; refuse(): CliError } {
  const issues: ChartIssue[] = [];
  let count = 0;
  return {
    add(found) {
      count += found.length;
      for (const issue of found) if (issues.length < MAX_LISTED_ISSUES) issues.push(issue);
    },
    get count() {
      return count;
    },
    refuse: () =>
      new CliError([
        `chart-export: the file ${JSON.stringify(file)} is not a valid chart document (${count} problem${count === 1 ? '' : 's'}); nothing was written:`,
        ...issues.map((i) => `  ${formatIssuePath(i.path)}: ${i.message}`),
        ...(count > issues.length ? [`  … and ${count - issues.length} more`] : []),
      ]),
  };
}

/** Pass 1: the document without its charts (the top level and the directory), checked. */
async function readDirectory(json: StreamJson, file: string): Promise<Directory> {
  let skeleton: Record<string, unknown> | undefined;
  const stages = [json.ignore.withParserAsStream({ filter: /^patients\.\d+$/, streamValues: false }), json.streamValues.asStream()];
  for await (const item of values<{ value: unknown }>(through(file, stages), file)) {
    if (skeleton !== undefined) throw notJson(file);
    skeleton = item.value as Record<string, unknown>;
  }
  if (skeleton === undefined) throw notJson(file);
  const issues = issueList(file);
  issues.add(checkChartDocument(skeleton));
  if (issues.count > 0) throw issues.refuse();
  return freezeDirectory((skeleton['directory'] as Directory | undefined) ?? {});
}

/** Pass 2: every chart, checked against the directory, one at a time; the number of charts. */
async function checkCharts(charts: () => AsyncGenerator<{ key: number; value: PatientChart }>, directory: Directory, file: string, show: Show): Promise<number> {
  const issues = issueList(file);
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
    issues.add(found);
  }
  show.done();
  if (issues.count > 0) throw issues.refuse();
  return total;
}

/** Pass 3: the directory, then the charts in batches; rows changed and deleted. */
async function writeAll(
  writer: ReturnType<Postgres['createPostgresChartWriter']>,
  charts: () => AsyncGenerator<{ key: number; value: PatientChart }>,
  directory: Directory,
  sizes: { batch: number; total: number },
  show: Show,
): Promise<{ changedRows: number; deletedRows: number; written: number }> {
  const done = { changedRows: 0, deletedRows: 0, written: 0 };
  const add = (result: { changedRows: number; deletedRows: number }): void => {
    done.changedRows += result.changedRows;
    done.deletedRows += result.deletedRows;
  };
  add(await writer.writeDirectory(directory));
  let batch: PatientChart[] = [];
  const flush = async (): Promise<void> => {
    add(await writer.writePatientCharts(batch));
    done.written += batch.length;
    batch = [];
    show.show(`Importing ${bar(done.written, sizes.total)}`);
  };
  try {
    for await (const { value } of charts()) {
      batch.push(value);
      if (batch.length >= sizes.batch) await flush();
    }
    if (batch.length > 0) await flush();
  } catch (error) {
    throw Object.assign(new Error('import stopped', { cause: error }), { written: done.written, code: (error as { code?: unknown } | null)?.code });
  }
  return done;
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
export async function importChartFile(file: string, where: Target, batchSize: number, io: CliIo): Promise<void> {
  const started = Date.now();
  await checkFile(file);
  const json = await loadStreamJson();
  const postgres = await loadPostgres();
  const display = maskDatabaseUrl(where.connectionString);
  await checkDatabase(postgres, where);
  const show = progress();
  const directory = await readDirectory(json, file);
  const charts = (): AsyncGenerator<{ key: number; value: PatientChart }> =>
    values(through(file, [json.pick.withParserAsStream({ filter: 'patients', streamValues: false }), json.streamArray.asStream()]), file);
  const total = await checkCharts(charts, directory, file, show);
  const writer = postgres.createPostgresChartWriter({ ...where, maxConnections: 1 });
  let done;
  try {
    done = await writeAll(writer, charts, directory, { batch: batchSize, total }, show);
  } catch (error) {
    show.done();
    if (error instanceof CliError) throw error;
    const written = (error as { written?: number }).written ?? 0;
    if ((error as { code?: unknown } | null)?.code === 'invalid-chart') {
      throw new CliError([`chart-export: the file ${JSON.stringify(file)} changed while it was imported: ${written} patients were written; import it again`]);
    }
    const cause = (error as { cause?: unknown }).cause ?? error;
    throw new CliError([`chart-export: PostgreSQL at ${display}: ${describeDatabaseError(cause)} (${written} of ${total} patients written; importing again is safe)`]);
  } finally {
    await writer.close();
  }
  show.done();
  const seconds = (Date.now() - started) / 1000;
  const count = (n: number, what: string): string => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
  const entries = `${count(directory.organizations?.length ?? 0, 'organization')}, ${count(directory.practitioners?.length ?? 0, 'practitioner')}, ${count(directory.locations?.length ?? 0, 'location')}`;
  io.out(
    `Imported ${count(total, 'patient')} and the directory (${entries}) into ${display} (schema ${where.schema ?? 'chart_export'}) in ${seconds.toFixed(1)} s: ${count(done.changedRows, 'row')} written, ${count(done.deletedRows, 'row')} deleted.`,
  );
}
