// Writes the next migration: the SQL that takes the migration history to the current
// schema.prisma, as prisma/migrations/<timestamp>_<name>/migration.sql.
// Usage: npm run db:migration -- <name>
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { diffSchemaFromMigrations, migrationsDir } from '../src/db/schema-engine.js';

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]+/gi, '_').toLowerCase();
if (!name) {
  console.error('usage: npm run db:migration -- <name>');
  process.exit(2);
}

const pglite = new PGlite();
try {
  const sql = await diffSchemaFromMigrations(new PrismaPGlite(pglite));
  if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
    console.log('schema.prisma and the migrations agree: nothing to write');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = join(migrationsDir, `${stamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'migration.sql'), sql);
    console.log(`wrote ${dir}/migration.sql`);
  }
} finally {
  await pglite.close();
}
