/**
 * python-hl7's asyncio MLLP server (Debian package python3-hl7, installed by `.ci/run`), started on a free
 * loopback port by test/mllp/support/python_mllp_server.py and stopped by the test: an MLLP peer written
 * outside this project, answering with its own ACKs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./python_mllp_server.py', import.meta.url));

/** A Python that can import python-hl7: Debian's own first (a pyenv or venv `python3` on the PATH may not see it). */
export function findPythonWithHl7(): string | undefined {
  for (const python of ['/usr/bin/python3', 'python3']) {
    const probe = spawnSync(python, ['-c', 'import hl7.mllp'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return undefined;
}

/** A running python-hl7 MLLP server. */
export interface PythonMllpServer {
  readonly port: number;
  /** Stop it (SIGTERM) and wait for the exit. */
  stop(): Promise<void>;
}

/**
 * Start the server.
 * @returns the server, once it listens
 * @throws when python-hl7 is not installed (`apt-get install python3-hl7`) or the server does not start in 10 s
 */
export function startPythonMllpServer(): Promise<PythonMllpServer> {
  const python = findPythonWithHl7();
  if (python === undefined) {
    return Promise.reject(new Error('python-hl7 is not installed: apt-get install python3-hl7 (.ci/run installs it)'));
  }
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(python, [SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`python-hl7 server did not start: ${err}`));
    }, 10_000);
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`python-hl7 server exited (${code}): ${err}`));
    });
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const line = /^(\d+)\n/.exec(out);
      if (line === null) return;
      clearTimeout(timer);
      resolve({
        port: Number(line[1]),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
