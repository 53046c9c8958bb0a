/**
 * CE, coded element (HL7 v2.5.1 2A.2.8), from a chart coding.
 */
import type { IssuePath } from '../../errors.js';
import { CODE_SYSTEMS, type Coding } from '../../model/common.js';
import { COMPONENT_MAX, COMPOSITE_MAX } from '../internal/component-lengths.js';
import { fitCompositeOrThrow } from '../internal/fit.js';
import { codeComponent, textComponent } from './text-component.js';

/**
 * CE from a coding: `code^display^system` with the HL7 coding-system name of table 0396 (`I10`, `SCT`, `LN`…).
 * A display longer than CE-2's 199 characters is shortened; the code is never cut (see {@link codeComponent}).
 * @param coding - the coding
 * @param path - where the coding is in the input, for MappingError
 * @param target - the field, e.g. `DG1-3`
 * @param text - CE-2 text to send instead of the coding's display
 * @returns the encoded CE, at most 250 characters
 * @throws MappingError never in practice (a checked code fits the CE); typed for uniformity
 * @example ceFromCoding({ system: 'icd-10-cm', code: 'F32.1' }, [], 'DG1-3') // 'F32.1^^I10'
 */
export function ceFromCoding(coding: Coding, path: IssuePath, target: string, text?: string): string {
  const display = text ?? coding.display ?? '';
  const code = codeComponent(coding.code);
  return fitCompositeOrThrow([code, textComponent(display, COMPONENT_MAX.ceText), CODE_SYSTEMS[coding.system].hl7], [1], COMPOSITE_MAX, path, target);
}
