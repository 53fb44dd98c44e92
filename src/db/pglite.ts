// The embedded database (PGlite), persisted in DATA_DIR and owned by one process at a time.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Database, DatabaseOptions } from './client.js';
import { lockDataDir } from './data-dir-lock.js';
import { createPrismaClient } from './prisma-client.js';
import { migrationsPending } from './migration-list.js';

/**
 * PostgreSQL's buffer cache inside the embedded database. PGlite's initdb writes 128MB, and all
 * of it becomes resident when the database opens, whatever the data's size; a smaller cache keeps
 * the whole service under the contract's 400 MB. Pages it does not hold are read from DATA_DIR's
 * files, which the operating system caches in turn.
 */
const SHARED_BUFFERS = '32MB';

export async function openPglite(options: Pick<DatabaseOptions, 'dataDir' | 'dataDirLock' | 'onQuery'>): Promise<Database> {
  // One process at a time (data-dir-lock.ts): a second one refuses to start.
  const lock = options.dataDirLock ?? (await lockDataDir(options.dataDir));
  const releaseLock = () => (options.dataDirLock ? Promise.resolve() : lock.release());
  const dir = join(options.dataDir, 'pglite');
  // Loaded only here: a process on a PostgreSQL server never needs them.
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  let pglite: PGlite;
  try {
    await mkdir(dir, { recursive: true });
    pglite = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] });
  } catch (error) {
    await releaseLock();
    throw error;
  }
  const adapterFactory = new PrismaPGlite(pglite);
  const prisma = createPrismaClient(adapterFactory, options.onQuery);
  const query = async <T>(text: string, params: unknown[]) => {
    options.onQuery?.(text);
    return (await pglite.query<T>(text, params)).rows;
  };
  return {
    prisma,
    kind: 'pglite',
    adapterFactory,
    // One process owns a PGlite directory: nobody to take turns with.
    migrate: async () => ((await migrationsPending(query)) ? (await import('./schema-engine.js')).applyMigrations(adapterFactory) : []),
    migrationsPending: () => migrationsPending(query),
    query,
    ping: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    listen: async (channel, onNotify) => {
      const unlisten = await pglite.listen(channel, (payload) => onNotify(payload));
      return () => unlisten();
    },
    close: async () => {
      try {
        await prisma.$disconnect();
        // $disconnect does not close PGlite; without this the next start replays its WAL.
        await pglite.close();
      } finally {
        await releaseLock();
      }
    },
  };
}
