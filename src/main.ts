// `npm start`: validated config, then the service, until SIGINT/SIGTERM stops it gracefully.
import { ConfigError, loadConfigOrExit } from './config.js';
import { createLogger } from './logger.js';
import type { RunningServer } from './server.js';

/** How long open connections get to finish before they are cut and the database is closed anyway. */
const SHUTDOWN_DEADLINE_MS = 30_000;
/**
 * Beyond a webhook attempt's own timeout: the dispatcher's stop waits for it (plus 1 s), interrupts
 * what is left (up to 2 s more), records it and releases its lease; then the database is closed.
 */
const SHUTDOWN_MARGIN_MS = 15_000;

// A bad configuration: one line per problem on stderr, each naming the variable; exit 1.
const config = loadConfigOrExit();
const log = createLogger(config.logLevel);
/**
 * An attempt in flight may take its whole timeout: stopping gives it that, so it is recorded.
 * (WEBHOOK_TIMEOUT_MS's maximum, MAX_WEBHOOK_TIMEOUT_MS in src/config.ts, keeps this a delay a timer can hold.)
 */
const shutdownDeadlineMs = Math.max(SHUTDOWN_DEADLINE_MS, config.webhook.timeoutMs + SHUTDOWN_MARGIN_MS);

let server: RunningServer | undefined;
let stopping = false;

function shutdown(signal: NodeJS.Signals): void {
  if (stopping) {
    log.warn({ signal }, 'second signal: exiting without waiting');
    process.exit(1);
  }
  stopping = true;
  log.info({ signal }, 'shutting down');
  // The deadline runs from the first signal: a start that never finishes (a database that does
  // not answer, a migration waiting for its lock) must not keep the process either.
  setTimeout(() => {
    log.error({ deadlineMs: shutdownDeadlineMs, starting: !server }, server ? 'shutdown did not finish in time: exiting' : 'still starting at the shutdown deadline: exiting');
    process.exit(1);
  }, shutdownDeadlineMs).unref();
  // Still starting (migrating, seeding): stop as soon as the start is done, not half-way.
  if (server) stop(server);
}

function stop(running: RunningServer): void {
  running.stop().then(
    () => {
      log.info('stopped');
      process.exit(0);
    },
    (error: unknown) => {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}

process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

try {
  // Imported only once the configuration is known to be good, so a bad one is reported at once.
  const { startServer } = await import('./server.js');
  server = await startServer(config, { log });
} catch (error) {
  // The database is unreachable, the port taken, a migration failed...: say so, exit non-zero.
  log.fatal({ err: error }, 'could not start');
  // DATA_DIR held by another process, a port in use (ConfigError): configuration problems, reported as such.
  console.error(`${error instanceof ConfigError ? 'config' : 'startup'}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
if (stopping) stop(server);
