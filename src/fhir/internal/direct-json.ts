/**
 * A speed-up of the NDJSON writer: the JSON text of a chart's resources (Coverages and payer Organizations,
 * Encounters with their Conditions and Procedures, notes' Compositions and DocumentReferences,
 * QuestionnaireResponses, medical-history Conditions; not the Patient, Questionnaires or directory records, one each
 * per chart or per export) written straight from the chart record, without building the resource object first. Building a resource and then
 * serialising it cost twice what serialising alone costs; writing the text directly costs less than that alone
 * (docs/performance-history.md, "FHIR, NDJSON and chart-check speed-ups").
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
import type { AnswerOption, AnswerValue, Assessment, AssessmentItemType } from '../../model/assessment.js';
import type { Coverage, Payer } from '../../model/patient.js';
import { hasText } from '../../internal/text.js';
import { mapChartId } from '../ids.js';
import { BLANK_NOTE_PLACEHOLDER } from '../composition.js';
import { NOTE_CONTENT_TYPE, noteCategory } from '../document-reference.js';
import { encounterDiagnosisCategory } from '../encounter-condition.js';
import { ABATED, problemListCategory } from '../history-condition.js';
import { mapPatient } from '../patient-resource.js';
import { payerType } from '../payer-organization.js';
import { scoreLinkIds } from '../questionnaire.js';
import {
  CLINICAL_STATUS_DISPLAY,
  CONFIDENTIALITY_DISPLAY,
  DIAGNOSIS_ROLE_DISPLAY,
  ENCOUNTER_CLASS_DISPLAY,
  EXTENSION,
  NOTE_TYPE_LOINC,
  PARTICIPANT_ROLE_DISPLAY,
  SUBSCRIBER_RELATIONSHIP_DISPLAY,
  SYSTEM,
  VERIFICATION_STATUS_DISPLAY,
} from './codings.js';
import { isFhirInteger, toIdentifier } from './datatypes.js';
import type { MapContext } from './context.js';
import type { GroupMakers } from './groups.js';
import { utf8Base64 } from './base64.js';
import { narrativeDivJson } from './xhtml.js';
import { codingMembers, concept, fixed, head, num, period, ref, ResourceJson, safe, str } from './json-text.js';

export { ResourceJson } from './json-text.js';

const ENCOUNTER_DIAGNOSIS_CATEGORY_JSON = JSON.stringify(encounterDiagnosisCategory());
const PROBLEM_LIST_CATEGORY_JSON = JSON.stringify(problemListCategory());
const NOTE_CATEGORY_JSON = JSON.stringify(noteCategory());
const NOTE_CONTENT_TYPE_JSON = JSON.stringify(NOTE_CONTENT_TYPE);
const PAYER_TYPE_JSON = JSON.stringify(payerType());
const UNKNOWN_AUTHOR_JSON = JSON.stringify({ extension: [{ url: EXTENSION.dataAbsentReason, valueCode: 'unknown' }] });

/** `JSON.stringify(coverageClass(code, display, part))` of a Coverage. */
function coverageClass(code: 'group' | 'plan', display: string, part: { id: string; name?: string | undefined }): string {
  const name = part.name !== undefined && hasText(part.name) ? `,"name":${str(part.name)}` : '';
  return `{"type":${fixed(SYSTEM.coverageClass, code, display)},"value":${str(part.id)}${name}}`;
}

