// GET /api/v1/events and Query.events over real HTTP: paging (nextCursor, endCursor) gives exactly
// what a subscription replaying from the same cursor gives; filters, the default page, hostile
// values, credentials and an expired cursor; and on a long history a page reads the position
// index (or, for rarely written types, the index of names), not the history.
import { randomBytes } from 'node:crypto';
import { createClient as createSseClient } from 'graphql-sse';
import pg from 'pg';
import { describe, expect } from 'vitest';
import type { LearningEvent } from '../src/client/index.js';
import { expectError } from './support/assert.js';
import { serverTest, serverTestOn, type ServerTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { waitFor } from './support/wait.js';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Listed {
  id: string;
  event: string;
  timestamp: string;
  lessonId?: string;
  userId?: string;
  path?: string;
  courseId?: string;
}
interface Page {
  items: Listed[];
  nextCursor: string | null;
}

const EVENTS_QUERY = `query($first: Int, $after: String, $types: [String!], $since: DateTime) {
  events(first: $first, after: $after, types: $types, since: $since) {
    edges { cursor node { id event timestamp lessonId userId path courseId } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const SUBSCRIPTION = `subscription($types: [String!], $after: ID) {
  events(types: $types, after: $after) { id event timestamp lessonId userId path courseId }
}`;

/** A listed event in the subscription's shape: the payload's fields, the others null. */
const asSubscribed = (e: Listed): LearningEvent => ({
  id: e.id,
  event: e.event as LearningEvent['event'],
  timestamp: e.timestamp,
  lessonId: e.lessonId ?? null,
  userId: e.userId ?? null,
  path: e.path ?? null,
  courseId: e.courseId ?? null,
});

const onEachDatabase = serverTestOn({ env: NO_RATE_LIMITS });
// A server of its own: its tests add 200,000 events of history.
const longHistory = serverTest({ kind: 'postgres', env: NO_RATE_LIMITS });

/** `it`'s server, client and tokens (and ada's id), for the helpers below; call it in a describe. */
function harness(it: ServerTest) {
  const h = {} as { server: TestServer; api: Client; ada: string; grace: string; adaId: string };
  it.beforeAll(async ({ server, api, ada, grace }) => {
    Object.assign(h, { server, api, ada, grace });
    h.adaId = (await api.get('/api/v1/user/me', { token: ada })).body.id as string;
  });
  return h;
}

/** Every page of GET /api/v1/events from `query` on, following nextCursor; also returns the pages. */
async function pageThrough(api: Client, token: string, query: Record<string, string>): Promise<{ items: Listed[]; pages: Page[] }> {
  const pages: Page[] = [];
  let after: string | undefined = query.after;
  for (;;) {
    const params = new URLSearchParams({ ...query, ...(after ? { after } : {}) });
    const reply = await api.get(`/api/v1/events?${params}`, { token });
    expect(reply.status, reply.text).toBe(200);
    const page = reply.body as Page;
    pages.push(page);
    if (page.nextCursor === null) break;
    expect(page.nextCursor).toBe(page.items[page.items.length - 1]!.id);
    after = page.nextCursor;
  }
  return { items: pages.flatMap((p) => p.items), pages };
}

/** Every page of Query.events from `variables` on, following endCursor. */
async function connectionThrough(api: Client, token: string, variables: Record<string, unknown>): Promise<LearningEvent[]> {
  const nodes: LearningEvent[] = [];
  let after = variables.after as string | undefined;
  for (;;) {
    const reply = await api.graphql(EVENTS_QUERY, { ...variables, after }, { token });
    expect(reply.body.errors, reply.text).toBeUndefined();
    const { edges, pageInfo } = reply.body.data.events as {
      edges: { cursor: string; node: LearningEvent }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
    for (const edge of edges) expect(edge.cursor).toBe(edge.node.id);
    nodes.push(...edges.map((e) => e.node));
    if (!pageInfo.hasNextPage) return nodes;
    after = pageInfo.endCursor!;
  }
}

/** Subscribes (SSE) with `after` and collects until `count` events arrived. */
async function subscribed(server: TestServer, token: string, variables: { after: string; types?: string[] }, count: number): Promise<LearningEvent[]> {
  const events: LearningEvent[] = [];
  const errors: unknown[] = [];
  const sse = createSseClient({ url: `${server.url}/graphql`, singleConnection: false, retryAttempts: 0, headers: { authorization: `Bearer ${token}` } });
  const stop = sse.subscribe<{ events: LearningEvent }>({ query: SUBSCRIPTION, variables }, {
    next: (result) => {
      if (result.errors) errors.push(...result.errors);
      if (result.data?.events) events.push(result.data.events);
    },
    error: (error) => errors.push(error),
    complete: () => {},
  });
  try {
    await waitFor(`${count} subscribed events`, () => (errors.length ? Promise.reject(new Error(JSON.stringify(errors))) : events.length >= count));
    return events;
  } finally {
    stop();
    sse.dispose();
  }
}

/** Causes a mix of events through the API and returns how many. */
async function causeEvents(h: { api: Client; ada: string }, rounds: number): Promise<number> {
  for (let i = 0; i < rounds; i++) {
    const lesson = await h.api.post('/api/v1/lessons', { title: `List ${i}`, body: 'B' }, { token: h.ada });
    expect(lesson.status).toBe(201);
    const id = lesson.body.id as string;
    expect((await h.api.post(`/api/v1/lessons/publish?id=${id}`, undefined, { token: h.ada })).status).toBe(200);
    expect((await h.api.patch(`/api/v1/lessons?id=${id}`, { summary: `S${i}` }, { token: h.ada })).status).toBe(200);
    expect((await h.api.patch('/api/v1/user/me', { name: `Ada ${i}` }, { token: h.ada })).status).toBe(200);
    expect((await h.api.post('/api/analytics/views', { path: `/list/${i}` })).status).toBe(202);
  }
  return rounds * 4;
}

/** The id of the newest positioned event (one is recorded first if there is none). */
async function newestId(h: { api: Client; grace: string }): Promise<string> {
  const probe = `/probe/${randomBytes(4).toString('hex')}`;
  expect((await h.api.post('/api/analytics/views', { path: probe })).status).toBe(202);
  const all = await waitFor('the probe in the list', async () => {
    const { items } = await pageThrough(h.api, h.grace, { limit: '1000' });
    return items.some((e) => e.path === probe) && items;
  });
  return all[all.length - 1]!.id;
}

describe.each(DATABASES)('the event list on %s', (kind) => {
  const it = onEachDatabase[kind];
  const h = harness(it);

  it('pages, by REST and by GraphQL, through exactly the events the subscription replays: same ids, order and fields', async () => {
    const start = await newestId(h);
    const caused = await causeEvents(h, 6);
    const rest = await waitFor('every caused event in the list', async () => {
      const { items } = await pageThrough(h.api, h.grace, { after: start });
      return items.length >= caused && items;
    });
    const { items, pages } = await pageThrough(h.api, h.grace, { after: start, limit: '5' });
    expect(items).toEqual(rest);
    expect(pages.length).toBe(Math.ceil(rest.length / 5));
    expect(pages.slice(0, -1).every((p) => p.items.length === 5)).toBe(true);
    expect(new Set(items.map((e) => e.id)).size).toBe(items.length);
    for (const e of items) {
      expect(e.id).toMatch(/^evt_[0-9a-z]{26}$/);
      expect(e.timestamp).toMatch(ISO_MS_Z);
      // Only the payload's own fields (none of another event type's), in the contract's order.
      const subject = e.event.startsWith('lesson.') ? 'lessonId' : e.event.startsWith('user.') ? 'userId' : 'path';
      expect(Object.keys(e)).toEqual(['id', 'event', 'timestamp', subject]);
    }
    expect(items.filter((e) => e.userId === h.adaId).map((e) => e.event)).toEqual(Array(6).fill('user.updated'));

    const graph = await connectionThrough(h.api, h.grace, { after: start, first: 4 });
    expect(graph).toEqual(items.map(asSubscribed));
    const live = await subscribed(h.server, h.grace, { after: start }, items.length);
    expect(live.slice(0, items.length)).toEqual(items.map(asSubscribed));

    // The same with a filter on both sides.
    const types = ['lesson.published', 'analytics.hit'];
    const filtered = await pageThrough(h.api, h.grace, { after: start, limit: '3', types: types.join(',') });
    expect(filtered.items).toEqual(items.filter((e) => types.includes(e.event)));
    expect(filtered.items.length).toBe(12);
    expect(await connectionThrough(h.api, h.grace, { after: start, first: 5, types })).toEqual(filtered.items.map(asSubscribed));
    const liveFiltered = await subscribed(h.server, h.grace, { after: start, types }, filtered.items.length);
    expect(liveFiltered.slice(0, filtered.items.length)).toEqual(filtered.items.map(asSubscribed));
  });

  it('filters by one type, and by since (alone and with after)', async () => {
    const all = (await pageThrough(h.api, h.ada, { limit: '1000' })).items;
    expect(all.length).toBeGreaterThan(20);
    const updated = await pageThrough(h.api, h.ada, { types: 'lesson.updated' });
    expect(updated.items).toEqual(all.filter((e) => e.event === 'lesson.updated'));
    expect(updated.items.length).toBeGreaterThan(0);

    const middle = all[Math.floor(all.length / 2)]!;
    const newer = all.filter((e) => e.timestamp >= middle.timestamp);
    expect(newer.length).toBeLessThan(all.length);
    expect((await pageThrough(h.api, h.ada, { since: middle.timestamp, limit: '4' })).items).toEqual(newer);
    // With after: both apply.
    const cut = all[all.length - 4]!;
    expect((await pageThrough(h.api, h.ada, { since: middle.timestamp, after: all[2]!.id })).items).toEqual(newer);
    expect((await pageThrough(h.api, h.ada, { since: middle.timestamp, after: cut.id })).items).toEqual(all.slice(-3));
    // Finer than a millisecond (as Python's isoformat writes): the events of that millisecond are older.
    const micro = middle.timestamp.replace('Z', '001Z');
    expect((await pageThrough(h.api, h.ada, { since: micro })).items).toEqual(all.filter((e) => e.timestamp > middle.timestamp));
    // A date means midnight UTC; a time after every event gives nothing.
    const today = middle.timestamp.slice(0, 10);
    expect((await pageThrough(h.api, h.ada, { since: today })).items).toEqual(all.filter((e) => e.timestamp >= `${today}T00:00:00.000Z`));
    expect(await h.api.get('/api/v1/events?since=2999-01-01', { token: h.ada }).then((r) => r.body)).toEqual({ items: [], nextCursor: null });
    const sinceGraph = await connectionThrough(h.api, h.ada, { since: middle.timestamp, first: 7 });
    expect(sinceGraph).toEqual(newer.map(asSubscribed));
  });

  it('reads a since before year 1 as "from the beginning", on REST and GraphQL alike (year 0000 was a 500 / "Unexpected error.")', async () => {
    await newestId(h);
    const all = (await pageThrough(h.api, h.ada, { limit: '1000' })).items;
    expect(all.length).toBeGreaterThan(0);
    for (const since of ['0000-01-01', '0000-12-31T23:59:59.999Z', '0001-01-01']) {
      expect((await pageThrough(h.api, h.ada, { since, limit: '1000' })).items, since).toEqual(all);
      const literal = await h.api.graphql(`{ events(since: "${since}", first: 1) { edges { node { id } } } }`, undefined, { token: h.ada });
      expect(literal.body, literal.text).toEqual({ data: { events: { edges: [{ node: { id: all[0]!.id } }] } } });
      expect(await connectionThrough(h.api, h.ada, { since, first: 1000 }), since).toEqual(all.map(asSubscribed));
    }
    // A signed (expanded) year is no ISO 8601 date of this API: 400 naming since, BAD_USER_INPUT on GraphQL.
    for (const since of ['-000001-01-01T00:00:00Z', '-271821-04-20T00:00:00Z', '+010000-01-01T00:00:00Z']) {
      expectError(await h.api.get(`/api/v1/events?since=${encodeURIComponent(since)}`, { token: h.ada }), 400,
        'query.since: must be an ISO 8601 date (YYYY-MM-DD) or UTC date-time (…Z)', 'query.since');
      const reply = await h.api.graphql(EVENTS_QUERY, { since }, { token: h.ada });
      expect(reply.body.data ?? null, reply.text).toBeNull();
      expect(reply.body.errors[0].extensions.code, reply.text).toBe('BAD_USER_INPUT');
    }
  });

  it('reads since the same on REST and GraphQL: digits past the millisecond count, and a date-time must be in UTC (…Z)', async () => {
    await causeEvents(h, 1);
    await newestId(h);
    const all = (await pageThrough(h.api, h.ada, { limit: '1000' })).items;
    const middle = all[Math.floor(all.length / 2)]!;
    const graph = async (since: string) => {
      const nodes = await connectionThrough(h.api, h.ada, { since, first: 1000 });
      return nodes.map((e) => e.id);
    };
    // …40.7391Z is after …40.739Z: both leave that millisecond's events out (GraphQL kept them).
    for (const since of [middle.timestamp.replace('Z', '1Z'), middle.timestamp.replace('Z', '0000001Z')]) {
      const rest = (await pageThrough(h.api, h.ada, { since, limit: '1000' })).items;
      expect(rest, since).toEqual(all.filter((e) => e.timestamp > middle.timestamp));
      expect(await graph(since), since).toEqual(rest.map((e) => e.id));
    }
    // Trailing zeros change nothing: that millisecond's events are in.
    const zeros = middle.timestamp.replace('Z', '000Z');
    expect(await graph(zeros)).toEqual(all.filter((e) => e.timestamp >= middle.timestamp).map((e) => e.id));
    // An offset, even +00:00, is refused by both, naming since.
    for (const since of [middle.timestamp.replace('Z', '+00:00'), `${middle.timestamp.slice(0, 19)}+01:00`]) {
      expectError(await h.api.get(`/api/v1/events?since=${encodeURIComponent(since)}`, { token: h.ada }), 400,
        'query.since: must be an ISO 8601 date (YYYY-MM-DD) or UTC date-time (…Z)', 'query.since');
      const reply = await h.api.graphql(EVENTS_QUERY, { since }, { token: h.ada });
      expect(reply.body.data ?? null, reply.text).toBeNull();
      expect(reply.body.errors, reply.text).toHaveLength(1);
      expect(reply.body.errors[0].extensions.code, reply.text).toBe('BAD_USER_INPUT');
      expect(reply.body.errors[0].message).toBe('DateTime: must be an ISO 8601 date or date-time in UTC (YYYY-MM-DD or …Z)');
    }
  });

  it('answers 100 events by default, up to 1000 with limit, and nextCursor null on the last page', async () => {
    for (let i = 0; i < 7; i++) {
      const replies = await Promise.all(Array.from({ length: 15 }, (_, j) => h.api.post('/api/analytics/views', { path: `/bulk/${i}/${j}` })));
      expect(replies.every((r) => r.status === 202)).toBe(true);
    }
    const all = await waitFor('the bulk views', async () => {
      const { items } = await pageThrough(h.api, h.ada, { limit: '1000' });
      return items.filter((e) => e.path?.startsWith('/bulk/')).length === 105 && items;
    });
    const first = (await h.api.get('/api/v1/events', { token: h.ada })).body as Page;
    expect(first.items).toEqual(all.slice(0, 100));
    expect(first.nextCursor).toBe(all[99]!.id);
    const whole = (await h.api.get('/api/v1/events?limit=1000', { token: h.ada })).body as Page;
    expect(whole).toEqual({ items: all, nextCursor: null });
    const last = (await h.api.get(`/api/v1/events?after=${all[all.length - 2]!.id}&limit=1`, { token: h.ada })).body as Page;
    expect(last).toEqual({ items: [all[all.length - 1]], nextCursor: null });
    expect((await h.api.get(`/api/v1/events?after=${all[all.length - 1]!.id}`, { token: h.ada })).body).toEqual({ items: [], nextCursor: null });
    const graphFirst = await h.api.graphql(EVENTS_QUERY, {}, { token: h.ada });
    expect(graphFirst.body.data.events.edges).toHaveLength(100);
    expect(graphFirst.body.data.events.pageInfo).toMatchObject({ hasNextPage: true, endCursor: all[99]!.id });
  });

  it('refuses hostile values with a 400 naming the field, and changes nothing', async () => {
    const before = (await pageThrough(h.api, h.ada, { limit: '1000' })).items;
    const lesson = (await h.api.get('/api/v1/lessons?limit=1', { token: h.ada })).body.items[0].id as string;
    const cases: [string, string][] = [
      ['after', encodeURIComponent('evt_\u0000')],
      ['after', `${before[0]!.id}%00`],
      ['after', 'x'.repeat(6000)],
      ['after', lesson],
      ['after', h.adaId],
      ['after', 'evt_01zzzzzzzzzzzzzzzzzzzzzzzz'],
      ['after', ''],
      ['after', encodeURIComponent("evt_' OR 1=1 --")],
      ['limit', '0'],
      ['limit', '-1'],
      ['limit', '1.5'],
      ['limit', '1001'],
      ['limit', '99999999999999999999999'],
      ['limit', 'ten'],
      ['limit', ''],
      ['limit', '1e3'],
      ['limit', '%00'],
      ['types', ''],
      ['types', 'lesson.nope'],
      ['types', 'lesson.published,'],
      ['types', 'webhook.test'],
      ['types', '%00'],
      ['types', 'a'.repeat(5000)],
      ['since', 'yesterday'],
      ['since', '2026-13-01'],
      ['since', '2026-01-01T00:00:00+01:00'],
      ['since', '%00'],
      ['since', '9'.repeat(5000)],
    ];
    for (const [field, value] of cases) {
      const reply = await h.api.get(`/api/v1/events?${field}=${value}`, { token: h.ada });
      expectError(reply, 400, new RegExp(`^query\\.${field}: `), `query.${field}`);
    }
    // Repeated parameters: the last one counts, and it is validated too.
    expectError(await h.api.get('/api/v1/events?limit=5&limit=0', { token: h.ada }), 400, /^query\.limit: /, 'query.limit');

    // GraphQL: BAD_USER_INPUT naming the argument.
    const graphCases: [Record<string, unknown>, string][] = [
      [{ first: 0 }, 'first'],
      [{ first: 1001 }, 'first'],
      [{ first: -5 }, 'first'],
      [{ after: lesson }, 'after'],
      [{ after: 'evt_\u0000' }, 'after'],
      [{ types: ['nope'] }, 'types'],
      [{ types: [''] }, 'types'],
    ];
    for (const [variables, field] of graphCases) {
      const reply = await h.api.graphql(EVENTS_QUERY, variables, { token: h.ada });
      expect(reply.body.data, reply.text).toBeNull();
      expect(reply.body.errors[0].extensions.code, reply.text).toBe('BAD_USER_INPUT');
      expect(reply.body.errors[0].message).toMatch(new RegExp(`^${field}: `));
    }
    const since = await h.api.graphql(EVENTS_QUERY, { since: 'yesterday' }, { token: h.ada });
    expect(since.body.errors[0].extensions.code, since.text).toBe('BAD_USER_INPUT');

    expect((await pageThrough(h.api, h.ada, { limit: '1000' })).items).toEqual(before);
    expect((await h.api.get('/readyz')).status).toBe(200);
  });

  it('needs credentials like the subscription: any signed-in user, none is 403', async () => {
    expectError(await h.api.get('/api/v1/events'), 403, 'Missing or invalid token');
    expectError(await h.api.get('/api/v1/events', { token: 'not-a-token' }), 403, 'Missing or invalid token');
    // Without credentials the input is not even looked at.
    expectError(await h.api.get('/api/v1/events?limit=0'), 403, 'Missing or invalid token');
    const anonymous = await h.api.graphql(EVENTS_QUERY, {});
    expect(anonymous.body.errors[0].extensions.code, anonymous.text).toBe('UNAUTHENTICATED');
    expect((await h.api.get('/api/v1/events?limit=1', { token: h.grace })).status).toBe(200);
  });
});

describe('the event list on a long history (PostgreSQL)', () => {
  const it = longHistory;
  const h = harness(it);

  it('an expired after (its event deleted past retention) is a 400 naming after', async () => {
    const { items } = await pageThrough(h.api, h.ada, { limit: '1000' });
    const id = await newestId(h);
    const oldest = items[0] ?? { id };
    expect((await h.api.get(`/api/v1/events?after=${oldest.id}`, { token: h.ada })).status).toBe(200);
    await sql(h.server, 'DELETE FROM "Event" WHERE id = $1', [oldest.id]);
    expectError(await h.api.get(`/api/v1/events?after=${oldest.id}`, { token: h.ada }), 400, 'query.after: unknown or expired event id', 'query.after');
  });

  /** Appends 100,000 page views (ids `evt_<idPrefix>…`, paths `<pathPrefix><n>`) after every stored event, and analyzes. */
  async function addPageViews(db: pg.Client, idPrefix: string, pathPrefix: string): Promise<void> {
    await db.query(
      `INSERT INTO "Event" (id, type, payload, "createdAt", position)
       SELECT 'evt_' || $1 || lpad(to_hex(g), 26 - length($1), '0'), 'analytics.hit',
              jsonb_build_object('event', 'analytics.hit', 'timestamp', '2026-01-01T00:00:00.000Z', 'path', $2 || g),
              now() - interval '1 day' + g * interval '1 ms', base.p + g
         FROM generate_series(1, 100000) g, (SELECT COALESCE(MAX(position), 0) AS p FROM "Event") base`,
      [idPrefix, pathPrefix],
    );
    await db.query('ANALYZE "Event"');
  }

  /**
   * The plan, as JSON text, of the page statement the server sent for `path` (found among what it
   * sent), run again with `values`; and the most rows any step of it read.
   */
  async function pagePlan(db: pg.Client, path: string, values: string): Promise<{ text: string; mostRows: number; body: Page }> {
    h.server.queries.length = 0;
    const reply = await h.api.get(path, { token: h.ada });
    expect(reply.status).toBe(200);
    // The list's read, not the stream's catch-up read of the same rows (bounded by `"position" <=`).
    const page = h.server.queries.find((q) => /FROM "public"."Event" WHERE .*"position" > \$1/.test(q) && /ORDER BY .*"position" ASC/.test(q) && !/"position" <=/.test(q));
    expect(page, h.server.queries.join('\n')).toBeDefined();
    await db.query('DEALLOCATE ALL');
    await db.query(`PREPARE page AS ${page!}`);
    const plan = (await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE page(${values})`)).rows[0]!['QUERY PLAN'];
    const text = JSON.stringify(plan);
    return { text, mostRows: Math.max(...[...text.matchAll(/"Actual Rows":(\d+)/g)].map((m) => Number(m[1]))), body: reply.body as Page };
  }

  it('reads a page through the position index: the rows read do not grow with the history', async () => {
    // 100,000 events of history before the cursor, as months of page views would be.
    const db = new pg.Client({ connectionString: h.server.databaseUrl });
    await db.connect();
    try {
      await addPageViews(db, '', '/old/');
      // A cursor in the middle: 50,000 events before it, 50,000 after.
      const cursor = `evt_${(50_000).toString(16).padStart(26, '0')}`;
      const position = (await db.query<{ position: string }>('SELECT position FROM "Event" WHERE id = $1', [cursor])).rows[0]!.position;
      // The statement as sent, with the request's values (position, the two types, the page size + 1, offset 0).
      const { text, mostRows, body } = await pagePlan(db, `/api/v1/events?after=${cursor}&limit=10&types=analytics.hit,lesson.updated`, `${Number(position)}, 'analytics.hit', 'lesson.updated', 11, 0`);
      expect(body.items.map((e) => e.path)).toEqual(Array.from({ length: 10 }, (_, i) => `/old/${50_001 + i}`));
      expect(text).toContain('"Index Name":"Event_position_key"');
      expect(text).not.toContain('Seq Scan');
      expect(text).not.toContain('"Node Type":"Sort"');
      // The index is entered at the cursor: the rows it reads are the page, not the history.
      expect(mostRows).toBeLessThanOrEqual(11);
    } finally {
      await db.end();
    }
  });

  it('reads a page of rarely written types through the index of names: the rows read do not grow with the page views (it read them all)', async () => {
    // 100,000 page views after every user.created event, as a busy week would have.
    const db = new pg.Client({ connectionString: h.server.databaseUrl });
    await db.connect();
    try {
      await addPageViews(db, 'z', '/busy/');
      const { text, mostRows, body } = await pagePlan(db, '/api/v1/events?limit=10&types=user.created', `0, 'user.created', 11, 0`);
      expect(body.items.every((e) => e.event === 'user.created')).toBe(true);
      expect(text).toContain('"Index Name":"Event_type_position_idx"');
      expect(text).not.toContain('Seq Scan');
      expect(mostRows).toBeLessThanOrEqual(11);
    } finally {
      await db.end();
    }
  });
});
