/** The `--help` text of the `chart-export` service command. */

/** The help text, printed by `--help`. */
export const HELP_TEXT = `Usage: chart-export [options]
       npm start -- [options]
       chart-export send --to mllp://HOST:PORT …   Push HL7 v2 messages over MLLP (chart-export send --help)
       chart-export db migrate | db import FILE | keys add | keys revoke ID | keys list   (PostgreSQL;
                                                                 chart-export db --help)

Serve the chart-export HTTP interface (11 endpoints: FHIR R4 JSON and HL7 v2.5.1) and FHIR Bulk Data
export ($export, NDJSON files) from a chart document. With no options it serves the embedded synthetic demo
chart with the demo API keys on http://127.0.0.1:8080 and prints one working curl line per endpoint.

Options (each also settable by the environment variable after it; the option wins):
  --data FILE                 Chart document to serve (JSON: { "patients": [ … ], "directory": { … } }).
                              It is checked at start; every problem is listed by path and the start stops.
                              Default: the embedded demo chart.                       CHART_EXPORT_DATA
  --keys FILE                 Key file (JSON: { "keys": [ { "partnerId", "keyHash" | "key", "scopes",
                              "rateLimit"?, "revoked"?, "keyId"? } ] }), checked at start. CHART_EXPORT_KEYS
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
  --log [text|json]           Log one line per request to stderr: time, method, route, status,
                              duration, partner, request id (never patient data or keys); json: one
                              JSON object per line. Default: no request log.  CHART_EXPORT_LOG=text|json
  --directory-rate-limit LIMIT/SECONDS  Limit /publicFhirDirectory per client address, e.g. 120/60.
                              Default: no limit.                     CHART_EXPORT_DIRECTORY_RATE_LIMIT
  --redis-url URL             Share every key's rate limit (and the directory's per-address limit) with
                              every instance started with the same URL, on Redis (redis:// or
                              rediss:// for TLS; the password is never printed). Needs the ioredis
                              package (npm install ioredis). While Redis is unreachable the export routes
                              answer 503 with Retry-After (fail closed) and the client reconnects by itself.
                                                                                  CHART_EXPORT_REDIS_URL
  --redis-prefix PREFIX       Prefix of the rate-limit keys on Redis; Bulk Data jobs and files go under
                              PREFIX followed by bulk:. Default: chart-export:rl: (and chart-export:bulk:).
                                                                               CHART_EXPORT_REDIS_PREFIX
  --database-url URL          Serve charts and keys from PostgreSQL (postgres://user:password@host/db; the
                              password is never printed) instead of a chart document in memory; any number
                              of instances can share it. Fill it with chart-export db migrate, db import FILE
                              and keys add (chart-export db --help). With --keys, the keys come from the file.
                              While PostgreSQL is unreachable the routes and /readyz answer 503. Needs the pg
                              package (npm install pg).                        CHART_EXPORT_DATABASE_URL
  --database-schema NAME      PostgreSQL schema of the tables. Default: chart_export.
                                                                            CHART_EXPORT_DATABASE_SCHEMA
  --metrics                   Serve Prometheus metrics at /metrics (no key needed: keep the port private).
                                                                                 CHART_EXPORT_METRICS=1
  --headers-timeout SECONDS   Drop a client that has not sent its request headers in time. Default: 10.
                                                                            CHART_EXPORT_HEADERS_TIMEOUT
  --request-timeout SECONDS   Drop a client that has not sent its whole request in time. Default: 30.
                                                                            CHART_EXPORT_REQUEST_TIMEOUT
  --keep-alive-timeout SECONDS  Close an idle keep-alive connection after this long. Default: 5.
                                                                         CHART_EXPORT_KEEP_ALIVE_TIMEOUT
  --max-connections N         Most connections open at once; more are closed at once. Default: 1000.
                                                                            CHART_EXPORT_MAX_CONNECTIONS
  -h, --help                  Show this help.
  -v, --version               Show the version.

Key file entries: "partnerId" (required), "keyHash" (SHA-256 of the key as 64 hex digits) or "key" (the
plain key, for local use only), "scopes" (fhir:export and/or hl7:export), "rateLimit" ({ "limit": 600,
"windowSeconds": 60 } by default), "revoked" (false by default), "keyId" (a non-secret name; default
<partnerId>-<n>), "comment". The older names "partner", "keySha256" and "id" are read too.
Hash a key with:  printf %s "$KEY" | sha256sum
Send SIGHUP to reload the key file: a valid file replaces the keys from the next request on; an invalid
one is refused, its problems are listed on stderr, and the keys in force stay. A SIGHUP during start-up
reloads once the service is up.

Always served: /healthz (liveness), /readyz (readiness: 503 while Redis or PostgreSQL is unreachable),
/openapi.json.

Exit status: 0 after a clean shutdown; 1 when the data or key file is invalid or unreadable, or the port
cannot be taken, or a shutdown had to close requests in flight; 2 for a wrong option.
`;
