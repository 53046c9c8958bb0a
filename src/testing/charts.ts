/**
 * Arbitraries for whole charts and chart documents, with references that resolve.
 */
import fc from 'fast-check';
import type { AssessmentInstrument, ChartDocument, Directory, PatientChart } from '../index.js';
import { arbAssessment, arbInstrument, GAD7_INSTRUMENT_NO_ITEMS, PHQ9_INSTRUMENT_NO_ITEMS } from './assessments.js';
import type { YearRange } from './dates.js';
import { arbDirectory, type DirectoryOptions } from './directories.js';
import { arbEncounter } from './encounters.js';
import type { TextMode } from './fragments.js';
import { arbMedicalHistoryEntry } from './history-entries.js';
import { GAD7_INSTRUMENT, PHQ9_INSTRUMENT } from './instruments.js';
import { clampToNm, numberForNm } from './internal/nm.js';
import { compact, opt } from './internal/util.js';
import { arbNote } from './notes.js';
import { arbPatient } from './people.js';

/** Options of {@link arbPatientChart} and {@link arbChartDocument}. Defaults keep property tests fast. */
export interface ChartOptions {
  /** Text mode of free-text fields (default mixed). */
  text?: TextMode | undefined;
  /** Id mode (default: the text mode). Use `'realistic'` when ids go into URLs. */
  ids?: TextMode | undefined;
  /** Year range of dates (default: realistic for realistic text, else mixed). */
  years?: YearRange | undefined;
  /** Encounters: min (default 0) and max (default 3). */
  minEncounters?: number | undefined;
  maxEncounters?: number | undefined;
  /** Notes: min (default 0) and max (default 3). */
  minNotes?: number | undefined;
  maxNotes?: number | undefined;
  /** Assessments: min (default 0) and max (default 2). */
  minAssessments?: number | undefined;
  maxAssessments?: number | undefined;
  /** Medical-history entries: min (default 0) and max (default 3). */
  minHistory?: number | undefined;
  maxHistory?: number | undefined;
  /** Per encounter: max diagnoses (default 3) and procedures (default 2). */
  maxDiagnoses?: number | undefined;
  maxProcedures?: number | undefined;
  /** Max items / answers of generated instruments (default 6). */
  maxItems?: number | undefined;
  /** Max coverages (default 3). */
  maxCoverages?: number | undefined;
  /** Let note text sometimes be up to 100 KB (default false; slow, use with few runs). */
  longNotes?: boolean | undefined;
  /** Use this directory instead of generating one. */
  directory?: Directory | undefined;
  /** Options of the generated directory (ignored with `directory`). */
  directoryOptions?: DirectoryOptions | undefined;
  /**
   * Also make references that point outside the directory and outside the chart (missing encounter,
   * practitioner, location). Such charts are valid as bare charts given to a builder, not in a document.
   * Default false.
   */
  danglingReferences?: boolean | undefined;
  /**
   * Round every number answer and score to the value an HL7 NM value sends for it (at most 16 characters),
   * so that FHIR and HL7 carry the same number. Everything generated is valid and exportable in every mode:
   * procedures always have a date (their own or the encounter's start), numbers are within NM's range, ids
   * have no control characters, ranks and orders are within 1…2147483647, organizations have no `home` uses.
   * Default false.
   */
  mappable?: boolean | undefined;
}

/** Options of {@link arbChartDocument}. */
export interface DocumentOptions extends ChartOptions {
  /** Fewest patients (default 1). */
  minPatients?: number | undefined;
  /** Most patients (default 3). */
  maxPatients?: number | undefined;
  /** Leave the directory out of the document (charts then refer to no directory entry). */
  omitDirectory?: boolean | undefined;
}

/**
 * A chart together with the directory its references resolve against.
 * @example const { chart, directory }: ChartWithDirectory = fc.sample(patientChart(), 1)[0]!;
 */
export interface ChartWithDirectory {
  /** One patient's chart. */
  chart: PatientChart;
  /** The directory the chart's practitioner, location and organization references resolve to. */
  directory: Directory;
}

const idsOf = (list: readonly { id: string }[] | undefined): string[] => (list ?? []).map((x) => x.id);

