/**
 * ADR^A19 as text chunks, paced: the long summary of {@link buildAdrA19} without holding the event loop while
 * it is written.
 */
import type { PatientChart } from '../../model/chart.js';
import { createPacer, resolveStreamSettings, type Pacer, type StreamSettings } from '../../internal/pacing.js';
import { adrA19Units, ADR_A19_TYPE, GROUP_END, planAdrA19, type AdrA19Plan, type Hl7SummaryOptions } from './adr-a19.js';
import { buildMessageHeader, headerIsNonAscii, isNonAscii } from './assemble-message.js';

/** How a streamed HL7 message is cut into chunks and paced. */
export interface Hl7StreamOptions {
  /**
   * A chunk is given once it holds at least this many characters; a record whose segments are longer ends its
   * chunk. Default 65 536.
   */
  chunkChars?: number | undefined;
  /**
   * The longest (in milliseconds) the stream keeps the event loop before it waits for a macrotask
   * (`setTimeout`), so other work runs in between. Never inside one record's segments. Default 10.
   */
  maxHoldMs?: number | undefined;
}

/** Options of {@link streamAdrA19}: those of `buildAdrA19` and {@link Hl7StreamOptions}. */
export type Hl7SummaryStreamOptions = Hl7SummaryOptions & Hl7StreamOptions;

/**
 * Stream the ADR^A19 of {@link buildAdrA19} as text: the chunks, joined, are byte for byte
 * `buildAdrA19(chart, options)` (at the same `now`; without `now` it is read once, at the call, and a generated
 * control id is drawn once, at the call). The segments are written one record at a time (a group's PID and PV1,
 * one note's OBX, one assessment's OBX, the encounter's DG1 and PR1, one history entry's DG1), and between
 * records the stream gives the event loop back at least every `maxHoldMs`. MSH-18 (character set) depends on
 * every segment, so the whole message is written before the first chunk is given: memory holds the message
 * text, as `buildAdrA19` does, and a failure while writing rejects the iteration before any chunk exists.
 *
 * The chart and the options are checked at the call, so a bad chart throws before the iterable exists. The
 * chart check runs synchronously at the call and reads the whole chart: a host exporting a chart many times
 * checks it once with `freezePatientChart`, which takes that check out of every export. The `maxHoldMs` budget
 * starts at the call, so a check that spent it is followed by a give-back after the first record.
 *
 * @param chart - the patient's chart (checked first; nothing invalid is emitted)
 * @param options - the options of `buildAdrA19`, plus `chunkChars` and `maxHoldMs`
 * @returns an async iterable of message text chunks (iterate it once)
 * @throws {ChartValidationError} when the chart (or `options.directory`) fails the chart check
 * @throws {InvalidArgumentError} when an option is invalid (as `buildAdrA19`), or `chunkChars` / `maxHoldMs` is
 * @throws {MappingError} when the summary needs more groups than PID-1 numbers; (rejecting the iteration) when
 *   a record does not fit its segment, as `buildAdrA19` throws it
 * @example
 * let text = '';
 * for await (const chunk of streamAdrA19(chart, { now: '2026-03-01T10:30:00-05:00', controlId: 'ADR1' })) text += chunk;
 * text === buildAdrA19(chart, { now: '2026-03-01T10:30:00-05:00', controlId: 'ADR1' }); // true
 * @see HL7 v2.5.1 chapter 3, ADR^A19 / ADR_A19
 */
export function streamAdrA19(chart: PatientChart, options?: Hl7SummaryStreamOptions): AsyncIterable<string> {
  const settings = resolveStreamSettings(options);
  // The event-loop budget starts at the call, before the chart check: when the check has spent it, the stream
  // gives the loop back after the first record it writes, not one budget later.
  const pacer = createPacer(settings.maxHoldMs);
  const plan = planAdrA19(chart, options);
  return streamUnits(plan, settings, pacer);
}

/**
 * Write the planned message record by record (paced), then give it in chunks of at least `chunkChars`.
 * @param plan - the planned message
 * @param settings - chunk size and event-loop budget
 * @param pacer - the budget, started at the call
 * @returns the chunks
 */
async function* streamUnits(plan: AdrA19Plan, settings: StreamSettings, pacer: Pacer): AsyncGenerator<string, void, undefined> {
  const le = plan.p.lineEnding;
  // The message after MSH is every segment followed by the line ending, as `assembleMessage` writes it; pieces
  // are cut from it at record boundaries once they reach the chunk size, and scanned for MSH-18 as they are cut.
  const pieces: string[] = [];
  let pending: string[] = [...plan.head];
  let pendingChars = plan.head.reduce((n, s) => n + s.length + 1, 0);
  let nonAscii = headerIsNonAscii(plan.p);
  const cut = (): void => {
    const piece = `${pending.join(le)}${le}`;
    nonAscii ||= isNonAscii(piece);
    pieces.push(piece);
    pending = [];
    pendingChars = 0;
  };
  for (const unit of adrA19Units(plan)) {
    if (unit === GROUP_END) continue;
    for (const s of unit) {
      pending.push(s);
      pendingChars += s.length + 1;
    }
    if (pendingChars >= settings.chunkChars) cut();
    if (pacer.due()) await pacer.pause();
  }
  if (pending.length > 0) cut();
  let chunk = `${buildMessageHeader(plan.p, ADR_A19_TYPE, nonAscii)}${le}`;
  for (const piece of pieces) {
    chunk += piece;
    if (chunk.length >= settings.chunkChars) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}