/** A Coverage. Plain equivalent: `JSON.stringify(mapCoverage(coverage, ctx))`. */
export function coverageJson(coverage: Coverage, ctx: MapContext): ResourceJson {
  const id = ctx.ids.coverage(coverage);
  let json = `${head('Coverage', id, undefined)},"status":${safe(coverage.status)}`;
  const relationship = coverage.relationship ?? 'self';
  const patient = ref(ctx.patientRef());
  if (relationship === 'self') json += `,"subscriber":${patient}`;
  if (coverage.memberId !== undefined && hasText(coverage.memberId)) json += `,"subscriberId":${str(coverage.memberId)}`;
  json += `,"beneficiary":${patient},"relationship":${fixed(SYSTEM.subscriberRelationship, relationship, SUBSCRIBER_RELATIONSHIP_DISPLAY[relationship])}`;
  const p = period(coverage.period);
  if (p !== undefined) json += `,"period":${p}`;
  json += `,"payor":[${ref(ctx.localRef('Organization', ctx.ids.payer(coverage.payer)))}]`;
  const classes: string[] = [];
  if (coverage.group !== undefined) classes.push(coverageClass('group', 'Group', coverage.group));
  if (coverage.plan !== undefined) classes.push(coverageClass('plan', 'Plan', coverage.plan));
  if (classes.length > 0) json += `,"class":[${classes.join(',')}]`;
  // A checked order is a positiveInt, whose JSON is its decimal form.
  if (coverage.order !== undefined) json += `,"order":${String(coverage.order)}`;
  return new ResourceJson('Coverage', id, undefined, `${json}}`);
}

/** A payer's Organization. Plain equivalent: `JSON.stringify(mapPayerOrganization(payer, ctx))`. */
export function payerOrganizationJson(payer: Payer, ctx: MapContext): ResourceJson {
  const id = ctx.ids.payer(payer);
  let json = head('Organization', id, undefined);
  const named = hasText(payer.name);
  if (payer.identifier !== undefined) json += `,"identifier":[${JSON.stringify(toIdentifier(payer.identifier))}]`;
  else if (!named) json += `,"identifier":[{"value":${str(payer.id)}}]`;
  json += `,"active":true,"type":${PAYER_TYPE_JSON}`;
  if (named) json += `,"name":${str(payer.name)}`;
  return new ResourceJson('Organization', id, undefined, `${json}}`);
}

const ORDINAL_URL_JSON = JSON.stringify(EXTENSION.ordinalValue);

/** `JSON.stringify(optionCoding(option))`. */
function optionCodingJson(option: AnswerOption): string {
  const ordinal = option.score !== undefined ? `"extension":[{"url":${ORDINAL_URL_JSON},"valueDecimal":${num(option.score)}}],` : '';
  return `{${ordinal}${codingMembers(option)}}`;
}

/** `JSON.stringify(answerOf(value, itemType))` of a response item's answer; undefined for a blank text. */
function answerJson(value: AnswerValue, itemType: AssessmentItemType | undefined): string | undefined {
  switch (value.type) {
    case 'string':
      return hasText(value.value) ? `{"valueString":${str(value.value)}}` : undefined;
    case 'integer':
      return itemType !== 'decimal' && isFhirInteger(value.value) ? `{"valueInteger":${num(value.value)}}` : `{"valueDecimal":${num(value.value)}}`;
    case 'decimal':
      return `{"valueDecimal":${num(value.value)}}`;
    case 'boolean':
      return `{"valueBoolean":${value.value ? 'true' : 'false'}}`;
    case 'coding':
      return `{"valueCoding":${optionCodingJson(value.value)}}`;
    case 'date':
      return `{"valueDate":${str(value.value)}}`;
    case 'dateTime':
      return `{"valueDateTime":${str(value.value)}}`;
  }
}

/** `QuestionnaireResponse.item` of an assessment's answers and score, without the brackets; '' when there is none. */
function responseItems(assessment: Assessment): string {
  const defs = assessment.instrument.items;
  const byLinkId = new Map<string, { text: string; type: AssessmentItemType }>();
  if (defs !== undefined) for (const d of defs) byLinkId.set(d.linkId, d);
  const items: string[] = [];
  for (const a of assessment.answers) {
    const def = byLinkId.get(a.linkId);
    const own = def !== undefined ? def.text : a.text;
    const text = own !== undefined && hasText(own) ? `,"text":${str(own)}` : '';
    const answer = answerJson(a.value, def?.type);
    items.push(`{"linkId":${str(a.linkId)}${text}${answer !== undefined ? `,"answer":[${answer}]` : ''}}`);
  }
  const score = assessment.score;
  if (score !== undefined) {
    const ids = scoreLinkIds(new Set(defs !== undefined ? defs.map((d) => d.linkId) : assessment.answers.map((a) => a.linkId)));
    items.push(`{"linkId":${str(ids.score)},"text":"Total score","answer":[{"valueDecimal":${num(score.value)}}]}`);
    if (score.interpretation !== undefined && hasText(score.interpretation)) {
      items.push(`{"linkId":${str(ids.interpretation)},"text":"Score interpretation","answer":[{"valueString":${str(score.interpretation)}}]}`);
    }
  }
  return items.join(',');
}

