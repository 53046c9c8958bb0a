/**
 * HL7 v2.5.1 definitions used by the conformance check (`checkHl7Message`): the abstract message structures of the five messages
 * this library emits, the fields (data type, required-ness, repetition, maximum length) of the segments it
 * emits, and the closed code tables whose values it checks. Source: the v2.5.1 standard as encoded in HAPI's
 * generated v2.5.1 structures (`hapi-structures-v251`, `segment/*.java`, `message/*.java`), the v2.5.1
 * tables of chapters 2, 3, 6, 7 and 9, and the components of the composite data types (chapter 2A).
 */
import { cachedDefinition } from '../internal/speed-ups.js';

/**
 * Abstract message structures, in the standard's notation: `[X]` optional, `{X}` repeating, `[{X}]` optional
 * and repeating, `NAME:` starts a named segment group.
 * @see HL7 v2.5.1 chapter 3 (ADT_A01, ADT_A05, ADR_A19), chapter 9 (MDM_T02), chapter 7 (ORU_R01)
 */
export const HL7_MESSAGE_STRUCTURES: Readonly<Record<string, string>> = {
  ADT_A05:
    'MSH [{SFT}] EVN PID [PD1] [{ROL}] [{NK1}] PV1 [PV2] [{ROL}] [{DB1}] [{OBX}] [{AL1}] [{DG1}] [DRG] ' +
    '[{PROCEDURE: PR1 [{ROL}]}] [{GT1}] [{INSURANCE: IN1 [IN2] [{IN3}] [{ROL}]}] [ACC] [UB1] [UB2]',
  ADT_A01:
    'MSH [{SFT}] EVN PID [PD1] [{ROL}] [{NK1}] PV1 [PV2] [{ROL}] [{DB1}] [{OBX}] [{AL1}] [{DG1}] [DRG] ' +
    '[{PROCEDURE: PR1 [{ROL}]}] [{GT1}] [{INSURANCE: IN1 [IN2] [{IN3}] [{ROL}]}] [ACC] [UB1] [UB2] [PDA]',
  ADR_A19:
    'MSH [{SFT}] MSA [ERR] [QAK] QRD [QRF] {QUERY_RESPONSE: [EVN] PID [PD1] [{ROL}] [{NK1}] PV1 [PV2] [{ROL}] ' +
    '[{DB1}] [{OBX}] [{AL1}] [{DG1}] [DRG] [{PROCEDURE: PR1 [{ROL}]}] [{GT1}] [{INSURANCE: IN1 [IN2] [{IN3}] [{ROL}]}] ' +
    '[ACC] [UB1] [UB2]} [DSC]',
  MDM_T02:
    'MSH [{SFT}] EVN PID PV1 [{COMMON_ORDER: ORC [{TIMING: TQ1 [{TQ2}]}] OBR [{NTE}]}] TXA {OBSERVATION: OBX [{NTE}]}',
  ORU_R01:
    'MSH [{SFT}] {PATIENT_RESULT: [PATIENT: PID [PD1] [{NTE}] [{NK1}] [VISIT: PV1 [PV2]]] ' +
    '{ORDER_OBSERVATION: [ORC] OBR [{NTE}] [{TIMING_QTY: TQ1 [{TQ2}]}] [CTD] [{OBSERVATION: OBX [{NTE}]}] [{FT1}] [{CTI}] ' +
    '[{SPECIMEN: SPM [{OBX}]}]}} [DSC]',
};

/** Message type and trigger event → message structure (HL7 v2.5.1 table 0354, HAPI's 2.5.1 event map). */
export const HL7_EVENT_STRUCTURES: Readonly<Record<string, string>> = {
  'ADT^A01': 'ADT_A01',
  'ADT^A04': 'ADT_A01',
  'ADT^A08': 'ADT_A01',
  'ADT^A13': 'ADT_A01',
  'ADT^A05': 'ADT_A05',
  'ADT^A14': 'ADT_A05',
  'ADT^A28': 'ADT_A05',
  'ADT^A31': 'ADT_A05',
  'ADR^A19': 'ADR_A19',
  'MDM^T02': 'MDM_T02',
  'MDM^T04': 'MDM_T02',
  'MDM^T06': 'MDM_T02',
  'MDM^T08': 'MDM_T02',
  'MDM^T10': 'MDM_T02',
  'ORU^R01': 'ORU_R01',
};

