/**
 * Command-line options and environment variables of the `chart-export` service command, and its `--help`.
 * A command-line option wins over its environment variable; an empty environment variable counts as unset.
 */
import { parseArgs } from 'node:util';

/** What the command was asked to do. */
export interface CliOptions {
  /** Print the help and exit. */
  readonly help: boolean;
  /** Print the version and exit. */
  readonly version: boolean;
  /** Chart document to serve; undefined = the embedded demo chart. */
  readonly dataFile: string | undefined;
  /** Key file; undefined = demo keys (with the demo chart) or a generated session key (with `--data`). */
  readonly keysFile: string | undefined;
  /** Interface to listen on. */
  readonly host: string;
  /** Port; 0 = any free port. */
  readonly port: number;
  /** Prefix of every route, e.g. `/chart-export`; `''` for none. */
  readonly basePath: string;
  /** Absolute base of FHIR `fullUrl`s, when set. */
  readonly fhirBaseUrl: string | undefined;
  /** Omit `Bundle.total` on `collection` Bundles (R4 invariant bdl-1). */
  readonly strictBundleTotal: boolean;
  /** HL7 MSH-3. */
  readonly sendingApplication: string;
  /** HL7 MSH-4. */
  readonly sendingFacility: string | undefined;
  /** HL7 MSH-11. */
  readonly processingId: 'P' | 'T' | 'D' | undefined;
  /** Seconds to wait for in-flight requests on SIGINT/SIGTERM before closing connections. */
  readonly shutdownTimeoutSeconds: number;
  /** Log one line per request (request id, route, status, duration, partner) to stderr. */
  readonly log: boolean;
}

/**
 * A wrong option or environment variable; the command prints the message and exits with status 2.
 * @example throw new UsageError('--port / PORT must be an integer from 0 to 65535');
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Default port when neither `--port` nor `PORT` is given. */
export const DEFAULT_PORT = 8080;
/** Default interface: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
/** Default HL7 MSH-3 of the service: partners route messages by it. */
export const DEFAULT_SENDING_APPLICATION = 'CHART-EXPORT';
/** Default grace period of a shutdown, in seconds. */
export const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 10;

/** The help text, printed by `--help`. */
export const HELP_TEXT = `Usage: chart-export [options]
       npm start -- [options]

Serve the chart-export HTTP interface (11 endpoints: FHIR R4 JSON and HL7 v2.5.1) from a chart document.
With no options it serves the embedded synthetic demo chart with the demo API keys on
http://127.0.0.1:8080 and prints one working curl line per endpoint.

Options (each also settable by the environment variable after it; the option wins):
  --data FILE                 Chart document to serve (JSON: { "patients": [ … ], "directory": { … } }).
                              It is checked at start; every problem is listed by path and the start stops.
                              Default: the embedded demo chart.                       CHART_EXPORT_DATA
  --keys FILE                 Key file (JSON: { "keys": [ { "partner", "keySha256" | "key", "scopes",
                              "rateLimit"?, "revoked"?, "id"? } ] }), checked at start.   CHART_EXPORT_KEYS
                              Default: with the demo chart, the demo keys; with --data, one random
                              session key with both scopes, printed at start (the public demo keys are
                              never used with your own data).
  --port N                    Port, 0 for any free port (the port taken is printed).
                              Default: 8080.                                          PORT
  --host HOST                 Interface to listen on. Default: 127.0.0.1 (this machine only).
                                                                                      CHART_EXPORT_HOST
  --base-path PATH            Serve the routes under a prefix, e.g. /chart-export.    CHART_EXPORT_BASE_PATH
  --fhir-base-url URL         Absolute base of FHIR Bundle entry fullUrls, e.g. https://example.org/fhir.
                              Default: relative fullUrls (Patient/123), as the interface contract shows.
                                                                                      CHART_EXPORT_FHIR_BASE_URL
  --strict-bundle-total       Omit Bundle.total on collection Bundles (R4 invariant bdl-1). With
                              --fhir-base-url, every FHIR body is strictly R4-valid. Default: total is sent,
                              as the interface contract shows.   CHART_EXPORT_FHIR_STRICT_BUNDLE_TOTAL=1
  --sending-application NAME  HL7 MSH-3 sending application, 1–20 characters. Default: CHART-EXPORT.
                                                                     CHART_EXPORT_HL7_SENDING_APPLICATION
  --sending-facility NAME     HL7 MSH-4 sending facility, 1–20 chars.   CHART_EXPORT_HL7_SENDING_FACILITY
  --processing-id P|T|D       HL7 MSH-11 processing id (production, training, debugging). Default: P.
                                                                           CHART_EXPORT_HL7_PROCESSING_ID
  --shutdown-timeout SECONDS  On SIGINT/SIGTERM, stop accepting connections and wait this long for
                              requests in flight before closing the rest. Default: 10.
                                                                          CHART_EXPORT_SHUTDOWN_TIMEOUT
  --log                       Log one line per request to stderr: time, method, route, status,
                              duration, partner, request id (never patient data or keys).
                                                                                  CHART_EXPORT_LOG=1
  -h, --help                  Show this help.
  -v, --version               Show the version.

Key file entries: "partner" (required), "keySha256" (SHA-256 of the key as 64 hex digits) or "key" (the
plain key, for local use only), "scopes" (fhir:export and/or hl7:export), "rateLimit" ({ "limit": 600,
"windowSeconds": 60 } by default), "revoked" (false by default), "id" (a non-secret name; default
<partner>-<n>), "comment". Hash a key with:  printf %s "$KEY" | sha256sum

Exit status: 0 after a clean shutdown; 1 when the data or key file is invalid or unreadable, or the port
cannot be taken, or a shutdown had to close requests in flight; 2 for a wrong option.
`;

