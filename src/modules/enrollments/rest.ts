// The enrollments' REST routes: parsed by the router with the module's input schemas, then the service.
import { z } from 'zod';
import { answered, defineRoute } from '../../http/route.js';
import { pageOfQuery, pageQueryFields } from '../../http/page-query.js';
import { courseIdParams, lessonIdQuery } from './inputs.js';
import { completionView, courseStatsView, enrollmentPage, enrollmentView, toCompletionView, toCourseStatsView, toEnrollmentView } from './views.js';

const pageQuery = z.object(pageQueryFields);
const pageView = ({ items, nextCursor }: { items: Parameters<typeof toEnrollmentView>[0][]; nextCursor: string | null }) =>
  ({ items: items.map(toEnrollmentView), nextCursor });

export const enrollmentRoutes = [
  defineRoute({
    method: 'PUT', path: '/api/v1/courses/{id}/enrollment', operationId: 'enroll', tag: 'enrollments', auth: true,
    summary: 'The caller enrols in a published course (emits enrollment.created the first time, course.completed if every lesson is already completed)',
    params: courseIdParams,
    success: {
      status: 201, description: 'Enrolled now: the enrollment', schema: enrollmentView,
      also: { status: 200, description: 'Already enrolled: the same enrollment (nothing changed)' },
    },
    errors: [400, 403, 404],
    handler: async ({ params, ctx, caller }) => {
      const { enrollment, created } = await ctx.services.enrollments.enroll({ caller, courseId: params.id });
      return created ? toEnrollmentView(enrollment) : answered(200, toEnrollmentView(enrollment));
    },
  }),
  defineRoute({
    method: 'DELETE', path: '/api/v1/courses/{id}/enrollment', operationId: 'unenroll', tag: 'enrollments', auth: true,
    summary: 'The caller leaves a course; their lesson completions stay',
    params: courseIdParams,
    success: { status: 204, description: 'Left the course' },
    errors: [400, 403, 404],
    handler: async ({ params, ctx, caller }) => {
      await ctx.services.enrollments.leave({ caller, courseId: params.id });
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/enrollments', operationId: 'getEnrollments', tag: 'enrollments', auth: true,
    summary: 'The caller\'s enrollments with progress, newest first',
    query: pageQuery,
    success: { status: 200, description: 'A page `{items, nextCursor}`', schema: enrollmentPage },
    errors: [400, 403],
    handler: async ({ query, ctx, caller }) => pageView(await ctx.services.enrollments.listMine({ caller, page: pageOfQuery(query) })),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/courses/{id}/enrollments', operationId: 'getCourseEnrollments', tag: 'enrollments', auth: true, roles: ['ADMIN'],
    summary: 'ADMIN: a course\'s enrollments with progress, newest first',
    params: courseIdParams,
    query: pageQuery,
    success: { status: 200, description: 'A page `{items, nextCursor}`', schema: enrollmentPage },
    errors: [400, 403, 404],
    handler: async ({ params, query, ctx, caller }) =>
      pageView(await ctx.services.enrollments.listOfCourse({ caller, courseId: params.id, page: pageOfQuery(query) })),
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/lessons/complete', operationId: 'completeLesson', tag: 'enrollments', auth: true,
    summary: 'The caller completes a published lesson (emits lesson.completed the first time, course.completed for each course it completes)',
    query: lessonIdQuery,
    success: { status: 200, description: 'The completion (the first one when completed before)', schema: completionView },
    errors: [400, 403, 404],
    handler: async ({ query, ctx, caller }) => toCompletionView(await ctx.services.enrollments.completeLesson({ caller, lessonId: query.id })),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/courses/{id}/stats', operationId: 'getCourseStats', tag: 'enrollments', auth: true, roles: ['ADMIN'],
    summary: 'ADMIN: a course\'s enrolled learners, completions and completion rate, from its counters',
    params: courseIdParams,
    success: { status: 200, description: 'The stats; lessons in course order', schema: courseStatsView },
    errors: [403, 404],
    handler: async ({ params, ctx, caller }) => toCourseStatsView(await ctx.services.enrollments.stats({ caller, courseId: params.id })),
  }),
];
