// Prisma's own schema engine (the one `prisma migrate` runs), compiled to WebAssembly, so that
// migrations apply offline through a driver adapter. It reads prisma/migrations/*/migration.sql and
// writes the standard _prisma_migrations table: `prisma migrate deploy` stays interchangeable.
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const schemaPath = join(root, 'prisma/schema.prisma');
export const migrationsDir = join(root, 'prisma/migrations');

let wasmReady: Promise<void> | undefined;

/** Instantiates the engine's wasm module once per process (Node 20 has no wasm ESM imports). */
function loadWasm(): Promise<void> {
  wasmReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const bgJs = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(join(dirname(bgJs), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bindings });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  })();
  return wasmReady;
}

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

type EngineLog = (line: string) => void;

/** Runs `fn` with a schema engine bound to the given adapter, and frees the engine afterwards. */
export async function withSchemaEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  fn: (engine: SchemaEngine) => Promise<T>,
  log: EngineLog = () => {},
): Promise<T> {
  await loadWasm();
  const schema = await readFile(schemaPath, 'utf8');
  const { SchemaEngine: Engine } = bindings as unknown as { SchemaEngine: typeof SchemaEngine };
  const engine = await Engine.new(
    { datamodels: [[schemaPath, schema]] },
    log,
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
  try {
    return await fn(engine);
  } finally {
    engine.free();
  }
}

const noFilters = { externalTables: [], externalEnums: [] };

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

/**
 * Applies every pending migration; idempotent. Returns the names of those applied now.
 * Call it through Database.migrate, which keeps instances that start together from contending
 * for the engine's own lock (it gives up after 10 s).
 */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const migrationsList = await loadMigrationList();
  const out = await withSchemaEngine(adapterFactory, (engine) =>
    engine.applyMigrations({ migrationsList, filters: noFilters }),
  );
  return out.appliedMigrationNames;
}

/**
 * The SQL that would take a database at the end of the migration history to the current
 * schema.prisma. Empty when they agree. Runs on a PGlite adapter: it needs no shadow server.
 */
export async function diffSchemaFromMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const migrationsList = await loadMigrationList();
  const schema = await readFile(schemaPath, 'utf8');
  const result = await withSchemaEngine(adapterFactory, (engine) =>
    engine.diff({
      from: { tag: 'migrations', ...migrationsList },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    }),
  );
  return result.stdout ?? '';
}
