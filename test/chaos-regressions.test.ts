// What `npm run soak` (scripts/soak.ts) found by restarting PostgreSQL and stopping Redis under
// load, each reproduced here on its own:
// - a pooled client handed from a finished query straight to a waiting caller had no 'error'
//   listener, so PostgreSQL's "terminating connection" arriving in the same read ended the process;
// - the query such a broken client then refuses ("not queryable") was answered 500, not 503;
// - a live event published while Redis was away ended the process (an unhandled rejection);
// - a transaction slowed past Prisma's default 5 s (a queue on one row, a starved event loop) was
//   thrown away at its next statement and answered 500;
// - every event a subscription delivered stayed in memory (a Promise.race per event against the
//   never-settling "credential revoked" promise): the heap grew for as long as streams were open;
// - webhook deliveries whose relay lost PostgreSQL between its commit and making them due waited
//   a minute or more (the relay's housekeeping) before anything sent them.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Caller } from '../src/modules/auth/caller.js';
import type { Db } from '../src/db/client.js';
import { openDatabase } from '../src/db/open-database.js';
import { createPgPool } from '../src/db/pg-pool.js';
import { createCredentialWatch } from '../src/modules/auth/credential-watch.js';
import { EVERYONE } from '../src/modules/events/audience.js';
import { createEventService } from '../src/modules/events/service.js';
import { isDatabaseUnavailable } from '../src/errors.js';
import { errorResponse } from '../src/http/errors.js';
import { createLogger } from '../src/logger.js';

const silentLogger = createLogger('silent');
import type { EventBus } from '../src/modules/events/bus.js';
import { createEventBus } from '../src/modules/events/bus/create-event-bus.js';
import { createRelay } from '../src/modules/events/relay.js';
import { STRANDED_AFTER_MS } from '../src/modules/events/relay/due-deliveries.js';
import { tcpProxy } from '../bench/lib/tcp-proxy.js';
import { createPgDatabase, PG_ADMIN_URL } from './support/server.js';
import { freePort, sleep, waitFor } from './support/wait.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

describe('a PostgreSQL restart under load', () => {
  it('a client handed to a waiting caller survives its server going away, answers unavailable, and is discarded', async () => {
    const pool = createPgPool(PG_ADMIN_URL, 1);
    try {
      const first = await pool.connect();
      const waiting = pool.connect();
      // Releasing hands the client to the waiting caller at once (pg-pool's queue), before that
      // caller's code runs; then the server's FATAL arrives, as it does when PostgreSQL shuts down.
      first.release();
      const fatal = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
      const connection = (first as unknown as { connection: { emit(event: string, error: Error): boolean } }).connection;
      expect(() => connection.emit('errorMessage', fatal)).not.toThrow();

      const handed = await waiting;
      const refused = await handed.query('SELECT 1').then(() => undefined, (error: unknown) => error);
      expect((refused as Error).message).toMatch(/not queryable/);
      expect(isDatabaseUnavailable(refused)).toBe(true);
      handed.release();

      // The broken client was discarded: the next one works.
      const next = await pool.connect();
      expect((await next.query<{ ok: number }>('SELECT 1 AS ok')).rows[0]?.ok).toBe(1);
      next.release();
    } finally {
      // Without the fix the handed client is never released: do not wait for it.
      await Promise.race([pool.end(), sleep(2_000)]);
    }
  });
});

