/**
 * What the service command prints at start: the address, the keys and one `curl` line per endpoint with real
 * ids from the loaded chart. Pure functions, so tests can check the lines without starting a server.
 */
import type { ChartDocument, DirectoryResourceType } from '../index.js';

/** Ids of one patient's records to put in the sample requests. */
export interface SampleIds {
  /** The patient. */
  readonly patientId: string;
  /** One of the patient's encounters, when there is one. */
  readonly encounterId: string | undefined;
  /** One of the patient's notes, when there is one. */
  readonly noteId: string | undefined;
  /** One of the patient's assessments, when there is one. */
  readonly assessmentId: string | undefined;
  /** A directory resource type that has records (Practitioner when the directory is empty). */
  readonly directoryType: DirectoryResourceType;
  /** How many records of that type the directory holds. */
  readonly directoryCount: number;
}

/**
 * Pick the sample ids: the first patient that has an encounter, a note and an assessment, or else the
 * patient with the most of the three kinds (the first such one).
 *
 * @param document - the served chart document
 * @returns the ids, or `undefined` for a document without patients
 * @throws never
 * @example pickSampleIds(doc)?.patientId // 'pat-0001'
 */
export function pickSampleIds(document: ChartDocument): SampleIds | undefined {
  let best: (typeof document.patients)[number] | undefined;
  let bestScore = -1;
  for (const chart of document.patients) {
    const score = [chart.encounters, chart.notes, chart.assessments].filter((list) => list !== undefined && list.length > 0).length;
    if (score > bestScore) {
      best = chart;
      bestScore = score;
      if (score === 3) break;
    }
  }
  if (best === undefined) return undefined;
  const dir = document.directory;
  const directoryType: DirectoryResourceType =
    (dir?.practitioners?.length ?? 0) > 0
      ? 'Practitioner'
      : (dir?.organizations?.length ?? 0) > 0
        ? 'Organization'
        : (dir?.locations?.length ?? 0) > 0
          ? 'Location'
          : 'Practitioner';
  const counts = { Practitioner: dir?.practitioners?.length, Organization: dir?.organizations?.length, Location: dir?.locations?.length };
  return {
    directoryCount: counts[directoryType] ?? 0,
    patientId: best.patient.id,
    encounterId: best.encounters?.[0]?.id,
    noteId: best.notes?.[0]?.id,
    assessmentId: best.assessments?.[0]?.id,
    directoryType,
  };
}

/** How a sample request presents its key: a literal (demo or session key) or a shell variable the user sets. */
export type SampleKey = { readonly literal: string } | { readonly variable: string };

/** The keys the samples use, per scope, plus the keys of the deliberate failures (demo only). */
export interface SampleKeys {
  /** Key with `fhir:export`. */
  readonly fhir: SampleKey;
  /** Key with `hl7:export`. */
  readonly hl7: SampleKey;
  /** Demo only: a revoked key, a FHIR-only key (for 403 on an HL7 route) and a key with a tiny rate limit. */
  readonly failures?: { readonly revoked: string; readonly fhirOnly: string; readonly limited: string; readonly limit: number };
}

/** One printed sample request. */
export interface CurlSample {
  /** Route name, e.g. `exportFhirPatient`. */
  readonly route: string;
  /** What it shows. */
  readonly description: string;
  /** Full URL. */
  readonly url: string;
  /** Request headers (the key as printed: a literal, or `$VARIABLE`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The status it answers: 200, or the error it demonstrates. */
  readonly expectedStatus: number;
  /** How many times the line sends the request (the rate-limit demo sends limit + 1). */
  readonly repeat: number;
  /** The shell command line. */
  readonly command: string;
}

const FHIR_ACCEPT = 'application/fhir+json';
const HL7_ACCEPT = 'application/hl7-v2';

/**
 * Quote a string for POSIX shells: single quotes, each `'` written as `'\''`.
 * @param value - any string
 * @returns the quoted word
 * @throws never
 * @example shellQuote("it's") // `'it'\''s'`
 */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

function keyHeader(key: SampleKey): string {
  return 'literal' in key ? key.literal : `$${key.variable}`;
}

