/**
 * Robustness of the whole public API, as a property: every runtime export of `chart-export` and
 * `chart-export/http`, called with garbage arguments (fast-check `anything`, plus values that break careless
 * code: symbols, BigInt, functions, cyclic objects, `__proto__` keys, lone surrogates, very long strings,
 * objects whose getters throw) and with valid arguments after one random deep mutation (a node replaced, a
 * key deleted, a value of the wrong type), either returns a value of its documented type or throws (rejects)
 * a typed `ChartExportError`, and does so quickly. Never a `TypeError`, `RangeError` or other built-in error,
 * never a hang, never output that does not re-parse.
 *
 * The exports are enumerated from the module namespaces, so a new export without an entry in {@link CALLS}
 * fails the test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import * as http from '../../src/http/index.js';
import {
  ChartExportError,
  CHART_ISSUE_CODES,
  type ChartDocument,
  type Directory,
  type PatientChart,
  buildAdtA31,
  buildMdmT02,
  checkHl7Message,
  parseHl7Message,
} from '../../src/index.js';
import { arbPatientChart, type ChartWithDirectory } from '../../src/testing/charts.js';
import { CHART, DIRECTORY } from '../hl7/fixtures.js';
import { conformanceProblems } from '../hl7/support.js';
import { CHART_DOCUMENT, PATIENT_ID } from '../http/support/fixture.js';
import { runs } from '../support/runs.js';

/** Generous bound per call: the slowest legitimate call here (a chart check of a generated chart) takes a few ms. */
const PER_CALL_MS = 2_000;
/** Runs per export and kind of input; small, so the whole file stays well under 30 s. */
const GARBAGE_RUNS = Number(process.env["ROBUST_RUNS"] ?? 40);
const MUTATION_RUNS = Number(process.env["ROBUST_RUNS"] ?? 25);

// ---------------------------------------------------------------------------------------------------------
// Garbage
// ---------------------------------------------------------------------------------------------------------

/**
 * Thrown by the test's own hostile getters and proxies. When a function reads such a property, the caller's
 * exception passing through unchanged is fine: it is not the library crashing.
 */
class HostileAccessError extends Error {
  override readonly name = 'HostileAccessError';
}

function hostile(): never {
  throw new HostileAccessError('hostile property access');
}

/** fast-check's own symbols, which it reads on every generated value (to clone and to print it). */
const FAST_CHECK_KEYS: readonly PropertyKey[] = [fc.toStringMethod, fc.cloneMethod, fc.asyncToStringMethod];

/** A proxy whose every trap throws (but that fast-check can still clone and print). */
function throwingProxy(): object {
  return new Proxy(
    {},
    {
      get: (_t, key) => (key === fc.toStringMethod ? () => 'throwingProxy' : FAST_CHECK_KEYS.includes(key) ? undefined : hostile()),
      has: (_t, key) => (FAST_CHECK_KEYS.includes(key) ? key === fc.toStringMethod : hostile()),
      ownKeys: hostile,
      getOwnPropertyDescriptor: hostile,
      getPrototypeOf: hostile,
      set: hostile,
      defineProperty: hostile,
      deleteProperty: hostile,
    },
  );
}

/** An object whose likely keys are getters that throw. */
function throwingGetters(): object {
  const o: Record<string | symbol, unknown> = { [fc.toStringMethod]: () => 'throwingGetters' };
  for (const key of ['patient', 'patients', 'id', 'length', 'type', 'timestamp', 'entry', 'dataSource', 'keyStore', 'segments', 'fields', 'now', 'then', 'keyHash', 'scopes', 'digest', 'field', 'separator', 'component']) {
    Object.defineProperty(o, key, { get: hostile, enumerable: true });
  }
  return o;
}

function cyclicObject(): object {
  const o: Record<string, unknown> = { id: 'x', names: [] };
  o['patient'] = o;
  o['self'] = o;
  o['patients'] = [o];
  return o;
}

function cyclicArray(): unknown[] {
  const a: unknown[] = [];
  a.push(a, { a });
  return a;
}

/** Values that break careless code; each thunk makes a fresh one (functions may freeze what they get). */
const SPECIAL_VALUES: readonly (() => unknown)[] = [
  () => undefined,
  () => null,
  () => Symbol('garbage'),
  () => 10n ** 30n,
  () => () => 1,
  () => async () => 1,
  () => class {},
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => -0,
  () => 2 ** 53,
  () => -1,
  () => 1.5,
  () => '',
  () => ' ',
  () => '\uD800',
  () => 'a\uDC00b',
  () => '\r\n\r',
  () => 'x'.repeat(200_000),
  () => '😀'.repeat(10_000),
  () => [],
  () => [undefined],
  () => new Array(5),
  () => ({}),
  () => Object.create(null) as object,
  () => JSON.parse('{"__proto__":{"patient":{"id":"p"}},"constructor":{"prototype":{"x":1}}}') as unknown,
  () => JSON.parse('{"patient":{"__proto__":{"id":"p"}},"patients":[{"__proto__":[]}]}') as unknown,
  () => new Date(Number.NaN),
  () => new Map([[1, 2]]),
  () => new Set([1]),
  () => new Uint8Array([0xff, 0xfe, 0x00]),
  () => new ArrayBuffer(3),
  () => Promise.resolve(1),
  () => new Error('e'),
  () => /x/g,
  () => Object.freeze({ then: 1 }),
  () => ({ length: -1 }),
  () => ({ length: 2 ** 32 }),
  () => ({ toString: hostile, valueOf: hostile, [fc.toStringMethod]: () => 'throwingToString' }),
  () => ({ [Symbol.iterator]: hostile, [fc.toStringMethod]: () => 'throwingIterator' }),
  () => ({ [Symbol.toPrimitive]: hostile, [fc.toStringMethod]: () => 'throwingToPrimitive' }),
  throwingProxy,
  throwingGetters,
  cyclicObject,
  cyclicArray,
];

const arbSpecial: fc.Arbitrary<unknown> = fc.nat({ max: SPECIAL_VALUES.length - 1 }).map((i) => (SPECIAL_VALUES[i] as () => unknown)());

/** Anything at all. */
const arbGarbage: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: arbSpecial, weight: 3 },
  {
    arbitrary: fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
    }),
    weight: 3,
  },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
);

// ---------------------------------------------------------------------------------------------------------
// Mutation of valid input
// ---------------------------------------------------------------------------------------------------------

type Path = readonly (string | number)[];

/** Every node below the root (objects and arrays walked, cycles not expected in valid input). */
function nodePaths(value: unknown, prefix: Path = [], out: Path[] = [], depth = 0): Path[] {
  if (depth > 40 || typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return out;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...prefix, i]);
      nodePaths(v, [...prefix, i], out, depth + 1);
    });
  } else {
    for (const key of Object.keys(value)) {
      out.push([...prefix, key]);
      nodePaths((value as Record<string, unknown>)[key], [...prefix, key], out, depth + 1);
    }
  }
  return out;
}