/** An assessment's QuestionnaireResponse. Plain equivalent: `JSON.stringify(mapQuestionnaireResponse(assessment, ctx))`. */
export function questionnaireResponseJson(assessment: Assessment, ctx: MapContext): ResourceJson {
  const id = mapChartId(assessment.id);
  let json = head('QuestionnaireResponse', id, assessment.lastUpdated);
  const url = ctx.questionnaireUrl(assessment.instrument);
  if (url !== undefined) json += `,"questionnaire":${str(url)}`;
  json += `,"status":${safe(assessment.status)},"subject":${ref(ctx.patientRef())}`;
  if (assessment.encounterId !== undefined) json += `,"encounter":${ref(ctx.encounterRef(assessment.encounterId))}`;
  json += `,"authored":${safe(assessment.authored)}`;
  if (assessment.authorId !== undefined) json += `,"author":${ref(ctx.practitionerRef(assessment.authorId))}`;
  const items = responseItems(assessment);
  if (items !== '') json += `,"item":[${items}]`;
  return new ResourceJson('QuestionnaireResponse', id, assessment.lastUpdated, `${json}}`);
}

/**
 * An encounter diagnosis's Condition. Plain equivalent: `JSON.stringify(mapEncounterCondition(encounter, index, diagnosis, ctx))`.
 */
export function encounterConditionJson(encounter: Encounter, index: number, diagnosis: Diagnosis, ctx: MapContext): ResourceJson {
  const id = ctx.ids.diagnosis(encounter, index);
  let json = `${head('Condition', id, encounter.lastUpdated)},"category":${ENCOUNTER_DIAGNOSIS_CATEGORY_JSON},"code":${concept(diagnosis.code)}`;
  json += `,"subject":${ref(ctx.patientRef())},"encounter":${ref(ctx.localRef('Encounter', ctx.ids.encounter(encounter)))}`;
  if (diagnosis.onset !== undefined) json += `,"onsetDateTime":${safe(diagnosis.onset)}`;
  if (diagnosis.recordedDate !== undefined) json += `,"recordedDate":${safe(diagnosis.recordedDate)}`;
  return new ResourceJson('Condition', id, encounter.lastUpdated, `${json}}`);
}

