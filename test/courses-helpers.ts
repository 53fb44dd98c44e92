// Shared by the courses tests: the course shape, and the REST calls they all make.
import { expect } from 'vitest';
import type { Client, Reply } from './support/http.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const COURSE_KEYS = ['authorId', 'createdAt', 'id', 'lessonIds', 'publishedAt', 'status', 'summary', 'title', 'updatedAt'];

export interface Course {
  id: string;
  title: string;
  summary: string | null;
  status: 'DRAFT' | 'PUBLISHED';
  authorId: string;
  lessonIds: string[];
  createdAt: string;
  publishedAt: string | null;
  updatedAt: string;
}

/** Checks the exact course shape and returns it typed. */
export function expectCourse(value: unknown): Course {
  expect(Object.keys(value as object).sort()).toEqual(COURSE_KEYS);
  const course = value as Course;
  expect(course.id).toMatch(/^crs_[0-9a-z]{26}$/);
  expect(['DRAFT', 'PUBLISHED']).toContain(course.status);
  expect(Array.isArray(course.lessonIds)).toBe(true);
  expect(course.createdAt).toMatch(ISO_MS);
  expect(course.updatedAt).toMatch(ISO_MS);
  if (course.status === 'DRAFT') expect(course.publishedAt).toBeNull();
  else expect(course.publishedAt).toMatch(ISO_MS);
  return course;
}

export interface Lesson {
  id: string;
  title: string;
  status: 'DRAFT' | 'PUBLISHED';
}

/** Calls of the courses' REST surface, for one server; `admin` is an ADMIN's token. */
export function coursesApi(api: Client, admin: () => string) {
  let marker: string | undefined;
  let marks = 0;
  /**
   * Returns once every event committed before the call is listed: the relay positions events
   * shortly after they commit, in commit order, so a marker change made now shows up after them.
   */
  async function settled(): Promise<void> {
    marker ??= (await api.post('/api/v1/lessons', { title: 'Marker', body: 'm' }, { token: admin() })).body.id as string;
    const mark = await api.patch(`/api/v1/lessons?id=${marker}`, { title: `Marker ${++marks}` }, { token: admin() });
    expect(mark.status, mark.text).toBe(200);
    for (let attempt = 0; attempt < 200; attempt++) {
      const reply = await api.get('/api/v1/events?types=lesson.updated&limit=1000', { token: admin() });
      let items = reply.body.items as { lessonId: string }[];
      for (let after = reply.body.nextCursor as string | null; after; ) {
        const more = await api.get(`/api/v1/events?types=lesson.updated&limit=1000&after=${after}`, { token: admin() });
        items = [...items, ...(more.body.items as { lessonId: string }[])];
        after = more.body.nextCursor as string | null;
      }
      if (items.filter((e) => e.lessonId === marker).length >= marks) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('events did not appear within 5 s');
  }
  const put = (path: string, body: unknown, token: string, headers?: Record<string, string>) =>
    api.request('PUT', path, { token, body, headers });
  const calls = {
    put,
    async create(token: string, body: Record<string, unknown>): Promise<Course> {
      const reply = await api.post('/api/v1/courses', body, { token });
      expect(reply.status, reply.text).toBe(201);
      return expectCourse(reply.body);
    },
    async get(token: string, id: string): Promise<Reply> {
      return api.get(`/api/v1/courses/${encodeURIComponent(id)}`, { token });
    },
    async setLessons(token: string, id: string, lessonIds: string[]): Promise<Course> {
      const reply = await put(`/api/v1/courses/${id}/lessons`, { lessonIds }, token);
      expect(reply.status, reply.text).toBe(200);
      return expectCourse(reply.body);
    },
    async publish(token: string, id: string): Promise<Course> {
      const reply = await api.post(`/api/v1/courses/${id}/publish`, undefined, { token });
      expect(reply.status, reply.text).toBe(200);
      return expectCourse(reply.body);
    },
    async lesson(token: string, body: { title: string; publish: boolean }): Promise<Lesson> {
      const reply = await api.post('/api/v1/lessons', { title: body.title, body: `About ${body.title}` }, { token });
      expect(reply.status, reply.text).toBe(201);
      const id = reply.body.id as string;
      if (body.publish) expect((await api.post(`/api/v1/lessons/publish?id=${id}`, undefined, { token })).status).toBe(200);
      return { id, title: body.title, status: body.publish ? 'PUBLISHED' : 'DRAFT' };
    },
    /** The course events (course.published, course.updated) `token` sees, oldest first, once settled. */
    async courseEvents(token: string): Promise<{ id: string; event: string; courseId: string }[]> {
      await settled();
      const reply = await api.get('/api/v1/events?types=course.published,course.updated&limit=1000', { token });
      expect(reply.status, reply.text).toBe(200);
      return reply.body.items as { id: string; event: string; courseId: string }[];
    },
  };
  return calls;
}
