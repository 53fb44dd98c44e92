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
import { PrismaClient } from '../generated/prisma/client.js';
import type { Config } from '../config.js';

export type Db = PrismaClient;

export interface Database {
  readonly prisma: PrismaClient;
  readonly kind: 'pglite' | 'postgres';
  /** For the schema engine (migrations). */
  readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /**
   * Runs one parameterised statement straight on the driver (pg pool or PGlite), bypassing
   * Prisma's query builder. Only for the hottest reads: Prisma costs ~4x plain pg per lookup.
   */
  query<T>(text: string, params: unknown[]): Promise<T[]>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions = Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'> & {
  /** Called for every SQL statement Prisma sends (tests count queries with it). */
  onQuery?: (sql: string) => void;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.onQuery ? ([{ emit: 'event', level: 'query' }] as const) : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.dbPoolSize });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    const adapterFactory = new PrismaPg(pool);
    const prisma = new PrismaClient({ adapter: adapterFactory, log: log ? [...log] : undefined });
    if (options.onQuery) prisma.$on('query' as never, (e: { query: string }) => options.onQuery!(e.query));
    return {
      prisma,
      kind: 'postgres',
      adapterFactory: new PrismaPg({ connectionString: options.databaseUrl, max: 2 }),
      query: async <T>(text: string, params: unknown[]) => {
        options.onQuery?.(text);
        return (await pool.query(text, params)).rows as T[];
      },
      ping: async () => {
        await prisma.$queryRaw`SELECT 1`;
      },
      close: async () => {
        await prisma.$disconnect();
        await pool.end().catch(() => {});
      },
    };
  }
  const dir = join(options.dataDir, 'pglite');
  await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create(dir);
  const adapterFactory = new PrismaPGlite(pglite);
  const prisma = new PrismaClient({ adapter: adapterFactory, log: log ? [...log] : undefined });
  if (options.onQuery) prisma.$on('query' as never, (e: { query: string }) => options.onQuery!(e.query));
  return {
    prisma,
    kind: 'pglite',
    adapterFactory,
    query: async <T>(text: string, params: unknown[]) => {
      options.onQuery?.(text);
      return (await pglite.query<T>(text, params)).rows;
    },
    ping: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    close: async () => {
      await prisma.$disconnect();
      // $disconnect does not close PGlite; without this the next start replays its WAL.
      await pglite.close();
    },
  };
}
