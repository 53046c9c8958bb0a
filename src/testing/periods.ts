/**
 * Ordered periods: a `start` never after its `end` under the chart check's ordering (instants with their
 * offsets; mixed precisions with a gap wide enough for every offset).
 */
import fc from 'fast-check';
import type { Period } from '../index.js';
import { arbFraction, arbIsoDate, arbIsoDateTimeFull, arbOffset, formatDay, fromMs, pad, type DateOptions, type DatePrecision, type DayParts } from './dates.js';
import { isoInstantMs, isoOrder, offsetMinutes, readIso, utcMs } from './internal/iso-reading.js';
import { memo } from './internal/util.js';

const HOUR = 3_600_000;

/** The first instant after `value` under any reading of it: a date is read in the most western zone. */
function latestInstant(value: string): number {
  const p = readIso(value);
  if (p === undefined) throw new Error('not an ISO date');
  if (p.precision === 'second') return Math.ceil(isoInstantMs(value) / 1000) * 1000 + 1000;
  let endMs: number;
  if (p.precision === 'year') endMs = utcMs(p.year + 1, 1, 1);
  else if (p.precision === 'month') endMs = utcMs(p.year, p.month + 1, 1);
  else endMs = utcMs(p.year, p.month, p.day + 1);
  return endMs + 12 * HOUR;
}

/** The first date of `precision` whose first instant (in the most eastern zone) is at or after `ms`. */
function ceilDate(ms: number, precision: DatePrecision): DayParts {
  const t = ms + 14 * HOUR;
  const p = fromMs(t);
  const exact = p.h === 0 && p.mi === 0 && p.s === 0 && new Date(t).getUTCMilliseconds() === 0;
  if (precision === 'day') {
    if (exact) return p;
    return fromMs(utcMs(p.y, p.mo, p.d + 1));
  }
  if (precision === 'month') {
    if (exact && p.d === 1) return p;
    return fromMs(utcMs(p.y, p.mo + 1, 1));
  }
  if (exact && p.d === 1 && p.mo === 1) return p;
  return { y: p.y + 1, mo: 1, d: 1 };
}

function addUnits(p: DayParts, precision: DatePrecision, k: number): DayParts {
  if (precision === 'year') return { y: p.y + k, mo: 1, d: 1 };
  if (precision === 'month') return fromMs(utcMs(p.y, p.mo + k, 1));
  return fromMs(utcMs(p.y, p.mo, p.d + k));
}

function precisionOf(value: string): DatePrecision | 'second' {
  return readIso(value)?.precision ?? 'day';
}

type EndShape = { kind: 'same' } | { kind: 'date'; precision: DatePrecision; k: number } | { kind: 'dateTime'; seconds: number; offset: string; fraction: string | undefined };

/**
 * Make an end that is not before `start` under any reasonable reading (the chart check's included): same
 * precision dates are compared as calendar values; a date-time after a date-time by instant; mixed
 * precisions leave a gap wide enough for every offset. Falls back to `start` itself beyond year 9999.
 */
function makeEnd(start: string, shape: EndShape): string {
  if (shape.kind === 'same') return start;
  const sp = precisionOf(start);
  let out: string;
  if (shape.kind === 'date') {
    if (sp === shape.precision) {
      const p = readIso(start);
      const base: DayParts = { y: p?.year ?? 1, mo: p?.month ?? 1, d: p?.day ?? 1 };
      out = formatDay(addUnits(base, shape.precision, shape.k), shape.precision);
    } else {
      out = formatDay(addUnits(ceilDate(latestInstant(start), shape.precision), shape.precision, shape.k), shape.precision);
    }
  } else {
    const base = sp === 'second' ? Math.ceil(isoInstantMs(start) / 1000) * 1000 : latestInstant(start);
    const instant = base + shape.seconds * 1000;
    const off = offsetMinutes(shape.offset);
    const local = fromMs(instant + off * 60_000);
    out = `${formatDay(local, 'day')}T${pad(local.h)}:${pad(local.mi)}:${pad(local.s)}${shape.fraction === undefined ? '' : `.${shape.fraction}`}${shape.offset}`;
  }
  // Beyond year 9999 the value has five year digits and is no ISO value of the profile.
  if (readIso(out) === undefined || isoOrder(out) < isoOrder(start)) return start;
  return out;
}

const arbEndShape = (dateOnly: boolean): fc.Arbitrary<EndShape> => {
  const date = fc.record({
    kind: fc.constant('date' as const),
    precision: fc.constantFrom<DatePrecision>('year', 'month', 'day'),
    k: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 400 })),
  });
  if (dateOnly) return fc.oneof({ arbitrary: date, weight: 6 }, { arbitrary: fc.constant({ kind: 'same' as const }), weight: 1 });
  const dateTime = fc.record({
    kind: fc.constant('dateTime' as const),
    // Minutes to days, sometimes years.
    seconds: fc.oneof(fc.integer({ min: 0, max: 3 * 3600 }), fc.integer({ min: 0, max: 30 * 86400 }), fc.integer({ min: 0, max: 5 * 365 * 86400 })),
    offset: arbOffset,
    fraction: arbFraction,
  });
  return fc.oneof({ arbitrary: dateTime, weight: 6 }, { arbitrary: date, weight: 1 }, { arbitrary: fc.constant({ kind: 'same' as const }), weight: 1 });
};

/** Options of {@link arbPeriod}. */
export interface PeriodOptions extends DateOptions {
  /** Dates only (coverage periods). */
  dateOnly?: boolean | undefined;
  /** Allow a missing start, end or both (default true); `false` always sets both ends. */
  openEnds?: boolean | undefined;
}

/**
 * A period whose `start` is never after its `end` (by the chart check's order, and under any offset reading for
 * mixed precisions). Either end may be missing unless `openEnds: false`.
 * @param opts - dates only, year range, open ends
 */
export function arbPeriod(opts: PeriodOptions = {}): fc.Arbitrary<Period> {
  return memo(`period|${JSON.stringify(opts)}`, () => buildPeriod(opts));
}

function buildPeriod(opts: PeriodOptions = {}): fc.Arbitrary<Period> {
  const dateOnly = opts.dateOnly === true;
  const startArb = dateOnly ? arbIsoDate({ years: opts.years ?? 'mixed' }) : fc.oneof({ arbitrary: arbIsoDateTimeFull({ years: opts.years ?? 'mixed', leapSecond: false }), weight: 5 }, { arbitrary: arbIsoDate({ years: opts.years ?? 'mixed' }), weight: 1 });
  const both = fc
    .tuple(startArb, arbEndShape(dateOnly))
    .map(([start, shape]) => ({ start, end: makeEnd(start, shape) }));
  if (opts.openEnds === false) return both;
  return fc.oneof(
    { arbitrary: both, weight: 6 },
    { arbitrary: startArb.map((start) => ({ start })), weight: 2 },
    { arbitrary: startArb.map((end) => ({ end })), weight: 1 },
    { arbitrary: fc.constant({}), weight: 1 },
  );
}

/**
 * A pair `[earlier, later]` of ISO values the earlier never after the later (by the chart check's order) (onset and
 * abatement, for example).
 */
export function arbOrderedPair(opts: DateOptions = {}): fc.Arbitrary<[string, string]> {
  return arbPeriod({ ...opts, openEnds: false }).map((p) => [p.start ?? '', p.end ?? ''] as [string, string]);
}

