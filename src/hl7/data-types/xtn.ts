/**
 * XTN, extended telecommunication number (HL7 v2.5.1 2A.2.89), from a chart contact point.
 */
import { MappingError, type IssuePath } from '../../errors.js';
import type { Telecom } from '../../model/common.js';
import { COMPONENT_MAX } from '../internal/component-lengths.js';
import { joinTrimmed } from '../internal/segment-text.js';
import { esc } from '../internal/standard-escape.js';
import { hl7TelecomCodes } from '../tables.js';

/**
 * XTN from a telecom: a phone, fax, pager or SMS number goes to XTN-1 as written (`[NNN] …` free form; the
 * structured XTN-5…8 need parsed digits the chart does not have); an e-mail address or URL goes to XTN-4.
 * XTN-2 use and XTN-3 equipment come from tables 0201 / 0202.
 * @param telecom - the contact point
 * @param path - where it is in the input, for MappingError
 * @param target - the field, `PID-13` or `PID-14`
 * @returns the encoded XTN
 * @throws MappingError when the value is longer than XTN-1 / XTN-4's 199 characters after escaping (never shortened)
 * @see HL7 v2.5.1 XTN data type; PID-13, PID-14
 * @example xtnFromTelecom({ system: 'email', value: 'a@example.org' }, [], 'PID-13') // '^NET^Internet^a@example.org'
 */
export function xtnFromTelecom(telecom: Telecom, path: IssuePath, target: string): string {
  const { use, equipment } = hl7TelecomCodes(telecom.system, telecom.use);
  const value = esc(telecom.value);
  if (value.length > COMPONENT_MAX.telecom) {
    throw new MappingError(path, target, `the contact value is longer than the ${COMPONENT_MAX.telecom} characters ${target} allows after escaping`);
  }
  const internet = equipment === 'Internet';
  return joinTrimmed([internet ? '' : value, use, equipment, internet ? value : ''], '^');
}
