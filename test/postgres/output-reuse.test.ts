/**
 * Output reuse over the PostgreSQL data source (`stableRecords`, src/http/output-reuse.ts): the handler
 * keeps HL7 messages and FHIR Bundles per record object, and the record cache hands out the same frozen object
 * for an unchanged row. Every answer must be the one a fresh handler gives for the rows as they are now: after
 * a row is updated (by the package's writer or by SQL), for a patient, a note, an encounter and every kind of
 * directory record; never another patient's, another key's or another handler's options; and in a property
 * where records change between requests.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkChartDocument, type ChartDocument, type PatientChart } from '../../src/index.js';
import {
  createExportHandler,
  createInMemoryKeyStore,
  loadChartDocument,
  type ExportHandlerOptions,
  type ExportRouteName,
  type InMemoryKeyEntry,
} from '../../src/http/index.js';
import { createPostgresChartWriter, createPostgresDataSource, type PostgresDataSource } from '../../src/postgres/index.js';
import { arbChartDocument } from '../../src/testing/charts.js';
import { routeRequests } from '../http/support/every-route.js';
import { CHART_DOCUMENT, KEYS, OTHER_PATIENT_ID, PATIENT_ID } from '../http/support/fixture.js';
import { fixtureKeys, serve, type Caller } from '../http/support/harness.js';
import { runs } from '../support/runs.js';
import { freshSchema, usePostgres, writeDocument } from './support.js';

const db = usePostgres();
let keys: InMemoryKeyEntry[];

beforeAll(async () => {
  keys = await fixtureKeys();
});

const P = encodeURIComponent(PATIENT_ID);

/** The message code each HL7 route's control id begins with (the builders refuse any other). */
const CONTROL_PREFIX: Partial<Record<ExportRouteName, string>> = {
  exportHl7PatientAdt: 'ADT',
  exportHl7PatientSummary: 'ADR',
  exportHl7Encounter: 'ADT',
  exportHl7Note: 'MDM',
  exportHl7Assessment: 'ORU',
};

/** The clock and the control-id number of the request being answered: both handlers of a comparison share them. */
interface Moment {
  t: number;
  n: number;
}

/** Handler options over `dataSource` whose clock and control ids are `moment`'s. */
function optionsAt(dataSource: ExportHandlerOptions['dataSource'], moment: Moment, extra: Partial<ExportHandlerOptions> = {}): ExportHandlerOptions {
  return {
    dataSource,
    keyStore: createInMemoryKeyStore(keys),
    now: () => moment.t,
    ...extra,
    hl7: {
      sendingApplication: 'CHART-EXPORT',
      sendingFacility: 'RIVERSIDE',
      ...extra.hl7,
      controlId: ({ route }) => `${CONTROL_PREFIX[route] ?? 'X'}${String(moment.n).padStart(8, '0')}`,
    },
  };
}

/** A step of the clock that crosses milliseconds, seconds and days, so kept text for one time is never enough. */
const STEPS = [1, 999, 86_400_007, 0, 3_600_000];

/**
 * A handler over PostgreSQL with output reuse, and `ask(target)`: its answer and that of a handler made afresh
 * for this one request over a source without record cache (no reuse at all), at the same time and control id.
 */
async function reusingPair(schema: string, extra: Partial<ExportHandlerOptions> = {}, dataSource: PostgresDataSource = createPostgresDataSource({ pool: db.pool, schema })) {
  const moment: Moment = { t: Date.UTC(2026, 2, 1, 15, 0, 0, 0), n: 0 };
  const reused = await serve('node', optionsAt(dataSource, moment, extra));
  const ask = async (target: string, key: string = KEYS.both): Promise<{ got: { status: number; body: string }; fresh: { status: number; body: string } }> => {
    moment.t += STEPS[moment.n % STEPS.length] as number;
    moment.n += 1;
    const headers = { 'x-api-key': key, 'x-request-id': 'reuse-1' };
    const got = await reused(target, { headers });
    const handler = createExportHandler(optionsAt(createPostgresDataSource({ pool: db.pool, schema, recordCacheChars: 0 }), moment, extra));
    const response = await handler(new Request(`http://127.0.0.1${target}`, { headers }));
    return { got: { status: got.status, body: got.body }, fresh: { status: response.status, body: await response.text() } };
  };
  return { dataSource, ask, caller: reused as Caller };
}

