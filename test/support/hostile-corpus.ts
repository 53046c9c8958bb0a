/**
 * A deterministic corpus of hostile chart documents, for "every chart the check accepts exports everywhere":
 * one small document (every record kind, a directory) whose every text value is replaced, one at a time and
 * then all at once, by hostile text (delimiter runs, escape-sequence look-alikes, backslashes, line breaks,
 * non-BMP text, 100 000 characters); its optional dates left out; values exactly at each limit of
 * src/model/limits.ts and one over; ids that differ only by characters `toFhirId` maps alike.
 */
import type { ChartDocument } from '../../src/index.js';
import { HL7_COMPOSITE_MAX, hl7CxLength, hl7XcnIdentifierLength, HL7_CONTACT_MAX, HL7_MEMBER_ID_MAX, HL7_NTE3_MAX, HL7_OBX5_MAX, HL7_UNIVERSAL_ID_MAX, CODE_MAX, FHIR_STRING_MAX, ID_MAX, INT32_MAX, LANGUAGE_MAX, NOTE_UTF8_MAX } from '../../src/model/limits.js';
import { PHQ9_INSTRUMENT, PHQ9_TOTAL } from '../../src/testing/instruments.js';

/** A chart document as the corpus edits it: any field, read and written freely (a cast, not a type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the corpus reaches into documents to change them
export type Loose = any;

/** The small document every corpus entry starts from: one record of each kind, a directory, every text field. */
export const BASE_DOCUMENT: ChartDocument = {
  directory: {
    organizations: [
      { id: 'org-1', name: 'Riverside Health System', active: true },
      { id: 'org-2', name: 'Riverside Behavioral Health', active: true, partOfId: 'org-1' },
    ],
    practitioners: [{ id: 'prac-1', names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'] }], identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' }] }],
    locations: [{ id: 'loc-1', name: 'Riverside Clinic, Suite 200', status: 'active', organizationId: 'org-2' }],
  },
  patients: [
    {
      patient: {
        id: 'pat-1',
        identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }],
        names: [{ use: 'official', family: 'Quintero', given: ['Ana', 'María'], prefix: ['Ms.'], suffix: ['Jr.'] }, { text: 'Ana Quintero' }],
        birthDate: '1984-07-02',
        gender: 'female',
        language: 'es-MX',
        addresses: [{ use: 'home', lines: ['12 Elm St', 'Apt 4'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
        telecoms: [
          { system: 'phone', value: '+1 217 555 0142', use: 'mobile' },
          { system: 'email', value: 'ana@example.org' },
        ],
        coverages: [
          {
            id: 'cov-1',
            status: 'active',
            payer: { id: 'payer-1', name: 'Aetna', identifier: { system: 'urn:oid:2.16.840.1.113883.6.300', value: '60054' } },
            memberId: 'XZ123456',
            relationship: 'self',
            order: 1,
            period: { start: '2025-01-01', end: '2026-12-31' },
          },
        ],
      },
      encounters: [
        {
          id: 'enc-1',
          status: 'finished',
          class: 'AMB',
          period: { start: '2026-03-01T09:30:00-05:00', end: '2026-03-01T10:30:00-05:00' },
          locationId: 'loc-1',
          participants: [{ role: 'ATND', practitionerId: 'prac-1' }],
          reason: 'Follow-up for low mood',
          diagnoses: [{ id: 'dx-1', code: { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' }, rank: 1 }],
          procedures: [{ id: 'proc-1', code: { system: 'cpt', code: '90834', display: 'Psychotherapy, 45 minutes' }, status: 'completed', performed: '2026-03-01T09:35:00-05:00', performerId: 'prac-1' }],
        },
      ],
      notes: [
        {
          id: 'note-1',
          type: 'progress-note',
          title: 'Progress note',
          status: 'final',
          authored: '2026-03-01T10:15:00-05:00',
          encounterId: 'enc-1',
          authorId: 'prac-1',
          text: 'Subjective: feels better.\nObjective: calm, oriented.',
        },
      ],
      assessments: [
        {
          id: 'asmt-1',
          instrument: { ...PHQ9_INSTRUMENT, id: 'free-instrument', items: undefined },
          status: 'completed',
          authored: '2026-03-01T09:40:00-05:00',
          encounterId: 'enc-1',
          authorId: 'prac-1',
          answers: [
            { linkId: 'q-string', value: { type: 'string', value: 'Sleeping about five hours' } },
            { linkId: 'q-decimal', value: { type: 'decimal', value: 4.5 } },
            { linkId: 'q-integer', value: { type: 'integer', value: 3 } },
            { linkId: 'q-coding', value: { type: 'coding', value: { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 } } },
          ],
          score: { value: 3, code: PHQ9_TOTAL, interpretation: 'Minimal depression' },
        },
      ],
      medicalHistory: [{ id: 'hx-1', code: { system: 'icd-10-cm', code: 'I10', display: 'Essential (primary) hypertension' }, clinicalStatus: 'active', recordedDate: '2021-09-30', onset: '2015-01-01' }],
    },
  ],
} as Loose;

/** A path into a document: keys and indexes. */
export type LeafPath = readonly (string | number)[];

/** Is this key an id or a reference to one (the same text in every place it appears)? */
const isIdKey = (key: string | number): boolean => typeof key === 'string' && (key === 'id' || key.endsWith('Id'));
/** Is this key a date or date-time? */
const isDateKey = (key: string | number): boolean => typeof key === 'string' && /^(birthDate|recordedDate|onset|abatement|performed|authored|start|end)$/.test(key);

/** Every string leaf of `value`, with its path. */
export function stringLeaves(value: unknown, path: LeafPath = []): { path: LeafPath; value: string }[] {
  if (typeof value === 'string') return [{ path, value }];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, Array.isArray(value) ? Number(k) : k]));
}

