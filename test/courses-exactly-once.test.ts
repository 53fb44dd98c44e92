// course.completed exactly once at scale (CONTRACT.md, Courses): two server processes on one
// PostgreSQL database and one Redis, 1,000 learners who each complete the last two lessons of a
// five-lesson course at the same time, one lesson on each instance. Every learner's completion is
// recorded once (the event list, the enrollments, the stats) and reaches every consumer: a webhook
// endpoint and a subscriber on each instance (at least once: duplicates are counted, none lost).
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, expect, it } from 'vitest';
import { bounded, insertLearners } from './support/courses.js';
import { queryDb } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { processPool, TEST_REDIS_URL, type Instance } from './support/process.js';
import type { Reply } from './support/http.js';
import { startReceiver } from './support/receiver.js';
import { eventsSink, type Received } from './support/subscription-sink.js';
import { waitFor } from './support/wait.js';
import { course, events, publishedLessons, stats, walkEnrollments, type Ev } from './enrollments-helpers.js';

const LEARNERS = 1_000;
/** Requests in flight at once, over both instances. */
const IN_FLIGHT = 64;
const COURSE_EVENTS = ['course.published', 'course.updated', 'enrollment.created', 'lesson.completed', 'course.completed'];
/** What the subscribers listen to: completions, and renames of the course to tell when they are live. */
const SUBSCRIPTION = 'subscription { events(types: ["course.completed", "course.updated"]) { id event courseId userId } }';

const pool = processPool();
const closers: (() => void)[] = [];
afterAll(async () => {
  for (const close of closers) close();
  await pool.cleanup();
}, 60_000);

