/// <reference types="node" />
/**
 * The command's PostgreSQL subcommands: `chart-export db migrate`, `chart-export db import FILE` and
 * `chart-export keys add | revoke | list`. Each reads `--database-url` / `CHART_EXPORT_DATABASE_URL` (never
 * printed but masked) and `--database-schema` / `CHART_EXPORT_DATABASE_SCHEMA`.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { API_KEY_SCOPES, hashApiKey, type ApiKeyScope } from '../http/index.js';
import type { CliEnvironment } from './command-line.js';
import { describeDatabaseError, loadPostgres, maskDatabaseUrl } from './database.js';
import { databaseSchemaProblem, databaseUrlProblem } from './database-options.js';
import { importChartFile } from './import.js';
import { CliError, type CliIo } from './load.js';

/** The subcommands' help. */
export const DATABASE_HELP_TEXT = `Usage: chart-export db migrate [--database-url URL] [--database-schema NAME]
       chart-export db import FILE [--batch-size N] [--database-url URL] [--database-schema NAME]
       chart-export keys add --id ID --partner PARTNER [--scopes fhir:export,hl7:export] [--rate-limit 600/60]
       chart-export keys revoke ID
       chart-export keys list

PostgreSQL holds the charts and the API keys of any number of instances (chart-export --database-url URL).
  db migrate      Create or upgrade the tables (versioned migrations; safe to run again or from several hosts).
  db import FILE  Check a chart document (every problem listed by path; nothing written when one is found),
                  then load it in batches: patients in the file are written (again: updated, never
                  duplicated), the directory is replaced, patients not in the file are kept. Streams the file:
                  memory stays flat whatever its size. Needs the stream-json package (npm install stream-json).
  keys add        Make a new random key, print it once, store only its SHA-256 hash.
  keys revoke ID  Revoke a key: every instance answers 401 for it within 2 seconds.
  keys list       List the keys (ids, partners, scopes, limits, state; never a key or a hash).

Options:
  --database-url URL      postgres://user:password@host:5432/database (the password is never printed).
                                                                           CHART_EXPORT_DATABASE_URL
  --database-schema NAME  Schema of the tables. Default: chart_export.   CHART_EXPORT_DATABASE_SCHEMA
All of them need the pg package (npm install pg).
`;

interface Parsed {
  readonly positionals: readonly string[];
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
}

function parse(argv: readonly string[]): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'database-url': { type: 'string' },
        'database-schema': { type: 'string' },
        'batch-size': { type: 'string' },
        id: { type: 'string' },
        partner: { type: 'string' },
        scopes: { type: 'string' },
        'rate-limit': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    return { positionals, values };
  } catch (error) {
    // parseArgs' messages name the option only ("Unknown option '--x'").
    throw new CliError([`chart-export: ${error instanceof Error ? (error.message.split('\n')[0] ?? 'invalid arguments') : 'invalid arguments'}`], 2);
  }
}

