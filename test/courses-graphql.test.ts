// Courses over GraphQL (POST /graphql, PostgreSQL): Query.course / courses, Course.lessons in course
// order with its cursors, drafts hidden from MEMBERs, the mutations with the same rules and
// messages as REST, and a page of courses with their lessons in as many SQL statements for 20 as for 2.
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import type { TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { coursesApi, type Course, type Lesson } from './courses-helpers.js';

const it = serverTest({ env: NO_RATE_LIMITS });

let server: TestServer;
let api: Client;
let courses: ReturnType<typeof coursesApi>;
let ada: string;
let grace: string;
let lessons: Lesson[];
let draftLesson: Lesson;

const gql = (query: string, variables?: Record<string, unknown>, token?: string) => api.graphql(query, variables, token ? { token } : undefined);

/** The data of a reply without errors. */
function dataOf(reply: Reply) {
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.errors, reply.text).toBeUndefined();
  return reply.body.data;
}

/** The one error of a reply, with its code. */
function errorOf(reply: Reply, code: string, message: string | RegExp) {
  expect(reply.body.errors, reply.text).toHaveLength(1);
  const [error] = reply.body.errors as { message: string; extensions: { code: string } }[];
  expect(error!.extensions.code).toBe(code);
  if (typeof message === 'string') expect(error!.message).toBe(message);
  else expect(error!.message).toMatch(message);
}

const COURSE = `id title summary status authorId author { id name } lessonIds createdAt publishedAt updatedAt`;
const LESSONS = `lessons(first: $first, after: $after) { edges { cursor node { id title status } } pageInfo { hasNextPage hasPreviousPage endCursor } }`;
const ONE = `query ($id: ID!, $first: Int, $after: String) { course(id: $id) { ${COURSE} ${LESSONS} } }`;