/** A mutable copy of a chart document. */
function copyOf(doc: ChartDocument): { -readonly [K in keyof ChartDocument]: ChartDocument[K] } {
  return structuredClone(doc) as ChartDocument;
}

/** The SQL that replaces one record's JSON text, by table. */
function updateSql(schema: string, table: string): string {
  const scoped = ['encounters', 'notes', 'assessments', 'medical_history'].includes(table);
  return scoped ? `UPDATE ${schema}.${table} SET record = $3::json WHERE patient_id = $1 AND id = $2` : `UPDATE ${schema}.${table} SET record = $2::json WHERE id = $1`;
}

/** One update of the fixture: which record, what it becomes, which answers must show it. */
interface UpdateCase {
  readonly name: string;
  readonly table: 'patients' | 'encounters' | 'notes' | 'practitioners' | 'locations' | 'organizations';
  readonly id: string;
  /** The new value, found in every answer of `targets` after the update. */
  readonly value: string;
  readonly change: (doc: ReturnType<typeof copyOf>, value: string) => unknown;
  readonly targets: readonly string[];
}

const chartOf = (doc: ReturnType<typeof copyOf>): PatientChart => doc.patients.find((c) => c.patient.id === PATIENT_ID) as PatientChart;
const byId = <T extends { id: string }>(list: readonly T[] | undefined, id: string): T => (list ?? []).find((r) => r.id === id) as T;

const NOTE_2 = [`/exportHl7Note?patientId=${P}&noteId=note-0002`, `/exportFhirNote?patientId=${P}&noteId=note-0002`];
const ENCOUNTER_3 = [`/exportHl7Encounter?patientId=${P}&encounterId=enc-0003`, `/exportFhirEncounter?patientId=${P}&encounterId=enc-0003`];

const UPDATES: readonly UpdateCase[] = [
  {
    name: 'a patient',
    table: 'patients',
    id: PATIENT_ID,
    value: 'Zedwick',
    change: (doc, value) => (chartOf(doc).patient.names = [{ family: value, given: ['Ana'] }]),
    targets: [`/exportFhirPatient?patientId=${P}`, `/exportHl7PatientAdt?patientId=${P}`, `/exportFhirPatientBundle?patientId=${P}`, ...NOTE_2],
  },
  {
    name: 'a note',
    table: 'notes',
    id: 'note-0002',
    value: 'Changed plan text',
    change: (doc, value) => (byId(chartOf(doc).notes, 'note-0002').text = value),
    targets: NOTE_2,
  },
  {
    name: 'an encounter',
    table: 'encounters',
    id: 'enc-0003',
    value: 'Changed diagnosis',
    change: (doc, value) => {
      const encounter = byId(chartOf(doc).encounters, 'enc-0003');
      encounter.diagnoses = (encounter.diagnoses ?? []).map((d) => ({ ...d, code: { ...d.code, display: value } }));
    },
    targets: [...ENCOUNTER_3, `/exportFhirPatientBundle?patientId=${P}`],
  },
  {
    name: 'a practitioner',
    table: 'practitioners',
    id: 'prac-001',
    value: 'Okonkwo',
    change: (doc, value) => (byId(doc.directory?.practitioners, 'prac-001').names = [{ family: value, given: ['Adaeze'] }]),
    targets: [...NOTE_2, ...ENCOUNTER_3],
  },
  {
    name: 'a location',
    table: 'locations',
    id: 'loc-001',
    value: 'Harbor Clinic',
    change: (doc, value) => (byId(doc.directory?.locations, 'loc-001').name = value),
    targets: ENCOUNTER_3,
  },
  {
    name: 'an organization',
    table: 'organizations',
    id: 'org-002',
    value: 'Harbor Behavioral Health',
    change: (doc, value) => (byId(doc.directory?.organizations, 'org-002').name = value),
    targets: [`/exportFhirEncounter?patientId=${P}&encounterId=enc-0003`],
  },
];

