// Completion exactly once under concurrency, on PostgreSQL (READ COMMITTED, a pool of
// connections): learners completing their last two lessons at the same time, and lesson
// completions, enrolments and leavings racing a change of the course's lessons. The counters
// must equal a count over the rows, and course.completed must be recorded once per learner.
import { expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { sql } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { complete, countedStats, course, enroll, leave, newLearner, publishedLessons, setLessons, stats } from './enrollments-helpers.js';

const it = serverTest({ kind: 'postgres', env: NO_RATE_LIMITS });
const LEARNERS = 50;

async function learners(api: Parameters<typeof newLearner>[0], n: number) {
  const made: { token: string; id: string }[] = [];
  for (let i = 0; i < n; i += 10) made.push(...(await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => newLearner(api)))));
  return made;
}

it(`completes the course exactly once for each of ${LEARNERS} learners completing their last two lessons at once`, async ({ api, ada, server }) => {
  const lessons = await publishedLessons(api, ada, 4);
  const crs = await course(api, ada, lessons);
  const all = await learners(api, LEARNERS);
  await Promise.all(all.map(async (l) => {
    expect((await enroll(api, l.token, crs)).status).toBe(201);
    for (const lesson of lessons.slice(0, 2)) expect((await complete(api, l.token, lesson)).status).toBe(200);
  }));

  const replies = await Promise.all(all.flatMap((l) => lessons.slice(2).map((lesson) => complete(api, l.token, lesson))));
  for (const reply of replies) expect(reply.status, reply.text).toBe(200);

  const completedEvents = await sql<{ owner: string }>(server,
    `SELECT "ownerId" AS owner FROM "Event" WHERE type = 'course.completed' AND payload->>'courseId' = $1`, [crs]);
  expect(completedEvents).toHaveLength(LEARNERS);
  expect(new Set(completedEvents.map((e) => e.owner))).toEqual(new Set(all.map((l) => l.id)));
  const rows = await sql<{ completedAt: Date | null }>(server, `SELECT "completedAt" FROM "Enrollment" WHERE "courseId" = $1`, [crs]);
  expect(rows).toHaveLength(LEARNERS);
  expect(rows.every((r) => r.completedAt !== null)).toBe(true);
  expect(await stats(api, ada, crs)).toEqual({ enrolled: LEARNERS, completed: LEARNERS, completionRate: 1, lessons: lessons.map((lessonId) => ({ lessonId, completed: LEARNERS })) });
  const mine = await api.get('/api/v1/enrollments', { token: all[0]!.token });
  expect(mine.body.items[0].progress).toEqual({ completed: 4, total: 4 });
});

it('keeps the counters equal to the rows when completions, enrolments and leavings race lesson changes', async ({ api, ada, server }) => {
  const lessons = await publishedLessons(api, ada, 6);
  const crs = await course(api, ada, lessons.slice(0, 3));
  const all = await learners(api, 12);
  for (const [i, l] of all.entries()) if (i % 2 === 0) expect((await enroll(api, l.token, crs)).status).toBe(201);

  // Every learner works through all six lessons, enrolling or leaving on the way, while the ADMIN
  // changes the course's lessons (adding, removing, reordering) again and again.
  const lists = [lessons.slice(0, 4), lessons.slice(1, 6), [lessons[5]!, lessons[0]!, lessons[2]!], lessons, lessons.slice(2, 5)];
  const admin = (async () => {
    for (const list of lists) await setLessons(api, ada, crs, list);
  })();
  await Promise.all([admin, ...all.map(async (l, i) => {
    for (const [n, lesson] of lessons.entries()) {
      expect((await complete(api, l.token, lesson)).status).toBe(200);
      if (n === i % 6) expect([201, 200]).toContain((await enroll(api, l.token, crs)).status);
      if (n === (i + 3) % 6 && i % 3 === 0) expect([204, 404]).toContain((await leave(api, l.token, crs)).status);
    }
  })]);

  const counted = await countedStats(server, crs);
  const reported = await stats(api, ada, crs);
  expect({ enrolled: reported.enrolled, completed: reported.completed, lessons: reported.lessons }).toEqual(counted);
  expect(reported.lessons.map((l) => l.lessonId)).toEqual(lists[lists.length - 1]);
  // Everyone enrolled now has completed every lesson, so every current enrollment is complete,
  // and each learner who ever completed the course has exactly one course.completed.
  expect(counted.completed).toBe(counted.enrolled);
  const events = await sql<{ owner: string; n: number }>(server,
    `SELECT "ownerId" AS owner, count(*)::int AS n FROM "Event" WHERE type = 'course.completed' AND payload->>'courseId' = $1 GROUP BY 1`, [crs]);
  const completedRows = await sql<{ userId: string }>(server, `SELECT "userId" FROM "Enrollment" WHERE "courseId" = $1 AND "completedAt" IS NOT NULL`, [crs]);
  expect(events.every((e) => e.n === 1)).toBe(true);
  expect(new Set(events.map((e) => e.owner))).toEqual(new Set(completedRows.map((r) => r.userId)));
});
