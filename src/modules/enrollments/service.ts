// Enrollments, lesson completions, progress and course stats (CONTRACT.md, Courses). The counters
// and the locks that keep them exact are described in progress.ts.
import type { Caller } from '../auth/caller.js';
import { assertAdmin } from '../auth/roles.js';
import type { Db } from '../../db/client.js';
import { badInput, notFound } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { PageRequest } from '../../db/keyset.js';
import { lookupId } from '../../ids.js';
import { ownedBy } from '../events/audience.js';
import type { Write } from '../events/write.js';
import { bumpStats, countLearnerIn, learnerLock, progressOf } from './progress.js';
import { createEnrollmentReads } from './reads.js';
import type { CompletionRow, EnrollmentRow } from './views.js';

interface EnrollmentState {
  enrolledAt: Date;
  completedAt: Date | null;
  leftAt: Date | null;
}

/**
 * Locks the course FOR SHARE (see progress.ts) and checks that the caller may enrol in it: a
 * published course. A draft is not found to anyone but an ADMIN, who is told it is a draft.
 */
async function lockPublishedCourse(tx: Prisma.TransactionClient, caller: Caller, courseId: string): Promise<void> {
  const [course] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text FROM "Course" WHERE id = ${courseId} FOR SHARE`;
  if (!course || (course.status !== 'PUBLISHED' && caller.role !== 'ADMIN')) throw notFound(`Course ${courseId}`);
  if (course.status !== 'PUBLISHED') throw badInput('id', `Course ${courseId} is a draft: only a published course takes enrollments`);
}

const enrollmentOf = (tx: Prisma.TransactionClient, courseId: string, userId: string) =>
  tx.enrollment.findUnique({ where: { courseId_userId: { courseId, userId } }, select: { enrolledAt: true, completedAt: true, leftAt: true } }) as Promise<EnrollmentState | null>;

/** Whether the caller may read a user's enrollments: their own, or anyone's for an ADMIN (FORBIDDEN otherwise). */
function assertMayRead({ caller, userId }: { caller: Caller; userId: string }): void {
  if (userId !== caller.userId) assertAdmin(caller);
}

export function createEnrollmentService({ db, write }: { db: Db; write: Write }) {
  const reads = createEnrollmentReads(db);

  return {
    /**
     * The caller enrols in a published course. `created`: false when already enrolled (nothing
     * changes). Enrolling counts the learner's completed lessons of the course into its counters and
     * completes the enrollment at once when they are all completed; emits enrollment.created the
     * first time only.
     */
    async enroll({ caller, courseId }: { caller: Caller; courseId: string }): Promise<{ enrollment: EnrollmentRow; created: boolean }> {
      const id = lookupId('Course', courseId);
      const { userId } = caller;
      return write(async (tx, record) => {
        await learnerLock(tx, userId);
        await lockPublishedCourse(tx, caller, id);
        const existing = await enrollmentOf(tx, id, userId);
        if (existing && existing.leftAt === null) {
          const progress = await progressOf(tx, id, userId);
          return { enrollment: { courseId: id, userId, enrolledAt: existing.enrolledAt, completedAt: existing.completedAt, progress }, created: false };
        }
        // A new enrolledAt, after the one before even if the clock is behind.
        const now = new Date(Math.max(Date.now(), (existing?.enrolledAt.getTime() ?? 0) + 1));
        const progress = await countLearnerIn(tx, id, userId, 1);
        const completesNow = !existing?.completedAt && progress.total > 0 && progress.completed === progress.total;
        const completedAt = completesNow ? now : (existing?.completedAt ?? null);
        if (existing) {
          await tx.enrollment.update({ where: { courseId_userId: { courseId: id, userId } }, data: { enrolledAt: now, leftAt: null, completedAt } });
        } else {
          await tx.enrollment.create({ data: { courseId: id, userId, enrolledAt: now, completedAt } });
          await record('enrollment.created', { courseId: id, userId }, ownedBy(userId));
        }
        if (completesNow) await record('course.completed', { courseId: id, userId }, ownedBy(userId));
        await bumpStats(tx, id, 1, completedAt ? 1 : 0);
        return { enrollment: { courseId: id, userId, enrolledAt: now, completedAt, progress }, created: true };
      });
    },

    /** The caller leaves a course: undoes what enrolling added to its counters. Completions stay. */
    async leave({ caller, courseId }: { caller: Caller; courseId: string }): Promise<void> {
      const id = lookupId('Course', courseId);
      const { userId } = caller;
      await write(async (tx) => {
        await learnerLock(tx, userId);
        const [course] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Course" WHERE id = ${id} FOR SHARE`;
        const existing = course ? await enrollmentOf(tx, id, userId) : null;
        if (!existing || existing.leftAt !== null) throw notFound(`Enrollment in course ${courseId}`);
        await countLearnerIn(tx, id, userId, -1);
        await tx.enrollment.update({ where: { courseId_userId: { courseId: id, userId } }, data: { leftAt: new Date() } });
        await bumpStats(tx, id, -1, existing.completedAt ? -1 : 0);
      });
    },

    /**
     * The caller completes a published lesson (a draft: not found, but for an ADMIN, who is told it
     * is a draft). The first time: lesson.completed, the lesson's counter in every course holding it
     * that the learner is enrolled in, and each such enrollment completed if this was its last
     * lesson (course.completed). Again: the first completion, and nothing changes.
     */
    async completeLesson({ caller, lessonId }: { caller: Caller; lessonId: string }): Promise<CompletionRow> {
      const id = lookupId('Lesson', lessonId);
      const { userId } = caller;
      return write(async (tx, record) => {
        const lesson = await tx.lesson.findUnique({ where: { id }, select: { status: true } });
        if (!lesson || (lesson.status !== 'PUBLISHED' && caller.role !== 'ADMIN')) throw notFound(`Lesson ${lessonId}`);
        if (lesson.status !== 'PUBLISHED') throw badInput('id', `Lesson ${lessonId} is a draft: only a published lesson can be completed`);
        await learnerLock(tx, userId);
        const now = new Date();
        const [inserted] = await tx.$queryRaw<CompletionRow[]>`
          INSERT INTO "LessonCompletion" ("userId", "lessonId", "completedAt") VALUES (${userId}, ${id}, ${now.toISOString()}::timestamptz)
          ON CONFLICT ("userId", "lessonId") DO NOTHING
          RETURNING "lessonId", "userId", "completedAt"`;
        if (!inserted) return (await tx.lessonCompletion.findUnique({ where: { userId_lessonId: { userId, lessonId: id } } }))!;
        await record('lesson.completed', { lessonId: id, userId }, ownedBy(userId));
        // Every course the learner is enrolled in, not only those holding the lesson now: one may be
        // gaining it in a transaction not yet committed (progress.ts).
        await tx.$queryRaw`
          SELECT c.id FROM "Course" c JOIN "Enrollment" e ON e."courseId" = c.id
          WHERE e."userId" = ${userId} AND e."leftAt" IS NULL ORDER BY c.id FOR SHARE OF c`;
        const holding = await tx.$queryRaw<{ courseId: string; completedAt: Date | null; status: string }[]>`
          SELECT cl."courseId", e."completedAt", c.status::text
          FROM "CourseLesson" cl
          JOIN "Enrollment" e ON e."courseId" = cl."courseId" AND e."userId" = ${userId} AND e."leftAt" IS NULL
          JOIN "Course" c ON c.id = cl."courseId"
          WHERE cl."lessonId" = ${id} ORDER BY cl."courseId"`;
        const completes: string[] = [];
        for (const course of holding) {
          if (course.completedAt || course.status !== 'PUBLISHED') continue;
          const progress = await progressOf(tx, course.courseId, userId);
          if (progress.completed < progress.total) continue;
          await tx.enrollment.update({ where: { courseId_userId: { courseId: course.courseId, userId } }, data: { completedAt: now } });
          await record('course.completed', { courseId: course.courseId, userId }, ownedBy(userId));
          completes.push(course.courseId);
        }
        // The counters last: every learner completing this lesson waits for its counter row, so
        // it is locked for the fewest statements before the commit (in course order, lesson first).
        for (const course of holding) {
          await tx.$executeRaw`UPDATE "CourseLesson" SET completed = completed + 1 WHERE "courseId" = ${course.courseId} AND "lessonId" = ${id}`;
          if (completes.includes(course.courseId)) await bumpStats(tx, course.courseId, 0, 1);
        }
        return inserted;
      });
    },

    listMine: ({ caller, page }: { caller: Caller; page: PageRequest }) => reads.ofUser({ userId: caller.userId, page }),

    assertMayRead,

    /** The same page of each of these users' enrollments (see assertMayRead). */
    enrollmentsOfUsers({ caller, userIds, page }: { caller: Caller; userIds: readonly string[]; page: PageRequest }) {
      for (const userId of userIds) assertMayRead({ caller, userId });
      return reads.ofUsers({ userIds, page });
    },

    /** ADMIN: a course's current enrollments, newest first. */
    async listOfCourse({ caller, courseId, page }: { caller: Caller; courseId: string; page: PageRequest }) {
      assertAdmin(caller);
      const id = lookupId('Course', courseId);
      const [course, enrollments] = await Promise.all([db.course.findUnique({ where: { id }, select: { id: true } }), reads.ofCourse({ courseId: id, page })]);
      if (!course) throw notFound(`Course ${courseId}`);
      return enrollments;
    },

    /** The caller's current enrollment in each of these courses (absent: none). */
    viewerEnrollments: ({ caller, courseIds }: { caller: Caller; courseIds: readonly string[] }) => reads.inCourses({ userId: caller.userId, courseIds }),

    /** When the caller completed each of these lessons (absent: not completed). */
    viewerCompletions: ({ caller, lessonIds }: { caller: Caller; lessonIds: readonly string[] }) => reads.completions({ userId: caller.userId, lessonIds }),

    /** Courses by id, for the enrollments that name them. */
    courses: reads.courses,

    /** ADMIN: a course's stats (drafts too), from its counters. */
    async stats({ caller, courseId }: { caller: Caller; courseId: string }) {
      assertAdmin(caller);
      const stats = await reads.stats(lookupId('Course', courseId));
      if (!stats) throw notFound(`Course ${courseId}`);
      return stats;
    },
  };
}

export type EnrollmentService = ReturnType<typeof createEnrollmentService>;
