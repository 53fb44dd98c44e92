// Course reads are never stale across instances (CONTRACT.md, Courses and the response cache): two
// instances sharing PostgreSQL and Redis; what is read on A after a change committed through B
// shows the change at once, however the read was answered before (from the cache or not), and an
// entity tag taken before the change no longer matches.
import { expect } from 'vitest';
import { graphqlGetUrl } from './support/courses.js';
import { instancesTest } from './support/fixtures.js';
import { client, type Client, type Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { complete, course, enroll, newLearner, publishedLessons } from './enrollments-helpers.js';

const it = instancesTest({ env: { ...NO_RATE_LIMITS, REDIS_URL: TEST_REDIS_URL } });

const PROGRESS = 'query ($id: ID!) { course(id: $id) { id viewerEnrollment { progress { completed total } completedAt } } }';
const STATS = 'query ($id: ID!) { courseStats(id: $id) { enrolled completed completionRate lessons { lessonId completed } } }';
const TITLE = 'query ($id: ID!) { course(id: $id) { id title } }';

/**
 * A read on `api` twice (so that an answer the cache may keep is kept and served), then with the
 * first answer's entity tag, if it had one: a 304 then (the tag still matches) or the same answer.
 * Returns the body and the tag a client would hold on to.
 */
async function readTwice(api: Client, path: string, token: string): Promise<{ body: Reply['body']; etag: string | null }> {
  const first = await api.get(path, { token });
  expect(first.status, first.text).toBe(200);
  const again = await api.get(path, { token, headers: first.headers.get('etag') ? { 'if-none-match': first.headers.get('etag')! } : {} });
  expect([200, 304]).toContain(again.status);
  if (again.status === 200) expect(again.body).toEqual(first.body);
  return { body: first.body, etag: first.headers.get('etag') };
}

/** A read on `api` after a change, sent with the tag held from before it: must be a 200 (the tag no longer matches). */
async function readAfter(api: Client, path: string, token: string, etag: string | null): Promise<Reply['body']> {
  const reply = await api.get(path, { token, headers: etag ? { 'if-none-match': etag } : {} });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.errors, reply.text).toBeUndefined();
  return reply.body;
}

it("a learner's progress and the course's stats read on A show a lesson completed through B at once", async ({ a, b }) => {
  const [onA, onB] = [client(a.url), client(b.url)];
  const ada = (await onA.loginAs('ada')).token;
  const lessons = await publishedLessons(onA, ada, 3);
  const courseId = await course(onA, ada, lessons);
  const learner = await newLearner(onA);
  expect((await enroll(onA, learner.token, courseId)).status).toBe(201);

  const reads = {
    progress: { path: graphqlGetUrl(PROGRESS, { id: courseId }), token: learner.token },
    stats: { path: graphqlGetUrl(STATS, { id: courseId }), token: ada },
    restStats: { path: `/api/v1/courses/${courseId}/stats`, token: ada },
  };
  for (const [n, lesson] of lessons.entries()) {
    const held = Object.fromEntries(await Promise.all(Object.entries(reads).map(async ([name, r]) => [name, await readTwice(onA, r.path, r.token)] as const)));
    expect(held.progress!.body.data.course.viewerEnrollment.progress).toEqual({ completed: n, total: 3 });
    expect(held.restStats!.body.lessons.map((l: { completed: number }) => l.completed)).toEqual(lessons.map((_, i) => (i < n ? 1 : 0)));

    expect((await complete(onB, learner.token, lesson)).status).toBe(200);

    const last = n === lessons.length - 1;
    const progress = (await readAfter(onA, reads.progress.path, reads.progress.token, held.progress!.etag)).data.course.viewerEnrollment;
    expect(progress.progress).toEqual({ completed: n + 1, total: 3 });
    expect(progress.completedAt === null).toBe(!last);
    const expected = {
      enrolled: 1, completed: last ? 1 : 0, completionRate: last ? 1 : 0,
      lessons: lessons.map((lessonId, i) => ({ lessonId, completed: i <= n ? 1 : 0 })),
    };
    expect((await readAfter(onA, reads.stats.path, reads.stats.token, held.stats!.etag)).data.courseStats).toEqual(expected);
    expect(await readAfter(onA, reads.restStats.path, reads.restStats.token, held.restStats!.etag)).toEqual(expected);
  }
});

it('a course renamed through B (course.updated) reads with its new title on A at once, even with reads racing the rename', async ({ a, b }) => {
  const [onA, onB] = [client(a.url), client(b.url)];
  const ada = (await onA.loginAs('ada')).token;
  const courseId = await course(onA, ada, await publishedLessons(onA, ada, 1));
  const reader = await newLearner(onA);
  const paths = [graphqlGetUrl(TITLE, { id: courseId }), `/api/v1/courses/${courseId}`];
  const titleOf = (body: Reply['body']) => (body.data ? body.data.course.title : body.title) as string;

  for (let round = 0; round < 10; round++) {
    const held = await Promise.all(paths.map((path) => readTwice(onA, path, reader.token)));
    // Reads on A begun before the rename commits must not leave the old title behind.
    const racing = paths.map((path) => onA.get(path, { token: reader.token }));
    const title = `Renamed ${round} ${Date.now()}`;
    const renamed = await onB.patch(`/api/v1/courses/${courseId}`, { title }, { token: ada });
    expect(renamed.status, renamed.text).toBe(200);
    await Promise.all(racing);
    for (const [i, path] of paths.entries()) {
      expect(titleOf(await readAfter(onA, path, reader.token, held[i]!.etag)), `round ${round}: ${path}`).toBe(title);
    }
  }
});
