/**
 * NDJSON writers: the FHIR resources of patient charts, one JSON resource per line, for FHIR Bulk Data files
 * (`Patient.ndjson`, `Encounter.ndjson`…) or any importer. Framework-free: an `AsyncIterable` of lines, no I/O.
 */
import type * as fhir from 'fhir/r4.js';
import { InvalidArgumentError } from '../errors.js';
import { createContentHash } from '../internal/fast-hash.js';
import { giveBack } from '../internal/give-back.js';
import { isoOrderKey, parseIsoDateTime } from '../internal/iso.js';
import type { ChartDocument, PatientChart } from '../model/chart.js';
import type { Directory } from '../model/directory.js';
import { validateChartDocument, validateDirectoryOption } from '../validation/chart-check.js';
import { createChartReader } from './internal/chart-reader.js';
import type { DirectoryMemo } from './internal/directory-memo.js';
import type { ChartResource } from './internal/chart-resources.js';
import { ResourceJson } from './internal/json-text.js';
import { PULL_END, pulledLines } from './internal/pulled-lines.js';

/** The resource types the NDJSON writers can emit, in the order a Bulk manifest lists them; `OperationOutcome` lines are the writers' errors. */
export const FHIR_NDJSON_RESOURCE_TYPES = Object.freeze([
  'Patient',
  'Coverage',
  'Organization',
  'Encounter',
  'Condition',
  'Procedure',
  'Composition',
  'DocumentReference',
  'QuestionnaireResponse',
  'Questionnaire',
  'Practitioner',
  'Location',
] as const);

/** A resource type of {@link FHIR_NDJSON_RESOURCE_TYPES}. */
export type FhirNdjsonResourceType = (typeof FHIR_NDJSON_RESOURCE_TYPES)[number];

/** Types shared by several patients' charts: the same id from two charts is the same record, written once. */
const SHARED_TYPES: ReadonlySet<string> = new Set(['Organization', 'Practitioner', 'Location', 'Questionnaire']);

/** One line of an NDJSON export. */
export interface FhirNdjsonLine {
  /** The resource type: the file the line belongs to (`OperationOutcome` for an error of the export). */
  readonly resourceType: FhirNdjsonResourceType | 'OperationOutcome';
  /** The resource's id (an `OperationOutcome` line: the `Type/id` it is about). */
  readonly id: string;
  /** The resource's JSON, exactly `JSON.stringify(resource)`, followed by one `\n`. */
  readonly text: string;
}

/** A chart with the directory its records refer to (each chart of a stream may carry its own). */
export interface FhirNdjsonChart {
  /** The patient's chart (checked by the writer, except a checked frozen one). */
  readonly chart: PatientChart;
  /** The directory records the chart refers to; absent: `options.directory`. */
  readonly directory?: Directory | undefined;
}

/** Options of {@link streamFhirNdjson} and {@link streamChartDocumentNdjson}. */
export interface FhirNdjsonOptions {
  /** The directory the charts refer to (for charts given without their own); references into it become entries. */
  directory?: Directory | undefined;
  /** Only resources of these types (and `OperationOutcome` error lines); default every type. */
  types?: readonly FhirNdjsonResourceType[] | undefined;
  /**
   * An ISO 8601 instant with seconds and offset: only resources whose `meta.lastUpdated` is later, and every
   * resource without `meta.lastUpdated` (a record without `lastUpdated`, a directory record, a Coverage, a
   * Questionnaire), as the Bulk Data IG allows for `_since`.
   */
  since?: string | undefined;
  /**
   * Give the event loop back (a macrotask: `setImmediate` where the runtime has it, else `setTimeout(0)`) after
   * this many resources; 0 never. Default: between two resources, once the writer has worked for a millisecond
   * since its last turn (a turn per resource costs more than a small resource's mapping), so no export holds the
   * loop longer than a millisecond plus one resource's mapping.
   */
  yieldEvery?: number | undefined;
  /** Also every record of this directory that no chart referred to (a system-level export), after the charts. */
  wholeDirectory?: Directory | undefined;
}

