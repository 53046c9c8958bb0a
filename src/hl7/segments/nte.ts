/**
 * NTE, notes and comments (HL7 v2.5.1 chapter 2, 2.14.10).
 */
import { truncateEscaped } from '../internal/fit.js';
import { segment } from '../internal/segment-text.js';
import { setIdField } from '../internal/set-id.js';
import { escLines } from '../internal/standard-escape.js';
import { HL7_NTE3_MAX } from '../../model/limits.js';

/** NTE-3 maximum length (FT, 65536). */
const NTE3_MAX = HL7_NTE3_MAX;

/**
 * Build an NTE segment whose NTE-3 comment repeats once per line of `text` (LF or CRLF separate lines; a
 * lone CR is sent as `\X0D\`). A comment longer than 65 536 characters after escaping is shortened (lossy).
 *
 * @param setId - NTE-1
 * @param text - the comment
 * @returns the segment text without terminator
 * @see HL7 v2.5.1 NTE-1, NTE-3
 * @example buildNte(1, 'Moderate depression') // 'NTE|1||Moderate depression'
 */
export function buildNte(setId: number, text: string): string {
  return segment('NTE', [setIdField(setId, [], 'NTE-1'), '', truncateEscaped(escLines(text), NTE3_MAX)]);
}
