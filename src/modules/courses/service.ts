// Courses: ordered lists of lessons that ADMINs compose and publish (CONTRACT.md, Courses).
import type { Caller } from '../auth/caller.js';
import { assertAdmin } from '../auth/roles.js';
import type { Db } from '../../db/client.js';
import { AppError, assertPrecondition, badInput, conflict, notFound, type Precondition } from '../../errors.js';
import { Prisma, type Course } from '../../generated/prisma/client.js';
import { keysetPage, keysetSeek, type PageRequest } from '../../db/keyset.js';
import { newId, lookupId } from '../../ids.js';
import type { Write } from '../events/write.js';
import { afterCourseLessonsChanged } from '../enrollments/progress.js';
import type { CreateCourseInput, SetCourseLessonsInput, UpdateCourseInput } from './inputs.js';
import type { LessonPageRequest, PlacedLesson } from './lesson-pages.js';
import { toCourseView, type CourseView, type CourseWithLessons } from './views.js';

type Expected = Precondition<CourseView> | undefined;

/** The ids of a course's lessons in course order, as Prisma reads them beside a course. */
const lessonIdsInOrder = { lessons: { select: { lessonId: true }, orderBy: { position: 'asc' as const } } };
const withLessonIds = ({ lessons, ...course }: Course & { lessons: { lessonId: string }[] }): CourseWithLessons => ({
  ...course,
  lessonIds: lessons.map((l) => l.lessonId),
});

/**
 * Locks a course for a change: the course as it is under the lock (with its lessons), and the time
 * to stamp the change with (null when there is no such course). Changes of one course (edits, its
 * lesson list, publishing, and enrolments, which lock it FOR SHARE) apply in the order they get
 * this lock, so the time is taken once it is held, and never before the course's `updatedAt`
 * (another instance's clock may be ahead): `updatedAt` then follows the order of the changes.
 */
async function lockForChange(tx: Prisma.TransactionClient, id: string): Promise<{ course: CourseWithLessons; now: Date } | null> {
  const [course] = await tx.$queryRaw<Course[]>`
    SELECT id, title, summary, status, "authorId", "createdAt", "publishedAt", "updatedAt"
    FROM "Course" WHERE id = ${lookupId('Course', id)} FOR NO KEY UPDATE`;
  if (!course) return null;
  const lessons = await tx.courseLesson.findMany({ where: { courseId: id }, select: { lessonId: true }, orderBy: { position: 'asc' } });
  return { course: withLessonIds({ ...course, lessons }), now: new Date(Math.max(Date.now(), course.updatedAt.getTime())) };
}

