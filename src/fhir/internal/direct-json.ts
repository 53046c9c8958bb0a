/**
 * A speed-up of the NDJSON writer: the JSON text of the most numerous resources of a chart (Encounters with
 * their Conditions and Procedures, notes' Compositions and DocumentReferences, medical-history Conditions) written
 * straight from the chart record, without building the resource object first. Building a resource and then
 * serialising it cost twice what serialising alone costs; writing the text directly costs less than that alone
 * (docs/performance.md, "Bulk NDJSON").
 *
 * Each function has a plain equivalent, `JSON.stringify` of the mapper's resource (written in its TSDoc), and gives
 * exactly its text: same keys in the same order, same values, same escapes. The mappers stay the one definition of
 * the mapping; these functions follow them key by key, take their constant parts from the same tables, and a
 * property test holds every one equal to its plain equivalent over arbitrary checked charts. Removing the speed-up
 * means replacing each body by its plain equivalent. Records must have passed the chart check (no lone
 * surrogates, no control characters but tab, CR and LF).
 * @module
 */
import type * as fhir from 'fhir/r4.js';
import type { Diagnosis, Encounter, Procedure } from '../../model/encounter.js';
import type { MedicalHistoryEntry } from '../../model/history.js';
import type { ClinicalNote } from '../../model/note.js';
import { CODE_SYSTEMS, type Coding, type Period } from '../../model/common.js';
import { hasText } from '../../internal/text.js';
import { mapChartId } from '../ids.js';
import { BLANK_NOTE_PLACEHOLDER } from '../composition.js';
import { NOTE_CONTENT_TYPE, noteCategory } from '../document-reference.js';
import { encounterDiagnosisCategory } from '../encounter-condition.js';
import { ABATED, problemListCategory } from '../history-condition.js';
import {
  CLINICAL_STATUS_DISPLAY,
  CONFIDENTIALITY_DISPLAY,
  DIAGNOSIS_ROLE_DISPLAY,
  ENCOUNTER_CLASS_DISPLAY,
  EXTENSION,
  NOTE_TYPE_LOINC,
  PARTICIPANT_ROLE_DISPLAY,
  SYSTEM,
  VERIFICATION_STATUS_DISPLAY,
} from './codings.js';
import type { MapContext } from './context.js';
import { utf8Base64 } from './base64.js';
import { narrativeDivJson } from './xhtml.js';

/** A resource already written as JSON: what the writer's filters read of it, and its text. */
export class ResourceJson {
  constructor(
    readonly resourceType: 'Encounter' | 'Condition' | 'Procedure' | 'Composition' | 'DocumentReference',
    readonly id: string,
    /** The record's `lastUpdated` (the resource's `meta.lastUpdated`), or undefined. */
    readonly lastUpdated: string | undefined,
    /** `JSON.stringify` of the resource, without a line end. */
    readonly json: string,
  ) {}
}