interface ResolvedNdjsonOptions {
  readonly directory: Directory | undefined;
  readonly types: ReadonlySet<string> | undefined;
  readonly since: number | undefined;
  /** Resources between turns; `undefined` for the default time slice. */
  readonly yieldEvery: number | undefined;
  readonly wholeDirectory: Directory | undefined;
}

function resolveNdjsonOptions(options: FhirNdjsonOptions | undefined): ResolvedNdjsonOptions {
  if (options === undefined) return { directory: undefined, types: undefined, since: undefined, yieldEvery: undefined, wholeDirectory: undefined };
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const { types, since, yieldEvery } = options;
  let typeSet: Set<string> | undefined;
  if (types !== undefined) {
    if (!Array.isArray(types)) throw new InvalidArgumentError('types', 'must be an array of resource types');
    typeSet = new Set<string>();
    for (const t of types as unknown[]) {
      if (typeof t !== 'string' || !(FHIR_NDJSON_RESOURCE_TYPES as readonly string[]).includes(t)) {
        throw new InvalidArgumentError('types', `must hold only ${FHIR_NDJSON_RESOURCE_TYPES.join(', ')}`);
      }
      typeSet.add(t);
    }
  }
  if (since !== undefined && (typeof since !== 'string' || parseIsoDateTime(since)?.precision !== 'second')) {
    throw new InvalidArgumentError('since', 'must be an ISO 8601 instant with seconds and an offset');
  }
  if (yieldEvery !== undefined && (typeof yieldEvery !== 'number' || !Number.isSafeInteger(yieldEvery) || yieldEvery < 0)) {
    throw new InvalidArgumentError('yieldEvery', 'must be a non-negative integer');
  }
  return {
    directory: options.directory === undefined ? undefined : validateDirectoryOption(options.directory),
    types: typeSet,
    since: since === undefined ? undefined : isoOrderKey(since),
    yieldEvery,
    wholeDirectory: options.wholeDirectory === undefined ? undefined : validateDirectoryOption(options.wholeDirectory),
  };
}

/** The writer's default time slice, in milliseconds (see {@link FhirNdjsonOptions.yieldEvery}). */
const SLICE_MS = 1;

/** The fast hash of a line, to tell whether two shared records with one id are the same. */
function digest(text: string): string {
  const hash = createContentHash();
  hash.update(text);
  return hash.digestHex();
}

/** The error line for a resource left out because another chart gave a different resource of that type and id. */
function conflictLine(resourceType: string, id: string): FhirNdjsonLine {
  const outcome: fhir.OperationOutcome = {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'duplicate',
        details: { text: `Another chart gave a different ${resourceType} with this id; the first one was exported and this one was left out.` },
        expression: [`${resourceType}/${id}`],
      },
    ],
  };
  return { resourceType: 'OperationOutcome', id: `${resourceType}/${id}`, text: `${JSON.stringify(outcome)}\n` };
}


/** The state of one export: {@link streamFhirNdjson}'s work, a pull at a time. */
interface NdjsonWriter {
  /** The next line; a promise to wait for (a turn given back, a chart being read) before pulling again; or the end. */
  pull(): FhirNdjsonLine | Promise<void> | typeof PULL_END;
  /** Close the charts' iterator when the export ends early (as a `for await` over it would); undefined when nothing is open. */
  close(): Promise<unknown> | undefined;
}

const NO_RESOURCES: readonly ChartResource[] = [];

/**
 * The writer of one export: checks its arguments, then maps chart after chart, a record's group of resources at a
 * time, and gives their lines one pull at a time; between two resources, it asks to wait for a turn of the event
 * loop when the slice (or `yieldEvery`) is used up.
 * @throws {InvalidArgumentError} for a malformed option or `charts`
 */
