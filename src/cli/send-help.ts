/** The `--help` text of `chart-export send`. */

/** The help text of `chart-export send`, printed by `chart-export send --help`. */
export const SEND_HELP_TEXT = `Usage: chart-export send --to mllp://HOST:PORT (--message KIND --patient ID [--record ID] | --all) [options]

Build HL7 v2.5.1 messages from the chart (the embedded demo chart, or --data) and push them to an interface
engine over MLLP, one at a time; each must be answered by an ACK whose MSA-2 is the message's MSH-10.
One line per message (MSH-10, message, patient and record, ACK code or error, time), then a summary.

What to send:
  --to URL                    mllp://HOST:PORT, or mllps://HOST:PORT for MLLP over TLS.
  --message KIND              adt-a31 (patient), adr-a19 (patient summary), adt-a08 (encounter),
                              mdm-t02 (note), oru-r01 (assessment).
  --patient ID                The patient.
  --record ID                 The encounter, note or assessment (adt-a08, mdm-t02, oru-r01).
  --all                       Every message of every patient (with --patient: of that patient; with
                              --message: of that kind only). A progress bar on a terminal.
  --data FILE                 Chart document. Default: the embedded demo chart.     CHART_EXPORT_DATA

HL7 header (as the service):
  --sending-application NAME  MSH-3, 1–20 characters. Default: CHART-EXPORT.
                                                                     CHART_EXPORT_HL7_SENDING_APPLICATION
  --sending-facility NAME     MSH-4.                                 CHART_EXPORT_HL7_SENDING_FACILITY
  --receiving-application NAME  MSH-5.
  --receiving-facility NAME   MSH-6.
  --processing-id P|T|D       MSH-11. Default: P.                    CHART_EXPORT_HL7_PROCESSING_ID

Delivery:
  --ack-timeout SECONDS       Wait this long for each ACK; then the connection is reset. Default: 30.
  --retries N                 Send a message again (same MSH-10) up to N times after an ACK time-out or a
                              dropped connection, 0–10. Default: 0. A re-sent message may arrive twice.
  --ca FILE                   mllps: trust this CA (PEM) instead of the system's.
  --cert FILE, --key FILE     mllps: client certificate and key (PEM), for engines that require one.
  --servername NAME           mllps: the name the engine's certificate must carry. Default: HOST.
  -h, --help                  Show this help.

Ctrl+C stops after the message in flight (a second Ctrl+C stops at once).
Exit status: 0 when every message was accepted (AA or CA); 1 when any was rejected (AE, AR, CE, CR), timed
out or failed, or the run was stopped; 2 for a wrong option.
`;
