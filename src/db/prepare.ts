// The database, made ready before the service is built on it: DATA_DIR locked, a new embedded
// database started from the build's template, pending migrations applied, the demo data seeded
// into an empty one, and the database opened. `npm start` begins this before it loads the rest
// of the service, so opening the database and loading the service's modules overlap.
import { existsSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import type { Database, DatabaseOptions } from './client.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { prepareInChild, type Prepared } from './migrate-process.js';
import { openDatabase } from './open-database.js';

/** A created and migrated database the build made (scripts/build-pglite-template.mjs), if any. */
const TEMPLATE = fileURLToPath(new URL('../pglite-template', import.meta.url));

export interface PreparedDatabase extends Prepared {
  db: Database;
  /** DATA_DIR's lock (embedded database only): the service releases it when it closes the database. */
  dataDirLock?: DataDirLock;
}

export interface PrepareOptions extends Pick<DatabaseOptions, 'onQuery'> {
  /**
   * Migrate in this process instead of the migration child (see migrate-process.ts). The child
   * keeps Prisma's schema engine (~40 MB of wasm that cannot be unloaded) out of the serving
   * process; in-process saves the child's start-up where hundreds of short-lived servers start
   * (the tests).
   */
  migrateInProcess?: boolean;
}

/**
 * Migrating runs in the child; so does creating a database where the build made no template,
 * because the process that runs initdb keeps a few hundred MB more resident. Seeding runs here:
 * the template's copy is migrated, so a first start needs no child at all.
 */
export async function prepareDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'seed' | 'dbPoolSize'>,
  { migrateInProcess = false, onQuery }: PrepareOptions = {},
): Promise<PreparedDatabase> {
  // The embedded database belongs to one process: DATA_DIR is locked for as long as the service
  // runs, including while the migration child has the database (a second process must not slip
  // in between). A second process fails here, naming the first (DataDirInUseError).
  const dataDirLock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  const open = () => openDatabase({ ...config, onQuery, dataDirLock });
  let db: Database | undefined;
  try {
    const hasDatabase = dataDirLock === undefined || copyTemplateIfNew(config.dataDir);
    const created = !hasDatabase && !migrateInProcess;
    let prepared: Prepared = created ? await prepareInChild(config, { seed: config.seed }) : { applied: [], seeded: false };
    db = await open();
    if (migrateInProcess) prepared = { applied: await db.migrate(), seeded: false };
    else if (!created && (await db.migrationsPending())) {
      // One process at a time owns a PGlite directory: hand it over and take it back.
      if (db.kind === 'pglite') await db.close();
      prepared = await prepareInChild(config, { seed: config.seed });
      if (db.kind === 'pglite') db = await open();
    }
    // Imported only when seeding: a production start never needs it.
    if (config.seed && !prepared.seeded) prepared.seeded = await (await import('./seed.js')).seedIfEmpty(db.prisma);
    return { ...prepared, db, dataDirLock };
  } catch (error) {
    await db?.close().catch(() => {}); // already closed when a PGlite child failed
    await dataDirLock?.release();
    throw error;
  }
}

/**
 * A DATA_DIR without a database starts as a copy of the build's template, when there is one:
 * creating a database (initdb) and migrating it is most of a first start. Says whether DATA_DIR
 * holds a database now (its own, or the template's migrated and empty copy). Copied
 * synchronously: nothing else waits on this process yet, and fs.cp's asynchronous walk of the
 * template's thousand files takes four times as long.
 */
function copyTemplateIfNew(dataDir: string): boolean {
  const dir = join(dataDir, 'pglite');
  if (existsSync(join(dir, 'PG_VERSION'))) return true;
  if (!existsSync(join(TEMPLATE, 'PG_VERSION'))) return false;
  cpSync(TEMPLATE, dir, { recursive: true });
  return true;
}