function createNdjsonWriter(
  charts: Iterable<PatientChart | FhirNdjsonChart> | AsyncIterable<PatientChart | FhirNdjsonChart>,
  options: FhirNdjsonOptions | undefined,
): NdjsonWriter {
  const resolved = resolveNdjsonOptions(options);
  if (charts === null || typeof charts !== 'object' || (!(Symbol.asyncIterator in charts) && !(Symbol.iterator in charts))) {
    throw new InvalidArgumentError('charts', 'must be an iterable or async iterable of charts');
  }
  const { yieldEvery } = resolved;
  const accept = createLineFilter(resolved);
  const reader = createChartReader(charts, resolved.directory, resolved.wholeDirectory);
  let memo: DirectoryMemo | undefined;
  let groups: Iterator<readonly ChartResource[]> | undefined;
  let group = NO_RESOURCES;
  let index = 0;
  let paceDue = false;
  let sinceTurn = 0;
  let lastTurn = performance.now();
  const turn = async (): Promise<void> => {
    await giveBack();
    lastTurn = performance.now();
  };
  const pull = (): FhirNdjsonLine | Promise<void> | typeof PULL_END => {
    for (;;) {
      if (paceDue) {
        // After each resource, as the consumer asks for the next line: give the event loop back when due.
        paceDue = false;
        if (yieldEvery === undefined) {
          // performance.now() is a web standard (browsers, Node, Deno, workers); it only paces, never shapes output.
          if (performance.now() - lastTurn >= SLICE_MS) return turn();
        } else if (yieldEvery > 0 && ++sinceTurn >= yieldEvery) {
          sinceTurn = 0;
          return giveBack();
        }
      }
      // By index, to the end, before the next step of `groups`: that step refills the same array.
      if (index < group.length) {
        const resource = group[index++] as ChartResource;
        const line = accept(resource);
        memo?.settle(resource, line?.resourceType !== 'OperationOutcome');
        paceDue = true;
        if (line !== undefined) return line;
        continue;
      }
      const step = groups?.next();
      if (step !== undefined && step.done !== true) {
        group = step.value;
        index = 0;
        continue;
      }
      const next = reader.next();
      if (next === undefined) return PULL_END;
      if (next instanceof Promise) return next;
      groups = next;
      memo = reader.memo();
    }
  };
  return { pull, close: () => reader.close() };
}

/**
 * The line of each resource the options keep, once per type and id: `accept(resource)` gives its line, a
 * conflict line for a different resource under an id already written, or undefined (left out, or the same shared
 * record again).
 */
function createLineFilter(resolved: ResolvedNdjsonOptions): (resource: ChartResource) => FhirNdjsonLine | undefined {
  const { types, since } = resolved;
  // Ids written, per type: id → the hash of the line for shared types, '' for the others. A map per type, not
  // one keyed by `Type/id`: that key would be a new string to build and hash for every resource.
  const written = new Map<string, Map<string, string>>();
  return (resource) => {
    const type = resource.resourceType;
    if (types !== undefined && !types.has(type)) return undefined;
    const direct = resource instanceof ResourceJson;
    if (since !== undefined) {
      const updated = direct ? resource.lastUpdated : resource.meta?.lastUpdated;
      if (updated !== undefined && isoOrderKey(updated) <= since) return undefined;
    }
    const id = resource.id as string;
    // Serialised before the id is looked up: serialising flattens an id built by concatenation, so it is
    // hashed once as a flat string. A direct JSON text is joined into one flat string here: built by
    // concatenation, it is a tree of pieces, which a sink holding many lines (a Bulk file part) would keep as
    // thousands of small objects for the collector to copy, and flatten later in one long stretch.
    const text = direct ? [resource.json, '\n'].join('') : `${JSON.stringify(resource)}\n`;
    let ids = written.get(type);
    if (ids === undefined) {
      ids = new Map<string, string>();
      written.set(type, ids);
    }
    const shared = SHARED_TYPES.has(type);
    const seen = ids.get(id);
    if (seen !== undefined) return !shared || seen !== digest(text) ? conflictLine(type, id) : undefined;
    ids.set(id, shared ? digest(text) : '');
    return { resourceType: type as FhirNdjsonResourceType, id, text };
  };
}