/**
 * The text groups of the base document: each text value alone, except ids and references to them, grouped
 * by their text (so a changed id is changed wherever it is referred to).
 */
export function textGroups(doc: ChartDocument = BASE_DOCUMENT): { paths: LeafPath[]; isId: boolean; isDate: boolean }[] {
  const groups: { paths: LeafPath[]; isId: boolean; isDate: boolean }[] = [];
  const byId = new Map<string, LeafPath[]>();
  for (const leaf of stringLeaves(doc)) {
    const key = leaf.path[leaf.path.length - 1] as string | number;
    if (isIdKey(key)) {
      const paths = byId.get(leaf.value) ?? [];
      if (paths.length === 0) groups.push({ paths, isId: true, isDate: false });
      paths.push(leaf.path);
      byId.set(leaf.value, paths);
    } else groups.push({ paths: [leaf.path], isId: false, isDate: isDateKey(key) });
  }
  return groups;
}

/** Set (or, with `undefined`, delete) the value at `path` of `doc` in place. */
export function setAt(doc: Loose, path: LeafPath, value: unknown): void {
  let node = doc;
  for (const k of path.slice(0, -1)) node = node[k];
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/** A copy of `doc` with `change` applied. */
export function changed(doc: ChartDocument, change: (d: Loose) => void): ChartDocument {
  const copy = structuredClone(doc) as Loose;
  change(copy);
  return copy as ChartDocument;
}

/** Hostile text: every value is written into every text field of the base document. */
export const HOSTILE_TEXTS: readonly { readonly name: string; readonly value: string }[] = [
  { name: 'delimiter runs', value: '|^~\\&'.repeat(8) },
  { name: 'each delimiter doubled', value: 'a||b^^c~~d\\\\e&&f' },
  { name: 'escape-sequence look-alikes', value: '\\F\\ \\S\\ \\T\\ \\R\\ \\E\\ \\X0D\\ \\X0A\\ \\H\\\\N\\ \\.br\\ \\Zx\\ \\C2842\\' },
  { name: 'lone and doubled backslashes', value: '\\a\\\\b\\\\\\c\\' },
  { name: 'a lone backslash', value: '\\' },
  { name: 'line breaks', value: 'one\r\ntwo\rthree\nfour\n\r\r\n' },
  { name: 'segment look-alike', value: 'x\rMSH|^~\\&|EVIL\rPID|1' },
  { name: 'non-BMP and combining text', value: 'Zoë 😀 e\u0301 \u{1F9D1}\u200D\u{1F680} 中文' },
  { name: 'a 100 000-character string', value: 'ab|c\\&x~^'.repeat(10_000) },
];

/** Each id differs from the others only by characters `toFhirId` maps alike (to `-`), or is a URL path step. */
export const COLLIDING_ID_CANDIDATES: readonly string[] = ['a|b', 'a^b', 'a b', 'a/b', 'a-b', 'a--b', '.', '..', 'A|B', 'a\\b', 'a&b', 'ä|b'];

/** One limit case: the document with the value exactly at a limit (accepted) and one over (refused at `path`). */
export interface LimitCase {
  readonly name: string;
  readonly at: ChartDocument;
  readonly over: ChartDocument;
  /** The paths the check gives for `over`, as `formatIssuePath` writes them. */
  readonly paths: readonly string[];
}

const P = 'patients[0]';
const base = (change: (d: Loose) => void): ChartDocument => changed(BASE_DOCUMENT, change);
const chart = (d: Loose): Loose => d.patients[0];
const limitCase = (name: string, path: string, change: (d: Loose, v: unknown) => void, at: unknown, over: unknown): LimitCase => ({
  name,
  at: base((d) => change(d, at)),
  over: base((d) => change(d, over)),
  paths: [path],
});
/** The longest escaped identifier value the base patient identifier (its system and type `MR`) leaves room for in QRD-8's XCN. */
const XCN_VALUE_MAX = HL7_COMPOSITE_MAX - hl7XcnIdentifierLength('', 'urn:oid:2.16.840.1.113883.19.5', 'MR');
/** The same for the practitioner's NPI as CX. */
const NPI_VALUE_MAX = HL7_COMPOSITE_MAX - hl7CxLength('', 'http://hl7.org/fhir/sid/us-npi', 'NPI');
/** A BCP 47 tag of `n` characters: `en` and private-use subtags of at most 8 characters. */
const language = (n: number): string => `en-x${'-abcdefgh'.repeat(8)}`.slice(0, n).replace(/-$/, 'z');
const digits = (n: number): string => `1.${'2'.repeat(n - 2)}`;

/** Values exactly at each limit of src/model/limits.ts, and one over. */
export const LIMIT_CASES: readonly LimitCase[] = [
  limitCase('ID_MAX (diagnosis id)', `${P}.encounters[0].diagnoses[0].id`, (d, v) => (chart(d).encounters[0].diagnoses[0].id = v), 'd'.repeat(ID_MAX), 'd'.repeat(ID_MAX + 1)),
  limitCase('ID_MAX (coverage id, hostile)', `${P}.patient.coverages[0].id`, (d, v) => (chart(d).patient.coverages[0].id = v), '|'.repeat(ID_MAX), '|'.repeat(ID_MAX + 1)),
  limitCase('ID_MAX (note id, non-BMP: UTF-16 code units)', `${P}.notes[0].id`, (d, v) => (chart(d).notes[0].id = v), '😀'.repeat(ID_MAX / 2), `${'😀'.repeat(ID_MAX / 2)}x`),
  limitCase('CODE_MAX (diagnosis code)', `${P}.encounters[0].diagnoses[0].code.code`, (d, v) => (chart(d).encounters[0].diagnoses[0].code.code = v), '|'.repeat(CODE_MAX), '|'.repeat(CODE_MAX + 1)),
  limitCase('CODE_MAX (coding answer code)', `${P}.assessments[0].answers[3].value.value.code`, (d, v) => (chart(d).assessments[0].answers[3].value.value.code = v), '&'.repeat(CODE_MAX), '&'.repeat(CODE_MAX + 1)),
  limitCase('LANGUAGE_MAX', `${P}.patient.language`, (d, v) => (chart(d).patient.language = v), language(LANGUAGE_MAX), language(LANGUAGE_MAX + 1)),
  limitCase('FHIR_STRING_MAX (encounter reason)', `${P}.encounters[0].reason`, (d, v) => (chart(d).encounters[0].reason = v), 'r'.repeat(FHIR_STRING_MAX), 'r'.repeat(FHIR_STRING_MAX + 1)),
  limitCase('HL7_UNIVERSAL_ID_MAX (identifier system)', `${P}.patient.identifiers[0].system`, (d, v) => Object.assign(chart(d).patient.identifiers[0], { system: v, value: 'M', type: undefined }), `urn:oid:${digits(HL7_UNIVERSAL_ID_MAX)}`, `urn:oid:${digits(HL7_UNIVERSAL_ID_MAX + 1)}`),
  limitCase('HL7_COMPOSITE_MAX (patient identifier as XCN in QRD-8, escaped)', `${P}.patient.identifiers[0].value`, (d, v) => (chart(d).patient.identifiers[0].value = v), `${'V'.repeat(XCN_VALUE_MAX - 3)}|`, `${'V'.repeat(XCN_VALUE_MAX - 2)}|`),
  limitCase('HL7_COMPOSITE_MAX (patient identifier without type as XCN in QRD-8)', `${P}.patient.identifiers[0].value`, (d, v) => Object.assign(chart(d).patient.identifiers[0], { value: v, type: undefined }), 'V'.repeat(XCN_VALUE_MAX + 6), 'V'.repeat(XCN_VALUE_MAX + 7)),
  limitCase('HL7_COMPOSITE_MAX (practitioner identifier as CX, escaped)', 'directory.practitioners[0].identifiers[0].value', (d, v) => (d.directory.practitioners[0].identifiers[0].value = v), `${'1'.repeat(NPI_VALUE_MAX - 3)}&`, `${'1'.repeat(NPI_VALUE_MAX - 2)}&`),
  limitCase('HL7_CONTACT_MAX (phone, escaped)', `${P}.patient.telecoms[0].value`, (d, v) => (chart(d).patient.telecoms[0].value = v), `${'5'.repeat(HL7_CONTACT_MAX - 3)}^`, `${'5'.repeat(HL7_CONTACT_MAX - 2)}^`),
  limitCase('HL7_MEMBER_ID_MAX (escaped)', `${P}.patient.coverages[0].memberId`, (d, v) => (chart(d).patient.coverages[0].memberId = v), `${'M'.repeat(HL7_MEMBER_ID_MAX - 5)}\r`, `${'M'.repeat(HL7_MEMBER_ID_MAX - 4)}\r`),
  limitCase('HL7_OBX5_MAX (string answer, escaped)', `${P}.assessments[0].answers[0].value.value`, (d, v) => (chart(d).assessments[0].answers[0].value.value = v), `${'x'.repeat(HL7_OBX5_MAX - 3)}~`, `${'x'.repeat(HL7_OBX5_MAX - 2)}~`),
  limitCase('HL7_NTE3_MAX (score interpretation, line breaks count one)', `${P}.assessments[0].score.interpretation`, (d, v) => (chart(d).assessments[0].score.interpretation = v), `${'i\n'.repeat(HL7_NTE3_MAX / 2)}`, `${'i\r\n'.repeat(HL7_NTE3_MAX / 2)}i`),
  limitCase('HL7_NM_ABS_MAX (decimal answer)', `${P}.assessments[0].answers[1].value.value`, (d, v) => (chart(d).assessments[0].answers[1].value.value = v), 999_999_999_999_999.9, 1e15),
  limitCase('HL7_NM_NEGATIVE_ABS_MAX (decimal answer: rounds to -10^15, 17 characters)', `${P}.assessments[0].answers[1].value.value`, (d, v) => (chart(d).assessments[0].answers[1].value.value = v), -999_999_999_999_999.4, -999_999_999_999_999.5),
  limitCase('HL7_NM_NEGATIVE_ABS_MAX (score)', `${P}.assessments[0].score.value`, (d, v) => (chart(d).assessments[0].score.value = v), -999_999_999_999_999, -999_999_999_999_999.9),
  limitCase('HL7_NM_ABS_MIN (score)', `${P}.assessments[0].score.value`, (d, v) => (chart(d).assessments[0].score.value = v), 1e-13, 9.99e-14),
  limitCase('NOTE_UTF8_MAX (4-byte characters)', `${P}.notes[0].text`, (d, v) => (chart(d).notes[0].text = v), '😀'.repeat(NOTE_UTF8_MAX / 4), `${'😀'.repeat(NOTE_UTF8_MAX / 4)}.`),
  limitCase('INT32_MAX (diagnosis rank)', `${P}.encounters[0].diagnoses[0].rank`, (d, v) => (chart(d).encounters[0].diagnoses[0].rank = v), INT32_MAX, INT32_MAX + 1),
  limitCase('INT32_MAX (coverage order)', `${P}.patient.coverages[0].order`, (d, v) => (chart(d).patient.coverages[0].order = v), INT32_MAX, INT32_MAX + 1),
];
