/**
 * The packed package in a fresh consumer project, as a user installs it: `npm pack` once, the tarball unpacked
 * into a temporary `node_modules/chart-export` next to `@types/fhir`, `typescript` and `fast-check` (linked from
 * this repository's node_modules: no network; see test/support/packed-package.ts), then
 * - the consumer's TypeScript (`strict`, `skipLibCheck: false`) under `moduleResolution` node16, nodenext and
 *   bundler, over `.mts` and `.cts` files, and node10 over `.ts` files: correct uses compile; wrong uses fail with
 *   the expected error codes (a FHIR type that silently became `any` would let them through);
 *   `chart-export/testing` typed with the model and fast-check; no `@types/node` in those projects;
 * - a project with `@types/node` and `@types/express`: `createServer(toNodeListener(…))` and `app.use(…)`;
 * - `exactOptionalPropertyTypes`: explicit `undefined` where the docs allow an absent property;
 * - the README's "Mapping a chart" example, extracted and type-checked as a user would paste it;
 * - one core for both formats: in a fresh Node process, with `require` and with `import`, the adapter's errors
 *   are the core's classes and a chart frozen by the core is not copied and checked again by the adapter; the
 *   adapter and the testing kit load the core next to them.
 * One tsc run per configuration, all in parallel.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ROOT_MODULES, installPackedPackage, link } from '../support/packed-package.js';

/** The first ```ts block under the README's "## Mapping a chart" heading. */
function readmeMappingExample(readme: string): string {
  const section = readme.split(/^## Mapping a chart$/m)[1]?.split(/^## /m)[0] ?? '';
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (block === undefined) throw new Error('README "Mapping a chart" has no ```ts block');
  return block;
}

// ---------------------------------------------------------------------------------------------------------
// Consumer sources
// ---------------------------------------------------------------------------------------------------------

/** Correct use of both entries, valid as ESM (.mts) and as CommonJS (.cts). */
const GOOD = `import type * as fhir from 'fhir/r4.js';
import {
  buildAdtA31,
  buildFhirPatientBundle,
  ChartExportError,
  ChartValidationError,
  toFhirPatient,
  type Patient,
  type PatientChart,
} from 'chart-export';
import {
  createExportHandler,
  createInMemoryDataSource,
  createInMemoryKeyStore,
  toNodeListener,
  type ExportHandler,
  type NodeListener,
} from 'chart-export/http';
import { assertEscapeRoundTrip, chartDocument, patientChart, type ChartWithDirectory } from 'chart-export/testing';

type IsAny<T> = 0 extends 1 & T ? true : false;

const patient: Patient = {
  id: 'pat-1',
  identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1', type: 'MR' }],
  names: [{ family: 'Rivera', given: ['Ana'] }],
  gender: 'female',
};
const chart: PatientChart = { patient };
const bundle: fhir.Bundle = buildFhirPatientBundle(chart, { now: '2026-03-01T15:00:00Z', limits: { encounters: 5 } });
const inferred = buildFhirPatientBundle(chart);
// Fails to compile if the declarations degrade the FHIR types to any.
const bundleIsAny: IsAny<typeof inferred> = false;
const patientIsAny: IsAny<ReturnType<typeof toFhirPatient>> = false;
const first: fhir.FhirResource | undefined = bundle.entry?.[0]?.resource;
const gender: fhir.Patient['gender'] = toFhirPatient(patient).gender;
const adt: string = buildAdtA31(chart, { now: '2026-03-01T15:00:00Z', controlId: 'ADT1' });

export function isChartError(error: unknown): boolean {
  return error instanceof ChartValidationError && error instanceof ChartExportError && error.issues.length > 0;
}

const handler: ExportHandler = createExportHandler({
  dataSource: createInMemoryDataSource({ patients: [chart] }),
  keyStore: createInMemoryKeyStore([]),
});
const listener: NodeListener = toNodeListener(handler);
const listenerIsAny: IsAny<typeof listener> = false;
const requestIsAny: IsAny<Parameters<NodeListener>[0]> = false;

// The testing kit: its arbitraries are fast-check's, typed with the model (fast-check is a peer dependency).
const documents = chartDocument({ size: 'small', text: 'hostile' });
const documentsAreAny: IsAny<typeof documents> = false;
const patientIds = documents.map((doc) => doc.patients.map((c) => c.patient.id.toUpperCase()));
const charts = patientChart().map((value: ChartWithDirectory) => value.chart.patient.id);
const escaped: string = assertEscapeRoundTrip('O|Brien');

export { bundle, bundleIsAny, patientIsAny, first, gender, adt, listener, listenerIsAny, requestIsAny, documentsAreAny, patientIds, charts, escaped };
`;

/**
 * GOOD without the testing kit, for node10: the kit's types are fast-check's, and fast-check's own declarations
 * do not resolve under node10 (they import `pure-rand/types/…` through an exports map), whatever this package does.
 */
const GOOD_WITHOUT_KIT = GOOD.replace(/^import \{[^}]*\} from 'chart-export\/testing';\n/m, '')
  .replace(/\/\/ The testing kit:[\s\S]*?const escaped[^\n]*\n/, '')
  .replace(', documentsAreAny, patientIds, charts, escaped };', ' };');

