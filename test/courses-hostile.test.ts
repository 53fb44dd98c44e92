// Hostile input to the course routes, on both databases: who may not, what does not exist, and
// every malformed body, each a 4xx in the contract's error shape that changes nothing and emits
// nothing.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { expectError } from './support/assert.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { coursesApi, type Course, type Lesson } from './courses-helpers.js';

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('hostile input to the course routes on %s', (kind) => {
  const it = tests[kind];
  let server: TestServer;
  let api: Client;
  let courses: ReturnType<typeof coursesApi>;
  let ada: string;
  let grace: string;
  let lessons: Lesson[];
  let draftLesson: Lesson;
  let draft: Course;
  let live: Course;

  /** Runs `attempts`, each expected to be refused; afterwards both courses and the events are as before. */
  async function changesNothing(attempts: () => Promise<void>): Promise<void> {
    const before = await Promise.all([draft, live].map(async (c) => (await courses.get(ada, c.id)).body as Course));
    const events = await courses.courseEvents(ada);
    const list = (await api.get('/api/v1/courses?limit=100', { token: ada })).body;
    await attempts();
    expect(await Promise.all([draft, live].map(async (c) => (await courses.get(ada, c.id)).body as Course))).toEqual(before);
    expect(await courses.courseEvents(ada)).toEqual(events);
    expect((await api.get('/api/v1/courses?limit=100', { token: ada })).body).toEqual(list);
  }

  const put = (id: string, body: unknown, token = ada): Promise<Reply> => courses.put(`/api/v1/courses/${id}/lessons`, body, token);

  it.beforeAll(async ({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
    [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
    courses = coursesApi(api, () => ada);
    lessons = [];
    for (let i = 0; i < 3; i++) lessons.push(await courses.lesson(ada, { title: `Hostile lesson ${i}`, publish: true }));
    draftLesson = await courses.lesson(ada, { title: 'Hostile draft lesson', publish: false });
    draft = await courses.create(ada, { title: 'A draft course' });
    await courses.setLessons(ada, draft.id, [lessons[0]!.id, draftLesson.id]);
    live = await courses.create(ada, { title: 'A published course' });
    await courses.setLessons(ada, live.id, [lessons[1]!.id, lessons[0]!.id]);
    live = await courses.publish(ada, live.id);
  });

  it('refuses a MEMBER every change with 403 Forbidden, before looking at the input', async () => {
    await changesNothing(async () => {
      expectError(await api.post('/api/v1/courses', { title: 'Mine' }, { token: grace }), 403, 'Forbidden');
      expectError(await api.post('/api/v1/courses', { nonsense: true }, { token: grace }), 403, 'Forbidden');
      for (const c of [draft, live]) {
        expectError(await api.patch(`/api/v1/courses/${c.id}`, { title: 'Mine' }, { token: grace }), 403, 'Forbidden');
        expectError(await put(c.id, { lessonIds: [lessons[2]!.id] }, grace), 403, 'Forbidden');
        expectError(await api.post(`/api/v1/courses/${c.id}/publish`, undefined, { token: grace }), 403, 'Forbidden');
      }
    });
  });

  it('refuses a missing or bad token with 403 on every route', async () => {
    await changesNothing(async () => {
      for (const token of [undefined, 'not-a-token']) {
        const o = token ? { token } : {};
        expectError(await api.get('/api/v1/courses', o), 403, 'Missing or invalid token');
        expectError(await api.get(`/api/v1/courses/${live.id}`, o), 403, 'Missing or invalid token');
        expectError(await api.post('/api/v1/courses', { title: 'x' }, o), 403, 'Missing or invalid token');
        expectError(await api.post(`/api/v1/courses/${draft.id}/publish`, undefined, o), 403, 'Missing or invalid token');
      }
    });
  });

  it('answers 404 naming the course for an unknown one, and for a draft to a MEMBER', async () => {
    await changesNothing(async () => {
      const unknown = 'crs_00000000000000000000000000';
      for (const token of [ada, grace]) expectError(await courses.get(token, unknown), 404, `Course ${unknown} not found`);
      expectError(await courses.get(grace, draft.id), 404, `Course ${draft.id} not found`);
      expectError(await api.patch(`/api/v1/courses/${unknown}`, { title: 'x' }, { token: ada }), 404, `Course ${unknown} not found`);
      expectError(await put(unknown, { lessonIds: [lessons[0]!.id] }), 404, `Course ${unknown} not found`);
      expectError(await api.post(`/api/v1/courses/${unknown}/publish`, undefined, { token: ada }), 404, `Course ${unknown} not found`);
      // Ids no row can have are neither looked up nor echoed back.
      for (const id of ['x'.repeat(300), '%00', 'crs%01x']) {
        expectError(await api.get(`/api/v1/courses/${id}`, { token: ada }), 404, 'Course not found');
        expectError(await api.post(`/api/v1/courses/${id}/publish`, undefined, { token: ada }), 404, 'Course not found');
      }
    });
  });

  it('refuses malformed create and update bodies with 400 naming the field', async () => {
    await changesNothing(async () => {
      const creates: [unknown, string, RegExp][] = [
        [{}, 'title', /^title: is required$/],
        [{ title: '' }, 'title', /^title: must not be empty$/],
        [{ title: '   ' }, 'title', /^title: must not be empty$/],
        [{ title: 'x'.repeat(201) }, 'title', /^title: must be at most 200 characters$/],
        [{ title: 42 }, 'title', /^title: must be a string$/],
        [{ title: 'x', summary: 'y'.repeat(1001) }, 'summary', /^summary: must be at most 1000 characters$/],
        [{ title: 'x', status: 'PUBLISHED' }, 'status', /^status: unknown field$/],
        [{ title: 'x', lessonIds: [lessons[0]!.id] }, 'lessonIds', /^lessonIds: unknown field$/],
        [{ title: 'bad\u0000byte' }, 'title', /^title: must not contain NUL characters$/],
        [[], 'body', /^body: /],
      ];
      for (const [body, field, message] of creates) expectError(await api.post('/api/v1/courses', body, { token: ada }), 400, message, field);
      expectError(await api.post('/api/v1/courses', '{"title":', { token: ada }), 400, /^body: /, 'body');
      for (const c of [draft, live]) {
        expectError(await api.patch(`/api/v1/courses/${c.id}`, {}, { token: ada }), 400, /^body: give at least one of title, summary$/, 'body');
        expectError(await api.patch(`/api/v1/courses/${c.id}`, { title: '' }, { token: ada }), 400, /^title: /, 'title');
        expectError(await api.patch(`/api/v1/courses/${c.id}`, { status: 'DRAFT' }, { token: ada }), 400, /^status: unknown field$/, 'status');
        expectError(await api.patch(`/api/v1/courses/${c.id}`, { authorId: 'usr_x' }, { token: ada }), 400, /^authorId: unknown field$/, 'authorId');
      }
    });
  });

  it('refuses bad lesson lists with 400 naming the list or the lesson', async () => {
    const [a, b, c] = lessons.map((l) => l.id) as [string, string, string];
    const tooMany = Array.from({ length: 501 }, (_, i) => `les_${String(i).padStart(26, '0')}`);
    await changesNothing(async () => {
      for (const course of [draft, live]) {
        const cases: [unknown, string, string][] = [
          [{}, 'lessonIds', 'lessonIds: is required'],
          [{ lessonIds: [] }, 'lessonIds', 'lessonIds: must list at least one lesson'],
          [{ lessonIds: tooMany }, 'lessonIds', 'lessonIds: must list at most 500 lessons'],
          [{ lessonIds: a }, 'lessonIds', 'lessonIds: must be an array'],
          [{ lessonIds: [a, 7] }, 'lessonIds.1', 'lessonIds.1: must be a string'],
          [{ lessonIds: [a, ''] }, 'lessonIds.1', 'lessonIds.1: must not be empty'],
          [{ lessonIds: [a, b, a] }, 'lessonIds.2', `lessonIds.2: lesson ${a} is listed twice (also at 0)`],
          [{ lessonIds: [c, b, b, c] }, 'lessonIds.2', `lessonIds.2: lesson ${b} is listed twice (also at 1)`],
          [{ lessonIds: [a, 'les_nope', b] }, 'lessonIds.1', 'lessonIds.1: Lesson les_nope not found'],
          [{ lessonIds: [a], title: 'x' }, 'title', 'title: unknown field'],
        ];
        for (const [body, field, message] of cases) expectError(await put(course.id, body), 400, message, field);
      }
      // A published course holds only published lessons: the draft is named.
      expectError(await put(live.id, { lessonIds: [a, draftLesson.id] }), 400, `lessonIds.1: lesson ${draftLesson.id} is a draft; a published course holds only published lessons`, 'lessonIds.1');
    });
  });

  it('refuses to publish a course without lessons or with a draft lesson (400), and twice (409)', async () => {
    const empty = await courses.create(ada, { title: 'Nothing in it' });
    await changesNothing(async () => {
      expectError(await api.post(`/api/v1/courses/${empty.id}/publish`, undefined, { token: ada }), 400, `Course ${empty.id} has no lessons: give it at least one before publishing`);
      expectError(await api.post(`/api/v1/courses/${draft.id}/publish`, undefined, { token: ada }), 400, `Course ${draft.id} holds draft lesson ${draftLesson.id}: publish it first`);
      expectError(await api.post(`/api/v1/courses/${live.id}/publish`, undefined, { token: ada }), 409, `Course ${live.id} is already published`);
    });
    expect((await courses.get(ada, empty.id)).body).toMatchObject({ status: 'DRAFT', lessonIds: [] });
    expectError(await courses.get(grace, empty.id), 404);
  });

  it('takes 500 distinct lessons, the most a course may hold, in order', async () => {
    let ids: string[];
    if (kind === 'postgres') {
      // Straight into the database: 500 lessons through the API would be most of this file's time.
      ids = Array.from({ length: 500 }, (_, i) => `les_${String(i).padStart(26, '0')}`);
      await sql(server, `INSERT INTO "Lesson" (id, title, body, status, "authorId", "createdAt", "publishedAt", "updatedAt")
        SELECT id, 'Bulk ' || id, 'b', 'PUBLISHED', $2, now(), now(), now() FROM unnest($1::text[]) AS t(id)`, [ids, live.authorId]);
      ids.reverse();
    } else {
      ids = [...lessons.map((l) => l.id)].reverse();
    }
    const course = await courses.create(ada, { title: 'Big' });
    const set = await courses.setLessons(ada, course.id, ids);
    expect(set.lessonIds).toEqual(ids);
    expect((await courses.get(grace, course.id)).status).toBe(404);
    expect((await courses.publish(ada, course.id)).lessonIds).toEqual(ids);
    expect((await courses.get(grace, course.id)).body.lessonIds).toEqual(ids);
  });
});
