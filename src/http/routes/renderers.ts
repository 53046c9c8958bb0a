/**
 * The output step of each route: the core builder it calls and the records a reused output is keyed by.
 * FHIR bodies are the builder's resource as JSON text; HL7 bodies the builder's message.
 */
import {
  buildAdrA19,
  buildAdtA08,
  buildAdtA31,
  buildFhirAssessmentExport,
  buildFhirDirectoryBundle,
  buildFhirEncounterExport,
  buildFhirNoteExport,
  buildFhirPatientBundle,
  buildFhirPatientExport,
  buildMdmT02,
  buildOruR01,
  streamAdrA19,
  streamFhirPatientBundle,
  type Assessment,
  type ClinicalNote,
  type Directory,
  type Encounter,
  type PatientChart,
} from '../../index.js';
import type { DirectoryListingData, PatientBundleData, PatientData, PatientRecordsData, RecordData } from './record-loaders.js';
import type { OutputWriter } from './route-types.js';
import { STREAM_MIN_CHARS, type RenderedBody } from '../output/streamed-body.js';

/**
 * A cheap guess of a patient Bundle's JSON length, from what it holds: each note's text is written about
 * 2.4 times (the Composition's narrative and section, the DocumentReference's base64), and no record's other
 * fields come near 2 KB. Only routes the body: a Bundle guessed at {@link STREAM_MIN_CHARS} or more is streamed,
 * others are built whole as before (with output reuse), and a wrong guess costs only time, never bytes.
 */
export function guessPatientBundleChars(chart: PatientChart): number {
  let chars = 2048;
  for (const n of chart.notes ?? []) chars += 2048 + n.text.length * 2.5;
  const records = (chart.encounters?.length ?? 0) + (chart.assessments?.length ?? 0) + (chart.medicalHistory?.length ?? 0);
  return chars + records * 2048;
}

/** The directory records of an output, in a fixed order, for the identity check of a reused output. */
function directoryRecords(directory: Directory | undefined): unknown[] {
  if (directory === undefined) return [];
  return [...(directory.practitioners ?? []), undefined, ...(directory.locations ?? []), undefined, ...(directory.organizations ?? [])];
}

/** Everything one record's output is built from, the record first, for the identity check of a reused output. */
function recordInputs<TRecord>(data: RecordData<TRecord>, withEncounter: boolean): unknown[] {
  const head = withEncounter ? [data.record, data.patient, data.encounter] : [data.record, data.patient];
  return data.directory === undefined ? head : [...head, undefined, ...directoryRecords(data.directory)];
}

/** /exportFhirPatient: a Bundle with the Patient and its coverages. */
export function renderFhirPatient({ patient, chart }: PatientData, out: OutputWriter): string {
  return out.fhir(patient, [patient], out.fhirOptions(undefined), (o) => buildFhirPatientExport(chart, o));
}

/** /exportHl7PatientAdt: ADT^A31. */
export function renderHl7PatientAdt({ patient, chart }: PatientData, out: OutputWriter): string {
  return out.hl7('ADT', patient, [patient], undefined, (o) => buildAdtA31(chart, o));
}

/** /exportFhirPatientBundle: the patient's newest records as one Bundle; streamed when it is large. */
export function renderFhirPatientBundle({ listed, directory, referenced, limits }: PatientBundleData, out: OutputWriter): RenderedBody {
  // Encounters the notes and assessments refer to beyond the encounter limit: not entries, but with them at
  // hand the builder gives each logical reference its display, as it does given the whole chart.
  const chart: PatientChart = referenced.length === 0 ? listed : { ...listed, encounters: [...(listed.encounters ?? []), ...referenced] };
  if (guessPatientBundleChars(listed) >= STREAM_MIN_CHARS) return streamFhirPatientBundle(chart, { ...out.fhirOptions(directory), limits });
  const records = [
    listed.patient,
    ...(listed.encounters ?? []),
    undefined,
    ...referenced,
    undefined,
    ...(listed.notes ?? []),
    undefined,
    ...(listed.assessments ?? []),
    undefined,
    ...(listed.medicalHistory ?? []),
    undefined,
    limits.encounters,
    limits.notes,
    limits.assessments,
    limits.medicalHistory,
    ...directoryRecords(directory),
  ];
  return out.fhir(listed.patient, records, { ...out.fhirOptions(directory), limits }, (o) => buildFhirPatientBundle(chart, o));
}

