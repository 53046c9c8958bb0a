/**
 * `checkHl7Message`, the HL7 v2.5.1 conformance check: message type and version in MSH, the segment order
 * (message-structure.ts), then the fields of every segment (segment-fields.ts).
 */
import { Hl7ParseError } from '../../errors.js';
import { parseHl7Message, type Hl7Message } from '../parser.js';
import { HL7_EVENT_STRUCTURES } from './definitions.js';
import { assertMessageShape } from './message-shape.js';
import { checkSegmentSequence, findStructureAutomaton } from './message-structure.js';
import type { Hl7Problem } from './problems.js';
import { checkSegmentFields } from './segment-fields.js';

/**
 * Check a message against HL7 v2.5.1: its segment sequence against the abstract message structure named by
 * MSH-9.3 (or, without it, by MSH-9.1/9.2 through the v2.5.1 event map) — ADT_A05, ADT_A01, ADR_A19, MDM_T02
 * and ORU_R01 are known; and, for the segments this library emits (MSH EVN PID PV1 DG1 PR1 IN1 TXA OBR OBX
 * NTE MSA QRD), required fields, non-repeating fields, maximum lengths of fields, components and
 * sub-components (measured as sent, escaped; positions such as `PID-5.1.1`, `PID-5(2).3`; the null `""` is
 * no length), components and sub-components a data type does not have (`unknown-field`), the formats of TS /
 * DT / SI / NM fields, OBX-5 against its value type in OBX-2 (components and lengths by that type; formats of
 * NM, DT, TM, TS, DTM, SN), closed-table codes, and the conditional rules of the composite types wherever
 * they occur (`conditional` at the empty component: HD-2 / HD-3 and EI-3 / EI-4 both valued or both empty, a
 * valued XCN-1 with XCN-8 or XCN-9; `required-field`: CX-1, TS-1, FN-1 of a valued CX, TS, FN). Also MSH-9 (three components, consistent with the event
 * map) and MSH-12 (`2.5.1`). Other segments are checked for position only; so are the components of `varies`
 * fields other than OBX-5 and of the withdrawn value types CK, CN, PN and TN.
 *
 * @param message - message text, or a message parsed by {@link parseHl7Message}
 * @returns every problem found, in segment order; empty when the message conforms
 * @throws {InvalidArgumentError} when `message` is neither a string nor a message of {@link parseHl7Message}'s
 *   shape (the argument names the first node that is not, e.g. `message.segments[2].fields[5]`)
 * @see HL7 v2.5.1 chapter 2, 2.12 "Message construction rules"; the abstract message syntax of chapters 3, 7, 9
 * @example checkHl7Message('MSH|^~\\&|||||20260301||MDM^T02^MDM_T02|MDM1|P|2.5.1\rEVN|T02|20260301\r')
 *   // [{ code: 'missing-segment', position: 'PID', … }, { code: 'missing-segment', position: 'PV1', … }, …]
 */
export function checkHl7Message(message: string | Hl7Message): Hl7Problem[] {
  let parsed: Hl7Message;
  if (typeof message === 'string') {
    try {
      parsed = parseHl7Message(message);
    } catch (e) {
      if (e instanceof Hl7ParseError) return [{ code: 'parse', segmentIndex: e.segmentIndex, position: e.position, message: e.message }];
      throw e;
    }
  } else {
    parsed = assertMessageShape(message);
  }
  const problems: Hl7Problem[] = [];
  const msh = parsed.segments[0];
  if (msh === undefined || msh.id !== 'MSH') {
    return [{ code: 'missing-segment', segmentIndex: 0, position: 'MSH', message: 'The message must begin with an MSH segment' }];
  }
  const type = msh.fields[9]?.[0] ?? [];
  const code = type[0]?.[0] ?? '';
  const event = type[1]?.[0] ?? '';
  const declared = type[2]?.[0] ?? '';
  if (code !== '' && event === '') problems.push({ code: 'required-field', segmentIndex: 0, position: 'MSH-9.2', message: 'MSH-9.2 (trigger event) is required' });
  if (code !== '' && declared === '') {
    problems.push({ code: 'required-field', segmentIndex: 0, position: 'MSH-9.3', message: 'MSH-9.3 (message structure) is required' });
  }
  const eventKey = `${code}^${event}`;
  const mapped = Object.hasOwn(HL7_EVENT_STRUCTURES, eventKey) ? HL7_EVENT_STRUCTURES[eventKey] : undefined;
  if (declared !== '' && mapped !== undefined && declared !== mapped) {
    problems.push({ code: 'message-type', segmentIndex: 0, position: 'MSH-9.3', message: `MSH-9.3 does not match the v2.5.1 structure of ${code}^${event} (${mapped})` });
  }
  const version = msh.fields[12]?.[0]?.[0]?.[0] ?? '';
  if (version !== '' && version !== '2.5.1') {
    problems.push({ code: 'value', segmentIndex: 0, position: 'MSH-12', message: 'MSH-12 is not 2.5.1; the check applies v2.5.1 rules' });
  }
  const structure = declared !== '' ? declared : mapped;
  const a = structure === undefined ? undefined : findStructureAutomaton(structure);
  if (a === undefined) {
    if (code !== '') {
      problems.push({
        code: 'unsupported-structure',
        segmentIndex: 0,
        position: 'MSH-9',
        message: 'The message structure is not one the check knows (ADT_A01, ADT_A05, ADR_A19, MDM_T02, ORU_R01); segment order was not checked',
      });
    }
  } else {
    checkSegmentSequence(a, parsed.segments, problems);
  }
  parsed.segments.forEach((segment, index) => checkSegmentFields(segment, index, parsed, problems));
  // Stable: structure problems of a segment come before its field problems.
  return problems.sort((x, y) => x.segmentIndex - y.segmentIndex);
}