/** A value of another type than `v`, close enough to be tempting (a number for a string, an object for an array). */
function wrongType(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
      return v.length === 0 ? 0 : Number.isNaN(Number(v)) ? [v] : Number(v);
    case 'number':
      return String(v);
    case 'boolean':
      return v ? 'true' : 0;
    case 'undefined':
      return null;
    default:
      if (v === null) return undefined;
      if (Array.isArray(v)) return { ...v, length: v.length };
      return Object.values(v as object);
  }
}

interface Mutation {
  readonly index: number;
  readonly op: 'replace' | 'delete' | 'wrong-type' | 'special';
  readonly value: unknown;
}

const arbMutation: fc.Arbitrary<Mutation> = fc.record({
  index: fc.nat(),
  op: fc.constantFrom('replace', 'delete', 'wrong-type', 'special'),
  value: fc.oneof(arbGarbage, arbSpecial),
});

/** Deep-copy plain data (valid inputs are JSON-shaped). */
function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Apply one mutation to a copy of the argument list (paths start with the argument index). */
function mutate(args: readonly unknown[], m: Mutation): unknown[] {
  const out = args.map((a) => (typeof a === 'function' || a instanceof Uint8Array ? a : copy(a)));
  const paths = nodePaths(out);
  const path = paths[m.index % paths.length] as Path;
  let parent: unknown = out;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[key];
  const last = path[path.length - 1] as string | number;
  const holder = parent as Record<string | number, unknown>;
  switch (m.op) {
    case 'delete':
      if (Array.isArray(holder) && typeof last === 'number') holder.splice(last, 1);
      else delete holder[last];
      break;
    case 'wrong-type':
      holder[last] = wrongType(holder[last]);
      break;
    default:
      holder[last] = m.value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Valid inputs
// ---------------------------------------------------------------------------------------------------------

const NOW = '2026-03-01T15:00:00Z';
const FIXTURE_DOCUMENT: ChartDocument = CHART_DOCUMENT;
/** Small generated charts, with the fixture chart mixed in. */
const arbChart: fc.Arbitrary<ChartWithDirectory> = fc.oneof(
  arbPatientChart({ maxEncounters: 2, maxNotes: 2, maxAssessments: 2, maxHistory: 2, maxDiagnoses: 2, maxProcedures: 1, maxItems: 3, maxCoverages: 2 }),
  fc.constant({ chart: CHART, directory: DIRECTORY }),
);

const ids = (records: readonly { id: string }[] | undefined): string[] => (records ?? []).map((r) => r.id);

/** A record id of the chart when it has one of that kind, else a random one (ChartNotFoundError then). */
function recordId(list: (c: PatientChart) => readonly { id: string }[] | undefined) {
  return (c: ChartWithDirectory): fc.Arbitrary<string> => {
    const known = ids(list(c.chart));
    return known.length > 0 ? fc.constantFrom(...known) : fc.string({ minLength: 1, maxLength: 8 });
  };
}

const fhirOptions = (c: ChartWithDirectory): Record<string, unknown> => ({ now: NOW, directory: c.directory });
/** HL7 options; MSH-10 must begin with the message code. */
const hl7Options = (code: string) => (c: ChartWithDirectory): Record<string, unknown> => ({ now: NOW, controlId: `${code}-1`, directory: c.directory });

/** `[chart, options]` for the whole-chart builders. */
const chartArgs = (options: (c: ChartWithDirectory) => Record<string, unknown>): fc.Arbitrary<unknown[]> =>
  arbChart.map((c) => [c.chart, options(c)]);
/** `[chart, recordId, options]` for the one-record builders. */
const recordArgs = (
  list: (c: PatientChart) => readonly { id: string }[] | undefined,
  options: (c: ChartWithDirectory) => Record<string, unknown>,
): fc.Arbitrary<unknown[]> => arbChart.chain((c) => recordId(list)(c).map((id) => [c.chart, id, options(c)]));
/** `[record, patient]` for the per-resource mappers; charts without such a record fall back to the fixture chart. */
const mapperArgs = <T>(
  list: (c: PatientChart) => readonly T[] | undefined,
  extra?: (record: T) => fc.Arbitrary<unknown[]>,
  usable: (record: T) => boolean = () => true,
): fc.Arbitrary<unknown[]> =>
  arbChart.chain((c) => {
    const records = (list(c.chart) ?? []).filter(usable);
    const chart = records.length > 0 ? c.chart : CHART;
    const pool = (list(chart) ?? []).filter(usable);
    return fc.constantFrom(...pool).chain((record) => (extra === undefined ? fc.constant([record, chart.patient]) : extra(record).map((rest) => [record, ...rest, chart.patient])));
  });
const directoryRecordArgs = (list: (d: Directory) => readonly unknown[] | undefined): fc.Arbitrary<unknown[]> =>
  fc.constantFrom(...(list(FIXTURE_DOCUMENT.directory ?? {}) ?? []), ...(list(DIRECTORY) ?? [])).map((r) => [r]);

const VALID_MESSAGES: readonly string[] = [
  buildAdtA31(CHART, { now: NOW, controlId: 'ADT1', directory: DIRECTORY }),
  buildMdmT02(CHART, (CHART.notes?.[0] as { id: string }).id, { now: NOW, controlId: 'MDM1', directory: DIRECTORY }),
];

/** HL7-ish text: valid messages with random breaks (CR/LF mixes, delimiters, lone surrogates), and arbitrary strings. */
const arbHl7Text: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...VALID_MESSAGES),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('\r', '\n', '\r\n', '\n\r', '|', '^', '~', '\\', '&', '\uD800', '\uDFFF', '\u0000', '\u0085', 'MSH|', '\\X', '\\X0\\', 'MSH|^~\\&|', 'Ω')), { maxLength: 6 }),
    )
    .map(([message, edits]) => edits.reduce((m, [at, s]) => m.slice(0, at % (m.length + 1)) + s + m.slice(at % (m.length + 1)), message)),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('M', 'S', 'H', '|', '^', '~', '\\', '&', '\r', '\n', 'X', '0', 'A', '.', 'b', 'r'), maxLength: 200 }),
  fc.constantFrom(
    '',
    'MSH',
    'MSH|',
    'MSH|^',
    'MSH|^~\\&',
    'MSH||||',
    'MSH|^~\\&|' + 'a|'.repeat(100_000),
    'MSH|^~\\&|A\r' + 'PID|1\r'.repeat(20_000),
    `${VALID_MESSAGES[0] as string}\r`.repeat(200),
  ),
);

