// The lesson routes over real HTTP, on both databases: one lesson by id, keyset pages, and the
// ADMIN-only create / update / publish, with the events they do (and do not) emit.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { expectError } from './support/assert.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LESSON_KEYS = ['authorId', 'body', 'createdAt', 'id', 'publishedAt', 'status', 'summary', 'title', 'updatedAt'];

interface Lesson {
  id: string;
  title: string;
  summary: string | null;
  body: string;
  status: 'DRAFT' | 'PUBLISHED';
  authorId: string;
  createdAt: string;
  publishedAt: string | null;
  updatedAt: string;
}

/** Checks the exact lesson shape and returns it typed. */
function expectLesson(value: unknown): Lesson {
  expect(Object.keys(value as object).sort()).toEqual(LESSON_KEYS);
  const lesson = value as Lesson;
  expect(lesson.id).toEqual(expect.any(String));
  expect(lesson.title).toEqual(expect.any(String));
  expect(lesson.body).toEqual(expect.any(String));
  expect(lesson.summary === null || typeof lesson.summary === 'string').toBe(true);
  expect(['DRAFT', 'PUBLISHED']).toContain(lesson.status);
  expect(lesson.createdAt).toMatch(ISO_MS);
  expect(lesson.updatedAt).toMatch(ISO_MS);
  if (lesson.status === 'DRAFT') expect(lesson.publishedAt).toBeNull();
  else expect(lesson.publishedAt).toMatch(ISO_MS);
  return lesson;
}

