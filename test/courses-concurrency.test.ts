// Concurrent changes of one course, on both databases: they take turns on the course's row, so each
// sees the one before it, `updatedAt` follows their order, and a course is published exactly once.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { DATABASES } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { coursesApi, expectCourse, type Course, type Lesson } from './courses-helpers.js';

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('concurrent course changes on %s', (kind) => {
  const it = tests[kind];
  let api: Client;
  let courses: ReturnType<typeof coursesApi>;
  let ada: string;
  let grace: string;
  let lessons: Lesson[];

  it.beforeAll(async ({ api: itsClient, ada: adaToken, grace: graceToken }) => {
    [api, ada, grace] = [itsClient, adaToken, graceToken];
    courses = coursesApi(api, () => ada);
    lessons = [];
    for (let i = 0; i < 4; i++) lessons.push(await courses.lesson(ada, { title: `Concurrent lesson ${i}`, publish: true }));
  });

  it('publishes a course once of many concurrent publishes: one 200, the rest 409, one course.published', async () => {
    const course = await courses.create(ada, { title: 'Raced' });
    await courses.setLessons(ada, course.id, [lessons[0]!.id]);
    const replies = await Promise.all(Array.from({ length: 8 }, () => api.post(`/api/v1/courses/${course.id}/publish`, undefined, { token: ada })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const published = expectCourse(replies.find((r) => r.status === 200)!.body);
    expect((await courses.get(grace, course.id)).body).toEqual(published);
    const events = (await courses.courseEvents(grace)).filter((e) => e.courseId === course.id);
    expect(events.map((e) => e.event)).toEqual(['course.published']);
  });

  it('applies concurrent edits and lesson lists one at a time: the last by updatedAt is what stays, one event each', async () => {
    const course = await courses.create(ada, { title: 'Edited at once' });
    await courses.setLessons(ada, course.id, [lessons[0]!.id]);
    await courses.publish(ada, course.id);
    const lists = [[1, 2], [3], [2, 0, 1], [0, 3]].map((l) => l.map((i) => lessons[i]!.id));
    const replies = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => api.patch(`/api/v1/courses/${course.id}`, { title: `Title ${i}` }, { token: ada })),
      ...lists.map((lessonIds) => courses.put(`/api/v1/courses/${course.id}/lessons`, { lessonIds }, ada)),
    ]);
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    const answers = replies.map((r) => expectCourse(r.body));
    // The change stamped last is the course as it stays: no change is stamped before one it followed.
    const byTime = [...answers].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
    const final = (await courses.get(ada, course.id)).body as Course;
    expect(final.updatedAt).toBe(byTime.at(-1)!.updatedAt);
    expect(answers.filter((a) => a.updatedAt === final.updatedAt)).toContainEqual(final);
    expect(lists).toContainEqual(final.lessonIds);
    // Every change kept what the others wrote: each answer holds one of the titles and lists sent.
    for (const answer of answers) {
      expect(answer.title).toMatch(/^(Edited at once|Title \d)$/);
      expect([[lessons[0]!.id], ...lists]).toContainEqual(answer.lessonIds);
    }
    const events = (await courses.courseEvents(grace)).filter((e) => e.courseId === course.id).map((e) => e.event);
    expect(events).toEqual(['course.published', ...Array.from({ length: 10 }, () => 'course.updated')]);
  });
});