/** Wrong uses, one per line, each of which must fail (line numbers below). */
const BAD = `import { buildFhirPatientBundle, toFhirPatient, type Patient, type PatientChart } from 'chart-export';
declare const chart: PatientChart;
declare const p: Patient;
buildFhirPatientBundle(chart).this.does.not.exist;
toFhirPatient(p).gender = 42;
`;
const BAD_ERRORS = [
  { line: 4, code: 'TS2339' }, // Property 'this' does not exist on type 'Bundle<FhirResource>'.
  { line: 5, code: 'TS2322' }, // Type '42' is not assignable to type '"male" | "female" | "other" | "unknown"'.
];

/** Explicit undefined where an absent property is allowed (compiled with exactOptionalPropertyTypes). */
const EXACT = `import { buildAdtA31, buildFhirPatientBundle, type Coding, type PatientChart } from 'chart-export';
import { createExportHandler, type ChartDataSource, type KeyStore } from 'chart-export/http';
declare const chart: PatientChart;
declare const row: { limit: number | undefined; display: string | undefined; basePath: string | undefined };
declare const dataSource: ChartDataSource;
declare const keyStore: KeyStore;

buildFhirPatientBundle(chart, { limits: { encounters: row.limit } });
buildFhirPatientBundle(chart, { now: undefined });
export const coding: Coding = { system: 'icd-10-cm', code: 'F32.1', display: row.display };
buildAdtA31(chart, { controlId: undefined, directory: undefined });
createExportHandler({ dataSource, keyStore, basePath: row.basePath, limits: { notes: { default: row.limit } } });
`;

/** Node's own server and Express, with @types/node present. */
const SERVER_MTS = `import { createServer } from 'node:http';
import express from 'express';
import { createExportHandler, createInMemoryDataSource, createInMemoryKeyStore, toNodeListener } from 'chart-export/http';

const dataSource = createInMemoryDataSource({ patients: [] });
const keyStore = createInMemoryKeyStore([]);
const handler = createExportHandler({ dataSource, keyStore });
export const server = createServer(toNodeListener(handler));
export const fromOptions = createServer(toNodeListener({ dataSource, keyStore }));
const app = express();
app.use(toNodeListener(handler));
app.use('/export', toNodeListener(handler));
export { app };
`;
const SERVER_CTS = `import { createServer } from 'node:http';
import express = require('express');
import { createExportHandler, createInMemoryDataSource, createInMemoryKeyStore, toNodeListener } from 'chart-export/http';

const handler = createExportHandler({ dataSource: createInMemoryDataSource({ patients: [] }), keyStore: createInMemoryKeyStore([]) });
export const server = createServer(toNodeListener(handler));
express().use('/export', toNodeListener(handler));
`;

// ---------------------------------------------------------------------------------------------------------
// Projects
// ---------------------------------------------------------------------------------------------------------

interface Project {
  readonly name: string;
  readonly dir: string;
  readonly compilerOptions: Record<string, unknown>;
  readonly files: Record<string, string>;
  /** Diagnostics the run must give, exactly. */
  readonly expected: { file: string; line: number; code: string }[];
}

const STRICT = { strict: true, skipLibCheck: false, noEmit: true, target: 'ES2022', types: [] as string[] };

let tmp = '';
let projects: Project[] = [];
const results = new Map<string, Promise<{ exitCode: number; diagnostics: { file: string; line: number; code: string }[]; output: string }>>();

function writeProject(project: Project): void {
  mkdirSync(project.dir, { recursive: true });
  for (const [file, text] of Object.entries(project.files)) writeFileSync(join(project.dir, file), text);
  writeFileSync(
    join(project.dir, `tsconfig.${project.name}.json`),
    JSON.stringify({ compilerOptions: project.compilerOptions, files: Object.keys(project.files) }, null, 2),
  );
}