/** Newest createdAt first; equal createdAt by id, descending (the keyset order). */
function expectNewestFirst(items: Lesson[]): void {
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1]!, items[i]!];
    const order = a.createdAt === b.createdAt ? (a.id > b.id ? 1 : -1) : a.createdAt > b.createdAt ? 1 : -1;
    expect(order, `${a.id} (${a.createdAt}) before ${b.id} (${b.createdAt})`).toBe(1);
  }
}

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('lesson routes on %s', (kind) => {
  const it = tests[kind];
  // The fixture's server, client and tokens, for the helpers and tests below.
  let server: TestServer;
  let api: Client;
  let ada: string;
  let grace: string;
  let adaId: string;

  /** Every page of the list for `token`, walked with nextCursor. */
  async function walk(token: string, limit?: number): Promise<{ pages: Lesson[][]; items: Lesson[] }> {
    const pages: Lesson[][] = [];
    let cursor: string | null = null;
    do {
      const qs = new URLSearchParams();
      if (limit !== undefined) qs.set('limit', String(limit));
      if (cursor) qs.set('cursor', cursor);
      const reply = await api.get(`/api/v1/lessons?${qs.toString()}`, { token });
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body as object).sort()).toEqual(['items', 'nextCursor']);
      const items = (reply.body.items as unknown[]).map(expectLesson);
      pages.push(items);
      cursor = reply.body.nextCursor as string | null;
      if (cursor !== null) expect(cursor).toEqual(expect.any(String));
      expect(pages.length).toBeLessThan(200);
    } while (cursor !== null);
    return { pages, items: pages.flat() };
  }

  async function create(body: Record<string, unknown>): Promise<Lesson> {
    const reply = await api.post('/api/v1/lessons', body, { token: ada });
    expect(reply.status).toBe(201);
    return expectLesson(reply.body);
  }

  it.beforeAll(async ({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
    [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
    adaId = (await api.get('/api/v1/user/me', { token: ada })).body.id as string;
    // Enough lessons for several pages: 22 more drafts, every other one published.
    for (let i = 0; i < 22; i++) {
      const lesson = await create({ title: `Generated lesson ${i}`, body: `Body ${i}` });
      if (i % 2 === 0) expect((await api.post(`/api/v1/lessons/publish?id=${lesson.id}`, undefined, { token: ada })).status).toBe(200);
    }
  });

  describe('GET /api/v1/lessons?id=X', () => {
    it('answers a published lesson to any user with the full lesson shape', async () => {
      const { items } = await walk(grace, 100);
      const seeded = items.find((l) => l.title === 'Notes on the Analytical Engine')!;
      for (const token of [grace, ada]) {
        const reply = await api.get(`/api/v1/lessons?id=${seeded.id}`, { token });
        expect(reply.status).toBe(200);
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
        const lesson = expectLesson(reply.body);
        expect(lesson).toEqual({
          id: seeded.id,
          title: 'Notes on the Analytical Engine',
          summary: 'The first published program.',
          body: expect.stringContaining('numerical quantities') as string,
          status: 'PUBLISHED',
          authorId: adaId,
          createdAt: seeded.createdAt,
          publishedAt: seeded.publishedAt,
          updatedAt: seeded.updatedAt,
        });
        expect(lesson.body).toBe(seeded.body);
        expect(Date.parse(lesson.publishedAt!)).toBeGreaterThanOrEqual(Date.parse(lesson.createdAt));
      }
    });

    it('answers 404 for an unknown id', async () => {
      for (const token of [ada, grace]) {
        expectError(await api.get('/api/v1/lessons?id=les_unknown', { token }), 404, 'Lesson les_unknown not found');
        expectError(await api.get(`/api/v1/lessons?id=${'x'.repeat(200)}`, { token }), 404, /not found/);
      }
    });

    it('hides a draft from a MEMBER (404) and shows it to an ADMIN', async () => {
      const draft = (await walk(ada, 100)).items.find((l) => l.title === 'Draft: Lambda calculus')!;
      expect(draft.status).toBe('DRAFT');
      expectError(await api.get(`/api/v1/lessons?id=${draft.id}`, { token: grace }), 404, `Lesson ${draft.id} not found`);
      const reply = await api.get(`/api/v1/lessons?id=${draft.id}`, { token: ada });
      expect(reply.status).toBe(200);
      expect(expectLesson(reply.body)).toEqual({ ...draft, summary: null, status: 'DRAFT', publishedAt: null });
    });

    it('refuses an empty id with 400', async () => {
      expectError(await api.get('/api/v1/lessons?id=', { token: ada }), 400, /^query\.id: /, 'query.id');
    });
  });

  describe('GET /api/v1/lessons (pages)', () => {
    it('answers 20 lessons by default, newest first, with a cursor to the rest', async () => {
      const reply = await api.get('/api/v1/lessons', { token: ada });
      expect(reply.status).toBe(200);
      const items = (reply.body.items as unknown[]).map(expectLesson);
      expect(items).toHaveLength(20);
      expect(reply.body.nextCursor).toEqual(expect.any(String));
      expectNewestFirst(items);
      // The newest lesson is the last one generated.
      expect(items[0]!.title).toBe('Generated lesson 21');
    });

    it('walks every page without duplicates or gaps, for every page size', async () => {
      const all = (await api.get('/api/v1/lessons?limit=100', { token: ada })).body as { items: Lesson[]; nextCursor: string | null };
      expect(all.nextCursor).toBeNull();
      expect(all.items).toHaveLength(27); // 4 seeded + 1 seeded draft + 22 generated
      expectNewestFirst(all.items);
      for (const limit of [1, 2, 5, 7, 20, 26, 27, 99]) {
        const { pages, items } = await walk(ada, limit);
        expect(items.map((l) => l.id)).toEqual(all.items.map((l) => l.id));
        expect(new Set(items.map((l) => l.id)).size).toBe(items.length);
        expect(pages.length).toBe(Math.ceil(27 / limit));
        pages.slice(0, -1).forEach((page) => expect(page).toHaveLength(limit));
        expect(pages.at(-1)!.length).toBeGreaterThan(0);
        expect(pages.at(-1)!.length).toBeLessThanOrEqual(limit);
      }
      // The default page size walks the same list.
      expect((await walk(ada)).items.map((l) => l.id)).toEqual(all.items.map((l) => l.id));
    });

    it('shows a MEMBER only published lessons, on every page', async () => {
      const admin = (await walk(ada, 100)).items;
      const published = admin.filter((l) => l.status === 'PUBLISHED');
      expect(published).toHaveLength(15); // 4 seeded + 11 generated
      for (const limit of [1, 4, 100]) {
        const { items } = await walk(grace, limit);
        expect(items.every((l) => l.status === 'PUBLISHED')).toBe(true);
        expect(items.map((l) => l.id)).toEqual(published.map((l) => l.id));
      }
    });

    it('refuses a limit out of 1-100 or not an integer with 400 naming limit', async () => {
      for (const limit of ['0', '101', 'abc', '-1', '1.5', '', '1e2', ' 5']) {
        expectError(
          await api.get(`/api/v1/lessons?limit=${encodeURIComponent(limit)}`, { token: ada }),
          400, /^query\.limit: /, 'query.limit',
        );
      }
      for (const limit of ['1', '100']) expect((await api.get(`/api/v1/lessons?limit=${limit}`, { token: ada })).status).toBe(200);
    });

    it('refuses a cursor it did not issue with 400 naming cursor', async () => {
      const forged = [
        'garbage',
        '!!!',
        Buffer.from('{"a":1}').toString('base64url'),
        Buffer.from('["not a date","les_x"]').toString('base64url'),
        Buffer.from('["2024-01-01T00:00:00.000Z",42]').toString('base64url'),
        Buffer.from('null').toString('base64url'),
      ];
      for (const cursor of forged) {
        expectError(
          await api.get(`/api/v1/lessons?cursor=${encodeURIComponent(cursor)}`, { token: ada }),
          400, /^query\.cursor: /, 'query.cursor',
        );
      }
    });

    it('refuses a cursor holding a time no lesson can have (before year 1: it was a 500), on REST and GraphQL', async () => {
      const { id } = (await api.get('/api/v1/lessons?limit=1', { token: ada })).body.items[0] as Lesson;
      const at = (time: string) => Buffer.from(JSON.stringify([time, id])).toString('base64url');
      for (const time of ['0000-01-01T00:00:00.000Z', '0000-12-31T23:59:59.999Z', '-000001-01-01T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '+010000-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z']) {
        expectError(await api.get(`/api/v1/lessons?cursor=${at(time)}`, { token: ada }), 400, 'query.cursor: is not a valid cursor', 'query.cursor');
        const reply = await api.graphql('query ($after: String) { lessons(first: 1, after: $after) { edges { node { id } } } }', { after: at(time) }, { token: ada });
        expect(reply.body, reply.text).toMatchObject({ data: null, errors: [{ message: 'after: is not a valid cursor', extensions: { code: 'BAD_USER_INPUT' } }] });
      }
      // The first and last times a lesson could have are cursors like any other.
      for (const time of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
        expect((await api.get(`/api/v1/lessons?cursor=${at(time)}`, { token: ada })).status, time).toBe(200);
      }
    });
  });

  describe('POST /api/v1/lessons', () => {
    it('lets an ADMIN create a draft (201)', async () => {
      const reply = await api.post('/api/v1/lessons', { title: '  Turing machines  ', summary: 'Tapes.', body: 'A tape, a head.' }, { token: ada });
      expect(reply.status).toBe(201);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      const lesson = expectLesson(reply.body);
      expect(lesson).toEqual({
        id: expect.any(String) as string,
        title: 'Turing machines',
        summary: 'Tapes.',
        body: 'A tape, a head.',
        status: 'DRAFT',
        authorId: adaId,
        createdAt: expect.stringMatching(ISO_MS) as string,
        publishedAt: null,
        updatedAt: expect.stringMatching(ISO_MS) as string,
      });
      expect((await api.get(`/api/v1/lessons?id=${lesson.id}`, { token: ada })).body).toEqual(lesson);
      expectError(await api.get(`/api/v1/lessons?id=${lesson.id}`, { token: grace }), 404);
      // Without a summary, summary is null.
      expect((await create({ title: 'No summary', body: 'x' })).summary).toBeNull();
    });

    it('reads a summary of only spaces as no summary (null), as REST and GraphQL create and update it; it was stored as ""', async () => {
      const spaces = await create({ title: 'Spaces', summary: ' \t\n ', body: 'x' });
      expect(spaces.summary).toBeNull();
      const patched = await api.patch(`/api/v1/lessons?id=${spaces.id}`, { summary: 'Something.' }, { token: ada });
      expect(patched.body).toMatchObject({ summary: 'Something.' });
      const cleared = await api.patch(`/api/v1/lessons?id=${spaces.id}`, { summary: '   ' }, { token: ada });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ summary: null });
      expect((await api.get(`/api/v1/lessons?id=${spaces.id}`, { token: ada })).body).toMatchObject({ summary: null });
      const viaGraphQL = await api.graphql('mutation { createLesson(input: {title: "Spaces too", summary: "  ", body: "x"}) { summary } }', undefined, { token: ada });
      expect(viaGraphQL.body).toEqual({ data: { createLesson: { summary: null } } });
    });

    it('refuses a MEMBER with 403 Forbidden and creates nothing', async () => {
      const before = (await walk(ada, 100)).items.length;
      expectError(await api.post('/api/v1/lessons', { title: 'Mine', body: 'x' }, { token: grace }), 403, 'Forbidden');
      // Refused before the body is looked at: a MEMBER learns nothing about what it should be.
      expectError(await api.post('/api/v1/lessons', { nonsense: true }, { token: grace }), 403, 'Forbidden');
      expectError(await api.post('/api/v1/lessons', '{"broken', { token: grace }), 403, 'Forbidden');
      expect((await walk(ada, 100)).items.length).toBe(before);
    });

    it('refuses an invalid body with 400 naming the field', async () => {
      const cases: [unknown, string, RegExp][] = [
        [{}, 'title', /^title: is required$/],
        [{ body: 'x' }, 'title', /^title: is required$/],
        [{ title: 'x' }, 'body', /^body: is required$/],
        [{ title: '', body: 'x' }, 'title', /^title: must not be empty$/],
        [{ title: '   ', body: 'x' }, 'title', /^title: must not be empty$/],
        [{ title: 'x'.repeat(201), body: 'x' }, 'title', /^title: must be at most 200 characters$/],
        [{ title: 'x', body: '' }, 'body', /^body: must not be empty$/],
        [{ title: 5, body: 'x' }, 'title', /^title: /],
        [{ title: 'x', body: 'x', summary: 5 }, 'summary', /^summary: /],
        [{ title: 'x', body: 'x', summary: 's'.repeat(1001) }, 'summary', /^summary: must be at most 1000 characters$/],
        [{ title: 'x', body: 'x', status: 'PUBLISHED' }, 'status', /^status: unknown field$/],
        [[], 'body', /^body: /],
      ];
      const before = (await walk(ada, 100)).items.length;
      for (const [body, field, message] of cases) {
        expectError(await api.post('/api/v1/lessons', body, { token: ada }), 400, message, field);
      }
      expectError(await api.post('/api/v1/lessons', '{"title":', { token: ada }), 400, /^body: /, 'body');
      expect((await walk(ada, 100)).items.length).toBe(before);
    });
  });

  describe('PATCH /api/v1/lessons?id=X', () => {
    it('lets an ADMIN change title, summary and body (200)', async () => {
      const lesson = await create({ title: 'Before', summary: 'S', body: 'B' });
      const reply = await api.patch(`/api/v1/lessons?id=${lesson.id}`, { title: 'After' }, { token: ada });
      expect(reply.status).toBe(200);
      const updated = expectLesson(reply.body);
      expect(updated).toEqual({ ...lesson, title: 'After', updatedAt: updated.updatedAt });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(lesson.updatedAt));

      const cleared = await api.patch(`/api/v1/lessons?id=${lesson.id}`, { summary: null, body: 'New body' }, { token: ada });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ title: 'After', summary: null, body: 'New body', status: 'DRAFT' });
      expect((await api.get(`/api/v1/lessons?id=${lesson.id}`, { token: ada })).body).toEqual(cleared.body);
    });

    it('answers 404 for an unknown lesson, 400 for an empty or invalid body or a missing id', async () => {
      const lesson = await create({ title: 'Patch me', body: 'B' });
      expectError(await api.patch('/api/v1/lessons?id=les_unknown', { title: 'x' }, { token: ada }), 404, 'Lesson les_unknown not found');
      expectError(await api.patch(`/api/v1/lessons?id=${lesson.id}`, {}, { token: ada }), 400, /^body: /, 'body');
      expectError(await api.patch(`/api/v1/lessons?id=${lesson.id}`, undefined, { token: ada }), 400, /^body: /, 'body');
      expectError(await api.patch(`/api/v1/lessons?id=${lesson.id}`, { title: '' }, { token: ada }), 400, /^title: /, 'title');
      expectError(await api.patch(`/api/v1/lessons?id=${lesson.id}`, { status: 'PUBLISHED' }, { token: ada }), 400, /^status: unknown field$/, 'status');
      expectError(await api.patch('/api/v1/lessons', { title: 'x' }, { token: ada }), 400, /^query\.id: is required$/, 'query.id');
      expect((await api.get(`/api/v1/lessons?id=${lesson.id}`, { token: ada })).body).toEqual(lesson);
    });

    it('refuses a MEMBER with 403 Forbidden', async () => {
      const lesson = (await walk(grace, 1)).items[0]!;
      expectError(await api.patch(`/api/v1/lessons?id=${lesson.id}`, { title: 'Hijacked' }, { token: grace }), 403, 'Forbidden');
      expectError(await api.patch('/api/v1/lessons?id=les_unknown', { title: 'x' }, { token: grace }), 403, 'Forbidden');
      expectError(await api.patch(`/api/v1/lessons?id=${lesson.id}`, {}, { token: grace }), 403, 'Forbidden');
      expectError(await api.patch('/api/v1/lessons', { title: 'x' }, { token: grace }), 403, 'Forbidden');
      expect((await api.get(`/api/v1/lessons?id=${lesson.id}`, { token: grace })).body.title).toBe(lesson.title);
    });
  });

  describe('POST /api/v1/lessons/publish?id=X', () => {
    it('publishes a draft (200), once; publishing again is 409', async () => {
      const draft = await create({ title: 'To publish', body: 'B' });
      const reply = await api.post(`/api/v1/lessons/publish?id=${draft.id}`, undefined, { token: ada });
      expect(reply.status).toBe(200);
      const published = expectLesson(reply.body);
      expect(published).toEqual({ ...draft, status: 'PUBLISHED', publishedAt: published.publishedAt, updatedAt: published.updatedAt });
      expect(published.publishedAt).toMatch(ISO_MS);
      expect(Date.parse(published.publishedAt!)).toBeGreaterThanOrEqual(Date.parse(draft.createdAt));
      // Now a MEMBER sees it.
      expect((await api.get(`/api/v1/lessons?id=${draft.id}`, { token: grace })).body).toEqual(published);

      expectError(await api.post(`/api/v1/lessons/publish?id=${draft.id}`, undefined, { token: ada }), 409, /already published/);
      expect((await api.get(`/api/v1/lessons?id=${draft.id}`, { token: ada })).body).toEqual(published);
    });

    it('publishes once when two publishes race: one 200, one 409', async () => {
      const draft = await create({ title: 'Raced', body: 'B' });
      const replies = await Promise.all([0, 1, 2].map(() => api.post(`/api/v1/lessons/publish?id=${draft.id}`, undefined, { token: ada })));
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      const winner = replies.find((r) => r.status === 200)!;
      expect((await api.get(`/api/v1/lessons?id=${draft.id}`, { token: ada })).body).toEqual(winner.body);
    });

    it('answers 404 for an unknown lesson, 400 without an id, 403 for a MEMBER', async () => {
      expectError(await api.post('/api/v1/lessons/publish?id=les_unknown', undefined, { token: ada }), 404, 'Lesson les_unknown not found');
      expectError(await api.post('/api/v1/lessons/publish', undefined, { token: ada }), 400, /^query\.id: is required$/, 'query.id');
      const draft = await create({ title: 'Not for members', body: 'B' });
      expectError(await api.post(`/api/v1/lessons/publish?id=${draft.id}`, undefined, { token: grace }), 403, 'Forbidden');
      expectError(await api.post('/api/v1/lessons/publish?id=les_unknown', undefined, { token: grace }), 403, 'Forbidden');
      expectError(await api.post('/api/v1/lessons/publish', undefined, { token: grace }), 403, 'Forbidden');
      expect((await api.get(`/api/v1/lessons?id=${draft.id}`, { token: ada })).body.status).toBe('DRAFT');
    });
  });

  it('refuses every lesson route without a valid token with 403 Missing or invalid token', async () => {
    const { items } = await walk(ada, 1);
    const id = items[0]!.id;
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: `Bearer ${ada}x` }] as Record<string, string>[]) {
      const replies = [
        await api.get('/api/v1/lessons', { headers }),
        await api.get(`/api/v1/lessons?id=${id}`, { headers }),
        await api.get('/api/v1/lessons?limit=0', { headers }),
        await api.post('/api/v1/lessons', { title: 'x', body: 'y' }, { headers }),
        await api.post('/api/v1/lessons', { nonsense: true }, { headers }),
        await api.patch(`/api/v1/lessons?id=${id}`, { title: 'x' }, { headers }),
        await api.post(`/api/v1/lessons/publish?id=${id}`, undefined, { headers }),
      ];
      for (const reply of replies) expectError(reply, 403, 'Missing or invalid token');
    }
  });

  if (kind === 'postgres') {
    describe('events and ordering in the database', () => {
      const eventsFor = (lessonId: string) =>
        sql<{ id: string; type: string; payload: Record<string, unknown> }>(
          server, `SELECT id, type, payload FROM "Event" WHERE payload->>'lessonId' = $1 ORDER BY id`, [lessonId],
        );

      it('creating a draft emits nothing; updating emits lesson.updated; publishing (even raced) emits lesson.published once', async () => {
        const [{ count: before }] = (await sql<{ count: string }>(server, 'SELECT count(*) FROM "Event"')) as [{ count: string }];
        const lesson = await create({ title: 'Evented', body: 'B' });
        expect(await eventsFor(lesson.id)).toEqual([]);
        expect((await sql<{ count: string }>(server, 'SELECT count(*) FROM "Event"'))[0]!.count).toBe(before);

        // Refused changes emit nothing.
        expectError(await api.patch(`/api/v1/lessons?id=${lesson.id}`, {}, { token: ada }), 400);
        expectError(await api.patch(`/api/v1/lessons?id=${lesson.id}`, { title: 'x' }, { token: grace }), 403);
        expect(await eventsFor(lesson.id)).toEqual([]);

        // Age the row, so that the update's new updatedAt is visibly later.
        await sql(server, `UPDATE "Lesson" SET "updatedAt" = '2000-01-01T00:00:00Z' WHERE id = $1`, [lesson.id]);
        const patched = await api.patch(`/api/v1/lessons?id=${lesson.id}`, { title: 'Evented 2' }, { token: ada });
        expect(patched.status).toBe(200);
        expect(Date.parse(patched.body.updatedAt as string)).toBeGreaterThan(Date.parse('2000-01-02T00:00:00Z'));
        expect(patched.body.createdAt).toBe(lesson.createdAt);
        const updated = await eventsFor(lesson.id);
        expect(updated).toHaveLength(1);
        expect(updated[0]!.id).toMatch(/^evt_/);
        expect(updated[0]!.type).toBe('lesson.updated');
        expect(updated[0]!.payload).toEqual({ event: 'lesson.updated', timestamp: expect.stringMatching(ISO_MS) as string, lessonId: lesson.id });

        const racers = await Promise.all([0, 1, 2].map(() => api.post(`/api/v1/lessons/publish?id=${lesson.id}`, undefined, { token: ada })));
        expect(racers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
        expect((await api.post(`/api/v1/lessons/publish?id=${lesson.id}`, undefined, { token: ada })).status).toBe(409);
        const all = await eventsFor(lesson.id);
        expect(all.map((e) => e.type)).toEqual(['lesson.updated', 'lesson.published']);
        expect(all[1]!.payload).toEqual({ event: 'lesson.published', timestamp: expect.stringMatching(ISO_MS) as string, lessonId: lesson.id });
      });

      it('pages through lessons that share one createdAt without duplicates or gaps', async () => {
        const tied = [];
        for (let i = 0; i < 5; i++) tied.push(await create({ title: `Tied ${i}`, body: 'B' }));
        await sql(server, `UPDATE "Lesson" SET "createdAt" = '2100-01-01T00:00:00.000Z' WHERE id = ANY($1)`, [tied.map((l) => l.id)]);
        const all = (await api.get('/api/v1/lessons?limit=100', { token: ada })).body as { items: Lesson[] };
        expect(all.items.slice(0, 5).map((l) => l.id)).toEqual(tied.map((l) => l.id).sort().reverse());
        expectNewestFirst(all.items);
        for (const limit of [1, 2, 3]) {
          expect((await walk(ada, limit)).items.map((l) => l.id)).toEqual(all.items.map((l) => l.id));
        }
      });
    });
  }
});
