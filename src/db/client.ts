// Opens the database: a real PostgreSQL server when DATABASE_URL is set, otherwise embedded
// PostgreSQL (PGlite) persisted in DATA_DIR. Both go through a Prisma driver adapter, so the
// same client, schema and migrations serve both.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import type { Config } from '../config.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
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
   * `{prepare: true}`: on PostgreSQL the statement is prepared once per connection (named after
   * its text) and then only executed, which spares the server parsing and planning it on every
   * call (for the session check, measured on a 2-core machine: PostgreSQL's CPU a query 180-200 us
   * unnamed, 72 us prepared). For the statements every request runs, whose plan does not depend on
   * their parameters (lookups by key), and whose text is a constant.
   */
  query<T>(text: string, params: unknown[], options?: { prepare?: boolean }): Promise<T[]>;
  /**
   * Resolves when the database answers a query. PostgreSQL: on a connection of its own (a busy
   * pool does not make the database look down), and rejects when no answer came within
   * PING_TIMEOUT_MS.
   */
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

/** A prepared statement's name, made from its text: one text, one name, on every connection. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `ls_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
  return name;
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
    const client = new BoundedConnectClient({ connectionString: databaseUrl, keepAlive: true });
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
 * How long making a new connection may take: PostgreSQL answers a connection in milliseconds, and
 * 5 s is what Prisma's own engine allowed (`connect_timeout`). Without it a server that accepts
 * TCP but never answers (a proxy that stopped forwarding, a host that froze) held every request,
 * and the start, forever. Only connecting: waiting for a free pooled connection under load stays
 * unbounded, as before (a transaction still gives up after TRANSACTION_OPTIONS.maxWait).
 */
export const CONNECT_TIMEOUT_MS = 5_000;
/** The readiness check's query (on a connection of its own) must be answered within this. */
export const PING_TIMEOUT_MS = 2_000;
/** A statement unanswered this long makes the pool check that the database answers at all. */
export const SILENT_CHECK_AFTER_MS = 5_000;
/** The check: a new connection (within CONNECT_TIMEOUT_MS) must answer SELECT 1 within this. */
export const PROBE_TIMEOUT_MS = 5_000;
const SILENT_CHECK_EVERY_MS = 1_000;

/**
 * What the queries of a connection that was given up on fail with: `ETIMEDOUT` and "Connection
 * terminated", both of which isDatabaseUnavailable (src/errors.ts) answers 503.
 */
export function databaseNotAnswering(what: 'connecting' | 'a statement', ms: number): Error {
  const s = Math.round(ms / 1000);
  const message = what === 'connecting' ? `the database did not answer the connection within ${s} s` : `the database did not answer a statement for ${s} s`;
  return Object.assign(new Error(`Connection terminated: ${message}`), { code: 'ETIMEDOUT' });
}

/**
 * A pg client whose connecting ends after CONNECT_TIMEOUT_MS with databaseNotAnswering (503).
 * pg's own connectionTimeoutMillis fails with a bare "timeout expired", which nothing recognises
 * as the database being unreachable, and on a pool it also bounds waiting for a pooled connection.
 */
class BoundedConnectClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error) => void): void;
  override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
    const timer = setTimeout(() => this.connection.stream.destroy(databaseNotAnswering('connecting', CONNECT_TIMEOUT_MS)), CONNECT_TIMEOUT_MS);
    timer.unref();
    if (callback) {
      super.connect((err: Error) => {
        clearTimeout(timer);
        callback(err);
      });
      return;
    }
    return super.connect().finally(() => clearTimeout(timer));
  }
}

