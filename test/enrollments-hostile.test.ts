// Hostile input to the enrollment routes and mutations: unknown and draft courses and lessons, ids
// no row can have (NUL, 1 MB), bad cursors, unknown fields. Each is a 4xx in the contract's shape,
// and none changes the stats, the lists or the events.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import { DATABASES } from './support/server.js';
import { expectError } from './support/assert.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { complete, course, enroll, events, eventsOnce, expectEnrollment, leave, newLearner, publishedLessons, stats, walkEnrollments } from './enrollments-helpers.js';

const tests = serverTestOn({ env: NO_RATE_LIMITS });
const MB = 'x'.repeat(1024 * 1024);
/** Long, yet within the 16 KiB a request line may have: it reaches the service, which finds nothing. */
const LONG = 'x'.repeat(8000);
const EVENTS = ['enrollment.created', 'lesson.completed', 'course.completed'];

describe.each(DATABASES)('hostile input to enrollments on %s', (kind) => {
  const it = tests[kind];

  it('refuses unknown and draft courses and lessons, bad ids and cursors, changing nothing', async ({ api, ada }) => {
    const lessons = await publishedLessons(api, ada, 2);
    const crs = await course(api, ada, lessons);
    const draft = await course(api, ada, lessons, { draft: true });
    const draftLesson = (await api.post('/api/v1/lessons', { title: 'Draft', body: 'b' }, { token: ada })).body.id as string;
    const learner = await newLearner(api);
    expect((await enroll(api, learner.token, crs)).status).toBe(201);
    expect((await complete(api, learner.token, lessons[0]!)).status).toBe(200);

    const snapshot = async () => ({
      stats: await stats(api, ada, crs),
      draftStats: await stats(api, ada, draft),
      mine: await walkEnrollments(api, learner.token, '/api/v1/enrollments'),
      events: (await events(api, ada, EVENTS)).length,
    });
    // The relay lists events shortly after they commit: the snapshot waits for the two made above.
    await eventsOnce(api, ada, EVENTS, (list) => list.filter((e) => e.userId === learner.id).length === 2);
    const before = await snapshot();

    const unknownCourse = 'crs_01m8kv1j22x4hkkh4w1p8nag99';
    for (const id of [unknownCourse, draft, 'nul%00id', LONG]) {
      const path = `/api/v1/courses/${id}`;
      expectError(await api.request('PUT', `${path}/enrollment`, { token: learner.token }), 404);
      expectError(await api.delete(`${path}/enrollment`, { token: learner.token }), 404);
      if (id !== draft) {
        expectError(await api.get(`${path}/stats`, { token: ada }), 404);
        expectError(await api.get(`${path}/enrollments`, { token: ada }), 404);
      }
    }
    // An ADMIN is told a draft is a draft; a MEMBER that it does not exist.
    expectError(await enroll(api, ada, draft), 400, /draft/, 'id');
    expectError(await complete(api, learner.token, draftLesson), 404);
    expectError(await complete(api, ada, draftLesson), 400, /draft/, 'id');
    for (const id of ['les_01m8kv1j22x4hkkh4w1p8nag99', LONG]) expectError(await complete(api, learner.token, id), 404);
    expectError(await complete(api, learner.token, 'nul\u0000id'), 400, 'query.id: must not contain NUL characters', 'query.id');
    // A 1 MB id does not fit in a request line: refused before any route.
    expectError(await api.request('PUT', `/api/v1/courses/${MB}/enrollment`, { token: learner.token }), 431);
    expectError(await complete(api, learner.token, MB), 431);
    // Nor in a GraphQL request, which is larger than a request may be.
    const huge = await api.graphql('mutation($id: ID!) { enroll(courseId: $id) { userId } }', { id: MB }, { token: learner.token });
    expect(huge.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const long = await api.graphql('mutation($id: ID!) { enroll(courseId: $id) { userId } }', { id: LONG }, { token: learner.token });
    expect(long.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expectError(await api.post('/api/v1/lessons/complete', undefined, { token: learner.token }), 400, undefined, 'query.id');

    for (const cursor of ['nope', 'W10', Buffer.from('["2026-01-01T00:00:00.000Z","x\\u0000"]').toString('base64url'), MB.slice(0, 10_000)]) {
      expectError(await api.get(`/api/v1/enrollments?cursor=${cursor}`, { token: learner.token }), 400, undefined, 'query.cursor');
      expectError(await api.get(`/api/v1/courses/${crs}/enrollments?cursor=${cursor}`, { token: ada }), 400, undefined, 'query.cursor');
    }
    for (const limit of ['0', '101', '-1', 'x']) expectError(await api.get(`/api/v1/enrollments?limit=${limit}`, { token: learner.token }), 400, undefined, 'query.limit');

    // Unauthenticated and MEMBER calls of ADMIN routes.
    expectError(await api.request('PUT', `/api/v1/courses/${crs}/enrollment`), 403);
    expectError(await api.get(`/api/v1/courses/${crs}/stats`, { token: learner.token }), 403);
    expectError(await api.get(`/api/v1/courses/${crs}/enrollments`, { token: learner.token }), 403);

    // GraphQL: unknown arguments and fields are validation errors; the same refusals as REST.
    const gql = (query: string, token: string) => api.graphql(query, undefined, { token });
    for (const query of [`mutation { enroll(courseId: "${crs}", extra: 1) { userId } }`, `mutation { completeLesson(lessonId: "${lessons[1]}") { userId bogus } }`]) {
      const invalid = await gql(query, learner.token);
      expect(invalid.body.data ?? null).toBeNull();
      expect(invalid.body.errors[0].extensions.code, invalid.text).toBe('GRAPHQL_VALIDATION_FAILED');
    }
    const draftEnroll = await gql(`mutation { enroll(courseId: "${draft}") { userId } }`, learner.token);
    expect(draftEnroll.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const statsAsMember = await gql(`{ courseStats(id: "${crs}") { enrolled } }`, learner.token);
    expect(statsAsMember.body.errors[0].extensions.code).toBe('FORBIDDEN');

    expect(await snapshot()).toEqual(before);
    expect(before.mine.map(expectEnrollment)).toHaveLength(1);
    expect(before.stats).toMatchObject({ enrolled: 1, completed: 0 });
    expect((await leave(api, learner.token, crs)).status).toBe(204);
  });
});