/**
 * Write the FHIR R4 resources of patient charts as NDJSON lines: one `JSON.stringify(resource)` and `\n` per
 * line, each tagged with its resource type so a caller writes each type to its own file (`Patient.ndjson`…).
 * Each resource is byte-for-byte the resource `buildFhirPatientBundle(chart, { directory })` holds (same id,
 * content and key order): the chart's Patient, Coverages and payer Organizations, every Encounter with its
 * Conditions and Procedures, every note (Composition + DocumentReference), every assessment
 * (QuestionnaireResponse + Questionnaire), every medical-history Condition, and the directory records they
 * refer to.
 *
 * No two lines of one type have the same id. A directory record, payer Organization or Questionnaire that
 * several charts share is written once (the first time); when another chart gives a *different* resource of
 * a type under an id already written (chart ids are unique within a chart, not across charts), that
 * resource is left out and an `OperationOutcome` line (code `duplicate`, `expression` `Type/id`) says so,
 * the content of a Bulk Data error file.
 *
 * Memory: the writer holds one record's resources at a time, plus the ids it has written (to keep them
 * unique) and a 128-bit hash per shared record. It gives the event loop back between resources, at least
 * once per millisecond of work (or every `yieldEvery` resources). Charts are read one at a time from `charts`, which may be an async generator over a
 * database.
 *
 * @param charts - charts (or `{ chart, directory }`), sync or async iterable; each is checked unless it is a
 *   checked frozen copy
 * @param options - {@link FhirNdjsonOptions}
 * @returns the lines, lazily: nothing is read or mapped before the first `next()`
 * @throws {InvalidArgumentError} (from the first `next()`) for a malformed option
 * @throws {ChartValidationError} for a chart or directory that fails the chart check (the lines before it were given)
 * @throws {MappingError} as the Bundle builders do (two records of one type in one chart with one FHIR id)
 * @example
 * for await (const line of streamFhirNdjson(doc.patients, { directory: doc.directory })) {
 *   files[line.resourceType].write(line.text); // e.g. a write stream per type
 * }
 * @see https://hl7.org/fhir/uv/bulkdata/STU2/export.html#bulk-data-output-file-request
 */
export function streamFhirNdjson(
  charts: Iterable<PatientChart | FhirNdjsonChart> | AsyncIterable<PatientChart | FhirNdjsonChart>,
  options?: FhirNdjsonOptions,
): AsyncGenerator<FhirNdjsonLine, void, undefined> {
  let writer: NdjsonWriter | undefined;
  // Options and charts are checked by the first pull, so their errors come from the first `next()`.
  const pull = (): FhirNdjsonLine | Promise<void> | typeof PULL_END => (writer ??= createNdjsonWriter(charts, options)).pull();
  return pulledLines(pull, () => writer?.close());
}

/**
 * Write a whole chart document as NDJSON lines ({@link streamFhirNdjson} over its charts, with its directory):
 * every patient's resources, then (option `wholeDirectory`, as a system-level export does) the directory
 * records no chart referred to.
 *
 * @param document - a chart document (checked, unless it is a checked frozen one from `freezeChartDocument`)
 * @param options - {@link FhirNdjsonOptions} without `directory` (the document's is used); `wholeDirectory: true`
 *   adds the document's unreferenced directory records
 * @returns the lines, lazily
 * @throws {ChartValidationError} when the document fails the chart check (at once)
 * @throws {InvalidArgumentError} (from the first `next()`) for a malformed option
 * @example
 * let patients = '';
 * for await (const line of streamChartDocumentNdjson(doc, { types: ['Patient'] })) patients += line.text;
 */
export function streamChartDocumentNdjson(
  document: ChartDocument,
  options?: Omit<FhirNdjsonOptions, 'directory' | 'wholeDirectory'> & { wholeDirectory?: boolean | undefined },
): AsyncGenerator<FhirNdjsonLine, void, undefined> {
  const doc = validateChartDocument(document);
  const { wholeDirectory, ...rest } = options ?? {};
  const directory = doc.directory;
  return streamFhirNdjson(doc.patients, {
    ...rest,
    directory,
    wholeDirectory: wholeDirectory === true ? directory : undefined,
  });
}
