/**
 * The charts of an NDJSON export, read one at a time from a sync or async iterable, each mapped lazily into its
 * groups of resources (`chartResources`), then the records of a whole directory; the source closed when the
 * export ends early, as a `for await` over it would.
 * @module
 */
import type { PatientChart } from '../../model/chart.js';
import type { Directory } from '../../model/directory.js';
import { validateDirectoryOption, validatePatientChart } from '../../validation/chart-check.js';
import type { FhirNdjsonChart } from '../ndjson.js';
import { type ChartResource, chartResources, directoryResources } from './chart-resources.js';
import { type DirectoryMemo, directoryMemo } from './directory-memo.js';

function isWrapped(item: PatientChart | FhirNdjsonChart): item is FhirNdjsonChart {
  return typeof item === 'object' && item !== null && 'chart' in item;
}

/** The charts of one export, read one at a time (see {@link createChartReader}). */
export interface ChartReader {
  /** The next chart's resources (then the whole directory's); undefined at the end; a promise while an async source reads. */
  next(): Iterator<readonly ChartResource[]> | Promise<void> | undefined;
  /** The memo of the directory of the resources `next()` gave last. */
  memo(): DirectoryMemo | undefined;
  /** Close the charts' iterator when the export ends early (as a `for await` over it would); undefined when nothing is open. */
  close(): Promise<unknown> | undefined;
}

/**
 * The reader of `charts`, sync or async: each chart checked and mapped lazily, then `wholeDirectory`'s records.
 * @param charts - the charts (or `{ chart, directory }`) of the export
 * @param defaultDirectory - the directory of the charts given without their own (checked)
 * @param wholeDirectory - a directory whose every record follows the charts (checked), or undefined
 * @returns the reader
 */
export function createChartReader(
  charts: Iterable<PatientChart | FhirNdjsonChart> | AsyncIterable<PatientChart | FhirNdjsonChart>,
  defaultDirectory: Directory | undefined,
  wholeDirectory: Directory | undefined,
): ChartReader {
  const isAsync = Symbol.asyncIterator in charts;
  /** The charts' iterator while it may give more; undefined once it ended or failed (nothing to close then). */
  let source: Iterator<unknown> | AsyncIterator<unknown> | undefined = isAsync
    ? (charts as AsyncIterable<unknown>)[Symbol.asyncIterator]()
    : (charts as Iterable<unknown>)[Symbol.iterator]();
  // Per frozen directory: its records already handled, not mapped again for a later chart (their line is written once).
  const memos = new WeakMap<Directory, DirectoryMemo>();
  let memo: DirectoryMemo | undefined;
  /** A chart read from an async source, waiting for the next call. */
  let read: IteratorResult<unknown> | undefined;
  let directoryDone = wholeDirectory === undefined;
  const readAsync = (): Promise<void> =>
    (source as AsyncIterator<unknown>).next().then(
      (r) => {
        read = r;
      },
      (error: unknown) => {
        source = undefined;
        throw error;
      },
    );
  const next = (): Iterator<readonly ChartResource[]> | Promise<void> | undefined => {
    let r: IteratorResult<unknown> | undefined = read;
    read = undefined;
    if (r === undefined && source !== undefined) {
      if (isAsync) return readAsync();
      try {
        r = (source as Iterator<unknown>).next();
      } catch (error) {
        source = undefined;
        throw error;
      }
    }
    if (r === undefined || r.done === true) {
      source = undefined;
      if (directoryDone) return undefined;
      directoryDone = true;
      const whole = wholeDirectory as Directory;
      memo = directoryMemo(memos, whole);
      return directoryResources(whole, memo);
    }
    const item = r.value as PatientChart | FhirNdjsonChart;
    const chart = validatePatientChart(isWrapped(item) ? item.chart : item);
    const given = isWrapped(item) ? item.directory : undefined;
    const directory = given === undefined ? defaultDirectory : validateDirectoryOption(given);
    memo = directoryMemo(memos, directory);
    return chartResources(chart, directory, memo);
  };
  const close = (): Promise<unknown> | undefined => {
    const open = source;
    source = undefined;
    return open?.return === undefined ? undefined : Promise.resolve(open.return());
  };
  return { next, memo: () => memo, close };
}
