// Enrollments and completions in the graph: the Enrollment type, the viewer's enrollment of a
// course and completion of a lesson, a user's enrollments, course stats, and the mutations.
import { dataloaderGetter } from '@pothos/plugin-dataloader';
import { builder, type GraphQLContext } from '../../graphql/builder.js';
import { keysetConnection, pageCost } from '../../graphql/connection.js';
import { keysetPageKey, loadSamePages } from '../../graphql/page-batches.js';
import type { PageRequest } from '../../db/keyset.js';
import { Course } from '../courses/schema.js';
import { Lesson } from '../lessons/schema.js';
import { PublicUser } from '../users/schema.js';
import { enrollmentCursor, type EnrollmentPage } from './reads.js';
import { completionRate, type CompletionRow, type CourseStatsRow, type EnrollmentRow } from './views.js';

const Progress = builder.objectRef<EnrollmentRow['progress']>('EnrollmentProgress').implement({
  fields: (t) => ({
    completed: t.exposeInt('completed', { description: 'How many of the course\'s lessons the learner has completed (whenever, even before enrolling)' }),
    total: t.exposeInt('total', { description: 'How many lessons the course has now' }),
  }),
});

export const Enrollment = builder.objectRef<EnrollmentRow>('Enrollment').implement({
  description: 'A learner enrolled in a course now, with their progress.',
  fields: (t) => ({
    courseId: t.exposeID('courseId'),
    // One query for every course the response's enrollments name.
    course: t.loadable({
      type: Course,
      load: async (ids: string[], ctx: GraphQLContext) => {
        const rows = await ctx.services.enrollments.courses({ ids });
        return ids.map((id) => rows.get(id) ?? new Error(`Course ${id} not found`));
      },
      resolve: (e) => e.courseId,
    }),
    userId: t.exposeID('userId'),
    enrolledAt: t.expose('enrolledAt', { type: 'DateTime', description: 'The latest time the learner enrolled' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When the learner completed the course (final); null until then' }),
    progress: t.field({ type: Progress, resolve: (e) => e.progress }),
  }),
});

const LessonCompletion = builder.objectRef<CompletionRow>('LessonCompletion').implement({
  fields: (t) => ({
    lessonId: t.exposeID('lessonId'),
    userId: t.exposeID('userId'),
    completedAt: t.expose('completedAt', { type: 'DateTime', description: 'The first completion' }),
  }),
});

const CourseLessonStats = builder.objectRef<CourseStatsRow['lessons'][number]>('CourseLessonStats').implement({
  fields: (t) => ({
    lessonId: t.exposeID('lessonId'),
    completed: t.exposeInt('completed', { description: 'Enrolled learners who completed the lesson' }),
  }),
});

const CourseStats = builder.objectRef<CourseStatsRow>('CourseStats').implement({
  fields: (t) => ({
    enrolled: t.exposeInt('enrolled', { description: 'Learners enrolled now' }),
    completed: t.exposeInt('completed', { description: 'Of them, those whose enrollment is completed' }),
    completionRate: t.float({ description: 'completed ÷ enrolled, from 0 to 1; 0 when nobody is enrolled', resolve: (s) => completionRate(s) }),
    lessons: t.field({ type: [CourseLessonStats], description: 'The course\'s lessons, in course order', resolve: (s) => s.lessons }),
  }),
});

/** The viewer's enrollment of every course of a response, in one statement. */
const viewerEnrollments = dataloaderGetter<string, EnrollmentRow | null, string>(
  undefined,
  // Pothos types a loader's context as any schema's; it is the request context the resolver passes in.
  async (courseIds, ctx) => {
    const c = ctx as GraphQLContext;
    const found = await c.services.enrollments.viewerEnrollments({ caller: c.viewer()!, courseIds });
    return courseIds.map((id) => found.get(id) ?? null);
  },
  undefined,
  false,
);

/** The viewer's completion of every lesson of a response, in one statement. */
const viewerCompletions = dataloaderGetter<string, Date | null, string>(
  undefined,
  async (lessonIds, ctx) => {
    const c = ctx as GraphQLContext;
    const found = await c.services.enrollments.viewerCompletions({ caller: c.viewer()!, lessonIds });
    return lessonIds.map((id) => found.get(id) ?? null);
  },
  undefined,
  false,
);

builder.objectField(Course, 'viewerEnrollment', (t) =>
  t.field({
    type: Enrollment,
    nullable: true,
    authScopes: { authenticated: true },
    cache: 'never',
    description: 'The caller\'s enrollment in the course; null when not enrolled.',
    resolve: (course, _, ctx) => viewerEnrollments(ctx).load(course.id),
  }),
);

builder.objectField(Lesson, 'viewerCompletedAt', (t) =>
  t.field({
    type: 'DateTime',
    nullable: true,
    authScopes: { authenticated: true },
    cache: 'never',
    description: 'When the caller completed the lesson; null when not completed.',
    resolve: (lesson, _, ctx) => viewerCompletions(ctx).load(lesson.id),
  }),
);

const UserEnrollmentsConnection = builder.connectionObject(
  { type: Enrollment, name: 'UserEnrollmentsConnection' },
  { name: 'UserEnrollmentsConnectionEdge' },
);

type UserPageKey = { userId: string; page: PageRequest };

/** Every user's `enrollments` of a response: the keys asking for the same page share one statement. */
const userEnrollmentPages = dataloaderGetter<UserPageKey, EnrollmentPage, string>(
  { cacheKeyFn: ({ userId, page }) => JSON.stringify([userId, keysetPageKey(page)]) },
  (keys, ctx) => loadUserPages(keys, ctx as GraphQLContext),
  undefined,
  false,
);

const loadUserPages = (keys: readonly UserPageKey[], ctx: GraphQLContext) =>
  loadSamePages(keys, {
    pageKey: keysetPageKey,
    ownerOf: (key) => key.userId,
    load: (userIds, page) => ctx.services.enrollments.enrollmentsOfUsers({ caller: ctx.viewer()!, userIds, page }),
  });

builder.objectField(PublicUser, 'enrollments', (t) =>
  t.field({
    type: UserEnrollmentsConnection,
    authScopes: { authenticated: true },
    cache: 'never',
    description: 'The user\'s current enrollments with progress, newest first: the caller\'s own, or anyone\'s for an ADMIN (FORBIDDEN otherwise). Forward pagination: first (1-100, default 20) and after.',
    args: { first: t.arg.int(), after: t.arg.string() },
    complexity: pageCost(),
    resolve: (user, args, ctx) => {
      const viewer = ctx.viewer()!;
      // Checked here, not in the batch: another user's list fails this field alone.
      ctx.services.enrollments.assertMayRead({ caller: viewer, userId: user.id });
      return keysetConnection(args, (page) => userEnrollmentPages(ctx).load({ userId: user.id, page }), (e) => enrollmentCursor(e, 'courseId'));
    },
  }),
);

builder.queryFields((t) => ({
  courseStats: t.withAuth({ admin: true }).field({
    type: CourseStats,
    cache: 'never',
    description: 'ADMIN: a course\'s enrolled learners, completions, completion rate and per-lesson completions (as GET /api/v1/courses/{id}/stats), read from counters: its cost does not grow with enrollments. null with a NOT_FOUND error when unknown.',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.enrollments.stats({ caller: ctx.viewer(), courseId: id }),
  }),
}));

builder.mutationFields((t) => ({
  enroll: t.withAuth({ authenticated: true }).field({
    type: Enrollment,
    cache: 'never',
    description: 'The caller enrols in a published course (idempotent: when already enrolled, the same enrollment). Emits enrollment.created the first time ever, and course.completed if every lesson is already completed.',
    args: { courseId: t.arg.id({ required: true }) },
    resolve: async (_, { courseId }, ctx) => (await ctx.services.enrollments.enroll({ caller: ctx.viewer(), courseId })).enrollment,
  }),
  unenroll: t.withAuth({ authenticated: true }).boolean({
    cache: 'never',
    description: 'The caller leaves a course (true); their lesson completions stay. NOT_FOUND when not enrolled.',
    args: { courseId: t.arg.id({ required: true }) },
    resolve: async (_, { courseId }, ctx) => {
      await ctx.services.enrollments.leave({ caller: ctx.viewer(), courseId });
      return true;
    },
  }),
  completeLesson: t.withAuth({ authenticated: true }).field({
    type: LessonCompletion,
    cache: 'never',
    description: 'The caller completes a published lesson (idempotent: again, the first completion and no event). Emits lesson.completed once, and course.completed for each enrolled course it completes.',
    args: { lessonId: t.arg.id({ required: true }) },
    resolve: (_, { lessonId }, ctx) => ctx.services.enrollments.completeLesson({ caller: ctx.viewer(), lessonId }),
  }),
}));