export function createCourseService({ db, write }: { db: Db; write: Write }) {
  /** Only ADMIN sees drafts; to anyone else a draft does not exist. */
  const visibleTo = (caller: Caller): Prisma.CourseWhereInput => (caller.role === 'ADMIN' ? {} : { status: 'PUBLISHED' });

  /** The locked course (see lockForChange), once it is known to exist and to match `expected`. */
  async function lockExpected(tx: Prisma.TransactionClient, id: string, expected: Expected) {
    const locked = await lockForChange(tx, id);
    if (!locked) throw notFound(`Course ${id}`);
    if (expected) assertPrecondition(expected, toCourseView(locked.course));
    return locked;
  }

  /** Each course's lesson ids in course order, in one statement. */
  async function lessonIdsOf({ courseIds }: { courseIds: readonly string[] }): Promise<Map<string, string[]>> {
    const byCourse = new Map(courseIds.map((id) => [id, [] as string[]]));
    if (courseIds.length === 0) return byCourse;
    const rows = await db.courseLesson.findMany({
      where: { courseId: { in: [...courseIds] } },
      select: { courseId: true, lessonId: true },
      orderBy: [{ courseId: 'asc' }, { position: 'asc' }],
    });
    for (const row of rows) byCourse.get(row.courseId)?.push(row.lessonId);
    return byCourse;
  }

  /** Newest first, keyset-paginated. */
  async function list({ caller, page }: { caller: Caller; page: PageRequest }) {
    const { limit, seek, orderBy, take } = keysetSeek(page);
    const rows = await db.course.findMany({ where: { ...visibleTo(caller), ...seek }, orderBy, take });
    return keysetPage(rows, limit);
  }

  return {
    lessonIdsOf,
    list,

    async get({ caller, id }: { caller: Caller; id: string }): Promise<CourseWithLessons> {
      const course = await db.course.findFirst({ where: { id: lookupId('Course', id), ...visibleTo(caller) }, include: lessonIdsInOrder });
      if (!course) throw notFound(`Course ${id}`);
      return withLessonIds(course);
    },

    /** `list`, each course with its lesson ids (one more statement for the whole page). */
    async listWithLessonIds({ caller, page }: { caller: Caller; page: PageRequest }) {
      const { items, nextCursor } = await list({ caller, page });
      const ids = await lessonIdsOf({ courseIds: items.map((c) => c.id) });
      return { items: items.map((c): CourseWithLessons => ({ ...c, lessonIds: ids.get(c.id)! })), nextCursor };
    },

    /**
     * The same page of lessons, in course order, of each of many courses, in one SQL statement:
     * what GraphQL's `Course.lessons` needs for every course of a response. The caller could see
     * the courses, and what a course holds is visible to whoever sees the course (a published
     * course holds only published lessons). Unknown courses get an empty page.
     */
    async lessonPages({ courseIds, page: { limit, afterPosition } }: { courseIds: readonly string[]; page: LessonPageRequest }) {
      const pages = new Map(courseIds.map((id) => [id, { items: [] as PlacedLesson[], hasMore: false }]));
      if (courseIds.length === 0) return pages;
      // Positions have no gaps, so the page and the one row past it (which tells whether there is
      // a next page) are the positions up to afterPosition + limit + 1.
      const rows = await db.$queryRaw<(PlacedLesson & { courseId: string })[]>`
        SELECT cl."courseId", cl.position, l.id, l.title, l.summary, l.body, l.status, l."authorId", l."createdAt", l."publishedAt", l."updatedAt"
        FROM "CourseLesson" cl JOIN "Lesson" l ON l.id = cl."lessonId"
        WHERE cl."courseId" = ANY (${[...courseIds]}::text[]) AND cl.position > ${afterPosition} AND cl.position <= ${afterPosition + limit + 1}
        ORDER BY cl."courseId", cl.position`;
      for (const { courseId, ...lesson } of rows) pages.get(courseId)?.items.push(lesson);
      for (const page of pages.values()) {
        page.hasMore = page.items.length > limit;
        page.items.length = Math.min(page.items.length, limit);
      }
      return pages;
    },

    /** ADMIN: a new draft without lessons, and its stats row (zeros) in the same transaction. Emits nothing. */
    async create({ caller, input }: { caller: Caller; input: CreateCourseInput }): Promise<CourseWithLessons> {
      assertAdmin(caller);
      const now = new Date();
      const course = await db.course.create({
        data: {
          id: newId('crs'), title: input.title, summary: input.summary ?? null, authorId: caller.userId,
          createdAt: now, updatedAt: now, stats: { create: {} },
        },
      });
      return { ...course, lessonIds: [] };
    },

    /** ADMIN: changes title or summary; emits course.updated when the course is published. */
    async update({ caller, id, input, expected }: { caller: Caller; id: string; input: UpdateCourseInput; expected?: Expected }): Promise<CourseWithLessons> {
      assertAdmin(caller);
      return write(async (tx, record) => {
        const { course, now } = await lockExpected(tx, id, expected);
        const updated = await tx.course.update({ where: { id: course.id }, data: { ...input, updatedAt: now } });
        // A draft is nobody's news; its publication is (course.published).
        if (updated.status === 'PUBLISHED') await record('course.updated', { courseId: course.id });
        return { ...updated, lessonIds: course.lessonIds };
      });
    },

    /**
     * ADMIN: replaces the course's lessons and their order. Every lesson must exist; a published
     * course holds only published lessons. The enrolments' progress follows in the same
     * transaction (afterCourseLessonsChanged). Emits course.updated when the course is published.
     */
    async setLessons({ caller, id, input, expected }: { caller: Caller; id: string; input: SetCourseLessonsInput; expected?: Expected }): Promise<CourseWithLessons> {
      assertAdmin(caller);
      const { lessonIds } = input;
      return write(async (tx, record) => {
        const { course, now } = await lockExpected(tx, id, expected);
        const found = await tx.lesson.findMany({ where: { id: { in: lessonIds } }, select: { id: true, status: true } });
        const status = new Map(found.map((l) => [l.id, l.status]));
        lessonIds.forEach((lessonId, i) => {
          if (!status.has(lessonId)) throw badInput(`lessonIds.${i}`, `Lesson ${lessonId} not found`);
        });
        if (course.status === 'PUBLISHED') {
          lessonIds.forEach((lessonId, i) => {
            if (status.get(lessonId) !== 'PUBLISHED') throw badInput(`lessonIds.${i}`, `lesson ${lessonId} is a draft; a published course holds only published lessons`);
          });
        }
        // Two statements whatever the list: the lessons dropped are deleted, the others written
        // with their new position (the rows of lessons that stay are updated in place).
        await tx.$executeRaw`DELETE FROM "CourseLesson" WHERE "courseId" = ${course.id} AND NOT ("lessonId" = ANY (${lessonIds}::text[]))`;
        await tx.$executeRaw`
          INSERT INTO "CourseLesson" ("courseId", "lessonId", position)
          SELECT ${course.id}, t.id, t.n - 1 FROM unnest(${lessonIds}::text[]) WITH ORDINALITY AS t(id, n)
          ON CONFLICT ("courseId", "lessonId") DO UPDATE SET position = EXCLUDED.position`;
        const updated = await tx.course.update({ where: { id: course.id }, data: { updatedAt: now } });
        await afterCourseLessonsChanged(tx, record, course.id, now);
        if (updated.status === 'PUBLISHED') await record('course.updated', { courseId: course.id });
        return { ...updated, lessonIds: [...lessonIds] };
      });
    },

    /** ADMIN: publishes a draft that has lessons, all published; emits course.published. Twice is a 409. */
    async publish({ caller, id, expected }: { caller: Caller; id: string; expected?: Expected }): Promise<CourseWithLessons> {
      assertAdmin(caller);
      return write(async (tx, record) => {
        const { course, now } = await lockExpected(tx, id, expected);
        // Read under the lock: of two concurrent publishes, the second sees the first's and refuses.
        if (course.status !== 'DRAFT') throw conflict(`Course ${id} is already published`);
        if (course.lessonIds.length === 0) throw new AppError('BAD_USER_INPUT', `Course ${id} has no lessons: give it at least one before publishing`);
        // Lessons are never unpublished, so what is published now stays published.
        const drafts = new Set((await tx.lesson.findMany({ where: { id: { in: course.lessonIds }, status: 'DRAFT' }, select: { id: true } })).map((l) => l.id));
        const draft = course.lessonIds.find((lessonId) => drafts.has(lessonId));
        if (draft) throw new AppError('BAD_USER_INPUT', `Course ${id} holds draft lesson ${draft}: publish it first`);
        const published = await tx.course.update({ where: { id: course.id }, data: { status: 'PUBLISHED', publishedAt: now, updatedAt: now } });
        await record('course.published', { courseId: course.id });
        return { ...published, lessonIds: course.lessonIds };
      });
    },
  };
}

export type CourseService = ReturnType<typeof createCourseService>;