/**
 * A cheap guess of an ADR^A19's length, from what the summary of the newest `limit` records can hold: each
 * note's text once (OBX-5, a little longer escaped) and no other record's segments near 1 KB (each field is cut
 * to its component length; a group repeats the PID). It counts every listed note, although the summary keeps
 * only the newest `limit` records of all kinds, so it guesses high, never low for a chart of long notes. Only
 * routes the body: a summary guessed at {@link STREAM_MIN_CHARS} or more is streamed (`streamAdrA19`, which
 * gives the event loop back between records), others are built whole as before; a wrong guess costs only time.
 */
export function guessHl7SummaryChars(chart: PatientChart, limit: number): number {
  let chars = 1024;
  for (const n of chart.notes ?? []) chars += 512 + n.text.length * 1.1;
  const records = (chart.encounters?.length ?? 0) + (chart.assessments?.length ?? 0) + (chart.medicalHistory?.length ?? 0);
  return chars + Math.min(records, limit) * 1024;
}

/** /exportHl7PatientSummary: ADR^A19 with the newest `limit` records; streamed when it is long. */
export function renderHl7PatientSummary({ listed, directory, limit }: PatientRecordsData & { readonly limit: number }, out: OutputWriter): RenderedBody {
  if (guessHl7SummaryChars(listed, limit) >= STREAM_MIN_CHARS) return streamAdrA19(listed, { ...out.hl7Options(directory), limit });
  return buildAdrA19(listed, { ...out.hl7Options(directory), limit });
}

/** /exportFhirEncounter. */
export function renderFhirEncounter(data: RecordData<Encounter>, out: OutputWriter): string {
  return out.fhir(data.record, recordInputs(data, false), out.fhirOptions(data.directory), (o) => buildFhirEncounterExport(data.chart, data.recordId, o));
}

/** /exportHl7Encounter: ADT^A08. */
export function renderHl7Encounter(data: RecordData<Encounter>, out: OutputWriter): string {
  return out.hl7('ADT', data.record, recordInputs(data, false), data.directory, (o) => buildAdtA08(data.chart, data.recordId, o));
}

/** /exportFhirNote. */
export function renderFhirNote(data: RecordData<ClinicalNote>, out: OutputWriter): string {
  return out.fhir(data.record, recordInputs(data, true), out.fhirOptions(data.directory), (o) => buildFhirNoteExport(data.chart, data.recordId, o));
}

/** /exportHl7Note: MDM^T02. */
export function renderHl7Note(data: RecordData<ClinicalNote>, out: OutputWriter): string {
  return out.hl7('MDM', data.record, recordInputs(data, true), data.directory, (o) => buildMdmT02(data.chart, data.recordId, o));
}

/** /exportFhirAssessment. */
export function renderFhirAssessment(data: RecordData<Assessment>, out: OutputWriter): string {
  return out.fhir(data.record, recordInputs(data, true), out.fhirOptions(data.directory), (o) => buildFhirAssessmentExport(data.chart, data.recordId, o));
}

/** /exportHl7Assessment: ORU^R01. */
export function renderHl7Assessment(data: RecordData<Assessment>, out: OutputWriter): string {
  return out.hl7('ORU', data.record, recordInputs(data, true), data.directory, (o) => buildOruR01(data.chart, data.recordId, o));
}

/** /publicFhirDirectory: a searchset Bundle of one resource type. */
export function renderDirectory({ directory, resourceType, limit, link }: DirectoryListingData, out: OutputWriter): string {
  return JSON.stringify(buildFhirDirectoryBundle(directory, resourceType, { ...out.fhirOptions(undefined), limit, link }));
}
