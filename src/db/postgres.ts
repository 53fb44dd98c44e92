// The database on a PostgreSQL server (DATABASE_URL): a pool for requests, one for migrations,
// one for readiness, and LISTEN on a connection of its own.
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Database, DatabaseOptions } from './client.js';
import { BoundedConnectClient } from './pg-connection.js';
import { listenOn } from './pg-listen.js';
import { createPgPool } from './pg-pool.js';
import { createPrismaClient } from './prisma-client.js';
import { migrationsPending } from './migration-list.js';

/** The readiness check's query (on a connection of its own) must be answered within this. */
export const PING_TIMEOUT_MS = 2_000;
/** pg advisory lock key the instances take turns under while migrating ("lsmigr"). */
const MIGRATION_LOCK = '119161006057842';

export async function openPostgres(databaseUrl: string, options: Pick<DatabaseOptions, 'dbPoolSize' | 'onQuery'>): Promise<Database> {
  const pool = createPgPool(databaseUrl, options.dbPoolSize);
  const migrationPool = createPgPool(databaseUrl, 2);
  // Readiness on a connection of its own: a pool busy with slow requests is not a database down.
  // pg's query_timeout rejects a ping, and pool.query then discards the connection it waited on.
  const pingPool = createPgPool(databaseUrl, 1, { query_timeout: PING_TIMEOUT_MS });
  const migrationAdapter = new PrismaPg(migrationPool);
  const prisma = createPrismaClient(new PrismaPg(pool), options.onQuery);
  const query = async <T>(text: string, params: unknown[], { prepare = false } = {}) => {
    options.onQuery?.(text);
    return (await pool.query(prepare ? { name: statementName(text), text, values: params } : { text, values: params })).rows as T[];
  };
  // migrationsPending takes any failure for "no history yet": a database that cannot be reached
  // must fail the start here, saying so, not send a migration child to fail the same way.
  const pendingOrUnreachable = async () => {
    await pool.query('SELECT 1');
    return migrationsPending(query);
  };
  return {
    prisma,
    kind: 'postgres',
    adapterFactory: migrationAdapter,
    migrate: async () => {
      if (!(await pendingOrUnreachable())) return [];
      // Instances take turns here, on a connection of their own, for as long as it takes.
      // Prisma's engine has a lock too, but it gives up after 10 s, and its abandoned
      // pg_advisory_lock call stays queued on the pool and later holds the lock for good.
      const lock = new BoundedConnectClient({ connectionString: databaseUrl, keepAlive: true });
      lock.on('error', () => {});
      await lock.connect();
      try {
        await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        // The instance before us may have applied them all: then the engine, whose own lock may
        // still be held by the previous engine's pooled connection, is not loaded.
        if (!(await migrationsPending(query))) return [];
        return await (await import('./schema-engine.js')).applyMigrations(migrationAdapter);
      } finally {
        await lock.end(); // also releases the lock
      }
    },
    migrationsPending: pendingOrUnreachable,
    query,
    ping: async () => {
      await pingPool.query('SELECT 1');
    },
    listen: (channel, onNotify) => listenOn(databaseUrl, channel, onNotify),
    close: async () => {
      await prisma.$disconnect();
      await Promise.all([pool.end().catch(() => {}), migrationPool.end().catch(() => {}), pingPool.end().catch(() => {})]);
    },
  };
}

/** A prepared statement's name, made from its text: one text, one name, on every connection. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `ls_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
  return name;
}
