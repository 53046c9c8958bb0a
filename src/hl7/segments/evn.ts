import { segment } from '../internal/segment-text.js';
/**
 * EVN, the event type segment (HL7 v2.5.1 chapter 3, 3.4.1).
 */

/**
 * Build the EVN segment: EVN-1 the trigger event (B, table 0003), EVN-2 the recorded date/time (required):
 * the moment of the export.
 *
 * @param eventType - trigger event, e.g. `A31`
 * @param recorded - DTM with seconds and offset
 * @returns the segment text without terminator
 * @see HL7 v2.5.1 EVN-1, EVN-2
 * @example buildEvn('A31', '20260301093000-0500') // 'EVN|A31|20260301093000-0500'
 */
export function buildEvn(eventType: string, recorded: string): string {
  return segment('EVN', [eventType, recorded]);
}