function keyArgument(key: SampleKey): string {
  // A variable needs double quotes to expand; a literal goes in single quotes.
  return 'literal' in key ? shellQuote(`x-api-key: ${key.literal}`) : `"x-api-key: $${key.variable}"`;
}

function query(params: Readonly<Record<string, string | number>>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
}

/**
 * Build the sample requests: one per endpoint whose ids exist in the data, then (with demo keys) the three
 * deliberate failures: 401 revoked key, 403 wrong scope, 429 rate limit.
 *
 * @param origin - `http://host:port` as a client reaches it
 * @param basePath - the routes' prefix (`''` for none)
 * @param ids - the sample ids
 * @param keys - the keys to present
 * @returns the samples, in route order
 * @throws never
 * @example buildCurlSamples('http://127.0.0.1:8080', '', ids, { fhir: { literal: 'k' }, hl7: { literal: 'k' } })[0].route // 'exportFhirPatient'
 */
export function buildCurlSamples(origin: string, basePath: string, ids: SampleIds, keys: SampleKeys): CurlSample[] {
  const samples: CurlSample[] = [];
  const add = (
    route: string,
    description: string,
    params: Readonly<Record<string, string | number>>,
    format: 'fhir' | 'hl7' | 'public',
    options: { key?: SampleKey; expectedStatus?: number; repeat?: number } = {},
  ): void => {
    const url = `${origin}${basePath}/${route}?${query(params)}`;
    const accept = format === 'hl7' ? HL7_ACCEPT : FHIR_ACCEPT;
    const key = options.key ?? (format === 'fhir' ? keys.fhir : format === 'hl7' ? keys.hl7 : undefined);
    const headers: Record<string, string> = {};
    const args: string[] = [];
    if (key !== undefined) {
      headers['x-api-key'] = keyHeader(key);
      args.push('-H', keyArgument(key));
    }
    headers['accept'] = accept;
    args.push('-H', shellQuote(`Accept: ${accept}`), shellQuote(url));
    const expectedStatus = options.expectedStatus ?? 200;
    const repeat = options.repeat ?? 1;
    let command: string;
    // HL7 v2 ends segments with CR only, which a terminal shows as lines overwriting each other.
    const display = format === 'hl7' && expectedStatus === 200 ? ` | tr '\\r' '\\n'` : '';
    if (repeat > 1) {
      const counter = Array.from({ length: repeat }, (_, i) => i + 1).join(' ');
      command = `for i in ${counter}; do curl -sS -o /dev/null -w '%{http_code}\\n' ${args.join(' ')}; done`;
    } else {
      command = `curl -sS ${expectedStatus === 200 ? '' : '-i '}${args.join(' ')}${display}`;
    }
    samples.push({ route, description, url, headers, expectedStatus, repeat, command });
  };

  const p = { patientId: ids.patientId };
  add('exportFhirPatient', 'Patient, Coverage and payer as a FHIR Bundle', p, 'fhir');
  add('exportFhirPatientBundle', 'longitudinal FHIR Bundle, 2 records of each kind', { ...p, encounterLimit: 2, noteLimit: 2, assessmentLimit: 2, medicalHistoryLimit: 2 }, 'fhir');
  if (ids.encounterId !== undefined) add('exportFhirEncounter', 'Encounter with its Conditions and Procedures', { ...p, encounterId: ids.encounterId }, 'fhir');
  if (ids.noteId !== undefined) add('exportFhirNote', 'Composition and DocumentReference', { ...p, noteId: ids.noteId }, 'fhir');
  if (ids.assessmentId !== undefined) add('exportFhirAssessment', 'QuestionnaireResponse (and Questionnaire)', { ...p, assessmentId: ids.assessmentId }, 'fhir');
  add('publicFhirDirectory', `public directory, no key: ${ids.directoryType} searchset`, { resourceType: ids.directoryType, limit: 5 }, 'public');
  add('exportHl7PatientAdt', 'ADT^A31 demographics', p, 'hl7');
  add('exportHl7PatientSummary', 'ADR^A19 longitudinal summary, 5 records', { ...p, limit: 5 }, 'hl7');
  if (ids.encounterId !== undefined) add('exportHl7Encounter', 'ADT^A08 encounter', { ...p, encounterId: ids.encounterId }, 'hl7');
  if (ids.noteId !== undefined) add('exportHl7Note', 'MDM^T02 note', { ...p, noteId: ids.noteId }, 'hl7');
  if (ids.assessmentId !== undefined) add('exportHl7Assessment', 'ORU^R01 assessment', { ...p, assessmentId: ids.assessmentId }, 'hl7');

  const f = keys.failures;
  if (f !== undefined) {
    add('exportFhirPatient', '401: a revoked key', p, 'fhir', { key: { literal: f.revoked }, expectedStatus: 401 });
    add('exportHl7PatientAdt', '403: a FHIR-only key on an HL7 route', p, 'hl7', { key: { literal: f.fhirOnly }, expectedStatus: 403 });
    add('exportHl7PatientAdt', `429: a key limited to ${f.limit} requests per minute, sent ${f.limit + 1} times`, p, 'hl7', {
      key: { literal: f.limited },
      expectedStatus: 429,
      repeat: f.limit + 1,
    });
  }
  return samples;
}

