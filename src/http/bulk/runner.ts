/**
 * The job runner: reads the population page by page (`listPatients`), each patient's whole chart and the
 * directory records it refers to, writes the NDJSON lines (core `streamFhirNdjson`) into files of at most
 * `resourcesPerFile` lines through the output store, and keeps the job record up to date (progress, heartbeat,
 * completion, failure). It runs in the process that took the kick-off, in slices: the runner gives the event
 * loop back after a quarter of a millisecond of work, and every data read is an await, so interactive requests
 * are served in between. A job deleted from the store (cancelled on any instance) stops at its next heartbeat.
 */
import {
  checkPatientChart,
  streamFhirNdjson,
  toFhirId,
  type Directory,
  type FhirNdjsonChart,
  type FhirNdjsonLine,
  type FhirNdjsonResourceType,
  type Patient,
  type PatientChart,
} from '../../index.js';
import { giveBack } from '../../internal/adapter.js';
import { ClientGoneError, bindSignal, runWithDeadline } from '../data-deadline.js';
import type { ChartDataSource, KeysetPage } from '../data-source.js';
import { gatherDirectory } from '../directory-lookup.js';
import { isDataSourceUnavailable } from '../errors.js';
import { safeCall } from '../guards.js';
import type { BulkJobFile, BulkJobRecord, BulkJobStore } from './job-store.js';
import type { BulkOutputStore } from './output-store.js';

/** What the runner needs from the handler. */
export interface BulkRunnerContext {
  readonly dataSource: ChartDataSource;
  readonly listPatients: (page: KeysetPage, signal: AbortSignal) => Promise<readonly Patient[]>;
  readonly jobs: BulkJobStore;
  readonly outputs: BulkOutputStore;
  readonly now: () => number;
  readonly pageSize: number;
  readonly resourcesPerFile: number;
  readonly retentionMs: number;
  readonly dataSourceTimeoutMs: number;
  readonly onError: ((error: unknown) => void) | undefined;
}

/**
 * Every record of a patient the chart check allows: encounters and medical-history entries are bounded by the
 * HL7 set ids (`HL7_SET_ID_LIMITS` in src/model/limits.ts: 9 998 and 9 999); notes and assessments have no
 * count limit of their own, so the largest safe integer asks for all of them.
 */
const WHOLE_CHART = { encounters: 9_998, notes: Number.MAX_SAFE_INTEGER, assessments: Number.MAX_SAFE_INTEGER, medicalHistory: 9_999 } as const;

/** Characters buffered per file before they are appended to the output store (each append is whole lines). */
const FLUSH_CHARS = 256 * 1024;

/**
 * The longest the runner works between two turns of the event loop, in milliseconds: a request that arrives
 * during an export waits behind at most about this much of it (the writer's own slice is 1 ms), and the export
 * still goes on while the interactive routes are busy. `performance.now()` only paces, it never shapes output.
 */
const SLICE_MS = 0.25;

/** How often the runner writes its progress and looks whether its job was cancelled, in milliseconds. */
const HEARTBEAT_MS = 1_000;

/** The job was deleted from the store (cancelled): stop quietly. */
class JobCancelled extends Error {
  override readonly name = 'JobCancelled';
}

/** The error line for a patient whose chart fails the chart check: its resources are left out. */
function refusedChartLine(patientId: string, problems: number): FhirNdjsonLine {
  const id = `Patient/${toFhirId(patientId)}`;
  const outcome = {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'invalid',
        details: { text: `The patient's chart failed the chart check (${problems} problem${problems === 1 ? '' : 's'}); its resources were left out.` },
        expression: [id],
      },
    ],
  };
  return { resourceType: 'OperationOutcome', id, text: `${JSON.stringify(outcome)}\n` };
}

