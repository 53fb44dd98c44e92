// The courses' REST routes: parsed by the router with the module's input schemas, then the service.
import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { pageOfQuery, pageQueryFields } from '../../http/page-query.js';
import { createCourseInput, setCourseLessonsInput, updateCourseInput } from './inputs.js';
import { coursePage, courseView, toCourseView } from './views.js';

const idParams = z.object({ id: z.string().min(1, 'must not be empty').describe('A course id (`crs_…`)') });
const common = { tag: 'courses', auth: true } as const;
const admin = { ...common, roles: ['ADMIN'] } as const;

export const courseRoutes = [
  defineRoute({
    ...common, method: 'GET', path: '/api/v1/courses', operationId: 'listCourses',
    summary: 'A page of courses, newest first (drafts only for ADMIN)',
    query: z.object(pageQueryFields),
    success: { status: 200, description: 'A page `{items, nextCursor}`', schema: coursePage },
    errors: [400, 403],
    handler: async ({ query, ctx, caller }) => {
      const { items, nextCursor } = await ctx.services.courses.listWithLessonIds({ caller, page: pageOfQuery(query) });
      return { items: items.map(toCourseView), nextCursor };
    },
  }),
  defineRoute({
    ...common, method: 'GET', path: '/api/v1/courses/{id}', operationId: 'getCourse',
    summary: 'One course with its lesson ids in course order (a draft only for ADMIN)',
    params: idParams,
    success: { status: 200, description: 'The course', schema: courseView },
    errors: [403, 404],
    handler: async ({ params, ctx, caller }) => toCourseView(await ctx.services.courses.get({ caller, id: params.id })),
  }),
  defineRoute({
    ...admin, method: 'POST', path: '/api/v1/courses', operationId: 'createCourse',
    summary: 'ADMIN: create a draft course without lessons',
    body: createCourseInput,
    success: { status: 201, description: 'The draft', schema: courseView },
    errors: [400, 403],
    handler: async ({ body, ctx, caller }) => toCourseView(await ctx.services.courses.create({ caller, input: body })),
  }),
  defineRoute({
    ...admin, method: 'PATCH', path: '/api/v1/courses/{id}', operationId: 'updateCourse',
    summary: 'ADMIN: change title or summary (emits course.updated when published)',
    params: idParams,
    body: updateCourseInput,
    ifMatch: true,
    success: { status: 200, description: 'The updated course', schema: courseView },
    errors: [400, 403, 404],
    handler: async ({ params, body, ctx, caller, precondition }) =>
      toCourseView(await ctx.services.courses.update({ caller, id: params.id, input: body, expected: precondition })),
  }),
  defineRoute({
    ...admin, method: 'PUT', path: '/api/v1/courses/{id}/lessons', operationId: 'setCourseLessons',
    summary: 'ADMIN: set the lessons and their order (1-500 distinct existing lessons; only published ones in a published course; emits course.updated when published)',
    params: idParams,
    body: setCourseLessonsInput,
    // A change of the course its GET shows (lessonIds): If-Match holds here too.
    ifMatch: true,
    success: { status: 200, description: 'The course', schema: courseView },
    errors: [400, 403, 404],
    handler: async ({ params, body, ctx, caller, precondition }) =>
      toCourseView(await ctx.services.courses.setLessons({ caller, id: params.id, input: body, expected: precondition })),
  }),
  defineRoute({
    ...admin, method: 'POST', path: '/api/v1/courses/{id}/publish', operationId: 'publishCourse',
    summary: 'ADMIN: publish a draft holding at least one lesson, all published (emits course.published)',
    params: idParams,
    ifMatch: true,
    success: { status: 200, description: 'The published course', schema: courseView },
    errors: [400, 403, 404, 409],
    handler: async ({ params, ctx, caller, precondition }) =>
      toCourseView(await ctx.services.courses.publish({ caller, id: params.id, expected: precondition })),
  }),
];