describe('slow transactions', () => {
  it('a transaction the database held past its timeout (a table locked by an operator) answers the contract 503, not 500', { timeout: 30_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-chaos-'));
    const db = await openDatabase({ databaseUrl: PG_ADMIN_URL, dataDir, dbPoolSize: 2 });
    try {
      // Prisma's real error for it (P2028, "A commit cannot be executed on an expired transaction"),
      // with a timeout short enough for a test: the service's is TRANSACTION_OPTIONS's 30 s.
      const expired = await db.prisma
        .$transaction(async (tx) => tx.$queryRaw`SELECT 1 FROM pg_sleep(0.5)`, { timeout: 100 })
        .then(() => undefined, (error: unknown) => error);
      expect((expired as { code?: string }).code).toBe('P2028');
      const response = errorResponse(Response, expired, silentLogger);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({ error: true, code: 503, message: 'Service temporarily unavailable: the database is not reachable' });
    } finally {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a transaction that runs past 5 s still commits', { timeout: 30_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-chaos-'));
    const db = await openDatabase({ databaseUrl: PG_ADMIN_URL, dataDir, dbPoolSize: 2 });
    try {
      const result = await db.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 AS slept FROM pg_sleep(6)`;
        return tx.$queryRaw<{ ok: number }[]>`SELECT 1 AS ok`;
      });
      expect(result[0]?.ok).toBe(1);
    } finally {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a long subscription', () => {
  it('does not keep the events it has delivered', { timeout: 60_000 }, async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const bus = createEventBus({ channel: 'learnstream:events:chaos-memory' });
    // Only what a stream without `after` reads: the newest position, and nothing stored after it.
    const db = { $queryRaw: async () => [{ max: null }], event: { findMany: async () => [] } } as unknown as Db;
    const credentials = createCredentialWatch({ query: async () => [] }); // never revoked
    const events = createEventService({ db, bus, credentials });
    const caller = { userId: 'usr_x', role: 'MEMBER', tier: 'FREE', sessionId: 'ses_x' } as unknown as Caller;
    const stream = await events.stream({ caller });
    const N = 20_000;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    let read = 0;
    for (let i = 1; i <= N; i++) {
      bus.publish({ id: `evt_${i}`, position: i, audience: EVERYONE, payload: { event: 'analytics.hit', timestamp: new Date().toISOString(), path: `/${randomBytes(1_000).toString('hex')}` } });
      const next = await stream.next();
      if (!next.done) read++;
    }
    const grownMb = (heap() - before) / 1048576;
    await stream.return?.();
    expect(read).toBe(N);
    // Kept, they are ~50 MB (20,000 events of 2 kB each).
    expect(grownMb).toBeLessThan(10);
  });
});

describe('Redis away', () => {
  it('publishing a live event while Redis is unreachable does not end the process', async () => {
    process.on('unhandledRejection', onUnhandled);
    const port = await freePort(); // nothing listens: every connection is refused
    const bus = createEventBus({ redisUrl: `redis://127.0.0.1:${port}`, channel: 'learnstream:events:chaos-test' });
    try {
      bus.publish({ id: 'evt_chaos', position: 1, payload: { event: 'analytics.hit', timestamp: new Date().toISOString(), path: '/chaos' } });
      // ioredis gives a command up after maxRetriesPerRequest (3) reconnection attempts: ~0.3 s.
      await sleep(1_500);
      expect(unhandled).toEqual([]);
    } finally {
      await bus.close();
    }
  });
});

describe("PostgreSQL gone between the relay's commit and its making the deliveries due", () => {
  it('the relay makes them due once PostgreSQL is back, before they would count as stranded', { timeout: 60_000 }, async () => {
    const database = await createPgDatabase({ migrated: true });
    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    // The relay reaches PostgreSQL through a proxy that can be cut: PostgreSQL going away for it.
    const proxy = tcpProxy(database.url);
    const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-chaos-'));
    const db = await openDatabase({ databaseUrl: await proxy.listen(), dataDir, dbPoolSize: 2 });
    const logs: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    // The in-process bus, cut off from PostgreSQL the moment the batch is published: after the
    // commit, before the deliveries are made due.
    const inProcess = createEventBus({ channel: 'learnstream:events:chaos-relay' });
    let cutOnce = false;
    const bus: EventBus = {
      ...inProcess,
      flushed: async () => {
        await inProcess.flushed();
        if (!cutOnce) proxy.cut();
        cutOnce = true;
      },
    };
    const relay = createRelay({ db: db.prisma, bus, log: createLogger('debug', sink), retentionDays: 7, intervalMs: 100 });
    try {
      await direct.query(`INSERT INTO "WebhookEndpoint" (id, url, events, secret, "updatedAt") VALUES ('whk_chaos', 'http://127.0.0.1:9/', '{analytics.hit}', 'whsec_x', now())`);
      await direct.query(`INSERT INTO "Event" (id, type, payload) VALUES ('evt_chaos', 'analytics.hit', '{"event": "analytics.hit", "timestamp": "2026-11-28T00:00:00.000Z", "path": "/chaos"}')`);
      relay.start();
      await waitFor('the making due refused', () => logs.some((l) => l.msg === 'event relay tick failed'));
      // Committed: positioned and fanned out, and not due.
      const delivery = async () =>
        (await direct.query<{ createdAt: Date; nextAttemptAt: Date | null; position: string | null }>(
          `SELECT d."createdAt", d."nextAttemptAt", e.position FROM "WebhookDelivery" d JOIN "Event" e ON e.id = d."eventId"`,
        )).rows;
      const [held] = await delivery();
      expect(held).toMatchObject({ position: '1', nextAttemptAt: null });

      proxy.restore();
      const [due] = await waitFor('made due', async () => ((await delivery())[0]?.nextAttemptAt ? delivery() : undefined));
      // By the relay that created it, at its next loop once PostgreSQL answered: not by the rescue
      // of stranded deliveries, which only takes those STRANDED_AFTER_MS old.
      expect(due!.nextAttemptAt!.getTime() - due!.createdAt.getTime()).toBeLessThan(STRANDED_AFTER_MS);
      expect(logs.some((l) => /stranded/.test(String(l.msg)))).toBe(false);
    } finally {
      await relay.stop();
      await inProcess.close();
      await db.close();
      await proxy.close();
      await direct.end();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