/** `[segment, field, component, subcomponent, repetition]` for `getHl7Value`. */
const arbGetValueArgs: fc.Arbitrary<unknown[]> = fc
  .tuple(fc.constantFrom(...VALID_MESSAGES), fc.nat(), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }))
  .map(([m, s, f, c, sc, r]) => {
    const segments = parseHl7Message(m).segments;
    return [segments[s % segments.length], f, c, sc, r];
  });

const VALID_KEY_HASH = 'a'.repeat(64);
const arbKeyEntry = fc.record({
  keyHash: fc.stringMatching(/^[0-9a-f]{64}$/),
  keyId: fc.string({ minLength: 1, maxLength: 8 }),
  partnerId: fc.string({ minLength: 1, maxLength: 8 }),
  scopes: fc.subarray([...http.API_KEY_SCOPES]),
  rateLimit: fc.record({ limit: fc.integer({ min: 1, max: 1000 }), windowSeconds: fc.integer({ min: 1, max: 3600 }) }),
  revoked: fc.boolean(),
});

/** Handler options that are valid (in-memory source and key store; every optional setting sometimes set). */
const arbHandlerOptions: fc.Arbitrary<unknown[]> = fc
  .record(
    {
      basePath: fc.constantFrom('', '/', '/api', '/api/v1/'),
      limits: fc.constant({ encounters: { default: 2, max: 10 } }),
      directoryRateLimit: fc.constant({ limit: 10, windowSeconds: 60 }),
      fhir: fc.constant({ baseUrl: 'https://api.example.org/fhir', strictBundleTotal: true }),
      hl7: fc.constant({ sendingApplication: 'APP', sendingFacility: 'FAC', processingId: 'T' }),
      now: fc.constant(() => Date.parse(NOW)),
      requestId: fc.constant(() => 'req-1'),
      observer: fc.constant(() => undefined),
      onError: fc.constant(() => undefined),
    },
    { requiredKeys: [] },
  )
  .map((o) => [{ dataSource: SHARED_SOURCE, keyStore: SHARED_KEYS, ...o }]);

const SHARED_SOURCE = http.createInMemoryDataSource(CHART_DOCUMENT);
/** One metrics object for the method calls: what they count accumulates, as in a host. */
const SHARED_METRICS = http.createExportMetrics();
const SHARED_KEYS = http.createInMemoryKeyStore([{ keyHash: VALID_KEY_HASH, partnerId: 'p', scopes: ['fhir:export', 'hl7:export'] }]);

// ---------------------------------------------------------------------------------------------------------
// Result checks
// ---------------------------------------------------------------------------------------------------------

/** No lone surrogate (`String.prototype.isWellFormed` is ES2024, newer than the project's lib). */
const isWellFormed = (s: string): boolean => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** JSON output re-parses to the same value (no undefined members, NaN, functions, cycles or lone surrogates lost). */
function expectJsonRoundTrip(value: unknown): void {
  const text = JSON.stringify(value);
  expect(typeof text).toBe('string');
  expect(JSON.parse(text)).toStrictEqual(value);
  expect(isWellFormed(text as string)).toBe(true);
}

const isResource = (resourceType: string) => (r: unknown) => {
  expect((r as { resourceType?: unknown }).resourceType).toBe(resourceType);
  expectJsonRoundTrip(r);
};
const isBundle = isResource('Bundle');
/**
 * An HL7 message: a string that parses and passes the v2.5.1 structure check (but the documented deviations:
 * generated identifiers may be longer than CX-1's 15 characters).
 */
const isHl7Message = (r: unknown) => {
  expect(typeof r).toBe('string');
  expect((r as string).startsWith('MSH|^~\\&|')).toBe(true);
  expect(conformanceProblems(r as string)).toEqual([]);
};
const isIssueList = (r: unknown) => {
  expect(Array.isArray(r)).toBe(true);
  for (const issue of r as { path: unknown; code: unknown; message: unknown }[]) {
    expect(Array.isArray(issue.path)).toBe(true);
    expect(CHART_ISSUE_CODES).toContain(issue.code);
    expect(typeof issue.message).toBe('string');
  }
};
const isObject = (r: unknown) => {
  expect(typeof r === 'object' && r !== null).toBe(true);
};
const isFrozenObject = (r: unknown) => {
  isObject(r);
  expect(Object.isFrozen(r)).toBe(true);
};
const isString = (r: unknown) => expect(typeof r).toBe('string');
const isWellFormedString = (r: unknown) => {
  isString(r);
  expect(isWellFormed(r as string)).toBe(true);
};
const isBoolean = (r: unknown) => expect(typeof r).toBe('boolean');
const isFunction = (r: unknown) => expect(typeof r).toBe('function');
const isError = (cls: new (...args: never[]) => Error) => (r: unknown) => {
  expect(r).toBeInstanceOf(cls);
  expect(typeof (r as Error).message).toBe('string');
};

// ---------------------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------------------

/**
 * The error classes are constructed by the library (and by hosts, for `DataSourceUnavailableError`) with the
 * argument types they declare; like the built-in `Error`, whose constructor throws a TypeError for a message
 * that cannot become a string (a Symbol, an object whose `toString` throws), they do not validate their
 * arguments: an error constructor that threw a typed error instead would hide the error being reported.
 * See ECMAScript `Error ( message [ , options ] )` (ToString of the message) and the "Errors" section of
 * docs/chart-model.md, which lists these classes as what the library throws, not as validated entry points.
 */
const BUILTIN_ERROR_CONSTRUCTOR_FAILURE = (error: unknown): boolean => error instanceof TypeError;

interface CallSpec {
  /** How many arguments garbage is passed for (the declared parameters, optional ones included). */
  readonly arity: number;
  /** Valid arguments, mutated at random by the mutation property. Omitted: garbage only. */
  readonly valid?: fc.Arbitrary<unknown[]>;
  /** Hostile arguments of the right type (e.g. broken HL7 text), tried along with the generic garbage. */
  readonly hostile?: fc.Arbitrary<unknown[]>;
  /** `new` instead of a call (the error classes). */
  readonly construct?: true;
  /** The call returns a Promise: it must never throw synchronously, only reject. */
  readonly async?: true;
  /** What a normal return must look like. */
  readonly check: (result: unknown, args: readonly unknown[]) => void;
  /** Errors other than ChartExportError the call may legitimately throw (with a comment saying where that is documented). */
  readonly alsoAllowed?: (error: unknown) => boolean;
}

/**
 * How every exported function is called. Keys are `core.<name>` (`chart-export`) and `http.<name>`
 * (`chart-export/http`). Arguments are listed in declaration order; `valid` gives a well-formed call.
 */
