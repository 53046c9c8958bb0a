/**
 * MDM^T02 (original document notification and content), structure MDM_T02: one clinical note.
 */
import { requireIdArgument } from '../../internal/args.js';
import { ChartNotFoundError } from '../../errors.js';
import type { PatientChart } from '../../model/chart.js';
import type { MessageContext } from '../internal/message-context.js';
import { buildEvn } from '../segments/evn.js';
import { buildNoteObx } from '../segments/obx.js';
import { buildPid } from '../segments/pid.js';
import { buildPv1, buildPv1NotApplicable, buildPv1Reference } from '../segments/pv1.js';
import { buildTxa } from '../segments/txa.js';
import { assembleMessage } from './assemble-message.js';
import { prepareMessage, type Hl7MessageOptions } from './prepare-message.js';

/**
 * The PV1 of a record that may belong to an encounter: the encounter's PV1 when the chart holds it, a
 * reference PV1 (class U, visit number = the id) when it does not, `PV1|1|N` when there is no encounter.
 * @param ctx - the message context (directory look-ups by id, XCN values built so far)
 * @param chart - the checked chart
 * @param encounterId - the record's encounter id, if any
 * @returns the PV1 segment
 * @throws MappingError when a practitioner identifier does not fit after escaping
 * @example visitSegment(ctx, chart, undefined) // 'PV1|1|N'
 */
export function visitSegment(ctx: MessageContext, chart: PatientChart, encounterId: string | undefined): string {
  if (encounterId === undefined) return buildPv1NotApplicable();
  const encounters = chart.encounters ?? [];
  const index = encounters.findIndex((e) => e.id === encounterId);
  const encounter = encounters[index];
  return encounter === undefined ? buildPv1Reference(ctx, encounterId) : buildPv1(ctx, encounter, 1, ['encounters', index]);
}

/**
 * Build an MDM^T02 message (MSH-9 `MDM^T02^MDM_T02`) for one note: MSH EVN PID PV1 TXA OBX…. The note
 * text travels in OBX segments of type TX whose OBX-5 repeats once per line (more OBX when it exceeds
 * 99 999 characters); its title in OBX-3.2.
 *
 * @param chart - the patient's chart; checked with `validatePatientChart` first
 * @param noteId - the chart id of the note
 * @param options - header values, clock, control id (must begin with `MDM`), line ending, directory
 * @returns the message text, every segment ended by `\r` (or the `lineEnding` option)
 * @throws ChartValidationError when the chart (or `options.directory`) is invalid
 * @throws ChartNotFoundError (`note`) when the chart has no note with that id
 * @throws InvalidArgumentError when an option is invalid or the id is not a string
 * @throws MappingError when an identifier does not fit its field after escaping
 * @see HL7 v2.5.1 chapter 9, MDM^T02 / MDM_T02
 * @example buildMdmT02(chart, 'note-0001', { now: '2026-03-01T10:30:00-05:00', controlId: 'MDM0001' })
 */
export function buildMdmT02(chart: PatientChart, noteId: string, options?: Hl7MessageOptions): string {
  requireIdArgument('noteId', noteId);
  const p = prepareMessage(chart, options, 'MDM');
  const ctx = p.ctx;
  const notes = p.chart.notes ?? [];
  const index = notes.findIndex((n) => n.id === noteId);
  const note = notes[index];
  if (note === undefined) throw new ChartNotFoundError('note');
  const path = ['notes', index];
  const segments = [
    buildEvn('T02', p.now),
    buildPid(p.chart.patient),
    visitSegment(ctx, p.chart, note.encounterId),
    buildTxa(ctx, note, path),
    ...buildNoteObx(ctx, note, 1, path),
  ];
  return assembleMessage(p, ['MDM', 'T02', 'MDM_T02'], segments);
}
