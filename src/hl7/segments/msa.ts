import { segment } from '../internal/segment-text.js';
/**
 * MSA, the message acknowledgment segment (HL7 v2.5.1 chapter 2, 2.14.8), used by ADR^A19.
 */

/**
 * Build the MSA segment of a query response: MSA-1 `AA` (application accept, table 0008), MSA-2 the
 * control id of the query answered (ST, at most 20 characters).
 *
 * @param controlId - encoded MSA-2 value, at most 20 characters
 * @returns the segment text without terminator
 * @see HL7 v2.5.1 MSA-1, MSA-2
 * @example buildMsa('ADR1') // 'MSA|AA|ADR1'
 */
export function buildMsa(controlId: string): string {
  return segment('MSA', ['AA', controlId]);
}