const CALLS: Record<string, CallSpec> = {
  // --- Errors (constructors): garbage arguments must still give an error object, not a crash while reporting one.
  'core.ChartExportError': { arity: 3, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant(['invalid-argument', 'message', { cause: 1 }]), check: isError(core.ChartExportError) },
  'core.ChartValidationError': { arity: 2, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant([[{ path: ['a', 0], code: 'type', message: 'm' }], { cause: 1 }]), check: isError(core.ChartValidationError) },
  'core.ChartNotFoundError': { arity: 2, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant(['note', { cause: 1 }]), check: isError(core.ChartNotFoundError) },
  'core.MappingError': { arity: 4, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant([['encounters', 0], 'PR1-5', 'reason', { cause: 1 }]), check: isError(core.MappingError) },
  'core.InvalidArgumentError': { arity: 3, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant(['limit', 'reason', { cause: 1 }]), check: isError(core.InvalidArgumentError) },
  'core.DateTimeFormatError': { arity: 3, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant(['HL7 DTM', 'reason', { cause: 1 }]), check: isError(core.DateTimeFormatError) },
  'core.Hl7ParseError': { arity: 4, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant([0, 'MSH-2', 'reason', { cause: 1 }]), check: isError(core.Hl7ParseError) },
  'core.formatIssuePath': { arity: 1, valid: fc.constant([['encounters', 3, 'code']]), check: isString },

  // --- Chart check
  'core.checkPatientChart': { arity: 1, valid: arbChart.map((c) => [c.chart]), check: isIssueList },
  'core.validatePatientChart': { arity: 1, valid: arbChart.map((c) => [c.chart]), check: isObject },
  'core.checkChartDocument': { arity: 1, valid: fc.constant([FIXTURE_DOCUMENT]), check: isIssueList },
  'core.validateChartDocument': { arity: 1, valid: fc.constant([FIXTURE_DOCUMENT]), check: isObject },
  'core.checkDirectory': { arity: 1, valid: arbChart.map((c) => [c.directory]), check: isIssueList },
  'core.validateDirectory': { arity: 1, valid: arbChart.map((c) => [c.directory]), check: isObject },
  'core.freezeChartDocument': { arity: 1, valid: fc.constant([FIXTURE_DOCUMENT]), check: isFrozenObject },
  'core.freezePatientChart': { arity: 1, valid: arbChart.map((c) => [c.chart]), check: isFrozenObject },
  'core.freezeDirectory': { arity: 1, valid: arbChart.map((c) => [c.directory]), check: isFrozenObject },
  'core.freezeChartRecord': { arity: 2, valid: arbChart.map((c) => ['patient', c.chart.patient]), check: isFrozenObject },

  // --- FHIR Bundle builders: (chart[, record id], options)
  'core.buildFhirPatientExport': { arity: 2, valid: chartArgs(fhirOptions), check: isBundle },
  'core.buildFhirPatientBundle': {
    arity: 2,
    valid: chartArgs((c) => ({ ...fhirOptions(c), limits: { encounters: 1, notes: 2, assessments: 0, medicalHistory: 1 }, baseUrl: 'https://x.example/fhir' })),
    check: isBundle,
  },
  'core.streamFhirPatientBundle': {
    arity: 2,
    valid: chartArgs((c) => ({ ...fhirOptions(c), limits: { encounters: 1, notes: 2 }, chunkChars: 100, maxHoldMs: 1000 })),
    check: (r) => expect(typeof (r as AsyncIterable<string>)[Symbol.asyncIterator]).toBe('function'),
  },
  'core.buildFhirEncounterExport': { arity: 3, valid: recordArgs((c) => c.encounters, fhirOptions), check: isBundle },
  'core.buildFhirNoteExport': { arity: 3, valid: recordArgs((c) => c.notes, fhirOptions), check: isBundle },
  'core.buildFhirAssessmentExport': { arity: 3, valid: recordArgs((c) => c.assessments, fhirOptions), check: isBundle },
  'core.buildFhirDirectoryBundle': {
    arity: 3,
    valid: fc.tuple(arbChart, fc.constantFrom(...core.DIRECTORY_RESOURCE_TYPES)).map(([c, t]) => [c.directory, t, { now: NOW, limit: 3 }]),
    check: isBundle,
  },

  // --- FHIR mappers: (record[, index], patient) or (directory record)
  'core.toFhirPatient': { arity: 1, valid: arbChart.map((c) => [c.chart.patient]), check: isResource('Patient') },
  'core.toFhirCoverage': { arity: 2, valid: mapperArgs((c) => c.patient.coverages), check: isResource('Coverage') },
  'core.toFhirPayerOrganization': {
    arity: 1,
    valid: mapperArgs((c) => c.patient.coverages).map(([coverage]) => [(coverage as { payer: unknown }).payer]),
    check: isResource('Organization'),
  },
  'core.toFhirEncounter': { arity: 2, valid: mapperArgs((c) => c.encounters), check: isResource('Encounter') },
  'core.toFhirEncounterCondition': {
    arity: 3,
    valid: mapperArgs((c) => c.encounters, (e) => fc.nat({ max: (e.diagnoses?.length ?? 1) - 1 }).map((i) => [i]), (e) => (e.diagnoses?.length ?? 0) > 0),
    check: isResource('Condition'),
  },
  'core.toFhirHistoryCondition': { arity: 2, valid: mapperArgs((c) => c.medicalHistory), check: isResource('Condition') },
  'core.toFhirProcedure': {
    arity: 3,
    valid: mapperArgs((c) => c.encounters, (e) => fc.nat({ max: (e.procedures?.length ?? 1) - 1 }).map((i) => [i]), (e) => (e.procedures?.length ?? 0) > 0),
    check: isResource('Procedure'),
  },
  'core.toFhirComposition': { arity: 2, valid: mapperArgs((c) => c.notes), check: isResource('Composition') },
  'core.toFhirDocumentReference': { arity: 2, valid: mapperArgs((c) => c.notes), check: isResource('DocumentReference') },
  'core.toFhirQuestionnaire': {
    arity: 2,
    valid: mapperArgs((c) => c.assessments).map(([a]) => [(a as { instrument: unknown }).instrument, { code: { system: 'loinc', code: '44261-6' } }]),
    check: isResource('Questionnaire'),
  },
  'core.toFhirQuestionnaireResponse': { arity: 2, valid: mapperArgs((c) => c.assessments), check: isResource('QuestionnaireResponse') },
  'core.toFhirOrganization': { arity: 1, valid: directoryRecordArgs((d) => d.organizations), check: isResource('Organization') },
  'core.toFhirPractitioner': { arity: 1, valid: directoryRecordArgs((d) => d.practitioners), check: isResource('Practitioner') },
  'core.toFhirLocation': { arity: 1, valid: directoryRecordArgs((d) => d.locations), check: isResource('Location') },
  'core.toFhirId': {
    arity: 1,
    valid: fc.string({ minLength: 1, maxLength: 200 }).map((s) => [s]),
    check: (r) => expect(r).toMatch(/^[A-Za-z0-9\-.]{1,64}$/),
  },
  'core.defaultBundleId': {
    arity: 1,
    valid: chartArgs(fhirOptions).map(([chart, o]) => [core.buildFhirPatientExport(chart as PatientChart, o as core.FhirExportOptions)]),
    check: (r) => expect(r).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
  },

  // --- HL7 builders: (chart[, record id], options)
  'core.buildAdtA31': { arity: 2, valid: chartArgs(hl7Options('ADT')), check: isHl7Message },
  'core.buildAdrA19': { arity: 2, valid: chartArgs((c) => ({ ...hl7Options('ADR')(c), limit: 3, queryId: 'Q1' })), check: isHl7Message },
  'core.streamAdrA19': {
    arity: 2,
    valid: chartArgs((c) => ({ ...hl7Options('ADR')(c), limit: 3, chunkChars: 100, maxHoldMs: 1000 })),
    check: (r) => expect(typeof (r as AsyncIterable<string>)[Symbol.asyncIterator]).toBe('function'),
  },
  'core.buildAdtA08': { arity: 3, valid: recordArgs((c) => c.encounters, hl7Options('ADT')), check: isHl7Message },
  'core.buildMdmT02': { arity: 3, valid: recordArgs((c) => c.notes, hl7Options('MDM')), check: isHl7Message },
  'core.buildOruR01': { arity: 3, valid: recordArgs((c) => c.assessments, hl7Options('ORU')), check: isHl7Message },

  // --- HL7 encoding, date-times, parser, structure check
  'core.escapeHl7': {
    arity: 2,
    valid: fc.tuple(fc.constantFrom(...VALID_MESSAGES), fc.constant({ field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&' })),
    hostile: fc.tuple(arbHl7Text, fc.option(fc.constantFrom({ field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&' }, { field: '#', component: '^', repetition: '~', escape: '\\', subcomponent: '&' }), { nil: undefined })),
    check: (r, args) => {
      isString(r);
      expect(core.unescapeHl7(r as string, args[1] as core.Hl7Delimiters | undefined)).toBe(args[0]);
    },
  },
  'core.unescapeHl7': {
    arity: 2,
    valid: fc.tuple(fc.constantFrom(...VALID_MESSAGES), fc.constant({ field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&' })),
    hostile: fc.tuple(arbHl7Text).map((a) => [...a]),
    check: isString,
  },
  'core.formatHl7DateTime': { arity: 1, valid: fc.constantFrom(['2026'], ['2026-03'], ['2026-03-01'], ['2026-03-01T09:30:00.25-05:00']), check: isString },
  'core.parseHl7DateTime': { arity: 1, valid: fc.constantFrom(['2026'], ['202603011230'], ['20260301093000.25-0500']), check: isString },
  'core.generateControlId': {
    arity: 1,
    valid: fc.constantFrom(['ADT'], ['ADR'], ['MDM'], ['ORU']),
    check: (r) => expect(r).toMatch(/^[\x21-\x7e]{20}$/),
  },
  'core.parseHl7Message': {
    arity: 1,
    valid: fc.constantFrom(...VALID_MESSAGES).map((t) => [t]),
    hostile: arbHl7Text.map((t) => [t]),
    check: (r) => {
      isObject(r);
      expect(Array.isArray((r as { segments: unknown }).segments)).toBe(true);
    },
  },
  'core.getHl7Value': { arity: 5, valid: arbGetValueArgs, check: isWellFormedString },
  'core.checkHl7Message': {
    arity: 1,
    valid: fc.oneof(
      fc.constantFrom(...VALID_MESSAGES).map((t) => [t]),
      fc.constantFrom(...VALID_MESSAGES).map((m) => [parseHl7Message(m)]),
    ),
    hostile: arbHl7Text.map((t) => [t]),
    check: (r) => expect(Array.isArray(r)).toBe(true),
  },
  'core.isHl7LengthDeviation': {
    arity: 1,
    // Every problem checkHl7Message reports for a built message (deviations included), and made-up ones.
    valid: fc.oneof(
      fc.constantFrom(...VALID_MESSAGES).chain((m): fc.Arbitrary<unknown[]> => {
        const problems: unknown[] = checkHl7Message(m);
        return problems.length > 0 ? fc.constantFrom(...problems).map((p) => [p]) : fc.constant([{ code: 'max-length', position: 'PID-3.1', segmentIndex: 2, message: '' }]);
      }),
      fc
        .record({ code: fc.constantFrom('max-length', 'format'), position: fc.string({ maxLength: 12 }), segmentIndex: fc.nat(), message: fc.string() })
        .map((p): unknown[] => [p]),
    ),
    check: (r) => expect(typeof r).toBe('boolean'),
  },

  // --- Utilities

  // --- chart-export/http: handler and Node listener (garbage options must fail at creation, see "Hosting the endpoints")
  'http.createExportHandler': { arity: 1, valid: arbHandlerOptions, check: isFunction },
  'http.toNodeListener': { arity: 1, valid: arbHandlerOptions, check: isFunction },

  // --- Data source
  'http.loadChartDocument': {
    arity: 1,
    valid: fc.constantFrom([FIXTURE_DOCUMENT], [JSON.stringify(FIXTURE_DOCUMENT)], [new TextEncoder().encode(JSON.stringify(FIXTURE_DOCUMENT))]),
    check: isFrozenObject,
  },
  'http.createInMemoryDataSource': { arity: 1, valid: fc.constant([FIXTURE_DOCUMENT]), check: isObject },
  'http.compareIds': { arity: 2, valid: fc.tuple(fc.string(), fc.string()).map((t): unknown[] => t), check: (r) => expect(typeof r).toBe('number') },

  // --- NDJSON writers and Bulk Data stores (lazy generators: garbage fails at the first next(), see streamFhirNdjson)
  'core.streamFhirNdjson': { arity: 2, valid: fc.constant([[], { yieldEvery: 0 }]), check: isObject },
  'core.streamChartDocumentNdjson': { arity: 2, valid: fc.constant([FIXTURE_DOCUMENT, { types: ['Patient'] }]), check: isObject },
  'http.createInMemoryBulkJobStore': { arity: 1, valid: fc.constant([{ now: () => 0, staleMs: 1000 }]), check: isObject },
  'http.createInMemoryBulkOutputStore': { arity: 1, valid: fc.constant([{ now: () => 0 }]), check: isObject },
  'http.createRedisBulkJobStore': { arity: 1, valid: fc.constant([{ client: fakeRedisClient() }]), check: isObject },
  'http.createRedisBulkOutputStore': { arity: 1, valid: fc.constant([{ client: fakeRedisClient() }]), check: isObject },

  // --- Keys
  'http.createInMemoryKeyStore': {
    arity: 2,
    valid: fc.tuple(fc.uniqueArray(arbKeyEntry, { maxLength: 3, selector: (e) => e.keyHash }).map((a) => a.map((e, i) => ({ ...e, keyId: `k${i}` }))), fc.constant({})),
    check: isObject,
  },
  'http.parseKeyFile': {
    arity: 1,
    valid: fc.constantFrom<unknown[]>(
      [{ keys: [{ partnerId: 'p', key: 'k-1', scopes: ['fhir:export'] }] }],
      [JSON.stringify({ keys: [{ partner: 'p', keySha256: 'a'.repeat(64), scopes: ['hl7:export'], rateLimit: { limit: 2, windowSeconds: 3 } }] })],
    ),
    check: (r) => expect(Array.isArray(r)).toBe(true),
  },
  'http.KeyFileError': { arity: 1, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant([[{ path: ['keys', 0], message: 'is required' }]]), check: isError(http.KeyFileError) },
  'http.hashApiKey': { arity: 1, async: true, valid: fc.string({ maxLength: 100 }).map((s) => [s]), check: (r) => expect(r).toMatch(/^[0-9a-f]{64}$/) },

  // --- Rate limiting
  'http.createFixedWindowRateLimiter': { arity: 1, valid: fc.constant([{ now: () => Date.parse(NOW) }]), check: isObject },
  'http.createRedisRateLimiter': { arity: 1, valid: fc.constant([{ client: fakeRedisClient() }]), check: isObject },

  // --- OpenAPI description and metrics
  'http.createOpenApiDocument': {
    arity: 1,
    valid: fc.constantFrom<unknown[]>([{}], [{ basePath: '/api/', serverUrl: 'https://export.example.org', limits: { notes: { default: 1, max: 2 } }, operationalRoutes: false, version: '1.0.0' }]),
    check: (r) => {
      isObject(r);
      expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    },
  },
  'http.createExportMetrics': { arity: 1, valid: fc.constantFrom<unknown[]>([{}], [{ buckets: [0.1, 1, 10] }]), check: isObject },

  // --- Errors
  'http.DataSourceUnavailableError': { arity: 2, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant(['down', { cause: 1, retryAfterSeconds: 5 }]), check: isError(http.DataSourceUnavailableError) },
  'http.DataSourceTimeoutError': { arity: 2, construct: true, alsoAllowed: BUILTIN_ERROR_CONSTRUCTOR_FAILURE, valid: fc.constant([250, 5]), check: isError(http.DataSourceTimeoutError) },
  'http.isDataSourceUnavailable': { arity: 1, valid: fc.constant([new http.DataSourceUnavailableError()]), check: isBoolean },
};

// ---------------------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------------------

/** Every runtime function export, by table key. */
const EXPORTED_FUNCTIONS: [string, (...args: unknown[]) => unknown][] = [
  ...Object.entries(core as Record<string, unknown>).map(([name, value]): [string, unknown] => [`core.${name}`, value]),
  ...Object.entries(http as Record<string, unknown>).map(([name, value]): [string, unknown] => [`http.${name}`, value]),
].filter((entry): entry is [string, (...args: unknown[]) => unknown] => typeof entry[1] === 'function');

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 300)}\n${(error.stack ?? '').split('\n').slice(1, 6).join('\n')}`;
  return `non-error ${typeof error}`;
}

/** Call (or construct) and check the outcome: typed error or documented result, in time. */
async function expectRobust(name: string, fn: (...args: unknown[]) => unknown, spec: CallSpec, args: readonly unknown[], validInput = false): Promise<void> {
  const started = performance.now();
  let result: unknown;
  let error: unknown;
  let threw = false;
  try {
    result = spec.construct === true ? new (fn as unknown as new (...a: unknown[]) => unknown)(...args) : fn(...args);
    if (spec.async === true) {
      expect(result, `${name} must return a Promise`).toBeInstanceOf(Promise);
      result = await result;
    }
  } catch (e) {
    threw = true;
    error = e;
  }
  const elapsed = performance.now() - started;
  expect(elapsed, `${name} took ${elapsed.toFixed(0)} ms`).toBeLessThan(PER_CALL_MS);
  if (threw) {
    // Valid input may only fail in the documented ways valid input can: a record id not in the chart, data a
    // format cannot carry.
    const typed = validInput
      ? error instanceof core.MappingError || error instanceof core.ChartNotFoundError
      : error instanceof ChartExportError || error instanceof HostileAccessError || spec.alsoAllowed?.(error) === true;
    if (!typed) throw new Error(`${name} threw an untyped error: ${describeError(error)}`, { cause: error });
    return;
  }
  spec.check(result, args);
}

describe('public API robustness', () => {
  it('should have a call table entry for every exported function, and no stale entry', () => {
    const exported = EXPORTED_FUNCTIONS.map(([name]) => name).sort();
    expect(Object.keys(CALLS).sort()).toEqual(exported);
  });

  describe.each(EXPORTED_FUNCTIONS)('%s', (name, fn) => {
    const spec = CALLS[name];
    if (spec === undefined) return;

    it('should return its documented type or throw a typed error for garbage arguments', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.array(arbGarbage, { minLength: 0, maxLength: spec.arity }), spec.hostile ?? fc.array(arbGarbage, { maxLength: spec.arity })), async (args) => {
          await expectRobust(name, fn, spec, args);
        }),
        { numRuns: runs(GARBAGE_RUNS) },
      );
    });

    if (spec.valid !== undefined) {
      const valid = spec.valid;
      it('should return its documented type for valid arguments', async () => {
        await fc.assert(
          fc.asyncProperty(valid, async (args) => {
            await expectRobust(name, fn, spec, args, true);
          }),
          { numRuns: runs(5) },
        );
      });

      it('should return its documented type or throw a typed error for mutated valid arguments', async () => {
        await fc.assert(
          fc.asyncProperty(valid, arbMutation, async (args, mutation) => {
            await expectRobust(name, fn, spec, mutate(args, mutation));
          }),
          { numRuns: runs(MUTATION_RUNS) },
        );
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Methods of the objects the factories return
// ---------------------------------------------------------------------------------------------------------

interface MethodSpec {
  /** A fresh object to call the method on. */
  readonly target: () => Record<string, unknown>;
  readonly arity: number;
  readonly valid: fc.Arbitrary<unknown[]>;
  readonly async?: true;
  readonly check: (result: unknown) => void;
}

const dataSource = (): Record<string, unknown> => SHARED_SOURCE as unknown as Record<string, unknown>;

/** A running job record, as the Bulk routes store it. */
const BULK_JOB = { id: 'j1', owner: 'k1', state: 'running', request: 'http://x/$export', types: null, since: null, level: 'patient', transactionTime: NOW, patients: 0, files: [], heartbeatAt: 0, expiresAt: 9e12 };

/** The method calls of a Bulk job store or output store. */
function bulkStoreCalls(factory: string, make: () => object, kind: 'jobs' | 'outputs'): Record<string, MethodSpec> {
  const target = (): Record<string, unknown> => make() as Record<string, unknown>;
  const any = (r: unknown): void => void r;
  if (kind === 'jobs') {
    return {
      [`${factory}().create`]: { target, arity: 2, async: true, valid: fc.constant([BULK_JOB, 2]), check: isBoolean },
      [`${factory}().get`]: { target, arity: 1, async: true, valid: fc.constant(['j1']), check: isOptionalRecord },
      [`${factory}().update`]: { target, arity: 1, async: true, valid: fc.constant([BULK_JOB]), check: isBoolean },
      [`${factory}().delete`]: { target, arity: 1, async: true, valid: fc.constant(['j1']), check: isBoolean },
    };
  }
  return {
    [`${factory}().append`]: { target, arity: 4, async: true, valid: fc.constant(['j1', 'Patient-1.ndjson', '{}\n', 9e12]), check: any },
    [`${factory}().read`]: { target, arity: 2, async: true, valid: fc.constant(['j1', 'Patient-1.ndjson']), check: any },
    [`${factory}().expire`]: { target, arity: 3, async: true, valid: fc.constant(['j1', ['Patient-1.ndjson'], 9e12]), check: any },
    [`${factory}().remove`]: { target, arity: 2, async: true, valid: fc.constant(['j1', ['Patient-1.ndjson']]), check: any },
  };
}
const isOptionalRecord = (r: unknown) => expect(r === undefined || (typeof r === 'object' && r !== null)).toBe(true);
const isRecordList = (r: unknown) => expect(Array.isArray(r)).toBe(true);
const patientAnd = (id: string): fc.Arbitrary<unknown[]> => fc.constant([PATIENT_ID, id]);

/**
 * A Redis client in ioredis' shape that answers PING and admits every request of a script call, the last one
 * with nothing left (the real server: test/http/redis-rate-limiter.test.ts).
 */
function fakeRedisClient(): { call(command: string, ...args: string[]): Promise<unknown> } {
  return {
    call: (command, ...args) => {
      if (command === 'PING') return Promise.resolve('PONG');
      // EVALSHA sha 1 key limit window margin n
      const [limit, n] = [Number(args[3]), Number(args[6])];
      return Promise.resolve([n, limit - n, 1_800_000_000, 1]);
    },
  };
}

/**
 * Every method of `createInMemoryDataSource`, `createInMemoryKeyStore`, `createFixedWindowRateLimiter`,
 * `createExportMetrics` and the handler of `createExportHandler`. The Node listener of `toNodeListener` is left
 * out: `node:http` calls it with its own request and response objects, never with caller data.
 */
const METHOD_CALLS: Record<string, MethodSpec> = {
  'createInMemoryDataSource().getPatient': { target: dataSource, arity: 1, async: true, valid: fc.constant([PATIENT_ID]), check: isOptionalRecord },
  'createInMemoryDataSource().getEncounter': { target: dataSource, arity: 2, async: true, valid: patientAnd('enc-0003'), check: isOptionalRecord },
  'createInMemoryDataSource().getNote': { target: dataSource, arity: 2, async: true, valid: patientAnd('note-0002'), check: isOptionalRecord },
  'createInMemoryDataSource().getAssessment': { target: dataSource, arity: 2, async: true, valid: patientAnd('asmt-0002'), check: isOptionalRecord },
  'createInMemoryDataSource().getMedicalHistoryEntry': { target: dataSource, arity: 2, async: true, valid: patientAnd('hx-0001'), check: isOptionalRecord },
  'createInMemoryDataSource().listEncounters': { target: dataSource, arity: 2, async: true, valid: fc.constant([PATIENT_ID, 2]), check: isRecordList },
  'createInMemoryDataSource().listNotes': { target: dataSource, arity: 2, async: true, valid: fc.constant([PATIENT_ID, 2]), check: isRecordList },
  'createInMemoryDataSource().listAssessments': { target: dataSource, arity: 2, async: true, valid: fc.constant([PATIENT_ID, 2]), check: isRecordList },
  'createInMemoryDataSource().listMedicalHistory': { target: dataSource, arity: 2, async: true, valid: fc.constant([PATIENT_ID, 2]), check: isRecordList },
  'createInMemoryDataSource().getOrganization': { target: dataSource, arity: 1, async: true, valid: fc.constant(['org-001']), check: isOptionalRecord },
  'createInMemoryDataSource().getPractitioner': { target: dataSource, arity: 1, async: true, valid: fc.constant(['prac-001']), check: isOptionalRecord },
  'createInMemoryDataSource().getLocation': { target: dataSource, arity: 1, async: true, valid: fc.constant(['loc-001']), check: isOptionalRecord },
  'createInMemoryDataSource().listOrganizations': { target: dataSource, arity: 1, async: true, valid: fc.constant([5]), check: isRecordList },
  'createInMemoryDataSource().listPractitioners': { target: dataSource, arity: 1, async: true, valid: fc.constant([5]), check: isRecordList },
  'createInMemoryDataSource().listLocations': { target: dataSource, arity: 1, async: true, valid: fc.constant([5]), check: isRecordList },
  'createInMemoryDataSource().listPatients': { target: dataSource, arity: 1, async: true, valid: fc.constant([{ limit: 2 }]), check: isRecordList },
  'createInMemoryDataSource().listOrganizationsPage': { target: dataSource, arity: 1, async: true, valid: fc.constant([{ after: 'a', limit: 2 }]), check: isRecordList },
  'createInMemoryDataSource().listPractitionersPage': { target: dataSource, arity: 1, async: true, valid: fc.constant([{ limit: 2 }]), check: isRecordList },
  'createInMemoryDataSource().listLocationsPage': { target: dataSource, arity: 1, async: true, valid: fc.constant([{ limit: 2 }]), check: isRecordList },
  ...bulkStoreCalls('createInMemoryBulkJobStore', () => http.createInMemoryBulkJobStore(), 'jobs'),
  ...bulkStoreCalls('createRedisBulkJobStore', () => http.createRedisBulkJobStore({ client: fakeRedisClient() }), 'jobs'),
  ...bulkStoreCalls('createInMemoryBulkOutputStore', () => http.createInMemoryBulkOutputStore(), 'outputs'),
  ...bulkStoreCalls('createRedisBulkOutputStore', () => http.createRedisBulkOutputStore({ client: fakeRedisClient() }), 'outputs'),
  'createInMemoryKeyStore().lookup': { target: () => SHARED_KEYS as unknown as Record<string, unknown>, arity: 1, async: true, valid: fc.string().map((s) => [s]), check: isOptionalRecord },
  'createInMemoryKeyStore().add': {
    target: () => http.createInMemoryKeyStore() as unknown as Record<string, unknown>,
    arity: 1,
    valid: arbKeyEntry.map((e) => [e]),
    check: (r) => expect(r).toBeUndefined(),
  },
  'createInMemoryKeyStore().revoke': { target: () => http.createInMemoryKeyStore() as unknown as Record<string, unknown>, arity: 1, valid: fc.constant(['k']), check: isBoolean },
  'createFixedWindowRateLimiter().consume': {
    target: () => http.createFixedWindowRateLimiter({ now: () => Date.parse(NOW) }) as unknown as Record<string, unknown>,
    arity: 3,
    async: true,
    valid: fc.tuple(fc.string(), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 3600 })),
    check: (r) => {
      isObject(r);
      expect(typeof (r as { allowed: unknown }).allowed).toBe('boolean');
      expect(Number.isFinite((r as { reset: number }).reset)).toBe(true);
    },
  },
  'createFixedWindowRateLimiter().reset': {
    target: () => http.createFixedWindowRateLimiter() as unknown as Record<string, unknown>,
    arity: 1,
    valid: fc.constant(['k']),
    check: (r) => expect(r).toBeUndefined(),
  },
  'createRedisRateLimiter().consume': {
    target: () => http.createRedisRateLimiter({ client: fakeRedisClient() }) as unknown as Record<string, unknown>,
    arity: 3,
    async: true,
    valid: fc.tuple(fc.string(), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 3600 })),
    check: (r) => expect(r).toEqual({ allowed: true, limit: expect.any(Number), remaining: 0, reset: 1_800_000_000, retryAfter: 0 }),
  },
  'createRedisRateLimiter().ping': {
    target: () => http.createRedisRateLimiter({ client: fakeRedisClient() }) as unknown as Record<string, unknown>,
    // It takes no argument; one ignored argument gives the mutations something to change.
    arity: 1,
    async: true,
    valid: fc.constant([undefined]),
    check: (r) => expect(r).toBeUndefined(),
  },
  'createExportMetrics().observer': {
    target: () => SHARED_METRICS as unknown as Record<string, unknown>,
    arity: 1,
    valid: fc.constant([{ requestId: 'r', route: 'exportFhirPatient', method: 'GET', status: 200, durationMs: 1.5, partnerId: undefined }]),
    check: (r) => expect(r).toBeUndefined(),
  },
  'createExportMetrics().onError': {
    target: () => SHARED_METRICS as unknown as Record<string, unknown>,
    arity: 2,
    valid: fc.constant([new http.DataSourceUnavailableError(), { requestId: 'r', route: 'exportHl7Note' }]),
    check: (r) => expect(r).toBeUndefined(),
  },
  // Methods without parameters: called with one ignored argument, which the mutation step needs to act on.
  'createExportMetrics().recordDataSourceTimeout': {
    target: () => SHARED_METRICS as unknown as Record<string, unknown>,
    arity: 1,
    valid: fc.constant([undefined]),
    check: (r) => expect(r).toBeUndefined(),
  },
  'createExportMetrics().render': {
    target: () => SHARED_METRICS as unknown as Record<string, unknown>,
    arity: 1,
    valid: fc.constant([undefined]),
    check: (r) => expect(r).toMatch(/^# HELP chart_export_requests_total [^\n]*\n[^]*\n$/),
  },
  'createExportHandler()': {
    target: () => ({ call: http.createExportHandler({ dataSource: SHARED_SOURCE, keyStore: SHARED_KEYS }) }),
    arity: 1,
    async: true,
    valid: fc.constantFrom('/exportFhirPatient?patientId=pat-0001', '/nowhere', '/publicFhirDirectory?resourceType=Location').map((path) => [new Request(`http://localhost${path}`)]),
    check: (r) => {
      expect(r).toBeInstanceOf(Response);
      expect((r as Response).status).toBeLessThan(500);
    },
  },
};

describe('methods of returned objects', () => {
  it('should cover every method of every returned object', () => {
    const methods = (factory: string, o: object) => Object.keys(o).filter((k) => typeof (o as Record<string, unknown>)[k] === 'function').map((k) => `${factory}().${k}`);
    const listed = [
      ...methods('createInMemoryDataSource', SHARED_SOURCE),
      ...methods('createInMemoryKeyStore', SHARED_KEYS),
      ...methods('createFixedWindowRateLimiter', http.createFixedWindowRateLimiter()),
      ...methods('createRedisRateLimiter', http.createRedisRateLimiter({ client: fakeRedisClient() })),
      ...methods('createExportMetrics', SHARED_METRICS),
      ...methods('createInMemoryBulkJobStore', http.createInMemoryBulkJobStore()),
      ...methods('createRedisBulkJobStore', http.createRedisBulkJobStore({ client: fakeRedisClient() })),
      ...methods('createInMemoryBulkOutputStore', http.createInMemoryBulkOutputStore()),
      ...methods('createRedisBulkOutputStore', http.createRedisBulkOutputStore({ client: fakeRedisClient() })),
      'createExportHandler()',
    ].sort();
    expect(Object.keys(METHOD_CALLS).sort()).toEqual(listed);
  });

  describe.each(Object.entries(METHOD_CALLS))('%s', (name, spec) => {
    const call = (...args: unknown[]): unknown => {
      const target = spec.target();
      const key = name.endsWith('()') ? 'call' : (name.split('.').pop() as string);
      return (target[key] as (...a: unknown[]) => unknown).apply(name.endsWith('()') ? undefined : target, args);
    };
    const asCallSpec: CallSpec = { arity: spec.arity, check: spec.check, ...(spec.async === true ? { async: true as const } : {}) };

    it('should return its documented type or reject with a typed error for garbage arguments', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(arbGarbage, { maxLength: spec.arity }), async (args) => {
          await expectRobust(name, call, asCallSpec, args);
        }),
        { numRuns: runs(GARBAGE_RUNS) },
      );
    });

    it('should return its documented type or reject with a typed error for mutated valid arguments', async () => {
      await fc.assert(
        fc.asyncProperty(spec.valid, arbMutation, async (args, mutation) => {
          await expectRobust(name, call, asCallSpec, args[0] instanceof Request ? args : mutate(args, mutation));
        }),
        { numRuns: runs(MUTATION_RUNS) },
      );
    });
  });
});
