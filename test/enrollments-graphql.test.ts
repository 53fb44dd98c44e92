// Enrollments in GraphQL: the mutations, Course.viewerEnrollment and Lesson.viewerCompletedAt
// batched over a page (as many statements for 2 courses as for 6), User.enrollments (own, ADMIN,
// FORBIDDEN otherwise) and courseStats, answering what REST answers.
import { expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { complete, course, newLearner, publishedLessons, stats } from './enrollments-helpers.js';

const it = serverTest({ kind: 'pglite', env: NO_RATE_LIMITS });

const PAGE = `query($first: Int) { courses(first: $first) { edges { node { id viewerEnrollment { courseId userId completedAt progress { completed total } course { id } } } } } }`;

it('enrols, completes and leaves through mutations, and reads the viewer\'s enrollment and completions batched', async ({ api, ada, server }) => {
  const lessons = await publishedLessons(api, ada, 2);
  const courses: string[] = [];
  for (let i = 0; i < 6; i++) courses.push(await course(api, ada, lessons));
  const learner = await newLearner(api);
  const gql = async (query: string, variables?: Record<string, unknown>, token = learner.token) => {
    const reply = await api.graphql(query, variables, { token });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { data: Record<string, any>; errors?: { extensions: { code: string } }[] }; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
  };

  const enrolled = await gql('mutation($id: ID!) { enroll(courseId: $id) { courseId userId enrolledAt completedAt progress { completed total } } }', { id: courses[5] });
  expect(enrolled.data.enroll).toMatchObject({ courseId: courses[5], userId: learner.id, completedAt: null, progress: { completed: 0, total: 2 } });
  const again = await gql('mutation($id: ID!) { enroll(courseId: $id) { enrolledAt } }', { id: courses[5] });
  expect(again.data.enroll.enrolledAt).toBe(enrolled.data.enroll.enrolledAt);
  await gql('mutation($id: ID!) { enroll(courseId: $id) { courseId } }', { id: courses[4] });
  const done = await gql('mutation($id: ID!) { completeLesson(lessonId: $id) { lessonId userId completedAt } }', { id: lessons[0] });
  expect(done.data.completeLesson).toMatchObject({ lessonId: lessons[0], userId: learner.id });

  // The newest courses first: courses[5] and [4] are the learner's.
  const countStatements = async (first: number) => {
    server.queries.length = 0;
    const page = await gql(PAGE, { first });
    return { page, statements: server.queries.filter((q) => /"Enrollment"/.test(q)).length };
  };
  const two = await countStatements(2);
  const six = await countStatements(6);
  expect(six.statements).toBe(two.statements);
  const nodes = six.page.data.courses.edges.map((e: { node: unknown }) => e.node) as { id: string; viewerEnrollment: unknown }[];
  const ours = nodes.filter((n) => courses.includes(n.id));
  expect(ours.find((n) => n.id === courses[5])!.viewerEnrollment).toEqual({ courseId: courses[5], userId: learner.id, completedAt: null, progress: { completed: 1, total: 2 }, course: { id: courses[5] } });
  expect(ours.filter((n) => n.viewerEnrollment === null).map((n) => n.id).sort()).toEqual(courses.slice(0, 4).sort());
  // Another viewer sees their own (none), not the learner's.
  const asAda = await gql(PAGE, { first: 6 }, ada);
  expect(asAda.data.courses.edges.every((e: { node: { viewerEnrollment: unknown } }) => e.node.viewerEnrollment === null)).toBe(true);

  const completedAt = await gql('query($a: ID!, $b: ID!) { a: lesson(id: $a) { viewerCompletedAt } b: lesson(id: $b) { viewerCompletedAt } }', { a: lessons[0], b: lessons[1] });
  expect(completedAt.data).toEqual({ a: { viewerCompletedAt: done.data.completeLesson.completedAt }, b: { viewerCompletedAt: null } });

  // The last lesson completes both courses at once.
  await complete(api, learner.token, lessons[1]!);
  const stat = await gql('query($id: ID!) { courseStats(id: $id) { enrolled completed completionRate lessons { lessonId completed } } }', { id: courses[5] }, ada);
  expect(stat.data.courseStats).toEqual(await stats(api, ada, courses[5]!));
  expect(stat.data.courseStats).toMatchObject({ enrolled: 1, completed: 1, completionRate: 1 });

  const left = await gql('mutation($id: ID!) { unenroll(courseId: $id) }', { id: courses[4] });
  expect(left.data.unenroll).toBe(true);
  const notEnrolled = await gql('mutation($id: ID!) { unenroll(courseId: $id) }', { id: courses[4] });
  expect(notEnrolled.errors![0]!.extensions.code).toBe('NOT_FOUND');

  // User.enrollments: one's own, anyone's for an ADMIN, FORBIDDEN otherwise.
  const USER = 'query($id: ID!, $first: Int, $after: String) { user(id: $id) { enrollments(first: $first, after: $after) { edges { node { courseId completedAt } } pageInfo { hasNextPage endCursor } } } }';
  const own = await gql(USER, { id: learner.id, first: 5 });
  expect(own.data.user.enrollments.edges.map((e: { node: { courseId: string } }) => e.node.courseId)).toEqual([courses[5]]);
  expect(own.data.user.enrollments.edges[0].node.completedAt).not.toBeNull();
  const byAdmin = await gql(USER, { id: learner.id, first: 5 }, ada);
  expect(byAdmin.data.user.enrollments).toEqual(own.data.user.enrollments);
  const other = await newLearner(api);
  const refused = await gql(USER, { id: learner.id }, other.token);
  expect(refused.errors![0]!.extensions.code).toBe('FORBIDDEN');
  expect(refused.data?.user?.enrollments ?? null).toBeNull();
  const badCursor = await gql(USER, { id: learner.id, after: 'nope' });
  expect(badCursor.errors![0]!.extensions.code).toBe('BAD_USER_INPUT');
});
