/**
 * Reuse of HL7 messages built from the same frozen records. An HL7 export depends on the records it is built
 * from, the handler's fixed MSH options, the export time (MSH-7, EVN-2) and the message control id (MSH-10).
 * When the records are deep-frozen checked copies (the in-memory data source holds its document that way),
 * everything but the time and the control id is the same on every request; a template keeps the message with
 * those fields cut out, and a request only fills them in.
 *
 * A template is made only when it provably reproduces the builder: the builder runs with two different
 * sentinel times and control ids, the two messages may differ only in whole fields that equal those values,
 * and the template filled with the request's own values must equal the builder's message for that request.
 * Anything else (a field that depends on the time in another way, an option the builder refuses, a control id
 * the builder would escape) keeps the plain builder path.
 *
 * The template is looked for on the first request for a record, and, when a later request brings other records
 * with it (over an identity-stable source, a changed encounter or directory record), only on the second
 * request in a row for those, so that requests alternating between them pay no extra builds.
 *
 * Templates live in a `WeakMap` keyed by the frozen record a route exports (the note, encounter, assessment
 * or patient), so they go away with the data source's records and add no state that outlives them: memory is
 * bounded by one message per record and route.
 */

import { PROOF_TIMES, sameRecords } from './frozen-source.js';

/** What a template fills in: the HL7 export time or the message control id. */
type Slot = 'now' | 'controlId';

/** A message cut at its time and control-id fields: `parts[0] + slot 0 + parts[1] + … + parts[n]`. */
interface Template {
  readonly parts: readonly string[];
  readonly slots: readonly Slot[];
}

interface Entry {
  readonly route: string;
  /** The records the message was built from, compared by identity. */
  readonly records: readonly unknown[];
  /** Whether the template was looked for; until the same records come twice in a row, only they are remembered. */
  readonly proven: boolean;
  /** `undefined`: the builder's message cannot be templated (or was not looked for yet); build every time. */
  readonly template: Template | undefined;
}

/** Builds the message for the given export time (ISO 8601 instant) and control id. */
export type Hl7Build = (now: string, controlId: string) => string;

/** A control id the builder sends as it is (no escaping needed, within MSH-10's 20 characters). */
const PLAIN_CONTROL_ID_RE = /^[A-Za-z0-9]{1,20}$/;
/** `Date.prototype.toISOString` of a four-digit year: `YYYY-MM-DDThh:mm:ss.sssZ`. */
const ISO_UTC_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/;

/**
 * The HL7 DTM the builders send for a UTC instant: `YYYYMMDDhhmmss+0000`, seconds without fraction.
 * @returns the DTM, or `undefined` for a shape this shortcut does not handle (the builder path then runs)
 */
export function hl7UtcInstant(iso: string): string | undefined {
  const m = ISO_UTC_RE.exec(iso);
  return m === null ? undefined : `${m[1]}${m[2]}${m[3]}${m[4]}${m[5]}${m[6]}+0000`;
}

function fields(message: string): string[][] {
  return message.split('\r').map((segment) => segment.split('|'));
}

/** Cut `a` where it differs from `b`; `undefined` unless every difference is a whole slot field. */
function cut(a: string, b: string, values: Record<Slot, readonly [string, string]>): Template | undefined {
  const sa = fields(a);
  const sb = fields(b);
  if (sa.length !== sb.length) return undefined;
  const parts: string[] = [];
  const slots: Slot[] = [];
  let pending = '';
  for (let s = 0; s < sa.length; s++) {
    const fa = sa[s] as string[];
    const fb = sb[s] as string[];
    if (fa.length !== fb.length) return undefined;
    if (s > 0) pending += '\r';
    for (let f = 0; f < fa.length; f++) {
      if (f > 0) pending += '|';
      const x = fa[f] as string;
      const y = fb[f] as string;
      if (x === y) {
        pending += x;
        continue;
      }
      let slot: Slot;
      if (x === values.now[0] && y === values.now[1]) slot = 'now';
      else if (x === values.controlId[0] && y === values.controlId[1]) slot = 'controlId';
      else return undefined;
      parts.push(pending);
      slots.push(slot);
      pending = '';
    }
  }
  parts.push(pending);
  return { parts, slots };
}

function fill(template: Template, now: string, controlId: string): string {
  const { parts, slots } = template;
  let out = parts[0] as string;
  for (let i = 0; i < slots.length; i++) out += (slots[i] === 'now' ? now : controlId) + (parts[i + 1] as string);
  return out;
}

/** The per-handler template store. */
export interface Hl7TemplateCache {
  /**
   * The message `build(now, controlId)` gives, from a template when one fits.
   * @param route - the route (a key record is exported by one route, but the check is cheap)
   * @param key - the frozen record the route exports
   * @param records - every frozen record the message is built from (key included), in a fixed order
   * @param messageCode - MSH-9.1 (`ADT`, `MDM`, `ORU`); sentinel control ids begin with it
   * @param now - the export time, an ISO 8601 instant
   * @param controlId - MSH-10 as the builder would be given it
   * @param build - the builder call
   */
  render(route: string, key: object, records: readonly unknown[], messageCode: string, now: string, controlId: string, build: Hl7Build): string;
}

/**
 * Create an empty template store. Use it only for records that cannot change: deep-frozen checked copies.
 * @returns the store
 */
export function createHl7TemplateCache(): Hl7TemplateCache {
  const entries = new WeakMap<object, Entry>();
  // Requests in the same millisecond share the export time: its DTM is formatted once.
  let lastNow = '';
  let lastDtm: string | undefined;
  return {
    render(route, key, records, messageCode, now, controlId, build) {
      if (now !== lastNow) {
        lastDtm = hl7UtcInstant(now);
        lastNow = now;
      }
      const dtm = lastDtm;
      // The builder refuses a control id that does not begin with the message code: let it.
      if (dtm === undefined || !PLAIN_CONTROL_ID_RE.test(controlId) || !controlId.startsWith(messageCode)) return build(now, controlId);
      const entry = entries.get(key);
      const same = entry !== undefined && entry.route === route && sameRecords(entry.records, records);
      if (same && entry.proven) return entry.template === undefined ? build(now, controlId) : fill(entry.template, dtm, controlId);
      // The builder's own message is the answer.
      const message = build(now, controlId);
      if (entry !== undefined && !same) {
        // Other records for this key than last time (over an identity-stable source: a record it refers to
        // changed, or one record object serves two patients): remember them, and look for a template only when they come again,
        // so that requests alternating between them never pay the two extra builds.
        entries.set(key, { route, records, proven: false, template: undefined });
        return message;
      }
      // The first request for this key, or the second for the same records: learn the template aside.
      const pad = (c: string): string => (messageCode + c.repeat(20)).slice(0, 20);
      const values: Record<Slot, readonly [string, string]> = {
        now: [hl7UtcInstant(PROOF_TIMES[0]) as string, hl7UtcInstant(PROOF_TIMES[1]) as string],
        controlId: [pad('A'), pad('B')],
      };
      let template: Template | undefined;
      try {
        template = cut(build(PROOF_TIMES[0], values.controlId[0]), build(PROOF_TIMES[1], values.controlId[1]), values);
      } catch {
        template = undefined;
      }
      if (template !== undefined && fill(template, dtm, controlId) !== message) template = undefined;
      entries.set(key, { route, records, proven: true, template });
      return message;
    },
  };
}