/** The record `table`/`id` of `doc`, for an SQL update. */
function recordIn(doc: ReturnType<typeof copyOf>, table: UpdateCase['table'], id: string): unknown {
  if (table === 'patients') return chartOf(doc).patient;
  if (table === 'encounters') return byId(chartOf(doc).encounters, id);
  if (table === 'notes') return byId(chartOf(doc).notes, id);
  return byId<{ id: string }>((doc.directory ?? {})[table], id);
}

describe('output reuse over PostgreSQL: a row updated', () => {
  for (const update of UPDATES) {
    for (const via of ['writer', 'sql'] as const) {
      it(`should answer from the new row at once when ${update.name} is updated by ${via === 'writer' ? 'the chart writer' : 'SQL'}`, async () => {
        // Arrange: every target asked three times (built, proven, reused), each answer the fresh handler's.
        const schema = freshSchema('upd');
        await writeDocument(db.pool, schema, CHART_DOCUMENT);
        const { ask } = await reusingPair(schema);
        for (let i = 0; i < 3; i++) {
          for (const target of update.targets) {
            const { got, fresh } = await ask(target);
            expect(got.status, target).toBe(200);
            expect(got.body, target).toBe(fresh.body);
            expect(got.body).not.toContain(update.value);
          }
        }
        // Act
        const doc = copyOf(CHART_DOCUMENT);
        update.change(doc, update.value);
        expect(checkChartDocument(doc)).toEqual([]);
        if (via === 'writer') {
          const writer = createPostgresChartWriter({ pool: db.pool, schema });
          if (update.table === 'patients' || update.table === 'encounters' || update.table === 'notes') await writer.writePatientCharts([chartOf(doc)]);
          else await writer.writeDirectory(doc.directory ?? {});
        } else {
          const text = JSON.stringify(recordIn(doc, update.table, update.id));
          const values = update.table === 'encounters' || update.table === 'notes' ? [PATIENT_ID, update.id, text] : [update.id, text];
          expect((await db.pool.query(updateSql(schema, update.table), values)).rowCount).toBe(1);
        }
        // Assert: the very next answer shows the new value, as a fresh handler's does, and so do later ones.
        for (let i = 0; i < 2; i++) {
          for (const target of update.targets) {
            const { got, fresh } = await ask(target);
            expect(got.status, target).toBe(200);
            expect(got.body, target).toBe(fresh.body);
            expect(got.body, target).toContain(update.value);
          }
        }
      });
    }
  }
});

