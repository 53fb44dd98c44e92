// Who sees which event (CONTRACT.md, Events): ada (ADMIN) makes a draft lesson, edits it, publishes
// it and edits it again. grace (MEMBER), to whom the draft was a 404, sees only the publication and
// the edit after it, on every path an event reaches her: the list over REST and GraphQL (pages and
// cursors included), the live subscription over SSE and WebSocket (in-process and through Redis),
// a replay with `after`, and the GraphQL response cache. ada sees all three, and so does a webhook
// endpoint. An `after` naming the hidden edit is refused as an unknown id would be.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../src/modules/auth/caller.js';
import type { Database } from '../src/db/client.js';
import { openDatabase } from '../src/db/open-database.js';
import { newId } from '../src/ids.js';
import { createEventBus } from '../src/modules/events/bus/create-event-bus.js';
import { createEventService, SubscriberTooSlow } from '../src/modules/events/service.js';
import { serverTest, serverTestOn, startForDescribe } from './support/fixtures.js';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { instancesForSuite, sql, type TestServer } from './support/server.js';
import { eventsSink, type Received } from './support/subscription-sink.js';
import { sleep, waitFor } from './support/wait.js';

const LESSON_EVENTS = ['lesson.updated', 'lesson.published'];
const SUBSCRIPTION = `subscription($types: [String!], $after: ID) { events(types: $types, after: $after) { id event lessonId } }`;
const LIST = `query($types: [String!], $after: String, $first: Int) {
  events(types: $types, after: $after, first: $first) { edges { node { id event lessonId } } pageInfo { hasNextPage endCursor } }
}`;
/** How long to keep listening when asserting that nothing more arrives. */
const QUIET_MS = 400;

interface Ev {
  id: string;
  event: string;
  lessonId?: string | null;
}
interface Sub extends Received<Ev> {
  close(): void;
}

type Transport = 'sse' | 'ws';

