// Starts the real service on a loopback port over a fresh database: a new PGlite directory, or
// a new database on the PostgreSQL server (created here, dropped on stop). Logs are kept in
// memory so tests can assert what was (and was not) logged.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Plugin } from 'graphql-yoga';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { client, type Client } from './http.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';

export type DatabaseKind = 'pglite' | 'postgres';
export const DATABASES: DatabaseKind[] = ['pglite', 'postgres'];

/** The PostgreSQL server tests create their databases on (override with TEST_PG_URL). */
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestServer extends RunningServer {
  kind: DatabaseKind;
  config: Config;
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** Every SQL statement sent so far (clear it with `queries.length = 0`). */
  queries: string[];
  /** The raw log text (to check that no secret was written). */
  logText(): string;
  /** For postgres servers: the database URL (to break or inspect the database from a test). */
  databaseUrl?: string;
  /** Stops the server and starts it again on the same database; `stop` on either stops the new one. */
  restart(): Promise<TestServer>;
}

export interface TestServerOptions {
  kind?: DatabaseKind;
  /** Extra environment, as the real process would get it. */
  env?: Record<string, string>;
  /** Yoga plugins added after the service's own. */
  plugins?: Plugin[];
  /** Reuse an existing data dir / database (used by restart). */
  reuse?: { dataDir: string; databaseUrl?: string };
  /** How long a WebSocket may wait before its connection_init (default: the contract's 10 s). */
  webSocketInitTimeoutMs?: number;
}

/**
 * Creates a database on the PostgreSQL server and returns its URL and a drop function: empty, or
 * a copy of the suite's migrated template (test/global-setup.ts).
 */
export async function createPgDatabase({ migrated = false } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `learnstream_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${migrated ? ` TEMPLATE ${inject('postgresTemplate')}` : ''}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A new data directory: for PGlite, a copy of the suite's migrated one, as a restart would find it. */
async function newDataDir(kind: DatabaseKind): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'learnstream-test-'));
  if (kind === 'pglite') await cp(inject('pgliteTemplate'), dir, { recursive: true });
  return dir;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const kind = options.kind ?? 'postgres';
  const dataDir = options.reuse?.dataDir ?? (await newDataDir(kind));
  let databaseUrl = options.reuse?.databaseUrl;
  let dropDb: (() => Promise<void>) | undefined;
  if (kind === 'postgres' && !databaseUrl) {
    const created = await createPgDatabase({ migrated: true });
    databaseUrl = created.url;
    dropDb = created.drop;
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'debug',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });

  let text = '';
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = chunk.toString();
      text += line;
      for (const l of line.split('\n').filter(Boolean)) logs.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const queries: string[] = [];
  // Migrations in-process: the child process that `npm start` uses (test/process.test.ts covers it)
  // would add its start-up to each of the suite's hundreds of servers.
  const running = await startServer(config, {
    log: createLogger('debug', sink),
    onQuery: (sql) => queries.push(sql),
    plugins: options.plugins,
    migrateInProcess: true,
    webSocketInitTimeoutMs: options.webSocketInitTimeoutMs,
  });
  let stopped = false;
  // The server a restart started: stopping this one stops that one, so whoever owns the first
  // (a fixture) also cleans up after a test that restarted it.
  let successor: TestServer | undefined;
  const server: TestServer = {
    ...running,
    kind,
    config,
    logs,
    queries,
    logText: () => text,
    databaseUrl,
    stop: async () => {
      if (successor) return successor.stop();
      if (stopped) return;
      stopped = true;
      await running.stop();
      if (dropDb) await dropDb();
      if (!options.reuse) await rm(dataDir, { recursive: true, force: true });
    },
    restart: async () => {
      stopped = true;
      await running.stop();
      const next = await startTestServer({ kind, env: options.env, reuse: { dataDir, databaseUrl } });
      const stopNext = next.stop;
      next.stop = async () => {
        await stopNext();
        if (dropDb) await dropDb();
        await rm(dataDir, { recursive: true, force: true });
      };
      successor = next;
      return next;
    },
  };
  return server;
}

/** Runs one statement on `databaseUrl`, on a connection of its own. */
export async function queryDb<T extends pg.QueryResultRow>(databaseUrl: string | undefined, text: string, params: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query<T>(text, params)).rows;
  } finally {
    await db.end();
  }
}

/** Runs one statement on a postgres test server's database, on a connection of its own. */
export const sql = <T extends pg.QueryResultRow>(server: TestServer, text: string, params: unknown[] = []): Promise<T[]> =>
  queryDb<T>(server.databaseUrl, text, params);

/**
 * Two instances sharing one database (and what `options` gives both, e.g. REDIS_URL), started
 * before the suite's tests and stopped after them.
 */
export function instancesForSuite(options: TestServerOptions = {}): { a: TestServer; b: TestServer } {
  const suite = {} as { a: TestServer; b: TestServer };
  beforeAll(async () => {
    suite.a = await startTestServer(options);
    suite.b = await startTestServer({ ...options, reuse: { dataDir: suite.a.config.dataDir, databaseUrl: suite.a.databaseUrl } });
  });
  afterAll(async () => {
    await suite.b?.stop();
    await suite.a?.stop();
  });
  return suite;
}

/**
 * A server for the enclosing `describe` (or file): started before its tests, stopped after them.
 * Read `.server` and `.api` inside the tests.
 */
export function serverForSuite(options: TestServerOptions = {}): { server: TestServer; api: Client } {
  const suite = {} as { server: TestServer; api: Client };
  beforeAll(async () => {
    suite.server = await startTestServer(options);
    suite.api = client(suite.server.url);
  });
  afterAll(() => suite.server?.stop());
  return suite;
}
