/**
 * What the NDJSON writer remembers of a checked frozen directory while it writes many charts: which directory
 * records' resources it has already handled, so that a practitioner, location or organization referred to by
 * every chart is mapped and serialised once per export instead of once per chart (its line is written once
 * anyway). Only for a directory from `freezeDirectory` / `freezeChartDocument`: its records cannot change, so
 * the same record under the same directory always maps to the same resource.
 */
import type * as fhir from 'fhir/r4.js';
import type { Directory } from '../../model/directory.js';
import { isCheckedFrozen } from '../../validation/memo.js';
import { keepShape } from '../../internal/kept-shapes.js';

/** A directory record kind, as the Bundle context queues it. */
export type DirectoryKind = 'Practitioner' | 'Location' | 'Organization';

/** A reference a directory record's mapping made to another directory record (queued after it). */
export interface DirectoryNeed {
  readonly kind: DirectoryKind;
  readonly id: string;
}

/** The memory of one frozen directory during one export; see the module comment. */
export class DirectoryMemo {
  /** Handled records → the references their mapping made, replayed (in order) instead of mapping again. */
  private readonly done = new WeakMap<object, readonly DirectoryNeed[]>();
  /** Resources mapped from a record and not yet settled → that record and its references. */
  private readonly pending = new WeakMap<object, { readonly record: object; readonly needs: readonly DirectoryNeed[] }>();

  /** The references to replay for `record`, or undefined when it must be mapped. */
  replay(record: object): readonly DirectoryNeed[] | undefined {
    return this.done.get(record);
  }

  /** Note that `resource` was mapped from `record`, whose mapping referred to `needs`. */
  mapped(record: object, resource: fhir.Resource, needs: readonly DirectoryNeed[]): void {
    this.pending.set(resource, { record, needs });
  }

  /**
   * The writer's verdict on a resource: `handled` when it was written, left out by an option, or found identical
   * to the line already written (it will be again: the record and the directory cannot change); not when it was
   * refused as a different resource under an id already written (another chart would be refused again, with an
   * error line each time, as before).
   */
  settle(resource: object, handled: boolean): void {
    const entry = this.pending.get(resource);
    if (entry === undefined) return;
    this.pending.delete(resource);
    if (handled) this.done.set(entry.record, entry.needs);
  }
}

// One memo kept, so that the hidden class of the memo of each export outlives it (src/internal/kept-shapes.ts).
keepShape(new DirectoryMemo());

/**
 * The memo of `directory` for one export, made on first use; undefined when the directory is not a checked
 * frozen one (a plain object may change between charts, so its records are mapped every time).
 * @param memos - the export's memos, by directory
 * @param directory - the directory of the chart being written
 */
export function directoryMemo(memos: WeakMap<Directory, DirectoryMemo>, directory: Directory | undefined): DirectoryMemo | undefined {
  if (directory === undefined || !isCheckedFrozen(directory)) return undefined;
  let memo = memos.get(directory);
  if (memo === undefined) {
    memo = new DirectoryMemo();
    memos.set(directory, memo);
  }
  return memo;
}
