// The course routes over real HTTP, on both databases: create, get, keyset pages with drafts
// hidden from MEMBERs, edit, set the lessons and their order, publish, and the events each change
// does (and does not) emit; ETag / If-Match and Idempotency-Key through the router.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { expectError } from './support/assert.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { coursesApi, expectCourse, type Course, type Lesson } from './courses-helpers.js';

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('course routes on %s', (kind) => {
  const it = tests[kind];
  let server: TestServer;
  let api: Client;
  let courses: ReturnType<typeof coursesApi>;
  let ada: string;
  let grace: string;
  let adaId: string;
  let published: Lesson[];
  let draftLesson: Lesson;

  /** Every page of the list for `token`, walked with nextCursor. */
  async function walk(token: string, limit?: number): Promise<{ pages: Course[][]; items: Course[] }> {
    const pages: Course[][] = [];
    let cursor: string | null = null;
    do {
      const qs = new URLSearchParams();
      if (limit !== undefined) qs.set('limit', String(limit));
      if (cursor) qs.set('cursor', cursor);
      const reply = await api.get(`/api/v1/courses?${qs.toString()}`, { token });
      expect(reply.status, reply.text).toBe(200);
      expect(Object.keys(reply.body as object).sort()).toEqual(['items', 'nextCursor']);
      pages.push((reply.body.items as unknown[]).map(expectCourse));
      cursor = reply.body.nextCursor as string | null;
      expect(pages.length).toBeLessThan(100);
    } while (cursor !== null);
    return { pages, items: pages.flat() };
  }

  it.beforeAll(async ({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
    [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
    courses = coursesApi(api, () => ada);
    adaId = (await api.get('/api/v1/user/me', { token: ada })).body.id as string;
    published = [];
    for (let i = 0; i < 3; i++) published.push(await courses.lesson(ada, { title: `Course lesson ${i}`, publish: true }));
    draftLesson = await courses.lesson(ada, { title: 'Course draft lesson', publish: false });
  });

  it('creates a draft without lessons (201, exact shape), with its stats row, and emits nothing', async () => {
    const before = await courses.courseEvents(ada);
    const reply = await api.post('/api/v1/courses', { title: '  Analytical engines  ', summary: 'From cards to programs.' }, { token: ada });
    expect(reply.status).toBe(201);
    const course = expectCourse(reply.body);
    expect(course).toMatchObject({ title: 'Analytical engines', summary: 'From cards to programs.', status: 'DRAFT', authorId: adaId, lessonIds: [], publishedAt: null });
    expect(course.updatedAt).toBe(course.createdAt);
    // A summary of spaces, or none, is null.
    expect((await courses.create(ada, { title: 'No summary', summary: '   ' })).summary).toBeNull();
    expect((await courses.create(ada, { title: 'No summary either' })).summary).toBeNull();
    expect(await courses.courseEvents(ada)).toEqual(before);
    if (kind === 'postgres') {
      expect(await sql(server, 'SELECT enrolled, completed FROM "CourseStats" WHERE "courseId" = $1', [course.id])).toEqual([{ enrolled: 0, completed: 0 }]);
    }
    // Readable by its id, to an ADMIN, with a strong ETag.
    const got = await courses.get(ada, course.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(course);
    expect(got.headers.get('etag')).toMatch(/^"[^"]+"$/);
  });

  it('sets the lessons in the order given, replaces them, and publishes; a MEMBER sees it only once published', async () => {
    const draft = await courses.create(ada, { title: 'Ordering' });
    expectError(await courses.get(grace, draft.id), 404, `Course ${draft.id} not found`);
    // A draft course may hold draft lessons (an ADMIN composes it before publishing them).
    const order = [published[2]!.id, draftLesson.id, published[0]!.id];
    const set = await courses.setLessons(ada, draft.id, order);
    expect(set.lessonIds).toEqual(order);
    expect(Date.parse(set.updatedAt)).toBeGreaterThanOrEqual(Date.parse(draft.updatedAt));
    expect((await courses.get(ada, draft.id)).body.lessonIds).toEqual(order);
    // Publishing needs every lesson published.
    expectError(await api.post(`/api/v1/courses/${draft.id}/publish`, undefined, { token: ada }), 400, `Course ${draft.id} holds draft lesson ${draftLesson.id}: publish it first`);
    // Replaced: another list, another order.
    const replaced = await courses.setLessons(ada, draft.id, [published[1]!.id, published[2]!.id]);
    expect(replaced.lessonIds).toEqual([published[1]!.id, published[2]!.id]);
    expect((await courses.get(ada, draft.id)).body.lessonIds).toEqual([published[1]!.id, published[2]!.id]);
    expectError(await courses.get(grace, draft.id), 404);

    const done = await courses.publish(ada, draft.id);
    expect(done).toMatchObject({ id: draft.id, status: 'PUBLISHED', lessonIds: [published[1]!.id, published[2]!.id] });
    expect(done.publishedAt).toBe(done.updatedAt);
    expect(Date.parse(done.updatedAt)).toBeGreaterThanOrEqual(Date.parse(replaced.updatedAt));
    const seen = await courses.get(grace, draft.id);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual(done);
    // Publishing twice: 409, and the course stays as it was.
    expectError(await api.post(`/api/v1/courses/${draft.id}/publish`, undefined, { token: ada }), 409, `Course ${draft.id} is already published`);
    expect((await courses.get(ada, draft.id)).body).toEqual(done);
  });

  it('emits course.published and course.updated for a published course only, seen by a MEMBER', async () => {
    const course = await courses.create(ada, { title: 'Events' });
    const start = (await courses.courseEvents(ada)).length;
    // Changes of a draft are nobody's news.
    expect((await api.patch(`/api/v1/courses/${course.id}`, { title: 'Events (draft)' }, { token: ada })).status).toBe(200);
    await courses.setLessons(ada, course.id, [published[0]!.id]);
    expect((await courses.courseEvents(ada)).slice(start)).toEqual([]);

    await courses.publish(ada, course.id);
    const patched = await api.patch(`/api/v1/courses/${course.id}`, { summary: 'Now public' }, { token: ada });
    expect(patched.status).toBe(200);
    expect(expectCourse(patched.body)).toMatchObject({ title: 'Events (draft)', summary: 'Now public', status: 'PUBLISHED' });
    await courses.setLessons(ada, course.id, [published[0]!.id, published[1]!.id]);
    const mine = (events: { event: string; courseId: string }[]) => events.filter((e) => e.courseId === course.id).map((e) => e.event);
    const expected = ['course.published', 'course.updated', 'course.updated'];
    expect(mine(await courses.courseEvents(ada))).toEqual(expected);
    expect(mine(await courses.courseEvents(grace))).toEqual(expected);
    // A MEMBER never sees an event about a draft course.
    const graceSees = new Set((await courses.courseEvents(grace)).map((e) => e.courseId));
    const drafts = (await walk(ada, 100)).items.filter((c) => c.status === 'DRAFT').map((c) => c.id);
    expect(drafts.length).toBeGreaterThan(0);
    for (const id of drafts) expect(graceSees.has(id)).toBe(false);
  });

  it('lists newest first in keyset pages; drafts only for an ADMIN, on every page', async () => {
    const baseline = (await walk(ada, 100)).items;
    const made: Course[] = [];
    for (let i = 0; i < 7; i++) {
      const course = await courses.create(ada, { title: `Listed ${i}` });
      if (i % 2 === 0) {
        await courses.setLessons(ada, course.id, [published[i % 3]!.id]);
        made.push(await courses.publish(ada, course.id));
      } else made.push(course);
    }
    const all = (await walk(ada, 100)).items;
    expect(all.map((c) => c.id)).toEqual([...made.map((c) => c.id).reverse(), ...baseline.map((c) => c.id)]);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.createdAt >= all[i]!.createdAt).toBe(true);
    // The list's items are the course as its GET shows it.
    expect(all[0]).toEqual((await courses.get(ada, all[0]!.id)).body);
    for (const limit of [1, 2, 3, 5, all.length]) {
      const { pages, items } = await walk(ada, limit);
      expect(items.map((c) => c.id)).toEqual(all.map((c) => c.id));
      expect(pages.length).toBe(Math.ceil(all.length / limit));
    }
    const visible = all.filter((c) => c.status === 'PUBLISHED').map((c) => c.id);
    for (const limit of [1, 3, 100]) expect((await walk(grace, limit)).items.map((c) => c.id)).toEqual(visible);
    // The default page is 20.
    const first = await api.get('/api/v1/courses', { token: ada });
    expect((first.body.items as unknown[]).length).toBe(Math.min(20, all.length));
  });

  it('refuses a limit out of range or a cursor it did not issue with 400', async () => {
    for (const limit of ['0', '101', 'abc', '-1', '1.5', '']) {
      expectError(await api.get(`/api/v1/courses?limit=${limit}`, { token: ada }), 400, /^query\.limit: /, 'query.limit');
    }
    for (const cursor of ['garbage', Buffer.from('["2024-01-01T00:00:00.000Z",42]').toString('base64url'), Buffer.from('["position",1]').toString('base64url')]) {
      expectError(await api.get(`/api/v1/courses?cursor=${cursor}`, { token: grace }), 400, 'query.cursor: is not a valid cursor', 'query.cursor');
    }
  });

  it('honours If-Match on PATCH, PUT lessons and publish: a stale tag is 412, changes nothing and emits nothing', async () => {
    const course = await courses.create(ada, { title: 'Conditional' });
    await courses.setLessons(ada, course.id, [published[0]!.id]);
    const read = await courses.get(ada, course.id);
    const etag = read.headers.get('etag')!;
    // If-None-Match with the current tag: 304.
    expect((await api.get(`/api/v1/courses/${course.id}`, { token: ada, headers: { 'if-none-match': etag } })).status).toBe(304);
    const patched = await api.patch(`/api/v1/courses/${course.id}`, { title: 'Conditional, edited' }, { token: ada, headers: { 'if-match': etag } });
    expect(patched.status).toBe(200);
    const fresh = patched.headers.get('etag')!;
    expect(fresh).not.toBe(etag);
    expect(fresh).toBe((await courses.get(ada, course.id)).headers.get('etag'));

    const events = await courses.courseEvents(ada);
    const current = (await courses.get(ada, course.id)).body as Course;
    const stale = { 'if-match': etag };
    expectError(await api.patch(`/api/v1/courses/${course.id}`, { title: 'Lost' }, { token: ada, headers: stale }), 412, 'Precondition failed');
    expectError(await courses.put(`/api/v1/courses/${course.id}/lessons`, { lessonIds: [published[1]!.id] }, ada, stale), 412, 'Precondition failed');
    expectError(await api.post(`/api/v1/courses/${course.id}/publish`, undefined, { token: ada, headers: stale }), 412, 'Precondition failed');
    expect((await courses.get(ada, course.id)).body).toEqual(current);
    expect(await courses.courseEvents(ada)).toEqual(events);

    // The current tag lets each through, in turn.
    const put = await courses.put(`/api/v1/courses/${course.id}/lessons`, { lessonIds: [published[1]!.id, published[0]!.id] }, ada, { 'if-match': fresh });
    expect(put.status).toBe(200);
    const publish = await api.post(`/api/v1/courses/${course.id}/publish`, undefined, { token: ada, headers: { 'if-match': put.headers.get('etag')! } });
    expect(publish.status).toBe(200);
    expect(publish.body).toMatchObject({ status: 'PUBLISHED', lessonIds: [published[1]!.id, published[0]!.id] });
  });

  it('replays POST /api/v1/courses with the same Idempotency-Key: one course, the same answer', async () => {
    const headers = { 'idempotency-key': `create-course-${kind}` };
    const first = await api.post('/api/v1/courses', { title: 'Once only' }, { token: ada, headers });
    expect(first.status).toBe(201);
    const again = await api.post('/api/v1/courses', { title: 'Once only' }, { token: ada, headers });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await walk(ada, 100)).items.filter((c) => c.title === 'Once only')).toHaveLength(1);
    // The same key with another body: 422, and still one course.
    expectError(await api.post('/api/v1/courses', { title: 'Twice?' }, { token: ada, headers }), 422);
    expect((await walk(ada, 100)).items.filter((c) => c.title === 'Twice?' || c.title === 'Once only')).toHaveLength(1);
  });
});
