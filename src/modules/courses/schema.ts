// The courses' GraphQL types, queries and mutations; arguments are parsed with the module's input schemas.
import { builder } from '../../graphql/builder.js';
import { definedInput, forwardConnection, keysetConnection, pageCost } from '../../graphql/connection.js';
import type { Course as CourseRow } from '../../generated/prisma/client.js';
import { parseWith } from '../../input.js';
import { encodeCursor, parsePage } from '../../db/keyset.js';
import { Lesson } from '../lessons/schema.js';
import { loadPublicUsers, PublicUser } from '../users/schema.js';
import { createCourseInput, setCourseLessonsInput, updateCourseInput } from './inputs.js';
import { decodePositionCursor, encodePositionCursor } from './lesson-pages.js';
import { courseLessonIds, courseLessonPages } from './loaders.js';

const CourseStatus = builder.enumType('CourseStatus', { values: ['DRAFT', 'PUBLISHED'] as const });

/** A course. Other modules add fields to it (builder.objectField), e.g. `viewerEnrollment`. */
export const Course = builder.objectRef<CourseRow>('Course');

const CourseLessonsConnection = builder.connectionObject(
  { type: Lesson, name: 'CourseLessonsConnection' },
  // Named like the edges of the connections t.connection makes (QueryLessonsConnectionEdge).
  { name: 'CourseLessonsConnectionEdge' },
);

Course.implement({
  description: 'An ordered list of lessons that learners enrol in and complete.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    summary: t.exposeString('summary', { nullable: true }),
    status: t.field({ type: CourseStatus, resolve: (c) => c.status }),
    authorId: t.exposeID('authorId'),
    // One query for every author a response mentions (no N+1).
    author: t.loadable({ type: PublicUser, load: loadPublicUsers, resolve: (c) => c.authorId }),
    lessonIds: t.idList({
      description: 'The ids of the lessons, in course order.',
      resolve: (c, _args, ctx) => courseLessonIds(ctx).load(c.id),
    }),
    lessons: t.field({
      type: CourseLessonsConnection,
      description: 'The lessons, in course order. Forward pagination: first (1-100, default 20) and after.',
      args: { first: t.arg.int(), after: t.arg.string() },
      complexity: pageCost(),
      resolve: (course, args, ctx) =>
        // The page is checked before the loader, so that a bad one fails this field, not the whole batch.
        forwardConnection(
          args,
          ({ first, after }) => {
            const { limit } = parsePage({ limit: first }, { limit: 'first', cursor: 'after' });
            const afterPosition = after === undefined ? -1 : decodePositionCursor(after, 'after');
            return courseLessonPages(ctx).load({ courseId: course.id, page: { limit, afterPosition } });
          },
          encodePositionCursor,
        ),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CreateCourseInput = builder.inputType('CreateCourseInput', {
  fields: (t) => ({ title: t.string({ required: true }), summary: t.string() }),
});
const UpdateCourseInput = builder.inputType('UpdateCourseInput', {
  fields: (t) => ({ title: t.string(), summary: t.string() }),
});

builder.queryFields((t) => ({
  course: t.withAuth({ authenticated: true }).field({
    type: Course,
    nullable: true,
    cache: 'never',
    description: 'A course; drafts only for ADMIN. null with a NOT_FOUND error when unknown.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.courses.get({ caller: ctx.viewer(), id }),
  }),
  courses: t.withAuth({ authenticated: true }).connection({
    type: Course,
    cache: 'never',
    description: 'Courses, newest first (drafts only for ADMIN). Forward pagination: first (1-100, default 20) and after.',
    complexity: pageCost(),
    resolve: (_, args, ctx) =>
      keysetConnection(args, (page) => ctx.services.courses.list({ caller: ctx.viewer(), page }), encodeCursor),
  }),
}));

builder.mutationFields((t) => ({
  createCourse: t.withAuth({ admin: true }).field({
    type: Course,
    cache: 'never',
    description: 'ADMIN: create a draft course without lessons.',
    args: { input: t.arg({ type: CreateCourseInput, required: true }) },
    resolve: (_, { input }, ctx) =>
      ctx.services.courses.create({ caller: ctx.viewer(), input: parseWith(createCourseInput, definedInput(input, ['summary']), '') }),
  }),
  updateCourse: t.withAuth({ admin: true }).field({
    type: Course,
    cache: 'never',
    description: 'ADMIN: change title or summary; emits course.updated when the course is published.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCourseInput, required: true }) },
    resolve: (_, { id, input }, ctx) =>
      ctx.services.courses.update({ caller: ctx.viewer(), id, input: parseWith(updateCourseInput, definedInput(input, ['summary']), '') }),
  }),
  setCourseLessons: t.withAuth({ admin: true }).field({
    type: Course,
    cache: 'never',
    description: 'ADMIN: set the lessons and their order (1-500 distinct existing lessons; only published ones in a published course); emits course.updated when published.',
    args: { id: t.arg.id({ required: true }), lessonIds: t.arg.idList({ required: true }) },
    resolve: (_, { id, lessonIds }, ctx) =>
      ctx.services.courses.setLessons({ caller: ctx.viewer(), id, input: parseWith(setCourseLessonsInput, { lessonIds }, '') }),
  }),
  publishCourse: t.withAuth({ admin: true }).field({
    type: Course,
    cache: 'never',
    description: 'ADMIN: publish a draft holding at least one lesson, all published; emits course.published. Publishing twice is a CONFLICT.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.courses.publish({ caller: ctx.viewer(), id }),
  }),
}));
