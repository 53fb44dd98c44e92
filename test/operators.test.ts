// What an operator runs into: a database that refuses the service's connections, a Redis that
// refuses its password, and values of the environment that used to pass the check and then break
// the service. Real PostgreSQL, real redis-server processes, the real service.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { client } from './support/http.js';
import { processPool, type Instance } from './support/process.js';
import { createPgDatabase, PG_ADMIN_URL, startTestServer, type TestServer } from './support/server.js';
import { freePort, waitFor } from './support/wait.js';

/** Runs `text` on the PostgreSQL server's admin database (never the service's own). */
async function admin(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** Runs `step` until it does not throw (e.g. while sessions come and go). */
const retried = (what: string, step: () => Promise<void>) =>
  waitFor(what, () => step().then(() => true, () => false));

describe('a database that refuses the connection answers 503, as one that is down', () => {
  const servers: TestServer[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** Every answer of the service while the database refuses it: REST 503 with Retry-After, GraphQL UNAVAILABLE. */
  async function expectUnavailable(server: TestServer): Promise<void> {
    const api = client(server.url);
    const rest = await api.get('/api/content/docs');
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect(rest.body).toMatchObject({ error: true, code: 503 });
    const gql = await api.graphql('{ docs { slug } }');
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAVAILABLE' });
    expect((await api.get('/readyz')).status).toBe(503);
  }

  /** Served again once the database lets the service in. */
  async function expectRecovered(server: TestServer): Promise<void> {
    const api = client(server.url);
    await waitFor('REST answers again', async () => (await api.get('/api/content/docs')).status === 200);
    expect((await api.graphql('{ docs { slug } }')).body.data.docs.length).toBeGreaterThan(0);
  }

  it('renamed away (3D000 "database does not exist"), then back', async () => {
    const server = await startTestServer({ kind: 'postgres' });
    servers.push(server);
    const name = new URL(server.databaseUrl!).pathname.slice(1);
    const away = `${name}_away`;
    expect((await client(server.url).get('/api/content/docs')).status).toBe(200);
    // Renaming needs the database free of sessions: the service's are ended first (it reconnects
    // on its next query, so this may take a few tries).
    await retried('renaming the database away', async () => {
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
      await admin(`ALTER DATABASE ${name} RENAME TO ${away}`);
    });
    try {
      await expectUnavailable(server);
    } finally {
      await retried('renaming the database back', () => admin(`ALTER DATABASE ${away} RENAME TO ${name}`));
    }
    await expectRecovered(server);
  });

  it('its role refused (28000: ALTER ROLE … NOLOGIN), then let in again', async () => {
    // A role of the test's own, so that refusing it refuses no one else.
    const role = `learnstream_test_role_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE ROLE ${role} LOGIN SUPERUSER`);
    cleanups.push(() => admin(`DROP ROLE IF EXISTS ${role}`));
    const db = await createPgDatabase({ migrated: true });
    cleanups.push(() => db.drop());
    const url = new URL(db.url);
    url.username = role;
    const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-operators-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startTestServer({ kind: 'postgres', reuse: { dataDir, databaseUrl: url.toString() } });
    servers.push(server);
    expect((await client(server.url).get('/api/content/docs')).status).toBe(200);
    await admin(`ALTER ROLE ${role} NOLOGIN`);
    try {
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '${role}'`);
      await expectUnavailable(server);
    } finally {
      await admin(`ALTER ROLE ${role} LOGIN`);
    }
    await expectRecovered(server);
  });
});

/** The JSON log lines `instance` wrote so far. */
const logLinesOf = (instance: Instance) =>
  instance.output().split('\n').filter((line) => line.startsWith('{') && line.endsWith('}')).map((line) => JSON.parse(line) as Record<string, unknown>);

/** A redis-server of the test's own that asks for `password` (the suite's shared one asks for none). */
async function redisWithPassword(password: string) {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'learnstream-redis-'));
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--requirepass', password], {
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  let current = password;
  const admin = new Redis({ port, host: '127.0.0.1', password, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  admin.on('error', () => {}); // refused until redis-server is up: connect() below says so
  await waitFor('redis-server to answer', () => admin.connect().then(() => true, () => false));
  /** How often Redis refused a client's AUTH (WRONGPASS) or a command for want of one (NOAUTH). */
  const refusals = async (kind: 'WRONGPASS' | 'NOAUTH') => Number(new RegExp(`errorstat_${kind}:count=(\\d+)`).exec(await admin.info('errorstats'))?.[1] ?? 0);
  return {
    url: (given?: string) => `redis://${given === undefined ? '' : `:${encodeURIComponent(given)}@`}127.0.0.1:${port}/5`,
    refusals,
    /** The live-event channels someone is subscribed to (the service's bus, once it is heard). */
    eventChannels: async () => (await admin.pubsub('CHANNELS', 'learnstream:events:*')) as string[],
    /** What an operator does to rotate the password: set the new one, then end every client's connection. */
    async rotate(next: string) {
      await admin.config('SET', 'requirepass', next);
      current = next;
      await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
      await admin.client('KILL', 'TYPE', 'pubsub');
    },
    async stop() {
      admin.disconnect();
      proc.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
      return current;
    },
  };
}

// Each test starts the compiled service and waits on Redis's reconnections and a log line written at
// most every 10 s: under the whole suite's load that took more than vitest's 60 s.
describe('a Redis that refuses the service is an outage, not a crash, and its password is never logged', { timeout: 150_000 }, () => {
  const pool = processPool();
  const stops: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await pool.cleanup();
    for (const stop of stops.splice(0)) await stop();
  });

  const REFUSED = 'event bus: Redis refused the credentials of REDIS_URL, live events are read from the database until it accepts them';

  /** Fails at once, with what it wrote, if `instance` has exited (an unhandled rejection ended it). */
  function alive(instance: Instance): true {
    expect(instance.proc.exitCode, `the process exited:\n${instance.output()}`).toBeNull();
    return true;
  }

  /** A subscriber on `instance` (as ada) and the events it received. */
  async function subscriber(instance: Instance) {
    const { token } = await instance.api.loginAs('ada');
    const events: { event: string; path?: string }[] = [];
    const sse = createSseClient({ url: `${instance.url}/graphql`, singleConnection: false, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const stop = sse.subscribe({ query: 'subscription { events(types: ["analytics.hit"]) { id event path } }' }, {
      next: (value) => {
        const event = (value.data as { events?: { event: string; path?: string } } | undefined)?.events;
        if (event) events.push(event);
      },
      error: () => {},
      complete: () => {},
    });
    stops.push(async () => {
      stop();
      sse.dispose();
    });
    return events;
  }

  /** The instance still serves, and a page view recorded on it reaches its subscriber (from the database if not from Redis). */
  async function expectServingWithLiveEvents(instance: Instance, events: { event: string; path?: string }[]) {
    alive(instance);
    expect((await instance.api.get('/healthz')).status).toBe(200);
    const path = `/operators-${randomBytes(4).toString('hex')}`;
    // Recorded until one arrives: the subscription may still be opening.
    await waitFor('a live event at the subscriber', async () => {
      expect((await instance.api.post('/api/analytics/views', { path })).status).toBe(202);
      return waitFor('', () => events.some((e) => e.path === path), 1_000).then(() => true, () => false);
    });
    alive(instance);
  }

  it('a wrong password: the service keeps serving, live events still arrive, the log says why without the password; fixed: it subscribes on Redis again', async () => {
    const right = `right-${randomBytes(6).toString('hex')}`;
    const wrong = `wrong-${randomBytes(6).toString('hex')}`;
    const redis = await redisWithPassword(right);
    stops.push(() => redis.stop());
    const instance = await pool.start('wrong password', { REDIS_URL: redis.url(wrong) });
    // Every connection of the service was refused, some of them again (ioredis reconnects).
    await waitFor('Redis refusing the service', async () => alive(instance) && (await redis.refusals('WRONGPASS')) >= 6);
    await waitFor('the refusal in the log', () => alive(instance) && instance.output().includes(REFUSED));
    const events = await subscriber(instance);
    await expectServingWithLiveEvents(instance, events);

    // The operator gives Redis the password the service has: it subscribes to the live events again.
    await redis.rotate(wrong);
    await waitFor('the bus subscribed on Redis', async () => (await redis.eventChannels()).length === 1, 20_000);
    await expectServingWithLiveEvents(instance, events);
    for (const secret of [wrong, right]) expect(instance.output()).not.toContain(secret);
  });

  it('no password where Redis asks for one (NOAUTH): the same', async () => {
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const redis = await redisWithPassword(password);
    stops.push(() => redis.stop());
    const before = await redis.refusals('NOAUTH');
    const instance = await pool.start('no password', { REDIS_URL: redis.url() });
    await waitFor('Redis refusing the service', async () => alive(instance) && (await redis.refusals('NOAUTH')) >= before + 6);
    await waitFor('the refusal in the log', () => alive(instance) && instance.output().includes(REFUSED));
    await expectServingWithLiveEvents(instance, await subscriber(instance));
    expect(instance.output()).not.toContain(password);
  });

  it('the password rotated under a running service: the old one, sent again on reconnection, is never logged', async () => {
    const old = `old-${randomBytes(6).toString('hex')}`;
    const next = `new-${randomBytes(6).toString('hex')}`;
    const redis = await redisWithPassword(old);
    stops.push(() => redis.stop());
    const instance = await pool.start('rotated', { REDIS_URL: redis.url(old) });
    const events = await subscriber(instance);
    await waitFor('the bus subscribed on Redis', async () => (await redis.eventChannels()).length === 1);
    await redis.rotate(next);
    await waitFor('Redis refusing the old password', async () => alive(instance) && (await redis.refusals('WRONGPASS')) >= 4);
    await waitFor('the refusal in the log', () => alive(instance) && instance.output().includes(REFUSED));
    await expectServingWithLiveEvents(instance, events);
    for (const secret of [old, next]) expect(instance.output()).not.toContain(secret);
    // The refusal is an error line carrying the command, its arguments redacted.
    const refusal = logLinesOf(instance).find((l) => l.msg === REFUSED)!;
    expect(refusal).toMatchObject({ level: 50, err: { command: { name: 'auth', args: '[redacted]' } } });
  });
});

describe('a value that would break the service stops it at start, with one line naming the variable', () => {
  const pool = processPool();
  afterAll(() => pool.cleanup());

  it.each([
    [{ REDIS_URL: 'redis://:pw-secret-1@127.0.0.1:notaport/5' }, 'config: REDIS_URL: must be a valid redis:// URL'],
    [{ DATABASE_URL: 'postgresql://app:pw-secret-2@127.0.0.1:notaport/x' }, 'config: DATABASE_URL: must be a valid postgresql:// URL'],
    [{ ACCESS_TOKEN_TTL: '2147483648' }, 'config: ACCESS_TOKEN_TTL: must be at most 315360000'],
    [{ SSE_RESERVATION_TTL: '30d' }, 'config: SSE_RESERVATION_TTL: must be at most 1d'],
    [{ WEBHOOK_TIMEOUT_MS: '3000000000' }, 'config: WEBHOOK_TIMEOUT_MS: must be at most 300000'],
    [{ EVENT_RETENTION_DAYS: '999999999999' }, 'config: EVENT_RETENTION_DAYS: must be at most 36500'],
    [{ METRICS_TOKEN: '' }, 'config: METRICS_TOKEN: must not be empty; unset it to leave /metrics open'],
  ])('%o', async (env, line) => {
    const child = pool.spawn({ NODE_ENV: 'test', PORT: '0', DATA_DIR: await pool.tempDir(), LOG_LEVEL: 'info', ...env });
    // Exit code 1 before listening: not a start that looks fine (what these values did).
    const started = pool.listeningUrl(child).then(() => 'listening', () => undefined);
    expect(await Promise.race([child.exited.then(({ code }) => code), started])).toBe(1);
    expect(child.stderr()).toBe(`${line}\n`);
    expect(child.stdout()).toBe('');
    expect(child.output()).not.toContain('pw-secret');
  });
});
