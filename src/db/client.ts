// Opens the database: a real PostgreSQL server when DATABASE_URL is set, otherwise embedded
// PostgreSQL (PGlite) persisted in DATA_DIR. Both go through a Prisma driver adapter, so the
// same client, schema and migrations serve both.
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import type { Config } from '../config.js';
import { applyMigrations, migrationsPending } from './schema-engine.js';

export type Db = PrismaClient;

/** pg advisory lock key the instances take turns under while migrating ("lsmigr"). */
const MIGRATION_LOCK = '119161006057842';

export interface Database {
  readonly prisma: PrismaClient;
  readonly kind: 'pglite' | 'postgres';
  /** For the schema engine (migrations). */
  readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** Applies pending migrations in this process, one instance at a time; returns the names applied now. */
  migrate(): Promise<string[]>;
  /** Whether migrate() has anything to do (cheap: it does not load the schema engine). */
  migrationsPending(): Promise<boolean>;
  /**
   * Runs one parameterised statement straight on the driver (pg pool or PGlite), bypassing
   * Prisma's query builder. Only for the hottest reads: Prisma costs ~4x plain pg per lookup.
   */
  query<T>(text: string, params: unknown[]): Promise<T[]>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (a plain lower-case name).
   * PostgreSQL: on a connection of its own, reconnected when lost; after a reconnect it calls
   * `onNotify(null)`, since notifications may have been missed meanwhile. PGlite: in process.
   * Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** LISTEN's reconnection delays (PostgreSQL): from the first, doubling up to the last. */
const LISTEN_RETRY_MS = [250, 10_000] as const;

/** LISTEN on a pg connection of its own, reconnected with backoff while not stopped. */
async function listenOn(databaseUrl: string, channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`listen: not a plain channel name: ${channel}`);
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay: number = LISTEN_RETRY_MS[0];
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    // A lost connection is seen as 'end' below; the error itself needs no handling.
    client.on('error', () => {});
    client.on('notification', (n) => {
      if (n.channel === channel) onNotify(n.payload ?? '');
    });
    client.on('end', () => {
      if (current !== client) return;
      current = undefined;
      schedule();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    delay = LISTEN_RETRY_MS[0];
  };
  const schedule = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect().then(
        () => onNotify(null),
        () => {
          delay = Math.min(delay * 2, LISTEN_RETRY_MS[1]);
          schedule();
        },
      );
    }, delay);
  };
  // Not reachable now: keep trying in the background (the caller polls meanwhile).
  await connect().catch(schedule);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}

/**
 * A pool whose clients never end the process with an unhandled 'error'. pg-pool listens for
 * errors only while a client is idle; one handed straight from a finished query to a waiting
 * caller (a transaction starting) has no listener until that caller attaches one, and when
 * PostgreSQL shuts down the same read that finishes the query brings its "terminating connection"
 * too: the client emitted 'error' to nobody and the process exited (found by scripts/soak.ts,
 * restarting PostgreSQL under load). With a listener for life, the client is only marked broken:
 * its next query fails as unavailable (503) and the pool discards it on release.
 */
export function createPgPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * Interactive transactions (a change and its event) may wait this long for a connection and run
 * this long. Prisma's defaults (2 s, 5 s) turned writes that were merely slow into 500s after the
 * client had waited for them: under load (scripts/soak.ts: 200 clients on two cores, a queue of
 * updates to one row, a CPU-starved event loop between a transaction's statements) a transaction
 * ran past 5 s and Prisma threw it away at its next statement ("expired transaction").
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

export type DatabaseOptions = Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'> & {
  /** Called for every SQL statement Prisma sends (tests count queries with it). */
  onQuery?: (sql: string) => void;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.onQuery ? ([{ emit: 'event', level: 'query' }] as const) : undefined;
  if (options.databaseUrl) {
    const pool = createPgPool(options.databaseUrl, options.dbPoolSize);
    const adapterFactory = new PrismaPg(pool);
    const migrationPool = createPgPool(options.databaseUrl, 2);
    const migrationAdapter = new PrismaPg(migrationPool);
    const prisma = new PrismaClient({ adapter: adapterFactory, log: log ? [...log] : undefined, transactionOptions: TRANSACTION_OPTIONS });
    if (options.onQuery) prisma.$on('query' as never, (e: { query: string }) => options.onQuery!(e.query));
    const query = async <T>(text: string, params: unknown[]) => {
      options.onQuery?.(text);
      return (await pool.query(text, params)).rows as T[];
    };
    return {
      prisma,
      kind: 'postgres',
      adapterFactory: migrationAdapter,
      migrate: async () => {
        if (!(await migrationsPending(query))) return [];
        // Instances take turns here, on a connection of their own, for as long as it takes.
        // Prisma's engine has a lock too, but it gives up after 10 s, and its abandoned
        // pg_advisory_lock call stays queued on the pool and later holds the lock for good.
        const lock = new pg.Client({ connectionString: options.databaseUrl });
        await lock.connect();
        try {
          await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
          // The instance before us may have applied them all: then the engine is not loaded. (It
          // was: its own lock could still be held by the previous engine's pooled connection, and
          // it gives up after 10 s, which failed three instances starting together in one test
          // process, where the pools outlive the migration.)
          if (!(await migrationsPending(query))) return [];
          return await applyMigrations(migrationAdapter);
        } finally {
          await lock.end(); // also releases the lock
        }
      },
      migrationsPending: () => migrationsPending(query),
      query,
      ping: async () => {
        await prisma.$queryRaw`SELECT 1`;
      },
      listen: (channel, onNotify) => listenOn(options.databaseUrl!, channel, onNotify),
      close: async () => {
        await prisma.$disconnect();
        await Promise.all([pool.end().catch(() => {}), migrationPool.end().catch(() => {})]);
      },
    };
  }
  const dir = join(options.dataDir, 'pglite');
  await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create(dir);
  const adapterFactory = new PrismaPGlite(pglite);
  const prisma = new PrismaClient({ adapter: adapterFactory, log: log ? [...log] : undefined, transactionOptions: TRANSACTION_OPTIONS });
  if (options.onQuery) prisma.$on('query' as never, (e: { query: string }) => options.onQuery!(e.query));
  const query = async <T>(text: string, params: unknown[]) => {
    options.onQuery?.(text);
    return (await pglite.query<T>(text, params)).rows;
  };
  return {
    prisma,
    kind: 'pglite',
    adapterFactory,
    // One process owns a PGlite directory: nobody to take turns with.
    migrate: async () => ((await migrationsPending(query)) ? applyMigrations(adapterFactory) : []),
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
      await prisma.$disconnect();
      // $disconnect does not close PGlite; without this the next start replays its WAL.
      await pglite.close();
    },
  };
}

/**
 * Locks a user's row until `tx` ends: the rules that count a user's rows before adding one (at
 * most 100 live API keys, at most 100 live sessions) take turns on it, so concurrent requests
 * cannot each pass the count.
 */
export async function lockUser(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE id = ${userId} FOR UPDATE`;
}
