// The lessons' GraphQL types, queries and mutations; arguments are parsed with the module's input schemas.
import { dataloaderGetter } from '@pothos/plugin-dataloader';
import { builder, type GraphQLContext } from '../../graphql/builder.js';
import { definedInput, keysetConnection, pageCost } from '../../graphql/connection.js';
import { keysetPageKey, loadSamePages } from '../../graphql/page-batches.js';
import type { Lesson as LessonRow } from '../../generated/prisma/client.js';
import { parseWith } from '../../input.js';
import { loadPublicUsers, PublicUser } from '../users/schema.js';
import { encodeCursor, type PageRequest } from '../../db/keyset.js';
import { createLessonInput, updateLessonInput } from './inputs.js';

const LessonStatus = builder.enumType('LessonStatus', { values: ['DRAFT', 'PUBLISHED'] as const });

export const Lesson = builder.objectRef<LessonRow>('Lesson').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    summary: t.exposeString('summary', { nullable: true }),
    body: t.exposeString('body'),
    status: t.field({ type: LessonStatus, resolve: (l) => l.status }),
    authorId: t.exposeID('authorId'),
    // One query for every author a response mentions (no N+1).
    author: t.loadable({ type: PublicUser, load: loadPublicUsers, resolve: (l) => l.authorId }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

// `User.lessons` is defined here rather than in users/schema.ts, which this file imports.
const UserLessonsConnection = builder.connectionObject(
  { type: Lesson, name: 'UserLessonsConnection' },
  // Named like the edges of the connections t.connection makes (QueryLessonsConnectionEdge).
  { name: 'UserLessonsConnectionEdge' },
);

type AuthorPageKey = { authorId: string; page: PageRequest };
type AuthorPage = { items: LessonRow[]; hasMore: boolean };


/**
 * One loader per request for every user's `lessons`: the keys asking for the same page (first,
 * after) share one SQL statement, however many users the response has.
 */
const authorPages = dataloaderGetter<AuthorPageKey, AuthorPage, string>(
  { cacheKeyFn: ({ authorId, page }) => JSON.stringify([authorId, keysetPageKey(page)]) },
  // Pothos types a loader's context as any schema's; it is the request context the resolver passes in.
  (keys, ctx) => loadAuthorPages(keys, ctx as GraphQLContext),
  undefined,
  false,
);

const loadAuthorPages = (keys: AuthorPageKey[], ctx: GraphQLContext) =>
  loadSamePages(keys, {
    pageKey: keysetPageKey,
    ownerOf: (key) => key.authorId,
    load: (authorIds, page) => ctx.services.lessons.publishedByAuthors({ authorIds, page }),
  });

builder.objectField(PublicUser, 'lessons', (t) =>
  t.field({
    type: UserLessonsConnection,
    authScopes: { authenticated: true },
    cache: 'never',
    description: 'The published lessons the user wrote, newest first (never drafts, whoever asks). Forward pagination: first (1-100, default 20) and after.',
    args: { first: t.arg.int(), after: t.arg.string() },
    complexity: pageCost(),
    resolve: (user, args, ctx) =>
      // The page is checked before the loader, so that a bad one fails this field, not the whole batch.
      keysetConnection(args, (page) => authorPages(ctx).load({ authorId: user.id, page }), encodeCursor),
  }),
);

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
  lesson: t.withAuth({ authenticated: true }).field({
    type: Lesson,
    nullable: true,
    cache: 'never',
    description: 'A lesson; drafts only for ADMIN. null with a NOT_FOUND error when unknown.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.lessons.get({ caller: ctx.viewer(), id }),
  }),
  lessons: t.withAuth({ authenticated: true }).connection({
    type: Lesson,
    cache: 'never',
    description: 'Lessons, newest first (drafts only for ADMIN). Forward pagination: first (1-100, default 20) and after.',
    complexity: pageCost(),
    resolve: (_, args, ctx) =>
      keysetConnection(args, (page) => ctx.services.lessons.list({ caller: ctx.viewer(), page }), encodeCursor),
  }),
}));

builder.mutationFields((t) => ({
  createLesson: t.withAuth({ admin: true }).field({
    type: Lesson,
    cache: 'never',
    description: 'ADMIN: create a draft.',
    args: { input: t.arg({ type: CreateLessonInput, required: true }) },
    resolve: (_, { input }, ctx) =>
      ctx.services.lessons.create({ caller: ctx.viewer(), input: parseWith(createLessonInput, definedInput(input, ['summary']), '') }),
  }),
  updateLesson: t.withAuth({ admin: true }).field({
    type: Lesson,
    cache: 'never',
    description: 'ADMIN: change a lesson; emits lesson.updated.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateLessonInput, required: true }) },
    resolve: (_, { id, input }, ctx) =>
      ctx.services.lessons.update({ caller: ctx.viewer(), id, input: parseWith(updateLessonInput, definedInput(input, ['summary']), '') }),
  }),
  publishLesson: t.withAuth({ admin: true }).field({
    type: Lesson,
    cache: 'never',
    description: 'ADMIN: publish a draft; emits lesson.published. Publishing twice is a CONFLICT.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.lessons.publish({ caller: ctx.viewer(), id }),
  }),
}));