/** One field of a segment. */
export interface FieldDefinition {
  /** v2.5.1 data type. */
  readonly type: string;
  /** Whether the field is required (R). */
  readonly required: boolean;
  /** Whether the field may repeat. */
  readonly repeating: boolean;
  /** Maximum length of one occurrence, in characters as sent (escaped); 0 = not checked. */
  readonly maxLength: number;
  /** A closed table whose codes the first component must come from. */
  readonly table?: readonly string[];
}

/**
 * Fields in compact form: `TYPE LEN` with `R` for required and `*` for repeating, e.g. `CX R* 250`; `|`
 * separates fields in order from field 1. Lengths from HAPI's v2.5.1 segment classes.
 */
const SEGMENT_FIELDS: Readonly<Record<string, string>> = {
  MSH:
    'ST R 1|ST R 4|HD 227|HD 227|HD 227|HD 227|TS R 26|ST 40|MSG R 15|ST R 20|PT R 3|VID R 60|NM 15|ST 180|ID 2|ID 2|ID 3|ID * 16|CE 250|ID 20|EI * 427',
  EVN: 'ID 3|TS R 26|TS 26|IS 3|XCN * 250|TS 26|HD 241',
  PID:
    'SI 4|CX 20|CX R* 250|CX * 20|XPN R* 250|XPN * 250|TS 26|IS 1|XPN * 250|CE * 250|XAD * 250|IS 4|XTN * 250|XTN * 250|' +
    'CE 250|CE 250|CE 250|CX 250|ST 16|DLN 25|CX * 250|CE * 250|ST 250|ID 1|NM 2|CE * 250|CE 250|CE 250|TS 26|ID 1|ID 1|' +
    'IS * 20|TS 26|HD 241|CE 250|CE 250|ST 80|CE 250|CWE * 250',
  PV1:
    'SI 4|IS R 1|PL 80|IS 2|CX 250|PL 80|XCN * 250|XCN * 250|XCN * 250|IS 3|PL 80|IS 2|IS 2|IS 6|IS * 2|IS 2|XCN * 250|IS 2|' +
    'CX 250|FC * 50|IS 2|IS 2|IS 2|IS * 2|DT * 8|NM * 12|NM * 3|IS 2|IS 4|DT 8|IS 10|NM 12|NM 12|IS 1|DT 8|IS 3|DLD 47|CE 250|' +
    'IS 2|IS 1|IS 2|PL 80|PL 80|TS 26|TS * 26|NM 12|NM 12|NM 12|NM 12|CX 250|IS 1|XCN * 250',
  DG1:
    'SI R 4|ID 2|CE 250|ST 40|TS 26|IS R 2|CE 250|CE 250|ID 1|IS 2|CE 250|NM 3|CP 12|ST 4|ID 2|XCN * 250|IS 3|ID 1|TS 26|EI 427|ID 1',
  PR1:
    'SI R 4|IS 3|CE R 250|ST 40|TS R 26|IS 2|NM 4|XCN * 250|IS 2|NM 4|XCN * 250|XCN * 250|CE 250|ID 2|CE 250|CE * 250|IS 20|' +
    'CE * 250|EI 427|ID 1',
  IN1:
    'SI R 4|CE R 250|CX R* 250|XON * 250|XAD * 250|XPN * 250|XTN * 250|ST 12|XON * 250|CX * 250|XON * 250|DT 8|DT 8|AUI 239|' +
    'IS 3|XPN * 250|CE 250|TS 26|XAD * 250|IS 2|IS 2|ST 2|ID 1|DT 8|ID 1|DT 8|IS 2|ST 15|TS 26|XCN * 250|IS 2|IS 2|NM 4|NM 4|' +
    'IS 8|ST 15|CP 12|CP 12|NM 4|CP 12|CP 12|CE 250|IS 1|XAD * 250|ST 2|IS 8|IS 3|IS 2|CX * 250|IS 1|DT 8|ST 250|IS 2',
  TXA:
    'SI R 4|IS R 30|ID 2|TS 26|XCN * 250|TS 26|TS 26|TS * 26|XCN * 250|XCN * 250|XCN * 250|EI R 30|EI 30|EI * 22|EI 22|ST 30|' +
    'ID R 2|ID 2|ID 2|ID 2|ST 30|PPN * 250|XCN * 250',
  OBR:
    'SI 4|EI 22|EI 22|CE R 250|ID 2|TS 26|TS 26|TS 26|CQ 20|XCN * 250|ID 1|CE 250|ST 300|TS 26|SPS 300|XCN * 250|XTN * 250|' +
    'ST 60|ST 60|ST 60|ST 60|TS 26|MOC 40|ID 10|ID 1|PRL 400|TQ * 200|XCN * 250|EIP 200|ID 20|CE * 250|NDL 200|NDL * 200|' +
    'NDL * 200|NDL * 200|TS 26|NM 4|CE * 250|CE * 250|CE 250|ID 30|ID 1|CE * 250|CE 250|CE * 250|CE * 250|CE * 250|CWE 250|IS 2|CWE 250',
  OBX:
    'SI 4|ID 2|CE R 250|ST 20|varies * 99999|CE 250|ST 60|IS * 5|NM 5|ID * 2|ID R 1|TS 26|ST 20|TS 26|CE 250|XCN * 250|CE * 250|' +
    'EI * 22|TS 26|varies 0|varies 0|varies 0|XON 567|XAD 631|XCN 3002',
  NTE: 'SI 4|ID 8|FT * 65536|CE 250',
  MSA: 'ID R 2|ST R 20|ST 80|NM 15|NULLDT 0|CE 250',
  QRD: 'TS R 26|ID R 1|ID R 1|ST R 10|ID 1|TS 26|CQ R 10|XCN R* 250|CE R* 250|CE R* 250|VR * 20|ID 1',
};