/** One tsc run (the consumer's TypeScript, from its node_modules), diagnostics parsed from `--pretty false`. */
function runTsc(project: Project): Promise<{ exitCode: number; diagnostics: { file: string; line: number; code: string }[]; output: string }> {
  const tsc = join(tmp, 'node_modules/typescript/bin/tsc');
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', `tsconfig.${project.name}.json`, '--pretty', 'false'], { cwd: project.dir, encoding: 'utf8' }, (error, stdout) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      const diagnostics = [...stdout.matchAll(/^([^\s(]+)\((\d+),\d+\): error (TS\d+)/gm)].map((m) => ({
        file: m[1] as string,
        line: Number(m[2]),
        code: m[3] as string,
      }));
      resolve({ exitCode, diagnostics, output: stdout });
    });
  });
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'chart-export-consumer-'));
  // The tarball exactly as published (npm test has built dist), its one dependency and the consumer's compiler.
  installPackedPackage(tmp, ['typescript', 'fast-check']);
  // Only this project has @types/node (and Express's types); the others must do without.
  link(join(ROOT_MODULES, '@types'), join(tmp, 'with-node/node_modules/@types'));

  const readme = readmeMappingExample(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const common = { 'good.mts': GOOD, 'good.cts': GOOD, 'bad.mts': BAD, 'bad.cts': BAD, 'readme-mapping.mts': readme };
  const badErrors = ['bad.mts', 'bad.cts'].flatMap((file) => BAD_ERRORS.map((e) => ({ file, ...e })));
  const plain = join(tmp, 'without-node');
  projects = [
    // node10 (TypeScript's pre-exports resolution) finds chart-export/http through typesVersions; the testing
    // kit is left out there (see GOOD_WITHOUT_KIT).
    {
      name: 'node10',
      dir: plain,
      compilerOptions: { ...STRICT, module: 'commonjs', moduleResolution: 'node10' },
      files: { 'good.ts': GOOD_WITHOUT_KIT, 'bad.ts': BAD },
      expected: ['bad.ts'].flatMap((file) => BAD_ERRORS.map((e) => ({ file, ...e }))),
    },
    { name: 'node16', dir: plain, compilerOptions: { ...STRICT, module: 'node16', moduleResolution: 'node16' }, files: common, expected: badErrors },
    {
      name: 'nodenext',
      dir: plain,
      compilerOptions: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext', exactOptionalPropertyTypes: true },
      files: { ...common, 'exact.mts': EXACT },
      expected: badErrors,
    },
    {
      name: 'bundler',
      dir: plain,
      compilerOptions: { ...STRICT, module: 'preserve', moduleResolution: 'bundler', exactOptionalPropertyTypes: true },
      files: { ...common, 'exact.mts': EXACT },
      expected: badErrors,
    },
    {
      name: 'with-node',
      dir: join(tmp, 'with-node'),
      compilerOptions: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext', types: ['node'] },
      files: { 'server.mts': SERVER_MTS, 'server.cts': SERVER_CTS },
      expected: [],
    },
  ];
  for (const project of projects) writeProject(project);
  for (const project of projects) results.set(project.name, runTsc(project));
}, 120_000);

afterAll(() => {
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true });
});

function result(name: string): ReturnType<typeof runTsc> {
  const r = results.get(name);
  if (r === undefined) throw new Error(`no project ${name}`);
  return r;
}

