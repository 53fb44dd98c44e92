// Subscription.events across instances: two real server processes (as `npm start` runs them) on
// one PostgreSQL database. The relay is cluster-wide (an advisory lock: each
// batch is positioned by whichever instance takes it) and publishes on its own instance's bus, so:
// - with REDIS_URL, a subscriber on B receives an event committed through A exactly once;
// - without it, the relay that positions a batch NOTIFYs its last position on PostgreSQL, and the
//   other instance reads those events from the database and publishes them to its own subscribers:
//   live on both all the same.
// The Redis server may be shared with other test runs; each deployment (database) has its own
// channel, and assertions still only look at the ids this test created.
import { randomBytes } from 'node:crypto';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPool, TEST_REDIS_URL, type Instance } from './support/process.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { queryDb } from './support/server.js';
// An event as subscribers receive it: the client library's type, checked against the server's schema.
import type { LearningEvent as Ev } from '../src/client/index.js';

const REDIS_URL = TEST_REDIS_URL;
const DEADLINE_MS = 15_000;
/** How long to keep listening when asserting that something did not arrive. */
const QUIET_MS = 700;
const SLOW = { timeout: 240_000 };
const EVENTS = `subscription($after: ID) { events(after: $after) { id event timestamp lessonId userId path courseId } }`;

interface Sub {
  name: string;
  events: Ev[];
  errors: unknown[];
  close(): void;
}

const pool = processPool();
const subs: Sub[] = [];

afterAll(async () => {
  for (const s of subs) s.close();
  await pool.cleanup();
}, 60_000);

/** Two instances on one fresh database, with NO_RATE_LIMITS and `env`. */
async function cluster(env: Record<string, string>): Promise<{ a: Instance; b: Instance; db: string }> {
  const { a, b, databaseUrl } = await pool.cluster({ ...NO_RATE_LIMITS, ...env });
  return { a, b, db: databaseUrl };
}


