/**
 * MSH, the message header (HL7 v2.5.1 chapter 2, 2.14.9).
 */

/** The values of an MSH segment, already encoded (escaped where they are text). */
export interface MshValues {
  /** MSH-3 sending application (HD-1). */
  readonly sendingApplication: string;
  /** MSH-4 sending facility (HD-1). */
  readonly sendingFacility: string;
  /** MSH-5 receiving application (HD-1). */
  readonly receivingApplication: string;
  /** MSH-6 receiving facility (HD-1). */
  readonly receivingFacility: string;
  /** MSH-7 date/time of message: DTM with seconds and offset. */
  readonly dateTime: string;
  /** MSH-9 message type: code (0076), trigger event (0003), structure (0354), always all three. */
  readonly messageType: readonly [string, string, string];
  /** MSH-10 message control id, at most 20 characters. */
  readonly controlId: string;
  /** MSH-11 processing id (table 0103). */
  readonly processingId: string;
  /** MSH-18 character set (table 0211): `UNICODE UTF-8` when the message carries non-ASCII text, else ''. */
  readonly characterSet: string;
}

/**
 * Build the MSH segment: MSH-1 `|`, MSH-2 exactly `^~\&` (4 characters: the v2.7 truncation character is
 * never sent), MSH-12 `2.5.1`.
 *
 * @param v - the header values
 * @returns the segment text without terminator
 * @see HL7 v2.5.1 MSH-1 … MSH-18
 * @example buildMsh({ …, messageType: ['MDM', 'T02', 'MDM_T02'], controlId: 'MDM1', processingId: 'P', dateTime: '20260301093000-0500', characterSet: '' })
 */
export function buildMsh(v: MshValues): string {
  // MSH-1 is the field separator itself, so MSH-2 follows the segment id directly. MSH-12 is never empty, so
  // only MSH-13 … MSH-18 can be trailing empty fields.
  const msh =
    `MSH|^~\\&|${v.sendingApplication}|${v.sendingFacility}|${v.receivingApplication}|${v.receivingFacility}|${v.dateTime}|` +
    `|${v.messageType[0]}^${v.messageType[1]}^${v.messageType[2]}|${v.controlId}|${v.processingId}|2.5.1`;
  return v.characterSet === '' ? msh : `${msh}||||||${v.characterSet}`;
}
