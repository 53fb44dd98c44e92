// `npm start`: validated config, then the service, until SIGINT/SIGTERM stops it gracefully.
import { loadConfigOrExit } from './config.js';
import { createLogger } from './logger.js';
import type { RunningServer } from './server.js';

/** How long open connections get to finish before they are cut and the database is closed anyway. */
const SHUTDOWN_DEADLINE_MS = 30_000;

// A bad configuration: one line per problem on stderr, each naming the variable; exit 1.
const config = loadConfigOrExit();
const log = createLogger(config.logLevel);

let server: RunningServer | undefined;
let stopping = false;

function shutdown(signal: NodeJS.Signals): void {
  if (stopping) {
    log.warn({ signal }, 'second signal: exiting without waiting');
    process.exit(1);
  }
  stopping = true;
  log.info({ signal }, 'shutting down');
  // Still starting (migrating, seeding): stop as soon as the start is done, not half-way.
  if (server) stop(server);
}

function stop(running: RunningServer): void {
  // Last resort if closing hangs (server.stop already cuts lingering connections).
  setTimeout(() => {
    log.error('shutdown did not finish in time: exiting');
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS).unref();
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
  console.error(`startup: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
if (stopping) stop(server);
