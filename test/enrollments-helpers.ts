// Shared by the enrollments tests: the enrollment shape, learners, published courses, the events
// list, and the counts a course's stats must equal (computed from the rows, not the counters).
import { expect } from 'vitest';
import type { Client } from './support/http.js';
import { sql, type TestServer } from './support/server.js';
import { waitFor } from './support/wait.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface Enrollment {
  courseId: string;
  userId: string;
  enrolledAt: string;
  completedAt: string | null;
  progress: { completed: number; total: number };
}

export interface Stats {
  enrolled: number;
  completed: number;
  completionRate: number;
  lessons: { lessonId: string; completed: number }[];
}

export interface Ev {
  id: string;
  event: string;
  courseId?: string;
  lessonId?: string;
  userId?: string;
}

/** Checks the exact enrollment shape and returns it typed. */
export function expectEnrollment(value: unknown): Enrollment {
  expect(Object.keys(value as object).sort()).toEqual(['completedAt', 'courseId', 'enrolledAt', 'progress', 'userId']);
  const e = value as Enrollment;
  expect(e.enrolledAt).toMatch(ISO_MS);
  if (e.completedAt !== null) expect(e.completedAt).toMatch(ISO_MS);
  expect(Object.keys(e.progress).sort()).toEqual(['completed', 'total']);
  return e;
}

let learners = 0;

/** A new MEMBER: their token and id. */
export async function newLearner(api: Client, name = 'Learner'): Promise<{ token: string; id: string }> {
  const reg = await api.post('/api/auth/register', { email: `learner-${process.pid}-${Date.now()}-${++learners}@example.com`, password: 'password123', name });
  expect(reg.status, reg.text).toBe(201);
  const token = reg.body.token as string;
  const me = await api.get('/api/v1/user/me', { token });
  return { token, id: me.body.id as string };
}

/** ADMIN: `n` published lessons; their ids. */
export async function publishedLessons(api: Client, admin: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const made = await api.post('/api/v1/lessons', { title: `Lesson ${i}`, body: 'b' }, { token: admin });
    expect(made.status, made.text).toBe(201);
    const published = await api.post(`/api/v1/lessons/publish?id=${made.body.id}`, undefined, { token: admin });
    expect(published.status, published.text).toBe(200);
    ids.push(made.body.id as string);
  }
  return ids;
}

/** ADMIN: a course holding `lessonIds`, published unless `draft`; its id. */
export async function course(api: Client, admin: string, lessonIds: string[], { draft = false } = {}): Promise<string> {
  const made = await api.post('/api/v1/courses', { title: 'Course' }, { token: admin });
  expect(made.status, made.text).toBe(201);
  const id = made.body.id as string;
  await setLessons(api, admin, id, lessonIds);
  if (!draft) {
    const published = await api.post(`/api/v1/courses/${id}/publish`, undefined, { token: admin });
    expect(published.status, published.text).toBe(200);
  }
  return id;
}

export async function setLessons(api: Client, admin: string, courseId: string, lessonIds: string[]): Promise<void> {
  const set = await api.request('PUT', `/api/v1/courses/${courseId}/lessons`, { token: admin, body: { lessonIds } });
  expect(set.status, set.text).toBe(200);
}

export const enroll = (api: Client, token: string, courseId: string) => api.request('PUT', `/api/v1/courses/${courseId}/enrollment`, { token });
export const leave = (api: Client, token: string, courseId: string) => api.delete(`/api/v1/courses/${courseId}/enrollment`, { token });
export const complete = (api: Client, token: string, lessonId: string) => api.post(`/api/v1/lessons/complete?id=${encodeURIComponent(lessonId)}`, undefined, { token });

export async function stats(api: Client, admin: string, courseId: string): Promise<Stats> {
  const reply = await api.get(`/api/v1/courses/${courseId}/stats`, { token: admin });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as Stats;
}

/** Every page of an enrollments list (`path` without query), walked with nextCursor. */
export async function walkEnrollments(api: Client, token: string, path: string, limit = 100): Promise<Enrollment[]> {
  const items: Enrollment[] = [];
  let cursor: string | null = null;
  do {
    const reply = await api.get(`${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body as object).sort()).toEqual(['items', 'nextCursor']);
    items.push(...(reply.body.items as unknown[]).map(expectEnrollment));
    cursor = reply.body.nextCursor as string | null;
  } while (cursor !== null);
  return items;
}

/** Every event `token` may list of these types. */
export async function events(api: Client, token: string, types: string[]): Promise<Ev[]> {
  const items: Ev[] = [];
  let after: string | null = null;
  do {
    const reply = await api.get(`/api/v1/events?types=${types.join(',')}&limit=1000${after ? `&after=${after}` : ''}`, { token });
    expect(reply.status, reply.text).toBe(200);
    items.push(...(reply.body.items as Ev[]));
    after = reply.body.nextCursor as string | null;
  } while (after !== null);
  return items;
}

/** The events (as `token` lists them) once `done` holds for them: the relay lists them shortly after they commit. */
export const eventsOnce = (api: Client, token: string, types: string[], done: (list: Ev[]) => boolean) =>
  waitFor(`events ${types.join(',')}`, async () => {
    const list = await events(api, token, types);
    return done(list) && list;
  });

/** A course's stats as a count over the rows would give them (PostgreSQL test servers only). */
export async function countedStats(server: TestServer, courseId: string): Promise<Omit<Stats, 'completionRate'>> {
  const [row] = await sql<{ enrolled: number; completed: number }>(server, `
    SELECT count(*)::int AS enrolled, count("completedAt")::int AS completed
    FROM "Enrollment" WHERE "courseId" = $1 AND "leftAt" IS NULL`, [courseId]);
  const lessons = await sql<{ lessonId: string; completed: number }>(server, `
    SELECT cl."lessonId", count(e."userId")::int AS completed
    FROM "CourseLesson" cl
    LEFT JOIN "LessonCompletion" lc ON lc."lessonId" = cl."lessonId"
    LEFT JOIN "Enrollment" e ON e."courseId" = cl."courseId" AND e."userId" = lc."userId" AND e."leftAt" IS NULL
    WHERE cl."courseId" = $1 GROUP BY cl."lessonId", cl.position ORDER BY cl.position`, [courseId]);
  return { enrolled: row!.enrolled, completed: row!.completed, lessons };
}