/** A core error class's declaration in built code: its `name` field (`name = 'ChartValidationError'`). */
const DECLARES_CORE_ERROR = /\bname\s*=\s*["']ChartValidationError["']/;

describe('packed package in a consumer TypeScript project', () => {
  it.each(['node10', 'node16', 'nodenext', 'bundler'])(
    'should compile correct .mts and .cts uses and reject wrong ones with the right codes under %s (no @types/node, skipLibCheck false)',
    async (name) => {
      const { exitCode, diagnostics, output } = await result(name);
      const project = projects.find((p) => p.name === name) as Project;
      // Wrong uses are errors, so tsc exits 2 (errors, nothing emitted with noEmit); every error is one of them,
      // and none is in the declarations, the correct uses, the README example or exact.mts.
      const key = (d: { file: string; line: number; code: string }): string => `${d.file}:${d.line}:${d.code}`;
      expect(diagnostics.map(key).sort(), output).toEqual(project.expected.map(key).sort());
      expect(exitCode, output).toBe(2);
    },
    120_000,
  );

  it('should type-check createServer(toNodeListener(…)) and Express app.use(listener) with @types/node', async () => {
    const { exitCode, output } = await result('with-node');
    expect(output).toBe('');
    expect(exitCode).toBe(0);
  }, 120_000);

  it("should publish declarations that import nothing from node: and @types/fhir only as 'fhir/r4.js'", () => {
    for (const file of ['index.d.ts', 'index.d.cts', 'http/index.d.ts', 'http/index.d.cts', 'testing/index.d.ts', 'testing/index.d.cts']) {
      const text = readFileSync(join(tmp, 'node_modules/chart-export/dist', file), 'utf8');
      expect(text, file).not.toMatch(/^(import|export)[^\n]*from ['"]node:|reference types="node"/m);
      const fhirSpecifiers = [...text.matchAll(/from ['"](fhir\/[^'"]*)['"]/g)].map((m) => m[1]);
      for (const s of fhirSpecifiers) expect(s, file).toBe('fhir/r4.js');
    }
  });
});

describe('one core for import and require', () => {
  /** Runs in the consumer project, so `chart-export` is the unpacked tarball, loaded by Node's own resolution. */
  const PROBE = `
    const invalid = '{"patients":[{"patient":{}}]}';
    let error;
    try { http.loadChartDocument(invalid); } catch (e) { error = e; }
    const doc = core.freezeChartDocument({ patients: [{ patient: { id: 'p-1', identifiers: [{ system: 'urn:oid:1.2.3', value: 'MRN-1' }], names: [{ family: 'Rivera' }] } }] });
    const loaded = http.loadChartDocument(doc);
    const source = http.createInMemoryDataSource(doc);
    Promise.resolve(source.getPatient('p-1')).then((patient) => console.log(JSON.stringify({
      errorIsCoreValidationError: error instanceof core.ChartValidationError,
      errorIsCoreExportError: error instanceof core.ChartExportError,
      frozenDocumentKept: loaded === doc,
      frozenPatientServed: patient === doc.patients[0].patient,
    })));
  `;

  function probe(mode: 'require' | 'import'): Record<string, boolean> {
    const script =
      mode === 'require'
        ? `const core = require('chart-export'); const http = require('chart-export/http');${PROBE}`
        : `const core = await import('chart-export'); const http = await import('chart-export/http');${PROBE}`;
    const args = mode === 'require' ? ['-e', script] : ['--input-type=module', '-e', script];
    return JSON.parse(execFileSync(process.execPath, args, { cwd: tmp, encoding: 'utf8' })) as Record<string, boolean>;
  }

  it.each(['require', 'import'] as const)(
    "should throw the core's error classes from the adapter and serve a core-frozen chart as it is (%s)",
    (mode) => {
      expect(probe(mode)).toEqual({
        errorIsCoreValidationError: true,
        errorIsCoreExportError: true,
        // The adapter's loadChartDocument / createInMemoryDataSource return a chart the core froze as it is,
        // without a copy (a second core would not know it and would copy and check it again).
        frozenDocumentKept: true,
        frozenPatientServed: true,
      });
    },
  );

  it('should load the core next to the adapter and the kit by a relative path, not a second copy of it (nor by package name), and fast-check from the consumer', () => {
    // The files are minified (whitespace and syntax; names kept as they are in the source), so the patterns allow
    // any spacing and find a class by its `name` field.
    for (const [file, core] of [
      ['http/index.js', /from\s*"\.\.\/index\.js"/],
      ['http/index.cjs', /require\("\.\.\/index\.cjs"\)/],
      ['testing/index.js', /from\s*"\.\.\/index\.js"/],
      ['testing/index.cjs', /require\("\.\.\/index\.cjs"\)/],
    ] as const) {
      const text = readFileSync(join(tmp, 'node_modules/chart-export/dist', file), 'utf8');
      expect(text, file).toMatch(core);
      // Not by the package's own name: that would fail under an npm alias or a resolver without self-reference.
      expect(text, file).not.toMatch(/from\s*"chart-export"|require\("chart-export"\)/);
      // The core's error classes are defined once, in dist/index.* (the ESM core may keep them in a chunk it loads).
      expect(text, file).not.toMatch(DECLARES_CORE_ERROR);
    }
    const esmCore = readdirSync(join(tmp, 'node_modules/chart-export/dist'))
      .filter((f) => f === 'index.js' || /^chunk-[\w-]+\.js$/.test(f))
      .map((f) => readFileSync(join(tmp, 'node_modules/chart-export/dist', f), 'utf8'));
    expect(esmCore.some((text) => DECLARES_CORE_ERROR.test(text))).toBe(true);
    expect(readFileSync(join(tmp, 'node_modules/chart-export/dist/index.cjs'), 'utf8')).toMatch(DECLARES_CORE_ERROR);
    // The testing kit uses the consumer's fast-check (a peer dependency), never a bundled copy.
    for (const file of ['testing/index.js', 'testing/index.cjs']) {
      const text = readFileSync(join(tmp, 'node_modules/chart-export/dist', file), 'utf8');
      expect(text, file).toMatch(/from\s*"fast-check"|require\("fast-check"\)/);
      expect(text, file).not.toMatch(/class \w*Arbitrary\b|function stringMatching\b|["']\w*Arbitrary["']|["']stringMatching["']/);
    }
  });
});