describe('output reuse over PostgreSQL: never across records, keys or options', () => {
  it('should keep two patients apart when their notes and encounters are the same text (the same cached object)', async () => {
    // Arrange: a second patient with the first one's encounter and note, byte for byte.
    const doc = copyOf(CHART_DOCUMENT);
    const first = chartOf(doc);
    const twin = doc.patients.find((c) => c.patient.id === OTHER_PATIENT_ID) as PatientChart;
    twin.encounters = [byId(first.encounters, 'enc-0003')];
    twin.notes = [byId(first.notes, 'note-0002')];
    twin.assessments = [];
    const schema = freshSchema('twin');
    await writeDocument(db.pool, schema, loadChartDocument(doc));
    const { ask, dataSource } = await reusingPair(schema);
    const Q = encodeURIComponent(OTHER_PATIENT_ID);
    expect(await dataSource.getNote(OTHER_PATIENT_ID, 'note-0002')).toBe(await dataSource.getNote(PATIENT_ID, 'note-0002'));
    const targets = [...NOTE_2, ...ENCOUNTER_3].flatMap((t) => [t, t.replace(`patientId=${P}`, `patientId=${Q}`)]);
    // Act + Assert: alternating between the patients, each answer is the fresh handler's and names its patient.
    for (let i = 0; i < 3; i++) {
      for (const target of targets) {
        const { got, fresh } = await ask(target);
        expect(got.status, target).toBe(200);
        expect(got.body, target).toBe(fresh.body);
        expect(got.body, target).toContain(target.includes(Q) ? 'Nguyen' : 'Quintero');
      }
    }
  });

  it('should refuse keys without access after an answer was kept, and answer another partner with its own request', async () => {
    const schema = freshSchema('keys');
    await writeDocument(db.pool, schema, CHART_DOCUMENT);
    const { ask } = await reusingPair(schema);
    const [hl7, fhir] = NOTE_2 as [string, string];
    for (let i = 0; i < 3; i++) expect((await ask(hl7)).got.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await ask(fhir)).got.status).toBe(200);
    // Act + Assert
    expect((await ask(hl7, KEYS.fhirOnly)).got.status).toBe(403);
    expect((await ask(fhir, KEYS.hl7Only)).got.status).toBe(403);
    expect((await ask(hl7, KEYS.revoked)).got.status).toBe(401);
    expect((await ask(fhir, 'not-a-key-0123456789abcdef0123')).got.status).toBe(401);
    for (const [target, key] of [
      [hl7, KEYS.hl7Only],
      [fhir, KEYS.fhirOnly],
    ] as const) {
      const { got, fresh } = await ask(target, key);
      expect(got.status).toBe(200);
      expect(got.body).toBe(fresh.body);
    }
  });

  it("should give each handler over one data source its own options' output", async () => {
    // Arrange: two handlers over the same source (so the same record objects), with other HL7 and FHIR options.
    const schema = freshSchema('opts');
    await writeDocument(db.pool, schema, CHART_DOCUMENT);
    const shared: PostgresDataSource = createPostgresDataSource({ pool: db.pool, schema });
    const one = await reusingPair(schema, { hl7: { sendingFacility: 'NORTH' } }, shared);
    const other = await reusingPair(schema, { hl7: { sendingFacility: 'SOUTH' }, fhir: { baseUrl: 'https://fhir.example.org/r4' } }, shared);
    const targets = [...NOTE_2, ...ENCOUNTER_3, `/exportFhirPatient?patientId=${P}`, `/exportHl7PatientAdt?patientId=${P}`];
    // Act + Assert
    for (let i = 0; i < 3; i++) {
      for (const target of targets) {
        for (const [pair, facility] of [
          [one, 'NORTH'],
          [other, 'SOUTH'],
        ] as const) {
          const { got, fresh } = await pair.ask(target);
          expect(got.status, target).toBe(200);
          expect(got.body, target).toBe(fresh.body);
          if (target.includes('Hl7')) expect(got.body.split('|')[3], target).toBe(facility);
          else expect(got.body.includes('https://fhir.example.org/r4/'), target).toBe(pair === other);
        }
      }
    }
  });

  it('should build afresh from records too long for its record cache (handed out unfrozen), and answer alike', async () => {
    const schema = freshSchema('long');
    await writeDocument(db.pool, schema, CHART_DOCUMENT);
    const small = createPostgresDataSource({ pool: db.pool, schema, recordCacheChars: 64 });
    expect(Object.isFrozen(await small.getNote(PATIENT_ID, 'note-0002'))).toBe(false);
    const { ask } = await reusingPair(schema, {}, small);
    for (let i = 0; i < 3; i++) {
      for (const target of [...NOTE_2, `/exportFhirPatient?patientId=${P}`]) {
        const { got, fresh } = await ask(target);
        expect(got.status, target).toBe(200);
        expect(got.body, target).toBe(fresh.body);
      }
    }
  });

  it('should declare stable records only with its record cache on', () => {
    expect(createPostgresDataSource({ pool: db.pool, schema: 'x' }).stableRecords).toBe(true);
    expect(createPostgresDataSource({ pool: db.pool, schema: 'x', recordCacheChars: 0 }).stableRecords).toBe(false);
  });
});

