// The lessons' REST routes: parsed by the router with the module's input schemas, then the service.
import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { pageOfQuery, pageQueryFields } from '../../http/page-query.js';
import { createLessonInput, updateLessonInput } from './inputs.js';
import { lessonPage, lessonView, toLessonView } from './views.js';

const idQuery = z.object({ id: z.string().min(1, 'must not be empty') });
const listQuery = z.object({
  id: z.string().min(1, 'must not be empty').optional()
    .describe('A lesson id: answers that lesson instead of a page'),
  ...pageQueryFields,
});

export const lessonRoutes = [
  defineRoute({
    method: 'GET', path: '/api/v1/lessons', operationId: 'getLessons', tag: 'lessons', auth: true,
    summary: 'One lesson by `id`, or without `id` a page of lessons, newest first',
    query: listQuery,
    success: { status: 200, description: 'The lesson (with id) or a page `{items, nextCursor}` (without)', schema: z.union([lessonView, lessonPage]) },
    errors: [400, 403, 404],
    handler: async ({ query, ctx, caller }) => {
      if (query.id !== undefined) return toLessonView(await ctx.services.lessons.get({ caller, id: query.id }));
      const { items, nextCursor } = await ctx.services.lessons.list({ caller, page: pageOfQuery(query) });
      return { items: items.map(toLessonView), nextCursor };
    },
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/lessons', operationId: 'createLesson', tag: 'lessons', auth: true, roles: ['ADMIN'],
    summary: 'ADMIN: create a draft lesson',
    body: createLessonInput,
    success: { status: 201, description: 'The draft', schema: lessonView },
    errors: [400, 403],
    handler: async ({ body, ctx, caller }) => toLessonView(await ctx.services.lessons.create({ caller, input: body })),
  }),
  defineRoute({
    method: 'PATCH', path: '/api/v1/lessons', operationId: 'updateLesson', tag: 'lessons', auth: true, roles: ['ADMIN'],
    summary: 'ADMIN: change a lesson (emits lesson.updated)',
    query: idQuery,
    body: updateLessonInput,
    ifMatch: true,
    success: { status: 200, description: 'The updated lesson', schema: lessonView },
    errors: [400, 403, 404],
    handler: async ({ query, body, ctx, caller, precondition }) =>
      toLessonView(await ctx.services.lessons.update({ caller, id: query.id, input: body, expected: precondition })),
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/lessons/publish', operationId: 'publishLesson', tag: 'lessons', auth: true, roles: ['ADMIN'],
    summary: 'ADMIN: publish a draft (emits lesson.published)',
    query: idQuery,
    // A POST, but a change of the lesson its GET shows: If-Match holds here too.
    ifMatch: true,
    success: { status: 200, description: 'The published lesson', schema: lessonView },
    errors: [400, 403, 404, 409],
    handler: async ({ query, ctx, caller, precondition }) =>
      toLessonView(await ctx.services.lessons.publish({ caller, id: query.id, expected: precondition })),
  }),
];
