/**
 * The checks of `--database-url` / `CHART_EXPORT_DATABASE_URL` and `--database-schema` /
 * `CHART_EXPORT_DATABASE_SCHEMA`, shared by the service and the `db` and `keys` subcommands. A message never
 * quotes the URL: it may hold a password.
 */

/** The option and variable a database URL comes from, as every message about it names them. */
export const DATABASE_URL_OPTION = '--database-url / CHART_EXPORT_DATABASE_URL';

/** `--data` and `--database-url` together: one source of charts only. */
export const DATA_AND_DATABASE =
  'give either --data / CHART_EXPORT_DATA or --database-url / CHART_EXPORT_DATABASE_URL, not both (load a file into PostgreSQL with chart-export db import FILE)';

/**
 * A URL as the WHATWG parser reads it (the reading the database and Redis clients share), or `undefined` when it
 * does not parse. Used by the command's URL options, whose messages never repeat the URL (it may hold a password).
 * @param given - the option's or variable's value
 * @returns the parsed URL, or undefined
 */
export function parseUrl(given: string): URL | undefined {
  try {
    return new URL(given);
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with a database URL: not `postgres://` or `postgresql://` with a host.
 * @param given - the option's or variable's value, or undefined
 * @returns the problem, or undefined when the URL (or its absence) is fine
 */
export function databaseUrlProblem(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  const url = parseUrl(given);
  if (url === undefined || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.hostname === '') {
    return `${DATABASE_URL_OPTION} must be a postgres:// or postgresql:// URL with a host (percent-encode @ : / ? # % in the user name or password)`;
  }
  return undefined;
}

/**
 * What is wrong with a schema name (the rule of `chart-export/postgres`).
 * @param given - the option's or variable's value, or undefined
 * @returns the problem, or undefined
 */
export function databaseSchemaProblem(given: string | undefined): string | undefined {
  if (given !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(given)) {
    return '--database-schema / CHART_EXPORT_DATABASE_SCHEMA must be lowercase letters, digits and _, starting with a letter or _, at most 63 characters';
  }
  return undefined;
}

/** The service's database options (part of `CliOptions`). */
export interface DatabaseCliOptions {
  /** PostgreSQL URL to serve charts (and, without `keysFile`, keys) from; undefined = the chart document in memory. */
  readonly databaseUrl: string | undefined;
  /** PostgreSQL schema of the package's tables; undefined = `chart_export`. */
  readonly databaseSchema: string | undefined;
}

/**
 * Read the service's database options.
 * @param url - `--database-url` or its variable
 * @param schema - `--database-schema` or its variable
 * @param dataFile - `--data` or its variable (not allowed beside a database)
 * @returns the options, or the problem to report as a usage error
 */
export function readDatabaseOptions(url: string | undefined, schema: string | undefined, dataFile: string | undefined): DatabaseCliOptions | string {
  const problem = databaseUrlProblem(url) ?? databaseSchemaProblem(schema) ?? (url !== undefined && dataFile !== undefined ? DATA_AND_DATABASE : undefined);
  return problem ?? { databaseUrl: url, databaseSchema: schema };
}