function subscribe(instance: Instance, transport: 'sse' | 'ws', token: string): Sub {
  const sub: Sub = { name: `${transport} on ${instance.name}`, events: [], errors: [], close: () => {} };
  const sink = {
    next: (value: unknown) => {
      const r = value as { data?: { events?: Ev }; errors?: unknown[] };
      if (r.errors) sub.errors.push(...r.errors);
      if (r.data?.events) sub.events.push(r.data.events);
    },
    error: (error: unknown) => void sub.errors.push(error),
    complete: () => {},
  };
  if (transport === 'sse') {
    const c = createSseClient({ url: `${instance.url}/graphql`, singleConnection: false, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const stop = c.subscribe({ query: EVENTS }, sink);
    sub.close = () => {
      stop();
      c.dispose();
    };
  } else {
    const c = createWsClient({
      url: `${instance.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    const stop = c.subscribe({ query: EVENTS }, sink);
    sub.close = () => {
      stop();
      void c.dispose();
    };
  }
  subs.push(sub);
  return sub;
}

async function waitFor(test: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Page views through `via` until every subscriber has received one of them (they are live then). */
async function goLive(via: Instance, all: Sub[]): Promise<void> {
  const prefix = `/probe/${randomBytes(5).toString('hex')}`;
  const deadline = Date.now() + DEADLINE_MS;
  for (let i = 0; !all.every((s) => s.events.some((e) => e.path?.startsWith(prefix))); i++) {
    for (const s of all) if (s.errors.length) throw new Error(`${s.name}: ${JSON.stringify(s.errors)}`);
    if (Date.now() > deadline) throw new Error(`not live: ${all.map((s) => `${s.name}: ${s.events.length}`).join(', ')}`);
    expect((await via.api.post('/api/analytics/views', { path: `${prefix}/${i}` })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the relay has positioned every committed event. */
async function settled(url: string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while ((await queryDb<{ n: number }>(url, 'SELECT count(*)::int AS n FROM "Event" WHERE position IS NULL'))[0]!.n > 0) {
    if (Date.now() > deadline) throw new Error('events stay unpositioned');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

describe('two instances with REDIS_URL', () => {
  let a: Instance;
  let b: Instance;
  let dbUrl: string;
  beforeAll(async () => {
    ({ a, b, db: dbUrl } = await cluster({ REDIS_URL }));
  }, 240_000);

  it('a subscriber on B receives the events committed through A, exactly once each, in commit order', SLOW, async () => {
    const ada = (await a.api.loginAs('ada')).token;
    const grace = (await a.api.loginAs('grace')).token; // the same JWT_SECRET: valid on B too
    const onB = [subscribe(b, 'sse', grace), subscribe(b, 'ws', grace)];
    const onA = subscribe(a, 'sse', grace);
    await goLive(a, [...onB, onA]);
    await settled(dbUrl);
    const [{ max }] = (await queryDb<{ max: string }>(dbUrl, 'SELECT max(position)::text AS max FROM "Event"')) as [{ max: string }];

    // Through A only: sequential changes of every kind, then 20 page views at once.
    const tag = randomBytes(4).toString('hex');
    expect((await a.api.post('/api/analytics/views', { path: `/redis/${tag}/first` })).status).toBe(202);
    expect((await a.api.patch('/api/v1/user/me', { name: `Ada ${tag}` }, { token: ada })).status).toBe(200);
    const lesson = await a.api.post('/api/v1/lessons', { title: `Redis ${tag}`, body: 'Body.' }, { token: ada });
    expect((await a.api.post(`/api/v1/lessons/publish?id=${lesson.body.id}`, undefined, { token: ada })).status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => a.api.post('/api/analytics/views', { path: `/redis/${tag}/${i}` })));
    expect(burst.every((r) => r.status === 202)).toBe(true);

    // Every event of this database after the probes, in commit order, once all are positioned.
    await waitFor(() => onB.every((s) => s.events.filter((e) => e.path?.startsWith(`/redis/${tag}/`)).length === 21), '21 page views on B');
    await settled(dbUrl);
    const stored = await queryDb<{ id: string }>(dbUrl, 'SELECT id FROM "Event" WHERE position > $1 ORDER BY position', [max]);
    expect(stored).toHaveLength(23);
    const ours = new Set(stored.map((r) => r.id));
    for (const s of [...onB, onA]) {
      await waitFor(() => s.events.filter((e) => ours.has(e.id)).length >= 23, `${s.name}: all 23`);
      await quiet();
      // Only ids of this database count: other runs may publish on the same Redis.
      expect(s.events.filter((e) => ours.has(e.id)).map((e) => e.id), s.name).toEqual(stored.map((r) => r.id));
      expect(s.errors, s.name).toEqual([]);
    }
    const lessonEvent = onB[0]!.events.find((e) => e.event === 'lesson.published' && ours.has(e.id));
    expect(lessonEvent).toMatchObject({ lessonId: lesson.body.id, userId: null, path: null });
  });
});

describe('two instances without REDIS_URL', () => {
  let a: Instance;
  let b: Instance;
  let dbUrl: string;
  beforeAll(async () => {
    ({ a, b, db: dbUrl } = await cluster({}));
  }, 240_000);

  it('an event committed through A is live on both instances: the relay that positions it announces it (NOTIFY)', SLOW, async () => {
    const grace = (await a.api.loginAs('grace')).token;
    const onA = subscribe(a, 'sse', grace);
    const onB = subscribe(b, 'sse', grace);
    await goLive(a, [onA, onB]);

    const ROUNDS = 8;
    const ids: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const path = `/alone/${randomBytes(4).toString('hex')}`;
      expect((await a.api.post('/api/analytics/views', { path })).status).toBe(202);
      // Nothing else is committed meanwhile: no later event could bring it along as a gap.
      await waitFor(() => [onA, onB].every((s) => s.events.some((e) => e.path === path)), `${path} on A and B`);
      const [row] = await queryDb<{ id: string }>(dbUrl, `SELECT id FROM "Event" WHERE payload->>'path' = $1`, [path]);
      ids.push(row!.id);
    }
    // Each subscriber's stream is the stored order, gap-free and duplicate-free.
    const stored = (await queryDb<{ id: string }>(dbUrl, 'SELECT id FROM "Event" WHERE position IS NOT NULL ORDER BY position')).map((r) => r.id);
    for (const s of [onA, onB]) {
      const seen = s.events.map((e) => e.id);
      const start = stored.indexOf(seen[0]!);
      expect(seen, s.name).toEqual(stored.slice(start, start + seen.length));
      expect(seen.slice(-ROUNDS), s.name).toEqual(ids);
      expect(s.errors, s.name).toEqual([]);
    }
  });
});
