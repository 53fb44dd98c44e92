// Instances that start together on one PostgreSQL database all come up: they take turns
// migrating, and each migration is applied exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { openDatabase } from '../src/db/open-database.js';
import { loadMigrationList, migrationsPending } from '../src/db/schema-engine.js';
import { createPgDatabase } from './support/server.js';

describe('concurrent migrations on PostgreSQL', () => {
  let created: Awaited<ReturnType<typeof createPgDatabase>>;
  const dbs: Database[] = [];
  beforeAll(async () => {
    created = await createPgDatabase();
  });
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
    await created?.drop();
  });

  it('three instances migrating at once all succeed, and every migration is applied once', { timeout: 240_000 }, async () => {
    for (let i = 0; i < 3; i++) dbs.push(await openDatabase({ databaseUrl: created.url, dataDir: '/nonexistent', dbPoolSize: 2 }));
    const results = await Promise.allSettled(dbs.map((db) => db.migrate()));
    // A rejection shows its reason in the failure.
    expect(results.map((r) => (r.status === 'fulfilled' ? 'fulfilled' : String(r.reason)))).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const applied = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    const expected = (await loadMigrationList()).migrationDirectories.map((d) => d.path);
    expect(applied.sort()).toEqual(expected.sort());
    const rows = await dbs[0]!.query<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations', []);
    expect(rows.map((r) => r.migration_name).sort()).toEqual(expected.sort());
  });

  it('knows when the engine has nothing to do, so an up-to-date start skips it', async () => {
    const fresh = await createPgDatabase();
    const db = await openDatabase({ databaseUrl: fresh.url, dataDir: '/nonexistent', dbPoolSize: 1 });
    try {
      const query = db.query.bind(db);
      expect(await migrationsPending(query)).toBe(true); // no history table yet
      expect((await db.migrate()).length).toBeGreaterThan(0);
      expect(await migrationsPending(query)).toBe(false);
      expect(await db.migrate()).toEqual([]);
      // A failed migration is the engine's to report.
      await db.query(`INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ('x', 'x', 'broken', now(), 0)`, []);
      expect(await migrationsPending(query)).toBe(true);
      await db.query(`DELETE FROM _prisma_migrations WHERE id = 'x'`, []);
      // So is one the database lacks.
      await db.query(`DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)`, []);
      expect(await migrationsPending(query)).toBe(true);
    } finally {
      await db.close();
      await fresh.drop();
    }
  }, 120_000);
});
