// The migration history as prisma/migrations holds it, and whether a database is behind it: what a
// start-up needs to know without loading the schema engine (schema-engine.ts applies them).
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MigrationList } from '@prisma/schema-engine-wasm';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const schemaPath = join(root, 'prisma/schema.prisma');
export const migrationsDir = join(root, 'prisma/migrations');

export async function loadMigrationList(dir = migrationsDir): Promise<MigrationList> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const lockPath = join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: { path: lockPath, content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      folders.map(async (path) => {
        const content = await readFile(join(dir, path, 'migration.sql'), 'utf8');
        return { path, migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: content } } };
      }),
    ),
  };
}

type Query = <T>(text: string, params: unknown[]) => Promise<T[]>;

/**
 * Whether the schema engine has work: a migration of prisma/migrations the database has not
 * finished, or a failed one for it to report. A start-up on an up-to-date database then skips
 * loading the engine (seconds, and ~40 MB that would stay resident).
 */
export async function migrationsPending(query: Query): Promise<boolean> {
  const local = (await loadMigrationList()).migrationDirectories.map((d) => d.path);
  let rows: { migration_name: string; finished_at: Date | null; rolled_back_at: Date | null }[];
  try {
    rows = await query('SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations', []);
  } catch {
    return true; // no migration history yet
  }
  if (rows.some((r) => r.finished_at === null && r.rolled_back_at === null)) return true;
  const finished = new Set(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => r.migration_name));
  return local.some((name) => !finished.has(name));
}