/** An encounter's Procedure. Plain equivalent: `JSON.stringify(mapProcedure(encounter, index, procedure, ctx))`. */
export function procedureJson(encounter: Encounter, index: number, procedure: Procedure, ctx: MapContext): ResourceJson {
  const id = ctx.ids.procedure(encounter, index);
  let json = `${head('Procedure', id, encounter.lastUpdated)},"status":${safe(procedure.status)},"code":${concept(procedure.code)}`;
  json += `,"subject":${ref(ctx.patientRef())},"encounter":${ref(ctx.localRef('Encounter', ctx.ids.encounter(encounter)))}`;
  const performed = procedure.performed;
  if (typeof performed === 'string') json += `,"performedDateTime":${safe(performed)}`;
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

/** `Encounter.class` by class code (a fixed list): each written once. */
const ENCOUNTER_CLASS_JSON = new Map<string, string>();

function encounterClass(cls: Encounter['class']): string {
  let json = ENCOUNTER_CLASS_JSON.get(cls);
  if (json === undefined) {
    json = JSON.stringify({ system: SYSTEM.v3ActCode, code: cls, display: ENCOUNTER_CLASS_DISPLAY[cls] });
    ENCOUNTER_CLASS_JSON.set(cls, json);
  }
  return json;
}

/** An Encounter. Plain equivalent: `JSON.stringify(mapEncounter(encounter, ctx))`. */
export function encounterJson(encounter: Encounter, ctx: MapContext): ResourceJson {
  const id = ctx.ids.encounter(encounter);
  const cls = encounter.class;
  let json = `${head('Encounter', id, encounter.lastUpdated)},"status":${safe(encounter.status)}`;
  json += `,"class":${encounterClass(cls)}`;
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
  let json = `${head('Composition', id, note.lastUpdated)},"status":${safe(note.status)},"type":${fixed(SYSTEM.loinc, loinc.code, loinc.display)}`;
  json += `,"subject":${ref(ctx.patientRef())}`;
  if (note.encounterId !== undefined) json += `,"encounter":${ref(ctx.encounterRef(note.encounterId))}`;
  json += `,"date":${safe(note.authored)}`;
  json += `,"author":[${note.authorId !== undefined ? ref(ctx.practitionerRef(note.authorId)) : UNKNOWN_AUTHOR_JSON}]`;
  const titled = hasText(note.title);
  const title = titled ? str(note.title) : undefined;
  json += `,"title":${title ?? str(loinc.display)},"confidentiality":${safe(note.confidentiality ?? 'N')}`;
  const sectionTitle = title !== undefined ? `"title":${title},` : '';
  const div = narrativeDivJson(note.text, BLANK_NOTE_PLACEHOLDER);
  json += `,"section":[{${sectionTitle}"text":{"status":"generated","div":${div}},"entry":[${ref(ctx.localRef('DocumentReference', id))}]}]`;
  return new ResourceJson('Composition', id, note.lastUpdated, `${json}}`);
}

/** A note's DocumentReference. Plain equivalent: `JSON.stringify(mapDocumentReference(note, ctx))`. */
export function documentReferenceJson(note: ClinicalNote, ctx: MapContext): ResourceJson {
  const id = mapChartId(note.id);
  const loinc = NOTE_TYPE_LOINC[note.type];
  const status = note.status === 'entered-in-error' ? 'entered-in-error' : 'current';
  let json = `${head('DocumentReference', id, note.lastUpdated)},"status":"${status}","docStatus":${safe(note.status)}`;
  json += `,"type":${fixed(SYSTEM.loinc, loinc.code, loinc.display)},"category":${NOTE_CATEGORY_JSON},"subject":${ref(ctx.patientRef())}`;
  if (note.authored.length > 10) json += `,"date":${safe(note.authored)}`;
  if (note.authorId !== undefined) json += `,"author":[${ref(ctx.practitionerRef(note.authorId))}]`;
  const title = hasText(note.title) ? str(note.title) : undefined;
  if (title !== undefined) json += `,"description":${title}`;
  const confidentiality = note.confidentiality ?? 'N';
  json += `,"securityLabel":[${fixed(SYSTEM.v3Confidentiality, confidentiality, CONFIDENTIALITY_DISPLAY[confidentiality])}]`;
  const { data, size } = utf8Base64(note.text);
  // Base64 digits (A–Z, a–z, 0–9, +, /, =) are never escaped by JSON.stringify: the text goes in as it is.
  json += `,"content":[{"attachment":{"contentType":${NOTE_CONTENT_TYPE_JSON},"data":"${data}","size":${size}`;
  if (title !== undefined) json += `,"title":${title}`;
  json += `,"creation":${safe(note.authored)}}}]`;
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
  if (entry.onset !== undefined) json += `,"onsetDateTime":${safe(entry.onset)}`;
  if (entry.abatement !== undefined && withStatus && ABATED.has(clinical)) json += `,"abatementDateTime":${safe(entry.abatement)}`;
  if (entry.recordedDate !== undefined) json += `,"recordedDate":${safe(entry.recordedDate)}`;
  if (entry.note !== undefined && hasText(entry.note)) json += `,"note":[{"text":${str(entry.note)}}]`;
  return new ResourceJson('Condition', id, entry.lastUpdated, `${json}}`);
}

/** The group makers of the NDJSON writer: every member the mappers make as an object is written directly, but the Patient. */
export const JSON_MAKERS: GroupMakers<fhir.FhirResource | ResourceJson> = {
  patient: mapPatient,
  coverage: coverageJson,
  payer: payerOrganizationJson,
  encounter: encounterJson,
  condition: encounterConditionJson,
  procedure: procedureJson,
  response: questionnaireResponseJson,
};
