/**
 * Run the built service command (`node dist/cli.js`, what `npm start` runs) in a child process, wait
 * for it to listen, and read what it printed. Also: parse the curl lines it prints, through a real shell.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The built command. */
export const CLI = `${ROOT}dist/cli.js`;

/** Build the package when dist is missing (`npm test` builds first, so this is for running a file alone). */
export function ensureBuilt(): void {
  if (!existsSync(CLI)) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
}

/** The environment minus every variable the command reads, so the outer shell cannot change a test. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (k !== 'PORT' && !k.startsWith('CHART_EXPORT_') && !k.startsWith('npm_')) env[k] = v;
  return { ...env, ...extra };
}

/** The outcome of a command that exits by itself. */
export interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function collect(child: ChildProcess): { out: () => string; err: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { out: () => out, err: () => err, exited };
}

/**
 * Run the command to its end (for --help and start failures).
 * @param args - arguments
 * @param env - extra environment variables
 * @param timeoutMs - kill it after this long
 */
export async function runCli(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 15_000): Promise<Finished> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const io = collect(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const { code, signal } = await io.exited;
  clearTimeout(timer);
  return { code, signal, stdout: io.out(), stderr: io.err() };
}

/** A running service. */
export interface Service {
  /** The origin printed, e.g. `http://127.0.0.1:43123`. */
  readonly origin: string;
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Send a signal and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/**
 * Start the command and wait until it prints its banner (the line `Press Ctrl+C to stop.`).
 * @param args - arguments (give `--port 0`)
 * @param env - extra environment variables
 * @param nodeArgs - options for node itself, before the script (e.g. `--import` of a preload module)
 */
export async function startCli(args: readonly string[], env: Record<string, string> = {}, nodeArgs: readonly string[] = []): Promise<Service> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const io = collect(child);
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner after 15 s:\n${io.out()}\n${io.err()}`)), 15_000);
    const check = (): void => {
      const m = /listening on (http:\/\/[^\s/]+)/.exec(io.out());
      if (m !== null && io.out().includes('Press Ctrl+C to stop.')) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    };
    child.stdout?.on('data', check);
    void io.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before listening:\n${io.out()}\n${io.err()}`));
    });
  });
  return {
    origin,
    child,
    stdout: io.out,
    stderr: io.err,
    async stop(signal = 'SIGTERM') {
      const started = Date.now();
      child.kill(signal);
      const result = await io.exited;
      return { ...result, ms: Date.now() - started };
    },
  };
}

/** One request a printed curl command sends. */
export interface PrintedRequest {
  /** The comment line above the command. */
  readonly comment: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** How many times the command sends it (the rate-limit loop sends several). */
  readonly times: number;
  /** The status the comment announces (`…: 401: …`), or 200. */
  readonly expectedStatus: number;
}

/**
 * Find the printed curl commands (lines starting with `curl ` or `for … do curl`) and let a real shell expand
 * them, with `curl` replaced by a function that prints its arguments: what a user's shell would pass to curl.
 * @param stdout - the banner
 * @param env - variables the commands read (e.g. `FHIR_API_KEY`)
 */
export function printedRequests(stdout: string, env: Record<string, string> = {}): PrintedRequest[] {
  const lines = stdout.split('\n').map((l) => l.trim());
  const out: PrintedRequest[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('curl ') && !/^for .* do curl /.test(line)) return;
    const printed = execFileSync('sh', ['-c', `curl() { printf '%s\\0' "$@"; printf '\\n\\0'; }; ${line}`], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    const calls = printed.split('\n\0').filter((c) => c !== '');
    const args = (calls[0] as string).split('\0').filter((a) => a !== '');
    const headers: Record<string, string> = {};
    args.forEach((a, j) => {
      if (a === '-H') {
        const h = args[j + 1] as string;
        const colon = h.indexOf(':');
        headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
      }
    });
    const comment = lines[i - 1] ?? '';
    const status = /: (\d{3}): /.exec(comment)?.[1];
    out.push({ comment, url: args.at(-1) as string, headers, times: calls.length, expectedStatus: status === undefined ? 200 : Number(status) });
  });
  return out;
}
