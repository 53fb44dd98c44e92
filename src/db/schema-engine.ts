// Prisma's own schema engine (the one `prisma migrate` runs), compiled to WebAssembly, so that
// migrations apply offline through a driver adapter. It reads prisma/migrations/*/migration.sql and
// writes the standard _prisma_migrations table: `prisma migrate deploy` stays interchangeable.
// Imported only where migrations are applied or diffed: its bindings are not the serving process's.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import { loadMigrationList, schemaPath } from './migration-list.js';

export { loadMigrationList, migrationsDir, migrationsPending, schemaPath } from './migration-list.js';

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
