// `npm start`: validated config, then the service, until SIGINT/SIGTERM stops it gracefully; at a
// terminal, a banner for the person who started it.
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfigOrExit } from './config.js';
import { checkAddress } from './http/address.js';
import { prettyDestination } from './log-pretty.js';
import { createLogger, redactUrlPasswords } from './logger.js';
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
/**
 * On PostgreSQL the only WebAssembly this process runs is Prisma's query compiler, once per query
 * shape (Prisma caches the plans). V8 still optimised its busiest functions in the background,
 * which kept about 10 MB resident for good in a process the contract holds under 150 MB. A tiering
 * budget this large keeps it in the baseline tier, at no measurable CPU per request. Not on the
 * embedded database: PGlite's executor needs the optimising tier (a loop of counts ran 45 % slower
 * after 3,000 queries). Set before any WebAssembly is compiled; see docs/decisions.md.
 */
const WASM_TIERING_BUDGET = 100_000_000;
if (config.databaseUrl) setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
const log = createLogger(config.logLevel, config.logFormat === 'pretty' ? prettyDestination() : undefined);
/**
 * An attempt in flight may take its whole timeout: stopping gives it that, so it is recorded.
 * (WEBHOOK_TIMEOUT_MS's maximum, MAX_WEBHOOK_TIMEOUT_MS in src/config/maxima.ts, keeps this a delay a timer can hold.)
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
  // The address first, so that a port in use is said before the database is touched. Then the
  // database is prepared (opened, and on a first start copied and seeded) while this process
  // loads the rest of the service. Both are imported only now: a bad configuration is reported at
  // once.
  await checkAddress(config);
  const preparation = (await import('./db/prepare.js')).prepareDatabase(config);
  // Handled by startServer, which awaits it: a failure meanwhile is not an unhandled rejection.
  preparation.catch(() => {});
  const { startServer } = await import('./server.js');
  server = await startServer(config, { log, preparation });
} catch (error) {
  // The database is unreachable, the port taken, a migration failed...: one line on stderr, exit 1.
  // The error with its stack is for whoever asked for it (LOG_LEVEL=debug).
  if (log.isLevelEnabled('debug')) log.fatal({ err: error }, 'could not start');
  console.error(startupFailure(error));
  process.exit(1);
}
if (stopping) stop(server);
else if (process.stdout.isTTY) {
  const { startBanner } = await import('./banner.js');
  console.log(startBanner(config, server.url));
}

/**
 * `config: …` for what the operator configured (a port in use, DATA_DIR held by another process),
 * `startup: …` for anything else; one line, with no URL's password.
 */
function startupFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${error instanceof ConfigError ? 'config' : 'startup'}: ${redactUrlPasswords(message.trim().replace(/\s*\n\s*/g, ' '))}`;
}