// eslint-disable-next-line no-control-regex -- finds the control characters an option value may not hold
const CONTROL_RE = /[\u0000-\u001F\u007F]/;
/** MSH-3 / MSH-4 carry the value in HD-1: IS, at most 20 characters (after HL7 escaping, which the handler checks). */
const HD1_MAX = 20;
const BASE_PATH_RE = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

/** An environment: the variables the command reads. */
export type CliEnvironment = Readonly<Record<string, string | undefined>>;

function fromEnv(env: CliEnvironment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** A boolean variable: set and not `0` or `false`. */
function flag(value: string | undefined): boolean {
  return value !== undefined && value !== '0' && value.toLowerCase() !== 'false';
}

function text(value: string | undefined, what: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > max || CONTROL_RE.test(value)) {
    throw new UsageError(`${what} must be 1–${max} characters without control characters`);
  }
  return value;
}

/** The command line's values by option name (`parseArgs`, strict: unknown options are refused). */
function readArguments(argv: readonly string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        data: { type: 'string' },
        keys: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'base-path': { type: 'string' },
        'fhir-base-url': { type: 'string' },
        'sending-application': { type: 'string' },
        'sending-facility': { type: 'string' },
        'processing-id': { type: 'string' },
        'shutdown-timeout': { type: 'string' },
        'strict-bundle-total': { type: 'boolean' },
        log: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }).values;
  } catch (error) {
    // parseArgs' messages name the option only ("Unknown option '--x'", "Option '--port <value>' argument missing").
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0] ?? 'Invalid arguments' : 'Invalid arguments');
  }
}