/** The files being written: per type, the current part and its buffered lines. */
function createFileWriter(job: () => BulkJobRecord, outputs: BulkOutputStore, perFile: number) {
  const current = new Map<string, { name: string; lines: number; buffer: string[]; chars: number }>();
  const parts = new Map<string, number>();
  const files: { type: string; name: string; count: number }[] = [];
  const counts = new Map<string, { type: string; name: string; count: number }>();
  async function flush(file: { name: string; buffer: string[]; chars: number }): Promise<void> {
    if (file.buffer.length === 0) return;
    const text = file.buffer.join('');
    file.buffer = [];
    file.chars = 0;
    const j = job();
    await outputs.append(j.id, file.name, text, j.expiresAt);
  }
  return {
    async add(line: FhirNdjsonLine): Promise<void> {
      const type = line.resourceType;
      let file = current.get(type);
      if (file === undefined || file.lines >= perFile) {
        if (file !== undefined) await flush(file);
        const part = (parts.get(type) ?? 0) + 1;
        parts.set(type, part);
        file = { name: `${type}-${part}.ndjson`, lines: 0, buffer: [], chars: 0 };
        current.set(type, file);
        const entry = { type, name: file.name, count: 0 };
        files.push(entry);
        counts.set(file.name, entry);
      }
      file.buffer.push(line.text);
      file.chars += line.text.length;
      file.lines++;
      (counts.get(file.name) as { count: number }).count++;
      if (file.chars >= FLUSH_CHARS) await flush(file);
    },
    async flushAll(): Promise<void> {
      for (const file of current.values()) await flush(file);
    },
    /** The files so far, with the lines written to each (buffered lines included). */
    files(): BulkJobFile[] {
      return files.map((f) => ({ ...f }));
    },
  };
}

/** The whole directory, for a system-level export: keyset pages where the source has them, else one list each. */
async function readWholeDirectory(source: ChartDataSource, read: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>): Promise<Directory> {
  const kinds = [
    ['organizations', 'listOrganizationsPage', 'listOrganizations'],
    ['practitioners', 'listPractitionersPage', 'listPractitioners'],
    ['locations', 'listLocationsPage', 'listLocations'],
  ] as const;
  const directory: Record<string, unknown[]> = {};
  for (const [kind, paged, listed] of kinds) {
    const page = source[paged];
    const records: { id: string }[] = [];
    if (typeof page === 'function') {
      let after: string | undefined;
      for (;;) {
        const got = await read((signal) => Promise.resolve(Reflect.apply(page, source, [after === undefined ? { limit: 500 } : { after, limit: 500 }, signal]) as Promise<readonly { id: string }[]>));
        records.push(...got);
        if (got.length < 500) break;
        after = (got[got.length - 1] as { id: string }).id;
      }
    } else {
      records.push(...(await read((signal) => (source[listed] as (limit: number, signal: AbortSignal) => Promise<readonly { id: string }[]>)(Number.MAX_SAFE_INTEGER, signal))));
    }
    if (records.length > 0) directory[kind] = records;
  }
  return directory as Directory;
}

/** A data read bounded by the handler's timeout and stopped by a cancel. */
type Reader = <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * Every patient's whole chart, page by page, with the directory records it refers to. A chart that fails the
 * chart check is left out, with an error line in `errors`; `counted` runs after each patient.
 */
async function* readCharts(ctx: BulkRunnerContext, read: Reader, errors: FhirNdjsonLine[], counted: () => Promise<void>): AsyncGenerator<FhirNdjsonChart> {
  let after: string | undefined;
  for (;;) {
    const page = await read((signal) => ctx.listPatients(after === undefined ? { limit: ctx.pageSize } : { after, limit: ctx.pageSize }, signal));
    for (const patient of page) {
      const id = patient.id;
      const [encounters, notes, assessments, medicalHistory] = await read((signal) => {
        const source = bindSignal(ctx.dataSource, signal);
        return Promise.all([
          source.listEncounters(id, WHOLE_CHART.encounters),
          source.listNotes(id, WHOLE_CHART.notes),
          source.listAssessments(id, WHOLE_CHART.assessments),
          source.listMedicalHistory(id, WHOLE_CHART.medicalHistory),
        ]);
      });
      const chart: PatientChart = { patient };
      if (encounters.length > 0) chart.encounters = [...encounters];
      if (notes.length > 0) chart.notes = [...notes];
      if (assessments.length > 0) chart.assessments = [...assessments];
      if (medicalHistory.length > 0) chart.medicalHistory = [...medicalHistory];
      const problems = checkPatientChart(chart).length;
      if (problems > 0) {
        errors.push(refusedChartLine(id, problems));
      } else {
        const directory = await read((signal) => gatherDirectory(bindSignal(ctx.dataSource, signal), { encounters, notes, assessments }));
        yield directory === undefined ? { chart } : { chart, directory };
      }
      await counted();
    }
    if (page.length < ctx.pageSize) return;
    after = (page[page.length - 1] as Patient).id;
  }
}

