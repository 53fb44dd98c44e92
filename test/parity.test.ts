// REST and GraphQL are two doors to the same services: the same question gets the same answer.
// GraphQL DateTimes are ISO 8601 strings, as in REST; only the envelope differs.
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { sql, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const it = serverTest({ env: NO_RATE_LIMITS });

// The fixture's server, client and tokens, for the helpers below.
let server: TestServer;
let api: Client;
let ada: string; // ADMIN: sees drafts
let grace: string; // MEMBER

it.beforeAll(async ({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
  [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
  // More lessons than one small page, drafts and published ones, through REST.
  for (let i = 0; i < 5; i++) {
    const created = await api.post('/api/v1/lessons', { title: `Parity ${i}`, body: `Body ${i}`, ...(i % 2 ? { summary: `Summary ${i}` } : {}) }, { token: ada });
    expect(created.status).toBe(201);
    if (i % 2 === 0) expect((await api.post(`/api/v1/lessons/publish?id=${created.body.id}`, undefined, { token: ada })).status).toBe(200);
  }
  for (const path of ['/parity/a', '/parity/a', '/parity/b']) {
    expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
  }
});

/** The data of a GraphQL reply, after checking it has no errors. */
async function graphql(query: string, variables?: Record<string, unknown>, token?: string) {
  const reply = await api.graphql(query, variables, token ? { token } : undefined);
  expect(reply.status).toBe(200);
  expect(reply.body.errors, reply.text).toBeUndefined();
  return reply.body.data;
}

const LESSON_FIELDS = 'id title summary body status authorId createdAt publishedAt updatedAt';

describe('REST and GraphQL agree', () => {
  it('GET /api/v1/user/me = me', async () => {
    for (const token of [ada, grace, (await api.loginAs('alan')).token]) {
      const rest = await api.get('/api/v1/user/me', { token });
      expect(rest.status).toBe(200);
      const { me } = await graphql('{ me { id name email joined role tier } }', undefined, token);
      expect(me).toEqual(rest.body);
    }
  });

  it('GET /api/users/{id} = user(id)', async () => {
    for (const token of [ada, grace]) {
      const { id } = (await api.get('/api/v1/user/me', { token })).body;
      const rest = await api.get(`/api/users/${id}`);
      expect(rest.status).toBe(200);
      const { user } = await graphql('query ($id: ID!) { user(id: $id) { id name joined } }', { id });
      expect(user).toEqual(rest.body);
    }
  });

  it('GET /api/v1/lessons?id= = lesson(id), every field, for drafts and published lessons', async () => {
    const all = (await api.get('/api/v1/lessons?limit=100', { token: ada })).body.items as { id: string; status: string }[];
    expect(new Set(all.map((l) => l.status))).toEqual(new Set(['DRAFT', 'PUBLISHED']));
    for (const { id } of all) {
      const rest = await api.get(`/api/v1/lessons?id=${encodeURIComponent(id)}`, { token: ada });
      expect(rest.status).toBe(200);
      const { lesson } = await graphql(`query ($id: ID!) { lesson(id: $id) { ${LESSON_FIELDS} } }`, { id }, ada);
      expect(lesson).toEqual(rest.body);
      expect(lesson.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it('the lessons list, page by page = lessons(first, after), for an ADMIN and a MEMBER', async () => {
    for (const token of [ada, grace]) {
      let cursor: string | null = null;
      let pages = 0;
      do {
        const rest = await api.get(`/api/v1/lessons?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
        expect(rest.status).toBe(200);
        const { lessons } = await graphql(
          `query ($after: String) { lessons(first: 3, after: $after) { edges { node { ${LESSON_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
          { after: cursor },
          token,
        );
        expect(lessons.edges.map((e: { node: unknown }) => e.node)).toEqual(rest.body.items);
        expect(lessons.pageInfo.hasNextPage).toBe(rest.body.nextCursor !== null);
        // One cursor format: REST's nextCursor is GraphQL's endCursor, usable by either.
        if (rest.body.nextCursor !== null) expect(lessons.pageInfo.endCursor).toBe(rest.body.nextCursor);
        cursor = rest.body.nextCursor as string | null;
        pages++;
      } while (cursor !== null && pages < 20);
      expect(pages).toBeGreaterThan(1);
      expect(cursor).toBeNull();
    }

    // The default page size is the same too.
    const rest = await api.get('/api/v1/lessons', { token: ada });
    const { lessons } = await graphql('{ lessons { edges { node { id } } } }', undefined, ada);
    expect(lessons.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(rest.body.items.map((l: { id: string }) => l.id));
  });

  it('GET /api/content/docs = docs', async () => {
    const rest = await api.get('/api/content/docs');
    expect(rest.status).toBe(200);
    expect(rest.body.length).toBeGreaterThan(0);
    const { docs } = await graphql('{ docs { id slug title url updatedAt } }');
    expect(docs).toEqual(rest.body);
  });

  it('GET /api/analytics/views = pageViews, with and without filters', async () => {
    const now = new Date();
    const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const filters: Record<string, string>[] = [
      {},
      { path: '/parity/a' },
      { path: '/parity/b' },
      { path: '/nowhere' },
      { from: day(-1) },
      { to: day(-1) },
      { from: day(-60), to: day(-10) },
      { path: '/parity/a', from: day(-1), to: day(1) },
      { from: `${day(-1)}T12:00:00Z`, to: `${day(1)}T00:00:00.000Z` },
    ];
    const totals = new Set<number>();
    for (const filter of filters) {
      const rest = await api.get(`/api/analytics/views?${new URLSearchParams(filter).toString()}`);
      expect(rest.status, JSON.stringify(filter)).toBe(200);
      const { pageViews } = await graphql(
        'query ($path: String, $from: DateTime, $to: DateTime) { pageViews(path: $path, from: $from, to: $to) }',
        filter,
      );
      expect({ filter, total: pageViews }).toEqual({ filter, total: rest.body.total });
      totals.add(pageViews as number);
    }
    // The filters did narrow: not every question had the same answer.
    expect(totals.size).toBeGreaterThan(3);
  });

  it('GET /api/analytics/views = pageViews on bounds finer than a millisecond, before year 1, and with offsets', async () => {
    const path = `/parity/bounds/${Date.now()}`;
    expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
    // The view's time, to the millisecond (times are stored to the millisecond).
    const [view] = (await sql<{ at: Date }>(server, 'SELECT at FROM "PageView" WHERE path = $1', [path]));
    const at = view!.at.toISOString();
    const second = at.slice(0, 19);
    const QUERY = 'query ($path: String, $from: DateTime, $to: DateTime) { pageViews(path: $path, from: $from, to: $to) }';
    const cases: [Record<string, string>, number][] = [
      [{ from: at }, 1],
      [{ from: at.replace('Z', '1Z') }, 0], // …40.7391Z is after …40.739Z
      [{ from: at.replace('Z', '000Z') }, 1],
      [{ to: at.replace('Z', '1Z') }, 1],
      [{ to: at }, 0],
      [{ from: `${second}.0000001Z`, to: `${second}.0000002Z` }, 0], // a window within one millisecond: empty, not reversed
      // Ten fraction digits: Date.parse read …00.0500000000Z as …00.500Z, after `to` (400).
      [{ from: '2001-01-01T00:00:00.0500000000Z', to: '2001-01-01T00:00:00.1000000000Z' }, 0],
      [{ from: `${at.slice(0, 23)}0000000Z` }, 1],
      [{ from: '0000-01-01' }, 1], // before year 1: from the beginning
      [{ from: '0000-01-01', to: '0000-12-31T23:59:59.9999999Z' }, 0],
      [{ to: '0000-06-01' }, 0],
    ];
    for (const [bounds, total] of cases) {
      const filter = { path, ...bounds };
      const rest = await api.get(`/api/analytics/views?${new URLSearchParams(filter).toString()}`);
      expect({ filter, status: rest.status, body: rest.body }).toEqual({ filter, status: 200, body: { total } });
      const { pageViews } = await graphql(QUERY, filter);
      expect({ filter, total: pageViews }).toEqual({ filter, total });
    }
    // Refused by both: a reversed window within one millisecond (the same message), and offsets, even +00:00.
    const reversed = { path, from: `${second}.0000002Z`, to: `${second}.0000001Z` };
    const restReversed = await api.get(`/api/analytics/views?${new URLSearchParams(reversed).toString()}`);
    expect(restReversed.body).toMatchObject({ code: 400, message: 'query.to: must be later than from' });
    expect((await api.graphql(QUERY, reversed)).body).toMatchObject({ data: null, errors: [{ message: 'to: must be later than from', extensions: { code: 'BAD_USER_INPUT' } }] });
    const offsets: [string, string][] = [['from', `${second}+00:00`], ['to', `${at.slice(0, 23)}+01:00`], ['from', '-000001-01-01T00:00:00Z']];
    for (const [field, value] of offsets) {
      const bounds = { [field]: value };
      const rest = await api.get(`/api/analytics/views?${new URLSearchParams(bounds).toString()}`);
      expect(rest.body).toMatchObject({ code: 400, message: `query.${field}: must be an ISO 8601 date (YYYY-MM-DD) or UTC date-time (…Z)` });
      const reply = await api.graphql(QUERY, bounds);
      expect(reply.body, reply.text).toMatchObject({
        errors: [{ message: 'DateTime: must be an ISO 8601 date or date-time in UTC (YYYY-MM-DD or …Z)', extensions: { code: 'BAD_USER_INPUT' } }],
      });
      expect(reply.body.data ?? null).toBeNull();
      // Written in the document instead of sent as a variable: the same answer, not a validation error.
      const literal = await api.graphql(`{ pageViews(path: ${JSON.stringify(path)}, ${field}: ${JSON.stringify(value)}) }`);
      expect(literal.body, literal.text).toMatchObject({
        errors: [{ message: 'DateTime: must be an ISO 8601 date or date-time in UTC (YYYY-MM-DD or …Z)', extensions: { code: 'BAD_USER_INPUT' } }],
      });
      expect(literal.body.errors).toHaveLength(1);
      expect(literal.body.data ?? null).toBeNull();
    }
    // A good literal reads as the variable does.
    const literal = await api.graphql(`{ pageViews(path: ${JSON.stringify(path)}, from: ${JSON.stringify(second + '.000Z')}) }`);
    expect(literal.body, literal.text).toEqual({ data: { pageViews: 1 } });
  });
});

describe('REST and GraphQL refuse alike', () => {
  /** A GraphQL reply's one error, as REST's error for the same question (REST names the query parameter `query.id`). */
  function expectRefusedAlike(reply: Reply, rest: Reply, code: string) {
    expect(rest.body).toMatchObject({ error: true, code: rest.status });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.errors, `${reply.text} where REST said ${rest.text}`).toHaveLength(1);
    expect(reply.body.errors[0]).toMatchObject({
      message: String(rest.body.message).replace(/^query\./, ''),
      extensions: { code, status: rest.status },
    });
  }

  it('an empty lesson id is BAD_USER_INPUT naming the argument, as REST\'s `?id=` is 400, on lesson, updateLesson and publishLesson', async () => {
    const before = (await api.get('/api/v1/lessons?limit=100', { token: ada })).body;
    const cases: [string, Record<string, unknown> | undefined, Promise<Reply>][] = [
      ['{ lesson(id: "") { id } }', undefined, api.get('/api/v1/lessons?id=', { token: ada })],
      ['query ($id: ID!) { lesson(id: $id) { id } }', { id: '' }, api.get('/api/v1/lessons?id=', { token: ada })],
      ['mutation { updateLesson(id: "", input: { title: "Renamed" }) { id } }', undefined, api.patch('/api/v1/lessons?id=', { title: 'Renamed' }, { token: ada })],
      ['mutation ($id: ID!) { updateLesson(id: $id, input: { title: "Renamed" }) { id } }', { id: '' }, api.patch('/api/v1/lessons?id=', { title: 'Renamed' }, { token: ada })],
      ['mutation { publishLesson(id: "") { id } }', undefined, api.post('/api/v1/lessons/publish?id=', undefined, { token: ada })],
    ];
    for (const [query, variables, restReply] of cases) {
      const rest = await restReply;
      expect(rest).toMatchObject({ status: 400, body: { message: 'query.id: must not be empty' } });
      const reply = await api.graphql(query, variables, { token: ada });
      expectRefusedAlike(reply, rest, 'BAD_USER_INPUT');
      expect(reply.body.errors[0].extensions.details).toEqual({ field: 'id' });
    }
    expect((await api.get('/api/v1/lessons?limit=100', { token: ada })).body).toEqual(before);
  });

  it('an id holding a lone surrogate is not found and never echoed (the message stays valid Unicode), for every kind of id', async () => {
    const cases: [string, string][] = [
      ['query ($id: ID!) { user(id: $id) { id } }', 'User not found'],
      ['query ($id: ID!) { lesson(id: $id) { id } }', 'Lesson not found'],
      ['mutation ($id: ID!) { publishLesson(id: $id) { id } }', 'Lesson not found'],
      ['query ($id: ID!) { webhook(id: $id) { id } }', 'Webhook not found'],
      ['mutation ($id: ID!) { revokeApiKey(id: $id) }', 'API key not found'],
    ];
    for (const id of ['\ud800', 'usr_\udc00x', `les_${'\ud83e'}`]) {
      for (const [query, message] of cases) {
        const reply = await api.graphql(query, { id }, { token: ada });
        expect(reply.body.errors, `${query} ${JSON.stringify(id)}`).toEqual([expect.objectContaining({ message, extensions: expect.objectContaining({ code: 'NOT_FOUND', status: 404 }) })]);
        // Strict JSON parsers refuse an escaped lone surrogate: none is in the response.
        expect(reply.text).not.toMatch(/\\u[dD][89abAB]|\\u[dD][c-fC-F]/);
      }
    }
    // A surrogate pair is a character: an id holding one is merely unknown, and echoed as REST echoes it.
    const paired = await api.graphql('query ($id: ID!) { user(id: $id) { id } }', { id: 'usr_🦆' });
    expect(paired.body.errors?.[0]?.message).toBe((await api.get(`/api/users/${encodeURIComponent('usr_🦆')}`)).body.message);
  });
});