/** Closed v2.5.1 tables whose codes the check verifies, by `SEG-n`. */
const FIELD_TABLES: Readonly<Record<string, readonly string[]>> = {
  'MSH-11': ['P', 'T', 'D'], // 0103
  'MSH-15': ['AL', 'ER', 'NE', 'SU'], // 0155
  'MSH-16': ['AL', 'ER', 'NE', 'SU'], // 0155
  'MSH-18': [
    'ASCII', '8859/1', '8859/2', '8859/3', '8859/4', '8859/5', '8859/6', '8859/7', '8859/8', '8859/9', '8859/15',
    'ISO IR6', 'ISO IR14', 'ISO IR87', 'ISO IR159', 'GB 18030-2000', 'KS X 1001', 'CNS 11643-1992', 'BIG-5',
    'UNICODE', 'UNICODE UTF-8', 'UNICODE UTF-16', 'UNICODE UTF-32',
  ], // 0211
  'PID-8': ['A', 'F', 'M', 'N', 'O', 'U'], // 0001
  'PID-24': ['Y', 'N'], // 0136
  'PID-30': ['Y', 'N'], // 0136
  'PV1-2': ['B', 'C', 'E', 'I', 'N', 'O', 'P', 'R', 'U'], // 0004
  'DG1-6': ['A', 'F', 'W'], // 0052
  'DG1-21': ['A', 'D', 'U', 'X'], // 0206
  'PR1-20': ['A', 'D', 'U', 'X'], // 0206
  'TXA-3': ['AP', 'AU', 'FT', 'IM', 'multipart', 'NS', 'SD', 'SI', 'TEXT', 'TX'], // 0191
  'TXA-17': ['AU', 'DI', 'DO', 'IN', 'IP', 'LA', 'PA'], // 0271
  'TXA-18': ['R', 'U', 'V'], // 0272
  'TXA-19': ['AV', 'CA', 'OB', 'UN'], // 0273
  'OBR-25': ['O', 'I', 'S', 'A', 'P', 'C', 'R', 'F', 'X', 'Y', 'Z'], // 0123
  'OBX-2': [
    'AD', 'CE', 'CF', 'CK', 'CN', 'CP', 'CX', 'DT', 'ED', 'FT', 'MO', 'NM', 'PN', 'RP', 'SN', 'ST', 'TM', 'TN', 'TS', 'TX',
    'XAD', 'XCN', 'XON', 'XPN', 'XTN',
  ], // 0125
  'OBX-11': ['C', 'D', 'F', 'I', 'N', 'O', 'P', 'R', 'S', 'U', 'W', 'X'], // 0085
  'MSA-1': ['AA', 'AE', 'AR', 'CA', 'CE', 'CR'], // 0008
  'QRD-2': ['D', 'R', 'T'], // 0106
  'QRD-3': ['D', 'I'], // 0091
};

