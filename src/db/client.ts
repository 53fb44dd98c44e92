// The database every service holds: Prisma for most work, and a few things Prisma does not give
// (the driver fast path, LISTEN/NOTIFY, migrations). Opened by open-database.ts.
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Config } from '../config.js';
import type { DataDirLock } from './data-dir-lock.js';

export type Db = PrismaClient;

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
   * Prisma's query builder: only for the hottest reads, where Prisma's overhead shows.
   * `{prepare: true}` (PostgreSQL): prepared once per connection and then only executed, which
   * spares the server parsing and planning it on every call. Only for a constant text whose plan
   * does not depend on its parameters (lookups by key); see docs/decisions.md.
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