/** What a step of the property does: ask a target three times, or change one record by the writer or by SQL. */
interface Step {
  readonly kind: 'ask' | 'patient' | 'note' | 'encounter' | 'practitioner' | 'location' | 'organization';
  readonly pick: number;
  readonly word: string;
  readonly via: 'writer' | 'sql';
}

const arbStep: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom<Step['kind']>('ask', 'ask', 'ask', 'patient', 'note', 'encounter', 'practitioner', 'location', 'organization'),
  pick: fc.nat(),
  word: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,11}$/),
  via: fc.constantFrom<Step['via']>('writer', 'sql'),
});

/** Apply a change step to `doc` and to the database; nothing when the document has no such record. */
async function applyChange(schema: string, doc: ReturnType<typeof copyOf>, step: Step): Promise<void> {
  const chart = doc.patients[step.pick % doc.patients.length] as PatientChart;
  const directory = doc.directory ?? {};
  let table: UpdateCase['table'];
  let record: { id: string } | undefined;
  if (step.kind === 'patient') [table, record] = ['patients', Object.assign(chart.patient, { names: [{ family: step.word }] })];
  else if (step.kind === 'note') [table, record] = ['notes', chart.notes?.[step.pick % Math.max(1, chart.notes.length)]];
  else if (step.kind === 'encounter') [table, record] = ['encounters', chart.encounters?.[step.pick % Math.max(1, chart.encounters.length)]];
  else if (step.kind === 'practitioner') [table, record] = ['practitioners', directory.practitioners?.[step.pick % Math.max(1, directory.practitioners.length)]];
  else if (step.kind === 'location') [table, record] = ['locations', directory.locations?.[step.pick % Math.max(1, directory.locations.length)]];
  else [table, record] = ['organizations', directory.organizations?.[step.pick % Math.max(1, directory.organizations.length)]];
  if (record === undefined) return;
  if (step.kind === 'note') Object.assign(record, { text: step.word });
  if (step.kind === 'encounter') Object.assign(record, { reason: step.word });
  if (step.kind === 'practitioner') Object.assign(record, { names: [{ family: step.word }] });
  if (step.kind === 'location' || step.kind === 'organization') Object.assign(record, { name: step.word });
  expect(checkChartDocument(doc)).toEqual([]);
  if (step.via === 'writer') {
    const writer = createPostgresChartWriter({ pool: db.pool, schema });
    if (table === 'patients' || table === 'notes' || table === 'encounters') await writer.writePatientCharts([chart]);
    else await writer.writeDirectory(directory);
    return;
  }
  const scoped = table === 'notes' || table === 'encounters';
  const text = JSON.stringify(record);
  await db.pool.query(updateSql(schema, table), scoped ? [chart.patient.id, record.id, text] : [record.id, text]);
}

describe('output reuse over PostgreSQL: records changing between requests', () => {
  it('should give every answer a fresh handler gives for the rows as they are at that request', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbChartDocument({ mappable: true, maxPatients: 2 }).filter((d) => checkChartDocument(d).length === 0),
        fc.array(arbStep, { minLength: 4, maxLength: 16 }),
        async (generated, steps) => {
          const doc = copyOf(loadChartDocument(generated));
          const schema = freshSchema('chg');
          await writeDocument(db.pool, schema, doc, 2);
          try {
            const { ask } = await reusingPair(schema);
            const targets = routeRequests(doc).map((r) => r.target);
            const compare = async (target: string): Promise<void> => {
              const { got, fresh } = await ask(target);
              expect(got.status, target).toBe(fresh.status);
              expect(got.body, target).toBe(fresh.body);
            };
            // Targets asked so far: after each change, each is asked again (where a kept answer would go stale).
            const asked = new Set<string>();
            for (const step of steps) {
              if (step.kind === 'ask') {
                const target = targets[step.pick % targets.length] as string;
                asked.add(target);
                for (let i = 0; i < 3; i++) await compare(target);
                continue;
              }
              await applyChange(schema, doc, step);
              for (const target of asked) await compare(target);
            }
          } finally {
            await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
          }
        },
      ),
      { numRuns: runs(6), endOnFailure: true },
    );
  });
});