function subscribe(server: TestServer, transport: Transport, token: string, variables: { types?: string[]; after?: string } = {}): Sub {
  const sub: Sub = { events: [], errors: [], ended: false, close: () => {} };
  const sink = eventsSink(sub);
  if (transport === 'sse') {
    const sse = createSseClient({ url: `${server.url}/graphql`, singleConnection: false, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const unsubscribe = sse.subscribe({ query: SUBSCRIPTION, variables }, sink);
    sub.close = () => {
      unsubscribe();
      sse.dispose();
    };
  } else {
    const ws = createWsClient({
      url: `${server.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: true,
    });
    const unsubscribe = ws.subscribe({ query: SUBSCRIPTION, variables }, sink);
    sub.close = () => {
      unsubscribe();
      void ws.dispose();
    };
  }
  return sub;
}

/** The story, with the ids of its three events in commit order. */
interface Story {
  lessonId: string;
  draftEdit: string;
  published: string;
  laterEdit: string;
}

/** ada: a draft, an edit of it, its publication, an edit after. grace is told 404 for the draft. */
async function tellStory(api: Client, ada: string, grace: string): Promise<Story> {
  const created = await api.post('/api/v1/lessons', { title: `Secret ${randomBytes(3).toString('hex')}`, body: 'Draft.' }, { token: ada });
  expect(created.status, created.text).toBe(201);
  const lessonId = created.body.id as string;
  expect((await api.patch(`/api/v1/lessons?id=${lessonId}`, { title: 'Secret, revised' }, { token: ada })).status).toBe(200);
  expect((await api.get(`/api/v1/lessons?id=${lessonId}`, { token: grace })).status).toBe(404);
  expect((await api.post(`/api/v1/lessons/publish?id=${lessonId}`, undefined, { token: ada })).status).toBe(200);
  expect((await api.patch(`/api/v1/lessons?id=${lessonId}`, { title: 'Public, revised' }, { token: ada })).status).toBe(200);
  // ada sees all three, in commit order, once positioned.
  const all = await waitFor('the three events listed for ada', async () => {
    const reply = await api.get(`/api/v1/events?types=${LESSON_EVENTS.join(',')}&limit=1000`, { token: ada });
    const ours = (reply.body.items as Ev[]).filter((e) => e.lessonId === lessonId);
    return ours.length === 3 && ours;
  });
  expect(all.map((e) => e.event)).toEqual(['lesson.updated', 'lesson.published', 'lesson.updated']);
  return { lessonId, draftEdit: all[0]!.id, published: all[1]!.id, laterEdit: all[2]!.id };
}

const ofLesson = (events: Ev[], lessonId: string) => events.filter((e) => e.lessonId === lessonId).map((e) => e.id);

/** A page view's event id, once it is listed (a visible position to replay `after`). */
async function pageViewEvent(api: Client, token: string): Promise<string> {
  const path = `/visibility/${randomBytes(4).toString('hex')}`;
  expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
  return waitFor('the page view listed', async () => {
    const reply = await api.get('/api/v1/events?types=analytics.hit&limit=1000', { token });
    return (reply.body.items as { id: string; path: string }[]).find((e) => e.path === path)?.id;
  });
}

/** Opens `subs` and makes page views until each has received one (they are live then). */
async function goLive(api: Client, subs: Sub[]): Promise<void> {
  for (const s of subs) {
    await waitFor('the subscription to be live', async () => {
      expect((await api.post('/api/analytics/views', { path: `/live/${randomBytes(3).toString('hex')}` })).status).toBe(202);
      await sleep(50);
      expect(s.errors).toEqual([]);
      return s.events.length > 0;
    });
  }
}

const tests = serverTestOn({ env: NO_RATE_LIMITS });
const onPostgres = serverTest({ kind: 'postgres', env: NO_RATE_LIMITS });
const retaining = serverTest({ kind: 'postgres', env: { ...NO_RATE_LIMITS, EVENT_RETENTION_DAYS: '1' } }, { per: 'describe' });

describe.each(['pglite', 'postgres'] as const)('who sees which event, on %s', (kind) => {
  const it = tests[kind];
  let server: TestServer;
  let api: Client;
  let ada: string;
  let grace: string;
  let story: Story;
  let rx: Receiver;
  /** A page view before the story: grace and ada replay after it. */
  let before: string;
  const live: { who: 'ada' | 'grace'; transport: Transport; sub: Sub }[] = [];

  it.beforeAll(async ({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
    [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
    rx = await startReceiver();
    const endpoint = await api.post('/api/v1/webhooks', { url: rx.url, events: LESSON_EVENTS }, { token: ada });
    expect(endpoint.status, endpoint.text).toBe(201);
    for (const who of ['ada', 'grace'] as const) {
      for (const transport of ['sse', 'ws'] as const) live.push({ who, transport, sub: subscribe(server, transport, who === 'ada' ? ada : grace) });
    }
    await goLive(api, live.map((l) => l.sub));
    before = await pageViewEvent(api, grace);
    story = await tellStory(api, ada, grace);
  });
  it.afterAll(async () => {
    for (const l of live) l.sub.close();
    await rx?.close();
  });

  it('GET /api/v1/events: grace gets the publication and the later edit, ada all three', async () => {
    const path = `/api/v1/events?types=${LESSON_EVENTS.join(',')}`;
    const asGrace = await api.get(path, { token: grace });
    expect(asGrace.status).toBe(200);
    expect(ofLesson(asGrace.body.items, story.lessonId)).toEqual([story.published, story.laterEdit]);
    expect(asGrace.text).not.toContain(story.draftEdit);
    // Without `types` too.
    const everything = await api.get('/api/v1/events?limit=1000', { token: grace });
    expect(ofLesson(everything.body.items, story.lessonId)).toEqual([story.published, story.laterEdit]);
    const asAda = await api.get(path, { token: ada });
    expect(ofLesson(asAda.body.items, story.lessonId)).toEqual([story.draftEdit, story.published, story.laterEdit]);
  });

  it('GET /api/v1/events page by page: the cursors grace is given name only events she saw', async () => {
    const walk = async (token: string) => {
      const seen: string[] = [];
      const cursors: (string | null)[] = [];
      let after = '';
      for (let page = 0; page < 10; page++) {
        const reply = await api.get(`/api/v1/events?types=${LESSON_EVENTS.join(',')}&limit=1${after}`, { token });
        expect(reply.status, reply.text).toBe(200);
        seen.push(...(reply.body.items as Ev[]).map((e) => e.id));
        cursors.push(reply.body.nextCursor as string | null);
        if (!reply.body.nextCursor) break;
        after = `&after=${reply.body.nextCursor as string}`;
      }
      return { seen, cursors };
    };
    const g = await walk(grace);
    expect(g.seen).toEqual([story.published, story.laterEdit]);
    expect(g.cursors).toEqual([story.published, null]);
    const a = await walk(ada);
    expect(a.seen).toEqual([story.draftEdit, story.published, story.laterEdit]);
    expect(a.cursors).toEqual([story.draftEdit, story.published, null]);
  });

  it('an after naming the hidden edit is, for grace, the 400 of an unknown id (its existence is not told); for ada a cursor', async () => {
    const hidden = await api.get(`/api/v1/events?after=${story.draftEdit}`, { token: grace });
    const unknown = await api.get(`/api/v1/events?after=${newId('evt')}`, { token: grace });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(unknown.body);
    expect(hidden.body).toMatchObject({ error: true, code: 400 });
    expect(hidden.body.message).toContain('after');
    const asAda = await api.get(`/api/v1/events?types=${LESSON_EVENTS.join(',')}&after=${story.draftEdit}`, { token: ada });
    expect(ofLesson(asAda.body.items, story.lessonId)).toEqual([story.published, story.laterEdit]);
    // GraphQL alike.
    const gql = await api.graphql(LIST, { after: story.draftEdit }, { token: grace });
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(gql.text).not.toContain(story.lessonId);
  });

  it('Query.events: the same for grace and ada, pages included', async () => {
    const asGrace = await api.graphql(LIST, { types: LESSON_EVENTS }, { token: grace });
    expect(asGrace.body.errors).toBeUndefined();
    const nodes = (r: typeof asGrace) => (r.body.data.events.edges as { node: Ev }[]).map((e) => e.node);
    expect(ofLesson(nodes(asGrace), story.lessonId)).toEqual([story.published, story.laterEdit]);
    const asAda = await api.graphql(LIST, { types: LESSON_EVENTS }, { token: ada });
    expect(ofLesson(nodes(asAda), story.lessonId)).toEqual([story.draftEdit, story.published, story.laterEdit]);
    const first = await api.graphql(LIST, { types: LESSON_EVENTS, first: 1 }, { token: grace });
    expect(nodes(first).map((e) => e.id)).toEqual([story.published]);
    expect(first.body.data.events.pageInfo).toEqual({ hasNextPage: true, endCursor: story.published });
    const second = await api.graphql(LIST, { types: LESSON_EVENTS, first: 1, after: story.published }, { token: grace });
    expect(nodes(second).map((e) => e.id)).toEqual([story.laterEdit]);
    expect(second.body.data.events.pageInfo.hasNextPage).toBe(false);
  });

  it.each(['sse', 'ws'] as const)('live over %s: grace receives the publication and the later edit, never the draft edit; ada all three', async (transport) => {
    for (const { who, sub } of live.filter((l) => l.transport === transport)) {
      const expected = who === 'ada' ? [story.draftEdit, story.published, story.laterEdit] : [story.published, story.laterEdit];
      await waitFor(`${who}'s live events`, () => ofLesson(sub.events, story.lessonId).length >= expected.length);
      await sleep(QUIET_MS);
      expect(ofLesson(sub.events, story.lessonId), who).toEqual(expected);
      expect(sub.errors, who).toEqual([]);
    }
  });

  it.each(['sse', 'ws'] as const)('replay with after over %s: grace gets the publication and the later edit, ada all three', async (transport) => {
    const subs = {
      grace: subscribe(server, transport, grace, { types: LESSON_EVENTS, after: before }),
      ada: subscribe(server, transport, ada, { types: LESSON_EVENTS, after: before }),
    };
    try {
      await waitFor('grace replayed', () => ofLesson(subs.grace.events, story.lessonId).length >= 2);
      await waitFor('ada replayed', () => ofLesson(subs.ada.events, story.lessonId).length >= 3);
      await sleep(QUIET_MS);
      expect(ofLesson(subs.grace.events, story.lessonId)).toEqual([story.published, story.laterEdit]);
      expect(ofLesson(subs.ada.events, story.lessonId)).toEqual([story.draftEdit, story.published, story.laterEdit]);
      // Resuming after the hidden edit: an unknown id to grace.
      const refused = subscribe(server, transport, grace, { after: story.draftEdit });
      try {
        await waitFor('the refusal', () => refused.errors.length > 0);
        expect(refused.errors[0]?.extensions?.code ?? refused.errors[0]?.message).toMatch(/BAD_USER_INPUT|unknown or expired/);
        expect(refused.events).toEqual([]);
      } finally {
        refused.close();
      }
    } finally {
      subs.grace.close();
      subs.ada.close();
    }
  });

  it('the webhook endpoint (an ADMIN\'s) receives all three', async () => {
    await waitFor('three deliveries', () => rx.hits.filter((h) => h.body.includes(story.lessonId)).length >= 3);
    const ids = rx.hits.filter((h) => h.body.includes(story.lessonId)).map((h) => h.headers['webhook-id']);
    expect(new Set(ids)).toEqual(new Set([story.draftEdit, story.published, story.laterEdit]));
  });

  it('the response cache: the same GET query by ada then grace, and grace then ada, answers each their own events', async () => {
    const get = (query: string, token: string, headers: Record<string, string> = {}) =>
      api.get(`/graphql?query=${encodeURIComponent(query)}`, { token, headers });
    const ids = (r: { body: { data: { events: { edges: { node: Ev }[] } } } }) => ofLesson(r.body.data.events.edges.map((e) => e.node), story.lessonId);
    const q1 = `{ events(types: ["lesson.updated", "lesson.published"]) { edges { node { id event lessonId } } } }`;
    const ada1 = await get(q1, ada);
    expect(ada1.status).toBe(200);
    expect(ids(ada1)).toEqual([story.draftEdit, story.published, story.laterEdit]);
    const grace1 = await get(q1, grace);
    expect(ids(grace1)).toEqual([story.published, story.laterEdit]);
    expect(grace1.text).not.toContain(story.draftEdit);
    // ada's entity tag, if she got one, earns grace no 304 and none of ada's data.
    const etag = ada1.headers.get('etag');
    if (etag) {
      const conditional = await get(q1, grace, { 'if-none-match': etag });
      expect(conditional.status).toBe(200);
      expect(ids(conditional)).toEqual([story.published, story.laterEdit]);
    }
    const q2 = `{ events(types: ["lesson.published", "lesson.updated"]) { edges { node { id lessonId } } } }`;
    const grace2 = await get(q2, grace);
    expect(ids(grace2)).toEqual([story.published, story.laterEdit]);
    const ada2 = await get(q2, ada);
    expect(ids(ada2)).toEqual([story.draftEdit, story.published, story.laterEdit]);
    // Over POST too (answered from the cache when a result is stored).
    const post = await api.graphql(q1, undefined, { token: grace });
    expect(post.text).not.toContain(story.draftEdit);
  });
});

describe('through Redis, two instances: a subscriber on B hears only what it may see of a change made on A', () => {
  const instances = instancesForSuite({ kind: 'postgres', env: { ...NO_RATE_LIMITS, REDIS_URL: TEST_REDIS_URL } });
  const subs: Sub[] = [];
  afterAll(() => {
    for (const s of subs) s.close();
  });

  it.each(['sse', 'ws'] as const)('over %s', async (transport) => {
    const { a, b } = instances;
    const apiA = client(a.url);
    const ada = (await apiA.loginAs('ada')).token;
    const grace = (await apiA.loginAs('grace')).token;
    const onB = { grace: subscribe(b, transport, grace), ada: subscribe(b, transport, ada) };
    subs.push(onB.grace, onB.ada);
    await goLive(apiA, [onB.grace, onB.ada]);
    const story = await tellStory(apiA, ada, grace);
    await waitFor('ada on B', () => ofLesson(onB.ada.events, story.lessonId).length >= 3);
    await waitFor('grace on B', () => ofLesson(onB.grace.events, story.lessonId).length >= 2);
    await sleep(QUIET_MS);
    expect(ofLesson(onB.grace.events, story.lessonId)).toEqual([story.published, story.laterEdit]);
    expect(ofLesson(onB.ada.events, story.lessonId)).toEqual([story.draftEdit, story.published, story.laterEdit]);
  });
});

describe('events recorded before audiences existed (the migration\'s backfill), on PostgreSQL', () => {
  onPostgres('an edit made while its lesson was a draft becomes ADMIN-only; the publication and later edits stay public', async ({ server, api, ada, grace }) => {
    const story = await tellStory(api, ada, grace);
    // As a row written before the columns: everyone's.
    await sql(server, `UPDATE "Event" SET "adminOnly" = false, "ownerId" = NULL`);
    const opened = await api.get(`/api/v1/events?types=lesson.updated`, { token: grace });
    expect(ofLesson(opened.body.items, story.lessonId)).toEqual([story.draftEdit, story.laterEdit]);
    const dir = join(import.meta.dirname, '../prisma/migrations');
    const migration = (await readdir(dir)).find((d) => d.endsWith('_event_audience'))!;
    const text = await readFile(join(dir, migration, 'migration.sql'), 'utf8');
    await sql(server, text.slice(text.indexOf('UPDATE "Event"')));
    const backfilled = await api.get(`/api/v1/events?types=lesson.updated`, { token: grace });
    expect(ofLesson(backfilled.body.items, story.lessonId)).toEqual([story.laterEdit]);
    const asAda = await api.get(`/api/v1/events?types=lesson.updated`, { token: ada });
    expect(ofLesson(asAda.body.items, story.lessonId)).toEqual([story.draftEdit, story.laterEdit]);
  });
});

describe('retention keeps the cursor of a MEMBER who saw everything, when only hidden events followed it (PostgreSQL)', () => {
  const it = retaining;
  startForDescribe(it);

  it('grace gets the fresh edit after her cursor although a later edit of a draft went past retention', async ({ server: started, api: itsClient, ada, grace }) => {
    // Restarted below: the fixture's clean-up stops the restarted server.
    let server = started;
    let api = itsClient;
    const published = (await api.get('/api/v1/lessons?limit=1', { token: grace })).body.items[0].id as string;
    const draft = (await api.post('/api/v1/lessons', { title: 'Hidden', body: 'Draft.' }, { token: ada })).body.id as string;
    const edit = async (id: string, title: string) => expect((await api.patch(`/api/v1/lessons?id=${id}`, { title }, { token: ada })).status).toBe(200);
    await edit(published, 'Older news');
    await edit(published, 'Old news');
    await edit(draft, 'Hidden news');
    const listed = await waitFor('the edits listed', async () => {
      const page = await api.get('/api/v1/events?types=lesson.updated', { token: ada });
      return page.body.items.length === 3 && (page.body.items as Ev[]).map((e) => e.id);
    });
    const [older, last] = listed as [string, string, string];
    // grace has seen everything she may see: her cursor is the edit before the hidden one.
    expect((await api.get(`/api/v1/events?types=lesson.updated&after=${last}`, { token: grace })).body).toEqual({ items: [], nextCursor: null });
    // Two days pass; the published lesson changes again while she is away.
    await sql(server, `UPDATE "Event" SET "createdAt" = "createdAt" - interval '2 days'`);
    await edit(published, 'Fresh news');
    // The housekeeping runs as the relay starts.
    server = await server.restart();
    api = client(server.url);
    const token = (await api.loginAs('grace')).token;
    await waitFor('the events past retention deleted', async () => {
      const [row] = await sql<{ n: string }>(server, `SELECT count(*) AS n FROM "Event" WHERE id = $1`, [older]);
      return row!.n === '0' || undefined;
    });
    const poll = await waitFor('the fresh edit', async () => {
      const reply = await api.get(`/api/v1/events?types=lesson.updated&after=${last}`, { token });
      expect(reply.status, reply.text).toBe(200);
      return reply.body.items.length > 0 && (reply.body.items as Ev[]);
    });
    expect(poll.map((e) => [e.event, e.lessonId])).toEqual([['lesson.updated', published]]);
  });
});

describe('SUBSCRIBER_TOO_SLOW names the last event the subscriber may see (event stream, embedded database)', () => {
  const member: Caller = {
    userId: 'usr_member', role: 'MEMBER', tier: 'FREE', sessionId: 'ses_member',
    user: { id: 'usr_member', name: 'M', email: 'm@example.com', role: 'MEMBER', tier: 'FREE', createdAt: new Date() },
  };
  const admin: Caller = { ...member, userId: 'usr_admin', role: 'ADMIN', user: { ...member.user, id: 'usr_admin', role: 'ADMIN' } };
  let dir: string;
  let db: Database;
  const publicId = newId('evt');
  const hiddenId = newId('evt');
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'learnstream-visibility-'));
    db = await openDatabase({ databaseUrl: undefined, dataDir: dir, dbPoolSize: 1 });
    await db.migrate();
    const payload = (event: string) => ({ event, timestamp: new Date().toISOString(), lessonId: newId('les') });
    await db.prisma.event.create({ data: { id: publicId, type: 'lesson.published', payload: payload('lesson.published'), position: 1 } });
    await db.prisma.event.create({ data: { id: hiddenId, type: 'lesson.updated', payload: payload('lesson.updated'), position: 2, adminOnly: true } });
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['a MEMBER', member, publicId],
    ['an ADMIN', admin, hiddenId],
  ] as const)('%s that never read is told to resume after the newest event it may see', async (_, caller, expected) => {
    const bus = createEventBus({ channel: `visibility-${randomBytes(3).toString('hex')}`, buffer: 2 });
    const stream = await createEventService({ db: db.prisma, bus }).stream({ caller });
    for (let position = 3; position <= 6; position++) {
      bus.publish({ id: newId('evt'), position, payload: { event: 'analytics.hit', timestamp: new Date().toISOString(), path: '/x' }, audience: { adminOnly: false, ownerId: null } });
    }
    await bus.flushed();
    const error = await stream.next().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SubscriberTooSlow);
    expect((error as SubscriberTooSlow).lastEventId).toBe(expected);
  });
});