/**
 * The paging example of the banner: two shell lines that read the first page of the public directory (two
 * records) and follow its `Bundle.link` `next` URL to the second. Neither starts with `curl `, so they are not
 * taken for one of the per-route samples.
 *
 * @param origin - `http://host:port` as a client reaches it
 * @param basePath - the routes' prefix (`''` for none)
 * @param resourceType - a directory type with at least three records, so that there is a next page
 * @returns the lines, for `sh`
 * @throws never
 * @example buildPagingSample('http://127.0.0.1:8080', '', 'Practitioner')[0].startsWith('page=$(curl') // true
 */
export function buildPagingSample(origin: string, basePath: string, resourceType: DirectoryResourceType): string[] {
  const first = shellQuote(`${origin}${basePath}/publicFhirDirectory?${query({ resourceType, _count: 2 })}`);
  return [
    `page=$(curl -sS ${first}); echo "$page"`,
    `next=$(printf '%s' "$page" | sed -nE 's/.*"relation":"next","url":"([^"]*)".*/\\1/p'); curl -sS "$next"; echo`,
  ];
}

/**
 * The Bulk Data example of the banner: three shell lines that kick off a patient-level export, poll its status
 * URL until the manifest is there (202 while running, `Retry-After: 2`), and fetch the first file of it. None
 * starts with `curl `, so they are not taken for one of the per-route samples.
 *
 * @param origin - `http://host:port` as a client reaches it
 * @param basePath - the routes' prefix (`''` for none)
 * @param key - a key with `fhir:export`
 * @returns the lines, for `sh`
 * @throws never
 * @example buildBulkSample('http://127.0.0.1:8080', '', { literal: 'k' })[0].startsWith('status=$(curl') // true
 */
export function buildBulkSample(origin: string, basePath: string, key: SampleKey): string[] {
  const auth = keyArgument(key);
  const kickOff = shellQuote(`${origin}${basePath}/Patient/$export`);
  return [
    `status=$(curl -sS -o /dev/null -D - -H ${auth} -H 'Accept: application/fhir+json' -H 'Prefer: respond-async' ${kickOff} | tr -d '\\r' | sed -n 's/^[Cc]ontent-[Ll]ocation: //p'); echo "$status"`,
    `m=$(mktemp); while [ "$(curl -sS -o "$m" -w '%{http_code}' -H ${auth} "$status")" = 202 ]; do sleep 2; done; cat "$m"; echo`,
    `file=$(sed -E 's/.*"output":\\[\\{"type":"[^"]*","url":"([^"]*)".*/\\1/' "$m"); curl -sS -H ${auth} "$file" | head -n 2`,
  ];
}

/**
 * The origin clients use for a listening address: a wildcard address becomes loopback, IPv6 gets brackets.
 * @param host - the address listened on
 * @param port - the port taken
 * @returns e.g. `http://127.0.0.1:8080`
 * @throws never
 * @example clientOrigin('0.0.0.0', 8080) // 'http://127.0.0.1:8080'
 */
export function clientOrigin(host: string, port: number): string {
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}
