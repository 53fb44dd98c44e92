// The embedded database (PGlite in DATA_DIR) belongs to one process: two processes on one
// directory both ran, each with its own copy of the database in memory, and the writes of one were
// lost when the other wrote its files (found by the probe: both answered 201, one's users were
// gone after a restart). DATA_DIR/pglite.lock, created exclusively, names the process that owns
// the directory; a second process refuses to start. A lock whose process has died (kill -9, a
// crash) does not block: it is taken over.
import { readFileSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../config.js';

export interface DataDirLock {
  readonly dataDir: string;
  /** Removes the lock file (when this process owns it); safe to call more than once. */
  release(): Promise<void>;
}

/** The directory is owned by another live process (or already open in this one): a configuration problem. */
export class DataDirInUseError extends ConfigError {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    const who = pid === process.pid ? `this process (pid ${pid})` : `another process (pid ${pid})`;
    super([`DATA_DIR: ${dataDir} is in use by ${who}; the embedded database belongs to one process — use DATABASE_URL to run several`]);
    this.name = 'DataDirInUseError';
  }
}

const LOCK_FILE = 'pglite.lock';
/** Lock files this process owns: removed on any exit, even one that skips the graceful stop. */
const owned = new Set<string>();

process.once('exit', () => {
  for (const path of owned) {
    try {
      // Only our own: never remove a lock another process took over meanwhile.
      if (readPid(readFileSync(path, 'utf8')) === process.pid) unlinkSync(path);
    } catch {
      // already gone
    }
  }
});

function readPid(text: string): number | undefined {
  const pid = Number(text.trim().split('\n')[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Started by prepareInChild for `dataDir` (its protocol passes the directory in the environment). */
function isMigrationChildFor(dataDir: string): boolean {
  return process.env.LEARNSTREAM_MIGRATE_DATA_DIR === dataDir;
}

/**
 * Takes DATA_DIR for this process, or throws DataDirInUseError naming the process that has it.
 * A lock held by this process's parent, when this process is the migration child it started for
 * this directory (src/db/migrate-process.ts), is the parent handing the directory over for the
 * migration: the child uses it without owning it, and the parent keeps it across the hand-over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = join(dataDir, LOCK_FILE);
  await mkdir(dataDir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    // Written aside, then linked into place: the lock appears with its pid in it, never empty.
    const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(aside, `${process.pid}\n`, { mode: 0o644 });
    try {
      await link(aside, path);
      owned.add(path);
      return {
        dataDir,
        release: async () => {
          if (!owned.delete(path)) return;
          await unlink(path).catch(() => {});
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    } finally {
      await unlink(aside).catch(() => {});
    }
    const text = await readFile(path, 'utf8').catch(() => '');
    const pid = readPid(text);
    if (pid !== undefined && pid === process.ppid && isMigrationChildFor(dataDir)) return { dataDir, release: async () => {} };
    // Ours only while we hold it; a dead process's lock (or one a reused pid of ours left) is stale.
    if (pid !== undefined && (pid === process.pid ? owned.has(path) : isAlive(pid))) throw new DataDirInUseError(dataDir, pid);
    // Stale: remove it unless another process replaced it meanwhile, then create ours again.
    // (Two processes taking over one stale lock: the second reads the first's pid and stops above.)
    const again = await readFile(path, 'utf8').catch(() => undefined);
    if (again === text) await unlink(path).catch(() => {});
  }
}