/**
 * Run a job to its end (done, failed, or cancelled). Never rejects: every failure ends in the job record.
 * @param ctx - the handler's runner context
 * @param started - the job as stored at kick-off
 */
export async function runBulkJob(ctx: BulkRunnerContext, started: BulkJobRecord): Promise<void> {
  const { jobs, outputs, now } = ctx;
  let job = started;
  const cancel = new AbortController();
  const writer = createFileWriter(() => job, outputs, ctx.resourcesPerFile);
  let patients = 0;
  let lastBeat = now();
  const read: Reader = (work) => runWithDeadline(work, ctx.dataSourceTimeoutMs, cancel.signal);

  /** Write progress and look whether the job still exists; throws {@link JobCancelled} when it does not. */
  async function heartbeat(force: boolean): Promise<void> {
    const t = now();
    if (!force && t - lastBeat < HEARTBEAT_MS) return;
    lastBeat = t;
    job = { ...job, patients, files: writer.files(), heartbeatAt: t };
    if (!(await jobs.update(job))) {
      cancel.abort(new JobCancelled());
      throw new JobCancelled();
    }
  }

  const errors: FhirNdjsonLine[] = [];
  const charts = readCharts(ctx, read, errors, async () => {
    patients++;
    await heartbeat(false);
  });

  try {
    const wholeDirectory = job.level === 'system' ? await readWholeDirectory(ctx.dataSource, read) : undefined;
    const lines = streamFhirNdjson(charts, {
      types: job.types === null ? undefined : (job.types as FhirNdjsonResourceType[]),
      since: job.since ?? undefined,
      wholeDirectory,
    });
    let lastTurn = performance.now();
    for await (const line of lines) {
      while (errors.length > 0) await writer.add(errors.shift() as FhirNdjsonLine);
      await writer.add(line);
      if (performance.now() - lastTurn >= SLICE_MS) {
        await giveBack();
        lastTurn = performance.now();
      }
    }
    for (const line of errors) await writer.add(line);
    await writer.flushAll();
    await heartbeat(true);
    const expiresAt = now() + ctx.retentionMs;
    const files = writer.files();
    job = { ...job, state: 'done', patients, files, heartbeatAt: now(), expiresAt };
    await outputs.expire(job.id, files.map((f) => f.name), expiresAt);
    if (!(await jobs.update(job))) await outputs.remove(job.id, files.map((f) => f.name));
  } catch (error) {
    const names = writer.files().map((f) => f.name);
    if (error instanceof JobCancelled || error instanceof ClientGoneError) {
      await outputs.remove(job.id, names).catch(() => undefined);
      return;
    }
    safeCall(ctx.onError, error);
    const unavailable = isDataSourceUnavailable(error);
    const failed: BulkJobRecord = {
      ...job,
      state: 'failed',
      patients,
      files: [],
      heartbeatAt: now(),
      expiresAt: now() + ctx.retentionMs,
      failure: unavailable
        ? { status: 503, detail: 'The export stopped because the chart data was unavailable; start a new export later.' }
        : { status: 500, detail: 'The export failed because of an internal error.' },
    };
    await outputs.remove(job.id, names).catch(() => undefined);
    await jobs.update(failed).catch((e: unknown) => safeCall(ctx.onError, e));
  }
}
