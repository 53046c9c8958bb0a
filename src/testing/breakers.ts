/**
 * What the breakers share: a chart or document broken in one place and the path where the check must report
 * it, and the small edits breakers make (a fresh id, a record put first, a minimal valid assessment).
 */
import type { Assessment, ChartDocument, Encounter, PatientChart } from '../index.js';
import { PHQ9_INSTRUMENT } from './instruments.js';

/** A chart or document broken in one place, and where the check must report it. */
export interface Broken<T> {
  /** The broken value (typed loosely: it no longer satisfies the model). */
  value: T;
  /** The path of the issue, formatted like `formatIssuePath` (`encounters[0].period.start`). */
  path: string;
  /** Which breaker was applied. */
  name: string;
}

/** One way to break a valid chart. */
export interface ChartBreaker {
  /** What rule it breaks. */
  name: string;
  /** Break a deep copy of `chart`; returns the copy and the path the check must report. */
  apply(chart: PatientChart): { value: PatientChart; path: string };
}

/** A deep copy. */
export const copy = <T>(v: T): T => structuredClone(v);

/** Ensure the chart has at least one encounter (a minimal valid one at the end if needed); returns its index. */
function ensureEncounter(chart: PatientChart): number {
  chart.encounters ??= [];
  if (chart.encounters.length === 0) chart.encounters.push({ id: 'enc-broken', status: 'finished', class: 'AMB' });
  return 0;
}

/** The chart's first encounter (one added when it has none) and its index. */
export function firstEncounter(chart: PatientChart): [number, Encounter] {
  const i = ensureEncounter(chart);
  const enc = chart.encounters?.[i];
  if (enc === undefined) throw new Error('unreachable');
  return [i, enc];
}

/** A fresh id not used by any record of the kind in the list. */
export function unusedId(list: readonly { id: string }[] | undefined, base: string): string {
  const ids = new Set((list ?? []).map((x) => x.id));
  let id = base;
  for (let i = 2; ids.has(id); i++) id = `${base}-${i}`;
  return id;
}

/** Put `record` first in a list (ids made unique), and return the list. */
export function prepend<T extends { id: string }>(list: T[] | undefined, record: T): T[] {
  const out = list ?? [];
  out.unshift({ ...record, id: unusedId(out, record.id) });
  return out;
}

/** A valid PHQ-9 assessment with the given fields replaced. */
export const validAssessment = (over: Partial<Assessment>): Assessment => ({
  id: 'asmt-broken',
  instrument: PHQ9_INSTRUMENT,
  status: 'completed',
  authored: '2024-03-01T10:00:00-06:00',
  answers: [],
  ...over,
});

/** One way to break a valid chart document. */
export interface DocumentBreaker {
  /** What rule it breaks. */
  name: string;
  /** Break a deep copy of `doc`; returns the copy and the path the check must report. */
  apply(doc: ChartDocument): { value: ChartDocument; path: string };
}
