/// <reference types="node" />
/**
 * The command's signals: SIGINT and SIGTERM stop it, SIGHUP reloads the key file. Installed before the start,
 * so that a signal during a slow start is never Node's default (which ends the process at once).
 */
import type { CliOptions } from './command-line.js';
import type { CliIo } from './load.js';
import type { RunningService } from './run.js';

/** The command's answers to SIGINT, SIGTERM and SIGHUP, from before the start until it exits. */
export interface SignalHandlers {
  /** The service is up: a stop is graceful from now on, and a reload asked for during the start runs now. */
  started(service: RunningService): void;
  /** Stop as for SIGTERM, unless already stopping (npm went away). */
  stop(reason: 'npm exited'): void;
  /** The start failed: give the signals back to Node. */
  remove(): void;
}

/**
 * Install the signal handlers, before the start. During the start (a data file on a slow disk or a pipe, the
 * key file, loading the Redis client) SIGINT and SIGTERM stop at once, as their default does (nothing is
 * served yet, so nothing is cut), after a line on stderr, and SIGHUP is remembered: the key file is read
 * again once the service is up (it may have changed after it was read for the start). Once it is up: SIGINT and SIGTERM stop gracefully (a second one stops at once),
 * SIGHUP reloads the key file.
 *
 * @param options - the parsed options (`--keys`, `--shutdown-timeout`)
 * @param io - where the command writes
 * @returns how to tell the handlers that the service is up, to stop it, or to remove them
 * @throws never
 * @example const signals = handleSignals(options, io); signals.started(await startService(options, io));
 */
export function handleSignals(options: CliOptions, io: CliIo): SignalHandlers {
  let service: RunningService | undefined;
  let stopping = false;
  let reloadQueued = false;
  const onSignal = (signal: NodeJS.Signals | 'npm exited'): void => {
    if (service === undefined) {
      // Nothing is served yet: stop at once, as the signal's default would, by raising it again without these
      // handlers. (process.exit would wait for a read still blocked in the start, on a pipe or a stuck disk.)
      io.err(`chart-export: ${signal} during start-up: stopping before serving.`);
      remove();
      if (signal === 'npm exited') process.exit(1);
      process.kill(process.pid, signal);
      return;
    }
    if (stopping) {
      io.err(`chart-export: ${signal} again: closing every connection now.`);
      service.server.closeAllConnections();
      process.exit(1);
    }
    stopping = true;
    const seconds = options.shutdownTimeoutSeconds;
    io.err(`chart-export: ${signal}: stopping; waiting up to ${seconds} s for requests in flight (send it again to stop now).`);
    void service.stop(seconds * 1000).then((clean) => {
      if (clean) io.err('chart-export: stopped.');
      else io.err('chart-export: stopped; requests still in flight after the timeout were cut.');
      process.exit(clean ? 0 : 1);
    });
  };
  const onHangUp = (): void => {
    if (options.keysFile === undefined) {
      io.err('chart-export: SIGHUP: no --keys file to reload; ignored.');
    } else if (service === undefined) {
      if (!reloadQueued) io.err('chart-export: SIGHUP during start-up: the key file will be read again once the service is up.');
      reloadQueued = true;
    } else {
      void service.reloadKeys?.();
    }
  };
  function remove(): void {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onHangUp);
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onHangUp);
  return {
    started(running) {
      service = running;
      if (reloadQueued) void running.reloadKeys?.();
    },
    stop(reason) {
      if (!stopping) onSignal(reason);
    },
    remove,
  };
}