/** Whether the database answers SELECT 1 on a new connection of its own, within the probe's bounds. */
async function databaseAnswers(connectionString: string): Promise<boolean> {
  const client = new BoundedConnectClient({ connectionString, query_timeout: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    void client.end().catch(() => {});
  }
}

/**
 * Bounds how long a statement waits for a database that stopped answering, without cutting one
 * that is merely slow. No fixed statement timeout fits: a migration, a chunk of housekeeping
 * deletes, a statement queued behind a row lock held by a 30 s transaction may all legitimately
 * run long, and pg's own `query_timeout` rejects the query but leaves the connection waiting for
 * its answer, so a transaction's connection went back to the pool still busy. Instead: when a
 * connection that is checked out of the pool has heard nothing from the database for
 * SILENT_CHECK_AFTER_MS, a new connection asks the database SELECT 1; if that gets no answer
 * either, every checked-out connection silent that long is destroyed. Their statements fail with
 * databaseNotAnswering (503), and a destroyed client is never reused (pg-pool discards a client
 * that is not queryable on release). While the database answers the check, slow statements run
 * on. (`keepAlive` covers a peer that vanished outright.)
 * Watched through the pool's own events and each connection's socket, never per statement: a
 * wrapper around every query cost each REST lookup 0.8 kB (measured in one process).
 */
function watchForSilence(pool: pg.Pool, connectionString: string): void {
  /** When each connection last heard from the database (or was checked out). */
  const heard = new Map<pg.PoolClient, number>();
  /** The connections checked out of the pool: a statement of theirs may be waiting. */
  const out = new Set<pg.PoolClient>();
  let timer: NodeJS.Timeout | undefined;
  let checking = false;
  const arm = () => {
    if (timer || checking) return;
    timer = setTimeout(() => void check(), SILENT_CHECK_EVERY_MS);
    timer.unref();
  };
  const check = async () => {
    timer = undefined;
    const silent = (client: pg.PoolClient) => Date.now() - (heard.get(client) ?? Date.now()) >= SILENT_CHECK_AFTER_MS;
    if ([...out].some(silent)) {
      checking = true;
      const answers = await databaseAnswers(connectionString);
      checking = false;
      if (!answers) {
        for (const client of [...out].filter(silent)) {
          client.connection.stream.destroy(databaseNotAnswering('a statement', Date.now() - heard.get(client)!));
        }
      }
    }
    if (out.size) arm();
  };
  pool.on('connect', (client) => {
    heard.set(client, Date.now());
    client.connection.stream.on('data', () => heard.set(client, Date.now()));
    client.once('end', () => {
      heard.delete(client);
      out.delete(client);
    });
  });
  pool.on('acquire', (client) => {
    heard.set(client, Date.now());
    out.add(client);
    arm();
  });
  pool.on('release', (_error, client) => out.delete(client));
}

/**
 * A pool whose clients never end the process with an unhandled 'error'. pg-pool listens for
 * errors only while a client is idle; one handed straight from a finished query to a waiting
 * caller (a transaction starting) has no listener until that caller attaches one, and when
 * PostgreSQL shuts down the same read that finishes the query brings its "terminating connection"
 * too: the client emitted 'error' to nobody and the process exited (found by scripts/soak.ts,
 * restarting PostgreSQL under load). With a listener for life, the client is only marked broken:
 * its next query fails as unavailable (503) and the pool discards it on release.
 *
 * A database that stops answering is bounded too: connecting by CONNECT_TIMEOUT_MS (through
 * BoundedConnectClient), statements by watchForSilence.
 */
export function createPgPool(connectionString: string, max: number, extra: Pick<pg.PoolConfig, 'query_timeout'> = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, Client: BoundedConnectClient, keepAlive: true, ...extra });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  watchForSilence(pool, connectionString);
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
  /**
   * Embedded database: DATA_DIR already locked by the caller (kept across a close and a reopen,
   * e.g. while a child process migrates); not released by close(). Without it openDatabase locks
   * DATA_DIR itself and close() releases it.
   */
  dataDirLock?: DataDirLock;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.onQuery ? ([{ emit: 'event', level: 'query' }] as const) : undefined;
  if (options.databaseUrl) {
    const pool = createPgPool(options.databaseUrl, options.dbPoolSize);
    const adapterFactory = new PrismaPg(pool);
    const migrationPool = createPgPool(options.databaseUrl, 2);
    // Readiness on a connection of its own: a pool busy with slow requests is not a database down.
    // pg's query_timeout rejects a ping, and pool.query then discards the connection it waited on.
    const pingPool = createPgPool(options.databaseUrl, 1, { query_timeout: PING_TIMEOUT_MS });
    const migrationAdapter = new PrismaPg(migrationPool);
    const prisma = new PrismaClient({ adapter: adapterFactory, log: log ? [...log] : undefined, transactionOptions: TRANSACTION_OPTIONS });
    if (options.onQuery) prisma.$on('query' as never, (e: { query: string }) => options.onQuery!(e.query));
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
        const lock = new BoundedConnectClient({ connectionString: options.databaseUrl, keepAlive: true });
        lock.on('error', () => {});
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
      migrationsPending: pendingOrUnreachable,
      query,
      ping: async () => {
        await pingPool.query('SELECT 1');
      },
      listen: (channel, onNotify) => listenOn(options.databaseUrl!, channel, onNotify),
      close: async () => {
        await prisma.$disconnect();
        await Promise.all([pool.end().catch(() => {}), migrationPool.end().catch(() => {}), pingPool.end().catch(() => {})]);
      },
    };
  }
  // One process at a time (src/db/data-dir-lock.ts): a second one refuses to start.
  const lock = options.dataDirLock ?? (await lockDataDir(options.dataDir));
  const releaseLock = () => (options.dataDirLock ? Promise.resolve() : lock.release());
  const dir = join(options.dataDir, 'pglite');
  // Loaded only here: a process on a PostgreSQL server never needs them (1–4 MB less heap 10 s after start).
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  let pglite: PGlite;
  try {
    await mkdir(dir, { recursive: true });
    pglite = await PGlite.create(dir);
  } catch (error) {
    await releaseLock();
    throw error;
  }
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

/**
 * Locks a user's row until `tx` ends: the rules that count a user's rows before adding one (at
 * most 100 live API keys, at most 100 live sessions) take turns on it, so concurrent requests
 * cannot each pass the count.
 */
export async function lockUser(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE id = ${userId} FOR UPDATE`;
}