const parsedFields = new Map<string, readonly FieldDefinition[]>();

/**
 * The v2.5.1 field definitions of a segment the check knows (those this library emits).
 * @param segmentId - a segment id, e.g. `PID`
 * @returns the definitions of fields 1…n, or undefined for a segment the check does not know
 * @example segmentFields('MSH')?.[9] // { type: 'ST', required: true, repeating: false, maxLength: 20 } (MSH-10)
 */
export function segmentFields(segmentId: string): readonly FieldDefinition[] | undefined {
  return cachedDefinition(parsedFields, segmentId, () => parseSegmentFields(segmentId));
}

function parseSegmentFields(segmentId: string): readonly FieldDefinition[] | undefined {
  const spec = SEGMENT_FIELDS[segmentId];
  if (spec === undefined) return undefined;
  return spec.split('|').map((f, i): FieldDefinition => {
    const parts = f.split(' ');
    const type = parts[0] as string;
    const flags = parts.length === 3 ? (parts[1] as string) : '';
    const maxLength = Number(parts[parts.length - 1]);
    const table = FIELD_TABLES[`${segmentId}-${i + 1}`];
    return { type, required: flags.includes('R'), repeating: flags.includes('*'), maxLength, ...(table === undefined ? {} : { table }) };
  });
}

/** One component of a composite data type (or one sub-component of a composite component). */
export interface ComponentDefinition {
  /** v2.5.1 data type. */
  readonly type: string;
  /** Maximum length, in characters as sent (escaped). */
  readonly maxLength: number;
}

/**
 * The components of the composite data types of the segments the check knows (their fields, the components
 * of those, and the value types OBX-2 may name), in compact form: `TYPE LEN`, `|` between components in order
 * from component 1. Source: HL7 v2.5.1 chapter 2A, the data type tables ("LEN" column). A component that is
 * itself composite has its own entry: its components are the sub-components. Not encoded, so not checked:
 * `varies` (OBX-5 takes the type OBX-2 names), `NULLDT` (MSA-5, withdrawn) and CK, CN, PN, TN (value types
 * table 0125 keeps only for backward compatibility; chapter 2A no longer defines them).
 * @see HL7 v2.5.1 chapter 2A, "Data types" (2A.3.1 AD … 2A.3.89 XTN)
 */