function readPort(portText: string | undefined): number {
  if (portText === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new UsageError('--port / PORT must be an integer from 0 to 65535');
  return Number(portText);
}

function readBasePath(given: string | undefined): string {
  let basePath = given ?? '';
  if (basePath.endsWith('/')) basePath = basePath.replace(/\/+$/, '');
  if (basePath !== '' && !BASE_PATH_RE.test(basePath)) {
    throw new UsageError('--base-path / CHART_EXPORT_BASE_PATH must be a URL path such as /chart-export');
  }
  return basePath;
}

function readFhirBaseUrl(fhirBaseUrl: string | undefined): string | undefined {
  if (fhirBaseUrl === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(fhirBaseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new UsageError('--fhir-base-url / CHART_EXPORT_FHIR_BASE_URL must be an absolute http(s) URL without query or fragment');
  }
  return fhirBaseUrl.replace(/\/+$/, '');
}

function readProcessingId(processingId: string | undefined): CliOptions['processingId'] {
  if (processingId !== undefined && processingId !== 'P' && processingId !== 'T' && processingId !== 'D') {
    throw new UsageError('--processing-id / CHART_EXPORT_HL7_PROCESSING_ID must be P, T or D');
  }
  return processingId;
}

function readShutdownTimeout(timeoutText: string | undefined): number {
  if (timeoutText === undefined) return DEFAULT_SHUTDOWN_TIMEOUT_SECONDS;
  if (!/^\d+(\.\d+)?$/.test(timeoutText) || Number(timeoutText) > 3600) {
    throw new UsageError('--shutdown-timeout / CHART_EXPORT_SHUTDOWN_TIMEOUT must be a number of seconds from 0 to 3600');
  }
  return Number(timeoutText);
}

/**
 * Read the command line and the environment.
 *
 * @param argv - the arguments after the script (`process.argv.slice(2)`)
 * @param env - the environment (`process.env`)
 * @returns the options, with defaults applied
 * @throws {UsageError} for an unknown option, a missing value, or a value out of range
 * @example parseCliOptions(['--port', '0'], {}).port // 0
 */
export function parseCliOptions(argv: readonly string[], env: CliEnvironment): CliOptions {
  const values = readArguments(argv);
  const str = (name: string): string | undefined => {
    const v = values[name];
    return typeof v === 'string' ? v : undefined;
  };
  // Checked in this order, so the first problem reported is the same whatever else is wrong.
  const port = readPort(str('port') ?? fromEnv(env, 'PORT'));
  const host = text(str('host') ?? fromEnv(env, 'CHART_EXPORT_HOST'), '--host / CHART_EXPORT_HOST', 255) ?? DEFAULT_HOST;
  const basePath = readBasePath(str('base-path') ?? fromEnv(env, 'CHART_EXPORT_BASE_PATH'));
  const fhirBaseUrl = readFhirBaseUrl(str('fhir-base-url') ?? fromEnv(env, 'CHART_EXPORT_FHIR_BASE_URL'));
  const processingId = readProcessingId(str('processing-id') ?? fromEnv(env, 'CHART_EXPORT_HL7_PROCESSING_ID'));
  const shutdownTimeoutSeconds = readShutdownTimeout(str('shutdown-timeout') ?? fromEnv(env, 'CHART_EXPORT_SHUTDOWN_TIMEOUT'));
  const log = values['log'] === true || flag(fromEnv(env, 'CHART_EXPORT_LOG'));
  const strictBundleTotal = values['strict-bundle-total'] === true || flag(fromEnv(env, 'CHART_EXPORT_FHIR_STRICT_BUNDLE_TOTAL'));

  return {
    help: values['help'] === true,
    version: values['version'] === true,
    dataFile: str('data') ?? fromEnv(env, 'CHART_EXPORT_DATA'),
    keysFile: str('keys') ?? fromEnv(env, 'CHART_EXPORT_KEYS'),
    host,
    port,
    basePath,
    fhirBaseUrl,
    strictBundleTotal,
    sendingApplication:
      text(
        str('sending-application') ?? fromEnv(env, 'CHART_EXPORT_HL7_SENDING_APPLICATION'),
        '--sending-application / CHART_EXPORT_HL7_SENDING_APPLICATION',
        HD1_MAX,
      ) ?? DEFAULT_SENDING_APPLICATION,
    sendingFacility: text(
      str('sending-facility') ?? fromEnv(env, 'CHART_EXPORT_HL7_SENDING_FACILITY'),
      '--sending-facility / CHART_EXPORT_HL7_SENDING_FACILITY',
      HD1_MAX,
    ),
    processingId,
    shutdownTimeoutSeconds,
    log,
  };
}
