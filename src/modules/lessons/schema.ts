import { builder } from '../../graphql/builder.js';
import { definedInput, forwardConnection } from '../../graphql/connection.js';
import type { Lesson as LessonRow } from '../../generated/prisma/client.js';
import { PublicUser } from '../users/schema.js';
import { encodeCursor } from '../../db/keyset.js';

const LessonStatus = builder.enumType('LessonStatus', { values: ['DRAFT', 'PUBLISHED'] as const });

export const Lesson = builder.objectRef<LessonRow>('Lesson').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    summary: t.exposeString('summary', { nullable: true }),
    body: t.exposeString('body'),
    status: t.field({ type: LessonStatus, resolve: (l) => l.status }),
    authorId: t.exposeID('authorId'),
    author: t.field({ type: PublicUser, resolve: (l) => l.authorId }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CreateLessonInput = builder.inputType('CreateLessonInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    summary: t.string(),
    body: t.string({ required: true }),
  }),
});
const UpdateLessonInput = builder.inputType('UpdateLessonInput', {
  fields: (t) => ({ title: t.string(), summary: t.string(), body: t.string() }),
});

builder.queryFields((t) => ({
  lesson: t.field({
    type: Lesson,
    nullable: true,
    authScopes: { authenticated: true },
    description: 'A lesson; drafts only for ADMIN. null with a NOT_FOUND error when unknown.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => ctx.services.lessons.get({ caller: await ctx.requireCaller(), id }),
  }),
  lessons: t.connection({
    type: Lesson,
    authScopes: { authenticated: true },
    description: 'Lessons, newest first (drafts only for ADMIN). Forward pagination: first (1-100, default 20) and after.',
    resolve: async (_, args, ctx) => {
      const caller = await ctx.requireCaller();
      return forwardConnection(
        args,
        (request) => ctx.services.lessons.list({ caller, ...request }),
        encodeCursor,
      );
    },
  }),
}));

builder.mutationFields((t) => ({
  createLesson: t.field({
    type: Lesson,
    authScopes: { authenticated: true },
    description: 'ADMIN: create a draft.',
    args: { input: t.arg({ type: CreateLessonInput, required: true }) },
    resolve: async (_, { input }, ctx) =>
      ctx.services.lessons.create({ caller: await ctx.requireCaller(), input: definedInput(input, ['summary']) }),
  }),
  updateLesson: t.field({
    type: Lesson,
    authScopes: { authenticated: true },
    description: 'ADMIN: change a lesson; emits lesson.updated.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateLessonInput, required: true }) },
    resolve: async (_, { id, input }, ctx) =>
      ctx.services.lessons.update({ caller: await ctx.requireCaller(), id, input: definedInput(input, ['summary']) }),
  }),
  publishLesson: t.field({
    type: Lesson,
    authScopes: { authenticated: true },
    description: 'ADMIN: publish a draft; emits lesson.published. Publishing twice is a CONFLICT.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => ctx.services.lessons.publish({ caller: await ctx.requireCaller(), id }),
  }),
}));
