/**
 * The public input types declare optionals as `prop?: T | undefined` (so consumers with
 * exactOptionalPropertyTypes may write `{ display: row.display }`), which promises that an explicit `undefined`
 * means the same as an absent property. Checked here on the demo chart: every optional property the model
 * declares and the chart leaves out is set to `undefined` (found by walking the chart along its declared types
 * with the TypeScript checker), and every FHIR and HL7 builder gives byte-identical output for both charts,
 * also with options whose unset fields are explicit `undefined`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  DIRECTORY_RESOURCE_TYPES,
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
  type ChartDocument,
  type Directory,
  type PatientChart,
} from '../../src/index.js';
import { strictProgram } from '../support/typescript.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEMO = JSON.parse(readFileSync(`${ROOT}examples/data/demo-chart.json`, 'utf8')) as ChartDocument;

/** The model's declared types, read by the TypeScript checker. */
function modelChecker(): { checker: ts.TypeChecker; typeNamed(name: string): ts.Type } {
  const entry = `${ROOT}src/model/index.ts`;
  const program = strictProgram([entry], []);
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile) as ts.Symbol;
  const exported = checker.getExportsOfModule(moduleSymbol);
  return {
    checker,
    typeNamed(name) {
      const symbol = exported.find((s) => s.name === name);
      if (symbol === undefined) throw new Error(`no model type ${name}`);
      return checker.getDeclaredTypeOfSymbol(symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
    },
  };
}

/**
 * A deep copy of `value` in which every optional property of its declared type that it leaves out is present
 * as `undefined`. Unions are narrowed to the member the value is (object vs primitive; `type` discriminant).
 */
function withExplicitUndefined(checker: ts.TypeChecker, value: unknown, declared: ts.Type, counter: { n: number }): unknown {
  if (value === null || typeof value !== 'object') return value;
  let type = checker.getNonNullableType(declared);
  if (Array.isArray(value)) {
    const element = checker.getIndexTypeOfType(type, ts.IndexKind.Number);
    if (element === undefined) throw new Error(`not an array type: ${checker.typeToString(type)}`);
    return value.map((v: unknown) => withExplicitUndefined(checker, v, element, counter));
  }
  if (type.isUnion()) {
    const objects = type.types.filter((t) => t.flags & ts.TypeFlags.Object);
    const tag = (value as Record<string, unknown>)['type'];
    const byTag = objects.filter((t) => {
      const p = t.getProperty('type');
      if (p === undefined) return false;
      const pt = checker.getTypeOfSymbol(p);
      return pt.isStringLiteral() && pt.value === tag;
    });
    type = (byTag.length === 1 ? byTag[0] : objects[0]) as ts.Type;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(source)) {
    const prop = type.getProperty(key);
    out[key] = prop === undefined ? v : withExplicitUndefined(checker, v, checker.getTypeOfSymbol(prop), counter);
  }
  for (const prop of type.getProperties()) {
    if (prop.flags & ts.SymbolFlags.Optional && !Object.hasOwn(source, prop.name)) {
      out[prop.name] = undefined;
      counter.n++;
    }
  }
  return out;
}

/** Every builder's output for one chart, as text. */
function outputs(chart: PatientChart, directory: Directory | undefined, explicit: boolean): string[] {
  const u = explicit ? { bundleId: undefined, baseUrl: undefined, strictBundleTotal: undefined } : {};
  const fhirOptions = { now: '2026-03-01T15:00:00Z', directory, ...u };
  const hl7Options = {
    now: '2026-03-01T10:00:00-05:00',
    controlId: 'CTRL-1',
    directory,
    ...(explicit ? { sendingApplication: undefined, receivingFacility: undefined, processingId: undefined, lineEnding: undefined } : {}),
  };
  const out: string[] = [
    JSON.stringify(buildFhirPatientExport(chart, fhirOptions)),
    JSON.stringify(buildFhirPatientBundle(chart, fhirOptions)),
    JSON.stringify(buildFhirPatientBundle(chart, { ...fhirOptions, limits: explicit ? { encounters: 1, notes: undefined } : { encounters: 1 } })),
    buildAdtA31(chart, { ...hl7Options, controlId: 'ADT-1' }),
    buildAdrA19(chart, { ...hl7Options, controlId: 'ADR-1', ...(explicit ? { limit: undefined, queryId: undefined } : {}) }),
  ];
  for (const e of chart.encounters ?? []) {
    out.push(JSON.stringify(buildFhirEncounterExport(chart, e.id, fhirOptions)), buildAdtA08(chart, e.id, { ...hl7Options, controlId: 'ADT-2' }));
  }
  for (const n of chart.notes ?? []) {
    out.push(JSON.stringify(buildFhirNoteExport(chart, n.id, fhirOptions)), buildMdmT02(chart, n.id, { ...hl7Options, controlId: 'MDM-1' }));
  }
  for (const a of chart.assessments ?? []) {
    out.push(JSON.stringify(buildFhirAssessmentExport(chart, a.id, fhirOptions)), buildOruR01(chart, a.id, { ...hl7Options, controlId: 'ORU-1' }));
  }
  if (directory !== undefined) {
    for (const type of DIRECTORY_RESOURCE_TYPES) {
      out.push(JSON.stringify(buildFhirDirectoryBundle(directory, type, { now: fhirOptions.now, ...u, ...(explicit ? { limit: undefined } : {}) })));
    }
  }
  return out;
}

describe('explicit undefined in the model and options', () => {
  it('should give byte-identical FHIR and HL7 output to the same chart without the undefined properties', () => {
    // Arrange
    const { checker, typeNamed } = modelChecker();
    const counter = { n: 0 };
    const explicit = withExplicitUndefined(checker, DEMO, typeNamed('ChartDocument'), counter) as ChartDocument;
    // The walk reached every kind of record: thousands of optional properties were added.
    expect(counter.n).toBeGreaterThan(1000);
    expect(Object.hasOwn(explicit.patients[0]?.patient ?? {}, 'deceased')).toBe(true);

    // Act / Assert: the first charts of the demo document (all kinds of record), every builder.
    for (let i = 0; i < 4; i++) {
      const plain = outputs(DEMO.patients[i] as PatientChart, DEMO.directory, false);
      const withUndefined = outputs(explicit.patients[i] as PatientChart, explicit.directory, true);
      expect(withUndefined.length).toBe(plain.length);
      withUndefined.forEach((text, j) => expect(text, `patient ${i}, output ${j}`).toBe(plain[j]));
    }
  });
});