/** A chart's instrument pool: instrument ids are unique, so one id always means one definition. */
function arbInstrumentPool(opts: ChartOptions, mode: TextMode): fc.Arbitrary<AssessmentInstrument[]> {
  return fc
    .tuple(
      fc.subarray([PHQ9_INSTRUMENT, GAD7_INSTRUMENT, PHQ9_INSTRUMENT_NO_ITEMS, GAD7_INSTRUMENT_NO_ITEMS]),
      fc.array(arbInstrument({ text: mode, ids: opts.ids ?? mode, maxItems: opts.maxItems ?? 6 }), { maxLength: 2 }),
    )
    .map(([standard, generated]) => {
      const seen = new Set(standard.map((i) => i.id));
      const pool = [...standard];
      for (const g of generated) {
        if (!seen.has(g.id)) pool.push(g);
        seen.add(g.id);
      }
      // Never empty: with no pool, each assessment would draw an instrument of its own, and two generated ones
      // could share an id with different definitions (a chart the check rightly refuses).
      return pool.length > 0 ? pool : [PHQ9_INSTRUMENT];
    });
}

/**
 * One patient's chart and its directory, both passing the chart check in every mode. Record ids are unique
 * per kind (and diagnosis/procedure ids per encounter, linkIds per instrument and assessment); every
 * `locationId`, `practitionerId`, `performerId`, `authorId` resolves to the directory and every
 * `encounterId` to the chart's own encounters, unless `danglingReferences` is set. Instruments with the
 * same id are the same definition. Every export of the chart succeeds; `mappable: true` also rounds
 * numbers to what HL7 NM sends (see {@link ChartOptions.mappable}).
 * @param opts - sizes, text/id modes, directory, dangling references, mappable
 * @returns `{ chart, directory }`
 * @example fc.assert(fc.property(arbPatientChart({ maxEncounters: 2 }), ({ chart, directory }) => …))
 */
export function arbPatientChart(opts: ChartOptions = {}): fc.Arbitrary<ChartWithDirectory> {
  const directory = opts.directory !== undefined ? fc.constant(opts.directory) : arbDirectory({ text: opts.text ?? 'mixed', ids: opts.ids ?? opts.text ?? 'mixed', ...opts.directoryOptions });
  return directory.chain((dir) => arbChartFor(dir, opts).map((chart) => ({ chart, directory: dir })));
}

/**
 * A chart whose references resolve against `directory` (see {@link arbPatientChart}).
 * @param directory - the directory the references point into
 * @param opts - sizes, text/id modes, dangling references
 */
export function arbChartFor(directory: Directory, opts: ChartOptions = {}): fc.Arbitrary<PatientChart> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  const dangling = opts.danglingReferences === true;
  const practitionerIds = idsOf(directory.practitioners);
  const locationIds = idsOf(directory.locations);
  const base = { text: mode, ids: idMode, years, practitionerIds, locationIds, danglingReferences: dangling, mappable: opts.mappable === true };
  const list = <T extends { id: string }>(arb: fc.Arbitrary<T>, min: number | undefined, max: number | undefined, def: number): fc.Arbitrary<T[] | undefined> => {
    const minLength = min ?? 0;
    const arr = fc.uniqueArray(arb, { minLength, maxLength: Math.max(max ?? def, minLength), selector: (x) => x.id });
    return minLength > 0 ? arr : opt(arr, 4);
  };
  return fc
    .tuple(
      arbPatient({ text: mode, ids: idMode, years, maxCoverages: opts.maxCoverages ?? 3 }),
      list(arbEncounter({ ...base, maxDiagnoses: opts.maxDiagnoses ?? 3, maxProcedures: opts.maxProcedures ?? 2 }), opts.minEncounters, opts.maxEncounters, 3),
      arbInstrumentPool(opts, mode),
    )
    .chain(([patient, encounters, instruments]) => {
      const rec = { ...base, encounterIds: idsOf(encounters) };
      return fc
        .record({
          notes: list(arbNote({ ...rec, longText: opts.longNotes === true }), opts.minNotes, opts.maxNotes, 3),
          assessments: list(arbAssessment({ ...rec, maxItems: opts.maxItems ?? 6, instruments }), opts.minAssessments, opts.maxAssessments, 2),
          medicalHistory: list(arbMedicalHistoryEntry(rec), opts.minHistory, opts.maxHistory, 3),
        })
        .map((r): PatientChart => compact({ patient: payersApartFrom(patient, directory), encounters, ...r }))
        .map((chart) => (opts.mappable === true ? fitNumbersForHl7(chart) : chart));
    });
}

