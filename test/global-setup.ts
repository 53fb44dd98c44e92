// Once per `vitest run`: the compiled service and console, built if stale, for the tests that start
// it as `npm start` does (test/support/process.ts); and a migrated PGlite directory and a migrated PostgreSQL database that every
// test server starts from (a copy of the directory; CREATE DATABASE … TEMPLATE), instead of each
// of the suite's ~100 servers creating a database cluster and running every migration again.
// The servers still seed, and migrate whatever is pending, exactly as a start on an existing
// database does; test/process.test.ts and test/migrations-concurrent.test.ts start from empty.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/open-database.js';
import { PG_ADMIN_URL } from './support/server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory holding a migrated, unseeded PGlite database. */
    pgliteTemplate: string;
    /** The name of a migrated, unseeded database on the PostgreSQL server. */
    postgresTemplate: string;
  }
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function migrate(options: { dataDir: string; databaseUrl: string | undefined }): Promise<void> {
  const db = await openDatabase({ ...options, dbPoolSize: 2 });
  try {
    await db.migrate();
  } finally {
    await db.close();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('building dist/ failed (see above)');
  const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-template-'));
  const name = `learnstream_template_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  // One after the other: two schema engines at once in this process once ended the run before any
  // test with an unhandled "External error id#0" from Prisma's schema engine.
  await migrate({ dataDir, databaseUrl: undefined });
  await migrate({ dataDir, databaseUrl: url.toString() });
  project.provide('pgliteTemplate', dataDir);
  project.provide('postgresTemplate', name);
  return async () => {
    await rm(dataDir, { recursive: true, force: true });
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
}