function subscribe(instance: Instance, transport: 'sse' | 'ws', token: string): Received<Ev> {
  const into: Received<Ev> = { events: [], errors: [], ended: false };
  if (transport === 'sse') {
    const c = createSseClient({ url: `${instance.url}/graphql`, singleConnection: false, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const stop = c.subscribe({ query: SUBSCRIPTION }, eventsSink(into));
    closers.push(() => {
      stop();
      c.dispose();
    });
  } else {
    const c = createWsClient({ url: `${instance.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const stop = c.subscribe({ query: SUBSCRIPTION }, eventsSink(into));
    closers.push(() => {
      stop();
      void c.dispose();
    });
  }
  return into;
}

/**
 * Sends a request again after a 503 or a GraphQL UNAVAILABLE (what the service answers when a
 * request waited too long for a database connection: come back later), as a client following
 * Retry-After does, counting the retries. Enrolling and completing are idempotent, so a retry changes nothing that was done.
 */
let retries = 0;
async function retrying503(send: () => Promise<Reply>): Promise<Reply> {
  for (let attempt = 0; ; attempt++) {
    const reply = await send();
    const unavailable = reply.status === 503 || (reply.body?.errors as { extensions?: { code?: string } }[] | undefined)?.some((e) => e.extensions?.code === 'UNAVAILABLE');
    if (!unavailable || attempt === 3) return reply;
    retries++;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** How many times each id occurs beyond its first. */
const duplicates = (ids: string[]) => ids.length - new Set(ids).size;

it(`${LEARNERS} learners completing their last two lessons at once on two instances: ${LEARNERS} course.completed, each delivered to every consumer`, { timeout: 480_000 }, async () => {
  const rx = await startReceiver(() => 200);
  pool.defer(() => rx.close());
  const { a, b, databaseUrl } = await pool.cluster({ ...NO_RATE_LIMITS, REDIS_URL: TEST_REDIS_URL, WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms' });
  const ada = (await a.api.loginAs('ada')).token;
  const hook = await a.api.post('/api/v1/webhooks', { url: rx.url, events: COURSE_EVENTS }, { token: ada });
  expect(hook.status, hook.text).toBe(201);
  const lessons = await publishedLessons(a.api, ada, 5);
  const courseId = await course(a.api, ada, lessons);

  // Live once a rename made after subscribing reaches both (a subscription does not say when it listens).
  const subscribers = { 'SSE on A': subscribe(a, 'sse', ada), 'WebSocket on B': subscribe(b, 'ws', ada) };
  await waitFor('both subscribers live', async () => {
    const renamed = await b.api.patch(`/api/v1/courses/${courseId}`, { title: `Course ${Date.now()}` }, { token: ada });
    expect(renamed.status, renamed.text).toBe(200);
    for (const [name, s] of Object.entries(subscribers)) expect(s.errors, name).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return Object.values(subscribers).every((s) => s.events.some((e) => e.event === 'course.updated' && e.courseId === courseId));
  }, 20_000);

  const started = Date.now();
  const learners = await insertLearners(databaseUrl, LEARNERS);
  const made = Date.now();
  // The state before the race, written with SQL as the service would leave it (its enrolments and
  // completions are tested elsewhere; here they would only be minutes of set-up): every learner
  // enrolled with the first three lessons completed, and the counters to match.
  await queryDb(databaseUrl, `
    WITH learner AS (SELECT unnest($1::text[]) AS id),
    enrolled AS (
      INSERT INTO "Enrollment" ("courseId", "userId", "enrolledAt") SELECT $2, id, now() FROM learner RETURNING 1),
    completed AS (
      INSERT INTO "LessonCompletion" ("userId", "lessonId", "completedAt")
      SELECT learner.id, lesson, now() FROM learner, unnest($3::text[]) AS lesson RETURNING 1)
    SELECT (SELECT count(*) FROM enrolled), (SELECT count(*) FROM completed)`,
  [learners.map((l) => l.id), courseId, lessons.slice(0, 3)]);
  await queryDb(databaseUrl, `UPDATE "CourseStats" SET enrolled = $2 WHERE "courseId" = $1`, [courseId, LEARNERS]);
  await queryDb(databaseUrl, `UPDATE "CourseLesson" SET completed = $2 WHERE "courseId" = $1 AND "lessonId" = ANY ($3::text[])`, [courseId, LEARNERS, lessons.slice(0, 3)]);
  const enrolled = Date.now();
  const midway = await stats(a.api, ada, courseId);
  expect(midway).toMatchObject({ enrolled: LEARNERS, completed: 0, completionRate: 0 });
  expect(midway.lessons.map((l) => l.completed)).toEqual([LEARNERS, LEARNERS, LEARNERS, 0, 0]);

  // The last two lessons of each learner side by side in the queue, so both are in flight at once,
  // one on each instance (which one where alternates).
  const lastTwo = learners.flatMap((learner, i) => [
    { learner, lesson: lessons[3]!, on: i % 2 ? a : b },
    { learner, lesson: lessons[4]!, on: i % 2 ? b : a },
  ]);
  const replies = await bounded(lastTwo, IN_FLIGHT, ({ learner, lesson, on }) =>
    retrying503(() => on.api.post(`/api/v1/lessons/complete?id=${lesson}`, undefined, { token: learner.token })));
  expect(replies.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text}`)).toEqual([]);
  const finished = Date.now();

  // Recorded exactly once per learner: in the database, and in the event list once the relay has positioned them.
  const stored = await queryDb<{ id: string; userId: string }>(databaseUrl,
    `SELECT id, payload->>'userId' AS "userId" FROM "Event" WHERE type = 'course.completed' AND payload->>'courseId' = $1`, [courseId]);
  expect(stored).toHaveLength(LEARNERS);
  const listed = await waitFor(`${LEARNERS} course.completed listed`, async () => {
    const list = (await events(a.api, ada, ['course.completed'])).filter((e) => e.courseId === courseId);
    return list.length >= LEARNERS && list;
  }, 30_000);
  expect(listed).toHaveLength(LEARNERS);
  expect(new Set(listed.map((e) => e.userId))).toEqual(new Set(learners.map((l) => l.id)));
  expect(new Set(listed.map((e) => e.id))).toEqual(new Set(stored.map((e) => e.id)));

  const enrollments = await walkEnrollments(b.api, ada, `/api/v1/courses/${courseId}/enrollments`);
  expect(enrollments).toHaveLength(LEARNERS);
  expect(new Set(enrollments.map((e) => e.userId))).toEqual(new Set(learners.map((l) => l.id)));
  expect(enrollments.filter((e) => e.completedAt === null || e.progress.completed !== 5 || e.progress.total !== 5)).toEqual([]);
  expect(await stats(b.api, ada, courseId)).toEqual({
    enrolled: LEARNERS, completed: LEARNERS, completionRate: 1, lessons: lessons.map((lessonId) => ({ lessonId, completed: LEARNERS })),
  });

  // Every consumer gets every completion's event id (at least once).
  const ids = new Set(stored.map((e) => e.id));
  const hookIds = () => rx.hits.filter((h) => (JSON.parse(h.body) as { event: string }).event === 'course.completed').map((h) => h.headers['webhook-id']!);
  const subscriberIds = (s: Received<Ev>) => s.events.filter((e) => e.event === 'course.completed' && e.courseId === courseId).map((e) => e.id);
  const consumers: [string, () => string[]][] = [
    ['webhook receiver', hookIds],
    ...Object.entries(subscribers).map(([name, s]): [string, () => string[]] => [name, () => subscriberIds(s)]),
  ];
  for (const [name, received] of consumers) {
    const missing = () => {
      const got = new Set(received());
      return [...ids].filter((id) => !got.has(id)).length;
    };
    await waitFor(`${name}: every course.completed`, () => missing() === 0, 60_000).catch(() => {
      throw new Error(`${name}: ${missing()} of ${LEARNERS} course.completed never arrived`);
    });
    expect(new Set(received()), name).toEqual(ids);
  }
  for (const [name, s] of Object.entries(subscribers)) expect(s.errors, name).toEqual([]);
  const delivered = Date.now();

  console.log(JSON.stringify({
    learners: LEARNERS,
    insertMs: made - started,
    setUpMs: enrolled - made,
    lastTwoConcurrentMs: finished - enrolled,
    allDeliveredMs: delivered - finished,
    totalMs: delivered - started,
    courseCompleted: { stored: stored.length, listed: listed.length },
    duplicates: Object.fromEntries(consumers.map(([name, received]) => [name, duplicates(received())])),
    webhookRequests: rx.hits.length,
    retriedAfter503: retries,
  }));
});