function option(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** The database URL and schema of a subcommand. */
function target(parsed: Parsed, env: CliEnvironment): { connectionString: string; schema?: string } {
  const url = option(parsed, 'database-url') ?? (env['CHART_EXPORT_DATABASE_URL'] || undefined);
  if (url === undefined) throw new CliError(['chart-export: give the database with --database-url URL or CHART_EXPORT_DATABASE_URL'], 2);
  const problem = databaseUrlProblem(url);
  if (problem !== undefined) throw new CliError([`chart-export: ${problem}`], 2);
  const schema = option(parsed, 'database-schema') ?? (env['CHART_EXPORT_DATABASE_SCHEMA'] || undefined);
  const schemaProblem = databaseSchemaProblem(schema);
  if (schemaProblem !== undefined) throw new CliError([`chart-export: ${schemaProblem}`], 2);
  return schema === undefined ? { connectionString: url } : { connectionString: url, schema };
}

/** A failure of the database, as one line naming the masked URL. */
function databaseFailure(url: string, error: unknown): CliError {
  return new CliError([`chart-export: PostgreSQL at ${maskDatabaseUrl(url)}: ${describeDatabaseError(error)}`]);
}

async function migrate(parsed: Parsed, env: CliEnvironment, io: CliIo): Promise<void> {
  const where = target(parsed, env);
  const postgres = await loadPostgres();
  try {
    const result = await postgres.migratePostgres(where);
    io.out(
      result.applied.length === 0
        ? `The schema ${where.schema ?? 'chart_export'} is up to date (version ${result.version}).`
        : `Applied migration${result.applied.length === 1 ? '' : 's'} ${result.applied.join(', ')}: the schema ${where.schema ?? 'chart_export'} is at version ${result.version}.`,
    );
  } catch (error) {
    throw databaseFailure(where.connectionString, error);
  }
}

const RATE_LIMIT_RE = /^([1-9]\d{0,8})\/([1-9]\d{0,8})$/;

async function keys(action: string | undefined, parsed: Parsed, env: CliEnvironment, io: CliIo): Promise<void> {
  const where = target(parsed, env);
  const postgres = await loadPostgres();
  const store = postgres.createPostgresKeyStore({ ...where, maxConnections: 1 });
  try {
    if (action === 'add') {
      const keyId = option(parsed, 'id');
      const partnerId = option(parsed, 'partner');
      if (keyId === undefined || partnerId === undefined) throw new CliError(['chart-export: keys add needs --id ID and --partner PARTNER'], 2);
      const scopes = (option(parsed, 'scopes') ?? API_KEY_SCOPES.join(',')).split(',').map((x) => x.trim());
      if (scopes.some((x) => !(API_KEY_SCOPES as readonly string[]).includes(x))) {
        throw new CliError([`chart-export: --scopes must list ${API_KEY_SCOPES.join(' and/or ')}, separated by commas`], 2);
      }
      const limitText = option(parsed, 'rate-limit') ?? '600/60';
      const limit = RATE_LIMIT_RE.exec(limitText);
      if (limit === null) throw new CliError(['chart-export: --rate-limit must be LIMIT/SECONDS, e.g. 600/60'], 2);
      // 256 random bits, base64url: 43 characters.
      const key = randomBytes(32).toString('base64url');
      try {
        await store.add({
          keyHash: await hashApiKey(key),
          keyId,
          partnerId,
          scopes: scopes as ApiKeyScope[],
          rateLimit: { limit: Number(limit[1]), windowSeconds: Number(limit[2]) },
        });
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === 'invalid-argument') throw new CliError([`chart-export: ${(error as Error).message}`], 2);
        throw error;
      }
      io.out(`Added key ${keyId} for partner ${partnerId} (${[...new Set(scopes)].join(', ')}; ${limit[1]} requests per ${limit[2]} s).`);
      io.out('The key, shown only now (only its SHA-256 hash is stored):');
      io.out(`  ${key}`);
    } else if (action === 'revoke') {
      const keyId = parsed.positionals[2];
      if (keyId === undefined || parsed.positionals.length > 3) throw new CliError(['chart-export: keys revoke needs one key id'], 2);
      if (!(await store.revoke(keyId))) throw new CliError([`chart-export: no key with the id ${JSON.stringify(keyId)}`]);
      io.out(`Revoked key ${keyId}: every instance answers 401 for it within 2 seconds.`);
    } else if (action === 'list') {
      const listed = await store.list();
      if (listed.length === 0) io.out('No keys. Add one with: chart-export keys add --id ID --partner PARTNER');
      for (const k of listed) {
        const state = k.revoked ? `REVOKED ${k.revokedAt?.toISOString() ?? ''}`.trim() : 'active';
        io.out(`${k.keyId}  partner ${k.partnerId}  ${k.scopes.join(', ')}  ${k.rateLimit.limit} per ${k.rateLimit.windowSeconds} s  added ${k.createdAt.toISOString()}  ${state}`);
      }
    } else {
      throw new CliError(['chart-export: keys takes add, revoke or list (chart-export keys --help)'], 2);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw databaseFailure(where.connectionString, error);
  } finally {
    await store.close();
  }
}

/**
 * Run `chart-export db …` or `chart-export keys …`.
 *
 * @param argv - the arguments, starting with `db` or `keys`
 * @param env - the environment
 * @param io - where to write
 * @returns the exit status: 0 done, 1 failed (database, file), 2 wrong usage
 * @throws never: failures are printed as lines, without a stack or a secret
 * @example process.exitCode = await runDatabaseCommand(['db', 'migrate'], process.env, io);
 */
export async function runDatabaseCommand(argv: readonly string[], env: CliEnvironment, io: CliIo): Promise<number> {
  try {
    const parsed = parse(argv);
    const [group, action] = parsed.positionals;
    if (parsed.values['help'] === true || action === undefined) {
      io.out(DATABASE_HELP_TEXT.trimEnd());
      return action === undefined && parsed.values['help'] !== true ? 2 : 0;
    }
    if (group === 'db' && action === 'migrate' && parsed.positionals.length === 2) await migrate(parsed, env, io);
    else if (group === 'db' && action === 'import') {
      const file = parsed.positionals[2];
      if (file === undefined || parsed.positionals.length > 3) throw new CliError(['chart-export: db import needs one FILE'], 2);
      const batchText = option(parsed, 'batch-size') ?? '500';
      if (!/^[1-9]\d{0,4}$/.test(batchText)) throw new CliError(['chart-export: --batch-size must be an integer from 1 to 99999'], 2);
      const where = target(parsed, env);
      await importChartFile(file, where, Number(batchText), io);
    } else if (group === 'keys') await keys(action, parsed, env, io);
    else throw new CliError([`chart-export: unknown subcommand (chart-export ${group ?? ''} --help lists them)`], 2);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      for (const line of error.lines) io.err(line);
      return error.exitCode;
    }
    io.err(`chart-export: failed: ${error instanceof Error ? error.name : 'unknown error'}`);
    return 1;
  }
}