/**
 * The patient with every payer whose id is one of the directory's organization ids renamed (the same new id
 * for the same old one, so payers that share an id stay one payer): both become FHIR Organizations named by
 * their ids, and the check refuses one id for two organizations.
 */
function payersApartFrom(patient: PatientChart['patient'], directory: Directory): PatientChart['patient'] {
  const orgIds = new Set((directory.organizations ?? []).map((o) => o.id));
  const coverages = patient.coverages;
  if (coverages === undefined || !coverages.some((c) => orgIds.has(c.payer.id))) return patient;
  const renamed = (id: string): string => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
    return `payer-${hash.toString(16)}`;
  };
  return {
    ...patient,
    coverages: coverages.map((c) => (orgIds.has(c.payer.id) ? { ...c, payer: { ...c.payer, id: renamed(c.payer.id) } } : c)),
  };
}

/**
 * A copy of the chart that every HL7 builder can send and read back exactly: every number answer and score is
 * one HL7 NM carries as it is (see {@link numberForNm}). Objects keep their prototypes.
 */
function fitNumbersForHl7<T>(value: T, key?: string): T {
  if (Array.isArray(value)) return value.map((v: unknown) => fitNumbersForHl7(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  const source = value as Record<string, unknown>;
  // A number answer value (`{ type: 'decimal' | 'integer', value }`) and an assessment's score (`score: { value }`).
  const isNumber = (source['type'] === 'decimal' || source['type'] === 'integer' || key === 'score') && typeof source['value'] === 'number';
  for (const k of Object.keys(source)) {
    const v = source[k];
    out[k] = isNumber && k === 'value' ? clampToNm(numberForNm(v as number)) : fitNumbersForHl7(v, k);
  }
  return out as T;
}

/**
 * `min`–`max` charts with unique patient ids. For one or more, the list is drawn from zero up and an empty
 * draw becomes one chart of its own: fast-check shrinks an array by dropping its first items and cannot go
 * below `minLength`, so with `minLength: 1` a failing second chart would keep the first one beside it.
 */
function arbCharts(directory: Directory, opts: ChartOptions, min: number, max: number): fc.Arbitrary<PatientChart[]> {
  const selector = (c: PatientChart): string => c.patient.id;
  const upTo = Math.max(max, min);
  if (min > 1) return fc.uniqueArray(arbChartFor(directory, opts), { minLength: min, maxLength: upTo, selector });
  const list = fc.uniqueArray(arbChartFor(directory, opts), { maxLength: upTo, selector });
  if (min < 1) return list;
  return fc.tuple(list, arbChartFor(directory, opts)).map(([charts, alone]) => (charts.length > 0 ? charts : [alone]));
}

/**
 * A chart document: 1–`maxPatients` charts (default 3) with unique patient ids, all referring to one
 * shared directory, so that `checkChartDocument` finds nothing. `danglingReferences` is ignored (a
 * document requires every reference to resolve).
 * @param opts - chart options plus `minPatients` / `maxPatients`
 */
export function arbChartDocument(opts: DocumentOptions = {}): fc.Arbitrary<ChartDocument> {
  const mode = opts.text ?? 'mixed';
  const chartOpts: ChartOptions = { ...opts, danglingReferences: false };
  const directory = opts.directory !== undefined ? fc.constant(opts.directory) : arbDirectory({ text: mode, ids: opts.ids ?? mode, ...opts.directoryOptions });
  return directory.chain((dir) => {
    // Without a directory in the document, charts may not reference it at all.
    const refDir = opts.omitDirectory === true ? {} : dir;
    return arbCharts(refDir, chartOpts, opts.minPatients ?? 1, opts.maxPatients ?? 3).map((patients): ChartDocument =>
      opts.omitDirectory === true ? { patients } : { patients, directory: dir },
    );
  });
}
