// Opens the database: a PostgreSQL server when DATABASE_URL is set, otherwise embedded PostgreSQL
// (PGlite) persisted in DATA_DIR. Both go through a Prisma driver adapter, so the same client,
// schema and migrations serve both.
import type { Database, DatabaseOptions } from './client.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

export function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}