const DATA_TYPE_COMPONENTS: Readonly<Record<string, string>> = {
  AD: 'ST 120|ST 120|ST 50|ST 50|ST 12|ID 3|ID 3|ST 50',
  AUI: 'ST 30|DT 8|ST 199',
  CE: 'ST 20|ST 199|ID 20|ST 20|ST 199|ID 20',
  CF: 'ST 20|FT 65536|ID 20|ST 20|FT 65536|ID 20',
  CNN: 'ST 15|ST 50|ST 30|ST 30|ST 20|ST 20|IS 5|IS 4|IS 20|ST 199|ID 6',
  CP: 'MO 20|ID 2|NM 16|NM 16|CE 483|ID 1',
  CQ: 'NM 16|CE 483',
  CWE: 'ST 20|ST 199|ID 20|ST 20|ST 199|ID 20|ST 10|ST 10|ST 199',
  CX: 'ST 15|ST 1|ID 3|HD 227|ID 5|HD 227|DT 8|DT 8|CWE 705|CWE 705',
  DLD: 'IS 20|TS 26',
  DLN: 'ST 20|IS 20|DT 24',
  DR: 'TS 26|TS 26',
  ED: 'HD 227|ID 9|ID 18|ID 6|TX 65536',
  EI: 'ST 199|IS 20|ST 199|ID 6',
  EIP: 'EI 427|EI 427',
  FC: 'IS 20|TS 26',
  FN: 'ST 50|ST 20|ST 50|ST 20|ST 50',
  HD: 'IS 20|ST 199|ID 6',
  MO: 'NM 16|ID 3',
  MOC: 'MO 20|CE 483',
  MSG: 'ID 3|ID 3|ID 7',
  NDL: 'CNN 406|TS 26|TS 26|IS 20|IS 20|IS 20|HD 227|IS 20|IS 20|IS 20|IS 20',
  OSD: 'ID 1|ST 15|IS 6|ST 15|IS 6|ST 12|NM 3|ST 15|ID 6|ST 15|ID 6',
  PL: 'IS 20|IS 20|IS 20|HD 227|IS 20|IS 20|IS 20|IS 20|ST 199|EI 427|HD 227',
  PPN:
    'ST 15|FN 194|ST 30|ST 30|ST 20|ST 20|IS 5|IS 4|HD 227|ID 1|ST 1|ID 3|ID 5|HD 227|TS 26|ID 1|CE 483|DR 17|ID 1|TS 26|' +
    'TS 26|ST 199|CWE 705|CWE 705',
  PRL: 'CE 483|ST 20|TX 250',
  PT: 'ID 1|ID 1',
  RI: 'IS 6|ST 199',
  RP: 'ST 15|HD 227|ID 9|ID 19',
  SAD: 'ST 120|ST 50|ST 12',
  SN: 'ST 2|NM 15|ST 1|NM 15',
  SPS: 'CWE 705|CWE 705|TX 200|CWE 705|CWE 705|CWE 705|CWE 705',
  TQ: 'CQ 267|RI 206|ST 6|TS 26|TS 26|ST 6|ST 199|TX 200|ID 1|OSD 110|CE 483|NM 4',
  TS: 'DTM 24|ID 1',
  VID: 'ID 5|CE 483|CE 483',
  VR: 'ST 6|ST 6',
  XAD: 'SAD 184|ST 120|ST 50|ST 50|ST 12|ID 3|ID 3|ST 50|IS 20|IS 20|ID 1|DR 53|TS 26|TS 26',
  XCN:
    'ST 15|FN 194|ST 30|ST 30|ST 20|ST 20|IS 5|IS 4|HD 227|ID 1|ST 1|ID 3|ID 5|HD 227|ID 1|CE 483|DR 53|ID 1|TS 26|TS 26|' +
    'ST 199|CWE 705|CWE 705',
  XON: 'ST 50|IS 20|NM 4|NM 1|ID 3|HD 227|ID 5|HD 227|ID 1|ST 20',
  XPN: 'FN 194|ST 30|ST 30|ST 20|ST 20|IS 6|ID 1|ID 1|CE 483|DR 53|ID 1|TS 26|TS 26|ST 199',
  XTN: 'ST 199|ID 3|ID 8|ST 199|NM 3|NM 4|NM 9|NM 5|ST 199|ST 4|ST 6|ST 199',
};

/** The composite data types whose components {@link dataTypeComponents} gives. */
export const COMPOSITE_DATA_TYPES: readonly string[] = Object.freeze(Object.keys(DATA_TYPE_COMPONENTS));

/** The primitive data types of those segments and components (v2.5.1 chapter 2A): one value, no components. */
const PRIMITIVE_TYPES: ReadonlySet<string> = new Set(['ST', 'TX', 'FT', 'ID', 'IS', 'NM', 'SI', 'DT', 'DTM', 'TM']);

const NO_COMPONENTS: readonly ComponentDefinition[] = Object.freeze([]);
const parsedComponents = new Map<string, readonly ComponentDefinition[]>();

/**
 * The v2.5.1 components of a data type.
 * @param type - a data type, e.g. `XPN`
 * @returns the definitions of components 1…n of a composite type, an empty list for a primitive type, or
 *   undefined for a type whose components the check does not know (e.g. `varies`)
 * @example dataTypeComponents('HD') // [{ type: 'IS', maxLength: 20 }, { type: 'ST', maxLength: 199 }, { type: 'ID', maxLength: 6 }]
 */
export function dataTypeComponents(type: string): readonly ComponentDefinition[] | undefined {
  if (PRIMITIVE_TYPES.has(type)) return NO_COMPONENTS;
  return cachedDefinition(parsedComponents, type, () => parseDataTypeComponents(type));
}

function parseDataTypeComponents(type: string): readonly ComponentDefinition[] | undefined {
  // Own keys only: a type read from a message (OBX-2) may be `constructor` or `__proto__`.
  const spec = Object.hasOwn(DATA_TYPE_COMPONENTS, type) ? DATA_TYPE_COMPONENTS[type] : undefined;
  if (spec === undefined) return undefined;
  return spec.split('|').map((c): ComponentDefinition => {
    const [componentType, length] = c.split(' ') as [string, string];
    return { type: componentType, maxLength: Number(length) };
  });
}
