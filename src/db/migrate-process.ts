// Migrating out of the serving process. The schema engine's wasm instance stays resident once a
// process has loaded it (its bindings keep views of its memory), and PGlite's initdb leaves
// hundreds of MB behind, so `npm start` creates and migrates a database in a child process that
// exits afterwards (src/db/migrate-child.ts); prepare.ts decides when.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DatabaseOptions } from './client.js';

/** The child runs the same build as this module: compiled JavaScript, or TypeScript through tsx. */
const childEntry = fileURLToPath(new URL(`./migrate-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

export interface Prepared {
  /** The migrations applied now. */
  applied: string[];
  /** Whether the demo data was written now. */
  seeded: boolean;
}

/**
 * Applies pending migrations in a child process and, with `seed`, seeds the demo data if the
 * database is empty. An embedded database must be closed by the caller meanwhile (one process at
 * a time; the child uses the caller's DATA_DIR lock, see data-dir-lock.ts).
 */
export function prepareInChild(
  { databaseUrl, dataDir }: Pick<DatabaseOptions, 'databaseUrl' | 'dataDir'>,
  { seed }: { seed: boolean },
): Promise<Prepared> {
  const execArgv = childEntry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...execArgv, childEntry], {
    env: {
      ...process.env,
      LEARNSTREAM_MIGRATE_DATABASE_URL: databaseUrl ?? '',
      LEARNSTREAM_MIGRATE_DATA_DIR: dataDir,
      LEARNSTREAM_MIGRATE_SEED: seed ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err = (err + chunk).slice(-4_000)));
  // The child must not outlive this process (a start given up on at the shutdown deadline).
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      process.off('exit', killChild);
      let report: Partial<Prepared> & { error?: string } = {};
      try {
        report = JSON.parse(out.trim().split('\n').pop() ?? '') as typeof report;
      } catch {
        // no report: the child died (killed, out of memory); its stderr says why
      }
      if (code === 0 && report.applied) resolve({ applied: report.applied, seeded: report.seeded === true });
      else {
        // Ended by a signal (Ctrl-C reaches the whole process group, the child too): name it.
        const how = signal ? `interrupted by ${signal}` : `failed (exit code ${code})`;
        const tail = err.trim().split('\n').slice(-3).join(' | ');
        reject(new Error(report.error ?? `migrating ${how}${tail ? `: ${tail}` : ''}`));
      }
    });
  });
}
