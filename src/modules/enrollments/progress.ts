// The counters of a course (CourseStats, CourseLesson.completed) and completion, kept in the
// transaction of every change that moves them, so that they always equal a count over the rows.
//
// The locks, and why each one:
// - The learner's lock (learnerLock, an advisory transaction lock per user): enrolling, leaving and
//   completing a lesson by one learner run one at a time. A completion must see the learner's
//   enrollment and an enrolment the learner's completions; the first enrolment is an insert, which
//   a concurrent completion cannot see nor wait for, so no row lock can order the two.
// - The course's row: enrolling, leaving and completing lock FOR SHARE the courses whose counters
//   they move (completing: every course the learner is enrolled in, since a course may be gaining
//   the lesson right now); changing a course's lessons locks it FOR NO KEY UPDATE (or stronger).
//   Of the two, the later waits for the earlier to commit, and its next statement sees what the
//   earlier wrote: the recount sees the completion, or the completion sees the new lesson.
// - Course locks are taken in course id order, within a course the CourseLesson rows (in lesson id
//   order) before CourseStats, so that two learners' changes never wait for each other in a cycle.
// Completing an enrollment needs no lock of its own: every change that could complete it holds the
// learner's lock or the course's exclusive lock, so its count is taken with nothing moving under it.
import { Prisma } from '../../generated/prisma/client.js';
import { ownedBy } from '../events/audience.js';
import type { Record } from '../events/write.js';
import { progressOfEnrollment } from './reads.js';

/** The first key of the learners' advisory locks ("lslearn"); the second is the user id's hash. */
const LEARNER_LOCK = 0x6c736c65;

/** Takes the learner's lock until the transaction ends (see the header). */
export async function learnerLock(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${LEARNER_LOCK}::int, hashtext(${userId}))::text AS locked`;
}

/** Adds to a course's counters, creating its row on first use. */
export async function bumpStats(tx: Prisma.TransactionClient, courseId: string, enrolled: number, completed: number): Promise<void> {
  if (enrolled === 0 && completed === 0) return;
  await tx.$executeRaw`
    INSERT INTO "CourseStats" ("courseId", enrolled, completed) VALUES (${courseId}, ${enrolled}, ${completed})
    ON CONFLICT ("courseId") DO UPDATE
    SET enrolled = "CourseStats".enrolled + EXCLUDED.enrolled, completed = "CourseStats".completed + EXCLUDED.completed`;
}

/**
 * Moves by `delta` (+1 on enrolling, -1 on leaving) the `completed` counter of each of the course's
 * lessons the learner has completed; the number of those lessons, and of the course's lessons.
 */
export async function countLearnerIn(tx: Prisma.TransactionClient, courseId: string, userId: string, delta: 1 | -1) {
  // The rows are locked in lesson id order (the sub-select's ORDER BY … FOR NO KEY UPDATE): a
  // plain multi-row UPDATE locks them in the order it meets them in the table, which moves as they
  // are rewritten, so two learners enrolling at once could each hold a row the other waits for.
  const moved = await tx.$executeRaw`
    UPDATE "CourseLesson" cl SET completed = cl.completed + ${delta}::int
    FROM (
      SELECT c."courseId", c."lessonId" FROM "CourseLesson" c
      WHERE c."courseId" = ${courseId}
        AND EXISTS (SELECT 1 FROM "LessonCompletion" lc WHERE lc."userId" = ${userId} AND lc."lessonId" = c."lessonId")
      ORDER BY c."lessonId" FOR NO KEY UPDATE
    ) AS mine
    WHERE cl."courseId" = mine."courseId" AND cl."lessonId" = mine."lessonId"`;
  const [lessons] = await tx.$queryRaw<{ total: number }[]>`
    SELECT count(*)::int AS total FROM "CourseLesson" WHERE "courseId" = ${courseId}`;
  return { completed: moved, total: lessons!.total };
}

/** The learner's progress in a course: their completed lessons of it, and its lessons. */
export async function progressOf(tx: Prisma.TransactionClient, courseId: string, userId: string) {
  const [progress] = await tx.$queryRaw<{ completed: number; total: number }[]>`
    SELECT p.completed, p.total FROM (SELECT ${courseId}::text AS "courseId", ${userId}::text AS "userId") AS e
    CROSS JOIN LATERAL (${progressOfEnrollment}) AS p`;
  return progress!;
}

/**
 * After a course's lessons were set (its row locked FOR NO KEY UPDATE or stronger, the new
 * CourseLesson rows written): recounts each lesson's `completed` over the enrolled learners, and in
 * a published course completes the enrollments whose learners now have every lesson completed
 * (`course.completed` for each). Completion is final: an enrollment completed before stays so.
 */
export async function afterCourseLessonsChanged(tx: Prisma.TransactionClient, record: Record, courseId: string, now: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE "CourseLesson" cl SET completed = counted.n
    FROM (
      SELECT c."lessonId", count(e."userId")::int AS n
      FROM "CourseLesson" c
      LEFT JOIN "LessonCompletion" lc ON lc."lessonId" = c."lessonId"
      LEFT JOIN "Enrollment" e ON e."courseId" = c."courseId" AND e."userId" = lc."userId" AND e."leftAt" IS NULL
      WHERE c."courseId" = ${courseId}
      GROUP BY c."lessonId"
    ) AS counted
    WHERE cl."courseId" = ${courseId} AND cl."lessonId" = counted."lessonId" AND cl.completed <> counted.n`;

  const [course] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text FROM "Course" WHERE id = ${courseId}`;
  if (course?.status !== 'PUBLISHED') return;
  const completed = await tx.$queryRaw<{ userId: string }[]>`
    WITH total AS (SELECT count(*)::int AS n FROM "CourseLesson" WHERE "courseId" = ${courseId})
    UPDATE "Enrollment" e SET "completedAt" = ${now.toISOString()}::timestamptz
    FROM total
    WHERE e."courseId" = ${courseId} AND e."leftAt" IS NULL AND e."completedAt" IS NULL AND total.n > 0
      AND (SELECT count(*) FROM "CourseLesson" cl
           JOIN "LessonCompletion" lc ON lc."lessonId" = cl."lessonId" AND lc."userId" = e."userId"
           WHERE cl."courseId" = ${courseId}) = total.n
    RETURNING e."userId"`;
  if (completed.length === 0) return;
  await bumpStats(tx, courseId, 0, completed.length);
  for (const { userId } of completed.sort((a, b) => (a.userId < b.userId ? -1 : 1))) {
    await record('course.completed', { courseId, userId }, ownedBy(userId));
  }
}
