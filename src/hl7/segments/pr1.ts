/**
 * PR1, procedures (HL7 v2.5.1 chapter 6, 6.5.4), from an encounter's procedure.
 */
import { MappingError, type IssuePath } from '../../errors.js';
import type { Encounter, Procedure } from '../../model/encounter.js';
import { isoSortKey, parseIsoDateTime } from '../../internal/iso.js';
import { formatHl7DateTime } from '../datetime.js';
import { fitId } from '../internal/fit.js';
import { ceFromCoding } from '../data-types/ce.js';
import { textComponent } from '../data-types/text-component.js';
import { xcnForPractitioner } from '../data-types/xcn.js';
import { emptyFields, segment } from '../internal/segment-text.js';
import { setIdField } from '../internal/set-id.js';
import type { MessageContext } from '../internal/message-context.js';

/** PR1-4 maximum length (ST, 40). */
export const PR1_DESCRIPTION_MAX = 40;
/** DG1-20 / PR1-19 are EI (427), but the id goes to EI-1, an ST of 199. */
const EI_MAX = 199;

/**
 * The value of PR1-5 (procedure date/time, required): the procedure's `performed` date-time, or the start of
 * its `performed` period, or else the encounter's `period.start` (the documented default of the model).
 * @param procedure - the procedure
 * @param encounter - its encounter
 * @param path - where the procedure is in the input
 * @returns the HL7 DTM
 * @throws MappingError (target `PR1-5`) when none of them is known
 * @example procedureDateTime({ code, status: 'completed' }, { …, period: { start: '2026-02-01' } }, []) // '20260201'
 */
export function procedureDateTime(procedure: Procedure, encounter: Encounter | undefined, path: IssuePath): string {
  const performed = procedure.performed;
  const own = typeof performed === 'string' ? performed : performed?.start;
  const when = own ?? encounter?.period?.start;
  if (when === undefined) {
    throw new MappingError(
      [...path, 'performed'],
      'PR1-5',
      'the procedure has no performed date-time or period start, and its encounter has no period start',
    );
  }
  return formatHl7DateTime(when);
}

/** PR1-7 procedure minutes: whole minutes of a performed period given to the second, when 0–9999. */
function procedureMinutes(procedure: Procedure): string {
  const performed = procedure.performed;
  if (typeof performed !== 'object' || performed.start === undefined || performed.end === undefined) return '';
  if (parseIsoDateTime(performed.start)?.precision !== 'second' || parseIsoDateTime(performed.end)?.precision !== 'second') return '';
  const minutes = Math.round((isoSortKey(performed.end) - isoSortKey(performed.start)) / 60_000);
  return minutes >= 0 && minutes <= 9999 ? String(minutes) : '';
}

/**
 * Build a PR1 segment.
 *
 * - PR1-1 set id; PR1-3 CE code (required); PR1-4 description: the display truncated to 40 characters after
 *   escaping (full display in PR1-3.2); PR1-5 date/time (required): performed, else performed period
 *   start, else the encounter's period start, else a MappingError; PR1-7 minutes of a performed period
 *   (rounded to whole minutes; omitted beyond 9999); PR1-12 procedure practitioner XCN = the performer;
 *   PR1-19 procedure identifier = the procedure id; PR1-20 action code `D` for entered-in-error.
 * - Not carried: any other status (PR1 has no status field: a `not-done` procedure reads as performed).
 *
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param setId - PR1-1
 * @param procedure - the procedure (already validated)
 * @param encounter - its encounter, for the PR1-5 default
 * @param path - path of the procedure in the input, for MappingError
 * @returns the segment text without terminator
 * @throws MappingError when PR1-5 cannot be filled, or a code or identifier does not fit after escaping
 * @see HL7 v2.5.1 PR1-1 … PR1-20
 * @example buildPr1(ctx, 1, { code: { system: 'cpt', code: '90834' }, status: 'completed', performed: '2026-03-01T09:35:00-05:00' }, enc) // 'PR1|1||90834^^C4||20260301093500-0500'
 */
export function buildPr1(ctx: MessageContext, setId: number, procedure: Procedure, encounter: Encounter | undefined, path: IssuePath = []): string {
  const fields = emptyFields(20);
  fields[0] = setIdField(setId, path, 'PR1-1');
  fields[2] = ceFromCoding(procedure.code, [...path, 'code'], 'PR1-3');
  fields[3] = textComponent(procedure.code.display ?? '', PR1_DESCRIPTION_MAX);
  fields[4] = procedureDateTime(procedure, encounter, path);
  fields[6] = procedureMinutes(procedure);
  if (procedure.performerId !== undefined) fields[11] = xcnForPractitioner(ctx, procedure.performerId, [...path, 'performerId'], 'PR1-12');
  if (procedure.id !== undefined) fields[18] = fitId(procedure.id, EI_MAX);
  if (procedure.status === 'entered-in-error') fields[19] = 'D';
  return segment('PR1', fields);
}
