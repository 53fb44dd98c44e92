// The enrollments' reads: pages of enrollments with progress, the viewer's enrollments and
// completions for a batch of courses or lessons, and a course's stats. Each is one SQL statement.
import type { Db } from '../../db/client.js';
import { encodeCursor, type PageRequest } from '../../db/keyset.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { CourseStatsRow, EnrollmentRow } from './views.js';

/** A page of enrollments and the cursor of the next one. */
export interface EnrollmentPage {
  items: EnrollmentRow[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** What a list of enrollments is ordered by after enrolledAt: the column that varies in it. */
type Tiebreak = 'courseId' | 'userId';

interface Row {
  courseId: string;
  userId: string;
  enrolledAt: Date;
  completedAt: Date | null;
  completed: number;
  total: number;
}

const toRow = ({ completed, total, ...e }: Row): EnrollmentRow => ({ ...e, progress: { completed, total } });

/** The cursor of an enrollment in a list ordered by (enrolledAt, tiebreak), newest first. */
export const enrollmentCursor = (e: EnrollmentRow, tiebreak: Tiebreak) => encodeCursor({ createdAt: e.enrolledAt, id: e[tiebreak] });

/**
 * The learner's progress in each enrollment of `enrollments` (a subquery of Enrollment rows as
 * `e`): the course's lessons now, and of them those the learner has completed, whenever.
 */
/**
 * The progress of enrollment `e`: one lookup of the learner's completion per lesson of the course.
 * A join lets PostgreSQL read all of the learner's completions (thousands, for a learner of many
 * courses) and hash them, where the course's lessons are a few.
 */
export const progressOfEnrollment = Prisma.sql`
  SELECT (count(*) FILTER (WHERE EXISTS (
            SELECT 1 FROM "LessonCompletion" lc WHERE lc."userId" = e."userId" AND lc."lessonId" = cl."lessonId")))::int AS completed,
         count(*)::int AS total
  FROM "CourseLesson" cl WHERE cl."courseId" = e."courseId"`;

const withProgress = (enrollments: Prisma.Sql, order: Prisma.Sql) => Prisma.sql`
  SELECT e."courseId", e."userId", e."enrolledAt", e."completedAt", p.completed, p.total
  FROM (${enrollments}) AS e
  CROSS JOIN LATERAL (${progressOfEnrollment}) AS p
  ${order}`;

function pageOf(rows: Row[], limit: number, tiebreak: Tiebreak): EnrollmentPage {
  const hasMore = rows.length > limit;
  const items = rows.slice(0, limit).map(toRow);
  return { items, hasMore, nextCursor: hasMore ? enrollmentCursor(items[items.length - 1]!, tiebreak) : null };
}

export function createEnrollmentReads(db: Db) {
  /**
   * Current enrollments (not left) matching `filter`, newest first by (enrolledAt, tiebreak), one
   * row past the page, with progress: one statement.
   */
  async function page(filter: Prisma.Sql, tiebreak: Tiebreak, { limit, after }: PageRequest): Promise<EnrollmentPage> {
    const key = Prisma.raw(`"${tiebreak}"`);
    // The ISO string with an explicit cast: a Date parameter's time zone is the driver's choice.
    const seek = after ? Prisma.sql`AND ("enrolledAt", ${key}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})` : Prisma.empty;
    const rows = await db.$queryRaw<Row[]>(withProgress(
      Prisma.sql`SELECT * FROM "Enrollment" WHERE ${filter} AND "leftAt" IS NULL ${seek} ORDER BY "enrolledAt" DESC, ${key} DESC LIMIT ${limit + 1}`,
      Prisma.sql`ORDER BY e."enrolledAt" DESC, e.${key} DESC`,
    ));
    return pageOf(rows, limit, tiebreak);
  }

  return {
    /** A learner's current enrollments, newest first. */
    ofUser: ({ userId, page: request }: { userId: string; page: PageRequest }) => page(Prisma.sql`"userId" = ${userId}`, 'courseId', request),

    /** A course's current enrollments, newest first. */
    ofCourse: ({ courseId, page: request }: { courseId: string; page: PageRequest }) => page(Prisma.sql`"courseId" = ${courseId}`, 'userId', request),

    /** The same page of each of many learners' enrollments, in one statement (GraphQL's User.enrollments). */
    async ofUsers({ userIds, page: { limit, after } }: { userIds: readonly string[]; page: PageRequest }): Promise<Map<string, EnrollmentPage>> {
      const pages = new Map<string, EnrollmentPage>(userIds.map((id) => [id, { items: [], hasMore: false, nextCursor: null }]));
      if (userIds.length === 0) return pages;
      const seek = after ? Prisma.sql`AND ("enrolledAt", "courseId") < (${after.createdAt.toISOString()}::timestamptz, ${after.id})` : Prisma.empty;
      const rows = await db.$queryRaw<Row[]>(withProgress(
        Prisma.sql`
          SELECT x.* FROM (SELECT DISTINCT id FROM unnest(${[...userIds]}::text[]) AS u(id)) AS u
          CROSS JOIN LATERAL (
            SELECT * FROM "Enrollment" WHERE "userId" = u.id AND "leftAt" IS NULL ${seek}
            ORDER BY "enrolledAt" DESC, "courseId" DESC LIMIT ${limit + 1}
          ) AS x`,
        Prisma.sql`ORDER BY e."userId", e."enrolledAt" DESC, e."courseId" DESC`,
      ));
      const byUser = new Map<string, Row[]>();
      for (const row of rows) {
        const list = byUser.get(row.userId);
        if (list) list.push(row);
        else byUser.set(row.userId, [row]);
      }
      for (const [userId, list] of byUser) pages.set(userId, pageOf(list, limit, 'courseId'));
      return pages;
    },

    /** The learner's current enrollment in each of these courses (absent: none), in one statement. */
    async inCourses({ userId, courseIds }: { userId: string; courseIds: readonly string[] }): Promise<Map<string, EnrollmentRow>> {
      if (courseIds.length === 0) return new Map();
      const rows = await db.$queryRaw<Row[]>(withProgress(
        Prisma.sql`SELECT * FROM "Enrollment" WHERE "userId" = ${userId} AND "courseId" = ANY (${[...courseIds]}::text[]) AND "leftAt" IS NULL`,
        Prisma.empty,
      ));
      return new Map(rows.map((row) => [row.courseId, toRow(row)]));
    },

    /** These courses (enrollments exist only in published ones), in one statement. */
    async courses({ ids }: { ids: readonly string[] }) {
      const rows = await db.course.findMany({ where: { id: { in: [...ids] } } });
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** When the learner completed each of these lessons (absent: not completed), in one statement. */
    async completions({ userId, lessonIds }: { userId: string; lessonIds: readonly string[] }): Promise<Map<string, Date>> {
      if (lessonIds.length === 0) return new Map();
      const rows = await db.lessonCompletion.findMany({ where: { userId, lessonId: { in: [...lessonIds] } }, select: { lessonId: true, completedAt: true } });
      return new Map(rows.map((row) => [row.lessonId, row.completedAt]));
    },

    /**
     * A course's stats from its counters alone (CourseStats, CourseLesson.completed), in one
     * statement (one snapshot): a few rows read whatever the number of enrollments. null: no course.
     */
    async stats(courseId: string): Promise<CourseStatsRow | null> {
      const [row] = await db.$queryRaw<CourseStatsRow[]>`
        SELECT coalesce(s.enrolled, 0)::int AS enrolled, coalesce(s.completed, 0)::int AS completed,
          coalesce((SELECT json_agg(json_build_object('lessonId', cl."lessonId", 'completed', cl.completed) ORDER BY cl.position)
                    FROM "CourseLesson" cl WHERE cl."courseId" = c.id), '[]'::json) AS lessons
        FROM "Course" c LEFT JOIN "CourseStats" s ON s."courseId" = c.id
        WHERE c.id = ${courseId}`;
      return row ?? null;
    },
  };
}