it.beforeAll(async ({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
  [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
  courses = coursesApi(api, () => ada);
  lessons = [];
  for (let i = 0; i < 5; i++) lessons.push(await courses.lesson(ada, { title: `GraphQL lesson ${i}`, publish: true }));
  draftLesson = await courses.lesson(ada, { title: 'GraphQL draft lesson', publish: false });
});

describe('reading courses', () => {
  it('answers a course with its author, lesson ids and lessons in course order, walked page by page', async () => {
    const order = [lessons[3]!, lessons[0]!, lessons[4]!, lessons[1]!, lessons[2]!];
    const course = await courses.create(ada, { title: 'Walked', summary: 'In pages' });
    await courses.setLessons(ada, course.id, order.map((l) => l.id));
    const rest = await courses.publish(ada, course.id);
    for (const token of [ada, grace]) {
      const got = dataOf(await gql(ONE, { id: course.id }, token)).course;
      expect(got).toMatchObject({ ...rest, author: { id: rest.authorId, name: 'Ada Lovelace' } });
      expect(got.lessons.edges.map((e: { node: Lesson }) => e.node)).toEqual(order.map(({ id, title, status }) => ({ id, title, status })));
      expect(got.lessons.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
      // Two at a time, with the cursors.
      const walked: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 3; page++) {
        const connection: { edges: { node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } =
          dataOf(await gql(ONE, { id: course.id, first: 2, after }, token)).course.lessons;
        walked.push(...connection.edges.map((e) => e.node.id));
        expect(connection.pageInfo.hasNextPage).toBe(page < 2);
        after = connection.pageInfo.endCursor;
      }
      expect(walked).toEqual(order.map((l) => l.id));
    }
  });

  it('refuses a bad first or after on Course.lessons with BAD_USER_INPUT naming it', async () => {
    const [course] = (await api.get('/api/v1/courses?limit=1', { token: grace })).body.items as Course[];
    for (const first of [0, 101, -1]) errorOf(await gql(ONE, { id: course!.id, first }, grace), 'BAD_USER_INPUT', 'first: must be an integer from 1 to 100');
    const forged = ['garbage', Buffer.from('["position",-1]').toString('base64url'), Buffer.from('["position",500]').toString('base64url'), Buffer.from('["2024-01-01T00:00:00.000Z","les_x"]').toString('base64url')];
    for (const after of forged) errorOf(await gql(ONE, { id: course!.id, after }, grace), 'BAD_USER_INPUT', 'after: is not a valid cursor');
    // Query.courses pages as Query.lessons does: a Course.lessons cursor is not one of its cursors.
    const LIST = 'query ($first: Int, $after: String) { courses(first: $first, after: $after) { edges { node { id } } } }';
    errorOf(await gql(LIST, { after: Buffer.from('["position",0]').toString('base64url') }, grace), 'BAD_USER_INPUT', 'after: is not a valid cursor');
    errorOf(await gql(LIST, { first: 101 }, grace), 'BAD_USER_INPUT', 'first: must be an integer from 1 to 100');
  });

  it('hides a draft course from a MEMBER (null, NOT_FOUND; not in courses) and shows it, with its draft lessons, to an ADMIN', async () => {
    const draft = await courses.create(ada, { title: 'Unpublished' });
    await courses.setLessons(ada, draft.id, [draftLesson.id, lessons[0]!.id]);
    const hidden = await gql(ONE, { id: draft.id }, grace);
    expect(hidden.body.data).toEqual({ course: null });
    errorOf(hidden, 'NOT_FOUND', `Course ${draft.id} not found`);
    const shown = dataOf(await gql(ONE, { id: draft.id }, ada)).course;
    expect(shown).toMatchObject({ status: 'DRAFT', publishedAt: null, lessonIds: [draftLesson.id, lessons[0]!.id] });
    expect(shown.lessons.edges.map((e: { node: Lesson }) => e.node.status)).toEqual(['DRAFT', 'PUBLISHED']);
    const list = `{ courses(first: 100) { edges { node { id status } } } }`;
    const memberIds = (dataOf(await gql(list, undefined, grace)).courses.edges as { node: Course }[]).map((e) => e.node);
    const adminIds = (dataOf(await gql(list, undefined, ada)).courses.edges as { node: Course }[]).map((e) => e.node);
    expect(memberIds.every((c) => c.status === 'PUBLISHED')).toBe(true);
    expect(memberIds.map((c) => c.id)).not.toContain(draft.id);
    expect(adminIds.map((c) => c.id)).toContain(draft.id);
    expect(memberIds.map((c) => c.id)).toEqual(adminIds.filter((c) => c.status === 'PUBLISHED').map((c) => c.id));
    // The REST list, in the same order.
    const rest = (await api.get('/api/v1/courses?limit=100', { token: grace })).body.items as Course[];
    expect(memberIds.map((c) => c.id)).toEqual(rest.map((c) => c.id));
  });
});

describe('mutations', () => {
  const CREATE = `mutation ($input: CreateCourseInput!) { createCourse(input: $input) { ${COURSE} } }`;
  const UPDATE = `mutation ($id: ID!, $input: UpdateCourseInput!) { updateCourse(id: $id, input: $input) { ${COURSE} } }`;
  const SET = `mutation ($id: ID!, $lessonIds: [ID!]!) { setCourseLessons(id: $id, lessonIds: $lessonIds) { ${COURSE} } }`;
  const PUBLISH = `mutation ($id: ID!) { publishCourse(id: $id) { ${COURSE} } }`;

  it('creates, edits, sets the lessons and publishes, as REST shows it, with course events only once published', async () => {
    const events = await courses.courseEvents(grace);
    const created = dataOf(await gql(CREATE, { input: { title: ' Over GraphQL ', summary: '  ' } }, ada)).createCourse;
    expect(created).toMatchObject({ title: 'Over GraphQL', summary: null, status: 'DRAFT', lessonIds: [] });
    const updated = dataOf(await gql(UPDATE, { id: created.id, input: { summary: 'Typed' } }, ada)).updateCourse;
    expect(updated).toMatchObject({ title: 'Over GraphQL', summary: 'Typed' });
    const set = dataOf(await gql(SET, { id: created.id, lessonIds: [lessons[2]!.id, lessons[1]!.id] }, ada)).setCourseLessons;
    expect(set.lessonIds).toEqual([lessons[2]!.id, lessons[1]!.id]);
    expect(await courses.courseEvents(grace)).toEqual(events);
    const published = dataOf(await gql(PUBLISH, { id: created.id }, ada)).publishCourse;
    expect(published).toMatchObject({ status: 'PUBLISHED', lessonIds: [lessons[2]!.id, lessons[1]!.id] });
    const { author: _author, ...view } = published as Course & { author: unknown };
    expect((await courses.get(grace, created.id)).body).toEqual(view);
    dataOf(await gql(UPDATE, { id: created.id, input: { title: 'Renamed' } }, ada));
    const seen = (await courses.courseEvents(grace)).slice(events.length).filter((e) => e.courseId === created.id).map((e) => e.event);
    expect(seen).toEqual(['course.published', 'course.updated']);
  });

  it('refuses what REST refuses, with the same messages, changing nothing', async () => {
    const draft = await courses.create(ada, { title: 'Refusals' });
    const live = await courses.create(ada, { title: 'Refusals, published' });
    await courses.setLessons(ada, live.id, [lessons[0]!.id]);
    await courses.publish(ada, live.id);
    const before = await Promise.all([draft, live].map(async (c) => (await courses.get(ada, c.id)).body as Course));
    const events = await courses.courseEvents(ada);
    const [a, b] = [lessons[0]!.id, lessons[1]!.id];

    errorOf(await gql(CREATE, { input: { title: 'Mine' } }, grace), 'FORBIDDEN', 'Forbidden');
    errorOf(await gql(PUBLISH, { id: draft.id }, grace), 'FORBIDDEN', 'Forbidden');
    errorOf(await gql(SET, { id: live.id, lessonIds: [b] }, grace), 'FORBIDDEN', 'Forbidden');
    errorOf(await gql(CREATE, { input: { title: '' } }, ada), 'BAD_USER_INPUT', 'title: must not be empty');
    errorOf(await gql(UPDATE, { id: draft.id, input: {} }, ada), 'BAD_USER_INPUT', 'body: give at least one of title, summary');
    errorOf(await gql(SET, { id: draft.id, lessonIds: [] }, ada), 'BAD_USER_INPUT', 'lessonIds: must list at least one lesson');
    errorOf(await gql(SET, { id: draft.id, lessonIds: [a, b, a] }, ada), 'BAD_USER_INPUT', `lessonIds.2: lesson ${a} is listed twice (also at 0)`);
    errorOf(await gql(SET, { id: draft.id, lessonIds: [a, 'les_nope'] }, ada), 'BAD_USER_INPUT', 'lessonIds.1: Lesson les_nope not found');
    const tooMany = Array.from({ length: 501 }, (_, i) => `les_${i}`);
    errorOf(await gql(SET, { id: draft.id, lessonIds: tooMany }, ada), 'BAD_USER_INPUT', 'lessonIds: must list at most 500 lessons');
    errorOf(await gql(SET, { id: live.id, lessonIds: [draftLesson.id] }, ada), 'BAD_USER_INPUT', `lessonIds.0: lesson ${draftLesson.id} is a draft; a published course holds only published lessons`);
    errorOf(await gql(PUBLISH, { id: draft.id }, ada), 'BAD_USER_INPUT', `Course ${draft.id} has no lessons: give it at least one before publishing`);
    errorOf(await gql(PUBLISH, { id: live.id }, ada), 'CONFLICT', `Course ${live.id} is already published`);
    errorOf(await gql(PUBLISH, { id: 'crs_nope' }, ada), 'NOT_FOUND', 'Course crs_nope not found');
    errorOf(await gql(UPDATE, { id: 'crs_nope', input: { title: 'x' } }, ada), 'NOT_FOUND', 'Course crs_nope not found');

    expect(await Promise.all([draft, live].map(async (c) => (await courses.get(ada, c.id)).body as Course))).toEqual(before);
    expect(await courses.courseEvents(ada)).toEqual(events);
  });
});

describe('batching', () => {
  it('a page of courses with authors and lessons takes the same SQL statements for 20 courses as for 2', async () => {
    for (let i = 0; i < 20; i++) {
      const course = await courses.create(ada, { title: `Batched ${i}` });
      await courses.setLessons(ada, course.id, [lessons[i % 5]!.id, lessons[(i + 1) % 5]!.id, lessons[(i + 2) % 5]!.id]);
      await courses.publish(ada, course.id);
    }
    const query = `query ($n: Int) { courses(first: $n) { edges { node { id author { name } lessonIds
      lessons(first: 10) { edges { node { id author { id } } } } } } } }`;
    const dataQueries = () => server.queries.filter((q) => /"(Lesson|Session|User|Course|CourseLesson)"/.test(q));
    const statementsFor = async (n: number, token: string) => {
      server.queries.length = 0;
      const edges = dataOf(await gql(query, { n }, token)).courses.edges as { node: { lessonIds: string[]; lessons: { edges: { node: { id: string } }[] } } }[];
      expect(edges).toHaveLength(n);
      for (const { node } of edges) {
        expect(node.lessons.edges.map((e) => e.node.id)).toEqual(node.lessonIds);
        expect(node.lessonIds).toHaveLength(3);
      }
      return dataQueries();
    };
    for (const token of [ada, grace]) {
      const two = await statementsFor(2, token);
      const twenty = await statementsFor(20, token);
      expect(twenty.length).toBe(two.length);
      // The caller, the page of courses, their authors, their lesson ids, their lessons (with the lessons' authors in the same author read).
      expect(twenty.length).toBeLessThanOrEqual(6);
      expect(twenty.filter((q) => /"CourseLesson"/.test(q))).toHaveLength(2);
    }
  });

  it("with the viewer's enrollments and completions, and a user's enrollments, still the same SQL statements for 20 courses as for 2", async () => {
    const made: Course[] = [];
    for (let i = 0; i < 20; i++) {
      const course = await courses.create(ada, { title: `Enrolled ${i}` });
      await courses.setLessons(ada, course.id, [lessons[i % 5]!.id, lessons[(i + 1) % 5]!.id, lessons[(i + 2) % 5]!.id]);
      made.push(await courses.publish(ada, course.id));
    }
    // Grace enrols in every one of them and completes two of the five lessons: her progress differs from course to course.
    const graceId = (await api.get('/api/v1/user/me', { token: grace })).body.id as string;
    for (const course of made) expect((await courses.put(`/api/v1/courses/${course.id}/enrollment`, undefined, grace)).status).toBe(201);
    const done = new Set([lessons[0]!.id, lessons[1]!.id]);
    for (const id of done) expect((await api.post(`/api/v1/lessons/complete?id=${id}`, undefined, { token: grace })).status).toBe(200);
    const byId = new Map(made.map((c) => [c.id, c]));
    const completedOf = (course: Course) => course.lessonIds.filter((id) => done.has(id)).length;

    const query = `query ($n: Int, $user: ID!) {
      courses(first: $n) { edges { node { id author { name } lessonIds
        viewerEnrollment { courseId completedAt progress { completed total } }
        lessons(first: 10) { edges { node { id author { id } viewerCompletedAt } } } } } }
      user(id: $user) { enrollments(first: $n) { edges { node { courseId completedAt progress { completed total } course { id title lessonIds } } } } } }`;
    const dataQueries = () => server.queries.filter((q) => /"(Lesson|Session|User|Course|CourseLesson|Enrollment|LessonCompletion|CourseStats)"/.test(q));
    interface Node { id: string; lessonIds: string[]; viewerEnrollment: { courseId: string; completedAt: string | null; progress: { completed: number; total: number } } | null; lessons: { edges: { node: { id: string; viewerCompletedAt: string | null } }[] } }
    interface UserEnrollment { courseId: string; completedAt: string | null; progress: { completed: number; total: number }; course: { id: string; lessonIds: string[] } }
    const statementsFor = async (n: number, token: string) => {
      server.queries.length = 0;
      const data = dataOf(await gql(query, { n, user: graceId }, token));
      const nodes = (data.courses.edges as { node: Node }[]).map((e) => e.node);
      const viewerIsGrace = token === grace;
      expect(nodes.map((c) => c.id)).toEqual([...made].reverse().slice(0, n).map((c) => c.id));
      for (const node of nodes) {
        expect(node.viewerEnrollment).toEqual(viewerIsGrace ? { courseId: node.id, completedAt: null, progress: { completed: completedOf(byId.get(node.id)!), total: 3 } } : null);
        expect(node.lessons.edges.map((e) => e.node.id)).toEqual(node.lessonIds);
        for (const { node: lesson } of node.lessons.edges) expect(lesson.viewerCompletedAt !== null).toBe(viewerIsGrace && done.has(lesson.id));
      }
      const enrollments = (data.user.enrollments.edges as { node: UserEnrollment }[]).map((e) => e.node);
      expect(enrollments).toHaveLength(n);
      for (const e of enrollments) {
        expect(e.course.id).toBe(e.courseId);
        expect(e.progress).toEqual({ completed: completedOf(byId.get(e.courseId)!), total: 3 });
      }
      return dataQueries();
    };
    // Grace reading her own; an ADMIN reading hers (no enrollment and no completion of the ADMIN's own).
    for (const token of [grace, ada]) {
      const two = await statementsFor(2, token);
      const twenty = await statementsFor(20, token);
      expect(twenty.length, twenty.join('\n')).toBe(two.length);
      // The caller, the user, the page of courses, their authors, lesson ids and lessons, the lessons'
      // authors, the viewer's enrollments and completions, the user's enrollments and their courses.
      expect(twenty.length, twenty.join('\n')).toBeLessThanOrEqual(11);
      expect(twenty.filter((q) => /"(Enrollment|LessonCompletion)"/.test(q)).length, twenty.join('\n')).toBe(3);
    }
  });
});
