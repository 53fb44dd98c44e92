// Subscription.events over real HTTP (SSE, graphql-sse's distinct-connections mode, as Yoga
// serves it) and over WebSocket (graphql-ws), with the real clients, against a real server:
// the events the REST API causes arrive with the contract's fields, in commit order, with the
// ids stored in "Event"; `types` filters; `after` replays then goes live with no gap and no
// duplicate while a producer keeps committing; authentication; rolled-back changes emit nothing.
// On PostgreSQL (every case, over both transports) and once on PGlite.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect } from 'vitest';
import { serverTestOn, type ServerTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { sql, startTestServer, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { eventsSink, type GqlError, type Received } from './support/subscription-sink.js';
// An event as subscribers receive it: the client library's type, checked against the server's schema.
import type { LearningEvent as Ev } from '../src/client/index.js';

const EVENTS = `subscription($types: [String!], $after: ID) {
  events(types: $types, after: $after) { id event timestamp lessonId userId path courseId }
}`;
/** How long to wait for something that should happen (a deadline, not a measurement). */
const DEADLINE_MS = 15_000;
/** How long to keep listening when asserting that nothing more arrives. */
const QUIET_MS = 600;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** One subscription as a client sees it. */
interface Sub extends Received<Ev> {
  /** Waits until `test(events)` holds. */
  until(test: (events: Ev[]) => boolean, what: string): Promise<void>;
  /** Waits for the operation to end with errors and returns them. */
  failure(): Promise<GqlError[]>;
  close(): void;
}

type Auth = { token?: string; via?: 'params' | 'header' };
type Transport = {
  name: 'sse' | 'ws';
  subscribe(server: TestServer, auth: Auth, variables?: { types?: string[]; after?: string }): Sub;
};

async function waitFor(test: () => boolean, what: string, describeState: () => string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; ${describeState()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function makeSub(): { sub: Sub; sink: ReturnType<typeof eventsSink>; setClose(f: () => void): void } {
  let closeFn = () => {};
  const sub: Sub = {
    events: [],
    errors: [],
    ended: false,
    until: (test, what) =>
      waitFor(() => test(sub.events), what, () => `received ${JSON.stringify(sub.events.map((e) => e.event))}, errors ${JSON.stringify(sub.errors)}`),
    failure: async () => {
      await waitFor(() => sub.ended, 'the operation to end', () => `received ${JSON.stringify(sub.events)}`);
      return sub.errors;
    },
    close: () => closeFn(),
  };
  return { sub, sink: eventsSink(sub), setClose: (f) => (closeFn = f) };
}

const sse: Transport = {
  name: 'sse',
  subscribe(server, { token }, variables = {}) {
    const { sub, sink, setClose } = makeSub();
    const sseClient = createSseClient({
      url: `${server.url}/graphql`,
      // Yoga serves the "distinct connections" mode: one HTTP request per operation.
      singleConnection: false,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      retryAttempts: 0,
    });
    const unsubscribe = sseClient.subscribe({ query: EVENTS, variables }, sink);
    setClose(() => {
      unsubscribe();
      sseClient.dispose();
    });
    return sub;
  },
};

const ws: Transport = {
  name: 'ws',
  subscribe(server, { token, via = 'params' }, variables = {}) {
    const { sub, sink, setClose } = makeSub();
    const headers = token && via === 'header' ? { authorization: `Bearer ${token}` } : undefined;
    // The Authorization header on the upgrade request, as a server-side client would send it.
    class HeaderWebSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    }
    const wsClient = createWsClient({
      url: `${server.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: HeaderWebSocket,
      connectionParams: token && via === 'params' ? { authorization: `Bearer ${token}` } : {},
      retryAttempts: 0,
      lazy: true,
    });
    const unsubscribe = wsClient.subscribe({ query: EVENTS, variables }, sink);
    setClose(() => {
      unsubscribe();
      void wsClient.dispose();
    });
    return sub;
  },
};

const TRANSPORTS = [sse, ws];
const unique = (prefix: string) => `/${prefix}/${randomBytes(5).toString('hex')}`;

interface Harness {
  server: TestServer;
  api: Client;
  ada: string;
  adaId: string;
  grace: string;
  subs: Sub[];
}

const tests = serverTestOn({ env: NO_RATE_LIMITS });

/** The fixture's server, client and tokens, for the helpers below; its subscriptions closed after the suite. */
function useServer(it: ServerTest): Harness {
  const h = { subs: [] as Sub[] } as Harness;
  it.beforeAll(async ({ server, api, ada, grace }) => {
    const adaId = (await api.get('/api/v1/user/me', { token: ada })).body.id as string;
    Object.assign(h, { server, api, ada, adaId, grace });
  });
  it.afterAll(() => {
    for (const s of h.subs) s.close();
  });
  return h;
}

function open(h: Harness, t: Transport, auth: Auth, variables?: { types?: string[]; after?: string }): Sub {
  const sub = t.subscribe(h.server, auth, variables);
  h.subs.push(sub);
  return sub;
}

/**
 * A new subscription cannot tell when the server has started listening, so: record page views
 * under a fresh prefix until one arrives. Everything committed after that is certainly live.
 * Returns the first probe event received.
 */
async function goLive(h: Harness, sub: Sub): Promise<Ev> {
  const prefix = unique('probe');
  const deadline = Date.now() + DEADLINE_MS;
  for (let i = 0; ; i++) {
    expect((await h.api.post('/api/analytics/views', { path: `${prefix}/${i}` })).status).toBe(202);
    const first = sub.events.find((e) => e.path?.startsWith(prefix));
    if (first) return first;
    if (sub.ended) throw new Error(`subscription ended: ${JSON.stringify(sub.errors)}`);
    if (Date.now() > deadline) throw new Error('no probe event arrived');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function createPublishedLesson(h: Harness): Promise<string> {
  const created = await h.api.post('/api/v1/lessons', { title: `Lesson ${randomBytes(3).toString('hex')}`, body: 'Body.' }, { token: h.ada });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const published = await h.api.post(`/api/v1/lessons/publish?id=${id}`, undefined, { token: h.ada });
  expect(published.status, published.text).toBe(200);
  return id;
}

/** The rows of "Event" after `afterId` in commit order, once every event there is positioned. */
async function storedAfter(server: TestServer, afterId: string): Promise<{ id: string; payload: Record<string, unknown> }[]> {
  const deadline = Date.now() + DEADLINE_MS;
  while ((await sql<{ n: number }>(server, 'SELECT count(*)::int AS n FROM "Event" WHERE position IS NULL'))[0]!.n > 0) {
    if (Date.now() > deadline) throw new Error('events stay unpositioned');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return sql(
    server,
    'SELECT id, payload FROM "Event" WHERE position > (SELECT position FROM "Event" WHERE id = $1) ORDER BY position',
    [afterId],
  );
}

/** The GraphQL shape of a stored payload: the contract's fields, unrelated ones null. */
const asEvent = (id: string, p: Record<string, unknown>): Ev => ({
  id,
  event: p.event as Ev['event'],
  timestamp: p.timestamp as string,
  lessonId: (p.lessonId as string | undefined) ?? null,
  userId: (p.userId as string | undefined) ?? null,
  path: (p.path as string | undefined) ?? null,
  courseId: (p.courseId as string | undefined) ?? null,
});

const quiet = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

describe('Subscription.events on PostgreSQL', () => {
  const it = tests.postgres;
  const h = useServer(it);

  describe.each(TRANSPORTS)('over $name', (t) => {
    it('delivers the events the REST API causes, with the contract fields, in commit order, with the stored ids', async () => {
      const sub = open(h, t, { token: h.grace });
      const probe = await goLive(h, sub);

      const path = unique('page');
      expect((await h.api.post('/api/analytics/views', { path })).status).toBe(202);
      expect((await h.api.patch('/api/v1/user/me', { name: `Ada ${t.name}` }, { token: h.ada })).status).toBe(200);
      const lessonId = await createPublishedLesson(h);
      await sub.until((es) => es.some((e) => e.lessonId === lessonId), 'lesson.published');

      const received = sub.events.slice(sub.events.indexOf(probe) + 1);
      const ours = received.filter((e) => !e.path?.startsWith('/probe/'));
      expect(ours).toEqual([
        { id: expect.stringMatching(/^evt_/), event: 'analytics.hit', timestamp: expect.stringMatching(ISO_MS_Z), lessonId: null, userId: null, path, courseId: null },
        { id: expect.stringMatching(/^evt_/), event: 'user.updated', timestamp: expect.stringMatching(ISO_MS_Z), lessonId: null, userId: h.adaId, path: null, courseId: null },
        { id: expect.stringMatching(/^evt_/), event: 'lesson.published', timestamp: expect.stringMatching(ISO_MS_Z), lessonId, userId: null, path: null, courseId: null },
      ]);
      // Exactly the stored events, in position (commit) order: same ids, same payloads.
      const stored = await storedAfter(h.server, probe.id);
      expect(received).toEqual(stored.map((r) => asEvent(r.id, r.payload)));
      for (const e of ours) expect(new Date(e.timestamp).toISOString()).toBe(e.timestamp);
      // Creating a draft emits nothing (the contract), so nothing sits between the three.
      await quiet();
      expect(sub.events.slice(sub.events.indexOf(probe) + 1)).toEqual(received);
      sub.close();
    });

    it('types: ["lesson.published"] receives only lesson.published, replayed and live', async () => {
      const [last] = await sql<{ id: string }>(h.server, 'SELECT id FROM "Event" WHERE position IS NOT NULL ORDER BY position DESC LIMIT 1');
      const before = await createPublishedLesson(h);
      expect((await h.api.post('/api/analytics/views', { path: unique('filtered') })).status).toBe(202);
      // `after` makes the start exact: the lesson above is replayed, the rest is live.
      const sub = open(h, t, { token: h.grace }, { types: ['lesson.published'], after: last!.id });
      await sub.until((es) => es.some((e) => e.lessonId === before), 'the replayed lesson.published');
      expect((await h.api.patch('/api/v1/user/me', { name: 'Ada Filtered' }, { token: h.ada })).status).toBe(200);
      expect((await h.api.post('/api/analytics/views', { path: unique('filtered') })).status).toBe(202);
      const after = await createPublishedLesson(h);
      await sub.until((es) => es.some((e) => e.lessonId === after), 'the live lesson.published');
      expect(sub.events.map((e) => [e.event, e.lessonId])).toEqual([
        ['lesson.published', before],
        ['lesson.published', after],
      ]);
      sub.close();
    });

    it('types with an unknown event name is BAD_USER_INPUT', async () => {
      const sub = open(h, t, { token: h.grace }, { types: ['lesson.published', 'lesson.deleted'] });
      const errors = await sub.failure();
      expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      expect(errors[0]!.message).toContain('lesson.deleted');
      expect(sub.events).toEqual([]);
    });

    it('after: replays exactly the stored events after it, then live ones, with no gap and no duplicate while a producer commits', async () => {
      const prefix = unique('after');
      for (let i = 0; i < 5; i++) expect((await h.api.post('/api/analytics/views', { path: `${prefix}/seed/${i}` })).status).toBe(202);
      const seeded = await sql<{ id: string }>(h.server, `SELECT id FROM "Event" WHERE payload->>'path' LIKE $1 ORDER BY id`, [`${prefix}/seed/%`]);
      expect(seeded).toHaveLength(5);
      await storedAfter(h.server, seeded[0]!.id); // all positioned
      const from = seeded[1]!.id;

      // 50 page views at once; the subscriber connects while they commit.
      const producing = Promise.all(
        Array.from({ length: 50 }, (_, i) => h.api.post('/api/analytics/views', { path: `${prefix}/live/${i}` })),
      );
      const sub = open(h, t, { token: h.grace }, { after: from });
      const replies = await producing;
      expect(replies.map((r) => r.status)).toEqual(Array(50).fill(202));
      // One more, surely after the subscriber is live: the stream must reach it.
      const endPath = `${prefix}/end`;
      expect((await h.api.post('/api/analytics/views', { path: endPath })).status).toBe(202);
      await sub.until((es) => es.some((e) => e.path === endPath), 'the last event');

      const stored = await storedAfter(h.server, from);
      expect(stored.length).toBeGreaterThanOrEqual(54);
      const ids = sub.events.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(sub.events).toEqual(stored.map((r) => asEvent(r.id, r.payload)));
      await quiet();
      expect(sub.events).toHaveLength(stored.length);
      sub.close();
    });

    it('after: an unknown id, or one deleted from "Event" (as retention does), is BAD_USER_INPUT', async () => {
      const unknown = open(h, t, { token: h.grace }, { after: 'evt_01JZZZZZZZZZZZZZZZZZZZZZZZ' });
      expect(await unknown.failure()).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      // An empty id is no id either, as in the event list and Query.events (it went live silently,
      // without the replay a client storing "" as its last id expected).
      const empty = open(h, t, { token: h.grace }, { after: '' });
      expect(await empty.failure()).toEqual([expect.objectContaining({ message: 'after: unknown or expired event id', extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);

      const path = unique('expired');
      expect((await h.api.post('/api/analytics/views', { path })).status).toBe(202);
      const [row] = await sql<{ id: string }>(h.server, `SELECT id FROM "Event" WHERE payload->>'path' = $1`, [path]);
      await storedAfter(h.server, row!.id);
      // A later one, so that the deleted row is not the newest.
      expect((await h.api.post('/api/analytics/views', { path: unique('expired') })).status).toBe(202);
      await sql(h.server, 'DELETE FROM "Event" WHERE id = $1', [row!.id]);
      const expired = open(h, t, { token: h.grace }, { after: row!.id });
      expect(await expired.failure()).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      expect(expired.events).toEqual([]);
    });

    it('no token or a bad token is UNAUTHENTICATED (a WebSocket: closed with 4403 at connection_init)', async () => {
      const refused =
        t.name === 'ws'
          ? [{ message: 'Missing or invalid token', closeCode: 4403 }]
          : [expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })];
      for (const token of [undefined, 'not-a-token', `${h.grace.slice(0, -4)}AAAA`]) {
        const sub = open(h, t, { token });
        const errors = await sub.failure();
        expect(errors, String(token)).toEqual(refused);
        expect(sub.events).toEqual([]);
      }
    });

    it('a rolled-back change emits nothing', async () => {
      const sub = open(h, t, { token: h.grace }, { types: ['user.updated', 'lesson.published'] });
      // Probe with user.updated (the filter lets it through).
      const deadline = Date.now() + DEADLINE_MS;
      let probe: Ev | undefined;
      let probes = 0;
      for (let i = 0; !probe; i++) {
        expect((await h.api.patch('/api/v1/user/me', { name: `Grace probe ${i}` }, { token: h.grace })).status).toBe(200);
        probes++;
        await new Promise((resolve) => setTimeout(resolve, 100));
        probe = sub.events.find((e) => e.event === 'user.updated');
        if (Date.now() > deadline) throw new Error('no probe');
      }
      // Every probe's event, not only the first, has arrived before the count starts.
      await sub.until((es) => es.filter((e) => e.event === 'user.updated').length >= probes, 'every probe');
      const startAt = sub.events.length;
      const count = async () => (await sql<{ n: number }>(h.server, 'SELECT count(*)::int AS n FROM "Event"'))[0]!.n;
      const before = await count();

      // Invalid bodies: refused, nothing written.
      expect((await h.api.patch('/api/v1/user/me', { name: '' }, { token: h.ada })).status).toBe(400);
      expect((await h.api.patch('/api/v1/user/me', { name: 'Ada', role: 'ADMIN' }, { token: h.ada })).status).toBe(400);

      // A change whose transaction fails at commit, after its event was written: a deferred
      // constraint trigger (on this test's own database) refuses one name at COMMIT.
      await sql(h.server, `CREATE OR REPLACE FUNCTION refuse_name() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.name = 'Refused at commit' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
      await sql(h.server, `DROP TRIGGER IF EXISTS refuse_name ON "User"`);
      await sql(h.server, `CREATE CONSTRAINT TRIGGER refuse_name AFTER UPDATE ON "User" DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION refuse_name()`);
      try {
        const refused = await h.api.patch('/api/v1/user/me', { name: 'Refused at commit' }, { token: h.ada });
        expect(refused.status).toBe(500);
      } finally {
        await sql(h.server, `DROP TRIGGER refuse_name ON "User"`);
      }

      // Publishing one lesson five times at once: one 200, four 409, one event.
      const created = await h.api.post('/api/v1/lessons', { title: 'Twice', body: 'Body.' }, { token: h.ada });
      const lessonId = created.body.id as string;
      const publishes = await Promise.all(
        Array.from({ length: 5 }, () => h.api.post(`/api/v1/lessons/publish?id=${lessonId}`, undefined, { token: h.ada })),
      );
      expect(publishes.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
      expect((await h.api.post(`/api/v1/lessons/publish?id=${lessonId}`, undefined, { token: h.ada })).status).toBe(409);

      const endName = `Ada end ${t.name}`;
      expect((await h.api.patch('/api/v1/user/me', { name: endName }, { token: h.ada })).status).toBe(200);
      await sub.until((es) => es.length >= startAt + 2, 'the published lesson and the last update');
      await quiet();
      expect(sub.events.slice(startAt).map((e) => [e.event, e.lessonId ?? e.userId])).toEqual([
        ['lesson.published', lessonId],
        ['user.updated', h.adaId],
      ]);
      expect(await count()).toBe(before + 2);
      expect(await sql(h.server, `SELECT id FROM "Event" WHERE payload->>'lessonId' = $1`, [lessonId])).toHaveLength(1);
      sub.close();
    });
  });

  it('over WebSocket: the token as an Authorization header on the upgrade request', async () => {
    const sub = open(h, ws, { token: h.grace, via: 'header' });
    const probe = await goLive(h, sub);
    expect(probe.event).toBe('analytics.hit');
    sub.close();
    const bad = open(h, ws, { token: 'not-a-token', via: 'header' });
    expect(await bad.failure()).toEqual([{ message: 'Missing or invalid token', closeCode: 4403 }]);
  });
  it('retention never restarts positions: a live subscriber still gets the next event after every stored one expired', async () => {
    const sub = open(h, sse, { token: h.grace });
    await goLive(h, sub);
    const [{ max }] = (await sql<{ max: string }>(h.server, 'SELECT max(position)::text AS max FROM "Event"')) as [{ max: string }];
    // Everything is past retention; a second instance starting on the database runs retention at once.
    await sql(h.server, `UPDATE "Event" SET "createdAt" = now() - interval '30 days'`);
    const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-test-'));
    const second = await startTestServer({ kind: 'postgres', env: NO_RATE_LIMITS, reuse: { dataDir, databaseUrl: h.server.databaseUrl! } });
    try {
      await waitFor(() => second.logs.some((l) => l.msg === 'events past retention deleted'), 'retention', () => 'no retention line');
    } finally {
      await second.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    const path = unique('after-retention');
    expect((await h.api.post('/api/analytics/views', { path })).status).toBe(202);
    await sub.until((es) => es.some((e) => e.path === path), 'the event committed after retention');
    const [row] = await sql<{ position: string }>(h.server, `SELECT position::text FROM "Event" WHERE payload->>'path' = $1`, [path]);
    expect(BigInt(row!.position)).toBeGreaterThan(BigInt(max));
    sub.close();
  });
});

describe('Subscription.events on PGlite', () => {
  const it = tests.pglite;
  const h = useServer(it);

  it.each(TRANSPORTS)('over $name: REST events arrive in order, and `after` replays the same ids, then goes live', async (t) => {
    const sub = open(h, t, { token: h.grace });
    const probe = await goLive(h, sub);
    const path = unique('page');
    expect((await h.api.post('/api/analytics/views', { path })).status).toBe(202);
    expect((await h.api.patch('/api/v1/user/me', { name: `Ada ${t.name}` }, { token: h.ada })).status).toBe(200);
    const lessonId = await createPublishedLesson(h);
    await sub.until((es) => es.some((e) => e.lessonId === lessonId), 'lesson.published');
    const live = sub.events.slice(sub.events.indexOf(probe) + 1).filter((e) => !e.path?.startsWith('/probe/'));
    expect(live.map((e) => [e.event, e.path ?? e.userId ?? e.lessonId])).toEqual([
      ['analytics.hit', path],
      ['user.updated', h.adaId],
      ['lesson.published', lessonId],
    ]);
    for (const e of live) expect(e.timestamp).toMatch(ISO_MS_Z);
    sub.close();

    // The ids are the stored ones: a replay from the probe gives the same events, then live ones.
    const replay = open(h, t, { token: h.grace }, { after: probe.id });
    const received = sub.events.slice(sub.events.indexOf(probe) + 1);
    await replay.until((es) => es.length >= received.length, 'the replay');
    expect(replay.events).toEqual(received);
    const more = await Promise.all(Array.from({ length: 20 }, (_, i) => h.api.post('/api/analytics/views', { path: `${path}/more/${i}` })));
    expect(more.every((r) => r.status === 202)).toBe(true);
    await replay.until((es) => es.length >= received.length + 20, 'the live events');
    await quiet();
    const ids = replay.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(replay.events).toHaveLength(received.length + 20);
    expect(replay.events.slice(received.length).map((e) => e.path).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `${path}/more/${i}`).sort(),
    );
    replay.close();
  });
});
