// REST and GraphQL are two doors to the same services: the same question gets the same answer.
// GraphQL DateTimes are ISO 8601 strings, as in REST; only the envelope differs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';

let server: TestServer;
let api: Client;
let ada: string; // ADMIN: sees drafts
let grace: string; // MEMBER

beforeAll(async () => {
  server = await startTestServer({ env: NO_RATE_LIMITS });
  api = client(server.url);
  ada = (await api.loginAs('ada')).token;
  grace = (await api.loginAs('grace')).token;
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
afterAll(() => server?.stop());

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
});
