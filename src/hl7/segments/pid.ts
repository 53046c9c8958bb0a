/**
 * PID, patient identification (HL7 v2.5.1 chapter 3, 3.4.2), from the chart's patient.
 */
import type { IssuePath } from '../../errors.js';
import type { Patient } from '../../model/patient.js';
import { formatHl7DateTime } from '../datetime.js';
import { fitCompositeOrThrow } from '../internal/fit.js';
import { HL7_MARITAL_STATUS, HL7_SEX } from '../tables.js';
import { cxFromIdentifier } from '../data-types/cx.js';
import { codeComponent } from '../data-types/text-component.js';
import { xadFromAddress } from '../data-types/xad.js';
import { xpnFromName } from '../data-types/xpn.js';
import { xtnFromTelecom } from '../data-types/xtn.js';
import { COMPOSITE_MAX } from '../internal/component-lengths.js';
import { repeat, segment } from '../internal/segment-text.js';
import { setIdField } from '../internal/set-id.js';

/**
 * The patient's identifiers in PID-3 order: the first with type `MR` (or else the first) leads, the others
 * follow in chart order.
 * @param patient - the patient
 * @returns the identifiers with their index in the chart
 * @example orderedIdentifiers(patient)[0]?.identifier.type // 'MR'
 */
export function orderedIdentifiers(patient: Patient): { identifier: Patient['identifiers'][number]; index: number }[] {
  const all = patient.identifiers.map((identifier, index) => ({ identifier, index }));
  const primary = all.find((x) => x.identifier.type === 'MR') ?? all[0];
  return primary === undefined ? all : [primary, ...all.filter((x) => x !== primary)];
}

/**
 * Build the PID segment.
 *
 * - PID-1 set id; PID-3 CX (required) every identifier, the primary (first `MR`, else first) first, with
 *   assigning authority from the system (`urn:oid:` → ISO, `urn:uuid:` → UUID, other URIs → URI) and CX-5
 *   type (table 0203).
 * - PID-5 XPN (required) every name (see the XPN rules: further given names joined by a space, a text-only
 *   name sent as family name, name use through table 0200).
 * - PID-7 birth date (TS, precision kept); PID-8 sex (table 0001; `other` → `O`).
 * - PID-11 XAD addresses; PID-13 home phone: every telecom whose use is not `work`, e-mail included (XTN-4);
 *   PID-14 business phone: the `work` ones.
 * - PID-15 primary language: the BCP 47 tag in CE-1 (no coding system: v2.5.1 table 0396 has none for
 *   BCP 47). PID-16 marital status CE (table 0002, see the map).
 * - PID-29 death date/time and PID-30 death indicator `Y` when deceased (a date or `true`); `N` when `false`.
 * - Not sent (no chart data): PID-2, PID-4, PID-6, PID-9, PID-10, PID-12, PID-17…28, PID-31…39.
 *
 * @param patient - the chart's patient (already validated)
 * @param setId - PID-1
 * @param path - path of the patient in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when an identifier does not fit PID-3's 250 characters after escaping
 * @see HL7 v2.5.1 PID-1 … PID-30
 * @example buildPid(chart.patient) // 'PID|1||MRN-000123^^^&2.16.840.1.113883.19.5&ISO^MR||Okafor^Adaeze^^^^^L|…'
 */
export function buildPid(patient: Patient, setId = 1, path: IssuePath = ['patient']): string {
  const ids = orderedIdentifiers(patient).map(({ identifier, index }) =>
    cxFromIdentifier(identifier, [...path, 'identifiers', index], 'PID-3'),
  );
  const names = patient.names.map((n, i) => xpnFromName(n, [...path, 'names', i], 'PID-5'));
  const addresses = (patient.addresses ?? [])
    .map((a, i) => xadFromAddress(a, [...path, 'addresses', i], 'PID-11'))
    .filter((a) => a !== '');
  const home: string[] = [];
  const work: string[] = [];
  (patient.telecoms ?? []).forEach((t, i) => {
    if (t.value === '') return;
    (t.use === 'work' ? work : home).push(xtnFromTelecom(t, [...path, 'telecoms', i], t.use === 'work' ? 'PID-14' : 'PID-13'));
  });
  const language =
    patient.language === undefined || patient.language === ''
      ? ''
      : fitCompositeOrThrow([codeComponent(patient.language)], [], COMPOSITE_MAX, [...path, 'language'], 'PID-15');
  const marital = patient.maritalStatus === undefined ? '' : `${HL7_MARITAL_STATUS[patient.maritalStatus].join('^')}^HL70002`;
  const deceased = patient.deceased;
  return segment('PID', [
    setIdField(setId, path, 'PID-1'),
    '',
    repeat(ids),
    '',
    repeat(names),
    '',
    patient.birthDate === undefined ? '' : formatHl7DateTime(patient.birthDate),
    patient.gender === undefined ? '' : HL7_SEX[patient.gender],
    '',
    '',
    repeat(addresses),
    '',
    repeat(home),
    repeat(work),
    language,
    marital,
    '', '', '', '', '', '', '', '', '', '', '', '',
    typeof deceased === 'string' ? formatHl7DateTime(deceased) : '',
    deceased === undefined ? '' : deceased === false ? 'N' : 'Y',
  ]);
}
