/**
 * Set ids (SI): the numbering of repeated segments (PID-1, PV1-1, OBX-1, DG1-1, …).
 */
import { MappingError, type IssuePath } from '../../errors.js';

/** The largest set id an SI field can hold: SI has at most 4 digits. */
export const SI_MAX = 9999;

/**
 * A set id (SI, at most 4 digits) as field text. The builders number segments from 1, so only an input with
 * more than 9 999 records of one kind in one place (answers of one assessment, diagnoses of one encounter,
 * lines… ) can reach it; that is a MappingError naming the record, never a wrapped or cut number.
 * @param setId - the set id, 1 or more
 * @param path - where the record that needs it is in the input
 * @param target - the field, e.g. `OBX-1`
 * @returns the set id as text
 * @throws MappingError when `setId` exceeds 9 999
 * @see HL7 v2.5.1 SI data type (2A.2.67): "a non-negative integer … 4 characters"
 * @example setIdField(12, [], 'DG1-1') // '12'
 */
export function setIdField(setId: number, path: IssuePath, target: string): string {
  if (setId > SI_MAX) {
    throw new MappingError(path, target, `${target} is an SI set id of at most 4 digits (${SI_MAX}); this segment would be number ${setId}`);
  }
  return String(setId);
}