/** Characters `JSON.stringify` escapes in a string, and surrogates (a lone one is escaped too). */
// eslint-disable-next-line no-control-regex -- the control characters JSON escapes
const JSON_ESCAPED_RE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(text)`: the text quoted, and only when it holds a character JSON escapes, escaped natively. */
function str(text: string): string {
  return JSON_ESCAPED_RE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** `JSON.stringify(reference)`: the one-key literal reference every context gives for an entry, written directly. */
function ref(reference: fhir.Reference): string {
  const literal = reference.reference;
  const plain =
    literal !== undefined &&
    reference.type === undefined &&
    reference.identifier === undefined &&
    reference.display === undefined &&
    reference.id === undefined &&
    reference.extension === undefined;
  return plain ? `{"reference":${str(literal)}}` : JSON.stringify(reference);
}

/** `JSON.stringify(toConcept(coding))`. */
function concept(coding: Coding): string {
  const display = coding.display !== undefined && hasText(coding.display) ? `,"display":${str(coding.display)}` : '';
  return `{"coding":[{"system":${str(CODE_SYSTEMS[coding.system].uri)},"code":${str(coding.code)}${display}}]}`;
}

/** `JSON.stringify(fixedConcept(system, code, display))` of a fixed table entry. */
function fixed(system: string, code: string, display: string): string {
  return `{"coding":[{"system":${str(system)},"code":${str(code)},"display":${str(display)}}]}`;
}

/** `JSON.stringify(toPeriod(period))`, or undefined when toPeriod gives none. */
function period(value: Period | undefined): string | undefined {
  if (value === undefined || (value.start === undefined && value.end === undefined)) return undefined;
  const start = value.start !== undefined ? `"start":${str(value.start)}` : '';
  const end = value.end !== undefined ? `${start !== '' ? ',' : ''}"end":${str(value.end)}` : '';
  return `{${start}${end}}`;
}

/** The opening of a resource: type, id and (when the record has `lastUpdated`) `meta`, as `withLastUpdated` orders them. */
function head(resourceType: string, id: string, lastUpdated: string | undefined): string {
  const meta = lastUpdated !== undefined ? `,"meta":{"lastUpdated":${str(lastUpdated)}}` : '';
  return `{"resourceType":"${resourceType}","id":${str(id)}${meta}`;
}

const ENCOUNTER_DIAGNOSIS_CATEGORY_JSON = JSON.stringify(encounterDiagnosisCategory());
const PROBLEM_LIST_CATEGORY_JSON = JSON.stringify(problemListCategory());
const NOTE_CATEGORY_JSON = JSON.stringify(noteCategory());
const NOTE_CONTENT_TYPE_JSON = JSON.stringify(NOTE_CONTENT_TYPE);
const UNKNOWN_AUTHOR_JSON = JSON.stringify({ extension: [{ url: EXTENSION.dataAbsentReason, valueCode: 'unknown' }] });

/**
 * An encounter diagnosis's Condition. Plain equivalent: `JSON.stringify(mapEncounterCondition(encounter, index, diagnosis, ctx))`.
 */
export function encounterConditionJson(encounter: Encounter, index: number, diagnosis: Diagnosis, ctx: MapContext): ResourceJson {
  const id = ctx.ids.diagnosis(encounter, index);
  let json = `${head('Condition', id, encounter.lastUpdated)},"category":${ENCOUNTER_DIAGNOSIS_CATEGORY_JSON},"code":${concept(diagnosis.code)}`;
  json += `,"subject":${ref(ctx.patientRef())},"encounter":${ref(ctx.localRef('Encounter', ctx.ids.encounter(encounter)))}`;
  if (diagnosis.onset !== undefined) json += `,"onsetDateTime":${str(diagnosis.onset)}`;
  if (diagnosis.recordedDate !== undefined) json += `,"recordedDate":${str(diagnosis.recordedDate)}`;
  return new ResourceJson('Condition', id, encounter.lastUpdated, `${json}}`);
}

/** An encounter's Procedure. Plain equivalent: `JSON.stringify(mapProcedure(encounter, index, procedure, ctx))`. */
export function procedureJson(encounter: Encounter, index: number, procedure: Procedure, ctx: MapContext): ResourceJson {
  const id = ctx.ids.procedure(encounter, index);
  let json = `${head('Procedure', id, encounter.lastUpdated)},"status":${str(procedure.status)},"code":${concept(procedure.code)}`;
  json += `,"subject":${ref(ctx.patientRef())},"encounter":${ref(ctx.localRef('Encounter', ctx.ids.encounter(encounter)))}`;
  const performed = procedure.performed;
  if (typeof performed === 'string') json += `,"performedDateTime":${str(performed)}`;
  else {
    const p = period(performed);
    if (p !== undefined) json += `,"performedPeriod":${p}`;
  }
  if (procedure.performerId !== undefined) json += `,"performer":[{"actor":${ref(ctx.practitionerRef(procedure.performerId))}}]`;
  return new ResourceJson('Procedure', id, encounter.lastUpdated, `${json}}`);
}

/** `Encounter.diagnosis` of the encounter's diagnoses. */
function encounterDiagnoses(encounter: Encounter, diagnoses: readonly Diagnosis[], ctx: MapContext): string {
  let json = '';
  for (let i = 0; i < diagnoses.length; i++) {
    const dx = diagnoses[i] as Diagnosis;
    json += `${i > 0 ? ',' : ''}{"condition":${ref(ctx.localRef('Condition', ctx.ids.diagnosis(encounter, i)))}`;
    if (dx.use !== undefined) json += `,"use":${fixed(SYSTEM.diagnosisRole, dx.use, DIAGNOSIS_ROLE_DISPLAY[dx.use])}`;
    // A checked rank is a positiveInt, whose JSON is its decimal form.
    if (dx.rank !== undefined) json += `,"rank":${String(dx.rank)}`;
    json += '}';
  }
  return json;
}

/** An Encounter. Plain equivalent: `JSON.stringify(mapEncounter(encounter, ctx))`. */
export function encounterJson(encounter: Encounter, ctx: MapContext): ResourceJson {
  const id = ctx.ids.encounter(encounter);
  const cls = encounter.class;
  let json = `${head('Encounter', id, encounter.lastUpdated)},"status":${str(encounter.status)}`;
  json += `,"class":{"system":${str(SYSTEM.v3ActCode)},"code":${str(cls)},"display":${str(ENCOUNTER_CLASS_DISPLAY[cls])}}`;
  if (encounter.type !== undefined) json += `,"type":[${concept(encounter.type)}]`;
  json += `,"subject":${ref(ctx.patientRef())}`;
  const participants = encounter.participants;
  if (participants !== undefined && participants.length > 0) {
    json += ',"participant":[';
    for (let i = 0; i < participants.length; i++) {
      const p = participants[i] as (typeof participants)[number];
      const type = fixed(SYSTEM.v3ParticipationType, p.role, PARTICIPANT_ROLE_DISPLAY[p.role]);
      json += `${i > 0 ? ',' : ''}{"type":[${type}],"individual":${ref(ctx.practitionerRef(p.practitionerId))}}`;
    }
    json += ']';
  }
  const p = period(encounter.period);
  if (p !== undefined) json += `,"period":${p}`;
  if (encounter.reason !== undefined && hasText(encounter.reason)) json += `,"reasonCode":[{"text":${str(encounter.reason)}}]`;
  const diagnoses = encounter.diagnoses;
  if (diagnoses !== undefined && diagnoses.length > 0) json += `,"diagnosis":[${encounterDiagnoses(encounter, diagnoses, ctx)}]`;
  if (encounter.locationId !== undefined) json += `,"location":[{"location":${ref(ctx.locationRef(encounter.locationId))}}]`;
  return new ResourceJson('Encounter', id, encounter.lastUpdated, `${json}}`);
}

/** A note's Composition. Plain equivalent: `JSON.stringify(mapComposition(note, ctx))`. */
export function compositionJson(note: ClinicalNote, ctx: MapContext): ResourceJson {
  const id = mapChartId(note.id);
  const loinc = NOTE_TYPE_LOINC[note.type];
  let json = `${head('Composition', id, note.lastUpdated)},"status":${str(note.status)},"type":${fixed(SYSTEM.loinc, loinc.code, loinc.display)}`;
  json += `,"subject":${ref(ctx.patientRef())}`;
  if (note.encounterId !== undefined) json += `,"encounter":${ref(ctx.encounterRef(note.encounterId))}`;
  json += `,"date":${str(note.authored)}`;
  json += `,"author":[${note.authorId !== undefined ? ref(ctx.practitionerRef(note.authorId)) : UNKNOWN_AUTHOR_JSON}]`;
  const titled = hasText(note.title);
  json += `,"title":${str(titled ? note.title : loinc.display)},"confidentiality":${str(note.confidentiality ?? 'N')}`;
  const sectionTitle = titled ? `"title":${str(note.title)},` : '';
  const div = narrativeDivJson(note.text, BLANK_NOTE_PLACEHOLDER);
  json += `,"section":[{${sectionTitle}"text":{"status":"generated","div":${div}},"entry":[${ref(ctx.localRef('DocumentReference', id))}]}]`;
  return new ResourceJson('Composition', id, note.lastUpdated, `${json}}`);
}

/** A note's DocumentReference. Plain equivalent: `JSON.stringify(mapDocumentReference(note, ctx))`. */
export function documentReferenceJson(note: ClinicalNote, ctx: MapContext): ResourceJson {
  const id = mapChartId(note.id);
  const loinc = NOTE_TYPE_LOINC[note.type];
  const status = note.status === 'entered-in-error' ? 'entered-in-error' : 'current';
  let json = `${head('DocumentReference', id, note.lastUpdated)},"status":"${status}","docStatus":${str(note.status)}`;
  json += `,"type":${fixed(SYSTEM.loinc, loinc.code, loinc.display)},"category":${NOTE_CATEGORY_JSON},"subject":${ref(ctx.patientRef())}`;
  if (note.authored.length > 10) json += `,"date":${str(note.authored)}`;
  if (note.authorId !== undefined) json += `,"author":[${ref(ctx.practitionerRef(note.authorId))}]`;
  const titled = hasText(note.title);
  if (titled) json += `,"description":${str(note.title)}`;
  const confidentiality = note.confidentiality ?? 'N';
  json += `,"securityLabel":[${fixed(SYSTEM.v3Confidentiality, confidentiality, CONFIDENTIALITY_DISPLAY[confidentiality])}]`;
  const { data, size } = utf8Base64(note.text);
  // Base64 digits (A–Z, a–z, 0–9, +, /, =) are never escaped by JSON.stringify: the text goes in as it is.
  json += `,"content":[{"attachment":{"contentType":${NOTE_CONTENT_TYPE_JSON},"data":"${data}","size":${size}`;
  if (titled) json += `,"title":${str(note.title)}`;
  json += `,"creation":${str(note.authored)}}}]`;
  if (note.encounterId !== undefined) json += `,"context":{"encounter":[${ref(ctx.encounterRef(note.encounterId))}]}`;
  return new ResourceJson('DocumentReference', id, note.lastUpdated, `${json}}`);
}

/** A medical-history Condition. Plain equivalent: `JSON.stringify(mapHistoryCondition(entry, ctx))`. */
export function historyConditionJson(entry: MedicalHistoryEntry, ctx: MapContext): ResourceJson {
  const id = mapChartId(entry.id);
  const verification = entry.verificationStatus ?? 'confirmed';
  let json = head('Condition', id, entry.lastUpdated);
  const withStatus = verification !== 'entered-in-error';
  const clinical = entry.clinicalStatus;
  if (withStatus) json += `,"clinicalStatus":${fixed(SYSTEM.conditionClinical, clinical, CLINICAL_STATUS_DISPLAY[clinical])}`;
  json += `,"verificationStatus":${fixed(SYSTEM.conditionVerStatus, verification, VERIFICATION_STATUS_DISPLAY[verification])}`;
  json += `,"category":${PROBLEM_LIST_CATEGORY_JSON},"code":${concept(entry.code)},"subject":${ref(ctx.patientRef())}`;
  if (entry.onset !== undefined) json += `,"onsetDateTime":${str(entry.onset)}`;
  if (entry.abatement !== undefined && withStatus && ABATED.has(clinical)) json += `,"abatementDateTime":${str(entry.abatement)}`;
  if (entry.recordedDate !== undefined) json += `,"recordedDate":${str(entry.recordedDate)}`;
  if (entry.note !== undefined && hasText(entry.note)) json += `,"note":[{"text":${str(entry.note)}}]`;
  return new ResourceJson('Condition', id, entry.lastUpdated, `${json}}`);
}

/** An Encounter, its Conditions and its Procedures, as `pushEncounterGroup(out, encounter, ctx, true)` gives them. */
export function pushEncounterJson(out: (fhir.FhirResource | ResourceJson)[], encounter: Encounter, ctx: MapContext): void {
  out.push(encounterJson(encounter, ctx));
  const diagnoses = encounter.diagnoses;
  if (diagnoses !== undefined) for (let i = 0; i < diagnoses.length; i++) out.push(encounterConditionJson(encounter, i, diagnoses[i] as Diagnosis, ctx));
  const procedures = encounter.procedures;
  if (procedures !== undefined) for (let i = 0; i < procedures.length; i++) out.push(procedureJson(encounter, i, procedures[i] as Procedure, ctx));
}
