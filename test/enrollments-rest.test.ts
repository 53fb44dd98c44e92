// The enrollment routes over real HTTP, on both databases: enrolling (idempotent, again after
// leaving), leaving, completing lessons before and after enrolling, the lists with progress, the
// stats, and who sees the enrollment and completion events.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import { DATABASES } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { course, complete, enroll, eventsOnce, type Ev, expectEnrollment, leave, newLearner, publishedLessons, stats, walkEnrollments } from './enrollments-helpers.js';

const tests = serverTestOn({ env: NO_RATE_LIMITS });
const OWN_EVENTS = ['enrollment.created', 'lesson.completed', 'course.completed'];

describe.each(DATABASES)('enrollments over REST on %s', (kind) => {
  const it = tests[kind];

  it('enrols, leaves and enrols again, with progress, completion once and exact stats', async ({ api, ada }) => {
    const lessons = await publishedLessons(api, ada, 3);
    const crs = await course(api, ada, lessons);
    const learner = await newLearner(api);

    const first = await enroll(api, learner.token, crs);
    expect(first.status, first.text).toBe(201);
    const enrolled = expectEnrollment(first.body);
    expect(enrolled).toMatchObject({ courseId: crs, userId: learner.id, completedAt: null, progress: { completed: 0, total: 3 } });

    // Enrolling again changes nothing and answers the same enrollment.
    const again = await enroll(api, learner.token, crs);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(enrolled);

    const done = await complete(api, learner.token, lessons[0]!);
    expect(done.status, done.text).toBe(200);
    expect(Object.keys(done.body as object).sort()).toEqual(['completedAt', 'lessonId', 'userId']);
    expect(done.body).toMatchObject({ lessonId: lessons[0], userId: learner.id });
    const twice = await complete(api, learner.token, lessons[0]!);
    expect(twice.status).toBe(200);
    expect(twice.body).toEqual(done.body);
    expect(await stats(api, ada, crs)).toEqual({
      enrolled: 1, completed: 0, completionRate: 0,
      lessons: [{ lessonId: lessons[0], completed: 1 }, { lessonId: lessons[1], completed: 0 }, { lessonId: lessons[2], completed: 0 }],
    });

    expect((await leave(api, learner.token, crs)).status).toBe(204);
    const notEnrolled = await leave(api, learner.token, crs);
    expect(notEnrolled.status, notEnrolled.text).toBe(404);
    expect(await walkEnrollments(api, learner.token, '/api/v1/enrollments')).toEqual([]);
    expect(await stats(api, ada, crs)).toMatchObject({ enrolled: 0, completed: 0, completionRate: 0, lessons: lessons.map((lessonId) => ({ lessonId, completed: 0 })) });

    // Completed while not enrolled: counted when they come back.
    expect((await complete(api, learner.token, lessons[1]!)).status).toBe(200);
    const back = await enroll(api, learner.token, crs);
    expect(back.status, back.text).toBe(201);
    expect(back.body.enrolledAt > enrolled.enrolledAt).toBe(true);
    expect(back.body.progress).toEqual({ completed: 2, total: 3 });
    expect(back.body.completedAt).toBeNull();

    expect((await complete(api, learner.token, lessons[2]!)).status).toBe(200);
    const [mine] = await walkEnrollments(api, learner.token, '/api/v1/enrollments');
    expect(mine).toMatchObject({ courseId: crs, enrolledAt: back.body.enrolledAt, progress: { completed: 3, total: 3 } });
    expect(mine!.completedAt).not.toBeNull();
    expect(await stats(api, ada, crs)).toEqual({ enrolled: 1, completed: 1, completionRate: 1, lessons: lessons.map((lessonId) => ({ lessonId, completed: 1 })) });

    // Leaving and coming back keeps completedAt, and completes nothing twice.
    expect((await leave(api, learner.token, crs)).status).toBe(204);
    const third = await enroll(api, learner.token, crs);
    expect(third.status).toBe(201);
    expect(third.body.completedAt).toBe(mine!.completedAt);
    expect(await stats(api, ada, crs)).toMatchObject({ enrolled: 1, completed: 1, completionRate: 1 });

    const own = await eventsOnce(api, learner.token, OWN_EVENTS, (list) => list.filter((e) => e.courseId === crs || lessons.includes(e.lessonId!)).length >= 5);
    const mineOnly = own.filter((e) => e.courseId === crs || lessons.includes(e.lessonId!));
    expect(mineOnly.map((e) => e.event).sort()).toEqual(['course.completed', 'enrollment.created', 'lesson.completed', 'lesson.completed', 'lesson.completed']);
    for (const e of mineOnly) expect(e.userId).toBe(learner.id);
  });

  it('replays a retried enrolment and completion under the same Idempotency-Key, and tags the lists', async ({ api, ada }) => {
    const lessons = await publishedLessons(api, ada, 1);
    const crs = await course(api, ada, lessons);
    const learner = await newLearner(api);
    const headers = { 'idempotency-key': `enrol-${crs}` };
    const first = await api.request('PUT', `/api/v1/courses/${crs}/enrollment`, { token: learner.token, headers });
    const retried = await api.request('PUT', `/api/v1/courses/${crs}/enrollment`, { token: learner.token, headers });
    expect(first.status).toBe(201);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    const completion = { 'idempotency-key': `complete-${crs}` };
    const done = await api.post(`/api/v1/lessons/complete?id=${lessons[0]}`, undefined, { token: learner.token, headers: completion });
    const again = await api.post(`/api/v1/lessons/complete?id=${lessons[0]}`, undefined, { token: learner.token, headers: completion });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(done.body);
    expect(await stats(api, ada, crs)).toEqual({ enrolled: 1, completed: 1, completionRate: 1, lessons: [{ lessonId: lessons[0], completed: 1 }] });

    const list = await api.get('/api/v1/enrollments', { token: learner.token });
    const etag = list.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await api.get('/api/v1/enrollments', { token: learner.token, headers: { 'if-none-match': etag! } })).status).toBe(304);
  });

  it('completes at once on enrolling when every lesson is already completed', async ({ api, ada }) => {
    const lessons = await publishedLessons(api, ada, 2);
    const crs = await course(api, ada, lessons);
    const learner = await newLearner(api);
    for (const lesson of lessons) expect((await complete(api, learner.token, lesson)).status).toBe(200);
    const reply = await enroll(api, learner.token, crs);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.completedAt).toBe(reply.body.enrolledAt);
    expect(reply.body.progress).toEqual({ completed: 2, total: 2 });
    expect(await stats(api, ada, crs)).toEqual({ enrolled: 1, completed: 1, completionRate: 1, lessons: lessons.map((lessonId) => ({ lessonId, completed: 1 })) });
    const completed = await eventsOnce(api, ada, ['course.completed'], (list) => list.some((e) => e.courseId === crs));
    expect(completed.filter((e) => e.courseId === crs)).toEqual([expect.objectContaining({ event: 'course.completed', courseId: crs, userId: learner.id })]);
  });

  it('lists a learner\'s enrollments newest first and a course\'s for ADMINs, page by page', async ({ api, ada, grace }) => {
    const lessons = await publishedLessons(api, ada, 1);
    const courses = [await course(api, ada, lessons), await course(api, ada, lessons), await course(api, ada, lessons)];
    const learner = await newLearner(api);
    for (const crs of courses) expect((await enroll(api, learner.token, crs)).status).toBe(201);
    const pages = await walkEnrollments(api, learner.token, '/api/v1/enrollments', 2);
    expect(pages.map((e) => e.courseId)).toEqual([...courses].reverse());
    for (const e of pages) expect(e.progress).toEqual({ completed: 0, total: 1 });

    const others = [await newLearner(api), await newLearner(api), await newLearner(api)];
    for (const other of others) expect((await enroll(api, other.token, courses[0]!)).status).toBe(201);
    expect((await complete(api, others[1]!.token, lessons[0]!)).status).toBe(200);
    const ofCourse = await walkEnrollments(api, ada, `/api/v1/courses/${courses[0]}/enrollments`, 1);
    expect(ofCourse.map((e) => e.userId)).toEqual([...others.map((o) => o.id)].reverse().concat(learner.id));
    expect(ofCourse.map((e) => e.progress.completed)).toEqual([0, 1, 0, 0]);
    expect(ofCourse[1]!.completedAt).not.toBeNull();

    const forbidden = await api.get(`/api/v1/courses/${courses[0]}/enrollments`, { token: grace });
    expect(forbidden.status).toBe(403);
    expect((await api.get(`/api/v1/courses/${courses[0]}/stats`, { token: grace })).status).toBe(403);
  });

  it('shows a MEMBER their own enrollment and completion events, never another learner\'s; an ADMIN all', async ({ api, ada }) => {
    const lessons = await publishedLessons(api, ada, 1);
    const crs = await course(api, ada, lessons);
    const [a, b] = [await newLearner(api), await newLearner(api)];
    for (const learner of [a, b]) {
      expect((await enroll(api, learner.token, crs)).status).toBe(201);
      expect((await complete(api, learner.token, lessons[0]!)).status).toBe(200);
    }
    const ofCourse = (list: Ev[]) => list.filter((e) => e.courseId === crs || e.lessonId === lessons[0]);
    const all = ofCourse(await eventsOnce(api, ada, OWN_EVENTS, (list) => ofCourse(list).length === 6));
    expect(all.filter((e) => e.userId === a.id)).toHaveLength(3);
    expect(all.filter((e) => e.userId === b.id)).toHaveLength(3);
    for (const learner of [a, b]) {
      const seen = ofCourse(await eventsOnce(api, learner.token, OWN_EVENTS, (list) => ofCourse(list).length >= 3));
      expect(seen.map((e) => e.event).sort()).toEqual(['course.completed', 'enrollment.created', 'lesson.completed']);
      expect(seen.every((e) => e.userId === learner.id)).toBe(true);
    }
  });
});
